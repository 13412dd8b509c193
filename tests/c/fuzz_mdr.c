/* libFuzzer harness for the MDR reader. An input that starts with "RDM5" is
 * loaded as it is; any other is read as edits of the hand-made files
 * (mdr_build.h): its first byte picks whole or compressed frames and where to
 * cut the file, then each (2-byte offset, byte) triple sets one byte, so
 * mutations reach every field from the first run without seed files. A
 * successful load must keep every invariant and survive evaluation, tags and
 * the GLB writer.
 *   ./build.sh fuzz 600 */
// seeds:
#include "check_model.h"
#include "glb_check.h"
#include "interquake.h"
#include "mdr_build.h"
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
    if (size >= 4 && !memcmp(data, "RDM5", 4)) {
        try_load(data, size);
        return 0;
    }
    if (!size) return 0;
    static iqt_mdr_buf b;
    iqt_build_mdr(&b, data[0] & 1);
    size_t n = b.n;
    if (data[0] & 2) n = b.n * (data[0] >> 2) / 64;
    for (size_t i = 1; i + 3 <= size; i += 3) b.d[((size_t)data[i] << 8 | data[i + 1]) % b.n] = data[i + 2];
    uint8_t *copy = malloc(n ? n : 1);
    memcpy(copy, b.d, n);
    try_load(copy, n);
    free(copy);
    return 0;
}
