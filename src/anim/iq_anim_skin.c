/* CPU skinning and what it prepares at load. Vertices whose (joint, weight)
 * lists are equal share one "influence set": skinning blends each set's matrix
 * (and its normal matrix) once per pose instead of once per vertex. Real meshes
 * have far fewer sets than vertices (mrfixit: 1861 vertices, see
 * docs/BENCHMARKS.md). The sets are built at load (iqi_anim_prepare); the
 * blended matrices live in each instance (iq_instance.c). */
#include "base/iq_internal.h"
#include "anim/iq_anim_internal.h"
#include "formats/iq_iqm_format.h"
#include "base/iq_math.h"
#include <stdlib.h>

#define SET_STRIDE IQI_SET_STRIDE

struct iqi_animator {
    uint32_t set_count;
    uint32_t *vertex_set;   /* vertex_count: each vertex's influence set */
    uint16_t *set_joints;   /* set_count * 4 */
    float *set_weights;     /* set_count * 4 */
    uint8_t *set_sizes;     /* influences per set, 1..4 */
};

uint32_t iqi_anim_set_count(const iq_model *m) { return m->animator ? m->animator->set_count : 0; }

// -- Load-time preparation

/* A vertex's influences in canonical form: zero weights dropped, repeated
 * joints merged, sorted by joint, so equal influences compare equal. */
static uint32_t canonical_influences(const uint16_t *bi, const float *bw, uint16_t joints[4], float weights[4]) {
    uint32_t n = 0;
    for (int k = 0; k < 4; k++) {
        if (bw[k] == 0.0f) continue;
        uint32_t i = 0;
        while (i < n && joints[i] != bi[k]) i++;
        if (i < n) { weights[i] += bw[k]; continue; }
        joints[n] = bi[k];
        weights[n] = bw[k];
        n++;
    }
    if (n == 0) { /* every weight zero cannot come out of a loader; follow the first joint */
        joints[0] = bi[0];
        weights[0] = 1.0f;
        n = 1;
    }
    for (uint32_t i = 1; i < n; i++) /* insertion sort of at most 4 */
        for (uint32_t k = i; k > 0 && joints[k - 1] > joints[k]; k--) {
            uint16_t tj = joints[k]; joints[k] = joints[k - 1]; joints[k - 1] = tj;
            float tw = weights[k]; weights[k] = weights[k - 1]; weights[k - 1] = tw;
        }
    for (uint32_t i = n; i < 4; i++) { joints[i] = 0; weights[i] = 0.0f; }
    return n;
}

static int build_influence_sets(iqi_ctx *ctx, struct iqi_animator *a) {
    iq_model *m = ctx->model;
    uint32_t nv = m->vertex_count;
    uint64_t table_size = iqi_hash_table_size(nv);
    a->vertex_set = iqi_alloc(ctx, nv, sizeof(uint32_t), "influence set per vertex");
    a->set_joints = iqi_alloc(ctx, nv, 4 * sizeof(uint16_t), "influence set joints");
    a->set_weights = iqi_alloc(ctx, nv, 4 * sizeof(float), "influence set weights");
    a->set_sizes = iqi_alloc(ctx, nv, 1, "influence set sizes");
    uint32_t *table = iqi_alloc(ctx, table_size, sizeof(uint32_t), "influence set table");
    if (!a->vertex_set || !a->set_joints || !a->set_weights || !a->set_sizes || !table) return 0;
    uint32_t count = 0;
    for (uint32_t v = 0; v < nv; v++) {
        uint16_t joints[4];
        float weights[4];
        uint32_t n = canonical_influences(m->blend_indices + 4 * (size_t)v, m->blend_weights + 4 * (size_t)v, joints, weights);
        uint64_t slot = iqi_hash_influences(joints, weights) & (table_size - 1);
        for (;;) {
            uint32_t entry = table[slot];
            if (entry == 0) { /* a new set */
                memcpy(a->set_joints + 4 * (size_t)count, joints, sizeof joints);
                memcpy(a->set_weights + 4 * (size_t)count, weights, sizeof weights);
                a->set_sizes[count] = (uint8_t)n;
                table[slot] = ++count;
                a->vertex_set[v] = count - 1;
                break;
            }
            uint32_t s = entry - 1;
            if (memcmp(a->set_joints + 4 * (size_t)s, joints, sizeof joints) == 0 &&
                memcmp(a->set_weights + 4 * (size_t)s, weights, sizeof weights) == 0) {
                a->vertex_set[v] = s;
                break;
            }
            slot = (slot + 1) & (table_size - 1);
        }
    }
    a->set_count = count;
    return 1;
}

int iqi_anim_prepare(iqi_ctx *ctx) {
    iq_model *m = ctx->model;
    struct iqi_animator *a = iqi_alloc(ctx, 1, sizeof *a, "animator");
    if (!a) return 0;
    m->animator = a;
    if (m->vertex_count && m->positions && m->blend_indices && m->blend_weights && m->joint_count)
        return build_influence_sets(ctx, a);
    return 1;
}

// -- CPU skinning

/* In double: a normal through the cofactor matrix may be up to 6 K^2 long
 * (iq_numbers.c), whose square would overflow a float. */
static inline void normalize3(float *v) {
    double len2 = (double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2];
    if (len2 > 0) { /* divided in double: 1/len of a subnormal vector would overflow a float */
        double len = sqrt(len2);
        v[0] = (float)(v[0] / len); v[1] = (float)(v[1] / len); v[2] = (float)(v[2] / len);
    }
}

/* Blends each influence set's skin matrix, and from it the normal matrix:
 * normals go through the inverse transpose, and the cofactor matrix is that up
 * to a scale which normalising removes. A mirroring matrix (negative
 * determinant) flips the tangent frame's handedness. */
static void blend_set_matrices(iq_instance *inst, const struct iqi_animator *a, int need_normal) {
    const float *skin = inst->skin_matrices;
    for (uint32_t s = 0; s < a->set_count; s++) {
        float *mat = inst->set_matrices + (size_t)s * SET_STRIDE;
        const uint16_t *joints = a->set_joints + 4 * (size_t)s;
        const float *weights = a->set_weights + 4 * (size_t)s;
        uint32_t n = a->set_sizes[s];
        const float *s0 = skin + 12 * joints[0];
        float w0 = weights[0];
        for (int k = 0; k < 12; k++) mat[k] = s0[k] * w0;
        for (uint32_t i = 1; i < n; i++) {
            const float *si = skin + 12 * joints[i];
            float wi = weights[i];
            for (int k = 0; k < 12; k++) mat[k] += si[k] * wi;
        }
        if (!need_normal) continue;
        float *c = mat + 12;
        c[0] = mat[5] * mat[10] - mat[6] * mat[9];
        c[1] = mat[6] * mat[8] - mat[4] * mat[10];
        c[2] = mat[4] * mat[9] - mat[5] * mat[8];
        c[3] = mat[2] * mat[9] - mat[1] * mat[10];
        c[4] = mat[0] * mat[10] - mat[2] * mat[8];
        c[5] = mat[1] * mat[8] - mat[0] * mat[9];
        c[6] = mat[1] * mat[6] - mat[2] * mat[5];
        c[7] = mat[2] * mat[4] - mat[0] * mat[6];
        c[8] = mat[0] * mat[5] - mat[1] * mat[4];
        double det = (double)mat[0] * c[0] + (double)mat[1] * c[1] + (double)mat[2] * c[2]; /* only its sign; no overflow */
        mat[21] = det < 0 ? -1.0f : 1.0f;
    }
}

void iq_skin_vertices(iq_instance *inst) {
    const iq_model *m = inst->model;
    uint32_t n = m->vertex_count;
    const struct iqi_animator *a = m->animator;
    if (!n || !m->positions) return;
    if (!a || !a->set_count) { /* nothing to skin: the bind pose */
        memcpy(inst->skinned_positions, m->positions, (size_t)n * 3 * sizeof(float));
        if (m->normals) memcpy(inst->skinned_normals, m->normals, (size_t)n * 3 * sizeof(float));
        if (m->tangents) memcpy(inst->skinned_tangents, m->tangents, (size_t)n * 4 * sizeof(float));
        return;
    }
    const float *normals = m->normals, *tangents = m->tangents;
    blend_set_matrices(inst, a, normals || tangents);
    const float *pos = m->positions;
    float *out_pos = inst->skinned_positions, *out_nrm = inst->skinned_normals, *out_tan = inst->skinned_tangents;
    const uint32_t *vertex_set = a->vertex_set;
    const float *sets = inst->set_matrices;
    for (uint32_t v = 0; v < n; v++) {
        const float *mat = sets + (size_t)vertex_set[v] * SET_STRIDE;
        const float *p = pos + 3 * (size_t)v;
        float *op = out_pos + 3 * (size_t)v;
        float px = p[0], py = p[1], pz = p[2];
        op[0] = mat[0] * px + mat[1] * py + mat[2] * pz + mat[3];
        op[1] = mat[4] * px + mat[5] * py + mat[6] * pz + mat[7];
        op[2] = mat[8] * px + mat[9] * py + mat[10] * pz + mat[11];
        if (normals) {
            const float *c = mat + 12, *nn = normals + 3 * (size_t)v;
            float *on = out_nrm + 3 * (size_t)v;
            on[0] = c[0] * nn[0] + c[1] * nn[1] + c[2] * nn[2];
            on[1] = c[3] * nn[0] + c[4] * nn[1] + c[5] * nn[2];
            on[2] = c[6] * nn[0] + c[7] * nn[1] + c[8] * nn[2];
            normalize3(on);
        }
        if (tangents) {
            const float *t = tangents + 4 * (size_t)v;
            float *ot = out_tan + 4 * (size_t)v;
            ot[0] = mat[0] * t[0] + mat[1] * t[1] + mat[2] * t[2];
            ot[1] = mat[4] * t[0] + mat[5] * t[1] + mat[6] * t[2];
            ot[2] = mat[8] * t[0] + mat[9] * t[1] + mat[10] * t[2];
            normalize3(ot);
            ot[3] = t[3] * mat[21];
        }
    }
}
