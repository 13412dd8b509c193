/* libFuzzer harness for the MDR reader. An input that starts with "RDM5" is
 * loaded as it is; any other is read as edits of the hand-made files
 * (mdr_build.h): its first byte picks whole or compressed frames and where to
 * cut the file, then each (2-byte offset, byte) triple sets one byte, so
 * mutations reach every field from the first run without seed files. A
 * successful load must keep every invariant and survive evaluation, tags and
 * the GLB writer.
 *   ./build.sh fuzz 600 */
// seeds:
#include "fuzz_load.h"
#include "mdr_build.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size >= 4 && !memcmp(data, "RDM5", 4)) {
        iq_free(iqt_fuzz_load(data, size, IQ_FORMAT_AUTO));
        return 0;
    }
    if (!size) return 0;
    static iqt_mdr_buf b;
    iqt_build_mdr(&b, data[0] & 1);
    iqt_fuzz_edited(data, size, b.d, b.n);
    return 0;
}
