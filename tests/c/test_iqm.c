/* Native tests of the IQM loader under ASan/UBSan: every corpus file loads
 * with the documented counts and invariants, and every truncation, byte patch
 * and memory limit fails cleanly. Run from the repository root. */
#include "check.h"
#include "check_model.h"
#include "interquake.h"
#include <string.h>

#define CORPUS "../shared/corpus/iqm/"

static iq_model *load(const unsigned char *d, size_t n, iq_error *err) { return iq_load_memory(d, n, NULL, err); }

static void test_corpus_counts(void) {
    struct { const char *path; uint32_t meshes, vertices, triangles, joints, frames, anims; } files[] = {
        {CORPUS "mrfixit/mrfixit.iqm", 2, 1861, 2988, 75, 101, 1},
        {CORPUS "raylib/guy.iqm", 1, 240, 120, 14, 122, 2},
        {CORPUS "raylib/guyanim.iqm", 0, 0, 0, 14, 122, 2},
        {CORPUS "raylib/vertex_colored_object.iqm", 1, 24, 12, 0, 0, 0},
        {CORPUS "extension/door2.iqm", 1, 48, 24, 2, 18, 3},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        size_t n;
        unsigned char *d = iqt_read_file(files[i].path, &n);
        CHECK(d != NULL, "cannot read %s", files[i].path);
        if (!d) continue;
        iq_error err;
        iq_model *m = load(d, n, &err);
        CHECK(m != NULL, "%s: %s", files[i].path, err.message);
        if (m) {
            CHECK(m->mesh_count == files[i].meshes, "%s meshes %u", files[i].path, m->mesh_count);
            CHECK(m->vertex_count == files[i].vertices, "%s vertices %u", files[i].path, m->vertex_count);
            CHECK(m->triangle_count == files[i].triangles, "%s triangles %u", files[i].path, m->triangle_count);
            CHECK(m->joint_count == files[i].joints, "%s joints %u", files[i].path, m->joint_count);
            CHECK(m->frame_count == files[i].frames, "%s frames %u", files[i].path, m->frame_count);
            CHECK(m->animation_count == files[i].anims, "%s anims %u", files[i].path, m->animation_count);
            CHECK(check_model(m) == 0, "%s invariants", files[i].path);
            CHECK(check_evaluate(m) == 0, "%s evaluate", files[i].path);
            iq_free(m);
        }
        free(d);
    }
}

static void test_invalid_mesh_offset(void) {
    size_t n;
    unsigned char *d = iqt_read_file(CORPUS "invalid/InvalidMeshOffset.iqm", &n);
    CHECK(d != NULL, "missing InvalidMeshOffset.iqm");
    if (!d) return;
    iq_error err;
    iq_model *m = load(d, n, &err);
    CHECK(m == NULL && err.code == IQ_ERROR_OUT_OF_RANGE, "code %s", iq_error_name(err.code));
    iq_free(m);
    free(d);
}

/* Every prefix fails cleanly; the whole file loads. Each prefix gets its own
 * exact-size heap buffer so ASan sees any read past its end. */
static void test_truncation_sweep(const char *path) {
    size_t n;
    unsigned char *d = iqt_read_file(path, &n);
    if (!d) { CHECK(0, "missing %s", path); return; }
    int failures = 0;
    for (size_t len = 0; len < n; len++) {
        unsigned char *copy = malloc(len ? len : 1);
        memcpy(copy, d, len);
        iq_error err;
        iq_model *m = load(copy, len, &err);
        if (m || err.code == IQ_ERROR_NONE) failures++;
        iq_free(m);
        free(copy);
    }
    CHECK(failures == 0, "%s: %d prefixes loaded", path, failures);
    free(d);
}

/* Every byte set to 0, 0xff, +1, -1: loads that succeed must keep every
 * invariant; the rest must fail with an error code. */
static void test_patch_sweep(const char *path) {
    size_t n;
    unsigned char *d = iqt_read_file(path, &n);
    if (!d) { CHECK(0, "missing %s", path); return; }
    int broken = 0;
    unsigned char *copy = malloc(n);
    for (size_t i = 0; i < n; i++) {
        unsigned char values[4] = {0, 0xff, (unsigned char)(d[i] + 1), (unsigned char)(d[i] - 1)};
        for (int v = 0; v < 4; v++) {
            memcpy(copy, d, n);
            copy[i] = values[v];
            iq_error err;
            iq_model *m = load(copy, n, &err);
            if (m) {
                if (check_model(m) || check_evaluate(m)) broken++;
                iq_free(m);
            } else if (err.code == IQ_ERROR_NONE) broken++;
        }
    }
    free(copy);
    CHECK(broken == 0, "%s: %d patched files broke an invariant", path, broken);
    free(d);
}

/* Every memory budget below what the file needs fails with 'limit'. */
static void test_memory_limit_sweep(const char *path) {
    size_t n;
    unsigned char *d = iqt_read_file(path, &n);
    if (!d) { CHECK(0, "missing %s", path); return; }
    int wrong = 0, loaded = 0;
    for (size_t budget = 1; budget < (size_t)1 << 22 && !loaded; budget += budget / 8 + 1) {
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

int main(void) {
    test_corpus_counts();
    test_invalid_mesh_offset();
    test_truncation_sweep(CORPUS "extension/door2.iqm");
    test_truncation_sweep(CORPUS "raylib/vertex_colored_object.iqm");
    test_truncation_sweep(CORPUS "raylib/guyanim.iqm");
    test_truncation_sweep(CORPUS "raylib/guy.iqm");
    test_patch_sweep(CORPUS "extension/door2.iqm");
    test_patch_sweep(CORPUS "raylib/vertex_colored_object.iqm");
    test_memory_limit_sweep(CORPUS "mrfixit/mrfixit.iqm");
    test_memory_limit_sweep(CORPUS "extension/door2.iqm");
    return iqt_finish("test_iqm");
}
