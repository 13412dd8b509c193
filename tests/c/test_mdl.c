/* Native tests of the Quake 1 MDL reader and DarkPlaces .framegroups under
 * ASan/UBSan: a model built here (a tiny writer of Quake's layout: a skin
 * and a skin group, an on-seam vertex, single frames and a frame group)
 * loads with the values it was built from, and every truncation, byte
 * patch, failing allocation and memory limit fails cleanly. The built file
 * is written to build/fuzz-corpus/fuzz_mdl/ (fuzz_mdl's seeds). Run from
 * the repository root. */
#include "check.h"
#include "check_model.h"
#include "sweeps.h"
#include "interquake.h"
#include <string.h>

#define SEEDS "build/fuzz-corpus/fuzz_mdl/"

typedef struct buf { unsigned char d[1 << 15]; size_t n; } buf;
static void i32(buf *b, int32_t v) { memcpy(b->d + b->n, &v, 4); b->n += 4; } /* the tests run little-endian */
static void f32(buf *b, float v) { memcpy(b->d + b->n, &v, 4); b->n += 4; }
static void u8(buf *b, int v) { b->d[b->n++] = (unsigned char)v; }

static void frame(buf *b, const char *name, int verts, int z) {
    u8(b, 0), u8(b, 0), u8(b, z), u8(b, 0), u8(b, 255), u8(b, 255), u8(b, z + 9), u8(b, 0);
    char field[16] = {0};
    strncpy(field, name, sizeof field);
    memcpy(b->d + b->n, field, 16);
    b->n += 16;
    for (int v = 0; v < verts; v++) u8(b, v * 9), u8(b, 255 - v * 7), u8(b, z + v % 10), u8(b, (v + z) % 162);
}

/* `verts` ring vertices (vertex 1 on the seam) fanned into triangles, every
 * other one facing back; a skin and a group of two; frames stand1, stand2,
 * a group of three (flame1..3) and death1. */
static void build(buf *b, int verts) {
    memset(b, 0, sizeof *b);
    int w = 8, h = 4, tris = verts - 2;
    memcpy(b->d, "IDPO", 4);
    b->n = 4;
    i32(b, 6);
    f32(b, 0.5f), f32(b, 0.25f), f32(b, 2.0f), f32(b, -10.0f), f32(b, 4.0f), f32(b, -1.0f), f32(b, 30.0f);
    f32(b, 0), f32(b, 0), f32(b, 22.0f);
    i32(b, 2), i32(b, w), i32(b, h), i32(b, verts), i32(b, tris), i32(b, 4), i32(b, 0), i32(b, 0);
    f32(b, 1.0f);
    i32(b, 0);
    for (int i = 0; i < w * h; i++) u8(b, i * 7);
    i32(b, 1), i32(b, 2), f32(b, 0.1f), f32(b, 0.2f);
    for (int i = 0; i < 2 * w * h; i++) u8(b, 255 - i);
    for (int v = 0; v < verts; v++) i32(b, v == 1 ? 32 : 0), i32(b, v % w), i32(b, v % h);
    for (int t = 0; t < tris; t++) i32(b, t % 2), i32(b, 0), i32(b, t + 1), i32(b, t + 2);
    i32(b, 0), frame(b, "stand1", verts, 0);
    i32(b, 0), frame(b, "stand2", verts, 1);
    i32(b, 1), i32(b, 3), u8(b, 0), u8(b, 0), u8(b, 0), u8(b, 0), u8(b, 255), u8(b, 255), u8(b, 255), u8(b, 0);
    f32(b, 0.1f), f32(b, 0.2f), f32(b, 0.3f);
    frame(b, "flame1", verts, 2), frame(b, "flame2", verts, 3), frame(b, "flame3", verts, 4);
    i32(b, 0), frame(b, "death1", verts, 5);
}

static void test_known_values(void) {
    static buf b;
    build(&b, 6);
    iq_error err;
    iq_model *m = iq_load_memory(b.d, b.n, NULL, &err);
    CHECK(m != NULL, "load: %s", err.message);
    if (!m) return;
    CHECK(check_model(m) == 0 && check_evaluate(m) == 0, "invariants");
    CHECK(m->format == IQ_FORMAT_MDL && m->frame_count == 6 && m->image_count == 3 && m->shader_count == 2, "counts");
    CHECK(m->animation_count == 3 && strcmp(m->animations[1].name, "flame") == 0 && m->animations[1].first_frame == 2 &&
              m->animations[1].frame_count == 3 && fabsf(m->animations[1].framerate - 10.0f) < 1e-4f,
          "clips");
    CHECK(m->frame_info[3].interval == 0.2f && m->frame_info[0].interval == 0.0f, "intervals");
    CHECK(m->images[1].interval == 0.1f && m->images[2].skin == 1 && strcmp(m->images[2].name, "skin1_1") == 0, "skin group");
    /* vertex 1 is on the seam and triangle 0 faces back: its texture coordinate moved half a skin */
    CHECK(m->texcoords[2] == (1 + 4) / 8.0f, "seam texcoord %g", m->texcoords[2]);
    CHECK(m->frame_positions[3 * 1] == 9 * 0.5f - 10.0f, "a position");
    iq_free(m);
}

static void test_framegroups(void) {
    static buf b;
    build(&b, 6);
    iq_error err;
    iq_model *m = iq_load_memory(b.d, b.n, NULL, &err);
    if (!m) { CHECK(0, "load: %s", err.message); return; }
    const char text[] = "0 2 10 1 stand\n// a comment\n\n2 40 20 0 \"too long\" extra tokens\n5\n-3 1\n";
    CHECK(iq_apply_framegroups(m, text, sizeof text - 1, &err) == IQ_ERROR_NONE, "apply: %s", err.message);
    CHECK(m->animation_count == 3 && strcmp(m->animations[0].name, "stand") == 0 && m->animations[0].framerate == 10.0f,
          "first group");
    CHECK(strcmp(m->animations[1].name, "too long") == 0 && m->animations[1].first_frame == 2 &&
              m->animations[1].frame_count == 4 && m->animations[1].flags == 0,
          "clamped to the frames left");
    CHECK(strcmp(m->animations[2].name, "groupified_2_anim") == 0 && m->animations[2].first_frame == 0 &&
              m->animations[2].frame_count == 1 && m->animations[2].framerate == 20.0f,
          "defaults and a negative first frame");
    CHECK(check_model(m) == 0, "invariants after");
    iq_free(m);
}

int main(void) {
    test_known_values();
    test_framegroups();
    static buf small;
    build(&small, 5);
    iqt_write_and_sweep(SEEDS "small.mdl", small.d, small.n);
    return iqt_finish("test_mdl");
}
