/* IQM v2 writer: any loaded model (IQM, IQE, or a static MD3) to IQM bytes.
 *
 * Layout (the SDK's order): header, text, meshes, vertex array headers,
 * vertex data (8-aligned), triangles, adjacency, joints, poses, anims, frames,
 * bounds, comment, extensions. Vertex data: float position/texcoord/normal/
 * tangent/color, blend indices as ubyte x4 (ushort x4 when a joint index is
 * over 255), blend weights as ubyte x4 summing to 255, custom arrays as
 * stored. Frames are quantised per joint and channel:
 * value = offset + u16 * scale, a channel present iff its range > 1e-10, so
 * each decoded channel is within range / 131070 (plus float rounding) of the
 * model's value. Adjacency is kept, or computed the IQM way when the model
 * has none. Bounds are computed for every frame by skinning. Working memory
 * comes from an arena with the model's budget, freed in one go; the bytes
 * themselves are one malloc block for iq_free_bytes. */
#include "iq_iqm_format.h"
#include "iq_math.h"
#include <math.h>
#include <stdlib.h>

typedef struct out_array { uint32_t type, format, size, offset; const void *data; int kind; } out_array;
enum { KIND_FLOATS, KIND_BLEND_INDICES, KIND_BLEND_WEIGHTS, KIND_RAW };

typedef struct writer {
    const iq_model *m;
    iqi_ctx ctx;   /* the error and the scratch arena (no model: the writer never warns) */
    char *text;
} writer;

/* Zeroed working memory from the writer's arena, or NULL with 'limit' or 'out_of_memory'. */
static void *scratch(writer *w, uint64_t count, uint64_t size, const char *what) {
    return iqi_alloc(&w->ctx, count, size, what);
}

static void put_u32(uint8_t *p, uint32_t v) { for (int k = 0; k < 4; k++) p[k] = (uint8_t)(v >> (8 * k)); }
static void put_u16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put_f32(uint8_t *p, float f) { uint32_t u; memcpy(&u, &f, 4); put_u32(p, u); }
static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

/* -- Text table: "" at 0, then every name in order of use (duplicates kept simple: shared when equal to the last). */
static uint64_t text_measure(const char *s) { return s && *s ? strlen(s) + 1 : 0; }
static uint32_t text_add(writer *w, uint64_t *at, const char *s) {
    if (!s || !*s) return 0;
    size_t n = strlen(s) + 1;
    uint32_t ofs = (uint32_t)*at;
    memcpy(w->text + *at, s, n);
    *at += n;
    return ofs;
}

/* -- Adjacency, as IQM defines it: edge k of a triangle runs from corner k to
 * corner k+1; its neighbour is the one other triangle with an edge between
 * the same two positions, when exactly two triangles have that edge. */
typedef struct edge_rec { uint64_t key; uint32_t corner; } edge_rec;
static int cmp_edge(const void *x, const void *y) {
    const edge_rec *a = x, *b = y;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return a->corner < b->corner ? -1 : a->corner > b->corner;
}

static int compute_adjacency(writer *w, uint32_t *adj) {
    const iq_model *m = w->m;
    uint32_t nv = m->vertex_count, nt = m->triangle_count;
    uint64_t table_size = iqi_hash_table_size(nv);
    uint32_t *table = scratch(w, table_size, 4, "adjacency: position table");
    uint32_t *pid = scratch(w, nv, 4, "adjacency: position ids");
    edge_rec *edges = scratch(w, 3ull * nt, sizeof(edge_rec), "adjacency: edges");
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
    uint32_t *table = scratch(w, cap, 4, "bounds: combination table");
    uint32_t *of = scratch(w, nv, 4, "bounds: combination per vertex");
    uint32_t *rep = scratch(w, nv, 4, "bounds: combinations");
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

static int compute_bounds(writer *w, float *out) {
    const iq_model *m = w->m;
    uint32_t nj = m->joint_count, nv = m->vertex_count, ncombo = 0;
    int skinned = m->blend_indices && m->blend_weights && nj;
    uint32_t *combo = NULL, *rep = NULL;
    if (skinned && !(combo = blend_combos(w, &ncombo, &rep))) return 0;
    float *world = scratch(w, nj, 12 * sizeof(float), "bounds: world matrices");
    float *skin = scratch(w, nj, 12 * sizeof(float), "bounds: skin matrices");
    double *blended = scratch(w, ncombo, 12 * sizeof(double), "bounds: blended matrices");
    if (!world || !skin || !blended) return 0;
    for (uint32_t f = 0; f < m->frame_count; f++) {
        const iq_transform *locals = m->frame_poses ? m->frame_poses + (size_t)f * nj : NULL;
        for (uint32_t j = 0; j < nj; j++) {
            float local[12];
            iqm_mat_from_transform(local, locals ? &locals[j] : &m->joints[j].bind);
            if (m->joints[j].parent >= 0) iqm_mat_mul(world + 12 * j, world + 12 * m->joints[j].parent, local);
            else memcpy(world + 12 * j, local, sizeof local);
            iqm_mat_mul(skin + 12 * j, world + 12 * j, m->inverse_bind + 12 * j);
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

/* -- Poses and frames */
typedef struct channel_info { float offset[10], scale[10]; uint32_t mask; } channel_info;

static float channel_value(const iq_transform *t, int k) {
    return k < 3 ? t->translate[k] : k < 7 ? t->rotate[k - 3] : t->scale[k - 7];
}

/* Every frame's rotations, each joint's flipped where needed to stay on the
 * previous frame's hemisphere: the same rotations, smaller channel ranges,
 * finer quantisation. */
static float *continuous_rotations(writer *w) {
    const iq_model *m = w->m;
    uint32_t nj = m->joint_count, nf = m->frame_count;
    float *q = scratch(w, (uint64_t)nf * nj, 16, "frames: rotations");
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
static uint64_t plan_channels(const iq_model *m, const float *rot, channel_info *ch) {
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
static void write_frames(const iq_model *m, const float *rot, const channel_info *ch, uint8_t *dst) {
    for (uint32_t f = 0; f < m->frame_count; f++)
        for (uint32_t j = 0; j < m->joint_count; j++)
            for (int k = 0; k < 10; k++) {
                if (!(ch[j].mask & (1u << k))) continue;
                double q = floor(0.5 + ((double)frame_channel(m, rot, f, j, k) - ch[j].offset[k]) / ch[j].scale[k]);
                put_u16(dst, (uint16_t)(q < 0 ? 0 : q > 65535 ? 65535 : q));
                dst += 2;
            }
}

/* Blend weights as ubyte x4 summing to exactly 255: round, then move the
 * difference one unit at a time onto the largest weights. */
static void quantise_weights(const float *w, uint8_t out[4]) {
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

static const float *array_source(const iq_model *m, int type) {
    switch (type) {
    case IQM_POSITION: return m->positions;
    case IQM_TEXCOORD: return m->texcoords;
    case IQM_NORMAL: return m->normals;
    case IQM_TANGENT: return m->tangents;
    default: return m->colors;
    }
}

/* The first morph frame whose positions or normals differ from frame 0's, or
 * 0 when every frame is the same (MD3 decodes int16 values, so equal file
 * values give equal floats and an exact comparison is the right one). */
static uint32_t first_differing_frame(const iq_model *m) {
    size_t n = (size_t)m->vertex_count * 3;
    for (uint32_t f = 1; f < m->frame_count; f++) {
        if (memcmp(m->frame_positions + f * n, m->frame_positions, n * sizeof(float))) return f;
        if (m->frame_normals && memcmp(m->frame_normals + f * n, m->frame_normals, n * sizeof(float))) return f;
    }
    return 0;
}

/* The bytes (malloc'd) and their size, or NULL with w's error set. */
static uint8_t *write_iqm(writer *w, size_t *size_out) {
    const iq_model *m = w->m;
    uint32_t nv = m->vertex_count, nt = m->triangle_count, nj = m->joint_count, nf = m->frame_count;
    uint32_t animation_count = m->animation_count;
    /* IQM animates skeletons only: frames without joint poses (MD3 morph
     * frames) would be written as frames that hold nothing. A morph model
     * whose frames all equal frame 0 (one frame, or a static prop exported
     * with several) loses nothing: it is written static, from frame 0 (which
     * positions/normals hold), with no frames and no animations. */
    if (nf && !(nj && m->frame_poses)) {
        uint32_t differs = m->frame_positions ? first_differing_frame(m) : 1;
        if (differs) {
            iqi_fail(&w->ctx, IQ_ERROR_UNSUPPORTED, -1,
                 "the model's %u frames are vertex (morph) animation (frame %u differs from frame 0); IQM stores skeletal animation only",
                 nf, differs);
            return NULL;
        }
        nf = 0;
        animation_count = 0;
    }

    // Text
    uint64_t text_size = 1;
    for (uint32_t i = 0; i < m->mesh_count; i++) text_size += text_measure(m->meshes[i].name) + text_measure(m->meshes[i].material);
    for (uint32_t i = 0; i < nj; i++) text_size += text_measure(m->joints[i].name);
    for (uint32_t i = 0; i < animation_count; i++) text_size += text_measure(m->animations[i].name);
    for (uint32_t i = 0; i < m->custom_array_count; i++) text_size += strlen(m->custom_arrays[i].name) + 1;
    for (uint32_t i = 0; i < m->extension_count; i++) text_size += text_measure(m->extensions[i].name);

    // Vertex arrays
    out_array arrays[7 + 64];
    uint32_t na = 0;
    if (nv) {
        static const struct { int type, size; } standard[] = {{IQM_POSITION, 3}, {IQM_TEXCOORD, 2}, {IQM_NORMAL, 3}, {IQM_TANGENT, 4}};
        for (size_t i = 0; i < 4; i++)
            if (array_source(m, standard[i].type))
                arrays[na++] = (out_array){(uint32_t)standard[i].type, IQ_FLOAT, (uint32_t)standard[i].size, 0, array_source(m, standard[i].type), KIND_FLOATS};
        if (m->blend_indices && m->blend_weights && nj) {
            int wide = 0;
            for (uint64_t i = 0; i < (uint64_t)nv * 4 && !wide; i++) wide = m->blend_indices[i] > 255;
            arrays[na++] = (out_array){IQM_BLENDINDEXES, wide ? IQ_USHORT : IQ_UBYTE, 4, 0, m->blend_indices, KIND_BLEND_INDICES};
            arrays[na++] = (out_array){IQM_BLENDWEIGHTS, IQ_UBYTE, 4, 0, m->blend_weights, KIND_BLEND_WEIGHTS};
        }
        if (m->colors) arrays[na++] = (out_array){IQM_COLOR, IQ_FLOAT, 4, 0, m->colors, KIND_FLOATS};
        for (uint32_t i = 0; i < m->custom_array_count && na < sizeof arrays / sizeof arrays[0]; i++) {
            const iq_custom_array *c = &m->custom_arrays[i];
            arrays[na++] = (out_array){IQM_CUSTOM, (uint32_t)c->format, c->size, 0, c->data, KIND_RAW};
        }
        if (m->custom_array_count > 64) { iqi_fail(&w->ctx, IQ_ERROR_LIMIT, -1, "more than 64 custom arrays"); return NULL; }
    }

    // Layout
    uint64_t at = IQM_HEADER_SIZE, ofs_text = at;
    at = align_up(at + text_size, 4);
    uint64_t ofs_meshes = m->mesh_count ? at : 0;
    at += (uint64_t)IQM_MESH_SIZE * m->mesh_count;
    uint64_t ofs_vertexarrays = na ? at : 0;
    at += (uint64_t)IQM_VERTEXARRAY_SIZE * na;
    at = align_up(at, 8);
    for (uint32_t i = 0; i < na; i++) {
        at = align_up(at, 8);
        arrays[i].offset = (uint32_t)(at > UINT32_MAX ? 0 : at);
        at += (uint64_t)nv * arrays[i].size * iqi_component_size[arrays[i].format];
    }
    at = align_up(at, 4);
    uint64_t ofs_triangles = nt ? at : 0;
    at += (uint64_t)IQM_TRIANGLE_SIZE * nt;
    uint64_t ofs_adjacency = nt ? at : 0;
    at += (uint64_t)IQM_TRIANGLE_SIZE * nt;
    uint64_t ofs_joints = nj ? at : 0;
    at += (uint64_t)IQM_JOINT_SIZE * nj;
    uint32_t num_poses = nf && nj && m->frame_poses ? nj : 0;
    uint64_t ofs_poses = num_poses ? at : 0;
    at += (uint64_t)IQM_POSE_SIZE * num_poses;
    uint64_t ofs_anims = animation_count ? at : 0;
    at += (uint64_t)IQM_ANIM_SIZE * animation_count;

    channel_info *ch = NULL;
    float *rot = NULL;
    uint64_t channels = 0;
    if (num_poses) {
        ch = scratch(w, nj, sizeof *ch, "frames: channels");
        rot = ch ? continuous_rotations(w) : NULL;
        if (!rot) return NULL;
        channels = plan_channels(m, rot, ch);
    }
    uint64_t frame_values = channels * nf;
    uint64_t ofs_frames = frame_values ? at : 0;
    at += align_up(frame_values, 2) * 2;
    uint64_t ofs_bounds = nf && nv ? at : 0;
    at += nf && nv ? (uint64_t)IQM_BOUNDS_SIZE * nf : 0;
    uint64_t ofs_comment = m->comment_size ? at : 0;
    at += m->comment_size;
    at = align_up(at, 4);
    uint64_t ofs_extensions = m->extension_count ? at : 0;
    at += (uint64_t)IQM_EXTENSION_SIZE * m->extension_count;
    uint64_t *ext_data = scratch(w, m->extension_count, sizeof *ext_data, "extensions");
    if (!ext_data) return NULL;
    for (uint32_t i = 0; i < m->extension_count; i++) {
        ext_data[i] = m->extensions[i].size ? at : 0;
        at += m->extensions[i].size;
    }
    if (at > UINT32_MAX || channels > UINT32_MAX) {
        iqi_fail(&w->ctx, IQ_ERROR_LIMIT, -1, "the IQM file would be over 4 GiB");
        return NULL;
    }
    /* Computed before the output exists, so a failure frees only the arena. */
    uint32_t *adj = nt && !m->adjacency ? scratch(w, nt, 3 * sizeof(uint32_t), "adjacency") : NULL;
    if (nt && !m->adjacency && (!adj || !compute_adjacency(w, adj))) return NULL;
    float *bounds = ofs_bounds ? scratch(w, nf, 8 * sizeof(float), "bounds") : NULL;
    if (ofs_bounds && (!bounds || !compute_bounds(w, bounds))) return NULL;
    uint8_t *b = iqi_calloc(1, (size_t)at);
    if (!b) { iqi_fail(&w->ctx, IQ_ERROR_OUT_OF_MEMORY, -1, "out of memory for the IQM bytes"); return NULL; }
    w->text = (char *)b + ofs_text;

    // Text and meshes
    uint64_t tpos = 1;
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        const iq_mesh *mesh = &m->meshes[i];
        uint8_t *r = b + ofs_meshes + 24ull * i;
        put_u32(r, text_add(w, &tpos, mesh->name));
        put_u32(r + 4, text_add(w, &tpos, mesh->material));
        put_u32(r + 8, mesh->first_vertex);
        put_u32(r + 12, mesh->vertex_count);
        put_u32(r + 16, mesh->first_triangle);
        put_u32(r + 20, mesh->triangle_count);
    }

    // Vertex arrays
    uint32_t custom_index = 0;
    for (uint32_t i = 0; i < na; i++) {
        out_array *a = &arrays[i];
        uint8_t *r = b + ofs_vertexarrays + 20ull * i, *d = b + a->offset;
        uint32_t type = a->type;
        if (a->kind == KIND_RAW) { /* a custom array: named in the text table */
            const char *name = m->custom_arrays[custom_index++].name;
            size_t n = strlen(name) + 1;
            memcpy(w->text + tpos, name, n);
            type = IQM_CUSTOM + (uint32_t)tpos;
            tpos += n;
        }
        put_u32(r, type);
        put_u32(r + 4, 0);
        put_u32(r + 8, a->format);
        put_u32(r + 12, a->size);
        put_u32(r + 16, a->offset);
        if (a->kind == KIND_FLOATS) {
            const float *src = a->data;
            for (uint64_t k = 0; k < (uint64_t)nv * a->size; k++) put_f32(d + 4 * k, src[k]);
        } else if (a->kind == KIND_BLEND_INDICES) {
            const uint16_t *src = a->data;
            for (uint64_t k = 0; k < (uint64_t)nv * 4; k++) {
                if (a->format == IQ_UBYTE) d[k] = (uint8_t)src[k];
                else put_u16(d + 2 * k, src[k]);
            }
        } else if (a->kind == KIND_BLEND_WEIGHTS) {
            for (uint32_t v = 0; v < nv; v++) quantise_weights(m->blend_weights + 4 * (size_t)v, d + 4 * (size_t)v);
        } else {
            memcpy(d, a->data, (size_t)nv * a->size * iqi_component_size[a->format]);
        }
    }

    // Triangles and adjacency
    for (uint64_t k = 0; k < 3ull * nt; k++) put_u32(b + ofs_triangles + 4 * k, m->indices[k]);
    if (nt) {
        const uint32_t *src = m->adjacency ? m->adjacency : adj;
        for (uint64_t k = 0; k < 3ull * nt; k++) put_u32(b + ofs_adjacency + 4 * k, src[k]);
    }

    // Joints, poses, anims, frames
    for (uint32_t j = 0; j < nj; j++) {
        const iq_joint *jt = &m->joints[j];
        uint8_t *r = b + ofs_joints + 48ull * j;
        put_u32(r, text_add(w, &tpos, jt->name));
        put_u32(r + 4, (uint32_t)jt->parent);
        for (int k = 0; k < 3; k++) put_f32(r + 8 + 4 * k, jt->bind.translate[k]);
        for (int k = 0; k < 4; k++) put_f32(r + 20 + 4 * k, jt->bind.rotate[k]);
        for (int k = 0; k < 3; k++) put_f32(r + 36 + 4 * k, jt->bind.scale[k]);
    }
    for (uint32_t j = 0; j < num_poses; j++) {
        uint8_t *r = b + ofs_poses + 88ull * j;
        put_u32(r, (uint32_t)m->joints[j].parent);
        put_u32(r + 4, ch[j].mask);
        for (int k = 0; k < 10; k++) {
            put_f32(r + 8 + 4 * k, ch[j].offset[k]);
            put_f32(r + 48 + 4 * k, ch[j].scale[k]);
        }
    }
    for (uint32_t i = 0; i < animation_count; i++) {
        const iq_animation *an = &m->animations[i];
        uint8_t *r = b + ofs_anims + 20ull * i;
        put_u32(r, text_add(w, &tpos, an->name));
        put_u32(r + 4, an->first_frame);
        put_u32(r + 8, an->frame_count);
        put_f32(r + 12, an->framerate);
        put_u32(r + 16, an->flags);
    }
    if (frame_values) write_frames(m, rot, ch, b + ofs_frames);

    // Bounds, comment, extensions
    if (ofs_bounds)
        for (uint64_t k = 0; k < 8ull * nf; k++) put_f32(b + ofs_bounds + 4 * k, bounds[k]);
    if (m->comment_size) memcpy(b + ofs_comment, m->comment, m->comment_size);
    for (uint32_t i = 0; i < m->extension_count; i++) {
        const iq_extension *e = &m->extensions[i];
        uint8_t *r = b + ofs_extensions + 16ull * i;
        put_u32(r, text_add(w, &tpos, e->name));
        put_u32(r + 4, e->size);
        put_u32(r + 8, (uint32_t)ext_data[i]);
        put_u32(r + 12, i + 1 < m->extension_count ? (uint32_t)(ofs_extensions + 16ull * (i + 1)) : 0);
        if (e->size) memcpy(b + ext_data[i], e->data, e->size);
    }

    // Header
    iqm_header h = {
        .version = IQM_VERSION, .filesize = (uint32_t)at,
        .num_text = (uint32_t)text_size, .ofs_text = (uint32_t)ofs_text,
        .num_meshes = m->mesh_count, .ofs_meshes = (uint32_t)ofs_meshes,
        .num_vertexarrays = na, .num_vertexes = nv, .ofs_vertexarrays = (uint32_t)ofs_vertexarrays,
        .num_triangles = nt, .ofs_triangles = (uint32_t)ofs_triangles, .ofs_adjacency = (uint32_t)ofs_adjacency,
        .num_joints = nj, .ofs_joints = (uint32_t)ofs_joints,
        .num_poses = num_poses, .ofs_poses = (uint32_t)ofs_poses,
        .num_anims = animation_count, .ofs_anims = (uint32_t)ofs_anims,
        .num_frames = nf, .num_framechannels = (uint32_t)channels, .ofs_frames = (uint32_t)ofs_frames,
        .ofs_bounds = (uint32_t)ofs_bounds,
        .num_comment = m->comment_size, .ofs_comment = (uint32_t)ofs_comment,
        .num_extensions = m->extension_count, .ofs_extensions = (uint32_t)ofs_extensions,
    };
    iqi_iqm_header_write(b, &h);
    *size_out = (size_t)at;
    return b;
}

uint8_t *iq_write_iqm(const iq_model *m, size_t *size_out, iq_error *error) {
    iq_error local;
    error = iqi_error_reset(error, &local);
    if (size_out) *size_out = 0;
    if (!m || !size_out) {
        iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT, "iq_write_iqm needs a model and a size pointer");
        return NULL;
    }
    /* Working memory may be as large as what the model was allowed to load with. */
    const iqi_arena *model_arena = m->internal;
    iqi_arena arena = {NULL, 0, IQI_DEFAULT_MAX_MEMORY};
    if (model_arena && model_arena->budget > arena.budget) arena.budget = model_arena->budget;
    writer w;
    memset(&w, 0, sizeof w);
    w.m = m;
    w.ctx.error = error;
    w.ctx.arena = &arena;
    uint8_t *bytes = write_iqm(&w, size_out);
    iqi_arena_free(&arena);
    return bytes;
}

void iq_free_bytes(void *bytes) { iqi_free(bytes); }
