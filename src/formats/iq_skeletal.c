/* Shared by the skeletal readers (iq_skeletal.h): normals from triangles,
 * and bone matrices as transforms. */
#include "formats/iq_skeletal.h"
#include "base/iq_math.h"
#include <stdlib.h>

typedef struct { float p[3]; uint32_t vertex; } keyed_vertex;

static int cmp_position(const keyed_vertex *x, const keyed_vertex *y) {
    for (int k = 0; k < 3; k++)
        if (x->p[k] != y->p[k]) return x->p[k] < y->p[k] ? -1 : 1;
    return 0;
}

static int cmp_keyed(const void *a, const void *b) {
    const keyed_vertex *x = a, *y = b;
    int c = cmp_position(x, y);
    return c ? c : (x->vertex < y->vertex ? -1 : x->vertex > y->vertex);
}

int iqi_normals_from_triangles(iqi_ctx *ctx, int weld) {
    iq_model *m = ctx->model;
    uint32_t nv = m->vertex_count;
    if (!nv) return 1;
    double *sum = iqi_alloc(ctx, nv, 3 * sizeof(double), "normal sums");
    keyed_vertex *order = iqi_alloc(ctx, nv, sizeof(keyed_vertex), "vertex order");
    m->normals = iqi_alloc(ctx, nv, 3 * sizeof(float), "normals");
    if (!sum || !order || !m->normals) return 0;
    const float *p = m->positions;
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        const uint32_t *i = m->indices + 3 * (size_t)t;
        const float *a = p + 3 * (size_t)i[0], *b = p + 3 * (size_t)i[1], *c = p + 3 * (size_t)i[2];
        double e1[3] = {(double)c[0] - a[0], (double)c[1] - a[1], (double)c[2] - a[2]};
        double e2[3] = {(double)b[0] - a[0], (double)b[1] - a[1], (double)b[2] - a[2]};
        double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
        for (int k = 0; k < 3; k++)
            for (int d = 0; d < 3; d++) sum[3 * (size_t)i[k] + d] += n[d]; /* |n| is twice the area */
    }
    for (uint32_t v = 0; v < nv; v++) {
        memcpy(order[v].p, p + 3 * (size_t)v, 12);
        order[v].vertex = v;
    }
    if (weld) qsort(order, nv, sizeof *order, cmp_keyed);
    for (uint32_t s = 0; s < nv;) {
        uint32_t e = s + 1;
        while (weld && e < nv && cmp_position(&order[e], &order[s]) == 0) e++;
        double n[3] = {0, 0, 0};
        for (uint32_t k = s; k < e; k++)
            for (int d = 0; d < 3; d++) n[d] += sum[3 * (size_t)order[k].vertex + d];
        double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        for (uint32_t k = s; k < e; k++) {
            float *out = m->normals + 3 * (size_t)order[k].vertex;
            if (len > 0 && isfinite(len))
                for (int d = 0; d < 3; d++) out[d] = (float)(n[d] / len);
            else {
                out[0] = out[1] = 0;
                out[2] = 1;
            }
        }
        s = e;
    }
    return 1;
}

int iqi_transform_from_matrix(const float m[12], iq_transform *out, float *shear) {
    double col[3][3], s[3], u[3][3];
    int zero[3], zeros = 0;
    for (int k = 0; k < 3; k++) {
        for (int r = 0; r < 3; r++) col[k][r] = m[4 * r + k];
        s[k] = sqrt(col[k][0] * col[k][0] + col[k][1] * col[k][1] + col[k][2] * col[k][2]);
        if (!isfinite(s[k])) return 0;
        zero[k] = !(s[k] > 1e-12);
        zeros += zero[k];
        for (int r = 0; r < 3; r++) u[k][r] = zero[k] ? 0 : col[k][r] / s[k];
        if (zero[k]) s[k] = 0;
    }
    /* A bone scaled to nothing along an axis (games hide parts so): that axis
     * scales by 0, and the rotation is completed from the other axes. */
    if (zeros == 3) {
        for (int k = 0; k < 3; k++)
            for (int r = 0; r < 3; r++) u[k][r] = k == r;
    } else if (zeros == 2) {
        int a = zero[0] ? (zero[1] ? 2 : 1) : 0, b = (a + 1) % 3, c = (a + 2) % 3;
        double pick[3] = {0, 0, 0};
        pick[fabs(u[a][0]) < 0.9 ? 0 : 1] = 1;
        double d = pick[0] * u[a][0] + pick[1] * u[a][1] + pick[2] * u[a][2], len = 0;
        for (int r = 0; r < 3; r++) { u[b][r] = pick[r] - d * u[a][r]; len += u[b][r] * u[b][r]; }
        for (int r = 0; r < 3; r++) u[b][r] /= sqrt(len);
        u[c][0] = u[a][1] * u[b][2] - u[a][2] * u[b][1];
        u[c][1] = u[a][2] * u[b][0] - u[a][0] * u[b][2];
        u[c][2] = u[a][0] * u[b][1] - u[a][1] * u[b][0];
    } else if (zeros == 1) {
        int c = zero[0] ? 0 : zero[1] ? 1 : 2, a = (c + 1) % 3, b = (c + 2) % 3;
        u[c][0] = u[a][1] * u[b][2] - u[a][2] * u[b][1];
        u[c][1] = u[a][2] * u[b][0] - u[a][0] * u[b][2];
        u[c][2] = u[a][0] * u[b][1] - u[a][1] * u[b][0];
        double len = sqrt(u[c][0] * u[c][0] + u[c][1] * u[c][1] + u[c][2] * u[c][2]);
        if (!(len > 1e-12)) return 0; /* the other two axes are parallel */
        for (int r = 0; r < 3; r++) u[c][r] /= len;
    }
    double det = u[0][0] * (u[1][1] * u[2][2] - u[1][2] * u[2][1]) - u[1][0] * (u[0][1] * u[2][2] - u[0][2] * u[2][1]) +
                 u[2][0] * (u[0][1] * u[1][2] - u[0][2] * u[1][1]);
    if (det < 0) { /* a mirror: the rest is a rotation */
        s[0] = -s[0];
        for (int r = 0; r < 3; r++) u[0][r] = -u[0][r];
    }
    double r[3][3]; /* r[row][col] */
    for (int k = 0; k < 3; k++)
        for (int row = 0; row < 3; row++) r[row][k] = u[k][row];
    /* rotation matrix to quaternion (the largest of w, x, y, z first, for precision) */
    double q[4], tr = r[0][0] + r[1][1] + r[2][2];
    if (tr > 0) {
        double t = sqrt(tr + 1) * 2;
        q[3] = t / 4; q[0] = (r[2][1] - r[1][2]) / t; q[1] = (r[0][2] - r[2][0]) / t; q[2] = (r[1][0] - r[0][1]) / t;
    } else if (r[0][0] > r[1][1] && r[0][0] > r[2][2]) {
        double t = sqrt(1 + r[0][0] - r[1][1] - r[2][2]) * 2;
        q[3] = (r[2][1] - r[1][2]) / t; q[0] = t / 4; q[1] = (r[0][1] + r[1][0]) / t; q[2] = (r[0][2] + r[2][0]) / t;
    } else if (r[1][1] > r[2][2]) {
        double t = sqrt(1 + r[1][1] - r[0][0] - r[2][2]) * 2;
        q[3] = (r[0][2] - r[2][0]) / t; q[0] = (r[0][1] + r[1][0]) / t; q[1] = t / 4; q[2] = (r[1][2] + r[2][1]) / t;
    } else {
        double t = sqrt(1 + r[2][2] - r[0][0] - r[1][1]) * 2;
        q[3] = (r[1][0] - r[0][1]) / t; q[0] = (r[0][2] + r[2][0]) / t; q[1] = (r[1][2] + r[2][1]) / t; q[2] = t / 4;
    }
    for (int k = 0; k < 4; k++) out->rotate[k] = (float)q[k];
    iqi_quat_normalize(out->rotate);
    for (int k = 0; k < 3; k++) {
        out->scale[k] = (float)s[k];
        out->translate[k] = m[4 * k + 3];
    }
    float back[12], worst = 0;
    iqi_mat_from_transform(back, out);
    for (int i = 0; i < 12; i++) {
        float d = fabsf(back[i] - m[i]);
        if (!(d <= worst)) worst = d; /* NaN counts as the worst */
    }
    *shear = worst;
    return 1;
}

int iqi_poses_from_matrices(iqi_ctx *ctx, iqi_matrix_reader matrix, const void *arg, uint32_t frames, float *world) {
    iq_model *m = ctx->model;
    uint32_t nj = m->joint_count, sheared = 0, flat = 0;
    float worst = 0;
    m->frame_poses = iqi_alloc(ctx, (uint64_t)frames * nj, sizeof(iq_transform), "frames");
    if (!m->frame_poses) return 0;
    m->frame_count = frames;
    for (uint32_t f = 0; f < frames; f++)
        for (uint32_t j = 0; j < nj; j++) {
            float mat[12], shear;
            if (!matrix(ctx, arg, f, j, mat)) return 0;
            iq_transform *t = &m->frame_poses[(size_t)f * nj + j];
            if (!iqi_transform_from_matrix(mat, t, &shear))
                return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, -1, "frame %u: bone %u ('%s') has a matrix whose axes make no rotation", f, j,
                                m->joints[j].name);
            if (shear > 1e-4f * (1 + fabsf(mat[3]) + fabsf(mat[7]) + fabsf(mat[11]))) sheared++;
            if (shear > worst) worst = shear;
            if (f == 0) {
                int32_t p = m->joints[j].parent;
                if (p >= 0) iqi_mat_mul(world + 12 * (size_t)j, world + 12 * (size_t)p, mat);
                else memcpy(world + 12 * (size_t)j, mat, sizeof mat);
            }
        }
    for (uint32_t j = 0; j < nj; j++) {
        m->joints[j].bind = m->frame_poses[j];
        for (int k = 0; k < 3; k++)
            if (m->joints[j].bind.scale[k] == 0) { m->joints[j].bind.scale[k] = 1; flat++; }
    }
    if (flat) iqi_warn(ctx, IQ_WARNING_REPAIRED, "%u bone axes are scaled to 0 in pose 0 (a hidden part); their bind scale is 1", flat);
    if (sheared)
        iqi_warn(ctx, IQ_WARNING_REPAIRED, "%u bone matrices have shear, which a rotation and scale cannot hold; off by up to %g",
                 sheared, worst);
    return 1;
}

const char *iqi_field_name(iqi_ctx *ctx, const uint8_t *field, size_t size) {
    size_t n = 0;
    while (n < size && field[n]) n++;
    return iqi_strdup_n(ctx, (const char *)field, n);
}

int iqi_alloc_skinned(iqi_ctx *ctx, uint32_t meshes, const char *meshes_what, uint64_t vertices, uint64_t triangles,
                      int64_t field) {
    iq_model *m = ctx->model;
    if (vertices > UINT32_MAX / 4 || triangles > UINT32_MAX / 4)
        return iqi_fail(ctx, IQ_ERROR_LIMIT, field, "too many vertices or triangles");
    uint64_t nv = vertices ? vertices : 1, nt = triangles ? triangles : 1;
    m->meshes = iqi_alloc(ctx, meshes ? meshes : 1, sizeof(iq_mesh), meshes_what);
    m->positions = iqi_alloc(ctx, nv, 12, "positions");
    m->normals = iqi_alloc(ctx, nv, 12, "normals");
    m->texcoords = iqi_alloc(ctx, nv, 8, "texture coordinates");
    m->blend_indices = iqi_alloc(ctx, nv, 8, "blend indices");
    m->blend_weights = iqi_alloc(ctx, nv, 16, "blend weights");
    m->indices = iqi_alloc(ctx, nt, 12, "triangles");
    return m->meshes && m->positions && m->normals && m->texcoords && m->blend_indices && m->blend_weights && m->indices;
}

void iqi_top_weights_add(iqi_top_weights *t, uint32_t bone, double weight) {
    for (int s = 0; s < 4; s++)
        if (weight > t->weight[s]) {
            for (int u = 3; u > s; u--) {
                t->weight[u] = t->weight[u - 1];
                t->bone[u] = t->bone[u - 1];
            }
            t->weight[s] = weight;
            t->bone[s] = bone;
            return;
        }
}

int iqi_top_weights_store(const iqi_top_weights *t, uint16_t indices[4], float weights[4]) {
    double sum = t->weight[0] + t->weight[1] + t->weight[2] + t->weight[3];
    if (!(sum > 0)) return 0;
    for (int k = 0; k < 4; k++) {
        indices[k] = (uint16_t)t->bone[k];
        weights[k] = (float)(t->weight[k] / sum);
    }
    return 1;
}

void iqi_unit_normal(const double n[3], float out[3]) {
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (len > 0 && isfinite(len))
        for (int k = 0; k < 3; k++) out[k] = (float)(n[k] / len);
    else
        out[0] = out[1] = 0, out[2] = 1;
}
