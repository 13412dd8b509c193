/* Native tests of the MD3 loader and tag matrices under ASan/UBSan: corpus
 * files load with counts read by a separate tiny reader, and every
 * truncation, byte patch and memory limit fails cleanly. Run from the
 * repository root. (The TGA decoder's tests are in test_tga.c.) */
#include "check.h"
#include "check_model.h"
#include "load_helpers.h"
#include "sweeps.h"
#include "interquake.h"
#include <string.h>

#define SARGE "../shared/corpus/md3/openarena/models/players/sarge/"
#define ASSIMP "../shared/corpus/md3/assimp/"

/* -- A separate, trusting reader: the header counts and the surface chain. */
static int32_t rd32(const unsigned char *p) { return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24); }

typedef struct { int32_t frames, tags, surfaces, vertices, triangles, shaders; } iqt_md3_counts;

static iqt_md3_counts iqt_md3_read(const unsigned char *d) {
    iqt_md3_counts c = {rd32(d + 76), rd32(d + 80), rd32(d + 84), 0, 0, 0};
    const unsigned char *s = d + rd32(d + 100);
    for (int i = 0; i < c.surfaces; i++) {
        c.shaders += rd32(s + 76);
        c.vertices += rd32(s + 80);
        c.triangles += rd32(s + 84);
        s += rd32(s + 104);
    }
    return c;
}

static iq_model *load(const unsigned char *d, size_t n, iq_error *err) { return iq_load_memory(d, n, NULL, err); }

static void test_corpus(void) {
    const char *files[] = {
        SARGE "lower.md3", SARGE "lower_1.md3", SARGE "lower_2.md3", SARGE "upper.md3", SARGE "upper_1.md3",
        SARGE "upper_2.md3", SARGE "head.md3", SARGE "head_1.md3", SARGE "head_2.md3",
        ASSIMP "watercan.md3", ASSIMP "watercan_dmg.md3", ASSIMP "european_fnt_v2.md3",
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        size_t n;
        unsigned char *d = iqt_read_file(files[i], &n);
        CHECK(d != NULL, "cannot read %s", files[i]);
        if (!d) continue;
        iqt_md3_counts c = iqt_md3_read(d);
        iq_error err;
        iq_model *m = load(d, n, &err);
        CHECK(m != NULL, "%s: %s", files[i], err.message);
        if (m) {
            CHECK(m->format == IQ_FORMAT_MD3, "%s format", files[i]);
            CHECK(m->frame_count == (uint32_t)c.frames, "%s frames %u vs %d", files[i], m->frame_count, c.frames);
            CHECK(m->tag_count == (uint32_t)c.tags, "%s tags %u vs %d", files[i], m->tag_count, c.tags);
            CHECK(m->mesh_count == (uint32_t)c.surfaces, "%s surfaces", files[i]);
            CHECK(m->vertex_count == (uint32_t)c.vertices, "%s vertices %u vs %d", files[i], m->vertex_count, c.vertices);
            CHECK(m->triangle_count == (uint32_t)c.triangles, "%s triangles", files[i]);
            CHECK(m->shader_count == (uint32_t)c.shaders, "%s shaders", files[i]);
            CHECK(m->joint_count == 0 && m->animation_count == 1, "%s joints/animations", files[i]);
            CHECK(check_model(m) == 0, "%s invariants", files[i]);
            CHECK(check_evaluate(m) == 0, "%s evaluate", files[i]);
            for (uint32_t t = 0; t < m->tag_count; t++) {
                float mat[16];
                CHECK(iq_tag_matrix(m, m->tag_names[t], 1.5f, mat) == IQ_ERROR_NONE, "%s tag %u", files[i], t);
                float x = mat[0] * mat[0] + mat[1] * mat[1] + mat[2] * mat[2];
                float xy = mat[0] * mat[4] + mat[1] * mat[5] + mat[2] * mat[6];
                CHECK(fabsf(x - 1) < 1e-5f && fabsf(xy) < 1e-5f && mat[15] == 1, "%s tag %u not orthonormal", files[i], t);
            }
            iq_free(m);
        }
        free(d);
    }
}

static void test_tag_matrix_arguments(void) {
    size_t n;
    unsigned char *d = iqt_read_file(SARGE "lower.md3", &n);
    if (!d) { CHECK(0, "missing lower.md3"); return; }
    iq_model *m = load(d, n, NULL);
    float out[16] = {0};
    CHECK(m && iq_tag_matrix(m, "tag_torso", 0.0f, out) == IQ_ERROR_NONE && out[15] == 1, "tag_torso");
    CHECK(iq_tag_matrix(m, "tag_none", 0.0f, out) == IQ_ERROR_INVALID_ARGUMENT, "unknown tag");
    CHECK(iq_tag_matrix(m, NULL, 0.0f, out) != IQ_ERROR_NONE && iq_tag_matrix(NULL, "tag_torso", 0.0f, out) != IQ_ERROR_NONE, "NULL arguments");
    float nan = 0.0f / 0.0f, at0[16], atnan[16], far[16], last[16];
    iq_tag_matrix(m, "tag_torso", 0.0f, at0);
    iq_tag_matrix(m, "tag_torso", nan, atnan);
    iq_tag_matrix(m, "tag_torso", 1e30f, far);
    iq_tag_matrix(m, "tag_torso", (float)(m->frame_count - 1), last);
    CHECK(memcmp(at0, atnan, sizeof at0) == 0, "NaN frame is frame 0");
    CHECK(memcmp(far, last, sizeof far) == 0, "frames clamp to the last");
    iq_free(m);
    free(d);
}

/* Tag matrices of a model that loaded stay finite at a fractional frame. */
static int tags_finite(iq_model *m) {
    int bad = 0;
    for (uint32_t t = 0; t < m->tag_count; t++) {
        float mat[16];
        iq_tag_matrix(m, m->tag_names[t], 0.5f, mat);
        if (!iqt_all_finite(mat, 16)) bad++;
    }
    return bad;
}

static void put_f32(unsigned char *p, float f) { memcpy(p, &f, 4); } /* the tests run little-endian */

/* Numbers (iq_numbers.c): garbage tag values are repaired from the tag's
 * nearest usable frame; garbage frame records are recomputed; texcoords repaired. */
static void test_numbers(void) {
    size_t n;
    unsigned char *d = iqt_read_file(SARGE "lower.md3", &n);
    if (!d) { CHECK(0, "missing lower.md3"); return; }
    unsigned char *c = malloc(n);
    iq_error err;
    int32_t ofs_frames = rd32(d + 92), ofs_tags = rd32(d + 96), tags = rd32(d + 80);

    /* Tags are repaired, not refused (Unvanquished ships tpweapon.md3 and battpack.md3 with a tag
     * axis of 1.78e+31): an origin of 3e38 (finite, but Infinity in the player's tag matrices) in
     * one frame, and that garbage axis value in frame 0, each take the tag's nearest usable frame. */
    memcpy(c, d, n);
    int64_t rec = (int64_t)tags * 2; /* frame 2, tag 0 */
    int64_t at = ofs_tags + 112 * rec + 64 + 4; /* its origin y */
    put_f32(c + at, 3e38f);
    put_f32(c + ofs_tags + 64 + 44, 1.78264e31f); /* frame 0, tag 0: the z axis's z (value 11) */
    iq_model *m = iq_load_memory(c, n, NULL, &err);
    CHECK(m != NULL, "garbage tag values load: %s", err.message);
    if (m) {
        const float *t0 = m->tag_transforms, *t1 = t0 + 12 * (size_t)tags, *t2 = t0 + 24 * (size_t)tags;
        CHECK(t2[3] == t1[3] && t2[7] == t1[7] && t2[11] == t1[11], "frame 2's origin from frame 1 (the earlier on a tie)");
        int axes_from_1 = 1;
        for (int row = 0; row < 3; row++)
            for (int k = 0; k < 3; k++) axes_from_1 &= t0[4 * row + k] == t1[4 * row + k];
        CHECK(axes_from_1, "frame 0's axes from frame 1, its only neighbour");
        CHECK(iqt_has_warning(m, IQ_WARNING_REPAIRED, "1 tag record(s) had an origin") &&
                  iqt_has_warning(m, IQ_WARNING_REPAIRED, "1 tag record(s) had axes"),
              "one counted warning per kind");
        CHECK(!tags_finite(m) && check_model(m) == 0 && check_evaluate(m) == 0, "invariants");
    }
    iq_free(m);

    /* The shape of the Unvanquished files: one frame, so no usable frame to take from: identity axes. */
    {
        static unsigned char one[108 + 56 + 112];
        memset(one, 0, sizeof one);
        memcpy(one, "IDP3", 4);
        int32_t header[] = {15};
        memcpy(one + 4, header, 4);
        int32_t counts[] = {0, 1, 1, 0, 0}; /* flags, frames, tags, surfaces, skins at bytes 72..91 */
        memcpy(one + 72, counts, sizeof counts);
        int32_t offsets[] = {108, 108 + 56, 108 + 56 + 112, 108 + 56 + 112}; /* frames, tags, surfaces, end */
        memcpy(one + 92, offsets, sizeof offsets);
        memcpy(one + 108 + 56, "tag_flash", 9);
        float tag[12] = {12, 0, 2, 1, 0, 0, 0, 1, 0, 0, 0, 1.78264e31f};
        memcpy(one + 108 + 56 + 64, tag, sizeof tag);
        CHECK(108 + 56 + 64 + 44 == 272, "value 11 of tag record 0 at byte 272, as in the shipped files");
        m = iq_load_memory(one, sizeof one, NULL, &err);
        CHECK(m != NULL, "one-frame garbage tag axis loads: %s", m ? "" : err.message);
        if (m) {
            static const float want[12] = {1, 0, 0, 12, 0, 1, 0, 0, 0, 0, 1, 2};
            CHECK(memcmp(m->tag_transforms, want, sizeof want) == 0, "identity axes, the origin kept");
            CHECK(iqt_has_warning(m, IQ_WARNING_REPAIRED, "1 tag record(s) had axes"), "counted warning");
            CHECK(check_model(m) == 0, "invariants");
        }
        iq_free(m);
    }

    /* Garbage frame bounds (a real Nexuiz MD3 has them): recomputed from the
     * frame's vertices, with a warning; a garbage origin becomes 0. */
    memcpy(c, d, n);
    put_f32(c + ofs_frames + 56 * 3 + 4, NAN);       /* frame 3: min y */
    put_f32(c + ofs_frames + 56 * 5 + 36, -1e36f);   /* frame 5: radius */
    put_f32(c + ofs_frames + 56 * 5 + 24, INFINITY); /* frame 5: origin x */
    m = iq_load_memory(c, n, NULL, &err);
    iq_model *plain = iq_load_memory(d, n, NULL, &err);
    CHECK(m && plain, "garbage frame bounds load: %s", err.message);
    if (m && plain) {
        CHECK(iqt_has_warning(m, IQ_WARNING_REPAIRED, "2 frame bound(s)") && iqt_has_warning(m, IQ_WARNING_REPAIRED, "1 frame origin"),
              "warnings");
        CHECK(m->frame_info[5].local_origin[0] == 0, "origin set to 0");
        for (int f = 3; f <= 5; f += 2) { /* the box of the frame's vertices, computed here */
            const float *pos = m->frame_positions + 3 * (size_t)f * m->vertex_count;
            float lo[3] = {pos[0], pos[1], pos[2]}, hi[3] = {pos[0], pos[1], pos[2]};
            double r2 = 0;
            for (uint32_t v = 0; v < m->vertex_count; v++)
                for (int k = 0; k < 3; k++) {
                    lo[k] = fminf(lo[k], pos[3 * v + k]);
                    hi[k] = fmaxf(hi[k], pos[3 * v + k]);
                    if (k == 2) r2 = fmax(r2, (double)pos[3 * v] * pos[3 * v] + (double)pos[3 * v + 1] * pos[3 * v + 1] + (double)pos[3 * v + 2] * pos[3 * v + 2]);
                }
            const iq_bounds *b = &m->frame_bounds[f];
            CHECK(memcmp(b->min, lo, 12) == 0 && memcmp(b->max, hi, 12) == 0 && fabs(b->radius - sqrt(r2)) < 1e-4,
                  "frame %d recomputed: radius %g vs %g", f, b->radius, sqrt(r2));
        }
        CHECK(memcmp(&m->frame_bounds[4], &plain->frame_bounds[4], sizeof(iq_bounds)) == 0, "usable frames keep the file's bounds");
        CHECK(check_model(m) == 0 && check_evaluate(m) == 0, "invariants");
    }
    iq_free(m);
    iq_free(plain);

    /* A NaN texture coordinate: (0,0), counted. */
    memcpy(c, d, n);
    int32_t surf = rd32(d + 100), ofs_st = rd32(d + surf + 96);
    put_f32(c + surf + ofs_st + 8 * 2, NAN);
    m = iq_load_memory(c, n, NULL, &err);
    CHECK(m && m->texcoords[4] == 0 && m->texcoords[5] == 0 && iqt_has_warning(m, IQ_WARNING_REPAIRED, "1 texture coordinate"),
          "texcoord repaired: %s", m ? "" : err.message);
    iq_free(m);

    /* Names are bytes: a tag renamed with high bytes is found by them, and by index. */
    memcpy(c, d, n);
    memcpy(c + ofs_tags, "tag_\xe9\xad" "ead", 9);
    m = iq_load_memory(c, n, NULL, &err);
    CHECK(m != NULL, "renamed tag: %s", err.message);
    if (m) {
        float a[16], b[16];
        CHECK(iq_tag_matrix(m, "tag_\xe9\xad" "ead", 2.5f, a) == IQ_ERROR_NONE && iq_tag_matrix_at(m, 0, 2.5f, b) == IQ_ERROR_NONE &&
                  memcmp(a, b, sizeof a) == 0,
              "by bytes and by index");
        CHECK(iq_tag_matrix_at(m, m->tag_count, 0, b) == IQ_ERROR_INVALID_ARGUMENT, "no joints after the tags");
        iq_free(m);
    }
    free(c);
    free(d);
}


/* iq_instance_morph: any two frames lerped (not only neighbours), normals
 * renormalised; t clamped; bad frames and a non-MD3 refused. */
static void test_morph_pair(void) {
    size_t n;
    unsigned char *d = iqt_read_file(SARGE "lower.md3", &n);
    if (!d) { CHECK(0, "missing lower.md3"); return; }
    iq_error err;
    iq_model *m = iq_load_memory(d, n, NULL, &err);
    CHECK(m && m->frame_count > 40, "lower.md3 loads: %s", err.message);
    if (m) {
        iq_instance *inst = m->instance;
        uint32_t a = 3, b = 40, nv = m->vertex_count;
        const float *pa = m->frame_positions + 3 * (size_t)a * nv, *pb = m->frame_positions + 3 * (size_t)b * nv;
        const float *na = m->frame_normals + 3 * (size_t)a * nv, *nb = m->frame_normals + 3 * (size_t)b * nv;
        CHECK(iq_instance_morph(inst, a, b, 0.25f) == 0, "morph 3 -> 40");
        int bad = 0;
        for (uint32_t v = 0; v < nv; v++) {
            double len = 0, dotn = 0;
            for (int k = 0; k < 3; k++) {
                float want = pa[3 * v + k] + (pb[3 * v + k] - pa[3 * v + k]) * 0.25f;
                if (fabsf(inst->skinned_positions[3 * v + k] - want) > 1e-4f) bad++;
                float nk = na[3 * v + k] + (nb[3 * v + k] - na[3 * v + k]) * 0.25f;
                len += (double)inst->skinned_normals[3 * v + k] * inst->skinned_normals[3 * v + k];
                dotn += (double)inst->skinned_normals[3 * v + k] * nk;
            }
            if (fabs(len - 1) > 1e-4 || dotn <= 0) bad++;
        }
        CHECK(bad == 0, "positions lerped and normals renormalised toward the lerp (%d bad)", bad);
        CHECK(iq_instance_morph(inst, b, a, 7.0f) == 0, "t 7");
        float worst = 0;
        for (size_t i = 0; i < 3 * (size_t)nv; i++) worst = fmaxf(worst, fabsf(inst->skinned_positions[i] - pa[i]));
        CHECK(worst < 1e-3f, "t clamped to 1: frame a (off by %g)", worst);
        CHECK(iq_instance_morph(inst, a, m->frame_count, 0.5f) == IQ_ERROR_INVALID_ARGUMENT, "frame out of range");
        CHECK(iq_instance_morph(inst, a, b, NAN) == IQ_ERROR_INVALID_ARGUMENT, "t NaN");
        CHECK(check_evaluate(m) == 0, "invariants");
    }
    iq_free(m);
    free(d);
}

int main(void) {
    test_morph_pair();
    test_corpus();
    test_tag_matrix_arguments();
    test_numbers();
    iqt_truncation_sweep(ASSIMP "watercan.md3", 1, 0, tags_finite);
    iqt_truncation_sweep(SARGE "head.md3", 1, 0, tags_finite);
    iqt_truncation_sweep(SARGE "upper_2.md3", 211, 0, tags_finite);
    iqt_patch_sweep(SARGE "head_2.md3", 0, (size_t)-1, tags_finite);
    iqt_patch_sweep(ASSIMP "watercan.md3", 0, 1200, tags_finite);
    /* lower_2.md3: the header, the first frame and the first two tag records (frames 0 and 1) */
    iqt_patch_sweep(SARGE "lower_2.md3", 0, 108 + 56, tags_finite);
    iqt_patch_sweep(SARGE "lower_2.md3", 12036, 12036 + 2 * 112, tags_finite);
    iqt_memory_limit_sweep(SARGE "lower.md3");
    iqt_memory_limit_sweep(ASSIMP "european_fnt_v2.md3");
    return iqt_finish("test_md3");
}
