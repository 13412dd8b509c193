/* The hand-made DPM and ZYM files of the DarkPlaces tests and fuzzer, built
 * byte by byte (big-endian) from model_dpmodel.h's and model_zymotic.h's
 * layouts, independently of the reader: bone "root" at the origin, bone
 * "arm" 1 along x turned +90 degrees about z; pose 1 lifts the root by 1,
 * pose 2 turns the arm 180 degrees and doubles it (the same model as
 * tests/js/lib/darkplaces-build.mjs; the answers are in test_darkplaces.c). */
#ifndef IQT_DARKPLACES_BUILD_H
#define IQT_DARKPLACES_BUILD_H
#include <stdint.h>
#include <string.h>

typedef struct iqt_dp_buf { uint8_t d[4096]; size_t n; } iqt_dp_buf;
static inline void iqt_dp_u32(iqt_dp_buf *b, uint32_t v) { for (int k = 3; k >= 0; k--) b->d[b->n++] = (uint8_t)(v >> (8 * k)); }
static inline void iqt_dp_f32(iqt_dp_buf *b, float f) { uint32_t u; memcpy(&u, &f, 4); iqt_dp_u32(b, u); }
static inline void iqt_dp_name(iqt_dp_buf *b, const char *s, size_t size) { for (size_t i = 0; i < size; i++) b->d[b->n++] = i < strlen(s) ? (uint8_t)s[i] : 0; }
static inline void iqt_dp_patch(iqt_dp_buf *b, size_t at, uint32_t v) { for (int k = 3; k >= 0; k--) b->d[at + 3 - k] = (uint8_t)(v >> (8 * k)); }

/* root at the origin; arm 1 along x turned +90 about z; pose 1 lifts the root; pose 2 turns the arm 180 and doubles it */
static const float IQT_DP_POSES[3][24] = {
    {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0},
    {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, -1, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0},
    {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -2, 0, 0, 1, 0, -2, 0, 0, 0, 0, 2, 0},
};

static inline void iqt_dp_bone_vert(iqt_dp_buf *b, float ox, float oy, float oz, float influence, float nx, float ny, float nz, uint32_t bone) {
    iqt_dp_f32(b, ox); iqt_dp_f32(b, oy); iqt_dp_f32(b, oz); iqt_dp_f32(b, influence); iqt_dp_f32(b, nx); iqt_dp_f32(b, ny); iqt_dp_f32(b, nz); iqt_dp_u32(b, bone);
}

static inline void iqt_build_dpm(iqt_dp_buf *b) {
    memset(b, 0, sizeof *b);
    iqt_dp_name(b, "DARKPLACESMODEL", 16);
    iqt_dp_u32(b, 2); iqt_dp_u32(b, 0);
    for (int i = 0; i < 8; i++) iqt_dp_f32(b, 0);
    iqt_dp_u32(b, 2); iqt_dp_u32(b, 1); iqt_dp_u32(b, 3);
    iqt_dp_u32(b, 80); iqt_dp_u32(b, 160); iqt_dp_u32(b, 216);
    iqt_dp_name(b, "root", 32); iqt_dp_u32(b, (uint32_t)-1); iqt_dp_u32(b, 0); /* bones at 80 */
    iqt_dp_name(b, "arm", 32); iqt_dp_u32(b, 0); iqt_dp_u32(b, 0);
    iqt_dp_name(b, "models/test/skin", 32); iqt_dp_u32(b, 3); iqt_dp_u32(b, 1); /* mesh at 160 */
    size_t mesh = b->n; iqt_dp_u32(b, 0); iqt_dp_u32(b, 0); iqt_dp_u32(b, 0); iqt_dp_u32(b, 0);
    const char *frames[3] = {"idle_0", "wave_0", "wave_1"}; /* frames at 216 */
    size_t frame_ofs[3];
    for (int f = 0; f < 3; f++) { iqt_dp_name(b, frames[f], 32); for (int i = 0; i < 8; i++) iqt_dp_f32(b, 0); frame_ofs[f] = b->n; iqt_dp_u32(b, 0); }
    for (int f = 0; f < 3; f++) { iqt_dp_patch(b, frame_ofs[f], (uint32_t)b->n); for (int i = 0; i < 24; i++) iqt_dp_f32(b, IQT_DP_POSES[f][i]); }
    iqt_dp_patch(b, mesh, (uint32_t)b->n); /* vertices: origins and normals already times the influence */
    iqt_dp_u32(b, 1); iqt_dp_bone_vert(b, 0, 0, 0, 1, 0, 0, 1, 0);
    iqt_dp_u32(b, 1); iqt_dp_bone_vert(b, 1, 0, 0, 1, 1, 0, 0, 1);
    iqt_dp_u32(b, 2); iqt_dp_bone_vert(b, 1, 0, 0, 0.5f, 0, 0, 0.5f, 0); iqt_dp_bone_vert(b, 0, -0.5f, 0, 0.5f, 0, 0, 0.5f, 1);
    iqt_dp_patch(b, mesh + 4, (uint32_t)b->n);
    iqt_dp_f32(b, 0); iqt_dp_f32(b, 0); iqt_dp_f32(b, 1); iqt_dp_f32(b, 0); iqt_dp_f32(b, 0); iqt_dp_f32(b, 1);
    iqt_dp_patch(b, mesh + 8, (uint32_t)b->n);
    iqt_dp_u32(b, 0); iqt_dp_u32(b, 1); iqt_dp_u32(b, 2); /* counter-clockwise, as DPM stores them */
    iqt_dp_patch(b, mesh + 12, (uint32_t)b->n);
    iqt_dp_u32(b, 0);
    iqt_dp_patch(b, 20, (uint32_t)b->n);
}

static inline void iqt_build_zym(iqt_dp_buf *b) {
    memset(b, 0, sizeof *b);
    iqt_dp_name(b, "ZYMOTICMODEL", 12);
    iqt_dp_u32(b, 1); iqt_dp_u32(b, 0);
    for (int i = 0; i < 7; i++) iqt_dp_f32(b, 0);
    iqt_dp_u32(b, 3); iqt_dp_u32(b, 1); iqt_dp_u32(b, 1); iqt_dp_u32(b, 2); iqt_dp_u32(b, 2);
    for (int i = 0; i < 18; i++) iqt_dp_u32(b, 0);
    size_t start;
#define LUMP(i) iqt_dp_patch(b, 68 + 8 * (i), (uint32_t)start), iqt_dp_patch(b, 72 + 8 * (i), (uint32_t)(b->n - start))
    start = b->n; /* scenes */
    iqt_dp_name(b, "stand", 32); for (int i = 0; i < 7; i++) iqt_dp_f32(b, 0); iqt_dp_f32(b, 10); iqt_dp_u32(b, 0); iqt_dp_u32(b, 0); iqt_dp_u32(b, 1);
    iqt_dp_name(b, "wave", 32); for (int i = 0; i < 7; i++) iqt_dp_f32(b, 0); iqt_dp_f32(b, 20); iqt_dp_u32(b, 1); iqt_dp_u32(b, 1); iqt_dp_u32(b, 2);
    LUMP(0);
    start = b->n; for (int f = 0; f < 3; f++) for (int i = 0; i < 24; i++) iqt_dp_f32(b, IQT_DP_POSES[f][i]); LUMP(1);
    start = b->n; iqt_dp_name(b, "root", 32); iqt_dp_u32(b, 0); iqt_dp_u32(b, (uint32_t)-1); iqt_dp_name(b, "arm", 32); iqt_dp_u32(b, 0); iqt_dp_u32(b, 0); LUMP(2);
    start = b->n; iqt_dp_u32(b, 1); iqt_dp_u32(b, 1); iqt_dp_u32(b, 1); LUMP(3);
    start = b->n; iqt_dp_u32(b, 0); iqt_dp_f32(b, 0); iqt_dp_f32(b, 0); iqt_dp_f32(b, 0); iqt_dp_u32(b, 1); iqt_dp_f32(b, 1); iqt_dp_f32(b, 0); iqt_dp_f32(b, 0); iqt_dp_u32(b, 1); iqt_dp_f32(b, 0); iqt_dp_f32(b, -1); iqt_dp_f32(b, 0); LUMP(4);
    start = b->n; iqt_dp_f32(b, 0); iqt_dp_f32(b, 1); iqt_dp_f32(b, 1); iqt_dp_f32(b, 1); iqt_dp_f32(b, 0); iqt_dp_f32(b, 0); LUMP(5); /* t stored from the bottom */
    start = b->n; iqt_dp_u32(b, 1); iqt_dp_u32(b, 0); iqt_dp_u32(b, 1); iqt_dp_u32(b, 2); LUMP(6);
    start = b->n; iqt_dp_name(b, "models/test/skin", 32); LUMP(7);
    start = b->n; b->d[b->n++] = 0; LUMP(8);
#undef LUMP
    iqt_dp_patch(b, 16, (uint32_t)b->n);
}

#endif
