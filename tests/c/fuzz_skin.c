/* libFuzzer harness for .skin files: on success at most 256 surfaces, each
 * with a terminated, lower-case, non-empty name and a terminated shader.
 *   ./build.sh fuzz 600 */
// seeds: tests/fixtures/q3
#include "quake3/iq_quake3.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static iq_skin s;
    iq_error err;
    if (iq_q3_parse_skin(data, size, &s, &err) == IQ_ERROR_NONE) {
        if (s.surface_count > IQ_SKIN_MAX_SURFACES) abort();
        for (uint32_t i = 0; i < s.surface_count; i++) {
            const iq_skin_surface *f = &s.surfaces[i];
            if (!memchr(f->name, 0, sizeof f->name) || !memchr(f->shader, 0, sizeof f->shader) || !f->name[0]) abort();
            for (const char *p = f->name; *p; p++)
                if (isupper((unsigned char)*p)) abort();
        }
    } else if (err.code == IQ_ERROR_NONE || err.line == 0) {
        abort();
    }
    return 0;
}
