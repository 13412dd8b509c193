/* libFuzzer harness for the MD2 reader (the format forced, so mutations of
 * the magic still reach the parser): on success the model must keep every
 * invariant (finite values, indices in range), survive evaluation and
 * morphing between any two frames, and write a GLB.
 *   ./build.sh fuzz 600 */
// seeds: tests/c/seeds/fuzz_md2
#include "check_model.h"
#include "glb_check.h"
#include "interquake.h"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    iq_load_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.format = IQ_FORMAT_MD2;
    iq_error err;
    iq_model *m = iq_load_memory(data, size, &opts, &err);
    if (m) {
        if (check_model(m) || check_evaluate(m) || iqt_check_glb(m)) abort();
        if (m->frame_count > 1 && m->frame_positions) {
            if (iq_instance_morph(m->instance, m->frame_count - 1, 0, 0.5f) != IQ_ERROR_NONE) abort();
            if (m->vertex_count && !iqt_all_finite(m->instance->skinned_positions, 3 * m->vertex_count)) abort();
        }
        iq_free(m);
    } else if (err.code == IQ_ERROR_NONE) {
        abort();
    }
    return 0;
}
