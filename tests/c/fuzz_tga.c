/* libFuzzer harness for the TGA decoder: a decode either fails with an error
 * code or gives a non-empty image whose every byte can be read (ASan checks
 * the size).
 *   npm run fuzz -- --minutes N --only NAME */
// seeds: tests/c/seeds/fuzz_tga
// campaign seeds: ../shared/corpus/iqm/mrfixit
#include "interquake.h"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    iq_error err;
    iq_image *img = iq_decode_tga(data, size, NULL, &err);
    if (img) {
        if (!img->width || !img->height || img->width > IQ_TGA_MAX_DIMENSION || img->height > IQ_TGA_MAX_DIMENSION) abort();
        size_t bytes = (size_t)img->width * img->height * 4, sum = 0;
        for (size_t i = 0; i < bytes; i++) sum += img->data[i];
        if (sum > bytes * 255) abort();
        iq_image_free(img);
    } else if (err.code == IQ_ERROR_NONE) {
        abort();
    }
    return 0;
}
