/* Small vector, quaternion and 3x4 matrix helpers (iqi_ like every internal
 * name; iqm_ names are the IQM format's). Matrices are row-major 3x4
 * (m[4*row + col]), the affine part of a column-vector transform:
 * p' = M * [p, 1]. */
#ifndef IQ_MATH_H
#define IQ_MATH_H

#include <math.h>
#include "interquake.h"

/* M = T * R * S: the IQM order output = (input*scale)*rotation + translation. */
static inline void iqi_mat_from_transform(float m[12], const iq_transform *t) {
    float x = t->rotate[0], y = t->rotate[1], z = t->rotate[2], w = t->rotate[3];
    float sx = t->scale[0], sy = t->scale[1], sz = t->scale[2];
    float xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z;
    float wx = w * x, wy = w * y, wz = w * z;
    m[0] = (1 - 2 * (yy + zz)) * sx; m[1] = 2 * (xy - wz) * sy;       m[2] = 2 * (xz + wy) * sz;       m[3] = t->translate[0];
    m[4] = 2 * (xy + wz) * sx;       m[5] = (1 - 2 * (xx + zz)) * sy; m[6] = 2 * (yz - wx) * sz;       m[7] = t->translate[1];
    m[8] = 2 * (xz - wy) * sx;       m[9] = 2 * (yz + wx) * sy;       m[10] = (1 - 2 * (xx + yy)) * sz; m[11] = t->translate[2];
}

/* out = a * b (affine); out may not alias a or b. */
static inline void iqi_mat_mul(float out[12], const float a[12], const float b[12]) {
    for (int r = 0; r < 3; r++) {
        const float *ar = a + 4 * r;
        for (int c = 0; c < 4; c++)
            out[4 * r + c] = ar[0] * b[c] + ar[1] * b[4 + c] + ar[2] * b[8 + c] + (c == 3 ? ar[3] : 0.0f);
    }
}

static inline float iqi_mat_det3(const float m[12]) {
    return m[0] * (m[5] * m[10] - m[6] * m[9]) - m[1] * (m[4] * m[10] - m[6] * m[8]) + m[2] * (m[4] * m[9] - m[5] * m[8]);
}

/* General affine inverse (handles the shear that hierarchical non-uniform
 * scale creates). Returns 0 when the matrix is singular or not finite. */
static inline int iqi_mat_invert(float out[12], const float m[12]) {
    double det = (double)iqi_mat_det3(m);
    if (!(fabs(det) > 1e-30) || !isfinite(det)) return 0;
    double id = 1.0 / det;
    float r[9];
    r[0] = (float)((m[5] * m[10] - m[6] * m[9]) * id);
    r[1] = (float)((m[2] * m[9] - m[1] * m[10]) * id);
    r[2] = (float)((m[1] * m[6] - m[2] * m[5]) * id);
    r[3] = (float)((m[6] * m[8] - m[4] * m[10]) * id);
    r[4] = (float)((m[0] * m[10] - m[2] * m[8]) * id);
    r[5] = (float)((m[2] * m[4] - m[0] * m[6]) * id);
    r[6] = (float)((m[4] * m[9] - m[5] * m[8]) * id);
    r[7] = (float)((m[1] * m[8] - m[0] * m[9]) * id);
    r[8] = (float)((m[0] * m[5] - m[1] * m[4]) * id);
    for (int i = 0; i < 3; i++) {
        out[4 * i + 0] = r[3 * i + 0];
        out[4 * i + 1] = r[3 * i + 1];
        out[4 * i + 2] = r[3 * i + 2];
        out[4 * i + 3] = -(r[3 * i + 0] * m[3] + r[3 * i + 1] * m[7] + r[3 * i + 2] * m[11]);
    }
    for (int i = 0; i < 12; i++)
        if (!isfinite(out[i])) return 0;
    return 1;
}

static inline void iqi_quat_normalize(float q[4]) {
    float len = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (len > 0.0f) {
        float inv = 1.0f / len;
        q[0] *= inv; q[1] *= inv; q[2] *= inv; q[3] *= inv;
    } else {
        q[0] = q[1] = q[2] = 0.0f; q[3] = 1.0f;
    }
}

/* Shortest-path normalized lerp: the rotation interpolation used between
 * adjacent frames (indistinguishable from slerp at frame spacing, see README). */
static inline void iqi_quat_nlerp(float out[4], const float a[4], const float b[4], float t) {
    float dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    float tb = dot < 0.0f ? -t : t, ta = 1.0f - t;
    for (int i = 0; i < 4; i++) out[i] = a[i] * ta + b[i] * tb;
    iqi_quat_normalize(out);
}

static inline void iqi_transform_lerp(iq_transform *out, const iq_transform *a, const iq_transform *b, float t) {
    for (int i = 0; i < 3; i++) {
        out->translate[i] = a->translate[i] + (b->translate[i] - a->translate[i]) * t;
        out->scale[i] = a->scale[i] + (b->scale[i] - a->scale[i]) * t;
    }
    iqi_quat_nlerp(out->rotate, a->rotate, b->rotate, t);
}

#endif
