/* A tiny test harness: CHECK records a failure and carries on; main ends
 * with the "N passed, N failed" line the CI reads. */
#ifndef IQT_CHECK_H
#define IQT_CHECK_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int iqt_passed, iqt_failed;

#define CHECK(cond, ...)                                                         \
    do {                                                                         \
        if (cond) iqt_passed++;                                                  \
        else {                                                                   \
            iqt_failed++;                                                        \
            fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                        \
            fprintf(stderr, "\n");                                               \
        }                                                                        \
    } while (0)

static inline int iqt_finish(const char *suite) {
    printf("%s: %d passed, %d failed\n", suite, iqt_passed, iqt_failed);
    return iqt_failed ? 1 : 0;
}

/* Reads a whole file; NULL when it is missing. */
static inline unsigned char *iqt_read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = malloc(n > 0 ? (size_t)n : 1);
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) { free(data); data = NULL; }
    fclose(f);
    *size = (size_t)n;
    return data;
}

/* Writes a file the tests made (a seed, a swept file), its folders first;
 * one CHECK that it was written. Returns 1 when it was. */
static inline int iqt_write_file(const char *path, const void *data, size_t size) {
    char dir[512];
    for (const char *slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/')) {
        size_t n = (size_t)(slash - path);
        if (n == 0 || n >= sizeof dir) continue;
        memcpy(dir, path, n);
        dir[n] = 0;
        mkdir(dir, 0777);
    }
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(data, 1, size, f) == size;
    if (f) fclose(f);
    CHECK(ok, "cannot write %s", path);
    return ok;
}
#endif
