/* Morph (vertex) animation, MD3: positions and normals interpolated between
 * two of the frames decoded at load. Normals are renormalised after the lerp
 * (as the Quake 3 renderer does), so lighting stays right between frames. */
#include "base/iq_internal.h"
#include "anim/iq_anim_internal.h"
#include <math.h>

/* Splits a global frame into two neighbouring frames and a blend factor,
 * clamping to the model's frames (NaN counts as frame 0). */
void iqi_frame_pair(uint32_t frame_count, float frame, uint32_t *f0, uint32_t *f1, float *t) {
    float last = frame_count ? (float)(frame_count - 1) : 0.0f;
    if (!(frame > 0)) frame = 0; /* also NaN */
    if (frame > last) frame = last;
    *f0 = (uint32_t)frame;
    if (*f0 >= frame_count && frame_count) *f0 = frame_count - 1;
    *f1 = *f0 + 1 < frame_count ? *f0 + 1 : *f0;
    *t = frame - (float)*f0;
}

/* One vertex attribute lerped between frames f0 and f1 by t. */
static inline void lerp3(float *out, const float *frames, size_t stride, uint32_t f0, uint32_t f1, float t, size_t v) {
    const float *a = frames + (size_t)f0 * stride + 3 * v, *b = frames + (size_t)f1 * stride + 3 * v;
    for (int k = 0; k < 3; k++) out[k] = a[k] + (b[k] - a[k]) * t;
}

void iqi_morph_frames(iq_instance *inst, uint32_t a0, uint32_t a1, float ta, uint32_t b0, uint32_t b1, float tb,
                      float weight) {
    const iq_model *m = inst->model;
    uint32_t nv = m->vertex_count;
    if (!nv) return;
    size_t stride = 3 * (size_t)nv;
    if (weight <= 0.0f && (ta == 0.0f || a0 == a1)) { /* a frame as it is */
        memcpy(inst->skinned_positions, m->frame_positions + a0 * stride, stride * sizeof(float));
        memcpy(inst->skinned_normals, m->frame_normals + a0 * stride, stride * sizeof(float));
        return;
    }
    for (size_t v = 0; v < nv; v++) {
        float *p = inst->skinned_positions + 3 * v, *n = inst->skinned_normals + 3 * v;
        lerp3(p, m->frame_positions, stride, a0, a1, ta, v);
        lerp3(n, m->frame_normals, stride, a0, a1, ta, v);
        if (weight > 0.0f) { /* crossfade toward a second pair of frames */
            float p2[3], n2[3];
            lerp3(p2, m->frame_positions, stride, b0, b1, tb, v);
            lerp3(n2, m->frame_normals, stride, b0, b1, tb, v);
            for (int k = 0; k < 3; k++) {
                p[k] += (p2[k] - p[k]) * weight;
                n[k] += (n2[k] - n[k]) * weight;
            }
        }
        float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (len > 1e-6f) {
            for (int k = 0; k < 3; k++) n[k] /= len;
        } else { /* opposite normals cancel half way: take the nearer frame's */
            memcpy(n, m->frame_normals + (ta < 0.5f ? a0 : a1) * stride + 3 * v, 3 * sizeof(float));
        }
    }
}

void iqi_morph_evaluate(iq_instance *inst, float frame) {
    uint32_t f0, f1;
    float t;
    iqi_frame_pair(inst->model->frame_count, frame, &f0, &f1, &t);
    iqi_morph_frames(inst, f0, f1, t, f0, f1, t, 0.0f);
}

iq_error_code iq_instance_morph(iq_instance *inst, uint32_t frame_a, uint32_t frame_b, float t) {
    if (!inst || !inst->model->frame_positions || frame_a >= inst->model->frame_count ||
        frame_b >= inst->model->frame_count || !isfinite(t))
        return IQ_ERROR_INVALID_ARGUMENT;
    t = t < 0 ? 0 : t > 1 ? 1 : t; /* between the frames: outputs stay finite */
    iqi_morph_frames(inst, frame_a, frame_b, t, frame_a, frame_b, t, 0.0f);
    return IQ_ERROR_NONE;
}
