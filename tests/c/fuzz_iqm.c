/* libFuzzer harness for the loader (every format it reads): on success the
 * model must keep every invariant, survive evaluation and write a well-formed GLB.
 *   npm run fuzz -- --minutes N --only NAME */
// seeds: tests/c/seeds/fuzz_iqm
// campaign seeds: ../shared/corpus/iqm ../shared/corpus/md3/assimp
#include "check_model.h"
#include "glb_check.h"
#include "interquake.h"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    iq_error err;
    iq_model *m = iq_load_memory(data, size, NULL, &err);
    if (m) {
        if (check_model(m) || check_evaluate(m) || iqt_check_glb(m)) abort(); /* the GLB writer too */
        iq_free(m);
    } else if (err.code == IQ_ERROR_NONE) {
        abort();
    }
    return 0;
}
