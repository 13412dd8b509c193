/* libFuzzer harness for the MD2 reader (the format forced, so mutations of
 * the magic still reach the parser): on success the model must keep every
 * invariant (finite values, indices in range), survive evaluation and
 * morphing between any two frames, and write a GLB.
 *   ./build.sh fuzz 600 */
// seeds: tests/c/seeds/fuzz_md2
#include "fuzz_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    iq_model *m = iqt_fuzz_load(data, size, IQ_FORMAT_MD2);
    iqt_fuzz_morph(m);
    iq_free(m);
    return 0;
}
