/* libFuzzer harness for the Quake 1 MDL reader (the format forced, so
 * mutations of the magic still reach the parser): on success the model must
 * keep every invariant (finite values, indices in range, whole skin
 * pictures), survive evaluation and write a GLB.
 *   ./build.sh fuzz 600 */
// seeds: tests/c/seeds/fuzz_mdl
#include "check_model.h"
#include "glb_check.h"
#include "interquake.h"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    iq_load_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.format = IQ_FORMAT_MDL;
    iq_error err;
    iq_model *m = iq_load_memory(data, size, &opts, &err);
    if (m) {
        if (check_model(m) || check_evaluate(m) || iqt_check_glb(m)) abort();
        for (uint32_t i = 0; i < m->image_count; i++) {
            const iq_model_image *img = &m->images[i];
            if (!img->width || !img->height || !img->data || img->skin >= m->shader_count) abort();
            if (img->data[(size_t)img->width * img->height * 4 - 1] != 255) abort(); /* opaque, and the whole picture is there */
        }
        iq_free(m);
    } else if (err.code == IQ_ERROR_NONE) {
        abort();
    }
    return 0;
}
