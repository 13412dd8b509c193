/* Native tests of the MDC reader (RTCW / Enemy Territory compressed MD3)
 * under ASan/UBSan: a model built here (a tiny writer of the games' layout:
 * two surfaces, base and compressed frames, a tag) loads with the values it
 * was built from, and every truncation, byte patch, failing allocation and
 * memory limit fails cleanly. The built file is written to
 * build/fuzz-corpus/fuzz_mdc/ (fuzz_mdc's seeds). Run from the repository root. */
#include "check.h"
#include "check_model.h"
#include "sweeps.h"
#include "interquake.h"
#include <string.h>

#define SEEDS "build/fuzz-corpus/fuzz_mdc/"
enum { FRAMES = 4, VERTS = 4 };

typedef struct buf { unsigned char d[1 << 14]; size_t n; } buf;
static size_t i32(buf *b, int32_t v) { memcpy(b->d + b->n, &v, 4); b->n += 4; return b->n - 4; }
static void i16(buf *b, int v) { int16_t s = (int16_t)v; memcpy(b->d + b->n, &s, 2); b->n += 2; }
static void f32(buf *b, float v) { memcpy(b->d + b->n, &v, 4); b->n += 4; }
static void name(buf *b, const char *s, size_t n) { memset(b->d + b->n, 0, n); memcpy(b->d + b->n, s, strlen(s)); b->n += n; }
static void at32(buf *b, size_t at, int32_t v) { memcpy(b->d + at, &v, 4); }

/* A quad surface: base frames 0 and 1, compressed frame 0; frames use
 * (base, comp) = (0, -1), (0, 0), (1, -1), (1, 0). */
static void surface(buf *b, const char *nm, int shift) {
    size_t s = b->n;
    memcpy(b->d + b->n, "IDPC", 4), b->n += 4;
    name(b, nm, 64);
    i32(b, 0), i32(b, 1), i32(b, 2), i32(b, 1), i32(b, VERTS), i32(b, 2);
    size_t ofs = i32(b, 0); /* 7 offsets then the end, patched below */
    for (int k = 0; k < 7; k++) i32(b, 0);
    size_t rel[8];
    rel[1] = b->n - s, name(b, "models/x/skin.tga", 64), i32(b, 0);             /* shaders */
    rel[0] = b->n - s;                                                          /* triangles */
    int t[6] = {0, 1, 2, 0, 2, 3};
    for (int k = 0; k < 6; k++) i32(b, t[k]);
    rel[2] = b->n - s;
    for (int v = 0; v < VERTS; v++) f32(b, (float)(v & 1)), f32(b, (float)(v >> 1)); /* st */
    rel[3] = b->n - s;
    for (int f = 0; f < 2; f++)
        for (int v = 0; v < VERTS; v++) i16(b, 64 * (v & 1) + shift + f), i16(b, 64 * (v >> 1)), i16(b, 32 * f), i16(b, (v * 37) & 0xffff);
    rel[4] = b->n - s;
    for (int v = 0; v < VERTS; v++) i32(b, (int32_t)(uint32_t)((127 + v) | (100u << 8) | (150u << 16) | ((uint32_t)(v * 60) << 24)));
    rel[5] = b->n - s;
    for (int f = 0; f < FRAMES; f++) i16(b, f / 2);
    rel[6] = b->n - s;
    for (int f = 0; f < FRAMES; f++) i16(b, f % 2 ? 0 : -1);
    rel[7] = b->n - s;
    for (int k = 0; k < 8; k++) at32(b, ofs + 4 * (size_t)k, (int32_t)rel[k]);
}

static void build(buf *b) {
    memset(b, 0, sizeof *b);
    memcpy(b->d, "IDPC", 4), b->n = 4;
    i32(b, 2), name(b, "models/x/test.mdc", 64), i32(b, 0), i32(b, FRAMES), i32(b, 1), i32(b, 2), i32(b, 0);
    size_t ofs = b->n;
    for (int k = 0; k < 5; k++) i32(b, 0);
    at32(b, ofs, (int32_t)b->n);
    for (int f = 0; f < FRAMES; f++) {
        for (int k = 0; k < 3; k++) f32(b, -2);
        for (int k = 0; k < 3; k++) f32(b, 3);
        for (int k = 0; k < 3; k++) f32(b, 0);
        f32(b, 4), name(b, "frame", 16);
    }
    at32(b, ofs + 4, (int32_t)b->n), name(b, "tag_head", 64);
    at32(b, ofs + 8, (int32_t)b->n);
    for (int f = 0; f < FRAMES; f++) i16(b, 64 * f), i16(b, 0), i16(b, 32), i16(b, 0), i16(b, 8175 * f), i16(b, 0);
    at32(b, ofs + 12, (int32_t)b->n);
    surface(b, "a", 0);
    surface(b, "b", 64);
    at32(b, ofs + 16, (int32_t)b->n);
}

static void test_known_values(void) {
    static buf b;
    build(&b);
    iq_error err;
    iq_model *m = iq_load_memory(b.d, b.n, NULL, &err);
    CHECK(m != NULL, "load: %s", err.message);
    if (!m) return;
    CHECK(check_model(m) == 0 && check_evaluate(m) == 0, "invariants");
    CHECK(m->format == IQ_FORMAT_MDC && m->mesh_count == 2 && m->vertex_count == 8 && m->frame_count == FRAMES && m->tag_count == 1,
          "counts");
    /* frame 1, surface b, vertex 1: base frame 0 (x = 64 + 64 -> 2 units) plus ((128 - 127) * 0.05, (100 - 127) * 0.05, (150 - 127) * 0.05) */
    const float *p = m->frame_positions + 3 * (8 + 4 + 1);
    CHECK(p[0] == 2.0f + (float)(1 * 0.05) && p[1] == 0.0f + (float)(-27 * 0.05) && p[2] == 0.0f + (float)(23 * 0.05),
          "a compressed vertex (%g %g %g)", p[0], p[1], p[2]);
    /* frame 2: base frame 1 alone */
    p = m->frame_positions + 3 * (16 + 1);
    CHECK(p[0] == 1.0f + 1.0f / 64 && p[2] == 0.5f, "a base vertex (%g %g)", p[0], p[2]);
    float t[16];
    CHECK(iq_tag_matrix(m, "tag_head", 1, t) == IQ_ERROR_NONE && fabsf(t[0]) < 1e-5f && fabsf(t[1] - 1) < 1e-5f && t[12] == 1.0f && t[14] == 0.5f,
          "tag at frame 1");
    iq_free(m);
}

int main(void) {
    test_known_values();
    static buf b;
    build(&b);
    iqt_write_and_sweep(SEEDS "two-surfaces.mdc", b.d, b.n);
    return iqt_finish("test_mdc");
}
