/* Native tests of the IQM loader under ASan/UBSan: every corpus file loads
 * with the documented counts and invariants, and every truncation, byte patch
 * and memory limit fails cleanly. Run from the repository root. */
#include "check.h"
#include "check_model.h"
#include "sweeps.h"
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

int main(void) {
    test_corpus_counts();
    test_invalid_mesh_offset();
    iqt_truncation_sweep(CORPUS "extension/door2.iqm", 1, 0, NULL);
    iqt_truncation_sweep(CORPUS "raylib/vertex_colored_object.iqm", 1, 0, NULL);
    iqt_truncation_sweep(CORPUS "raylib/guyanim.iqm", 1, 0, NULL);
    iqt_truncation_sweep(CORPUS "raylib/guy.iqm", 1, 0, NULL);
    iqt_patch_sweep(CORPUS "extension/door2.iqm", 0, (size_t)-1, NULL);
    iqt_patch_sweep(CORPUS "raylib/vertex_colored_object.iqm", 0, (size_t)-1, NULL);
    iqt_memory_limit_sweep(CORPUS "mrfixit/mrfixit.iqm");
    iqt_memory_limit_sweep(CORPUS "extension/door2.iqm");
    return iqt_finish("test_iqm");
}
