/* Loading for the tests that read text or files (test_iqe.c, test_iqm_write.c,
 * test_gltf.c, test_md5.c, tests/gamedata/md5.c): with default options (or only the
 * file's name), a file that fails to load or breaks an invariant (check_model.h) is a
 * failed CHECK naming it. */
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

/* Has the model a warning of this kind whose message holds text (any message when NULL)? */
static inline int iqt_has_warning(const iq_model *m, iq_warning_code code, const char *text) {
    for (uint32_t i = 0; i < m->warning_count && i < IQ_MAX_WARNINGS; i++)
        if (m->warnings[i].code == code && (!text || strstr(m->warnings[i].message, text))) return 1;
    return 0;
}

#endif
