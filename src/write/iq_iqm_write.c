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
 * themselves are one malloc block for iq_free_bytes. This file lays the file
 * out; iq_iqm_write_compute.c computes adjacency, bounds and the quantised
 * frames and weights. */
#include "write/iq_iqm_write_internal.h"
#include <math.h>
#include <stdlib.h>

typedef struct out_array { uint32_t type, format, size, offset; const void *data; int kind; } out_array;
enum { KIND_FLOATS, KIND_BLEND_INDICES, KIND_BLEND_WEIGHTS, KIND_RAW };

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
    if (nf && !(nj && m->frame_poses) && (nj || m->frame_positions)) {
        /* (frames of a model with neither joints nor vertex frames hold no channels: they are
         * written as they are, frames of zero channels, which IQM allows) */
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
        ch = iqi_iqmw_scratch(w, nj, sizeof *ch, "frames: channels");
        rot = ch ? iqi_iqmw_continuous_rotations(w) : NULL;
        if (!rot) return NULL;
        channels = iqi_iqmw_plan_channels(m, rot, ch);
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
    uint64_t *ext_data = iqi_iqmw_scratch(w, m->extension_count, sizeof *ext_data, "extensions");
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
    uint32_t *adj = nt && !m->adjacency ? iqi_iqmw_scratch(w, nt, 3 * sizeof(uint32_t), "adjacency") : NULL;
    if (nt && !m->adjacency && (!adj || !iqi_iqmw_compute_adjacency(w, adj))) return NULL;
    float *bounds = ofs_bounds ? iqi_iqmw_scratch(w, nf, 8 * sizeof(float), "bounds") : NULL;
    if (ofs_bounds && (!bounds || !iqi_iqmw_compute_bounds(w, bounds))) return NULL;
    uint8_t *b = iqi_calloc(1, (size_t)at);
    if (!b) { iqi_fail(&w->ctx, IQ_ERROR_OUT_OF_MEMORY, -1, "out of memory for the IQM bytes"); return NULL; }
    w->text = (char *)b + ofs_text;

    // Text and meshes
    uint64_t tpos = 1;
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        const iq_mesh *mesh = &m->meshes[i];
        uint8_t *r = b + ofs_meshes + 24ull * i;
        iqi_iqmw_put_u32(r, text_add(w, &tpos, mesh->name));
        iqi_iqmw_put_u32(r + 4, text_add(w, &tpos, mesh->material));
        iqi_iqmw_put_u32(r + 8, mesh->first_vertex);
        iqi_iqmw_put_u32(r + 12, mesh->vertex_count);
        iqi_iqmw_put_u32(r + 16, mesh->first_triangle);
        iqi_iqmw_put_u32(r + 20, mesh->triangle_count);
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
        iqi_iqmw_put_u32(r, type);
        iqi_iqmw_put_u32(r + 4, 0);
        iqi_iqmw_put_u32(r + 8, a->format);
        iqi_iqmw_put_u32(r + 12, a->size);
        iqi_iqmw_put_u32(r + 16, a->offset);
        if (a->kind == KIND_FLOATS) {
            const float *src = a->data;
            for (uint64_t k = 0; k < (uint64_t)nv * a->size; k++) iqi_iqmw_put_f32(d + 4 * k, src[k]);
        } else if (a->kind == KIND_BLEND_INDICES) {
            const uint16_t *src = a->data;
            for (uint64_t k = 0; k < (uint64_t)nv * 4; k++) {
                if (a->format == IQ_UBYTE) d[k] = (uint8_t)src[k];
                else iqi_iqmw_put_u16(d + 2 * k, src[k]);
            }
        } else if (a->kind == KIND_BLEND_WEIGHTS) {
            for (uint32_t v = 0; v < nv; v++) iqi_iqmw_quantise_weights(m->blend_weights + 4 * (size_t)v, d + 4 * (size_t)v);
        } else {
            memcpy(d, a->data, (size_t)nv * a->size * iqi_component_size[a->format]);
        }
    }

    // Triangles and adjacency
    for (uint64_t k = 0; k < 3ull * nt; k++) iqi_iqmw_put_u32(b + ofs_triangles + 4 * k, m->indices[k]);
    if (nt) {
        const uint32_t *src = m->adjacency ? m->adjacency : adj;
        for (uint64_t k = 0; k < 3ull * nt; k++) iqi_iqmw_put_u32(b + ofs_adjacency + 4 * k, src[k]);
    }

    // Joints, poses, anims, frames
    for (uint32_t j = 0; j < nj; j++) {
        const iq_joint *jt = &m->joints[j];
        uint8_t *r = b + ofs_joints + 48ull * j;
        iqi_iqmw_put_u32(r, text_add(w, &tpos, jt->name));
        iqi_iqmw_put_u32(r + 4, (uint32_t)jt->parent);
        for (int k = 0; k < 3; k++) iqi_iqmw_put_f32(r + 8 + 4 * k, jt->bind.translate[k]);
        for (int k = 0; k < 4; k++) iqi_iqmw_put_f32(r + 20 + 4 * k, jt->bind.rotate[k]);
        for (int k = 0; k < 3; k++) iqi_iqmw_put_f32(r + 36 + 4 * k, jt->bind.scale[k]);
    }
    for (uint32_t j = 0; j < num_poses; j++) {
        uint8_t *r = b + ofs_poses + 88ull * j;
        iqi_iqmw_put_u32(r, (uint32_t)m->joints[j].parent);
        iqi_iqmw_put_u32(r + 4, ch[j].mask);
        for (int k = 0; k < 10; k++) {
            iqi_iqmw_put_f32(r + 8 + 4 * k, ch[j].offset[k]);
            iqi_iqmw_put_f32(r + 48 + 4 * k, ch[j].scale[k]);
        }
    }
    for (uint32_t i = 0; i < animation_count; i++) {
        const iq_animation *an = &m->animations[i];
        uint8_t *r = b + ofs_anims + 20ull * i;
        iqi_iqmw_put_u32(r, text_add(w, &tpos, an->name));
        iqi_iqmw_put_u32(r + 4, an->first_frame);
        iqi_iqmw_put_u32(r + 8, an->frame_count);
        iqi_iqmw_put_f32(r + 12, an->framerate);
        iqi_iqmw_put_u32(r + 16, an->flags);
    }
    if (frame_values) iqi_iqmw_write_frames(m, rot, ch, b + ofs_frames);

    // Bounds, comment, extensions
    if (ofs_bounds)
        for (uint64_t k = 0; k < 8ull * nf; k++) iqi_iqmw_put_f32(b + ofs_bounds + 4 * k, bounds[k]);
    if (m->comment_size) memcpy(b + ofs_comment, m->comment, m->comment_size);
    for (uint32_t i = 0; i < m->extension_count; i++) {
        const iq_extension *e = &m->extensions[i];
        uint8_t *r = b + ofs_extensions + 16ull * i;
        iqi_iqmw_put_u32(r, text_add(w, &tpos, e->name));
        iqi_iqmw_put_u32(r + 4, e->size);
        iqi_iqmw_put_u32(r + 8, (uint32_t)ext_data[i]);
        iqi_iqmw_put_u32(r + 12, i + 1 < m->extension_count ? (uint32_t)(ofs_extensions + 16ull * (i + 1)) : 0);
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

