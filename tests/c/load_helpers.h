/* What the readers' tests share (and tests/gamedata/md5.c): loading text or a
 * file with default options, or only the file's name (a file that fails to load
 * or breaks an invariant, check_model.h, is a failed CHECK naming it), a load
 * that must fail with a given code and offset, a model's warnings, and
 * comparisons of floats. */
#ifndef IQT_LOAD_HELPERS_H
#define IQT_LOAD_HELPERS_H

#include "check.h"
#include "check_model.h"
#include "interquake.h"
#include <string.h>

static inline iq_model *iqt_load_text(const char *text, iq_error *err) { return iq_load_memory(text, strlen(text), NULL, err); }

static inline iq_model *iqt_load_file(const char *path, iq_error *err) {
    size_t n;
    unsigned char *d = iqt_read_file(path, &n);
    if (!d) { CHECK(0, "cannot read %s", path); return NULL; }
    iq_model *m = iq_load_memory(d, n, NULL, err);
    free(d);
    if (!m) {
        char msg[400];
        iq_format_error(msg, sizeof msg, err);
        CHECK(0, "%s: %s", path, msg);
    } else {
        CHECK(check_model(m) == 0, "%s invariants", path);
        CHECK(check_evaluate(m) == 0, "%s evaluate", path);
    }
    return m;
}

/* The same with the path as the load's name (an .md5anim's animation is named after its file). */
static inline iq_model *iqt_load_named(const char *path, iq_error *err) {
    size_t n;
    unsigned char *d = iqt_read_file(path, &n);
    if (!d) { CHECK(0, "cannot read %s", path); return NULL; }
    iq_load_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.name = path;
    iq_model *m = iq_load_memory(d, n, &opts, err);
    free(d);
    if (!m) {
        char msg[400];
        iq_format_error(msg, sizeof msg, err);
        CHECK(0, "%s: %s", path, msg);
        return NULL;
    }
    CHECK(check_model(m) == 0 && check_evaluate(m) == 0, "%s invariants", path);
    return m;
}


/* `size` bytes fail to load with `code` at byte `offset` (-1: any offset): one CHECK. */
static inline void iqt_expect_load_error(const void *data, size_t size, iq_error_code code, int64_t offset, const char *what) {
    iq_error err;
    iq_model *m = iq_load_memory(data, size, NULL, &err);
    CHECK(!m && err.code == code && (offset < 0 || err.offset == offset), "%s: %s at %lld (%s)", what, iq_error_name(err.code),
          (long long)err.offset, err.message);
    iq_free(m);
}

/* The model kept a warning of `code` whose message holds `text` (NULL: any message). */
static inline int iqt_has_warning(const iq_model *m, iq_warning_code code, const char *text) {
    for (uint32_t i = 0; i < m->warning_count && i < IQ_MAX_WARNINGS; i++)
        if (m->warnings[i].code == code && (!text || strstr(m->warnings[i].message, text))) return 1;
    return 0;
}

static inline int iqt_near(float a, float b, float eps) { return fabsf(a - b) <= eps; }
static inline int iqt_near3(const float *v, float x, float y, float z) {
    return iqt_near(v[0], x, 1e-5f) && iqt_near(v[1], y, 1e-5f) && iqt_near(v[2], z, 1e-5f);
}
/* Quaternions equal as rotations (q and -q are the same rotation). */
static inline int iqt_same_rotation(const float *q, float x, float y, float z, float w) {
    float d = q[0] * x + q[1] * y + q[2] * z + q[3] * w;
    return fabsf(fabsf(d) - 1) < 1e-5f;
}

#endif
