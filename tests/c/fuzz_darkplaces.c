/* libFuzzer harness for the DarkPlaces readers (DPM and ZYM). An input that
 * starts with either magic is loaded as it is; any other input is read as
 * edits of the hand-made files (darkplaces_build.h): its first byte picks DPM
 * or ZYM and where to cut the file, then each (2-byte offset, byte) triple
 * sets one byte, so mutations reach every field from the first run without
 * seed files. A successful load must keep every invariant and survive
 * evaluation and the GLB writer.
 *   ./build.sh fuzz 600 */
// seeds:
#include "check_model.h"
#include "darkplaces_build.h"
#include "glb_check.h"
#include "interquake.h"
#include <stdlib.h>

static void try_load(const uint8_t *data, size_t size) {
    iq_error err;
    iq_model *m = iq_load_memory(data, size, NULL, &err);
    if (!m) {
        if (err.code == IQ_ERROR_NONE) abort();
        return;
    }
    if (check_model(m) || check_evaluate(m) || iqt_check_glb(m)) abort();
    iq_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if ((size >= 16 && !memcmp(data, "DARKPLACESMODEL", 16)) || (size >= 12 && !memcmp(data, "ZYMOTICMODEL", 12))) {
        try_load(data, size);
        return 0;
    }
    if (!size) return 0;
    static iqt_dp_buf b;
    if (data[0] & 1) iqt_build_zym(&b);
    else iqt_build_dpm(&b);
    size_t n = b.n;
    if (data[0] & 2) n = b.n * (data[0] >> 2) / 64; /* a cut-off file */
    for (size_t i = 1; i + 3 <= size; i += 3) {
        size_t at = ((size_t)data[i] << 8 | data[i + 1]) % b.n;
        b.d[at] = data[i + 2];
    }
    uint8_t *copy = malloc(n ? n : 1); /* its own size, so ASan sees a read past the end */
    memcpy(copy, b.d, n);
    try_load(copy, n);
    free(copy);
    return 0;
}
