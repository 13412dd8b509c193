/* Native tests of the DarkPlaces readers (src/formats/iq_darkplaces.c) under
 * ASan/UBSan: hand-made DPM and ZYM files, built here byte by byte from
 * model_dpmodel.h's and model_zymotic.h's layouts, against answers worked out
 * on paper (the same model as tests/js/lib/darkplaces-build.mjs), bad inputs
 * with their codes and byte offsets, and the truncation, patch and memory
 * sweeps. (Nexuiz's real files are checked in tests/js/core/darkplaces.test.mjs,
 * which reads them out of the game's .pk3s.) Run from the repository root. */
#include "check.h"
#include "check_model.h"
#include "load_helpers.h"
#include "sweeps.h"
#include "interquake.h"
#include "darkplaces_build.h"
#include <string.h>

static int near3(const float *v, float x, float y, float z) { return fabsf(v[0] - x) < 1e-5f && fabsf(v[1] - y) < 1e-5f && fabsf(v[2] - z) < 1e-5f; }

static void check_poses(iq_model *m, const float expect[3][3][3], const char *what) {
    for (int f = 0; f < 3; f++) {
        iq_evaluate(m, (float)f);
        for (int v = 0; v < 3; v++) {
            const float *p = m->instance->skinned_positions + 3 * v;
            CHECK(near3(p, expect[f][v][0], expect[f][v][1], expect[f][v][2]), "%s pose %d vertex %d at %g %g %g", what, f, v, p[0], p[1], p[2]);
        }
    }
}

static void test_dpm(void) {
    iqt_dp_buf b;
    iqt_build_dpm(&b);
    iq_error err;
    iq_model *m = iq_load_memory(b.d, b.n, NULL, &err);
    CHECK(m != NULL, "dpm: %s", err.message);
    if (!m) return;
    CHECK(check_model(m) == 0 && check_evaluate(m) == 0, "dpm invariants");
    CHECK(m->format == IQ_FORMAT_DPM && m->joint_count == 2 && m->vertex_count == 3 && m->frame_count == 3, "dpm counts");
    CHECK(m->animation_count == 2 && !strcmp(m->animations[0].name, "idle") && !strcmp(m->animations[1].name, "wave") &&
              m->animations[1].first_frame == 1 && m->animations[1].frame_count == 2 && m->animations[1].framerate == 10,
          "frames idle_0, wave_0, wave_1 make idle and wave at 10 fps");
    CHECK(m->indices[0] == 2 && m->indices[1] == 1 && m->indices[2] == 0, "turned clockwise");
    CHECK(near3(m->normals + 3, 0, 1, 0) && near3(m->normals + 6, 0, 0, 1), "the file's normals through pose 0");
    CHECK(m->blend_weights[8] == 0.5f && m->blend_weights[9] == 0.5f, "two halves");
    CHECK(!strcmp(m->meshes[0].material, "models/test/skin") && m->texcoords[5] == 1, "shader, texcoords as stored");
    const float expect[3][3][3] = {{{0, 0, 0}, {1, 1, 0}, {2, 0, 0}}, {{0, 0, 1}, {1, 1, 1}, {2, 0, 1}}, {{0, 0, 0}, {-1, 0, 0}, {1.5f, 1, 0}}};
    check_poses(m, expect, "dpm");
    iq_free(m);
}

static void test_zym(void) {
    iqt_dp_buf b;
    iqt_build_zym(&b);
    iq_error err;
    iq_model *m = iq_load_memory(b.d, b.n, NULL, &err);
    CHECK(m != NULL, "zym: %s", err.message);
    if (!m) return;
    CHECK(check_model(m) == 0 && check_evaluate(m) == 0, "zym invariants");
    CHECK(m->format == IQ_FORMAT_ZYM && m->joint_count == 2 && m->vertex_count == 3 && m->frame_count == 3, "zym counts");
    CHECK(m->animation_count == 2 && !strcmp(m->animations[1].name, "wave") && m->animations[1].framerate == 20 &&
              m->animations[1].flags == 0 && m->animations[0].flags == IQ_ANIMATION_LOOP,
          "scenes: rate and the no-loop flag");
    CHECK(m->texcoords[1] == 0 && m->texcoords[5] == 1, "t flipped back");
    CHECK(m->indices[0] == 2 && m->indices[2] == 0 && near3(m->normals, 0, 0, -1), "turned clockwise; normals made from it");
    const float expect[3][3][3] = {{{0, 0, 0}, {1, 1, 0}, {2, 0, 0}}, {{0, 0, 1}, {1, 1, 1}, {2, 0, 1}}, {{0, 0, 0}, {-1, 0, 0}, {1, 2, 0}}};
    check_poses(m, expect, "zym");
    iq_free(m);
}

static void test_bad_input(void) {
    iqt_dp_buf b;
    iqt_build_dpm(&b); iqt_dp_patch(&b, 16, 1); iqt_expect_load_error(b.d, b.n, IQ_ERROR_BAD_VERSION, 16, "dpm type 1");
    iqt_build_dpm(&b); iqt_dp_patch(&b, 56, 0); iqt_expect_load_error(b.d, b.n, IQ_ERROR_BAD_VALUE, 56, "dpm without bones");
    iqt_build_dpm(&b); iqt_dp_patch(&b, 152, 1); iqt_expect_load_error(b.d, b.n, IQ_ERROR_BAD_HIERARCHY, 152, "dpm parent not before its bone");
    iqt_build_dpm(&b); iqt_dp_patch(&b, 76, 0xfffffff0u); iqt_expect_load_error(b.d, b.n, IQ_ERROR_OUT_OF_RANGE, 76, "dpm frames past the end");
    iqt_build_dpm(&b); iqt_dp_patch(&b, 64, 1000); iqt_expect_load_error(b.d, b.n, IQ_ERROR_OUT_OF_RANGE, 76, "dpm frame count past the end");
    iqt_build_dpm(&b); iqt_dp_patch(&b, 64, 0x10000000u); iqt_expect_load_error(b.d, b.n, IQ_ERROR_LIMIT, 64, "dpm frame count over the limit");
    iqt_build_dpm(&b); b.n -= 16; iqt_expect_load_error(b.d, b.n, IQ_ERROR_TRUNCATED, 20, "dpm shorter than its filesize");
    iqt_build_dpm(&b); iqt_dp_patch(&b, b.n - 16, 7); iqt_expect_load_error(b.d, b.n, IQ_ERROR_BAD_INDEX, (int64_t)b.n - 16, "dpm triangle past the vertices");
    iqt_build_zym(&b); iqt_dp_patch(&b, 12, 2); iqt_expect_load_error(b.d, b.n, IQ_ERROR_BAD_VERSION, 12, "zym type 2");
    iqt_build_zym(&b); { uint32_t counts = (uint32_t)(b.d[92] << 24 | b.d[93] << 16 | b.d[94] << 8 | b.d[95]); iqt_dp_patch(&b, counts + 4, 2); }
    iqt_expect_load_error(b.d, b.n, IQ_ERROR_UNSUPPORTED, -1, "zym vertex on two bones");
    iqt_build_zym(&b); iqt_dp_patch(&b, 120, 20); iqt_expect_load_error(b.d, b.n, IQ_ERROR_BAD_MESH, 120, "zym render list of the wrong size");
    iqt_build_zym(&b); { uint32_t scenes = (uint32_t)(b.d[68] << 24 | b.d[69] << 16 | b.d[70] << 8 | b.d[71]); iqt_dp_patch(&b, scenes + 76 + 72, 3); /* wave: poses 1..3 of 0..2 */ }
    iqt_expect_load_error(b.d, b.n, IQ_ERROR_BAD_ANIMATION, -1, "zym scene past the poses");
}

int main(void) {
    test_dpm();
    test_zym();
    test_bad_input();
    iqt_dp_buf b;
    const char *paths[2] = {"build/native/hand.dpm", "build/native/hand.zym"};
    for (int i = 0; i < 2; i++) {
        if (i) iqt_build_zym(&b); else iqt_build_dpm(&b);
        iqt_write_and_sweep(paths[i], b.d, b.n);
    }
    return iqt_finish("test_darkplaces");
}
