/* Loading for the tests that read IQE and IQM text or files (test_iqe.c,
 * test_iqm_write.c, test_gltf.c): with default options, a file that fails to load or
 * breaks an invariant (check_model.h) is a failed CHECK naming it. */
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

#endif
