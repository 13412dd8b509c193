/* libFuzzer harness for the Quake 1 MDL reader (the format forced, so
 * mutations of the magic still reach the parser): on success the model must
 * keep every invariant (finite values, indices in range, whole skin
 * pictures), survive evaluation and write a GLB.
 *   ./build.sh fuzz 600 */
// seeds: tests/c/seeds/fuzz_mdl
#include "fuzz_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    iq_model *m = iqt_fuzz_load(data, size, IQ_FORMAT_MDL);
    if (m) {
        for (uint32_t i = 0; i < m->image_count; i++) {
            const iq_model_image *img = &m->images[i];
            if (!img->width || !img->height || !img->data || img->skin >= m->shader_count) abort();
            if (img->data[(size_t)img->width * img->height * 4 - 1] != 255) abort(); /* opaque, and the whole picture is there */
        }
        iq_free(m);
    }
    return 0;
}
