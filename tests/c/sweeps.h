/* The robustness sweeps every format's native tests run over real files:
 * every (or every stride-th) prefix, every byte patched four ways, every heap
 * allocation failing in turn and every memory budget below what the file
 * needs, with nothing left allocated after a failure. Each input gets its own
 * exact-size heap buffer, so ASan sees any read past its end. Successful loads must keep
 * every invariant (check_model, check_evaluate, and the caller's extra check). */
#ifndef IQT_SWEEPS_H
#define IQT_SWEEPS_H
#include "check.h"
#include "check_model.h"
#include <string.h>

/* Extra per-format checks on a model that loaded; returns the violations. */
typedef int (*iqt_extra_check)(iq_model *m);

static inline int iqt_checked(iq_model *m, iqt_extra_check extra) {
    return check_model(m) + check_evaluate(m) + (extra ? extra(m) : 0);
}

/* Prefixes below 4 KiB are all tried, then every `stride`-th. Binary formats
 * (prefixes_may_load 0) must reject every prefix; a text format may load a
 * prefix that ends between lines, but then the model must be sound. */
static inline void iqt_truncation_sweep(const char *path, size_t stride, int prefixes_may_load, iqt_extra_check extra) {
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
static inline void iqt_patch_sweep(const char *path, size_t from, size_t to, iqt_extra_check extra) {
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

/* -- Memory. Built with IQI_TEST_ALLOC (build.sh does for the native tests),
 * the library's heap calls are counted (iq_internal.h): a failed load must
 * leave no block allocated. */
#ifndef IQI_TEST_ALLOC
#error "the sweeps need the library built with -DIQI_TEST_ALLOC (build.sh native does)"
#endif
#include "base/iq_internal.h"

/* Allocations tried one by one: up to this many, then evenly sampled (the
 * first and last ones always). */
#define IQT_MAX_ALLOCATION_TRIES 1500

/* Runs `attempt` with the fail_at-th heap allocation failing (0: none) and
 * returns the allocations it made; *leaked gets the blocks it left. */
typedef int (*iqt_attempt)(const void *arg, iq_error *err);
static inline uint64_t iqt_with_failing_allocation(iqt_attempt attempt, const void *arg, uint64_t fail_at, int *ok,
                                            int64_t *leaked, iq_error *err) {
    iqi_test_heap saved = iqi_test_heap_state;
    iqi_test_heap_state = (iqi_test_heap){0, fail_at, 0};
    *ok = attempt(arg, err);
    uint64_t made = iqi_test_heap_state.allocations;
    *leaked = iqi_test_heap_state.live;
    iqi_test_heap_state = (iqi_test_heap){saved.allocations, 0, saved.live};
    return made;
}

/* Fails each heap allocation of `attempt` in turn (sampled past
 * IQT_MAX_ALLOCATION_TRIES): each must fail with 'out_of_memory' and leave
 * nothing allocated; the attempt itself must succeed and leave nothing. */
static inline void iqt_allocation_sweep(const char *what, iqt_attempt attempt, const void *arg) {
    int ok;
    int64_t leaked;
    iq_error err;
    uint64_t count = iqt_with_failing_allocation(attempt, arg, 0, &ok, &leaked, &err);
    CHECK(ok && leaked == 0 && count > 0, "%s: the attempt with no failure: ok %d, %lld blocks left, %llu allocations (%s)",
          what, ok, (long long)leaked, (unsigned long long)count, err.message);
    if (!ok) return;
    uint64_t step = count <= IQT_MAX_ALLOCATION_TRIES ? 1 : count / IQT_MAX_ALLOCATION_TRIES;
    int wrong = 0, leaks = 0, tried = 0;
    for (uint64_t k = 1; k <= count; k += (k < 100 || k + 100 > count) ? 1 : step) {
        iqt_with_failing_allocation(attempt, arg, k, &ok, &leaked, &err);
        tried++;
        if (ok || err.code != IQ_ERROR_OUT_OF_MEMORY) {
            if (!wrong++) CHECK(0, "%s: allocation %llu of %llu failing: loaded %d, code %s (%s)", what, (unsigned long long)k,
                                (unsigned long long)count, ok, iq_error_name(err.code), err.message);
        }
        if (leaked) {
            if (!leaks++) CHECK(0, "%s: allocation %llu of %llu failing left %lld blocks allocated", what, (unsigned long long)k,
                                (unsigned long long)count, (long long)leaked);
        }
    }
    CHECK(wrong == 0 && leaks == 0 && tried > 0, "%s: %d of %d failing allocations (of %llu) gave a wrong result, %d leaked", what,
          wrong, tried, (unsigned long long)count, leaks);
}

typedef struct iqt_load_arg { const unsigned char *data; size_t size; const iq_load_opts *opts; } iqt_load_arg;
static inline int iqt_load_attempt(const void *arg, iq_error *err) {
    const iqt_load_arg *a = arg;
    iq_model *m = iq_load_memory(a->data, a->size, a->opts, err);
    iq_free(m);
    return m != NULL;
}

/* Every heap allocation of the load fails in turn with 'out_of_memory'; every
 * memory budget below what the file needs (stepping by an eighth) fails with
 * 'limit'; no failed load leaves a block allocated. */
static inline void iqt_memory_limit_sweep(const char *path) {
    size_t n;
    unsigned char *d = iqt_read_file(path, &n);
    if (!d) { CHECK(0, "missing %s", path); return; }
    iqt_load_arg arg = {d, n, NULL};
    iqt_allocation_sweep(path, iqt_load_attempt, &arg);
    int wrong = 0, loaded = 0, leaks = 0;
    for (size_t budget = 1; budget < (size_t)1 << 26 && !loaded; budget += budget / 8 + 1) {
        iq_load_opts opts;
        memset(&opts, 0, sizeof opts);
        opts.limits.max_memory = budget;
        arg.opts = &opts;
        int ok;
        int64_t leaked;
        iq_error err;
        iqt_with_failing_allocation(iqt_load_attempt, &arg, 0, &ok, &leaked, &err);
        if (ok) loaded = 1;
        else if (err.code != IQ_ERROR_LIMIT) wrong++;
        leaks += leaked != 0;
    }
    CHECK(loaded && wrong == 0 && leaks == 0, "%s: loaded %d, %d wrong codes, %d budgets leaked", path, loaded, wrong, leaks);
    free(d);
}

/* A file a test made, written to `path` (a fuzzer's seed folder, or
 * build/native/) and swept whole: every prefix, every byte patched, every
 * allocation failing and every memory budget. */
static inline void iqt_write_and_sweep(const char *path, const void *data, size_t size) {
    if (!iqt_write_file(path, data, size)) return;
    iqt_truncation_sweep(path, 1, 0, NULL);
    iqt_patch_sweep(path, 0, (size_t)-1, NULL);
    iqt_memory_limit_sweep(path);
}
#endif
