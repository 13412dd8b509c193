/* IQM writer, what it computes for the file (iq_iqm_write_internal.h):
 * adjacency the IQM way, every frame's bounds by skinning, the frames'
 * quantisation per joint and channel, and blend weights as bytes. */
#include "write/iq_iqm_write_internal.h"
#include "base/iq_math.h"
#include <math.h>
#include <stdlib.h>

/* -- Adjacency, as IQM defines it: edge k of a triangle runs from corner k to
 * corner k+1; its neighbour is the one other triangle with an edge between
 * the same two positions, when exactly two triangles have that edge. */
typedef struct edge_rec { uint64_t key; uint32_t corner; } edge_rec;
static int cmp_edge(const void *x, const void *y) {
    const edge_rec *a = x, *b = y;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return a->corner < b->corner ? -1 : a->corner > b->corner;
}

int iqi_iqmw_compute_adjacency(writer *w, uint32_t *adj) {
    const iq_model *m = w->m;
    uint32_t nv = m->vertex_count, nt = m->triangle_count;
    uint64_t table_size = iqi_hash_table_size(nv);
    uint32_t *table = iqi_iqmw_scratch(w, table_size, 4, "adjacency: position table");
    uint32_t *pid = iqi_iqmw_scratch(w, nv, 4, "adjacency: position ids");
    edge_rec *edges = iqi_iqmw_scratch(w, 3ull * nt, sizeof(edge_rec), "adjacency: edges");
    if (!table || !pid || !edges) return 0;
    iqi_position_ids(m->positions, nv, table, table_size, pid);
    uint32_t n = 0;
    for (uint32_t c = 0; c < 3 * nt; c++) {
        adj[c] = 0xFFFFFFFFu;
        uint32_t t = c / 3, a = pid[m->indices[c]], b = pid[m->indices[3 * t + (c % 3 + 1) % 3]];
        if (a == b) continue; /* a degenerate edge has no neighbour */
        uint64_t lo = a < b ? a : b, hi = a < b ? b : a;
        edges[n++] = (edge_rec){(lo << 32) | hi, c};
    }
    qsort(edges, n, sizeof *edges, cmp_edge);
    for (uint32_t i = 0; i < n;) {
        uint32_t j = i + 1;
        while (j < n && edges[j].key == edges[i].key) j++;
        if (j - i == 2 && edges[i].corner / 3 != edges[i + 1].corner / 3) {
            adj[edges[i].corner] = edges[i + 1].corner / 3;
            adj[edges[i + 1].corner] = edges[i].corner / 3;
        }
        i = j;
    }
    return 1;
}

/* -- Bounds of every frame, by skinning the bind-pose positions. Vertices
 * with the same joints and weights share one blended matrix per frame, so the
 * per-vertex work is one 3x4 transform whatever the number of influences. */
/* Per vertex: the index of the first vertex with its blend combination. */
static uint32_t *blend_combos(writer *w, uint32_t *combo_count, uint32_t **representative) {
    const iq_model *m = w->m;
    uint32_t nv = m->vertex_count, count = 0;
    uint64_t cap = iqi_hash_table_size(nv);
    uint32_t *table = iqi_iqmw_scratch(w, cap, 4, "bounds: combination table");
    uint32_t *of = iqi_iqmw_scratch(w, nv, 4, "bounds: combination per vertex");
    uint32_t *rep = iqi_iqmw_scratch(w, nv, 4, "bounds: combinations");
    if (!table || !of || !rep) return NULL;
    memset(table, 0xFF, (size_t)cap * 4); /* holds combo ids */
    for (uint32_t v = 0; v < nv; v++) {
        const uint16_t *idx = m->blend_indices + 4 * (size_t)v;
        const float *wt = m->blend_weights + 4 * (size_t)v;
        uint64_t h = iqi_hash_influences(idx, wt) & (cap - 1);
        for (;;) {
            uint32_t c = table[h];
            if (c == UINT32_MAX) { table[h] = count; rep[count] = v; of[v] = count++; break; }
            const uint32_t r = rep[c];
            if (!memcmp(m->blend_indices + 4 * (size_t)r, idx, 8) && !memcmp(m->blend_weights + 4 * (size_t)r, wt, 16)) { of[v] = c; break; }
            h = (h + 1) & (cap - 1);
        }
    }
    *combo_count = count;
    *representative = rep;
    return of;
}

int iqi_iqmw_compute_bounds(writer *w, float *out) {
    const iq_model *m = w->m;
    uint32_t nj = m->joint_count, nv = m->vertex_count, ncombo = 0;
    int skinned = m->blend_indices && m->blend_weights && nj;
    uint32_t *combo = NULL, *rep = NULL;
    if (skinned && !(combo = blend_combos(w, &ncombo, &rep))) return 0;
    float *world = iqi_iqmw_scratch(w, nj, 12 * sizeof(float), "bounds: world matrices");
    float *skin = iqi_iqmw_scratch(w, nj, 12 * sizeof(float), "bounds: skin matrices");
    double *blended = iqi_iqmw_scratch(w, ncombo, 12 * sizeof(double), "bounds: blended matrices");
    if (!world || !skin || !blended) return 0;
    for (uint32_t f = 0; f < m->frame_count; f++) {
        const iq_transform *locals = m->frame_poses ? m->frame_poses + (size_t)f * nj : NULL;
        for (uint32_t j = 0; j < nj; j++) {
            float local[12];
            iqi_mat_from_transform(local, locals ? &locals[j] : &m->joints[j].bind);
            if (m->joints[j].parent >= 0) iqi_mat_mul(world + 12 * j, world + 12 * m->joints[j].parent, local);
            else memcpy(world + 12 * j, local, sizeof local);
            iqi_mat_mul(skin + 12 * j, world + 12 * j, m->inverse_bind + 12 * j);
        }
        for (uint32_t c = 0; c < ncombo; c++) {
            double *b = blended + 12 * (size_t)c;
            const uint16_t *idx = m->blend_indices + 4 * (size_t)rep[c];
            const float *wt = m->blend_weights + 4 * (size_t)rep[c];
            for (int e = 0; e < 12; e++) b[e] = 0;
            for (int k = 0; k < 4; k++) {
                if (wt[k] == 0) continue;
                const float *sk = skin + 12 * (size_t)idx[k];
                for (int e = 0; e < 12; e++) b[e] += (double)wt[k] * sk[e];
            }
        }
        double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, xy = 0, r = 0;
        for (uint32_t v = 0; v < nv; v++) {
            const float *p = m->positions + 3 * (size_t)v;
            double q[3] = {p[0], p[1], p[2]};
            if (skinned) {
                const double *b = blended + 12 * (size_t)combo[v];
                for (int row = 0; row < 3; row++) q[row] = b[4 * row] * p[0] + b[4 * row + 1] * p[1] + b[4 * row + 2] * p[2] + b[4 * row + 3];
            }
            for (int k = 0; k < 3; k++) {
                if (v == 0 || q[k] < lo[k]) lo[k] = q[k];
                if (v == 0 || q[k] > hi[k]) hi[k] = q[k];
            }
            double dxy = q[0] * q[0] + q[1] * q[1], d = dxy + q[2] * q[2]; /* squared; one sqrt per frame */
            if (dxy > xy) xy = dxy;
            if (d > r) r = d;
        }
        float *b = out + 8 * (size_t)f;
        for (int k = 0; k < 3; k++) { b[k] = (float)lo[k]; b[3 + k] = (float)hi[k]; }
        b[6] = (float)sqrt(xy);
        b[7] = (float)sqrt(r);
        for (int k = 0; k < 8; k++)
            if (!iqi_finite(b[k])) b[k] = 0; /* extreme poses can overflow; bounds are advisory */
    }
    return 1;
}

/* -- Frames, quantised per joint and channel (value = offset + u16 * scale) */

static float channel_value(const iq_transform *t, int k) {
    return k < 3 ? t->translate[k] : k < 7 ? t->rotate[k - 3] : t->scale[k - 7];
}

/* Every frame's rotations, each joint's flipped where needed to stay on the
 * previous frame's hemisphere: the same rotations, smaller channel ranges,
 * finer quantisation. */
float *iqi_iqmw_continuous_rotations(writer *w) {
    const iq_model *m = w->m;
    uint32_t nj = m->joint_count, nf = m->frame_count;
    float *q = iqi_iqmw_scratch(w, (uint64_t)nf * nj, 16, "frames: rotations");
    if (!q) return NULL;
    for (uint32_t f = 0; f < nf; f++)
        for (uint32_t j = 0; j < nj; j++) {
            float *o = q + 4 * ((size_t)f * nj + j);
            memcpy(o, m->frame_poses[(size_t)f * nj + j].rotate, 16);
            if (f > 0) {
                const float *prev = o - 4 * (size_t)nj;
                if (prev[0] * o[0] + prev[1] * o[1] + prev[2] * o[2] + prev[3] * o[3] < 0)
                    for (int k = 0; k < 4; k++) o[k] = -o[k];
            }
        }
    return q;
}

static float frame_channel(const iq_model *m, const float *rot, uint32_t f, uint32_t j, int k) {
    size_t i = (size_t)f * m->joint_count + j;
    if (k >= 3 && k < 7) return rot[4 * i + (size_t)(k - 3)];
    return channel_value(&m->frame_poses[i], k);
}

/* Per joint and channel: offset = the smallest value, scale = range / 65535,
 * present iff range > 1e-10 (IQM SDK, formats.md 6.5). */
uint64_t iqi_iqmw_plan_channels(const iq_model *m, const float *rot, channel_info *ch) {
    uint64_t channels = 0;
    for (uint32_t j = 0; j < m->joint_count; j++) {
        channel_info *c = &ch[j];
        memset(c, 0, sizeof *c);
        for (int k = 0; k < 10; k++) {
            float lo = frame_channel(m, rot, 0, j, k), hi = lo;
            for (uint32_t f = 1; f < m->frame_count; f++) {
                float v = frame_channel(m, rot, f, j, k);
                if (v < lo) lo = v;
                if (v > hi) hi = v;
            }
            c->offset[k] = lo;
            double range = (double)hi - (double)lo;
            if (range > 1e-10) {
                c->mask |= 1u << k;
                c->scale[k] = (float)(range / 65535.0);
                channels++;
            }
        }
    }
    return channels;
}

/* Frames outermost, then joints, then the present channels in order 0..9. */
void iqi_iqmw_write_frames(const iq_model *m, const float *rot, const channel_info *ch, uint8_t *dst) {
    for (uint32_t f = 0; f < m->frame_count; f++)
        for (uint32_t j = 0; j < m->joint_count; j++)
            for (int k = 0; k < 10; k++) {
                if (!(ch[j].mask & (1u << k))) continue;
                double q = floor(0.5 + ((double)frame_channel(m, rot, f, j, k) - ch[j].offset[k]) / ch[j].scale[k]);
                iqi_iqmw_put_u16(dst, (uint16_t)(q < 0 ? 0 : q > 65535 ? 65535 : q));
                dst += 2;
            }
}

/* Blend weights as ubyte x4 summing to exactly 255: round, then move the
 * difference one unit at a time onto the largest weights. */
void iqi_iqmw_quantise_weights(const float *w, uint8_t out[4]) {
    int total = 0, order[4] = {0, 1, 2, 3};
    for (int k = 0; k < 4; k++) {
        double v = floor(0.5 + (double)w[k] * 255.0);
        out[k] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
        total += out[k];
    }
    for (int a = 0; a < 4; a++) /* largest first */
        for (int b = a + 1; b < 4; b++)
            if (w[order[b]] > w[order[a]]) { int t = order[a]; order[a] = order[b]; order[b] = t; }
    for (int i = 0; total != 255 && i < 1020; i++) {
        int k = order[i % 4];
        if (total > 255 && out[k] > 0) { out[k]--; total--; }
        else if (total < 255 && out[k] < 255 && (w[k] > 0 || k == order[0])) { out[k]++; total++; }
    }
}
