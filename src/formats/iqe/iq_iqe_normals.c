/* IQE normal generation, the spec's "Smoothing" rules: corners at the same
 * position weld into one normal when their smoothgroup, vs index, smoothangle,
 * smoothuv and fs edge flags allow it; a vertex whose corners land in
 * different groups is split. Positions are hashed and each position's corners
 * sorted, so nothing is quadratic except pairwise tests under angle, uv or
 * edge rules, which have a work budget ('limit' past it). */
#include "formats/iqe/iq_iqe_internal.h"
#include <math.h>
#include <stdlib.h>

typedef struct smoother {
    iqe_parser *p;
    const float *pos;
    const uint32_t *tri;
    uint32_t tri_count, vertex_count;
    uint32_t *pid;     /* per vertex: id of its exact position */
    uint32_t *parent;  /* union-find over corners */
    double *face;      /* per triangle: unnormalised (area-weighted) face normal */
    iqi_grow keyed;        /* sort scratch */
    uint64_t pair_budget;
} smoother;

static uint32_t uf_find(uint32_t *parent, uint32_t x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static void uf_union(uint32_t *parent, uint32_t a, uint32_t b) {
    a = uf_find(parent, a);
    b = uf_find(parent, b);
    if (a != b) parent[a < b ? b : a] = a < b ? a : b;
}

/* Vertex -> id of its position (equal positions, equal ids), via a hash table. */
static int assign_position_ids(smoother *s, iqi_grow *tmp) {
    uint64_t size = iqi_hash_table_size(s->vertex_count);
    tmp->len = 0;
    uint32_t *table = iqi_grow_push(&s->p->tx, tmp, (size_t)size * sizeof(uint32_t), "normal generation");
    if (!table) return 0;
    iqi_position_ids(s->pos, s->vertex_count, table, size, s->pid);
    return 1;
}

/* The spec's tests for two corners at the same position: same smoothgroup
 * key, same `vs` index, face normals within both triangles' smoothangle,
 * equal texcoords when either triangle has smoothuv, and, when either
 * triangle has `fs` flags, an edge through this position that both
 * triangles share and both flag as smooth. */
static int corners_smooth(const smoother *s, uint32_t ca, uint32_t cb) {
    const iqe_parser *p = s->p;
    uint32_t ta = ca / 3, tb = cb / 3, ka = ca % 3, kb = cb % 3;
    uint32_t va = s->tri[ca], vb = s->tri[cb];
    const smooth_state *sa = IQI_GROW_AT(p->states, smooth_state, *IQI_GROW_AT(p->tri_state, uint32_t, ta));
    const smooth_state *sb = IQI_GROW_AT(p->states, smooth_state, *IQI_GROW_AT(p->tri_state, uint32_t, tb));
    if (sa->key != sb->key) return 0;
    if (p->attr[ATTR_VS].len && *IQI_GROW_AT(p->attr[ATTR_VS], int64_t, va) != *IQI_GROW_AT(p->attr[ATTR_VS], int64_t, vb)) return 0;
    double limit = sa->angle < sb->angle ? sa->angle : sb->angle;
    if (limit < 180) {
        const double *na = s->face + 3 * (size_t)ta, *nb = s->face + 3 * (size_t)tb;
        double la = sqrt(na[0] * na[0] + na[1] * na[1] + na[2] * na[2]);
        double lb = sqrt(nb[0] * nb[0] + nb[1] * nb[1] + nb[2] * nb[2]);
        if (!(la > 0) || !(lb > 0)) return 0;
        double cosine = (na[0] * nb[0] + na[1] * nb[1] + na[2] * nb[2]) / (la * lb);
        if (cosine < cos(limit * (3.14159265358979323846 / 180.0)) - 1e-6) return 0;
    }
    if ((sa->uv || sb->uv) && p->attr[ATTR_VT].len) {
        const float *ua = IQI_GROW_AT(p->attr[ATTR_VT], float, 2 * (size_t)va), *ub = IQI_GROW_AT(p->attr[ATTR_VT], float, 2 * (size_t)vb);
        if (ua[0] != ub[0] || ua[1] != ub[1]) return 0;
    }
    uint8_t ea = *IQI_GROW_AT(p->tri_edges, uint8_t, ta), eb = *IQI_GROW_AT(p->tri_edges, uint8_t, tb);
    if ((ea | eb) & 8) {
        if (ta == tb) return 0;
        /* The two edges at corner k: edge k (to corner k+1) and edge k+2 (from corner k+2). */
        uint32_t a1 = s->pid[s->tri[3 * ta + (ka + 1) % 3]], a2 = s->pid[s->tri[3 * ta + (ka + 2) % 3]];
        uint32_t b1 = s->pid[s->tri[3 * tb + (kb + 1) % 3]], b2 = s->pid[s->tri[3 * tb + (kb + 2) % 3]];
        int fa1 = (ea >> ka) & 1, fa2 = (ea >> ((ka + 2) % 3)) & 1;
        int fb1 = (eb >> kb) & 1, fb2 = (eb >> ((kb + 2) % 3)) & 1;
        if (!((a1 == b1 && fa1 && fb1) || (a1 == b2 && fa1 && fb2) || (a2 == b1 && fa2 && fb1) || (a2 == b2 && fa2 && fb2)))
            return 0;
    }
    return 1;
}

static int corner_is_simple(const smoother *s, uint32_t c) {
    const iqe_parser *p = s->p;
    const smooth_state *st = IQI_GROW_AT(p->states, smooth_state, *IQI_GROW_AT(p->tri_state, uint32_t, c / 3));
    return st->angle >= 180 && !(st->uv && p->attr[ATTR_VT].len) && !(*IQI_GROW_AT(p->tri_edges, uint8_t, c / 3) & 8);
}

/* Sort records with their keys inside, so qsort needs no shared state. */
typedef struct keyed_corner { int64_t a, b; uint32_t corner; } keyed_corner;
static int cmp_keyed(const void *x, const void *y) {
    const keyed_corner *p = x, *q = y;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    if (p->b != q->b) return p->b < q->b ? -1 : 1;
    return p->corner < q->corner ? -1 : p->corner > q->corner;
}

/* Sorts corners by (a, b, corner) through the smoother's scratch. */
static int sort_corners(smoother *s, uint32_t *corners, uint32_t count, int by_root, const uint32_t *root) {
    const iqe_parser *p = s->p;
    s->keyed.len = 0;
    keyed_corner *k = iqi_grow_push(&s->p->tx, &s->keyed, (size_t)count * sizeof *k, "normal generation");
    if (!k) return 0;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t c = corners[i];
        if (by_root) k[i] = (keyed_corner){root[c], 0, c};
        else k[i] = (keyed_corner){IQI_GROW_AT(p->states, smooth_state, *IQI_GROW_AT(p->tri_state, uint32_t, c / 3))->key,
                                   p->attr[ATTR_VS].len ? *IQI_GROW_AT(p->attr[ATTR_VS], int64_t, s->tri[c]) : 0, c};
    }
    qsort(k, count, sizeof *k, cmp_keyed);
    for (uint32_t i = 0; i < count; i++) corners[i] = k[i].corner;
    return 1;
}

static int same_keys(const smoother *s, uint32_t a, uint32_t b) {
    const iqe_parser *p = s->p;
    if (IQI_GROW_AT(p->states, smooth_state, *IQI_GROW_AT(p->tri_state, uint32_t, a / 3))->key !=
        IQI_GROW_AT(p->states, smooth_state, *IQI_GROW_AT(p->tri_state, uint32_t, b / 3))->key)
        return 0;
    return !p->attr[ATTR_VS].len || *IQI_GROW_AT(p->attr[ATTR_VS], int64_t, s->tri[a]) == *IQI_GROW_AT(p->attr[ATTR_VS], int64_t, s->tri[b]);
}

/* Welds the corners of one position: runs of equal (key, vs) are the only
 * candidates; simple runs weld in one sweep, the rest pairwise within a budget. */
static int weld_bucket(smoother *s, uint32_t *corners, uint32_t count) {
    if (!sort_corners(s, corners, count, 0, NULL)) return 0;
    for (uint32_t start = 0; start < count;) {
        uint32_t end = start + 1;
        while (end < count && same_keys(s, corners[start], corners[end])) end++;
        int simple = 1;
        for (uint32_t i = start; i < end && simple; i++) simple = corner_is_simple(s, corners[i]);
        if (simple) {
            for (uint32_t i = start + 1; i < end; i++) uf_union(s->parent, corners[start], corners[i]);
        } else {
            uint64_t k = end - start, pairs = k * (k - 1) / 2;
            if (pairs > s->pair_budget) {
                const float *v = s->pos + 3 * (size_t)s->tri[corners[start]];
                return iqi_fail(s->p->ctx, IQ_ERROR_LIMIT, -1,
                                "normal generation: %llu triangle corners share the position (%g, %g, %g) under angle, uv or "
                                "edge smoothing; comparing them pairwise is over the work limit",
                                (unsigned long long)k, v[0], v[1], v[2]);
            }
            s->pair_budget -= pairs;
            for (uint32_t i = start; i < end; i++)
                for (uint32_t j = i + 1; j < end; j++)
                    if (uf_find(s->parent, corners[i]) != uf_find(s->parent, corners[j]) && corners_smooth(s, corners[i], corners[j]))
                        uf_union(s->parent, corners[i], corners[j]);
        }
        start = end;
    }
    return 1;
}

/* Sorts one vertex's corners by group root: insertion sort for the usual
 * handful, qsort for the rare vertex shared by many triangles. */
static int sort_by_root(smoother *s, uint32_t *c, uint32_t n, const uint32_t *root) {
    if (n > 16) return sort_corners(s, c, n, 1, root);
    for (uint32_t i = 1; i < n; i++) {
        uint32_t x = c[i], j = i;
        while (j > 0 && (root[c[j - 1]] > root[x] || (root[c[j - 1]] == root[x] && c[j - 1] > x))) { c[j] = c[j - 1]; j--; }
        c[j] = x;
    }
    return 1;
}

/* Output vertices after normal generation. */
int iqi_iqe_generate_normals(iqe_parser *p, vertex_map *map) {
    iqi_ctx *ctx = p->ctx;
    uint32_t nv = iqi_iqe_vertex_count(p), nt = IQI_GROW_COUNT(p->triangles, uint32_t) / 3, nc = 3 * nt;
    iqi_grow g_pid = {0}, g_parent = {0}, g_face = {0}, g_tmp = {0}, g_bucket = {0}, g_keys = {0}, g_sum = {0};
    smoother s = {.p = p, .pos = (const float *)p->attr[ATTR_VP].data, .tri = (const uint32_t *)p->triangles.data,
                  .tri_count = nt, .vertex_count = nv, .pair_budget = (uint64_t)64 * nc + (1u << 24)};
    iqi_grow *scratch[] = {&s.keyed, &g_pid, &g_parent, &g_face, &g_tmp, &g_bucket, &g_keys, &g_sum};
    int ok = 0;
    if (!(s.pid = iqi_grow_push(&p->tx, &g_pid, (size_t)nv * 4 + 4, "normal generation"))) goto done;
    if (!(s.parent = iqi_grow_push(&p->tx, &g_parent, (size_t)nc * 4 + 4, "normal generation"))) goto done;
    if (!(s.face = iqi_grow_push(&p->tx, &g_face, (size_t)nt * 24 + 8, "normal generation"))) goto done;
    if (!assign_position_ids(&s, &g_tmp)) goto done;
    for (uint32_t t = 0; t < nt; t++) {
        /* clockwise front faces: n = (v2 - v0) x (v1 - v0), length = twice the area */
        const float *a = s.pos + 3 * (size_t)s.tri[3 * t], *b = s.pos + 3 * (size_t)s.tri[3 * t + 1], *c = s.pos + 3 * (size_t)s.tri[3 * t + 2];
        double e1[3] = {(double)c[0] - a[0], (double)c[1] - a[1], (double)c[2] - a[2]};
        double e2[3] = {(double)b[0] - a[0], (double)b[1] - a[1], (double)b[2] - a[2]};
        s.face[3 * t] = e1[1] * e2[2] - e1[2] * e2[1];
        s.face[3 * t + 1] = e1[2] * e2[0] - e1[0] * e2[2];
        s.face[3 * t + 2] = e1[0] * e2[1] - e1[1] * e2[0];
    }
    for (uint32_t c = 0; c < nc; c++) s.parent[c] = c;
    /* Bucket corners by position id (counting sort), then weld each bucket. */
    {
        g_tmp.len = 0;
        uint32_t *start = iqi_grow_push(&p->tx, &g_tmp, ((size_t)nv + 1) * 4, "normal generation");
        uint32_t *order = iqi_grow_push(&p->tx, &g_bucket, (size_t)nc * 4 + 4, "normal generation");
        if (!start || !order) goto done;
        for (uint32_t c = 0; c < nc; c++) start[s.pid[s.tri[c]] + 1]++;
        for (uint32_t v = 0; v < nv; v++) start[v + 1] += start[v];
        uint32_t *fill = iqi_grow_push(&p->tx, &g_keys, ((size_t)nv + 1) * 4, "normal generation");
        if (!fill) goto done;
        start = (uint32_t *)g_tmp.data; /* g_tmp did not move, but be explicit */
        memcpy(fill, start, (size_t)nv * 4);
        for (uint32_t c = 0; c < nc; c++) order[fill[s.pid[s.tri[c]]]++] = c;
        for (uint32_t v = 0; v < nv; v++)
            if (start[v + 1] - start[v] > 1 && !weld_bucket(&s, order + start[v], start[v + 1] - start[v])) goto done;
    }
    /* Group normals: the sum of the area-weighted face normals of the group's corners. */
    double *sum = iqi_grow_push(&p->tx, &g_sum, (size_t)nc * 24 + 8, "normal generation");
    if (!sum) goto done;
    for (uint32_t c = 0; c < nc; c++) {
        uint32_t r = uf_find(s.parent, c);
        for (int k = 0; k < 3; k++) sum[3 * (size_t)r + k] += s.face[3 * (size_t)(c / 3) + k];
    }
    /* Split vertices whose corners landed in different groups: corners by
     * vertex (counting sort), each vertex's corners by group. */
    uint32_t *root = s.parent; /* flattened: parent[c] becomes c's root */
    for (uint32_t c = 0; c < nc; c++) root[c] = uf_find(s.parent, c);
    g_tmp.len = 0;
    g_bucket.len = 0;
    uint32_t *first = iqi_grow_push(&p->tx, &g_tmp, ((size_t)nv + 1) * 4, "normal generation");
    uint32_t *by_vertex = iqi_grow_push(&p->tx, &g_bucket, (size_t)nc * 4 + 4, "normal generation");
    if (!first || !by_vertex) goto done;
    for (uint32_t c = 0; c < nc; c++) first[s.tri[c] + 1]++;
    for (uint32_t v = 0; v < nv; v++) first[v + 1] += first[v];
    g_keys.len = 0;
    uint32_t *fill = iqi_grow_push(&p->tx, &g_keys, (size_t)nv * 4 + 4, "normal generation");
    if (!fill) goto done;
    memcpy(fill, first, (size_t)nv * 4);
    for (uint32_t c = 0; c < nc; c++) by_vertex[fill[s.tri[c]]++] = c;
    uint64_t out = 0;
    for (uint32_t v = 0; v < nv; v++) {
        uint32_t *list = by_vertex + first[v], n = first[v + 1] - first[v];
        if (!sort_by_root(&s, list, n, root)) goto done;
        out += 1; /* at least one output vertex, even when unused */
        for (uint32_t i = 1; i < n; i++) out += root[list[i]] != root[list[i - 1]];
    }
    if (out > UINT32_MAX - 1) { iqi_fail(ctx, IQ_ERROR_LIMIT, -1, "normal generation: too many vertices"); goto done; }
    map->count = (uint32_t)out;
    map->source = iqi_alloc(ctx, out, 4, "vertex map");
    map->normals = iqi_alloc(ctx, out, 12, "normals");
    map->first = iqi_alloc(ctx, (uint64_t)nv + 1, 4, "vertex map");
    if (!map->source || !map->normals || !map->first) goto done;
    {
        uint32_t o = 0;
        uint32_t *tri = (uint32_t *)p->triangles.data;
        for (uint32_t v = 0; v < nv; v++) {
            uint32_t *list = by_vertex + first[v], n = first[v + 1] - first[v];
            map->first[v] = o;
            if (!n) { map->source[o++] = v; continue; } /* unused by any face: kept, with a zero normal */
            for (uint32_t i = 0; i < n; i++) {
                if (i > 0 && root[list[i]] == root[list[i - 1]]) { tri[list[i]] = o - 1; continue; }
                const double *nrm = sum + 3 * (size_t)root[list[i]];
                double len = sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
                for (int j = 0; j < 3; j++) map->normals[3 * (size_t)o + j] = len > 0 && isfinite(len) ? (float)(nrm[j] / len) : 0.0f;
                map->source[o] = v;
                tri[list[i]] = o++;
            }
        }
        map->first[nv] = o;
    }
    ok = 1;
done:
    for (size_t i = 0; i < sizeof scratch / sizeof scratch[0]; i++) iqi_grow_release(&p->tx, scratch[i]);
    return ok;
}
