/* Native tests of the MDR reader (src/formats/iq_mdr.c) under ASan/UBSan: the
 * hand-made file of mdr_build.h, with whole and with compressed frames,
 * against answers worked out on paper; bad inputs with their codes and byte
 * offsets; the truncation, patch and memory sweeps. Run from the repository
 * root. */
#include "check.h"
#include "check_model.h"
#include "load_helpers.h"
#include "sweeps.h"
#include "interquake.h"
#include "mdr_build.h"
#include <string.h>

static int near3(const float *v, float x, float y, float z) { return fabsf(v[0] - x) < 1e-4f && fabsf(v[1] - y) < 1e-4f && fabsf(v[2] - z) < 1e-4f; }

static void test_model(int compressed) {
    iqt_mdr_buf b;
    iqt_build_mdr(&b, compressed);
    iq_error err;
    iq_model *m = iq_load_memory(b.d, b.n, NULL, &err);
    CHECK(m != NULL, "mdr (compressed %d): %s", compressed, err.message);
    if (!m) return;
    CHECK(check_model(m) == 0 && check_evaluate(m) == 0, "mdr invariants");
    CHECK(m->format == IQ_FORMAT_MDR && m->joint_count == 2 && m->frame_count == 2 && m->vertex_count == 3 && m->triangle_count == 1,
          "counts");
    CHECK(m->joints[0].parent == -1 && m->joints[1].parent == -1 && !strcmp(m->joints[1].name, "bone 1"), "bones in model space");
    CHECK(!strcmp(m->meshes[0].name, "body") && !strcmp(m->meshes[0].material, "models/test/skin"), "surface and shader");
    CHECK(m->animation_count == 1 && !strcmp(m->animations[0].name, "all") && m->animations[0].frame_count == 2, "one clip");
    CHECK(near3(m->normals + 3, 0, 1, 0), "vertex 1's normal turned by its bone");
    CHECK(m->blend_weights[8] == 0.5f && m->blend_weights[9] == 0.5f, "two halves");
    const float expect[2][3][3] = {{{0, 0, 0}, {1, 1, 0}, {2, 0, 0}}, {{0, 0, 1}, {0, 0, 0}, {1.5f, 0.5f, 0.5f}}};
    for (int f = 0; f < 2; f++) {
        iq_evaluate(m, (float)f);
        for (int v = 0; v < 3; v++) {
            const float *p = m->instance->skinned_positions + 3 * v;
            CHECK(near3(p, expect[f][v][0], expect[f][v][1], expect[f][v][2]), "compressed %d frame %d vertex %d at %g %g %g", compressed, f, v,
                  p[0], p[1], p[2]);
        }
    }
    float tag[16];
    CHECK(iq_tag_matrix(m, "tag_hand", 0, tag) == IQ_ERROR_NONE && near3(tag + 12, 1, 0, 0) && near3(tag, 0, 1, 0), "the tag on bone 1 at frame 0");
    CHECK(iq_tag_matrix(m, "tag_hand", 1, tag) == IQ_ERROR_NONE && near3(tag, -1, 0, 0), "and at frame 1");
    iq_free(m);
}

static void test_bad_input(void) {
    iqt_mdr_buf b;
    iqt_build_mdr(&b, 0); iqt_mdr_patch(&b, 4, 3); iqt_expect_load_error(b.d, b.n, IQ_ERROR_BAD_VERSION, 4, "version 3");
    iqt_build_mdr(&b, 0); iqt_mdr_patch(&b, 76, 129); iqt_expect_load_error(b.d, b.n, IQ_ERROR_LIMIT, 76, "129 bones (ioquake3's limit is 128)");
    iqt_build_mdr(&b, 0); iqt_mdr_patch(&b, 72, 0); iqt_expect_load_error(b.d, b.n, IQ_ERROR_BAD_VALUE, 72, "no frames");
    iqt_build_mdr(&b, 0); iqt_mdr_patch(&b, 72, 1000); iqt_expect_load_error(b.d, b.n, IQ_ERROR_OUT_OF_RANGE, 80, "frames past the end");
    iqt_build_mdr(&b, 1); iqt_mdr_patch(&b, 80, (uint32_t)-100000); iqt_expect_load_error(b.d, b.n, IQ_ERROR_OUT_OF_RANGE, 80, "compressed frames past the end");
    iqt_build_mdr(&b, 0); iqt_mdr_patch(&b, b.n - 36, 2); iqt_expect_load_error(b.d, b.n, IQ_ERROR_BAD_INDEX, (int64_t)b.n - 36, "a tag on a bone that is not there");
    iqt_build_mdr(&b, 0); iqt_mdr_patch(&b, b.n - 40, 3); iqt_expect_load_error(b.d, b.n, IQ_ERROR_BAD_INDEX, (int64_t)b.n - 40, "a triangle past the vertices");
    iqt_build_mdr(&b, 0); b.n -= 8; iqt_expect_load_error(b.d, b.n, IQ_ERROR_TRUNCATED, 100, "shorter than ofsEnd");
}

int main(void) {
    test_model(0);
    test_model(1);
    test_bad_input();
    const char *paths[2] = {"build/native/hand.mdr", "build/native/hand_compressed.mdr"};
    for (int i = 0; i < 2; i++) {
        iqt_mdr_buf b;
        iqt_build_mdr(&b, i);
        iqt_write_and_sweep(paths[i], b.d, b.n);
    }
    return iqt_finish("test_mdr");
}
