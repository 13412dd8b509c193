/* What the animator's files share, and its load-time steps the load pipeline
 * (load/iq_load.c) runs when it finishes a model. Not part of the public API. */
#ifndef IQ_ANIM_INTERNAL_H
#define IQ_ANIM_INTERNAL_H

#include "base/iq_internal.h"

// -- Load-time steps, in the order the pipeline runs them

/* Its scratch buffers and the influence sets CPU skinning uses (iq_anim_skin.c). */
int iqi_anim_prepare(iqi_ctx *ctx);
/* The model's own evaluation state (iq_instance.c), in its arena; after iqi_anim_prepare. */
int iqi_instance_prepare(iqi_ctx *ctx);
/* Puts an instance back in the bind pose (an MD3 in its first frame). */
void iqi_instance_reset(iq_instance *inst);
/* The bounds of the model's mesh in one pose (iq_anim.c); overwrites the
 * skin matrices and skinned arrays. */
void iqi_pose_bounds(iq_instance *inst, const iq_transform *locals, iq_bounds *b);

// -- Shared by the animator's files

/* Influence sets CPU skinning blends (0 when nothing is skinned), and the
 * floats each needs in an instance's set_matrices. */
uint32_t iqi_anim_set_count(const iq_model *model);
#define IQI_SET_STRIDE 24 /* 12 blended matrix, 9 cofactor matrix, 1 handedness, 2 pad */

/* Morph (vertex) animation: fills skinned_positions/normals from
 * frame_positions/normals at a fractional, clamped frame. */
void iqi_morph_evaluate(iq_instance *instance, float frame);
/* The same between frames a0 and a1 (blend ta), crossfaded by `weight` toward
 * frames b0 and b1 (blend tb); weight 0 ignores b. Frames must be < frame_count. */
void iqi_morph_frames(iq_instance *instance, uint32_t a0, uint32_t a1, float ta, uint32_t b0, uint32_t b1, float tb, float weight);
/* Splits a fractional global frame into neighbours f0, f1 and a blend factor
 * t, clamped to 0..frame_count-1 (NaN is frame 0). */
void iqi_frame_pair(uint32_t frame_count, float frame, uint32_t *f0, uint32_t *f1, float *t);
/* Makes three axes orthonormal in place, keeping z on the side it pointed to. */
void iqi_orthonormalize_axes(float x[3], float y[3], float z[3]);

#endif
