/* libFuzzer harness for the MD3 loader (the format forced, so mutations of
 * the magic still reach the parser): on success the model must keep every
 * invariant, survive evaluation, and give finite tag matrices.
 *   npm run fuzz -- --minutes N --only NAME */
// seeds: tests/c/seeds/fuzz_md3
// campaign seeds: ../shared/corpus/md3/assimp ../shared/corpus/md3/openarena/models/players/sarge
#include "fuzz_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    iq_model *m = iqt_fuzz_load(data, size, IQ_FORMAT_MD3); /* the GLB writer too */
    if (m) {
        for (uint32_t t = 0; t < m->tag_count; t++) {
            float mat[16];
            if (iq_tag_matrix(m, m->tag_names[t], 0.5f, mat) != IQ_ERROR_NONE || !iqt_all_finite(mat, 16)) abort();
            for (int axis = 0; axis < 3; axis++) { /* orthonormalised, whatever the file held */
                const float *a = mat + 4 * axis, *b = mat + 4 * ((axis + 1) % 3);
                if (fabsf(a[0] * a[0] + a[1] * a[1] + a[2] * a[2] - 1) > 1e-4f) abort();
                if (fabsf(a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) > 1e-4f) abort();
            }
        }
        iq_free(m);
    }
    return 0;
}
