/* Native tests of the IQE reader under ASan/UBSan: the real files of the
 * corpus against an independent scan of their lines, the project's fixtures
 * against values worked out on paper, every bad-input case of formats.md
 * section 4 (items 15-24), and the truncation, patch and memory sweeps. Run
 * from the repository root. (The IQM writer's tests are in test_iqm_write.c.) */
#include "check.h"
#include "check_model.h"
#include "load_helpers.h"
#include "sweeps.h"
#include "interquake.h"
#include <ctype.h>
#include <string.h>

#define CORPUS "../shared/corpus/iqe/unvanquished/"
#define FIXTURES "tests/fixtures/iqe/"
#define S 0.70710678f

/* Column k of a transform's 3x3 part: the rotated, scaled axis k (computed here, independently of iq_math.h). */
static void axis_of(const iq_transform *t, int k, float out[3]) {
    float v[3] = {0, 0, 0}, c1[3], c2[3];
    const float *q = t->rotate;
    v[k] = t->scale[k];
    c1[0] = q[1] * v[2] - q[2] * v[1]; c1[1] = q[2] * v[0] - q[0] * v[2]; c1[2] = q[0] * v[1] - q[1] * v[0];
    c2[0] = q[1] * c1[2] - q[2] * c1[1]; c2[1] = q[2] * c1[0] - q[0] * c1[2]; c2[2] = q[0] * c1[1] - q[1] * c1[0];
    for (int i = 0; i < 3; i++) out[i] = v[i] + 2 * q[3] * c1[i] + 2 * c2[i];
}

/* The transform's matrix has rows A, B, C (as pm writes them). */
static int matrix_is(const iq_transform *t, const float rows[9]) {
    for (int k = 0; k < 3; k++) {
        float col[3];
        axis_of(t, k, col);
        if (!iqt_near(col[0], rows[k], 1e-5f) || !iqt_near(col[1], rows[3 + k], 1e-5f) || !iqt_near(col[2], rows[6 + k], 1e-5f)) return 0;
    }
    return 1;
}

// -- Corpus: counts from an independent scan of the text

typedef struct scan {
    uint32_t vertices, triangles, meshes, joints, animations, anim_poses, texcoords, normals;
    float first_vp[3], framerate[16];
    char anim_names[16][64];
} scan;

static void scan_file(const char *text, size_t n, scan *s) {
    memset(s, 0, sizeof *s);
    const char *p = text, *end = text + n;
    int in_animation = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        char word[32] = {0};
        int len = 0;
        const char *c = p;
        while (c < e && isspace((unsigned char)*c)) c++;
        while (c < e && !isspace((unsigned char)*c) && len < 31) word[len++] = *c++;
        int tokens = 0;
        for (const char *q = p; q < e;) {
            while (q < e && isspace((unsigned char)*q)) q++;
            if (q < e) tokens++;
            while (q < e && !isspace((unsigned char)*q)) q++;
        }
        if (!strcmp(word, "vp")) {
            if (!s->vertices) sscanf(c, "%f %f %f", &s->first_vp[0], &s->first_vp[1], &s->first_vp[2]);
            s->vertices++;
        } else if (!strcmp(word, "vt")) s->texcoords++;
        else if (!strcmp(word, "vn")) s->normals++;
        else if (!strcmp(word, "fm") || !strcmp(word, "fa")) s->triangles += (uint32_t)(tokens - 3);
        else if (!strcmp(word, "mesh")) s->meshes++;
        else if (!strcmp(word, "joint")) s->joints++;
        else if (!strcmp(word, "animation")) {
            in_animation = 1;
            const char *q = strchr(c, '"');
            if (q && s->animations < 16) sscanf(q + 1, "%63[^\"]", s->anim_names[s->animations]);
            s->animations++;
        } else if (!strcmp(word, "framerate") && s->animations && s->animations <= 16)
            sscanf(c, "%f", &s->framerate[s->animations - 1]);
        else if (in_animation && word[0] == 'p' && len == 2) s->anim_poses++;
        p = nl ? nl + 1 : end;
    }
}

static void test_corpus(void) {
    const char *files[] = {CORPUS "jetpack.iqe", CORPUS "weapons/level1/vwep_view.iqe", CORPUS "missiles/spike/spike.iqe",
                           CORPUS "missiles/lockblob/lockblob.iqe", CORPUS "missiles/rocket/rocket.iqe"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        size_t n;
        unsigned char *d = iqt_read_file(files[i], &n);
        CHECK(d != NULL, "missing %s", files[i]);
        if (!d) continue;
        scan s;
        scan_file((const char *)d, n, &s);
        iq_error err;
        iq_model *m = iq_load_memory(d, n, NULL, &err);
        CHECK(m != NULL, "%s: %s", files[i], err.message);
        if (m) {
            CHECK(check_model(m) == 0 && check_evaluate(m) == 0, "%s invariants", files[i]);
            CHECK(m->format == IQ_FORMAT_IQE, "%s format", files[i]);
            CHECK(m->vertex_count == s.vertices, "%s: %u vertices, the scan counts %u", files[i], m->vertex_count, s.vertices);
            CHECK(m->triangle_count == s.triangles, "%s: %u triangles, scan %u", files[i], m->triangle_count, s.triangles);
            CHECK(m->mesh_count == s.meshes, "%s: %u meshes, scan %u", files[i], m->mesh_count, s.meshes);
            CHECK(m->joint_count == s.joints, "%s: %u joints, scan %u", files[i], m->joint_count, s.joints);
            CHECK(m->animation_count == s.animations, "%s: %u animations, scan %u", files[i], m->animation_count, s.animations);
            CHECK((m->texcoords != NULL) == (s.texcoords > 0) && (s.normals == 0 || s.normals == s.vertices), "%s arrays", files[i]);
            if (s.joints) CHECK(m->frame_count == s.anim_poses / s.joints, "%s: %u frames, scan %u", files[i], m->frame_count, s.anim_poses / s.joints);
            if (s.vertices) CHECK(iqt_near3(m->positions, s.first_vp[0], s.first_vp[1], s.first_vp[2]), "%s first vp", files[i]);
            for (uint32_t a = 0; a < m->animation_count && a < 16; a++) {
                CHECK(!strcmp(m->animations[a].name, s.anim_names[a]), "%s anim %u name %s", files[i], a, m->animations[a].name);
                CHECK(m->animations[a].framerate == s.framerate[a], "%s anim %u rate", files[i], a);
            }
            CHECK(m->warning_count == 0, "%s: %u warnings, first: %s", files[i], m->warning_count,
                  m->warning_count ? m->warnings[0].message : "");
            iq_free(m);
        }
        free(d);
    }
    /* vwep_view: the last animation loops; the others do not (read off the file: one `loop` line) */
    iq_error err;
    iq_model *m = iqt_load_file(CORPUS "weapons/level1/vwep_view.iqe", &err);
    if (m) {
        uint32_t loops = 0;
        for (uint32_t a = 0; a < m->animation_count; a++) loops += m->animations[a].flags & IQ_ANIMATION_LOOP;
        CHECK(loops == 1 && (m->animations[6].flags & IQ_ANIMATION_LOOP) && !strcmp(m->animations[6].name, "idle"), "vwep loop");
        CHECK(m->animations[6].frame_count == 201 && m->animations[0].frame_count == 16, "vwep frame ranges");
        iq_free(m);
    }
}

// -- Fixtures, checked against values worked out on paper

static void test_poses(void) {
    iq_error err;
    iq_model *m = iqt_load_file(FIXTURES "poses.iqe", &err);
    if (!m) return;
    const iq_joint *j = m->joints;
    CHECK(m->joint_count == 5 && j[4].parent == 0 && j[3].parent == 2, "joints");
    /* pq with omitted w: w = -sqrt(1 - 0.36) = -0.8 */
    CHECK(iqt_near3(j[0].bind.translate, 1, 2, 3) && iqt_near(j[0].bind.rotate[2], 0.6f, 1e-6f) && iqt_near(j[0].bind.rotate[3], -0.8f, 1e-6f),
          "pq derived w: %g %g", j[0].bind.rotate[2], j[0].bind.rotate[3]);
    /* pm: a quarter turn about Z with scale 2 inside */
    CHECK(iqt_same_rotation(j[1].bind.rotate, 0, 0, S, S) && iqt_near3(j[1].bind.scale, 2, 2, 2), "pm scale inside: %g %g %g %g / %g",
          j[1].bind.rotate[0], j[1].bind.rotate[1], j[1].bind.rotate[2], j[1].bind.rotate[3], j[1].bind.scale[0]);
    CHECK(j[1].bind.rotate[3] <= 0, "pm canonical w <= 0");
    /* pa: a quarter turn about Z, scale 1 2 3 */
    CHECK(iqt_same_rotation(j[2].bind.rotate, 0, 0, S, S) && iqt_near3(j[2].bind.scale, 1, 2, 3), "pa");
    /* pq with w > 0 and not unit: normalised and flipped */
    CHECK(iqt_near(j[3].bind.rotate[2], -0.6f, 1e-6f) && iqt_near(j[3].bind.rotate[3], -0.8f, 1e-6f) && iqt_near3(j[3].bind.scale, 0.5f, 0.5f, 0.5f),
          "pq flip/normalise");
    /* pm with a negative determinant: scale -1 and a half turn about X */
    CHECK(iqt_same_rotation(j[4].bind.rotate, 1, 0, 0, 0) && iqt_near3(j[4].bind.scale, -1, -1, -1), "pm mirror: %g %g %g %g / %g",
          j[4].bind.rotate[0], j[4].bind.rotate[1], j[4].bind.rotate[2], j[4].bind.rotate[3], j[4].bind.scale[0]);
    /* the decomposed pm poses rebuild the matrices of the file */
    static const float arm[9] = {0, -2, 0, 2, 0, 0, 0, 0, 2}, mirror[9] = {-1, 0, 0, 0, 1, 0, 0, 0, 1};
    CHECK(matrix_is(&j[1].bind, arm), "pm rebuilds its matrix");
    CHECK(matrix_is(&j[4].bind, mirror), "pm mirror rebuilds its matrix");
    CHECK(m->frame_count == 2 && m->animation_count == 1, "frames %u", m->frame_count);
    CHECK(!strcmp(m->animations[0].name, "wave") && m->animations[0].framerate == 10 && (m->animations[0].flags & IQ_ANIMATION_LOOP), "anim");
    CHECK(iqt_has_warning(m, IQ_WARNING_EMPTY, "empty frame"), "empty frame warning");
    const iq_transform *f0 = m->frame_poses, *f1 = m->frame_poses + 5;
    CHECK(iqt_same_rotation(f0[1].rotate, S, 0, 0, S) && iqt_near3(f0[1].translate, 1, 0, 0), "pa about X");
    CHECK(iqt_same_rotation(f0[2].rotate, 0, 0, 0, 1) && iqt_near3(f0[2].scale, 3, 3, 3), "pm extra scale");
    CHECK(iqt_same_rotation(f1[1].rotate, 0, S, 0, S) && iqt_near3(f1[1].translate, 2, 0, 0), "pa about Y");
    CHECK(iqt_same_rotation(f1[2].rotate, S, 0, 0, S) && iqt_near3(f1[2].scale, 1, 1, 1), "pm quarter turn about X");
    CHECK(iqt_near3(f1[0].translate, 0, 0, 1), "frame 1 translate");
    /* pa's order with two axes at once: X first, then Y (q = qy * qx) */
    iq_free(m);
    const char *euler = "# Inter-Quake Export\njoint a\npa 0 0 0 1.5707963267948966 1.5707963267948966 0\n";
    m = iqt_load_text(euler, &err);
    CHECK(m != NULL, "euler: %s", err.message);
    if (m) {
        /* qy(90) * qx(90) = (0.5, 0.5, -0.5, 0.5) */
        CHECK(iqt_same_rotation(m->joints[0].bind.rotate, 0.5f, 0.5f, -0.5f, 0.5f), "euler order: %g %g %g %g", m->joints[0].bind.rotate[0],
              m->joints[0].bind.rotate[1], m->joints[0].bind.rotate[2], m->joints[0].bind.rotate[3]);
        iq_free(m);
    }
}

static void test_faces(void) {
    iq_error err;
    iq_model *m = iqt_load_file(FIXTURES "faces.iqe", &err);
    if (!m) return;
    static const uint32_t expected[] = {0, 1, 2, 0, 2, 3, 0, 3, 4, 5, 6, 7, 10, 9, 8, 8, 9, 10};
    CHECK(m->triangle_count == 6 && m->vertex_count == 11, "counts %u %u", m->triangle_count, m->vertex_count);
    if (m->triangle_count == 6) CHECK(!memcmp(m->indices, expected, sizeof expected), "fan, fm offsets, negative indexes");
    CHECK(m->mesh_count == 3, "repeated (mesh, material) blocks stay separate: %u meshes", m->mesh_count);
    if (m->mesh_count == 3) {
        CHECK(!strcmp(m->meshes[0].name, "quad") && !strcmp(m->meshes[0].material, "stone") && m->meshes[0].triangle_count == 3, "mesh 0");
        CHECK(!strcmp(m->meshes[1].name, "tri") && !strcmp(m->meshes[1].material, "wood") && m->meshes[1].first_triangle == 3 &&
                  m->meshes[1].first_vertex == 5 && m->meshes[1].vertex_count == 3, "mesh 1");
        CHECK(m->meshes[2].first_triangle == 4 && m->meshes[2].triangle_count == 2 && m->meshes[2].first_vertex == 8, "mesh 2");
    }
    CHECK(m->normals && iqt_near3(m->normals + 3 * 10, 0, 0, 1), "file normals kept");
    iq_free(m);

    m = iqt_load_file(FIXTURES "faceless.iqe", &err);
    if (!m) return;
    static const uint32_t triples[] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    CHECK(m->triangle_count == 3 && m->mesh_count == 2, "faceless %u %u", m->triangle_count, m->mesh_count);
    if (m->triangle_count == 3) CHECK(!memcmp(m->indices, triples, sizeof triples), "triples");
    if (m->mesh_count == 2) CHECK(m->meshes[0].triangle_count == 2 && m->meshes[1].first_triangle == 2 && !strcmp(m->meshes[1].material, "m"), "faceless meshes");
    CHECK(m->normals && iqt_near3(m->normals, 0, 0, 1) && iqt_near3(m->normals + 24, 0, 0, 1), "faceless normals (clockwise front: +z)");
    iq_free(m);

    m = iqt_load_file(FIXTURES "crlf_tabs.iqe", &err);
    if (!m) return;
    CHECK(!strcmp(m->joints[0].name, "left upper arm") && !strcmp(m->meshes[0].name, "my mesh") &&
              !strcmp(m->meshes[0].material, "textures/a b/c.tga"), "quoted names with spaces, CRLF, tabs");
    CHECK(m->triangle_count == 1 && m->blend_indices && m->blend_weights[0] == 1, "crlf content");
    iq_free(m);
}

static void test_custom(void) {
    iq_error err;
    iq_model *m = iqt_load_file(FIXTURES "custom.iqe", &err);
    if (!m) return;
    CHECK(m->custom_array_count == 3, "%u custom arrays", m->custom_array_count);
    if (m->custom_array_count == 3) {
        const iq_custom_array *c = m->custom_arrays;
        CHECK(!strcmp(c[0].name, "glow amount") && c[0].format == IQ_UBYTE && c[0].size == 4, "custom0 decl");
        const uint8_t *u = c[0].data;
        CHECK(u[0] == 255 && u[1] == 128 && u[2] == 0 && u[3] == 51 && u[4] == 0 && u[8] == 255, "custom0 normalised ubyte: %u %u %u %u", u[0], u[1], u[2], u[3]);
        CHECK(!strcmp(c[1].name, "custom1") && c[1].format == IQ_FLOAT && c[1].size == 2, "custom1 decl");
        const float *f = c[1].data;
        CHECK(f[0] == 1.5f && f[1] == 2.5f && f[2] == 3 && f[3] == 4 && f[4] == 5 && f[5] == 0, "custom1 values");
        CHECK(!strcmp(c[2].name, "kept as float 4") && c[2].format == IQ_FLOAT && c[2].size == 4, "invalid fields ignored");
        CHECK(((const float *)c[2].data)[11] == 12, "custom3 values");
    }
    CHECK(iqt_has_warning(m, IQ_WARNING_IGNORED_DATA, "without a vertexarray"), "undeclared custom warned");
    CHECK(iqt_has_warning(m, IQ_WARNING_IGNORED_DATA, "sparkle"), "unknown vertexarray type warned");
    CHECK(m->colors && m->colors[3] == 1 && m->colors[11] == 1 && m->colors[0] == 1 && m->colors[5] == 1, "colour A ignored (3 components by default)");
    CHECK(m->normals && iqt_near3(m->normals, 0, 0, -1), "generated normal of a counter-clockwise triangle is -z");
    iq_free(m);
    /* a declared colour size 4 keeps A */
    m = iqt_load_text("# Inter-Quake Export\nvertexarray color ubyte 4\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nvc 1 1 1 0.5\nvc 1 1 1\nvc 0 0 0 0\n", &err);
    CHECK(m && m->colors[3] == 0.5f && m->colors[7] == 1 && m->colors[11] == 0, "declared colour alpha");
    iq_free(m);
}

static void test_animation_fixture(void) {
    iq_error err;
    iq_model *m = iqt_load_file(FIXTURES "anim.iqe", &err);
    if (!m) return;
    CHECK(m->joint_count == 2 && !strcmp(m->joints[0].name, "Root Bone"), "joints");
    CHECK(m->frame_count == 3 && m->animation_count == 2, "frames %u anims %u", m->frame_count, m->animation_count);
    if (m->animation_count == 2) {
        CHECK(!strcmp(m->animations[0].name, "walk cycle") && m->animations[0].frame_count == 2 && m->animations[0].framerate == 25 &&
                  m->animations[0].flags == IQ_ANIMATION_LOOP, "walk cycle");
        CHECK(!strcmp(m->animations[1].name, "animation 1") && m->animations[1].first_frame == 2 && m->animations[1].frame_count == 1 &&
                  m->animations[1].flags == 0, "dummy name: %s", m->animations[1].name);
    }
    CHECK(m->blend_indices[8] == 0 && iqt_near(m->blend_weights[8], 0.75f, 1e-6f) && m->blend_indices[9] == 1 && iqt_near(m->blend_weights[9], 0.25f, 1e-6f),
          "vb sorted by weight");
    CHECK(m->blend_indices[12] == 0 && m->blend_weights[12] == 1 && m->blend_weights[13] == 0, "zero weight unused");
    static const char comment[] = "exported by hand\n  with \"quotes\", # hashes and\ttabs\n";
    CHECK(m->comment_size == sizeof comment - 1 && !memcmp(m->comment, comment, sizeof comment - 1), "comment verbatim");
    CHECK(iqt_near3(m->frame_poses[2 * 2 + 1].scale, 1, 1, 2), "pq scale");
    /* evaluate frame 1: joint 1 turned 90 degrees about Z (x -> y) at (1,0,1): vertex 1 (0,0,1), bound to joint 1 */
    iq_evaluate(m, 1);
    CHECK(iqt_near3(m->instance->skinned_positions + 3, 1, 0, 1), "frame 1 vertex 1: %g %g %g", m->instance->skinned_positions[3], m->instance->skinned_positions[4], m->instance->skinned_positions[5]);
    iq_free(m);
}

static void expect_normals(const char *file, const float expected[][3], uint32_t count) {
    iq_error err;
    iq_model *m = iqt_load_file(file, &err);
    if (!m) return;
    CHECK(m->vertex_count == count && m->normals, "%s: %u vertices", file, m->vertex_count);
    for (uint32_t v = 0; v < count && v < m->vertex_count && m->normals; v++)
        CHECK(iqt_near3(m->normals + 3 * v, expected[v][0], expected[v][1], expected[v][2]), "%s vertex %u normal (%g %g %g), expected (%g %g %g)", file,
              v, m->normals[3 * v], m->normals[3 * v + 1], m->normals[3 * v + 2], expected[v][0], expected[v][1], expected[v][2]);
    iq_free(m);
}

/* Triangle A lies in z = 0 (face normal +z), B in x = 0 (+x); they meet at
 * (0,0,0) [vertices 0, 3] and (0,1,0) [vertices 1, 5]. Welded corners get
 * the normalised sum (s, 0, s); the rest keep their face normal. */
static void test_smoothing(void) {
    static const float welded[6][3] = {{S, 0, S}, {S, 0, S}, {0, 0, 1}, {S, 0, S}, {1, 0, 0}, {S, 0, S}};
    static const float faceted[6][3] = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {1, 0, 0}, {1, 0, 0}, {1, 0, 0}};
    static const float uv[6][3] = {{0, 0, 1}, {S, 0, S}, {0, 0, 1}, {1, 0, 0}, {1, 0, 0}, {S, 0, S}};
    static const float vs[6][3] = {{S, 0, S}, {0, 0, 1}, {0, 0, 1}, {S, 0, S}, {1, 0, 0}, {1, 0, 0}};
    expect_normals(FIXTURES "smooth_default.iqe", welded, 6);       /* smoothangle 180 by default */
    expect_normals(FIXTURES "smooth_angle120.iqe", welded, 6);      /* 90 <= 120 (the SDK treats 120 as 60) */
    expect_normals(FIXTURES "smooth_angle60.iqe", faceted, 6);      /* 90 > 60 */
    expect_normals(FIXTURES "smooth_angle0.iqe", faceted, 6);
    expect_normals(FIXTURES "smooth_group.iqe", faceted, 6);        /* keys 1 and 2 differ */
    expect_normals(FIXTURES "smooth_uv.iqe", uv, 6);                /* only (0,1,0) has matching texcoords */
    expect_normals(FIXTURES "smooth_vs.iqe", vs, 6);                /* only vertices 0 and 3 share a vs index */
    expect_normals(FIXTURES "smooth_vs_match.iqe", welded, 6);      /* 1 and 5 share one too (the SDK compares corners 1 and 2 instead) */
    expect_normals(FIXTURES "smooth_fs_hard.iqe", faceted, 6);      /* A marks the shared edge hard */
    expect_normals(FIXTURES "smooth_fs_one.iqe", faceted, 6);       /* B marks it hard: both must agree (the SDK: either) */
    expect_normals(FIXTURES "smooth_fs_smooth.iqe", welded, 6);
    /* One vertex index shared by two faceted triangles splits into one vertex per normal. */
    static const float split[6][3] = {{0, 0, 1}, {1, 0, 0}, {0, 0, 1}, {1, 0, 0}, {0, 0, 1}, {1, 0, 0}};
    expect_normals(FIXTURES "smooth_split.iqe", split, 6);
    iq_error err;
    iq_model *m = iqt_load_file(FIXTURES "smooth_split.iqe", &err);
    if (m) {
        static const uint32_t tris[] = {0, 2, 4, 1, 5, 3};
        static const float pos[6][3] = {{0, 0, 0}, {0, 0, 0}, {0, 1, 0}, {0, 1, 0}, {1, 0, 0}, {0, 0, 1}};
        CHECK(m->triangle_count == 2 && !memcmp(m->indices, tris, sizeof tris), "split triangles");
        for (int v = 0; v < 6; v++) CHECK(iqt_near3(m->positions + 3 * v, pos[v][0], pos[v][1], pos[v][2]), "split position %d", v);
        CHECK(m->meshes[0].first_vertex == 0 && m->meshes[0].vertex_count == 6, "split mesh range");
        iq_free(m);
    }
    /* Face-less files: each triangle has the smoothing settings in force at its first vertex. */
    static const char roof[] = "vp 0 0 0\nvp 0 1 0\nvp 1 0 0\n", roof2[] = "vp 0 0 0\nvp 0 0 1\nvp 0 1 0\n";
    char text[512];
    snprintf(text, sizeof text, "# Inter-Quake Export\nsmoothgroup 1\n%ssmoothgroup 2\n%s", roof, roof2);
    m = iqt_load_text(text, &err);
    CHECK(m && m->triangle_count == 2 && iqt_near3(m->normals, 0, 0, 1) && iqt_near3(m->normals + 9, 1, 0, 0), "face-less, two groups");
    iq_free(m);
    snprintf(text, sizeof text, "# Inter-Quake Export\nsmoothgroup 1\n%ssmoothgroup 1\n%s", roof, roof2);
    m = iqt_load_text(text, &err);
    CHECK(m && iqt_near3(m->normals, S, 0, S) && iqt_near3(m->normals + 15, S, 0, S), "face-less, one group");
    iq_free(m);
    /* Smoothing across meshes (spec), and area weighting: a triangle twice as large counts twice. */
    m = iqt_load_text("# Inter-Quake Export\nmesh a\nvp 0 0 0\nvp 0 1 0\nvp 2 0 0\nfm 0 1 2\nmesh b\nvp 0 0 0\nvp 0 0 1\nvp 0 1 0\nfm 0 1 2\n", &err);
    CHECK(m != NULL, "cross-mesh: %s", err.message);
    if (m) {
        float n = 1 / sqrtf(5); /* (1,0,0)*1 + (0,0,1)*2, normalised */
        CHECK(iqt_near3(m->normals, n, 0, 2 * n) && iqt_near3(m->normals + 9, n, 0, 2 * n), "cross-mesh area-weighted: %g %g %g", m->normals[0], m->normals[1], m->normals[2]);
        iq_free(m);
    }
}

// -- Bad input: items 15-24 of formats.md section 4, each with its deliberate answer

typedef struct bad_case {
    const char *name, *text;
    iq_error_code code;
    uint32_t line, column;
    const char *message; /* a part the message must contain (the offending token) */
} bad_case;

static void test_bad_input(void) {
    static const bad_case cases[] = {
        /* 15 */
        {"unterminated quote", "# Inter-Quake Export\nmesh \"open\n", IQ_ERROR_SYNTAX, 2, 6, "no closing quote"},
        {"text after a quote", "# Inter-Quake Export\nmesh \"a\"b\n", IQ_ERROR_SYNTAX, 2, 9, "'b'"},
        {"NUL in a name", "# Inter-Quake Export\nmesh a\0b\n", IQ_ERROR_SYNTAX, 2, 6, "NUL"},
        /* 16 */
        {"fa with 2 indices", "# Inter-Quake Export\nvp\nvp\nfa 0 1\n", IQ_ERROR_SYNTAX, 4, 1, "at least 3"},
        {"index past the end", "# Inter-Quake Export\nvp\nvp\nvp\nfa 0 1 3\n", IQ_ERROR_BAD_INDEX, 5, 8, "vertex 3"},
        {"negative index before the first vertex", "# Inter-Quake Export\nvp\nvp\nfa -1 -2 -3\n", IQ_ERROR_BAD_INDEX, 4, 10, "'-3'"},
        {"faces before any vertex", "# Inter-Quake Export\nfm 0 1 2\n", IQ_ERROR_BAD_INDEX, 2, 8, "vertex 2"},
        {"index not a number", "# Inter-Quake Export\nvp\nvp\nvp\nfa 0 1 x2\n", IQ_ERROR_SYNTAX, 5, 8, "'x2'"},
        {"fm relative past its mesh", "# Inter-Quake Export\nvp\nvp\nvp\nmesh b\nvp\nfm 0 1 2\n", IQ_ERROR_BAD_INDEX, 7, 8, "vertex 5"},
        /* 17 */
        {"pq with 5 numbers", "# Inter-Quake Export\njoint a\npq 0 0 0 0 0\n", IQ_ERROR_SYNTAX, 3, 1, "at least 6"},
        {"pq with 11 numbers", "# Inter-Quake Export\njoint a\npq 0 0 0 0 0 0 1 1 1 1 9\n", IQ_ERROR_SYNTAX, 3, 24, "'9'"},
        {"zero quaternion", "# Inter-Quake Export\njoint a\npq 0 0 0 0 0 0 0\n", IQ_ERROR_BAD_VALUE, 3, 1, "no direction"},
        {"singular pm", "# Inter-Quake Export\njoint a\npm 0 0 0 1 0 0 0 0 0 0 0 1\n", IQ_ERROR_BAD_VALUE, 3, 1, "singular"},
        {"pa with 5 numbers", "# Inter-Quake Export\njoint a\npa 0 0 0 0 0\n", IQ_ERROR_SYNTAX, 3, 1, "at least 6"},
        /* 18 */
        {"vb index past the joints", "# Inter-Quake Export\njoint a\njoint b 0\nvp\nvb 2 1\n", IQ_ERROR_BAD_INDEX, 5, 4, "joint index 2"},
        {"vb index without weight", "# Inter-Quake Export\njoint a\nvp\nvb 0 1 1\n", IQ_ERROR_SYNTAX, 4, 8, "without a weight"},
        {"vb huge index (fuzz)", "# Inter-Quake Export\njoint a\nvp\nvb\t\t7106781186547\t71067811865476\n", IQ_ERROR_BAD_INDEX, 4, 5, "joint index 7106781186547"},
        {"vb weight beyond float", "# Inter-Quake Export\njoint a\nvp\nvb 0 1e300\n", IQ_ERROR_BAD_VALUE, 4, 6, "'1e300'"},
        {"vb negative index", "# Inter-Quake Export\njoint a\nvp\nvb -1 1\n", IQ_ERROR_SYNTAX, 4, 4, "'-1'"},
        /* 19 */
        {"vx with 5 numbers", "# Inter-Quake Export\nvp\nvx 1 0 0 1 0\n", IQ_ERROR_SYNTAX, 3, 1, "5 values"},
        {"NaN position", "# Inter-Quake Export\nvp 0 nan 0\n", IQ_ERROR_BAD_VALUE, 2, 6, "'nan'"},
        /* infinite texcoords are repaired now (test_numbers below); huge positions and poses are refused */
        {"position beyond the magnitude limit", "# Inter-Quake Export\nvp 0 1e20 0\n", IQ_ERROR_BAD_VALUE, 2, 1, "vp: value 2 is 1e+20, beyond the magnitude limit"},
        {"position beyond float", "# Inter-Quake Export\nvp 0 0 1e300\n", IQ_ERROR_BAD_VALUE, 2, 1, "vp: value 3 is 1e+300"},
        {"frame translate 3e38", "# Inter-Quake Export\njoint a\npq 0 0 0 0 0 0 1\nanimation x\nframe\npq 3e38 0 0 0 0 0 1 1e30 1 1\n",
         IQ_ERROR_BAD_VALUE, 6, 1, "pq: translate 1 is 3e+38"},
        {"frame scale 1e30", "# Inter-Quake Export\njoint a\npq 0 0 0 0 0 0 1\nanimation x\nframe\npq 0 0 0 0 0 0 1 1e30 1 1\n",
         IQ_ERROR_BAD_VALUE, 6, 1, "pq: scale 1 is 1e+30"},
        {"bind translate NaN via pm overflow", "# Inter-Quake Export\njoint a\npm 0 0 0 1e200 0 0 0 1e200 0 0 0 1e200\n",
         IQ_ERROR_BAD_VALUE, 3, 1, "pm: scale 1"},
        {"too many position values", "# Inter-Quake Export\nvp 1 2 3 4 5\n", IQ_ERROR_SYNTAX, 2, 12, "'5'"},
        /* 20 */
        {"vertexarray without type", "# Inter-Quake Export\nvertexarray\n", IQ_ERROR_SYNTAX, 2, 1, "no TYPE"},
        /* attribute counts */
        {"fewer texcoords than vertices", "# Inter-Quake Export\nvp\nvp\nvt 0 0\n", IQ_ERROR_BAD_VERTEX_ARRAY, 4, 1, "1 'vt' lines for 2 vertices"},
        {"normals without positions", "# Inter-Quake Export\nvn 0 0 1\n", IQ_ERROR_BAD_VERTEX_ARRAY, 2, 1, "no vertex positions"},
        /* 21 */
        {"smoothangle not a number", "# Inter-Quake Export\nsmoothangle wide\n", IQ_ERROR_SYNTAX, 2, 13, "'wide'"},
        {"smoothgroup missing", "# Inter-Quake Export\nsmoothgroup\n", IQ_ERROR_SYNTAX, 2, 1, "missing"},
        {"fs flag 2", "# Inter-Quake Export\nvp\nvp\nvp\nfa 0 1 2\nfs 1 2 1\n", IQ_ERROR_SYNTAX, 6, 6, "'2'"},
        {"fs count differs from the face", "# Inter-Quake Export\nvp\nvp\nvp\nfa 0 1 2\nfs 1 1\n", IQ_ERROR_SYNTAX, 6, 1, "2 flags"},
        {"more fs than faces", "# Inter-Quake Export\nvp\nvp\nvp\nfa 0 1 2\nfs 1 1 1\nfs 1 1 1\n", IQ_ERROR_SYNTAX, 7, 1, "2 fs lines"},
        /* 22 */
        {"frame with fewer poses than joints", "# Inter-Quake Export\njoint a\njoint b 0\nanimation x\nframe\npq 0 0 0 0 0 0\n",
         IQ_ERROR_BAD_ANIMATION, 5, 1, "1 poses"},
        {"frame with more poses than joints", "# Inter-Quake Export\njoint a\nanimation x\nframe\npq 0 0 0 0 0 0\npq 0 0 0 0 0 0\n",
         IQ_ERROR_BAD_ANIMATION, 4, 1, "2 poses"},
        {"base poses without joints", "# Inter-Quake Export\npq 0 0 0 0 0 0\n", IQ_ERROR_BAD_ANIMATION, 2, 1, "no joint"},
        {"partial base pose", "# Inter-Quake Export\njoint a\njoint b 0\npq 0 0 0 0 0 0\n", IQ_ERROR_BAD_ANIMATION, 4, 1, "1 base poses"},
        {"negative framerate", "# Inter-Quake Export\nanimation a\nframerate -5\n", IQ_ERROR_BAD_VALUE, 3, 11, "'-5'"},
        {"forward parent", "# Inter-Quake Export\njoint a 0\n", IQ_ERROR_BAD_HIERARCHY, 2, 9, "'0'"},
        {"parent not a number", "# Inter-Quake Export\njoint a b\n", IQ_ERROR_SYNTAX, 2, 9, "'b'"},
        {"zero scale in the bind pose", "# Inter-Quake Export\njoint a\npq 0 0 0 0 0 0 -1 1 0 1\n", IQ_ERROR_BAD_VALUE, 3, 1, "zero scale"},
        /* header */
        {"empty after header check", "# Inter-Quake Export", IQ_ERROR_NONE, 0, 0, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const bad_case *c = &cases[i];
        size_t len = strlen(c->text);
        if (!strcmp(c->name, "NUL in a name")) len = strlen("# Inter-Quake Export\nmesh a") + 3;
        iq_error err;
        iq_model *m = iq_load_memory(c->text, len, NULL, &err);
        if (c->code == IQ_ERROR_NONE) {
            CHECK(m != NULL, "%s should load: %s", c->name, err.message);
            iq_free(m);
            continue;
        }
        char msg[400];
        iq_format_error(msg, sizeof msg, &err);
        CHECK(m == NULL && err.code == c->code, "%s: code %s, expected %s (%s)", c->name, iq_error_name(err.code), iq_error_name(c->code), msg);
        CHECK(err.line == c->line && err.column == c->column, "%s: at %u:%u, expected %u:%u (%s)", c->name, err.line, err.column, c->line,
              c->column, msg);
        CHECK(strstr(err.message, c->message) != NULL, "%s: message '%s' lacks '%s'", c->name, err.message, c->message);
        iq_free(m);
    }
    /* 15: header */
    iq_error err;
    iq_model *m = iqt_load_text(" # Inter-Quake Export\n", &err);
    CHECK(!m && err.code == IQ_ERROR_UNKNOWN_FORMAT, "shifted header: %s", iq_error_name(err.code));
    iq_load_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.format = IQ_FORMAT_IQE;
    const char *wrong = "# Inter-Quake Exp0rt\nvp\n";
    m = iq_load_memory(wrong, strlen(wrong), &opts, &err);
    CHECK(!m && err.code == IQ_ERROR_SYNTAX && err.line == 1, "forced IQE with a wrong header");
    m = iq_load_memory("", 0, &opts, &err);
    CHECK(!m && err.code == IQ_ERROR_SYNTAX, "empty IQE");
    /* the header line may carry anything after Export; unknown commands load with a warning */
    m = iqt_load_text("# Inter-Quake Export 2.0 extra\nvp\nfrobnicate 1 2\nfrobnicate\n", &err);
    CHECK(m && iqt_has_warning(m, IQ_WARNING_IGNORED_DATA, "'frobnicate' on line 3") && m->vertex_count == 1, "unknown command warning");
    iq_free(m);
    /* 15: a line far longer than the SDK's 512 bytes: a 20,000-vertex polygon */
    {
        size_t cap = 2 << 20, n = 0;
        char *text = malloc(cap);
        n += (size_t)snprintf(text + n, cap - n, "# Inter-Quake Export\nmesh \"%0600d\"\n", 7);
        for (int v = 0; v < 20000; v++) n += (size_t)snprintf(text + n, cap - n, "vp %d %d 0\nvn 0 0 1\n", v % 7, v / 7);
        n += (size_t)snprintf(text + n, cap - n, "fa");
        for (int v = 0; v < 20000; v++) n += (size_t)snprintf(text + n, cap - n, " %d", v);
        m = iq_load_memory(text, n, NULL, &err);
        CHECK(m && m->triangle_count == 19998 && strlen(m->meshes[0].name) == 600 && m->indices[3 * 19997 + 2] == 19999, "long line: %s", err.message);
        iq_free(m);
        free(text);
    }
    /* 17: pq with 8 numbers: positional, the scale's missing components are 1 */
    m = iqt_load_text("# Inter-Quake Export\njoint a\npq 0 0 0 0 0 0 -1 2\n", &err);
    CHECK(m && iqt_near3(m->joints[0].bind.scale, 2, 1, 1), "pq partial scale");
    iq_free(m);
    /* 18: more than 4 influences keep the 4 largest; negative weights dropped; duplicates merge; index > 255 */
    {
        char text[8192];
        size_t n = (size_t)snprintf(text, sizeof text, "# Inter-Quake Export\n");
        for (int j = 0; j < 300; j++) n += (size_t)snprintf(text + n, sizeof text - n, "joint j%d %d\n", j, j - 1);
        n += (size_t)snprintf(text + n, sizeof text - n, "vp\nvb 1 0.1 2 0.2 3 0.3 299 0.4 5 0.05 6 -1 3 0.15\nvp\nvb\n");
        m = iq_load_memory(text, n, NULL, &err);
        CHECK(m != NULL, "vb cases: %s", err.message);
        if (m) {
            /* 3 merges to 0.45; top four: 3 (0.45), 299 (0.4), 2 (0.2), 1 (0.1); sum 1.15 */
            CHECK(m->blend_indices[0] == 3 && m->blend_indices[1] == 299 && m->blend_indices[2] == 2 && m->blend_indices[3] == 1, "top 4");
            CHECK(iqt_near(m->blend_weights[0], 0.45f / 1.15f, 1e-6f) && iqt_near(m->blend_weights[3], 0.1f / 1.15f, 1e-6f), "renormalised");
            CHECK(m->blend_weights[4] == 1 && m->blend_indices[4] == 0, "empty vb bound to joint 0");
            CHECK(iqt_has_warning(m, IQ_WARNING_REPAIRED, "negative") && iqt_has_warning(m, IQ_WARNING_IGNORED_DATA, "more than 4") &&
                      iqt_has_warning(m, IQ_WARNING_REPAIRED, "no positive blend weight"), "vb warnings");
            iq_free(m);
        }
    }
    /* 19: vx 4- and 6-argument forms; NaN tangents and normals are repaired with a warning */
    m = iqt_load_text("# Inter-Quake Export\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nvn 0 0 1\nvn 0 0 1\nvn nan 0 1\n"
                  "vx 1 0 0 -1\nvx 1 0 0  0 -1 0\nvx nan nan nan 1\n", &err);
    CHECK(m != NULL, "vx: %s", err.message);
    if (m) {
        CHECK(m->tangents[3] == -1, "vx w given");
        CHECK(m->tangents[7] == -1, "vx bitangent: cross((0,0,1),(1,0,0)) = (0,1,0), b = (0,-1,0): w = -1");
        /* one policy for every format (iq_numbers.c): a NaN normal becomes (0,0,1), no longer (0,0,0) */
        CHECK(iqt_near3(m->tangents + 8, 1, 0, 0) && m->tangents[11] == 1 && iqt_near3(m->normals + 6, 0, 0, 1), "NaN repaired");
        CHECK(iqt_has_warning(m, IQ_WARNING_REPAIRED, "NaN"), "NaN warning");
        iq_free(m);
    }
    /* 20: unknown component and size are ignored field by field */
    m = iqt_load_text("# Inter-Quake Export\nvertexarray custom2 quad 0 named\nvp\nv2 1 2 3 4\n", &err);
    CHECK(m && m->custom_array_count == 1 && m->custom_arrays[0].format == IQ_FLOAT && m->custom_arrays[0].size == 4 &&
              !strcmp(m->custom_arrays[0].name, "named"), "vertexarray invalid fields");
    iq_free(m);
    /* 22: frame before animation, loop before animation: ignored with a warning */
    m = iqt_load_text("# Inter-Quake Export\nframe\nloop\njoint a\npq 0 0 0 0 0 0\n", &err);
    CHECK(m && m->joint_count == 1 && iqt_has_warning(m, IQ_WARNING_IGNORED_DATA, "before any animation"), "frame before animation");
    iq_free(m);
    /* 24: a comment with NUL and binary bytes is kept verbatim */
    {
        static const char text[] = "# Inter-Quake Export\nvp\ncomment ignored\nA\0B\xff\r\nC";
        m = iq_load_memory(text, sizeof text - 1, NULL, &err);
        CHECK(m && m->comment_size == 7 && !memcmp(m->comment, "A\0B\xff\r\nC", 7), "binary comment");
        iq_free(m);
    }
    /* a dummy name never clashes with an explicit one */
    m = iqt_load_text("# Inter-Quake Export\nanimation\nanimation \"animation 0\"\nanimation \"animation 2\"\nanimation\n", &err);
    CHECK(m && !strcmp(m->animations[0].name, "animation 0 (1)") && !strcmp(m->animations[3].name, "animation 3"), "dummy names");
    iq_free(m);
    /* the memory budget covers the parser's scratch too */
    {
        size_t n;
        unsigned char *d = iqt_read_file(CORPUS "jetpack.iqe", &n);
        memset(&opts, 0, sizeof opts);
        opts.limits.max_memory = 256 << 10;
        m = d ? iq_load_memory(d, n, &opts, &err) : NULL;
        CHECK(d && !m && err.code == IQ_ERROR_LIMIT && strstr(err.message, "budget"), "memory budget: %s", err.message);
        free(d);
    }
    /* joints over the limit */
    {
        char text[4096];
        size_t n = (size_t)snprintf(text, sizeof text, "# Inter-Quake Export\n");
        for (int j = 0; j < 5; j++) n += (size_t)snprintf(text + n, sizeof text - n, "joint j%d\n", j);
        memset(&opts, 0, sizeof opts);
        opts.limits.max_joints = 4;
        m = iq_load_memory(text, n, &opts, &err);
        CHECK(!m && err.code == IQ_ERROR_LIMIT && err.line == 6, "joint limit");
    }
}

/* A file whose every corner shares one position under angle smoothing would
 * take quadratic work: refused with 'limit', quickly. */
static void test_pathological_smoothing(void) {
    size_t cap = 8 << 20, n = 0;
    char *text = malloc(cap);
    n += (size_t)snprintf(text + n, cap - n, "# Inter-Quake Export\nsmoothangle 30\n");
    for (int t = 0; t < 40000; t++) n += (size_t)snprintf(text + n, cap - n, "vp 0 0 0\nvp %d 1 0\nvp 1 %d 0\nfa -3 -2 -1\n", t, t);
    iq_error err;
    iq_model *m = iq_load_memory(text, n, NULL, &err);
    CHECK(!m && err.code == IQ_ERROR_LIMIT && strstr(err.message, "share the position"), "pile-up refused: %s", err.message);
    iq_free(m);
    /* the same pile-up with the default smoothing welds in one sweep and loads */
    n = 0;
    n += (size_t)snprintf(text + n, cap - n, "# Inter-Quake Export\n");
    for (int t = 0; t < 40000; t++) n += (size_t)snprintf(text + n, cap - n, "vp 0 0 0\nvp %d 1 0\nvp 1 %d 0\nfa -3 -2 -1\n", t, t);
    m = iq_load_memory(text, n, NULL, &err);
    CHECK(m != NULL && m->vertex_count == 120000, "default smoothing pile-up: %s", err.message);
    iq_free(m);
    free(text);
}

/* Item 22: an animation-only IQE (joints, base poses, frames, no mesh) attaches to an IQE mesh
 * with the same skeleton through the animator's iq_attach_animations, matched by joint name. */
static void test_attach_animation_file(void) {
    iq_error err;
    iq_model *mesh = iqt_load_file(FIXTURES "anim.iqe", &err);
    iq_model *anims = iqt_load_text("# Inter-Quake Export\njoint \"Root Bone\"\njoint child 0\npq 0 0 0 0 0 0\npq 0 0 1 0 0 0\n"
                                "animation jump\nframerate 5\nframe\npq 0 0 3 0 0 0\npq 0 0 1 0 0 0\n", &err);
    CHECK(mesh && anims && anims->vertex_count == 0 && anims->frame_count == 1, "animation-only IQE: %s", err.message);
    if (mesh && anims) {
        CHECK(iq_attach_animations(mesh, anims, &err) == 0, "attach: %s", err.message);
        CHECK(mesh->animation_count == 3 && !strcmp(mesh->animations[2].name, "jump") && mesh->animations[2].first_frame == 3 &&
                  mesh->frame_count == 4, "attached animation");
        CHECK(iqt_near3(mesh->frame_poses[3 * 2].translate, 0, 0, 3), "attached pose");
        CHECK(check_model(mesh) == 0 && check_evaluate(mesh) == 0, "attached invariants");
    }
    iq_free(mesh);
    iq_free(anims);
}

/* Numbers (iq_numbers.c): optional data repaired, positions over the limit
 * refused, the limit configurable; names are bytes. */
static void test_numbers(void) {
    iq_error err;
    iq_model *m = iqt_load_text("# Inter-Quake Export\nvertexarray custom0 float 4\nvp 0 0 0\nvt 1e999 0.5\nvc nan 0 0 1\nv0 1 inf 2 3\n"
                            "vp 1 0 0\nvt 0.25 0.5\nvc 0 0 0 1\nv0 1 2 3 4\nvp 0 1 0\nvt 1 1\nvc 1e7 0 0 1\nv0 0 0 0 0\n", &err);
    CHECK(m != NULL, "repairable vertex data loads: %s", err.message);
    if (m) {
        CHECK(m->texcoords[0] == 0 && m->texcoords[1] == 0 && m->texcoords[2] == 0.25f, "texcoord repaired to (0,0)");
        CHECK(m->colors[0] == 1 && m->colors[3] == 1 && m->colors[4] == 0 && m->colors[8] == 1 && m->colors[9] == 1,
              "NaN colour and colour beyond the limit repaired to white");
        CHECK(iqt_has_warning(m, IQ_WARNING_REPAIRED, "1 texture coordinate(s)") &&
                  iqt_has_warning(m, IQ_WARNING_REPAIRED, "2 colour(s)") && iqt_has_warning(m, IQ_WARNING_REPAIRED, "custom array"),
              "one counted warning per kind");
        CHECK(m->custom_array_count == 1, "custom array");
        if (m->custom_array_count == 1) {
            const float *c = m->custom_arrays[0].data;
            CHECK(c[0] == 0 && c[1] == 0 && c[4] == 1 && c[5] == 2, "custom vector repaired to 0");
        }
        CHECK(check_model(m) == 0 && check_evaluate(m) == 0, "invariants");
        iq_free(m);
    }
    /* The limit is iq_limits.max_magnitude: 20 is refused under a limit of 10, on its line. */
    const char *text = "# Inter-Quake Export\nvp 0 0 0\nvp 20 0 0\n";
    iq_load_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.limits.max_magnitude = 10;
    m = iq_load_memory(text, strlen(text), &opts, &err);
    CHECK(!m && err.code == IQ_ERROR_BAD_VALUE && err.line == 3 && strstr(err.message, "beyond the magnitude limit of 10"),
          "custom limit: %s line %u", err.message, err.line);
    iq_free(m);
    m = iqt_load_text(text, &err);
    CHECK(m && m->bounds.radius == 20, "the default limit takes it");
    iq_free(m);
    /* A chain of joints each scaling by 1e5 in a frame is fine joint by joint, but
     * the composed scale of j5 (1e5^6) reaches IQ_MAX_REACH: refused, naming it. */
    char chain[1024] = "# Inter-Quake Export\n";
    for (int j = 0; j < 8; j++) {
        size_t used = strlen(chain);
        if (j == 0) snprintf(chain + used, sizeof chain - used, "joint j0\n");
        else snprintf(chain + used, sizeof chain - used, "joint j%d %d\n", j, j - 1);
    }
    for (int j = 0; j < 8; j++) strcat(chain, "pq 0 0 0 0 0 0 1\n");
    strcat(chain, "vp 1 1 1\nvb 7 1\nanimation a\nframe\n");
    for (int j = 0; j < 8; j++) strcat(chain, "pq 0 0 0 0 0 0 1 1e5 1e5 1e5\n");
    m = iqt_load_text(chain, &err);
    CHECK(!m && err.code == IQ_ERROR_BAD_VALUE && strstr(err.message, "'j5'"), "composed reach: %s", err.message);
    iq_free(m);
    /* Names are the file's bytes: a joint named with high (Latin-1) bytes is
     * found by those bytes, and by index. */
    m = iqt_load_text("# Inter-Quake Export\njoint \"tag_\xe9\xad" "ead\"\npq 1 2 3 0 0 0 1\n", &err);
    CHECK(m != NULL, "high-byte name: %s", err.message);
    if (m) {
        float a[16], b[16];
        CHECK(strcmp(m->joints[0].name, "tag_\xe9\xad" "ead") == 0, "bytes kept");
        CHECK(iq_tag_matrix(m, "tag_\xe9\xad" "ead", 0, a) == IQ_ERROR_NONE && a[12] == 1 && a[13] == 2 && a[14] == 3, "found by its bytes");
        CHECK(iq_tag_matrix_at(m, 0, 0, b) == IQ_ERROR_NONE && memcmp(a, b, sizeof a) == 0, "and by index");
        CHECK(iq_tag_matrix_at(m, 1, 0, b) == IQ_ERROR_INVALID_ARGUMENT, "index past the joints");
        iq_free(m);
    }
}

int main(void) {
    test_numbers();
    test_corpus();
    test_poses();
    test_faces();
    test_custom();
    test_animation_fixture();
    test_smoothing();
    test_bad_input();
    test_pathological_smoothing();
    test_attach_animation_file();
    iqt_truncation_sweep(CORPUS "missiles/spike/spike.iqe", 1, 1, NULL);
    iqt_truncation_sweep(FIXTURES "anim.iqe", 1, 1, NULL);
    iqt_truncation_sweep(FIXTURES "poses.iqe", 1, 1, NULL);
    iqt_truncation_sweep(FIXTURES "smooth_fs_one.iqe", 1, 1, NULL);
    iqt_truncation_sweep(FIXTURES "custom.iqe", 1, 1, NULL);
    iqt_patch_sweep(FIXTURES "anim.iqe", 0, (size_t)-1, NULL);
    iqt_patch_sweep(FIXTURES "poses.iqe", 0, (size_t)-1, NULL);
    iqt_memory_limit_sweep(FIXTURES "anim.iqe");
    iqt_memory_limit_sweep(CORPUS "missiles/spike/spike.iqe");
    return iqt_finish("test_iqe");
}
