/* The robustness sweeps every format's native tests run over real files:
 * every (or every stride-th) prefix, every byte patched four ways, and every
 * memory budget below what the file needs. Each input gets its own exact-size
 * heap buffer, so ASan sees any read past its end. Successful loads must keep
 * every invariant (check_model, check_evaluate, and the caller's extra check). */
#ifndef IQT_SWEEPS_H
#define IQT_SWEEPS_H
#include "check.h"
#include "check_model.h"
#include <string.h>

/* Extra per-format checks on a model that loaded; returns the violations. */
typedef int (*iqt_extra_check)(iq_model *m);

static int iqt_checked(iq_model *m, iqt_extra_check extra) {
    return check_model(m) + check_evaluate(m) + (extra ? extra(m) : 0);
}

/* Prefixes below 4 KiB are all tried, then every `stride`-th. Binary formats
 * (prefixes_may_load 0) must reject every prefix; a text format may load a
 * prefix that ends between lines, but then the model must be sound. */
static void iqt_truncation_sweep(const char *path, size_t stride, int prefixes_may_load, iqt_extra_check extra) {
    size_t n;
    unsigned char *d = iqt_read_file(path, &n);
    if (!d) { CHECK(0, "missing %s", path); return; }
    int bad = 0;
    for (size_t len = 0; len < n; len += (len < 4096 ? 1 : stride)) {
        unsigned char *copy = malloc(len ? len : 1);
        memcpy(copy, d, len);
        iq_error err;
        iq_model *m = iq_load_memory(copy, len, NULL, &err);
        if (m) bad += prefixes_may_load ? (iqt_checked(m, extra) != 0) : 1;
        else if (err.code == IQ_ERROR_NONE) bad++;
        iq_free(m);
        free(copy);
    }
    iq_error err;
    iq_model *whole = iq_load_memory(d, n, NULL, &err);
    CHECK(whole != NULL, "%s: the whole file: %s", path, err.message);
    iq_free(whole);
    CHECK(bad == 0, "%s: %d bad prefixes", path, bad);
    free(d);
}

/* Bytes from..to set to 0, 0xff, +1 and -1: each result loads soundly or
 * fails with an error code. */
static void iqt_patch_sweep(const char *path, size_t from, size_t to, iqt_extra_check extra) {
    size_t n;
    unsigned char *d = iqt_read_file(path, &n);
    if (!d) { CHECK(0, "missing %s", path); return; }
    int broken = 0;
    unsigned char *copy = malloc(n);
    for (size_t i = from; i < n && i < to; i++) {
        unsigned char values[4] = {0, 0xff, (unsigned char)(d[i] + 1), (unsigned char)(d[i] - 1)};
        for (int v = 0; v < 4; v++) {
            memcpy(copy, d, n);
            copy[i] = values[v];
            iq_error err;
            iq_model *m = iq_load_memory(copy, n, NULL, &err);
            if (m) broken += iqt_checked(m, extra) != 0;
            else if (err.code == IQ_ERROR_NONE) broken++;
            iq_free(m);
        }
    }
    free(copy);
    CHECK(broken == 0, "%s: %d patched files broke an invariant", path, broken);
    free(d);
}

/* Every memory budget below what the file needs fails with 'limit'. */
static void iqt_memory_limit_sweep(const char *path) {
    size_t n;
    unsigned char *d = iqt_read_file(path, &n);
    if (!d) { CHECK(0, "missing %s", path); return; }
    int wrong = 0, loaded = 0;
    for (size_t budget = 1; budget < (size_t)1 << 26 && !loaded; budget += budget / 8 + 1) {
        iq_load_opts opts;
        memset(&opts, 0, sizeof opts);
        opts.limits.max_memory = budget;
        iq_error err;
        iq_model *m = iq_load_memory(d, n, &opts, &err);
        if (m) loaded = 1;
        else if (err.code != IQ_ERROR_LIMIT) wrong++;
        iq_free(m);
    }
    CHECK(loaded && wrong == 0, "%s: loaded %d, %d wrong codes", path, loaded, wrong);
    free(d);
}
#endif
