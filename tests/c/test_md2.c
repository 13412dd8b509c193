/* Native tests of the MD2 reader under ASan/UBSan: a model built here (a
 * tiny writer of Quake 2's layout) loads with the values it was built from,
 * the normal table is unit length, and every truncation, byte patch, failing
 * allocation and memory limit fails cleanly. The built files are written to
 * build/fuzz-corpus/fuzz_md2/, where they also seed fuzz_md2. Run from the
 * repository root. */
#include "check.h"
#include "check_model.h"
#include "sweeps.h"
#include "interquake.h"
#include "formats/iq_vertex_formats.h"
#include <string.h>

#define SEEDS "build/fuzz-corpus/fuzz_md2/"

typedef struct buf { unsigned char d[1 << 16]; size_t n; } buf;
static void put32(buf *b, size_t at, int32_t v) { memcpy(b->d + at, &v, 4); } /* the tests run little-endian */
static void putf(buf *b, size_t at, float v) { memcpy(b->d + at, &v, 4); }
static void put16(buf *b, size_t at, int16_t v) { memcpy(b->d + at, &v, 2); }

/* A ring of `xyz` positions fanned into xyz - 2 triangles, `frames` frames
 * named run1.. (and pain101.. after half), two skins, and a texture seam:
 * one more triangle over positions 0, 1, 2 maps position 0 to its own
 * texture coordinate, so model vertex `xyz` is position 0 again. */
static void build(buf *b, int xyz, int frames) {
    memset(b, 0, sizeof *b);
    int tris = xyz - 1, st = xyz + 1, skins = 2, framesize = 40 + 4 * xyz;
    int ofs_skins = 68, ofs_st = ofs_skins + 64 * skins, ofs_tris = ofs_st + 4 * st, ofs_frames = ofs_tris + 12 * tris;
    int ofs_gl = ofs_frames + framesize * frames, ofs_end = ofs_gl + 4;
    memcpy(b->d, "IDP2", 4);
    int32_t h[16] = {8, 64, 32, framesize, skins, xyz, st, tris, 1, frames, ofs_skins, ofs_st, ofs_tris, ofs_frames, ofs_gl, ofs_end};
    for (int i = 0; i < 16; i++) put32(b, 4 + 4 * (size_t)i, h[i]);
    strcpy((char *)b->d + ofs_skins, "models/test/skin.pcx");
    strcpy((char *)b->d + ofs_skins + 64, "models/test/skin2.pcx");
    for (int i = 0; i < st; i++) { put16(b, ofs_st + 4 * (size_t)i, (int16_t)(i * 4)); put16(b, ofs_st + 4 * (size_t)i + 2, (int16_t)(i * 2)); }
    for (int t = 0; t < tris; t++) {
        int last = t == tris - 1;
        int16_t v[3] = {0, (int16_t)(last ? 1 : t + 1), (int16_t)(last ? 2 : t + 2)};
        for (int k = 0; k < 3; k++) {
            put16(b, ofs_tris + 12 * (size_t)t + 2 * (size_t)k, v[k]);
            put16(b, ofs_tris + 12 * (size_t)t + 6 + 2 * (size_t)k, (int16_t)(last && k == 0 ? xyz : v[k]));
        }
    }
    for (int f = 0; f < frames; f++) {
        size_t at = ofs_frames + (size_t)framesize * f;
        putf(b, at, 0.5f), putf(b, at + 4, 0.25f), putf(b, at + 8, 2.0f);
        putf(b, at + 12, -10.0f), putf(b, at + 16, 3.0f), putf(b, at + 20, (float)f);
        snprintf((char *)b->d + at + 24, 16, f < frames / 2 ? "run%d" : "pain1%02d", f < frames / 2 ? f + 1 : f - frames / 2 + 1);
        for (int v = 0; v < xyz; v++) {
            unsigned char *r = b->d + at + 40 + 4 * (size_t)v;
            r[0] = (unsigned char)(v * 7), r[1] = (unsigned char)(255 - v * 5), r[2] = (unsigned char)(v * 3 + f), r[3] = (unsigned char)((v + f) % 162);
        }
    }
    b->n = (size_t)ofs_end;
}

static void test_known_values(void) {
    static buf b;
    build(&b, 12, 6);
    iq_error err;
    iq_model *m = iq_load_memory(b.d, b.n, NULL, &err);
    CHECK(m != NULL, "load: %s", err.message);
    if (!m) return;
    CHECK(check_model(m) == 0 && check_evaluate(m) == 0, "invariants");
    /* 12 ring positions, one more vertex for the seam corner */
    CHECK(m->vertex_count == 13 && m->triangle_count == 11 && m->frame_count == 6, "counts %u %u %u", m->vertex_count,
          m->triangle_count, m->frame_count);
    CHECK(m->shader_count == 2 && strcmp(m->shaders[1].name, "models/test/skin2.pcx") == 0, "skins");
    CHECK(m->animation_count == 2 && strcmp(m->animations[0].name, "run") == 0 && m->animations[0].frame_count == 3 &&
              strcmp(m->animations[1].name, "pain") == 0 && m->animations[1].first_frame == 3,
          "clips %u", m->animation_count);
    int wrong = 0;
    for (uint32_t f = 0; f < 6; f++) {
        for (uint32_t v = 0; v < 13; v++) { /* vertices 0..11 are the ring in first-use order, 12 position 0 again */
            uint32_t x = v % 12;
            const float *p = m->frame_positions + 3 * ((size_t)f * 13 + v), *n = m->frame_normals + 3 * ((size_t)f * 13 + v);
            float want[3] = {(float)(x * 7) * 0.5f - 10.0f, (float)(255 - x * 5) * 0.25f + 3.0f, (float)(x * 3 + f) * 2.0f + (float)f};
            if (memcmp(p, want, sizeof want) != 0) wrong++;
            if (memcmp(n, iqi_anorms[(x + f) % 162], 3 * sizeof(float)) != 0) wrong++;
        }
    }
    CHECK(wrong == 0, "%d frame values differ from what was built", wrong);
    CHECK(m->texcoords[2 * 12] == 12 * 4 / 64.0f && m->texcoords[2 * 12 + 1] == 12 * 2 / 32.0f, "the seam vertex's texcoord");
    iq_free(m);
    for (int i = 0; i < IQI_ANORM_COUNT; i++) {
        const float *a = iqi_anorms[i];
        CHECK(fabsf(a[0] * a[0] + a[1] * a[1] + a[2] * a[2] - 1) < 2e-6f, "normal %d is not unit length", i);
    }
}

int main(void) {
    test_known_values();
    static buf small, big;
    build(&small, 5, 2);
    build(&big, 60, 40);
    iqt_write_file(SEEDS "small.md2", small.d, small.n);
    iqt_write_file(SEEDS "ring60.md2", big.d, big.n);
    iqt_truncation_sweep(SEEDS "small.md2", 1, 0, NULL);
    iqt_truncation_sweep(SEEDS "ring60.md2", 7, 0, NULL);
    iqt_patch_sweep(SEEDS "small.md2", 0, (size_t)-1, NULL);
    iqt_patch_sweep(SEEDS "ring60.md2", 0, 68 + 128 + 64, NULL);
    iqt_memory_limit_sweep(SEEDS "ring60.md2");
    return iqt_finish("test_md2");
}
