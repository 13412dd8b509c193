/* libFuzzer harness for DarkPlaces .framegroups text (iq_apply_framegroups)
 * over a small built model: every result must keep the model's invariants
 * (each animation inside the frames, a rate of at least 1) and play.
 *   ./build.sh fuzz 600 */
// seeds: tests/fixtures/framegroups
#include "check_model.h"
#include "interquake.h"
#include <stdlib.h>

/* An MDL of 3 frames (one vertex, one triangle): enough frames to name. */
static const uint8_t model_bytes[] = {
    'I', 'D', 'P', 'O', 6, 0, 0, 0,
    0, 0, 128, 63, 0, 0, 128, 63, 0, 0, 128, 63, /* scale 1 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* origin */
    0, 0, 128, 63, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* radius, eye */
    0, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 128, 63, /* size */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* st 0 */
    0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, /* st 1 */
    0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, /* st 2 */
    1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, /* triangle */
#define FRAME(z) 0, 0, 0, 0, 0, 0, 0, 0, 9, 9, 9, 0, 'f', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, \
    0, 0, z, 5, 9, 0, z, 5, 0, 9, z, 5
    FRAME(0), FRAME(1), FRAME(2)
#undef FRAME
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    iq_error err;
    iq_model *m = iq_load_memory(model_bytes, sizeof model_bytes, NULL, &err);
    if (!m) abort();
    if (iq_apply_framegroups(m, (const char *)data, size, &err) == IQ_ERROR_NONE) {
        if (check_model(m) || check_evaluate(m)) abort();
        for (uint32_t a = 0; a < m->animation_count; a++) {
            const iq_animation *an = &m->animations[a];
            if (!an->name || !an->frame_count || an->first_frame + an->frame_count > m->frame_count || !(an->framerate >= 1)) abort();
            iq_playhead head;
            if (iq_playhead_at(m, a, 1.5, NULL, &head) != IQ_ERROR_NONE || head.frame_a >= m->frame_count) abort();
        }
    } else if (err.code == IQ_ERROR_NONE) {
        abort();
    }
    iq_free(m);
    return 0;
}
