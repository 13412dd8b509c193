/* Native tests of the MD5 reader (src/formats/iq_md5.c) under ASan/UBSan: the
 * hand-written fixtures against answers worked out on paper (in the fixtures'
 * comments and below), the .md5anim attached to its .md5mesh and posed, the
 * bad-input cases with their codes and lines, the weight rules, and the
 * truncation, patch and memory sweeps. Run from the repository root. Cube 2's
 * and Red Eclipse's own files: tests/gamedata/md5.c (npm run test:gamedata). */
#include "check.h"
#include "check_model.h"
#include "load_helpers.h"
#include "sweeps.h"
#include "interquake.h"
#include <string.h>

#define FIXTURES "tests/fixtures/md5/"
#define S 0.70710678f

// -- The fixtures, on paper

static void test_mesh_fixture(void) {
    iq_error err;
    iq_model *m = iqt_load_named(FIXTURES "arm.md5mesh", &err);
    if (!m) return;
    CHECK(m->format == IQ_FORMAT_MD5, "format %d", m->format);
    CHECK(m->vertex_count == 6 && m->triangle_count == 2 && m->mesh_count == 2 && m->joint_count == 3, "counts %u %u %u %u",
          m->vertex_count, m->triangle_count, m->mesh_count, m->joint_count);
    CHECK(m->warning_count == 0, "warnings %u: %s", m->warning_count, m->warning_count ? m->warnings[0].message : "");
    /* joints: model-space placements made local to their parents */
    CHECK(!strcmp(m->joints[1].name, "arm") && m->joints[1].parent == 0 && m->joints[2].parent == 1, "hierarchy");
    CHECK(iqt_near3(m->joints[0].bind.translate, 0, 0, 0) && iqt_same_rotation(m->joints[0].bind.rotate, 0, 0, 0, 1), "root bind");
    CHECK(iqt_near3(m->joints[1].bind.translate, 1, 0, 0) && iqt_same_rotation(m->joints[1].bind.rotate, 0, 0, -S, S), "arm bind: -90 about z");
    CHECK(iqt_near3(m->joints[2].bind.translate, 2, 0, 0) && iqt_same_rotation(m->joints[2].bind.rotate, 0, 0, -S, S),
          "hand bind: (2 0 0) from the arm, -90 about z (180 in model space)");
    /* positions: the sum over each vertex's weights of bias * (joint + rotation * point) */
    const float expect[6][3] = {{0, 0, 1}, {1, -1, 0}, {1, 0, 1}, {0, 0, 0}, {1, -2, 0}, {0, 0, -1}};
    for (int v = 0; v < 6; v++)
        CHECK(iqt_near3(m->positions + 3 * v, expect[v][0], expect[v][1], expect[v][2]), "vertex %d at %g %g %g", v,
              m->positions[3 * v], m->positions[3 * v + 1], m->positions[3 * v + 2]);
    CHECK(iqt_near(m->texcoords[2], 1, 0) && iqt_near(m->texcoords[5], 1, 0) && iqt_near(m->texcoords[6], 0.5f, 0), "texcoords as given");
    /* influences: vertex 2 arm and hand by halves; vertex 3's five weights merge into root .4, arm .4, hand .2 */
    CHECK(m->blend_indices[8] == 1 && m->blend_indices[9] == 2 && iqt_near(m->blend_weights[8], 0.5f, 1e-6f) &&
              iqt_near(m->blend_weights[9], 0.5f, 1e-6f), "vertex 2 blend");
    CHECK(m->blend_indices[12] == 0 && m->blend_indices[13] == 1 && m->blend_indices[14] == 2 &&
              iqt_near(m->blend_weights[12], 0.4f, 1e-6f) && iqt_near(m->blend_weights[13], 0.4f, 1e-6f) &&
              iqt_near(m->blend_weights[14], 0.2f, 1e-6f) && m->blend_weights[15] == 0,
          "vertex 3 blend %u %u %u %g %g %g", m->blend_indices[12], m->blend_indices[13], m->blend_indices[14], m->blend_weights[12],
          m->blend_weights[13], m->blend_weights[14]);
    /* meshes: Doom 3's optional name, else the shader */
    CHECK(!strcmp(m->meshes[0].name, "models/test/body") && !strcmp(m->meshes[0].material, "models/test/body") &&
              !strcmp(m->meshes[1].name, "tip") && !strcmp(m->meshes[1].material, "models/test/tip"),
          "mesh names");
    CHECK(m->meshes[1].first_vertex == 3 && m->meshes[1].vertex_count == 3 && m->meshes[1].first_triangle == 1, "mesh 1 range");
    CHECK(m->indices[3] == 3 && m->indices[4] == 5 && m->indices[5] == 4, "mesh 1's triangle in model-wide indices");
    /* normals: (v2 - v0) x (v1 - v0), clockwise fronts */
    for (int v = 0; v < 3; v++) CHECK(iqt_near3(m->normals + 3 * v, 0, S, -S), "normal %d", v);
    for (int v = 3; v < 6; v++) CHECK(iqt_near3(m->normals + 3 * v, 0.89442719f, 0.44721360f, 0), "normal %d", v);
    iq_free(m);
}

static void test_anim_fixture(void) {
    iq_error err;
    iq_model *a = iqt_load_named(FIXTURES "arm_wave.md5anim", &err);
    if (!a) return;
    CHECK(a->format == IQ_FORMAT_MD5 && a->vertex_count == 0 && a->joint_count == 3 && a->frame_count == 3 &&
              a->animation_count == 1, "anim counts");
    CHECK(!strcmp(a->animations[0].name, "arm_wave") && a->animations[0].framerate == 10 && a->animations[0].frame_count == 3,
          "animation named after the file: '%s' at %g", a->animations[0].name, a->animations[0].framerate);
    /* the base frame where nothing animates (hand Tz = 5), the components where the flags say */
    const iq_transform *f0 = a->frame_poses, *f1 = a->frame_poses + 3, *f2 = a->frame_poses + 6;
    CHECK(iqt_near3(f0[2].translate, 2, 0, 5) && iqt_near3(f2[2].translate, 3, 1, 5), "hand translate from components and base");
    CHECK(iqt_same_rotation(f0[1].rotate, 0, 0, -S, S) && iqt_same_rotation(f1[1].rotate, 0, 0, 0, 1) &&
              iqt_same_rotation(f2[1].rotate, 0, 0, S, S), "arm Qz 0.707 / 0 / -0.707: -90, 0, +90 degrees");
    CHECK(iqt_same_rotation(f1[2].rotate, 0, 0, -S, S), "hand rotation from the base frame");
    CHECK(iqt_near3(a->frame_bounds[0].min, -1, -2, -1) && iqt_near3(a->frame_bounds[2].max, 1, 3, 1.5f), "stored boxes");
    CHECK(iqt_near(a->frame_bounds[0].radius, sqrtf(6), 1e-5f) && iqt_near(a->frame_bounds[0].xy_radius, sqrtf(5), 1e-5f),
          "radii to the farthest corner");

    iq_model *m = iqt_load_named(FIXTURES "arm.md5mesh", &err);
    if (!m) { iq_free(a); return; }
    CHECK(iq_attach_animations(m, a, &err) == 0, "attach: %s", err.message);
    CHECK(m->frame_count == 3 && m->animation_count == 1 && !strcmp(m->animations[0].name, "arm_wave"), "attached");
    /* skinned positions at each frame, worked out on paper */
    const float expect[3][6][3] = {
        {{0, 0, 1}, {1, -1, 0}, {1, 0, 3.5f}, {0, 0, 1}, {1, -2, 5}, {0, 0, -1}},
        {{0, 0, 1}, {2, 0, 0}, {1, 0, 3.5f}, {0.6f, -0.6f, 1}, {3, 0, 5}, {0, 0, -1}},
        {{0, 0, 1}, {1, 1, 0}, {0.5f, 0.5f, 3.5f}, {1, 0.2f, 1}, {0, 3, 5}, {0, 0, -1}},
    };
    for (int f = 0; f < 3; f++) {
        CHECK(iq_evaluate(m, (float)f) == 0, "evaluate %d", f);
        for (int v = 0; v < 6; v++) {
            const float *p = m->instance->skinned_positions + 3 * v;
            CHECK(iqt_near3(p, expect[f][v][0], expect[f][v][1], expect[f][v][2]), "frame %d vertex %d at %g %g %g", f, v, p[0], p[1], p[2]);
        }
    }
    iq_free(m);
    iq_free(a);
}

// -- Weights

static iq_model *load_text(const char *text, iq_error *err) { return iq_load_memory(text, strlen(text), NULL, err); }

static void test_weights(void) {
    /* six weights on six joints: the 4 largest drive the skinning, renormalised; the position uses all */
    const char *six =
        "MD5Version 10\ncommandline \"\"\nnumJoints 6\nnumMeshes 1\njoints {\n"
        "\"a\" -1 ( 0 0 0 ) ( 0 0 0 )\n\"b\" 0 ( 1 0 0 ) ( 0 0 0 )\n\"c\" 0 ( 2 0 0 ) ( 0 0 0 )\n"
        "\"d\" 0 ( 3 0 0 ) ( 0 0 0 )\n\"e\" 0 ( 4 0 0 ) ( 0 0 0 )\n\"f\" 0 ( 5 0 0 ) ( 0 0 0 )\n}\n"
        "mesh {\nshader \"s\"\nnumverts 1\nvert 0 ( 0 0 ) 0 6\nnumtris 0\nnumweights 6\n"
        "weight 0 0 0.05 ( 1 0 0 )\nweight 1 1 0.3 ( 0 0 0 )\nweight 2 2 0.1 ( -1 0 0 )\n"
        "weight 3 3 0.25 ( -2 0 0 )\nweight 4 4 0.2 ( -3 0 0 )\nweight 5 5 0.1 ( -4 0 0 )\n}\n";
    iq_error err;
    iq_model *m = load_text(six, &err);
    CHECK(m != NULL, "six weights: %s", err.message);
    if (m) {
        CHECK(check_model(m) == 0, "six weights invariants");
        CHECK(iqt_near3(m->positions, 1, 0, 0), "position from all six");
        CHECK(m->blend_indices[0] == 1 && m->blend_indices[1] == 3 && m->blend_indices[2] == 4 &&
                  (m->blend_indices[3] == 2 || m->blend_indices[3] == 5) && iqt_near(m->blend_weights[0], 0.3f / 0.85f, 1e-6f) &&
                  iqt_near(m->blend_weights[3], 0.1f / 0.85f, 1e-6f),
              "the 4 largest: %u %u %u %u", m->blend_indices[0], m->blend_indices[1], m->blend_indices[2], m->blend_indices[3]);
        CHECK(iqt_has_warning(m, IQ_WARNING_IGNORED_DATA, "more than 4 weights"), "warned");
        iq_free(m);
    }
    /* a vertex with no weight (Doom 3 refuses it; Cube 2 loads it): at the origin, on joint 0, warned */
    const char *none = "MD5Version 10\ncommandline \"\"\nnumJoints 1\nnumMeshes 1\njoints {\n\"a\" -1 ( 0 0 0 ) ( 0 0 0 )\n}\n"
                       "mesh {\nshader \"s\"\nnumverts 1\nvert 0 ( 0 0 ) 0 0\nnumtris 0\nnumweights 0\n}\n";
    m = load_text(none, &err);
    CHECK(m && check_model(m) == 0 && iqt_has_warning(m, IQ_WARNING_REPAIRED, "no positive weight"), "weightless vertex: %s",
          m ? "" : err.message);
    iq_free(m);
    /* weights that place a vertex at two different points: loaded, warned, with the widest gap */
    const char *apart = "MD5Version 10\ncommandline \"\"\nnumJoints 2\nnumMeshes 1\njoints {\n\"a\" -1 ( 0 0 0 ) ( 0 0 0 )\n"
                        "\"b\" 0 ( 0 0 0 ) ( 0 0 0 )\n}\nmesh {\nshader \"s\"\nnumverts 1\nvert 0 ( 0 0 ) 0 2\nnumtris 0\n"
                        "numweights 2\nweight 0 0 0.5 ( 0 0 0 )\nweight 1 1 0.5 ( 2 0 0 )\n}\n";
    m = load_text(apart, &err);
    CHECK(m && iqt_near3(m->positions, 1, 0, 0) && iqt_has_warning(m, IQ_WARNING_NONSTANDARD, "up to 1 units apart"), "weights apart: %s",
          m && m->warning_count ? m->warnings[0].message : err.message);
    iq_free(m);
}

// -- Bad input: each with its code and line

typedef struct bad_case {
    const char *what, *text;
    iq_error_code code;
    uint32_t line;
} bad_case;

#define HEAD "MD5Version 10\ncommandline \"\"\n"
#define JOINT1 "numJoints 1\nnumMeshes 1\njoints {\n\"a\" -1 ( 0 0 0 ) ( 0 0 0 )\n}\n"
#define PAD "// padding, so that the counts above fit in what is left of the file\n"
#define ANIM1 "numFrames 1\nnumJoints 1\nframeRate 24\nnumAnimatedComponents 1\n"

static void test_bad_input(void) {
    static const bad_case cases[] = {
        {"version 11", "MD5Version 11\ncommandline \"\"\nnumJoints 1\n", IQ_ERROR_BAD_VERSION, 1},
        {"neither a mesh nor an anim", HEAD "numThings 1\n", IQ_ERROR_SYNTAX, 3},
        {"no joints", HEAD "numJoints 0\nnumMeshes 0\n", IQ_ERROR_BAD_VALUE, 3},
        {"a count the file cannot hold", HEAD "numJoints 100000\nnumMeshes 0\n", IQ_ERROR_OUT_OF_RANGE, 3},
        {"over the joint limit", HEAD "numJoints 5000\nnumMeshes 0\njoints {\n", IQ_ERROR_OUT_OF_RANGE, 3},
        {"a parent after its joint", HEAD "numJoints 2\nnumMeshes 0\njoints {\n\"a\" -1 ( 0 0 0 ) ( 0 0 0 )\n\"b\" 1 ( 0 0 0 ) ( 0 0 0 )\n}\n",
         IQ_ERROR_BAD_HIERARCHY, 7},
        {"a word for a number", HEAD "numJoints 1\nnumMeshes 0\njoints {\n\"a\" -1 ( 0 zero 0 ) ( 0 0 0 )\n}\n", IQ_ERROR_SYNTAX, 6},
        {"NaN position", HEAD "numJoints 1\nnumMeshes 0\njoints {\n\"a\" -1 ( 0 nan 0 ) ( 0 0 0 )\n}\n", IQ_ERROR_BAD_VALUE, 6},
        {"a huge position", HEAD "numJoints 1\nnumMeshes 0\njoints {\n\"a\" -1 ( 0 1e9 0 ) ( 0 0 0 )\n}\n", IQ_ERROR_BAD_VALUE, 6},
        {"a missing parenthesis", HEAD "numJoints 1\nnumMeshes 0\njoints {\n\"a\" -1 ( 0 0 0 ( 0 0 0 )\n}\n", IQ_ERROR_SYNTAX, 6},
        {"a tri index past the vertices", HEAD JOINT1 "mesh {\nshader \"s\"\nnumverts 1\nvert 0 ( 0 0 ) 0 1\nnumtris 1\ntri 0 0 0 1\n",
         IQ_ERROR_BAD_INDEX, 13},
        {"a weight on a joint that is not there", HEAD JOINT1 "mesh {\nshader \"s\"\nnumverts 1\nvert 0 ( 0 0 ) 0 1\nnumtris 0\n"
         "numweights 1\nweight 0 1 1 ( 0 0 0 )\n}\n", IQ_ERROR_BAD_INDEX, 14},
        {"a vert whose weights run past the list", HEAD JOINT1 "mesh {\nshader \"s\"\nnumverts 1\nvert 0 ( 0 0 ) 0 2\nnumtris 0\n"
         "numweights 1\nweight 0 0 1 ( 0 0 0 )\n}\n", IQ_ERROR_BAD_INDEX, 11},
        {"cut off in a mesh", HEAD JOINT1 "mesh {\nshader \"s\"\nnumverts 1\nvert 0 ( 0 0 ) 0 1\n", IQ_ERROR_TRUNCATED, 12},
        {"an unclosed comment", HEAD "numJoints 1\nnumMeshes 0\n/* never closed\n" PAD, IQ_ERROR_SYNTAX, 5},
        {"anim: no frames", HEAD "numFrames 0\n", IQ_ERROR_BAD_VALUE, 3},
        {"anim: negative frame rate", HEAD "numFrames 1\nnumJoints 1\nframeRate -1\n" PAD, IQ_ERROR_BAD_VALUE, 5},
        {"anim: more components than 6 per joint", HEAD "numFrames 1\nnumJoints 1\nframeRate 24\nnumAnimatedComponents 7\n" PAD,
         IQ_ERROR_BAD_ANIMATION, 6},
        {"anim: flags past 63", HEAD ANIM1 "hierarchy {\n\"a\" -1 64 0\n}\n", IQ_ERROR_BAD_ANIMATION, 8},
        {"anim: components past the frame", HEAD ANIM1 "hierarchy {\n\"a\" -1 3 0\n}\n", IQ_ERROR_BAD_ANIMATION, 8},
        {"anim: frames out of order", HEAD ANIM1 "hierarchy {\n\"a\" -1 1 0\n}\nbounds {\n( 0 0 0 ) ( 1 1 1 )\n}\n"
         "baseframe {\n( 0 0 0 ) ( 0 0 0 )\n}\nframe 1 {\n0\n}\n", IQ_ERROR_BAD_ANIMATION, 16},
        {"anim: a huge component", HEAD ANIM1 "hierarchy {\n\"a\" -1 1 0\n}\nbounds {\n( 0 0 0 ) ( 1 1 1 )\n}\n"
         "baseframe {\n( 0 0 0 ) ( 0 0 0 )\n}\nframe 0 {\n1e300\n}\n", IQ_ERROR_BAD_VALUE, 16},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        iq_error err;
        iq_model *m = load_text(cases[i].text, &err);
        CHECK(!m && err.code == cases[i].code && err.line == cases[i].line, "%s: code %s line %u (%s); expected %s line %u",
              cases[i].what, iq_error_name(err.code), err.line, err.message, iq_error_name(cases[i].code), cases[i].line);
        iq_free(m);
    }
    /* a tight joint limit is 'limit' at the count */
    iq_load_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.limits.max_joints = 2;
    const char *three = HEAD "numJoints 3\nnumMeshes 0\njoints {\n\"a\" -1 ( 0 0 0 ) ( 0 0 0 )\n\"b\" 0 ( 0 0 0 ) ( 0 0 0 )\n"
                        "\"c\" 0 ( 0 0 0 ) ( 0 0 0 )\n}\n";
    iq_error err;
    iq_model *m = iq_load_memory(three, strlen(three), &opts, &err);
    CHECK(!m && err.code == IQ_ERROR_LIMIT && err.line == 3, "joint limit: %s", err.message);
    iq_free(m);
}

/* What real files do that Doom 3 would refuse and Cube 2 loads: each loads, warned. */
static void test_lenient(void) {
    static const struct { const char *what, *text, *warning; } cases[] = {
        {"no MD5Version", "commandline \"\"\n" JOINT1 "mesh {\nshader \"s\"\nnumverts 0\nnumtris 0\nnumweights 0\n}\n", "no MD5Version"},
        {"no commandline", "MD5Version 10\n" JOINT1 "mesh {\nshader \"s\"\nnumverts 0\nnumtris 0\nnumweights 0\n}\n", "no commandline"},
        {"no shader", HEAD JOINT1 "mesh {\nnumverts 0\nnumtris 0\nnumweights 0\n}\n", "no shader line"},
        {"fewer meshes than numMeshes", HEAD "numJoints 1\nnumMeshes 2\njoints {\n\"a\" -1 ( 0 0 0 ) ( 0 0 0 )\n}\n"
         "mesh {\nshader \"s\"\nnumverts 0\nnumtris 0\nnumweights 0\n}\n", "numMeshes is 2"},
        {"more boxes and frames than numFrames", HEAD ANIM1 "hierarchy {\n\"a\" -1 1 0\n}\nbounds {\n( 0 0 0 ) ( 1 1 1 )\n"
         "( 0 0 0 ) ( 2 2 2 )\n}\nbaseframe {\n( 0 0 0 ) ( 0 0 0 )\n}\nframe 0 {\n0\n}\nframe 1 {\n1\n}\n", "the bounds list 2 boxes"},
        {"two roots in an anim", HEAD "numFrames 1\nnumJoints 2\nframeRate 24\nnumAnimatedComponents 0\nhierarchy {\n\"a\" -1 0 0\n"
         "\"b\" -1 0 0\n}\nbounds {\n( 0 0 0 ) ( 1 1 1 )\n}\nbaseframe {\n( 0 0 0 ) ( 0 0 0 )\n( 0 0 0 ) ( 0 0 0 )\n}\nframe 0 {\n}\n",
         "2 root joints"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        iq_error err;
        iq_model *m = load_text(cases[i].text, &err);
        CHECK(m && check_model(m) == 0 && check_evaluate(m) == 0, "%s: %s", cases[i].what, m ? "invariants" : err.message);
        if (m) CHECK(iqt_has_warning(m, IQ_WARNING_NONSTANDARD, cases[i].warning), "%s: warned", cases[i].what);
        iq_free(m);
    }
    /* parentheses glued to numbers, as Doom 3's lexer splits them */
    const char *glued = HEAD "numJoints 1\nnumMeshes 0\njoints {\n\"a\" -1 (0 1 2) (0 0 0)\n}\n";
    iq_error err;
    iq_model *m = load_text(glued, &err);
    CHECK(m && iqt_near3(m->joints[0].bind.translate, 0, 1, 2), "glued parentheses: %s", m ? "" : err.message);
    iq_free(m);
}

int main(void) {
    test_mesh_fixture();
    test_anim_fixture();
    test_weights();
    test_bad_input();
    test_lenient();
    iqt_truncation_sweep(FIXTURES "arm.md5mesh", 1, 1, NULL);
    iqt_truncation_sweep(FIXTURES "arm_wave.md5anim", 1, 1, NULL);
    iqt_patch_sweep(FIXTURES "arm.md5mesh", 0, (size_t)-1, NULL);
    iqt_patch_sweep(FIXTURES "arm_wave.md5anim", 0, (size_t)-1, NULL);
    iqt_memory_limit_sweep(FIXTURES "arm.md5mesh");
    iqt_memory_limit_sweep(FIXTURES "arm_wave.md5anim");
    return iqt_finish("test_md5");
}
