/* The animator: frame sampling, the joint hierarchy and CPU skinning.
 *
 * The hierarchy is one flat parent-first pass (every loader guarantees
 * parent < index) that composes full 3x4 matrices: composing translate /
 * rotate / scale triples across joints would lose the shear that non-uniform
 * scale under a rotated child creates. Skin matrix = world * inverse bind. */
#include "iq_internal.h"
#include "iq_math.h"

void iq_sample_frame(const iq_model *m, float frame, iq_transform *out) {
    uint32_t nj = m->joint_count;
    if (!m->frame_poses || m->frame_count == 0 || !(frame == frame)) {
        for (uint32_t j = 0; j < nj; j++) out[j] = m->joints[j].bind;
        return;
    }
    float last = (float)(m->frame_count - 1);
    if (frame < 0) frame = 0;
    if (frame > last) frame = last;
    uint32_t f0 = (uint32_t)frame;
    uint32_t f1 = f0 + 1 < m->frame_count ? f0 + 1 : f0;
    float t = frame - (float)f0;
    const iq_transform *a = m->frame_poses + (size_t)f0 * nj, *b = m->frame_poses + (size_t)f1 * nj;
    if (t == 0.0f) {
        memcpy(out, a, nj * sizeof *out);
        return;
    }
    for (uint32_t j = 0; j < nj; j++) iqm_transform_lerp(&out[j], &a[j], &b[j], t);
}

void iq_compute_skin_matrices(iq_model *m, const iq_transform *locals, float *world_out) {
    float *world = world_out ? world_out : m->world_matrices;
    for (uint32_t j = 0; j < m->joint_count; j++) {
        float local[12];
        iqm_mat_from_transform(local, &locals[j]);
        int32_t parent = m->joints[j].parent;
        if (parent >= 0) iqm_mat_mul(world + 12 * j, world + 12 * parent, local);
        else memcpy(world + 12 * j, local, sizeof local);
    }
    for (uint32_t j = 0; j < m->joint_count; j++)
        iqm_mat_mul(m->skin_matrices + 12 * j, world + 12 * j, m->inverse_bind + 12 * j);
}

static inline void normalize3(float *v) {
    float len = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (len > 0) {
        float inv = 1.0f / len;
        v[0] *= inv; v[1] *= inv; v[2] *= inv;
    }
}

void iq_skin_vertices(iq_model *m) {
    uint32_t n = m->vertex_count;
    if (!n || !m->positions) return;
    if (!m->blend_indices || !m->joint_count) {
        memcpy(m->skinned_positions, m->positions, (size_t)n * 3 * sizeof(float));
        if (m->normals) memcpy(m->skinned_normals, m->normals, (size_t)n * 3 * sizeof(float));
        if (m->tangents) memcpy(m->skinned_tangents, m->tangents, (size_t)n * 4 * sizeof(float));
        return;
    }
    const float *skin = m->skin_matrices;
    for (uint32_t v = 0; v < n; v++) {
        const uint16_t *bi = m->blend_indices + 4 * (size_t)v;
        const float *bw = m->blend_weights + 4 * (size_t)v;
        float mat[12];
        /* weights are sorted by nothing in the file, so blend all non-zero ones */
        {
            const float *s = skin + 12 * bi[0];
            float w = bw[0];
            for (int k = 0; k < 12; k++) mat[k] = s[k] * w;
        }
        for (int i = 1; i < 4; i++) {
            float w = bw[i];
            if (w == 0.0f) continue;
            const float *s = skin + 12 * bi[i];
            for (int k = 0; k < 12; k++) mat[k] += s[k] * w;
        }
        const float *p = m->positions + 3 * (size_t)v;
        float *op = m->skinned_positions + 3 * (size_t)v;
        op[0] = mat[0] * p[0] + mat[1] * p[1] + mat[2] * p[2] + mat[3];
        op[1] = mat[4] * p[0] + mat[5] * p[1] + mat[6] * p[2] + mat[7];
        op[2] = mat[8] * p[0] + mat[9] * p[1] + mat[10] * p[2] + mat[11];
        if (m->normals) {
            /* Normals go through the inverse transpose; the adjugate (cofactor
             * matrix) is that up to a scale that normalising removes. */
            float c[9];
            c[0] = mat[5] * mat[10] - mat[6] * mat[9];
            c[1] = mat[6] * mat[8] - mat[4] * mat[10];
            c[2] = mat[4] * mat[9] - mat[5] * mat[8];
            c[3] = mat[2] * mat[9] - mat[1] * mat[10];
            c[4] = mat[0] * mat[10] - mat[2] * mat[8];
            c[5] = mat[1] * mat[8] - mat[0] * mat[9];
            c[6] = mat[1] * mat[6] - mat[2] * mat[5];
            c[7] = mat[2] * mat[4] - mat[0] * mat[6];
            c[8] = mat[0] * mat[5] - mat[1] * mat[4];
            const float *nn = m->normals + 3 * (size_t)v;
            float *on = m->skinned_normals + 3 * (size_t)v;
            /* cofactor matrix C has C[r][c]; the normal transform is C * n */
            on[0] = c[0] * nn[0] + c[1] * nn[1] + c[2] * nn[2];
            on[1] = c[3] * nn[0] + c[4] * nn[1] + c[5] * nn[2];
            on[2] = c[6] * nn[0] + c[7] * nn[1] + c[8] * nn[2];
            normalize3(on);
        }
        if (m->tangents) {
            const float *t = m->tangents + 4 * (size_t)v;
            float *ot = m->skinned_tangents + 4 * (size_t)v;
            ot[0] = mat[0] * t[0] + mat[1] * t[1] + mat[2] * t[2];
            ot[1] = mat[4] * t[0] + mat[5] * t[1] + mat[6] * t[2];
            ot[2] = mat[8] * t[0] + mat[9] * t[1] + mat[10] * t[2];
            normalize3(ot);
            /* a mirroring transform flips the bitangent's handedness */
            ot[3] = iqm_mat_det3(mat) < 0 ? -t[3] : t[3];
        }
    }
}

int iq_evaluate(iq_model *m, float frame) {
    if (!m) return IQ_ERROR_INVALID_ARGUMENT;
    if (m->frame_positions) {
        iqi_morph_evaluate(m, frame);
        return 0;
    }
    if (m->joint_count) {
        iq_sample_frame(m, frame, m->local_poses);
        iq_compute_skin_matrices(m, m->local_poses, m->world_matrices);
    }
    iq_skin_vertices(m);
    return 0;
}
