/* Morph (vertex) animation, MD3: positions and normals interpolated between
 * two of the frames decoded at load. Normals are renormalised after the lerp
 * (as the Quake 3 renderer does), so lighting stays right between frames. */
#include "iq_internal.h"
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

void iqi_morph_evaluate(iq_model *m, float frame) {
    uint32_t nv = m->vertex_count, f0, f1;
    float t;
    if (!nv) return;
    iqi_frame_pair(m->frame_count, frame, &f0, &f1, &t);
    const float *pa = m->frame_positions + 3 * (size_t)f0 * nv, *pb = m->frame_positions + 3 * (size_t)f1 * nv;
    const float *na = m->frame_normals + 3 * (size_t)f0 * nv, *nb = m->frame_normals + 3 * (size_t)f1 * nv;
    if (t == 0.0f || f0 == f1) {
        memcpy(m->skinned_positions, pa, (size_t)nv * 3 * sizeof(float));
        memcpy(m->skinned_normals, na, (size_t)nv * 3 * sizeof(float));
        return;
    }
    for (size_t i = 0; i < (size_t)nv * 3; i++) m->skinned_positions[i] = pa[i] + (pb[i] - pa[i]) * t;
    for (size_t v = 0; v < nv; v++) {
        const float *a = na + 3 * v, *b = nb + 3 * v;
        float *out = m->skinned_normals + 3 * v;
        for (int k = 0; k < 3; k++) out[k] = a[k] + (b[k] - a[k]) * t;
        float len = sqrtf(out[0] * out[0] + out[1] * out[1] + out[2] * out[2]);
        if (len > 1e-6f) {
            for (int k = 0; k < 3; k++) out[k] /= len;
        } else { /* opposite normals cancel half way: take the nearer frame's */
            memcpy(out, t < 0.5f ? a : b, 3 * sizeof(float));
        }
    }
}
