/* What the vertex-animated readers share (iq_vertex_formats.h), the part
 * MD3 uses too, so it is built into every WASM: id's header fields and
 * sections, fixed-size names, the frame arrays, Quake 3's packed normals,
 * xy radii and the one clip of MD3-like files. */
#include "formats/iq_vertex_formats.h"

// -- id's binary layout

int iqi_read_count(iqi_ctx *ctx, uint64_t at, const char *what, uint32_t *out) {
    int32_t v = iqi_i32(ctx->data + at);
    if (v < 0) return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, (int64_t)at, "%s is negative (%d)", what, v);
    *out = (uint32_t)v;
    return 1;
}

int iqi_read_section(iqi_ctx *ctx, uint64_t field, uint64_t base, const char *what, uint64_t count, uint64_t elem,
                     uint64_t *out) {
    int32_t ofs = iqi_i32(ctx->data + field);
    *out = 0;
    if (count == 0) return 1; /* never read: engines ignore the offset of an empty section */
    if (ofs < 0) return iqi_fail(ctx, IQ_ERROR_OUT_OF_RANGE, (int64_t)field, "%s: offset %d is negative", what, ofs);
    uint64_t start = base + (uint32_t)ofs;
    if (!iqi_range_ok(ctx->size, start, count, elem))
        return iqi_fail(ctx, IQ_ERROR_OUT_OF_RANGE, (int64_t)field,
                        "%s: %llu x %llu bytes at offset %llu run past the end of the %zu-byte file", what,
                        (unsigned long long)count, (unsigned long long)elem, (unsigned long long)start, ctx->size);
    *out = start;
    return 1;
}

const char *iqi_copy_name(const uint8_t *field, size_t field_size, char *out, uint32_t *unterminated) {
    const uint8_t *nul = memchr(field, 0, field_size);
    size_t n = nul ? (size_t)(nul - field) : field_size;
    if (!nul) (*unterminated)++;
    memcpy(out, field, n);
    out[n] = 0;
    return out;
}

void iqi_warn_unterminated_names(iqi_ctx *ctx, uint32_t count) {
    if (count)
        iqi_warn(ctx, IQ_WARNING_NONSTANDARD, "%u name(s) fill their field with no NUL byte; read to the field's end",
                 count);
}

int iqi_check_frame_count(iqi_ctx *ctx, uint64_t field, uint32_t frames) {
    if (frames == 0) return iqi_fail(ctx, IQ_ERROR_BAD_ANIMATION, (int64_t)field, "the model has no frames");
    if (frames > ctx->limits.max_frames)
        return iqi_fail(ctx, IQ_ERROR_LIMIT, (int64_t)field, "%u frames; the limit is %u", frames, ctx->limits.max_frames);
    return 1;
}

int iqi_check_end_offset(iqi_ctx *ctx, uint64_t field, uint32_t header_size) {
    int32_t end = iqi_i32(ctx->data + field);
    if (end < (int64_t)header_size)
        return iqi_fail(ctx, IQ_ERROR_BAD_FILESIZE, (int64_t)field, "the end offset %d is inside the %u-byte header", end,
                        header_size);
    if ((uint64_t)end < ctx->size)
        iqi_warn(ctx, IQ_WARNING_TRAILING_BYTES, "the end offset is %d, the file has %zu bytes; the rest was ignored", end,
                 ctx->size);
    else if ((uint64_t)end > ctx->size)
        iqi_warn(ctx, IQ_WARNING_NONSTANDARD,
                 "the end offset is %d but the file has only %zu bytes; every section is present", end, ctx->size);
    return 1;
}

// -- The model's arrays

int iqi_alloc_vertex_frames(iqi_ctx *ctx, uint32_t frames, int texcoords) {
    iq_model *m = ctx->model;
    uint32_t nv = m->vertex_count;
    if (!nv) return 1;
    m->frame_positions = iqi_alloc(ctx, (uint64_t)frames * nv, 3 * sizeof(float), "frame positions");
    m->frame_normals = iqi_alloc(ctx, (uint64_t)frames * nv, 3 * sizeof(float), "frame normals");
    if (texcoords) m->texcoords = iqi_alloc(ctx, nv, 2 * sizeof(float), "texture coordinates");
    if (!m->frame_positions || !m->frame_normals || (texcoords && !m->texcoords)) return 0;
    m->positions = m->frame_positions; /* frame 0 */
    m->normals = m->frame_normals;
    return 1;
}

int iqi_single_mesh(iqi_ctx *ctx) {
    iq_model *m = ctx->model;
    m->meshes = iqi_alloc(ctx, 1, sizeof(iq_mesh), "mesh");
    if (!m->meshes) return 0;
    m->mesh_count = 1;
    m->meshes[0] = (iq_mesh){"", "", 0, m->vertex_count, 0, m->triangle_count};
    return 1;
}

void iqi_frame_xy_radii(iq_model *m) {
    for (uint32_t f = 0; f < m->frame_count; f++) {
        const float *pos = m->frame_positions ? m->frame_positions + 3 * (size_t)f * m->vertex_count : NULL;
        float r2 = 0;
        for (uint32_t v = 0; pos && v < m->vertex_count; v++) {
            float d = pos[3 * v] * pos[3 * v] + pos[3 * v + 1] * pos[3 * v + 1];
            if (d > r2) r2 = d;
        }
        m->frame_bounds[f].xy_radius = sqrtf(r2);
    }
}

int iqi_clip_all_frames(iqi_ctx *ctx) {
    iq_model *m = ctx->model;
    m->animations = iqi_alloc(ctx, 1, sizeof(iq_animation), "animation");
    if (!m->animations) return 0;
    m->animation_count = 1;
    m->animations[0] = (iq_animation){"all", 0, m->frame_count, IQ_MD3_DEFAULT_FRAMERATE, IQ_ANIMATION_LOOP};
    return 1;
}

// -- Normals

void iqi_latlong_sines(float sines[256]) {
    for (int i = 0; i < 256; i++) sines[i] = (float)sin(i * (2.0 * 3.14159265358979323846 / 256.0));
}

// -- Surfaces chained by their end offsets

#define IQI_SURFACE_NAME_SIZE 64
#define IQI_SURFACE_SHADER_SIZE 68
#define IQI_SURFACE_ST_SIZE 8

int iqi_surfaces_begin(iqi_ctx *ctx, iqi_surface_chain *c, uint32_t count, uint64_t count_field, uint64_t ofs_field,
                       uint32_t header_size, uint32_t tags) {
    memset(c, 0, sizeof *c);
    c->count = count;
    c->header_size = header_size;
    if (!iqi_read_section(ctx, ofs_field, 0, "surfaces", count ? 1 : 0, header_size, &c->at)) return 0;
    if (!count) {
        if (!tags) iqi_warn(ctx, IQ_WARNING_EMPTY, "the model has no surfaces and no tags");
        return 1;
    }
    /* Each surface takes at least its header: a larger count is a lie found before anything is allocated for it. */
    if (count > ctx->size / header_size)
        return iqi_fail(ctx, IQ_ERROR_TRUNCATED, (int64_t)count_field, "%u surfaces cannot fit in %zu bytes", count,
                        ctx->size);
    return 1;
}

int iqi_surfaces_next(iqi_ctx *ctx, iqi_surface_chain *c, iqi_surface *s, uint32_t i, uint32_t end_field) {
    s->first_vertex = (uint32_t)c->vertices;
    s->first_triangle = (uint32_t)c->triangles;
    s->first_shader = (uint32_t)c->shaders;
    c->vertices += s->verts;
    c->triangles += s->triangles;
    c->shaders += s->shaders;
    /* Every vertex takes bytes in the file, so these sums stay far below
     * 2^32; checked anyway so the casts above can never wrap. */
    if (c->vertices > UINT32_MAX || c->triangles > UINT32_MAX / 3 || c->shaders > UINT32_MAX)
        return iqi_fail(ctx, IQ_ERROR_LIMIT, (int64_t)c->at, "surface %u: the model's counts overflow", i);
    int32_t end = iqi_i32(ctx->data + c->at + end_field);
    if (end < (int64_t)c->header_size)
        return iqi_fail(ctx, IQ_ERROR_BAD_MESH, (int64_t)(c->at + end_field),
                        "surface %u: end offset %d does not move past its %u-byte header", i, end, c->header_size);
    c->at += (uint32_t)end;
    return 1;
}

int iqi_surfaces_arrays(iqi_ctx *ctx, const iqi_surface_chain *c, uint32_t frames) {
    iq_model *m = ctx->model;
    m->mesh_count = c->count;
    m->vertex_count = (uint32_t)c->vertices;
    m->triangle_count = (uint32_t)c->triangles;
    m->shader_count = (uint32_t)c->shaders;
    if (!c->count) return 1;
    m->meshes = iqi_alloc(ctx, c->count, sizeof(iq_mesh), "meshes");
    if (!m->meshes) return 0;
    if (m->shader_count && !(m->shaders = iqi_alloc(ctx, m->shader_count, sizeof(iq_shader), "shaders"))) return 0;
    if (!iqi_alloc_vertex_frames(ctx, frames, 1)) return 0;
    if (m->triangle_count && !(m->indices = iqi_alloc(ctx, m->triangle_count, 3 * sizeof(uint32_t), "indices")))
        return 0;
    return 1;
}

/* A surface's 64-byte name field, copied into the arena. */
static const char *surface_name(iqi_ctx *ctx, const uint8_t *field, uint32_t *unterminated) {
    char *out = iqi_alloc(ctx, IQI_SURFACE_NAME_SIZE + 1, 1, "name");
    return out ? iqi_copy_name(field, IQI_SURFACE_NAME_SIZE, out, unterminated) : NULL;
}

int iqi_surface_decode(iqi_ctx *ctx, const iqi_surface *s, uint32_t i, uint32_t name_field, uint32_t *unterminated) {
    iq_model *m = ctx->model;
    const uint8_t *d = ctx->data;
    iq_mesh *mesh = &m->meshes[i];
    if (!(mesh->name = surface_name(ctx, d + s->at + name_field, unterminated))) return 0;
    mesh->first_vertex = s->first_vertex;
    mesh->vertex_count = s->verts;
    mesh->first_triangle = s->first_triangle;
    mesh->triangle_count = s->triangles;
    mesh->material = "";
    for (uint32_t k = 0; k < s->shaders; k++) {
        const uint8_t *r = d + s->shaders_at + (size_t)k * IQI_SURFACE_SHADER_SIZE;
        iq_shader *out = &m->shaders[s->first_shader + k];
        if (!(out->name = surface_name(ctx, r, unterminated))) return 0;
        out->index = iqi_i32(r + IQI_SURFACE_NAME_SIZE);
        out->mesh = i;
    }
    if (s->shaders) mesh->material = m->shaders[s->first_shader].name;
    for (uint32_t v = 0; v < s->verts; v++) {
        float *uv = m->texcoords + 2 * ((size_t)s->first_vertex + v);
        uv[0] = iqi_f32(d + s->st_at + IQI_SURFACE_ST_SIZE * (size_t)v);
        uv[1] = iqi_f32(d + s->st_at + IQI_SURFACE_ST_SIZE * (size_t)v + 4);
        iqi_repair_vector(ctx, IQI_TEXCOORD, uv, 2);
    }
    return 1;
}
