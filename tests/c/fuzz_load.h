/* What the reader harnesses (fuzz_md2.c, fuzz_md3.c, ...) share: a load
 * whose failure carries an error code and whose model keeps every invariant
 * (check_model.h), survives evaluation and writes a GLB; the morph check of
 * vertex-animated models; and the edits harnesses, which read an input as
 * byte edits of a hand-made file. A violation aborts, as libFuzzer expects. */
#ifndef IQT_FUZZ_LOAD_H
#define IQT_FUZZ_LOAD_H
#include "check_model.h"
#include "glb_check.h"
#include "interquake.h"
#include <stdlib.h>
#include <string.h>

/* `data` loaded as `format` (IQ_FORMAT_AUTO: by its magic; a forced format
 * lets mutations of the magic still reach the parser) and checked; the
 * model (the caller frees it, after its own checks) or NULL. */
static inline iq_model *iqt_fuzz_load(const uint8_t *data, size_t size, iq_format format) {
    iq_load_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.format = format;
    iq_error err;
    iq_model *m = iq_load_memory(data, size, &opts, &err);
    if (!m) {
        if (err.code == IQ_ERROR_NONE) abort();
        return NULL;
    }
    if (check_model(m) || check_evaluate(m) || iqt_check_glb(m)) abort();
    return m;
}

/* A vertex-animated model morphs from its last frame to frame 0 with finite positions. */
static inline void iqt_fuzz_morph(const iq_model *m) {
    if (!m || m->frame_count <= 1 || !m->frame_positions) return;
    if (iq_instance_morph(m->instance, m->frame_count - 1, 0, 0.5f) != IQ_ERROR_NONE) abort();
    if (m->vertex_count && !iqt_all_finite(m->instance->skinned_positions, 3 * m->vertex_count)) abort();
}

/* The edits harnesses' input, applied to a hand-made file of n bytes at
 * `file`: data[0] bit 1 cuts the file to n * (data[0] >> 2) / 64 bytes (bit
 * 0 is the harness's to pick the file), then each (2-byte offset, byte)
 * triple sets one byte, so mutations reach every field from the first run
 * without seed files. The result is loaded by its magic and checked. */
static inline void iqt_fuzz_edited(const uint8_t *data, size_t size, uint8_t *file, size_t n) {
    size_t cut = n;
    if (data[0] & 2) cut = n * (data[0] >> 2) / 64; /* a cut-off file */
    for (size_t i = 1; i + 3 <= size; i += 3) file[((size_t)data[i] << 8 | data[i + 1]) % n] = data[i + 2];
    uint8_t *copy = malloc(cut ? cut : 1); /* its own size, so ASan sees a read past the end */
    memcpy(copy, file, cut);
    iq_free(iqt_fuzz_load(copy, cut, IQ_FORMAT_AUTO));
    free(copy);
}
#endif
