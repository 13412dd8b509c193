/* What the IQM writer's files share (not part of the public API): the
 * writer's state and what iq_iqm_write_compute.c works out for
 * iq_iqm_write.c to lay out in the file: adjacency when the model has none,
 * every frame's bounds, the frames' quantisation per joint and channel, and
 * blend weights as bytes. */
#ifndef IQ_IQM_WRITE_INTERNAL_H
#define IQ_IQM_WRITE_INTERNAL_H

#include "formats/iq_iqm_format.h"

typedef struct writer {
    const iq_model *m;
    iqi_ctx ctx;   /* the error and the scratch arena (no model: the writer never warns) */
    char *text;
} writer;

/* Zeroed working memory from the writer's arena, or NULL with 'limit' or 'out_of_memory'. */
static inline void *iqi_iqmw_scratch(writer *w, uint64_t count, uint64_t size, const char *what) {
    return iqi_alloc(&w->ctx, count, size, what);
}

static inline void iqi_iqmw_put_u32(uint8_t *p, uint32_t v) { for (int k = 0; k < 4; k++) p[k] = (uint8_t)(v >> (8 * k)); }
static inline void iqi_iqmw_put_u16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void iqi_iqmw_put_f32(uint8_t *p, float f) { uint32_t u; memcpy(&u, &f, 4); iqi_iqmw_put_u32(p, u); }

/* IQM's adjacency for every triangle (3 per triangle, UINT32_MAX: none). 0 with w's error set. */
int iqi_iqmw_compute_adjacency(writer *w, uint32_t *adj);
/* Every frame's bounds (IQM's 8 floats: bbmin, bbmax, xyradius, radius) into out. 0 with w's error set. */
int iqi_iqmw_compute_bounds(writer *w, float *out);

/* A joint's frame channels (translate xyz, rotate xyzw, scale xyz) as IQM stores them:
 * value = offset + u16 * scale, a channel written only when its bit is in mask. */
typedef struct channel_info { float offset[10], scale[10]; uint32_t mask; } channel_info;
/* Every frame's rotations, flipped to stay on the previous frame's hemisphere; NULL with w's error set. */
float *iqi_iqmw_continuous_rotations(writer *w);
/* Fills ch (one per joint); returns how many channels are present over every joint. */
uint64_t iqi_iqmw_plan_channels(const iq_model *m, const float *rot, channel_info *ch);
/* The frames' u16 values (2 bytes for each present channel of each joint of each frame) into dst. */
void iqi_iqmw_write_frames(const iq_model *m, const float *rot, const channel_info *ch, uint8_t *dst);
/* Blend weights as ubyte x4 summing to exactly 255. */
void iqi_iqmw_quantise_weights(const float *w, uint8_t out[4]);

#endif
