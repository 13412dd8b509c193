/* libFuzzer harness for animation.cfg: on success every animation is usable
 * by the frame stepper (a frame time of at least 1 ms, loop <= count) and the
 * warning is a terminated string.
 *   ./build.sh fuzz 600 */
// seeds: tests/fixtures/q3 ../shared/corpus/iqe/unvanquished/weapons/level1
#include "quake3/iq_quake3.h"
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    iq_q3_config c;
    iq_error err;
    if (iq_q3_parse_animation_cfg(data, size, &c, &err) == IQ_ERROR_NONE) {
        if (c.table_entries < IQ_Q3_REQUIRED_ENTRIES || c.table_entries > IQ_Q3_TABLE_ENTRIES) abort();
        for (int i = 0; i < IQ_Q3_ANIMATION_COUNT; i++) {
            const iq_q3_animation *a = &c.animations[i];
            if (a->frame_lerp < 1 || a->loop_frames > a->frame_count || !(a->fps > 0)) abort();
        }
        if (!memchr(c.warning, 0, sizeof c.warning)) abort();
        if (c.sex != 'm' && c.sex != 'f' && c.sex != 'n') abort();
    } else if (err.code == IQ_ERROR_NONE || !memchr(err.message, 0, sizeof err.message)) {
        abort();
    }
    return 0;
}
