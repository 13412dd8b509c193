/* Native tests of the IQM loader under ASan/UBSan: every corpus file loads
 * with the documented counts and invariants, and every truncation, byte patch
 * and memory limit fails cleanly. Run from the repository root. */
#include "check.h"
#include "check_model.h"
#include "load_helpers.h"
#include "sweeps.h"
#include "interquake.h"
#include <math.h>
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

// -- Numbers (iq_numbers.c), on small IQM files built here: an IQE text
// through iq_write_iqm, then one value patched.

/* A 4-vertex skinned quad with tangents, two joints and a 3-frame animation. */
static const char quad_iqe[] =
    "# Inter-Quake Export\njoint root\njoint tip 0\npq 0 0 0 0 0 0 1\npq 0 0 1 0 0 0 1\n"
    "mesh m\nvp 0 0 0\nvp 1 0 0\nvp 1 1 0\nvp 0 1 0\n"
    "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvn 0 0 1\nvn 0 0 1\nvn 0 0 1\nvn 0 0 1\n"
    "vx 1 0 0 1\nvx 1 0 0 1\nvx 1 0 0 1\nvx 1 0 0 1\nvb 0 1\nvb 1 1\nvb 1 1\nvb 0 1\n"
    "fm 0 1 2\nfm 0 2 3\nanimation a\nframerate 10\n"
    "frame\npq 0 0 0 0 0 0 1\npq 0 0 1 0 0 0 1\nframe\npq 0 0 0.5 0 0 0 1\npq 0 0 1 0 0 0.7071 0.7071\n"
    "frame\npq 0 0 1 0 0 0 1\npq 0 0 1 0 0 1 0\n";

static uint8_t *quad_iqm(size_t *size) {
    iq_error err;
    iq_model *m = iq_load_memory(quad_iqe, sizeof quad_iqe - 1, NULL, &err);
    CHECK(m != NULL, "quad: %s", err.message);
    if (!m) return NULL;
    uint8_t *bytes = iq_write_iqm(m, size, &err);
    CHECK(bytes != NULL, "write: %s", err.message);
    iq_free(m);
    return bytes;
}

static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static void put_f32(uint8_t *p, float f) { memcpy(p, &f, 4); } /* the tests run little-endian */
#define HDR(i) rd32(bytes + 16 + 4 * (i)) /* header field i after the magic */

/* Offset of the data of the vertex array of `type` (0 position, 3 tangent). */
static uint32_t array_data(const uint8_t *bytes, uint32_t type) {
    for (uint32_t i = 0; i < HDR(7); i++) {
        const uint8_t *va = bytes + HDR(9) + 20 * i;
        if (rd32(va) == type) return rd32(va + 16);
    }
    return 0;
}

static iq_model *load_patched(const uint8_t *bytes, size_t size, iq_error *err) { return iq_load_memory(bytes, size, NULL, err); }

static void test_numbers(void) {
    size_t size;
    uint8_t *bytes = quad_iqm(&size);
    if (!bytes) return;
    uint8_t *copy = malloc(size);
    iq_error err;

    /* NaN tangents (Frankie.iqm has 20 of them): repaired to (1,0,0,1), one warning. */
    memcpy(copy, bytes, size);
    uint32_t tan = array_data(bytes, 3);
    CHECK(tan != 0, "tangent array");
    put_f32(copy + tan + 16 * 1 + 4, NAN);      /* vertex 1, y */
    put_f32(copy + tan + 16 * 3 + 12, INFINITY); /* vertex 3, w */
    iq_model *m = load_patched(copy, size, &err);
    CHECK(m != NULL, "NaN tangents load: %s", err.message);
    if (m) {
        const float *t = m->tangents;
        CHECK(t[4] == 1 && t[5] == 0 && t[6] == 0 && t[7] == 1 && t[12] == 1 && t[15] == 1 && t[0] == 1 && t[3] == 1,
              "repaired tangents");
        CHECK(iqt_has_warning(m, IQ_WARNING_REPAIRED, "2 tangent(s) were NaN"), "counted warning");
        CHECK(check_model(m) == 0 && check_evaluate(m) == 0, "invariants and finite outputs");
        iq_free(m);
    }

    /* A position beyond the magnitude limit: bad_value at its byte. */
    memcpy(copy, bytes, size);
    uint32_t pos = array_data(bytes, 0), at = pos + 4 * (3 * 2 + 1);
    put_f32(copy + at, 1e20f);
    m = load_patched(copy, size, &err);
    CHECK(!m && err.code == IQ_ERROR_BAD_VALUE && err.offset == at && strstr(err.message, "position 1 of vertex 2 is 1e+20"),
          "huge position: %s at %lld, want %u", err.message, (long long)err.offset, at);
    iq_free(m);
    put_f32(copy + at, NAN);
    m = load_patched(copy, size, &err);
    CHECK(!m && err.code == IQ_ERROR_BAD_VALUE && err.offset == at && strstr(err.message, "not a finite number"), "NaN position");
    iq_free(m);

    /* A joint's bind translate of 3e38. */
    memcpy(copy, bytes, size);
    at = HDR(14) + 48 * 1 + 8 + 4 * 2;
    put_f32(copy + at, 3e38f);
    m = load_patched(copy, size, &err);
    CHECK(!m && err.code == IQ_ERROR_BAD_VALUE && err.offset == at && strstr(err.message, "joint 1 ('tip'): translate 2"),
          "huge bind: %s at %lld", err.message, (long long)err.offset);
    iq_free(m);

    /* A frame channel beyond the limit: the pose's scale channel 7 (scale x)
     * is constant here, so the error points at the pose's offset field. */
    memcpy(copy, bytes, size);
    uint32_t pose = HDR(16), mask = rd32(bytes + pose + 4);
    CHECK(!(mask & (1u << 7)), "scale x is not animated (mask 0x%x)", mask);
    at = pose + 8 + 4 * 7;
    put_f32(copy + at, 1e30f);
    m = load_patched(copy, size, &err);
    CHECK(!m && err.code == IQ_ERROR_BAD_VALUE && err.offset == at && strstr(err.message, "frame 0, joint 0: channel 7 is 1e+30"),
          "huge frame scale: %s at %lld, want %u", err.message, (long long)err.offset, at);
    iq_free(m);

    /* Garbage frame bounds: recomputed from the posed mesh, with a warning. */
    memcpy(copy, bytes, size);
    uint32_t bounds = HDR(22);
    CHECK(bounds != 0 && HDR(19) == 3, "the writer stores bounds for 3 frames");
    put_f32(copy + bounds + 32 * 2 + 4 * 3, NAN);  /* frame 2: max x */
    put_f32(copy + bounds + 32 * 1 + 4 * 7, 1e35f); /* frame 1: radius */
    m = load_patched(copy, size, &err);
    iq_model *plain = load_patched(bytes, size, &err);
    CHECK(m && plain, "garbage bounds load: %s", err.message);
    if (m && plain) {
        CHECK(iqt_has_warning(m, IQ_WARNING_REPAIRED, "2 frame bound(s)"), "bounds warning");
        for (int f = 1; f < 3; f++) {
            const float *a = m->frame_bounds[f].min, *b = plain->frame_bounds[f].min;
            float worst = 0;
            for (int k = 0; k < 8; k++) worst = fmaxf(worst, fabsf(a[k] - b[k]));
            CHECK(worst < 1e-4f, "frame %d recomputed like the writer's bounds (off by %g)", f, worst);
        }
        CHECK(m->instance->skinned_positions[3] == m->positions[3] && m->instance->skin_matrices[0] == 1 && m->instance->world_matrices[11] == plain->instance->world_matrices[11],
              "the bind pose is back after measuring");
        CHECK(check_model(m) == 0 && check_evaluate(m) == 0, "invariants");
    }
    iq_free(m);
    iq_free(plain);
    free(copy);
    iq_free_bytes(bytes);
}

/* Formats games ship under our extensions are named, not "unknown". */
static void test_sibling_formats(void) {
#define START(text) text, sizeof text - 1
    struct { const char *start; size_t len; const char *name; } files[] = {
        /* MD5, DPM, ZYM, MDR, MD2, MDL and MDC are read (test_md5.c, test_darkplaces.c, test_mdr.c, test_md2.c, test_mdl.c, test_mdc.c) */
        {START("MDSW\x04\0\0\0"), "MDS"}, {START("IDST\x0a\0\0\0"), "Half-Life"},
        {START("ACTRHEAD\0\0\0\0"), "PSK"}, {START("glTF\x02\0\0\0"), "glTF"},
    };
#undef START
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        uint8_t data[64];
        memset(data, 0, sizeof data);
        memcpy(data, files[i].start, files[i].len);
        iq_error err;
        iq_model *m = iq_load_memory(data, sizeof data, NULL, &err);
        CHECK(!m && err.code == IQ_ERROR_UNSUPPORTED && strstr(err.message, files[i].name) &&
                  strstr(err.message, "interquake does not read it") && err.offset == 0,
              "%s: %s %s", files[i].name, iq_error_name(err.code), err.message);
        iq_free(m);
    }
    iq_error err;
    iq_model *m = iq_load_memory("IDQ9 not a model", 16, NULL, &err);
    CHECK(!m && err.code == IQ_ERROR_UNKNOWN_FORMAT, "unknown stays unknown: %s", iq_error_name(err.code));
    iq_free(m);
}

int main(void) {
    test_numbers();
    test_sibling_formats();
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
