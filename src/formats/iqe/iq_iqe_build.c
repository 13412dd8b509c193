/* Building the model from what the IQE parser collected: attribute counts
 * and references checked, face-less meshes triangulated, fs edge flags
 * applied, normals generated when the file has none (iq_iqe_normals.c), then
 * every array copied into the arena at its exact size. */
#include "formats/iqe/iq_iqe_internal.h"
#include <stdio.h>
#include <stdlib.h>

/* The attribute commands' names and the types' default sizes: the line parser
 * (iq_iqe.c) reads them too, and calls into this file, never the reverse. */
const char *const iqi_iqe_attr_names[ATTR_COUNT] = {"vp", "vt", "vn", "vx", "vb", "vc", "vs", "v0", "v1",
                                                    "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9"};
const uint8_t iqi_iqe_default_size[VA_COUNT] = {3, 2, 3, 4, 4, 4, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4};

static int check_attribute_counts(iqe_parser *p, uint32_t nv) {
    static const size_t elem[ATTR_COUNT] = {12, 8, 12, sizeof(tangent_in), sizeof(blend_in), 16, 8, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16};
    for (int a = 0; a < ATTR_COUNT; a++) {
        uint64_t count = p->attr[a].len / elem[a];
        if (a == ATTR_VP || !count) continue;
        if (!nv)
            return iqi_fail_at_line(p->ctx, IQ_ERROR_BAD_VERTEX_ARRAY, p->attr_first_line[a], 1,
                                    "%llu '%s' lines but no vertex positions (vp)", (unsigned long long)count, iqi_iqe_attr_names[a]);
        if (count != nv)
            return iqi_fail_at_line(p->ctx, IQ_ERROR_BAD_VERTEX_ARRAY, p->attr_first_line[a], 1,
                                    "%llu '%s' lines for %u vertices (vp lines); each vertex attribute must be given for every vertex or for none",
                                    (unsigned long long)count, iqi_iqe_attr_names[a], nv);
    }
    return 1;
}

static int build_meshes(iqe_parser *p, const vertex_map *map) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    uint32_t blocks = IQI_GROW_COUNT(p->meshes, mesh_block), kept = 0, empty = 0;
    if (!blocks) return 1;
    m->meshes = iqi_alloc(ctx, blocks, sizeof(iq_mesh), "meshes");
    if (!m->meshes) return 0;
    const uint32_t *tri = m->indices;
    for (uint32_t i = 0; i < blocks; i++) {
        mesh_block *b = IQI_GROW_AT(p->meshes, mesh_block, i);
        /* An implicit block (content before any `mesh`) is only a mesh if it has triangles. */
        if (!b->declared && !b->triangle_count) continue;
        uint64_t lo = b->first_vertex, hi = b->end_vertex; /* IQE vertex range of the block */
        uint64_t out_lo = map ? map->first[lo] : lo, out_hi = map ? map->first[hi] : hi;
        for (uint32_t t = b->first_triangle; t < b->first_triangle + b->triangle_count; t++)
            for (int k = 0; k < 3; k++) {
                uint32_t v = tri[3 * (size_t)t + k];
                if (v < out_lo) out_lo = v;
                if (v + 1 > out_hi) out_hi = v + 1;
            }
        if (out_hi < out_lo) out_hi = out_lo;
        iq_mesh *mesh = &m->meshes[kept++];
        mesh->name = b->name;
        mesh->material = b->material;
        mesh->first_vertex = (uint32_t)out_lo;
        mesh->vertex_count = (uint32_t)(out_hi - out_lo);
        mesh->first_triangle = b->first_triangle;
        mesh->triangle_count = b->triangle_count;
        if (!b->triangle_count) empty++;
    }
    m->mesh_count = kept;
    if (empty) iqi_warn(ctx, IQ_WARNING_EMPTY, "%u mesh(es) have no triangles", empty);
    return 1;
}

/* Face-less files: each mesh's own vertices, in threes, are its triangles,
 * each with the smoothing settings in force at its first vertex. */
static int make_triangles_from_vertices(iqe_parser *p) {
    uint32_t blocks = IQI_GROW_COUNT(p->meshes, mesh_block), leftover = 0, state = 0, states = IQI_GROW_COUNT(p->states, smooth_state);
    for (uint32_t i = 0; i < blocks; i++) {
        mesh_block *b = IQI_GROW_AT(p->meshes, mesh_block, i);
        uint32_t n = b->end_vertex - b->first_vertex;
        b->first_triangle = IQI_GROW_COUNT(p->triangles, uint32_t) / 3;
        b->triangle_count = n / 3;
        leftover += n % 3;
        for (uint32_t t = 0; t < n / 3; t++) {
            uint32_t *tri = iqi_grow_push(&p->tx, &p->triangles, 12, "triangles");
            uint32_t *st = iqi_grow_push(&p->tx, &p->tri_state, 4, "triangles");
            uint8_t *edges = iqi_grow_push(&p->tx, &p->tri_edges, 1, "triangles");
            if (!tri || !st || !edges) return 0;
            for (int k = 0; k < 3; k++) tri[k] = b->first_vertex + 3 * t + (uint32_t)k;
            while (state + 1 < states && IQI_GROW_AT(p->states, smooth_state, state + 1)->first_vertex <= tri[0]) state++;
            *st = state;
            *edges = 7;
        }
    }
    if (leftover) iqi_warn(p->ctx, IQ_WARNING_IGNORED_DATA, "%u vertices at the end of face-less meshes do not make a whole triangle", leftover);
    return 1;
}

/* Matches the k-th `fs` line to the k-th face command and stores each fan
 * triangle's edge flags (edges between fan triangles always smooth). */
static int apply_edge_flags(iqe_parser *p) {
    uint32_t nfs = IQI_GROW_COUNT(p->fs, fs_rec), nfaces = IQI_GROW_COUNT(p->faces, face_rec);
    if (!nfs) return 1;
    if (nfs > nfaces)
        return iqi_fail_at_line(p->ctx, IQ_ERROR_SYNTAX, IQI_GROW_AT(p->fs, fs_rec, nfaces)->line, 1,
                                "fs: %u fs lines for %u faces; each fs belongs to one fa/fm face, in order", nfs, nfaces);
    for (uint32_t i = 0; i < nfs; i++) {
        const fs_rec *fs = IQI_GROW_AT(p->fs, fs_rec, i);
        const face_rec *f = IQI_GROW_AT(p->faces, face_rec, i);
        if (fs->count != f->vertex_count)
            return iqi_fail_at_line(p->ctx, IQ_ERROR_SYNTAX, fs->line, 1,
                                    "fs: %u flags for face %u, which has %u vertices; they must match", fs->count, i, f->vertex_count);
        const uint8_t *flag = p->fs_flags.data + fs->first_flag;
        uint32_t n = f->vertex_count;
        for (uint32_t t = 0; t + 2 < n; t++) {
            /* fan triangle t = (v0, v[t+1], v[t+2]): edge 0 = v0->v[t+1] is polygon edge 0 only
             * for the first triangle, edge 1 = polygon edge t+1, edge 2 = v[t+2]->v0 is the
             * polygon's closing edge only for the last triangle. */
            int e0 = t == 0 ? flag[0] : 1, e1 = flag[t + 1], e2 = t == n - 3 ? flag[n - 1] : 1;
            *IQI_GROW_AT(p->tri_edges, uint8_t, f->first_triangle + t) = (uint8_t)(8 | e0 | (e1 << 1) | (e2 << 2));
        }
    }
    return 1;
}

static int build_vertices(iqe_parser *p, const vertex_map *map) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    uint32_t out = map ? map->count : iqi_iqe_vertex_count(p);
    m->vertex_count = out;
    if (!out) return 1;
#define SRC(o) (map ? map->source[o] : (o))
    struct { int attr, va, components; float **dst; float defaults[4]; const char *what; } floats[] = {
        {ATTR_VP, IQM_POSITION, 3, &m->positions, {0, 0, 0, 0}, "positions"},
        {ATTR_VT, IQM_TEXCOORD, 2, &m->texcoords, {0, 0, 0, 0}, "texcoords"},
        {ATTR_VN, IQM_NORMAL, 3, &m->normals, {0, 0, 0, 0}, "normals"},
        {ATTR_VC, IQM_COLOR, 4, &m->colors, {0, 0, 0, 1}, "colors"},
    };
    for (size_t i = 0; i < sizeof floats / sizeof floats[0]; i++) {
        if (!p->attr[floats[i].attr].len) continue;
        float *dst = *floats[i].dst = iqi_alloc(ctx, out, (uint64_t)floats[i].components * 4, floats[i].what);
        if (!dst) return 0;
        int comps = floats[i].components, in = floats[i].attr == ATTR_VC ? 4 : comps;
        /* The declared (or default) array size keeps that many components; the rest take defaults. */
        uint32_t keep = p->decl[floats[i].va].declared ? p->decl[floats[i].va].size : iqi_iqe_default_size[floats[i].va];
        const float *src = (const float *)p->attr[floats[i].attr].data;
        for (uint32_t o = 0; o < out; o++)
            for (int k = 0; k < comps; k++)
                dst[(size_t)o * comps + k] = (uint32_t)k < keep ? src[(size_t)SRC(o) * in + k] : floats[i].defaults[k];
    }
    if (map && !p->attr[ATTR_VN].len) m->normals = map->normals;
    if (p->attr[ATTR_VX].len) {
        m->tangents = iqi_alloc(ctx, out, 16, "tangents");
        if (!m->tangents) return 0;
        const tangent_in *src = (const tangent_in *)p->attr[ATTR_VX].data;
        for (uint32_t o = 0; o < out; o++) {
            const tangent_in *t = &src[SRC(o)];
            float *dst = m->tangents + 4 * (size_t)o;
            memcpy(dst, t->t, 16);
            if (t->has_bitangent && m->normals) { /* w = the side the bitangent is on: sign(dot(cross(n, t), b)) */
                const float *n = m->normals + 3 * (size_t)o;
                float c[3] = {n[1] * t->t[2] - n[2] * t->t[1], n[2] * t->t[0] - n[0] * t->t[2], n[0] * t->t[1] - n[1] * t->t[0]};
                dst[3] = c[0] * t->b[0] + c[1] * t->b[1] + c[2] * t->b[2] < 0 ? -1.0f : 1.0f;
            }
        }
    }
    if (p->attr[ATTR_VB].len) {
        uint32_t nj = IQI_GROW_COUNT(p->joints, joint_rec);
        if (!nj) {
            iqi_warn(ctx, IQ_WARNING_IGNORED_DATA, "blend data (vb) without joints was ignored");
        } else {
            if (p->max_blend_index.set && p->max_blend_index.value >= nj) {
                return iqi_fail_at_line(ctx, IQ_ERROR_BAD_INDEX, p->max_blend_index.line, p->max_blend_index.column,
                                        "vb: joint index %lld, but the file has %u joints", (long long)p->max_blend_index.value, nj);
            }
            m->blend_indices = iqi_alloc(ctx, out, 8, "blend indices");
            m->blend_weights = iqi_alloc(ctx, out, 16, "blend weights");
            if (!m->blend_indices || !m->blend_weights) return 0;
            uint32_t limit = 4, unweighted = 0;
            if (p->decl[IQM_BLENDINDEXES].declared && p->decl[IQM_BLENDINDEXES].size < limit) limit = p->decl[IQM_BLENDINDEXES].size;
            if (p->decl[IQM_BLENDWEIGHTS].declared && p->decl[IQM_BLENDWEIGHTS].size < limit) limit = p->decl[IQM_BLENDWEIGHTS].size;
            const blend_in *src = (const blend_in *)p->attr[ATTR_VB].data;
            for (uint32_t o = 0; o < out; o++) {
                const blend_in *b = &src[SRC(o)];
                uint16_t *oi = m->blend_indices + 4 * (size_t)o;
                float *ow = m->blend_weights + 4 * (size_t)o;
                double sum = 0;
                uint32_t count = b->count < limit ? b->count : limit;
                for (uint32_t k = 0; k < count; k++) sum += b->weight[k];
                if (!(sum > 0)) {
                    ow[0] = 1; /* an unweighted vertex follows joint 0 (the model needs weights summing to 1) */
                    unweighted++;
                    continue;
                }
                for (uint32_t k = 0; k < count; k++) {
                    oi[k] = (uint16_t)b->index[k];
                    ow[k] = (float)(b->weight[k] / sum);
                }
            }
            if (unweighted) iqi_warn(ctx, IQ_WARNING_REPAIRED, "%u vertices have no positive blend weight; bound to joint 0", unweighted);
        }
    }
    /* Custom attributes: used only with a vertexarray declaration (spec). */
    uint32_t customs = 0;
    for (int i = 0; i < 10; i++) {
        if (!p->attr[ATTR_V0 + i].len) continue;
        if (p->decl[VA_CUSTOM0 + i].declared) customs++;
        else p->unused_customs++;
    }
    if (p->unused_customs)
        iqi_warn(ctx, IQ_WARNING_IGNORED_DATA, "%u custom attribute(s) (v0..v9) without a vertexarray declaration are unused, as the spec says",
                 p->unused_customs);
    if (customs) {
        m->custom_arrays = iqi_alloc(ctx, customs, sizeof(iq_custom_array), "custom arrays");
        if (!m->custom_arrays) return 0;
        uint32_t c = 0;
        for (int i = 0; i < 10; i++) {
            const va_decl *d = &p->decl[VA_CUSTOM0 + i];
            if (!p->attr[ATTR_V0 + i].len || !d->declared) continue;
            uint32_t cs = iqi_component_size[d->format];
            uint8_t *data = iqi_alloc(ctx, out, (uint64_t)d->size * cs, "custom array data");
            if (!data) return 0;
            const float *src = (const float *)p->attr[ATTR_V0 + i].data;
            for (uint32_t o = 0; o < out; o++)
                for (uint32_t k = 0; k < d->size; k++)
                    iqi_component_write(data + ((size_t)o * d->size + k) * cs, d->format, src[(size_t)SRC(o) * 4 + k]);
            iq_custom_array *ca = &m->custom_arrays[c++];
            ca->name = d->name;
            ca->type = IQM_CUSTOM + (uint32_t)i; /* IQE: 0x10 + N for customN (IQM stores 0x10 + a text offset) */
            ca->format = d->format;
            ca->size = d->size;
            ca->data = data;
        }
        m->custom_array_count = customs;
    }
#undef SRC
    return 1;
}

static int cmp_names(const void *x, const void *y) { return strcmp(*(const char *const *)x, *(const char *const *)y); }

static int build_skeleton(iqe_parser *p) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    uint32_t nj = IQI_GROW_COUNT(p->joints, joint_rec), nbase = IQI_GROW_COUNT(p->base_poses, iq_transform);
    uint32_t nframes_rec = IQI_GROW_COUNT(p->frames, frame_rec);
    if (!nj) {
        if (nbase || IQI_GROW_COUNT(p->poses, iq_transform))
            return iqi_fail_at_line(ctx, IQ_ERROR_BAD_ANIMATION, nbase ? p->first_pose_line : IQI_GROW_AT(p->frames, frame_rec, 0)->line, 1,
                                    "poses but no joint commands: without joints the hierarchy is unknown");
    } else {
        if (nbase && nbase != nj)
            return iqi_fail_at_line(ctx, IQ_ERROR_BAD_ANIMATION, p->first_pose_line, 1,
                                    "%u base poses (before the first animation) for %u joints; there must be one per joint", nbase, nj);
        m->joints = iqi_alloc(ctx, nj, sizeof(iq_joint), "joints");
        if (!m->joints) return 0;
        m->joint_count = nj;
        for (uint32_t i = 0; i < nj; i++) {
            const joint_rec *j = IQI_GROW_AT(p->joints, joint_rec, i);
            m->joints[i].name = j->name;
            m->joints[i].parent = j->parent;
            m->joints[i].bind = nbase ? *IQI_GROW_AT(p->base_poses, iq_transform, i) : (iq_transform){{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
        }
        if (!nbase) iqi_warn(ctx, IQ_WARNING_NO_BIND_POSE, "%u joints but no base poses: the bind pose is the identity", nj);
    }
    /* Frames: every keyframe holds one pose per joint; empty ones are dropped. */
    uint64_t frames = 0;
    for (uint32_t i = 0; i < nframes_rec; i++) {
        const frame_rec *f = IQI_GROW_AT(p->frames, frame_rec, i);
        if (!f->pose_count) { p->empty_frames++; continue; }
        if (f->pose_count != nj)
            return iqi_fail_at_line(ctx, IQ_ERROR_BAD_ANIMATION, f->line, 1, "this frame has %u poses; the skeleton has %u joints",
                                    f->pose_count, nj);
        frames++;
    }
    if (frames > ctx->limits.max_frames)
        return iqi_fail(ctx, IQ_ERROR_LIMIT, -1, "%llu frames; the limit is %u", (unsigned long long)frames, ctx->limits.max_frames);
    if (p->empty_frames) iqi_warn(ctx, IQ_WARNING_EMPTY, "%u empty frame(s) were dropped", p->empty_frames);
    if (frames) {
        m->frame_poses = iqi_alloc(ctx, frames * nj, sizeof(iq_transform), "frames");
        if (!m->frame_poses) return 0;
        m->frame_count = (uint32_t)frames;
    }
    uint32_t na = IQI_GROW_COUNT(p->anims, anim_rec);
    if (na) {
        m->animations = iqi_alloc(ctx, na, sizeof(iq_animation), "animations");
        if (!m->animations) return 0;
        m->animation_count = na;
    }
    uint32_t frame = 0, empty_anims = 0;
    for (uint32_t a = 0; a < na; a++) {
        const anim_rec *ar = IQI_GROW_AT(p->anims, anim_rec, a);
        iq_animation *an = &m->animations[a];
        an->first_frame = frame;
        for (uint32_t i = ar->first_frame_rec; i < ar->first_frame_rec + ar->frame_rec_count; i++) {
            const frame_rec *f = IQI_GROW_AT(p->frames, frame_rec, i);
            if (!f->pose_count) continue;
            memcpy(m->frame_poses + (size_t)frame * nj, IQI_GROW_AT(p->poses, iq_transform, f->first_pose), (size_t)nj * sizeof(iq_transform));
            frame++;
        }
        an->frame_count = frame - an->first_frame;
        an->framerate = ar->framerate;
        an->flags = ar->flags;
        an->name = ar->name;
        if (!an->frame_count) empty_anims++;
    }
    if (empty_anims) iqi_warn(ctx, IQ_WARNING_EMPTY, "%u animation(s) have no frames", empty_anims);
    /* Unnamed animations get "animation N" (N = its index), made unique against
     * the explicit names: those are sorted once and searched, so a file of a
     * million unnamed animations stays O(n log n). */
    uint32_t named = 0, unnamed = 0;
    for (uint32_t a = 0; a < na; a++) {
        if (m->animations[a].name) named++;
        else unnamed++;
    }
    if (unnamed) {
        iqi_grow g_names = {0};
        const char **names = iqi_grow_push(&p->tx, &g_names, (size_t)named * sizeof(char *) + sizeof(char *), "animation names");
        int ok = names != NULL;
        uint32_t k = 0;
        for (uint32_t a = 0; ok && a < na; a++)
            if (m->animations[a].name) names[k++] = m->animations[a].name;
        if (ok) qsort(names, named, sizeof *names, cmp_names);
        for (uint32_t a = 0; ok && a < na; a++) {
            if (m->animations[a].name) continue;
            char name[48];
            snprintf(name, sizeof name, "animation %u", a);
            for (uint32_t attempt = 1; bsearch(&(const char *){name}, names, named, sizeof *names, cmp_names); attempt++)
                snprintf(name, sizeof name, "animation %u (%u)", a, attempt);
            m->animations[a].name = iqi_strdup_n(ctx, name, strlen(name));
            ok = m->animations[a].name != NULL;
        }
        iqi_grow_release(&p->tx, &g_names);
        if (!ok) return 0;
    }
    return 1;
}

int iqi_iqe_build_model(iqe_parser *p) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    uint32_t nv = iqi_iqe_vertex_count(p);
    if (!check_attribute_counts(p, nv)) return 0;
    if (p->max_vertex_ref.set && p->max_vertex_ref.value >= nv)
        return iqi_fail_at_line(ctx, IQ_ERROR_BAD_INDEX, p->max_vertex_ref.line, p->max_vertex_ref.column,
                                "face: vertex %lld, but the file defines %u vertices", (long long)p->max_vertex_ref.value, nv);
    /* Close the vertex ranges of the mesh blocks. */
    uint32_t blocks = IQI_GROW_COUNT(p->meshes, mesh_block);
    for (uint32_t i = 0; i < blocks; i++) {
        mesh_block *b = IQI_GROW_AT(p->meshes, mesh_block, i);
        b->end_vertex = i + 1 < blocks ? IQI_GROW_AT(p->meshes, mesh_block, i + 1)->first_vertex : nv;
    }
    if (!p->have_faces && nv) {
        if (!blocks || IQI_GROW_AT(p->meshes, mesh_block, 0)->first_vertex > 0) {
            /* vertices before the first `mesh` command form an unnamed mesh */
            mesh_block first = {"", "", 0, 0, 0, blocks ? IQI_GROW_AT(p->meshes, mesh_block, 0)->first_vertex : nv, 0, 1};
            if (!iqi_grow_push(&p->tx, &p->meshes, sizeof first, "meshes")) return 0;
            memmove(p->meshes.data + sizeof first, p->meshes.data, p->meshes.len - sizeof first);
            memcpy(p->meshes.data, &first, sizeof first);
        }
        if (!make_triangles_from_vertices(p)) return 0;
    }
    if (!apply_edge_flags(p)) return 0;
    uint32_t nt = IQI_GROW_COUNT(p->triangles, uint32_t) / 3;
    vertex_map map = {0};
    int generate = nt && !p->attr[ATTR_VN].len;
    if (generate && !iqi_iqe_generate_normals(p, &map)) return 0;
    if (nt) {
        m->indices = iqi_alloc(ctx, nt, 12, "triangles");
        if (!m->indices) return 0;
        memcpy(m->indices, p->triangles.data, (size_t)nt * 12);
        m->triangle_count = nt;
    }
    if (!build_vertices(p, generate ? &map : NULL)) return 0;
    if (!build_meshes(p, generate ? &map : NULL)) return 0;
    if (!build_skeleton(p)) return 0;
    if (p->comment_size) {
        if (p->comment_size > UINT32_MAX) return iqi_fail(ctx, IQ_ERROR_LIMIT, -1, "the comment is over 4 GiB");
        uint8_t *c = iqi_alloc(ctx, p->comment_size, 1, "comment");
        if (!c) return 0;
        memcpy(c, p->comment, p->comment_size);
        m->comment = c;
        m->comment_size = (uint32_t)p->comment_size;
    }
    if (p->negative_weights) iqi_warn(ctx, IQ_WARNING_REPAIRED, "%u negative blend weights were dropped", p->negative_weights);
    if (p->extra_influences) iqi_warn(ctx, IQ_WARNING_IGNORED_DATA, "%u vertices have more than 4 blend weights; the 4 largest were kept", p->extra_influences);
    if (p->ignored_frames || p->ignored_loops)
        iqi_warn(ctx, IQ_WARNING_IGNORED_DATA, "%u frame/loop/framerate command(s) before any animation were ignored",
                 p->ignored_frames + p->ignored_loops);
    if (p->unknown_commands)
        iqi_warn(ctx, IQ_WARNING_IGNORED_DATA, "%u line(s) with unknown commands were ignored (the first: '%s' on line %u)",
                 p->unknown_commands, p->unknown_name, p->unknown_line);
    return 1;
}
