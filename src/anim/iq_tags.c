/* Tag and joint placement by name (iq_tag_matrix): the one way to attach
 * anything to anything, whatever the formats of the two models.
 *
 * MD3 tags are lerped between frames and orthonormalised (a lerp of two
 * rotations is not a rotation). Joints are posed along their parent chain
 * only, on the stack, so a query never touches what iq_evaluate wrote. */
#include "base/iq_internal.h"
#include "anim/iq_anim_internal.h"
#include "base/iq_math.h"

/* The basis is built in double: axes that nearly coincide leave a small
 * difference that float cancellation would turn into a skewed result. */
static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static void cross3(double *out, const double *a, const double *b) {
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* Scales v to unit length; 0 when it has no direction (zero, NaN or
 * infinite). Float inputs squared cannot overflow a double. */
static int normalize3(double *v) {
    double len = sqrt(dot3(v, v));
    if (!(len > 1e-300) || !isfinite(len)) return 0;
    for (int k = 0; k < 3; k++) v[k] /= len;
    return 1;
}

/* v minus its part along unit u, normalised; 0 when v (nearly) lies along u. */
static int perpendicular(double *v, const double *u) {
    if (!normalize3(v)) return 0;
    double d = dot3(v, u);
    for (int k = 0; k < 3; k++) v[k] -= d * u[k];
    if (!(dot3(v, v) > 1e-12)) return 0;
    return normalize3(v);
}

/* Gram-Schmidt on x, then y; z completes the basis on the side the file's z
 * points to, so mirrored tags stay mirrored. Degenerate axes are rebuilt
 * from the others, and from the identity as a last resort. */
void iqi_orthonormalize_axes(float xf[3], float yf[3], float zf[3]) {
    double x[3], y[3], z[3], zin[3];
    for (int k = 0; k < 3; k++) {
        x[k] = xf[k];
        y[k] = yf[k];
        zin[k] = zf[k];
    }
    normalize3(zin);
    if (!normalize3(x)) {
        double yn[3] = {y[0], y[1], y[2]};
        normalize3(yn);
        cross3(x, yn, zin);
        if (!normalize3(x)) { x[0] = 1; x[1] = 0; x[2] = 0; }
    }
    if (!perpendicular(y, x)) {
        cross3(y, zin, x);
        if (!perpendicular(y, x)) { /* any direction perpendicular to x */
            y[0] = y[1] = y[2] = 0;
            y[fabs(x[0]) < 0.5 ? 0 : 1] = 1;
            perpendicular(y, x);
        }
    }
    cross3(z, x, y);
    if (dot3(z, zin) < 0)
        for (int k = 0; k < 3; k++) z[k] = -z[k];
    for (int k = 0; k < 3; k++) {
        xf[k] = (float)x[k];
        yf[k] = (float)y[k];
        zf[k] = (float)z[k];
    }
}

static void md3_tag(const iq_model *m, uint32_t tag, uint32_t f0, uint32_t f1, float t, float out[16]) {
    const float *a = m->tag_transforms + 12 * ((size_t)f0 * m->tag_count + tag);
    const float *b = m->tag_transforms + 12 * ((size_t)f1 * m->tag_count + tag);
    float col[4][3]; /* x, y, z axes and origin */
    /* a(1-t) + bt in double lies between a and b, so it cannot overflow */
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 3; r++) col[c][r] = (float)(a[4 * r + c] * (1.0 - t) + b[4 * r + c] * (double)t);
    iqi_orthonormalize_axes(col[0], col[1], col[2]);
    for (int c = 0; c < 4; c++) {
        for (int r = 0; r < 3; r++) out[4 * c + r] = col[c][r];
        out[4 * c + 3] = c == 3 ? 1.0f : 0.0f;
    }
}

/* The joint's local pose at the frame: the animation's, or the bind pose. */
static void joint_local(const iq_model *m, uint32_t j, uint32_t f0, uint32_t f1, float t, float out[12]) {
    iq_transform local;
    if (m->frame_poses && m->frame_count) {
        const iq_transform *a = m->frame_poses + (size_t)f0 * m->joint_count + j;
        const iq_transform *b = m->frame_poses + (size_t)f1 * m->joint_count + j;
        if (t == 0.0f) local = *a;
        else iqi_transform_lerp(&local, a, b, t);
    } else {
        local = m->joints[j].bind;
    }
    iqi_mat_from_transform(out, &local);
}

static void joint_matrix(const iq_model *m, uint32_t joint, uint32_t f0, uint32_t f1, float t, float out[16]) {
    float world[12], local[12], tmp[12];
    joint_local(m, joint, f0, f1, t, world);
    /* parent < index is guaranteed, so the walk ends at a root */
    for (int32_t p = m->joints[joint].parent; p >= 0; p = m->joints[p].parent) {
        joint_local(m, (uint32_t)p, f0, f1, t, local);
        iqi_mat_mul(tmp, local, world);
        memcpy(world, tmp, sizeof world);
    }
    for (int c = 0; c < 4; c++) {
        for (int r = 0; r < 3; r++) out[4 * c + r] = world[4 * r + c];
        out[4 * c + 3] = c == 3 ? 1.0f : 0.0f;
    }
}

iq_error_code iq_tag_matrix_frames(const iq_model *m, uint32_t index, uint32_t frame_a, uint32_t frame_b, float blend,
                         float out[16]) {
    if (!m || !out || index >= (uint64_t)m->tag_count + m->joint_count) return IQ_ERROR_INVALID_ARGUMENT;
    uint32_t last = m->frame_count ? m->frame_count - 1 : 0;
    if (frame_a > last) frame_a = last;
    if (frame_b > last) frame_b = last;
    if (!(blend > 0)) blend = 0; /* also NaN */
    if (blend > 1) blend = 1;
    if (index < m->tag_count) {
        md3_tag(m, index, frame_a, frame_b, blend, out);
        return IQ_ERROR_NONE;
    }
    if (!m->frame_count) frame_a = frame_b = 0, blend = 0;
    joint_matrix(m, index - m->tag_count, frame_a, frame_b, blend, out);
    return IQ_ERROR_NONE;
}

iq_error_code iq_tag_matrix_at(const iq_model *m, uint32_t index, float frame, float out[16]) {
    uint32_t f0 = 0, f1 = 0;
    float t = 0;
    if (!m) return IQ_ERROR_INVALID_ARGUMENT;
    if (m->frame_count) iqi_frame_pair(m->frame_count, frame, &f0, &f1, &t);
    return iq_tag_matrix_frames(m, index, f0, f1, t, out);
}

/* Names compare as bytes: whatever the file holds, in any encoding. */
iq_error_code iq_tag_matrix(const iq_model *m, const char *name, float frame, float out[16]) {
    if (!m || !name || !out) return IQ_ERROR_INVALID_ARGUMENT;
    for (uint32_t i = 0; i < m->tag_count; i++)
        if (strcmp(m->tag_names[i], name) == 0) return iq_tag_matrix_at(m, i, frame, out);
    for (uint32_t j = 0; j < m->joint_count; j++)
        if (m->joints[j].name && strcmp(m->joints[j].name, name) == 0) return iq_tag_matrix_at(m, m->tag_count + j, frame, out);
    return IQ_ERROR_INVALID_ARGUMENT; /* no such tag or joint */
}
