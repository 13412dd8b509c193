/* A hand-made MDR file for the MDR tests and fuzzer, built byte by byte
 * (little-endian) from ioquake3's qfiles.h layout, independently of the
 * reader: two bones placed in model space per frame (bone 0 at the origin,
 * bone 1 at (1 0 0) turned +90 degrees about z; frame 1 lifts bone 0 by 1
 * and turns bone 1 180 degrees), one surface of three vertices (one on each
 * bone, one on both by halves), a tag on bone 1. compressed != 0 stores the
 * frames as ioquake3's 24-byte compressed bones. Answers in test_mdr.c. */
#ifndef IQT_MDR_BUILD_H
#define IQT_MDR_BUILD_H
#include <stdint.h>
#include <string.h>

typedef struct iqt_mdr_buf { uint8_t d[4096]; size_t n; } iqt_mdr_buf;
static inline void iqt_mdr_u32(iqt_mdr_buf *b, uint32_t v) { for (int k = 0; k < 4; k++) b->d[b->n++] = (uint8_t)(v >> (8 * k)); }
static inline void iqt_mdr_u16(iqt_mdr_buf *b, uint32_t v) { b->d[b->n++] = (uint8_t)v; b->d[b->n++] = (uint8_t)(v >> 8); }
static inline void iqt_mdr_f32(iqt_mdr_buf *b, float f) { uint32_t u; memcpy(&u, &f, 4); iqt_mdr_u32(b, u); }
static inline void iqt_mdr_name(iqt_mdr_buf *b, const char *s, size_t size) { for (size_t i = 0; i < size; i++) b->d[b->n++] = i < strlen(s) ? (uint8_t)s[i] : 0; }
static inline void iqt_mdr_patch(iqt_mdr_buf *b, size_t at, uint32_t v) { for (int k = 0; k < 4; k++) b->d[at + k] = (uint8_t)(v >> (8 * k)); }

static const float IQT_MDR_BONES[2][2][12] = {
    {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}, {0, -1, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0}},
    {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1}, {-1, 0, 0, 1, 0, -1, 0, 0, 0, 0, 1, 0}},
};

static inline void iqt_mdr_weight(iqt_mdr_buf *b, uint32_t bone, float w, float x, float y, float z) {
    iqt_mdr_u32(b, bone); iqt_mdr_f32(b, w); iqt_mdr_f32(b, x); iqt_mdr_f32(b, y); iqt_mdr_f32(b, z);
}

static inline void iqt_build_mdr(iqt_mdr_buf *b, int compressed) {
    memset(b, 0, sizeof *b);
    iqt_mdr_name(b, "RDM5", 4);
    iqt_mdr_u32(b, 2);
    iqt_mdr_name(b, "models/test/arm.mdr", 64);
    iqt_mdr_u32(b, 2); iqt_mdr_u32(b, 2); /* frames, bones */
    iqt_mdr_u32(b, 0); /* ofsFrames: patched */
    iqt_mdr_u32(b, 1); iqt_mdr_u32(b, 0); /* LODs, ofsLODs */
    iqt_mdr_u32(b, 1); iqt_mdr_u32(b, 0); /* tags, ofsTags */
    iqt_mdr_u32(b, 0); /* ofsEnd */
    iqt_mdr_patch(b, 80, compressed ? (uint32_t)-(int32_t)b->n : (uint32_t)b->n);
    for (int f = 0; f < 2; f++) {
        for (int i = 0; i < 6; i++) iqt_mdr_f32(b, i < 3 ? -2.0f : 2.0f); /* bounds */
        for (int i = 0; i < 4; i++) iqt_mdr_f32(b, 0); /* local origin, radius */
        if (!compressed) iqt_mdr_name(b, f ? "wave" : "rest", 16);
        for (int j = 0; j < 2; j++) {
            const float *m = IQT_MDR_BONES[f][j];
            if (compressed) {
                for (int k = 0; k < 3; k++) iqt_mdr_u16(b, (uint32_t)(int)(m[4 * k + 3] * 64 + 32768));
                for (int r = 0; r < 3; r++)
                    for (int k = 0; k < 3; k++) iqt_mdr_u16(b, (uint32_t)(int)(m[4 * r + k] * 32766 + 32768));
            } else
                for (int k = 0; k < 12; k++) iqt_mdr_f32(b, m[k]);
        }
    }
    size_t lod = b->n;
    iqt_mdr_patch(b, 88, (uint32_t)lod);
    iqt_mdr_u32(b, 1); iqt_mdr_u32(b, 12); iqt_mdr_u32(b, 0); /* one surface right after; ofsEnd patched */
    size_t s = b->n;
    iqt_mdr_name(b, "RDM5", 4);
    iqt_mdr_name(b, "body", 64);
    iqt_mdr_name(b, "models/test/skin", 64);
    iqt_mdr_u32(b, 0); iqt_mdr_u32(b, (uint32_t)-(int32_t)s); /* shader index, ofsHeader */
    iqt_mdr_u32(b, 3); iqt_mdr_u32(b, 0); iqt_mdr_u32(b, 1); iqt_mdr_u32(b, 0); /* verts, ofsVerts, tris, ofsTris */
    iqt_mdr_u32(b, 0); iqt_mdr_u32(b, 0); iqt_mdr_u32(b, 0); /* bone references, ofsEnd */
    iqt_mdr_patch(b, s + 144, (uint32_t)(b->n - s));
    /* vertex: normal, texcoords, weights */
    iqt_mdr_f32(b, 0); iqt_mdr_f32(b, 0); iqt_mdr_f32(b, 1); iqt_mdr_f32(b, 0); iqt_mdr_f32(b, 0); iqt_mdr_u32(b, 1);
    iqt_mdr_weight(b, 0, 1, 0, 0, 0);
    iqt_mdr_f32(b, 1); iqt_mdr_f32(b, 0); iqt_mdr_f32(b, 0); iqt_mdr_f32(b, 1); iqt_mdr_f32(b, 0); iqt_mdr_u32(b, 1);
    iqt_mdr_weight(b, 1, 1, 1, 0, 0);
    iqt_mdr_f32(b, 0); iqt_mdr_f32(b, 0); iqt_mdr_f32(b, 1); iqt_mdr_f32(b, 0); iqt_mdr_f32(b, 1); iqt_mdr_u32(b, 2);
    iqt_mdr_weight(b, 0, 0.5f, 2, 0, 0); iqt_mdr_weight(b, 1, 0.5f, 0, -1, 0);
    iqt_mdr_patch(b, s + 152, (uint32_t)(b->n - s));
    iqt_mdr_u32(b, 0); iqt_mdr_u32(b, 1); iqt_mdr_u32(b, 2);
    iqt_mdr_patch(b, s + 164, (uint32_t)(b->n - s));
    iqt_mdr_patch(b, lod + 8, (uint32_t)(b->n - lod));
    iqt_mdr_patch(b, 96, (uint32_t)b->n);
    iqt_mdr_u32(b, 1); iqt_mdr_name(b, "tag_hand", 32);
    iqt_mdr_patch(b, 100, (uint32_t)b->n);
}
#endif
