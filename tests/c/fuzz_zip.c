/* libFuzzer harness for the zip central directory: on success every entry's
 * name and data lie inside the input and the declared sizes keep the limits.
 * Seed archives are written into build/fuzz-corpus/fuzz_zip by test_q3.
 *   ./build.sh fuzz 600 */
// seeds: tests/fixtures/q3
#include "quake3/iq_quake3.h"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    iq_error err;
    iq_zip *z = iq_zip_open(data, size, NULL, &err);
    if (z) {
        uint64_t total = 0;
        for (uint32_t i = 0; i < z->entry_count; i++) {
            const iq_zip_entry *e = &z->entries[i];
            if ((uint64_t)e->name_offset + e->name_length > size || e->name_length == 0) abort();
            if ((uint64_t)e->data_offset + e->compressed_size > size) abort();
            if (e->method == IQ_ZIP_STORED && e->compressed_size != e->uncompressed_size) abort();
            total += e->uncompressed_size;
        }
        if (total != z->total_size || total > ((uint64_t)2 << 30)) abort();
        iq_zip_free(z);
    } else if (err.code == IQ_ERROR_NONE) {
        abort();
    }
    return 0;
}
