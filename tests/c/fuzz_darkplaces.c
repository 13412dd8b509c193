/* libFuzzer harness for the DarkPlaces readers (DPM and ZYM). An input that
 * starts with either magic is loaded as it is; any other input is read as
 * edits of the hand-made files (darkplaces_build.h): its first byte picks DPM
 * or ZYM and where to cut the file, then each (2-byte offset, byte) triple
 * sets one byte, so mutations reach every field from the first run without
 * seed files. A successful load must keep every invariant and survive
 * evaluation and the GLB writer.
 *   ./build.sh fuzz 600 */
// seeds:
#include "darkplaces_build.h"
#include "fuzz_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if ((size >= 16 && !memcmp(data, "DARKPLACESMODEL", 16)) || (size >= 12 && !memcmp(data, "ZYMOTICMODEL", 12))) {
        iq_free(iqt_fuzz_load(data, size, IQ_FORMAT_AUTO));
        return 0;
    }
    if (!size) return 0;
    static iqt_dp_buf b;
    if (data[0] & 1) iqt_build_zym(&b);
    else iqt_build_dpm(&b);
    iqt_fuzz_edited(data, size, b.d, b.n);
    return 0;
}
