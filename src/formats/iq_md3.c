/* MD3 (Quake 3, vertex animated). Spec: shared/specs/md3.txt; conventions
 * and the bad-input decisions: shared/docs/formats.md sections 1.5, 1.6 and
 * items 25-32 of section 4.
 *
 * Order of work: header, frames, tags, then the surfaces, which are chained
 * by their end offsets: a first walk checks every surface header and section
 * range and sums the counts, a second decodes shaders, triangles, texture
 * coordinates and every frame's vertices into model-wide arrays.
 *
 * Policy: load what a Quake 3 engine loads and warn about it (surfaces over
 * the written limits, repeated tag names, an end offset that does not match
 * the file, surfaces without triangles or shaders, files with only tags);
 * reject what would make an engine read out of bounds or loop (sections past
 * the end of the file, a surface end offset that does not move forward,
 * triangle indices outside their surface, a surface with a different frame
 * count than the header). Unusable frame records, tag values (from the tag's
 * nearest usable frame) and texture coordinates are repaired (iq_numbers.c).
 * Sections are checked against the bytes actually present, never against
 * offsets the file claims. */
#include "base/iq_internal.h"
#include "formats/iq_vertex_formats.h"
#include <math.h>

#define MD3_HEADER_SIZE 108
#define MD3_FRAME_SIZE 56
#define MD3_TAG_SIZE 112
#define MD3_SURFACE_SIZE 108
#define MD3_SHADER_SIZE 68
#define MD3_TRIANGLE_SIZE 12
#define MD3_ST_SIZE 8
#define MD3_VERTEX_SIZE 8
#define MD3_NAME_SIZE 64
#define MD3_FRAME_NAME_SIZE 16
#define MD3_VERSION 15

/* The written limits (qfiles.h). Shipped files exceed some of them and engines
 * load those files, so going over is a warning, not an error. */
#define MD3_MAX_FRAMES 1024
#define MD3_MAX_TAGS 16
#define MD3_MAX_SURFACES 32
#define MD3_MAX_SHADERS 256
#define MD3_MAX_VERTS 4096
#define MD3_MAX_TRIANGLES 8192

/* Header fields, byte offsets. */
enum {
    H_IDENT = 0, H_VERSION = 4, H_NAME = 8, H_FLAGS = 72, H_NUM_FRAMES = 76, H_NUM_TAGS = 80,
    H_NUM_SURFACES = 84, H_NUM_SKINS = 88, H_OFS_FRAMES = 92, H_OFS_TAGS = 96, H_OFS_SURFACES = 100, H_OFS_END = 104
};
/* Surface header fields, byte offsets from the surface start. */
enum {
    S_IDENT = 0, S_NAME = 4, S_FLAGS = 68, S_NUM_FRAMES = 72, S_NUM_SHADERS = 76, S_NUM_VERTS = 80,
    S_NUM_TRIANGLES = 84, S_OFS_TRIANGLES = 88, S_OFS_SHADERS = 92, S_OFS_ST = 96, S_OFS_XYZNORMAL = 100, S_OFS_END = 104
};

typedef struct md3_parser {
    iqi_ctx *ctx;
    const uint8_t *d;
    size_t size;
    uint32_t frames, tags, surface_count;
    uint32_t ofs_frames, ofs_tags, ofs_surfaces;
    iqi_surface_chain chain;
    iqi_surface *surfaces;
    uint32_t unterminated_names; /* names that fill their field with no NUL */
} md3_parser;

// -- Header

static int read_header(md3_parser *p) {
    iqi_ctx *ctx = p->ctx;
    if (ctx->size < MD3_HEADER_SIZE)
        return iqi_fail(ctx, IQ_ERROR_TRUNCATED, 0, "the MD3 header needs 108 bytes, the file has %zu", ctx->size);
    if (memcmp(ctx->data, "IDP3", 4) != 0) return iqi_fail(ctx, IQ_ERROR_BAD_MAGIC, 0, "the ident is not \"IDP3\"");
    int32_t version = iqi_i32(ctx->data + H_VERSION);
    if (version != MD3_VERSION)
        return iqi_fail(ctx, IQ_ERROR_BAD_VERSION, H_VERSION, "version %d; only version 15 is supported", version);
    p->d = ctx->data;
    p->size = ctx->size;
    if (!iqi_read_count(ctx, H_NUM_FRAMES, "the header's frame count", &p->frames) ||
        !iqi_read_count(ctx, H_NUM_TAGS, "the header's tag count", &p->tags) ||
        !iqi_read_count(ctx, H_NUM_SURFACES, "the header's surface count", &p->surface_count))
        return 0;
    if (!iqi_check_frame_count(ctx, H_NUM_FRAMES, p->frames)) return 0;
    if (p->frames > MD3_MAX_FRAMES)
        iqi_warn(ctx, IQ_WARNING_OVER_LIMIT, "%u frames; MD3 allows %d", p->frames, MD3_MAX_FRAMES);
    if (p->tags > MD3_MAX_TAGS) iqi_warn(ctx, IQ_WARNING_OVER_LIMIT, "%u tags; MD3 allows %d", p->tags, MD3_MAX_TAGS);
    if (p->surface_count > MD3_MAX_SURFACES)
        iqi_warn(ctx, IQ_WARNING_OVER_LIMIT, "%u surfaces; MD3 allows %d", p->surface_count, MD3_MAX_SURFACES);
    return iqi_check_end_offset(ctx, H_OFS_END, MD3_HEADER_SIZE);
}

// -- Frames and tags

static int read_frames(md3_parser *p) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    uint64_t at;
    if (!iqi_read_section(ctx, H_OFS_FRAMES, 0, "frames", p->frames, MD3_FRAME_SIZE, &at)) return 0;
    m->frame_count = p->frames;
    m->frame_bounds = iqi_alloc(ctx, p->frames, sizeof(iq_bounds), "frame bounds");
    m->frame_info = iqi_alloc(ctx, p->frames, sizeof(iq_frame_info), "frame info");
    char *names = iqi_alloc(ctx, p->frames, MD3_FRAME_NAME_SIZE + 1, "frame names"); /* one block, not one per frame */
    if (!m->frame_bounds || !m->frame_info || !names) return 0;
    uint32_t inverted = 0, origins = 0;
    for (uint32_t f = 0; f < p->frames; f++, at += MD3_FRAME_SIZE) {
        const uint8_t *r = p->d + at;
        float v[10];
        int usable = 1, origin_usable = 1;
        for (int k = 0; k < 10; k++) {
            v[k] = iqi_f32(r + 4 * k);
            if (iqi_usable(ctx, v[k])) continue;
            if (k >= 6 && k < 9) origin_usable = 0;
            else usable = 0;
        }
        /* Engines do not trust these records (a shipped Nexuiz model has
         * garbage in them): unusable bounds are recomputed from the frame's
         * vertices when the model is finished (load/iq_load.c), an unusable
         * origin becomes 0. */
        iq_bounds *b = &m->frame_bounds[f];
        memcpy(b->min, v, sizeof b->min);
        memcpy(b->max, v + 3, sizeof b->max);
        b->radius = v[9];
        if (!usable) iqi_mark_bounds_unusable(b);
        if (!origin_usable) { v[6] = v[7] = v[8] = 0; origins++; }
        memcpy(m->frame_info[f].local_origin, v + 6, sizeof m->frame_info[f].local_origin);
        if (usable && (v[0] > v[3] || v[1] > v[4] || v[2] > v[5])) inverted++;
        m->frame_info[f].name = iqi_copy_name(r + 40, MD3_FRAME_NAME_SIZE, names + (size_t)f * (MD3_FRAME_NAME_SIZE + 1),
                                              &p->unterminated_names);
    }
    if (inverted) iqi_warn(ctx, IQ_WARNING_NONSTANDARD, "%u frame(s) have a bounding box with min > max", inverted);
    if (origins)
        iqi_warn(ctx, IQ_WARNING_REPAIRED, "%u frame origin(s) were not finite or beyond the magnitude limit; set to 0", origins);
    return 1;
}

static float dot3(const float *a, const float *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Unusable tag values (marked in bad: bit 1 the origin, bit 2 the axes) take the same tag's
 * values from the nearest frame where they are usable (the earlier one on a tie), so an animated
 * attachment does not jump; with no such frame they keep the zero origin and identity axes
 * read_tags put there. Each run of bad frames is found once: linear in the frames. */
static void repair_tags(iq_model *m, const uint8_t *bad, uint32_t frames) {
    uint32_t nt = m->tag_count;
    for (uint32_t t = 0; t < nt; t++)
        for (int kind = 1; kind <= 2; kind++)
            for (uint32_t f = 0; f < frames;) {
                if (!(bad[(size_t)f * nt + t] & kind)) { f++; continue; }
                uint32_t end = f; /* the run of bad frames is [f, end) */
                while (end < frames && (bad[(size_t)end * nt + t] & kind)) end++;
                for (uint32_t g = f; g < end; g++) {
                    int64_t from = f > 0 ? (int64_t)f - 1 : -1;
                    if (end < frames && (from < 0 || end - g < g - (uint64_t)from)) from = end;
                    if (from < 0) continue;
                    const float *src = m->tag_transforms + 12 * ((size_t)from * nt + t);
                    float *dst = m->tag_transforms + 12 * ((size_t)g * nt + t);
                    for (int row = 0; row < 3; row++) {
                        if (kind == 1) dst[4 * row + 3] = src[4 * row + 3];
                        else memcpy(dst + 4 * row, src + 4 * row, 3 * sizeof(float));
                    }
                }
                f = end;
            }
}

static int read_tags(md3_parser *p) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    uint64_t at;
    if (!iqi_read_section(ctx, H_OFS_TAGS, 0, "tags", (uint64_t)p->frames * p->tags, MD3_TAG_SIZE, &at)) return 0;
    if (!p->tags) return 1;
    /* Tags are attachment points like joints: the joint limit bounds them (and
     * the quadratic duplicate-name check below). */
    if (p->tags > ctx->limits.max_joints)
        return iqi_fail(ctx, IQ_ERROR_LIMIT, H_NUM_TAGS, "%u tags; the limit is %u", p->tags, ctx->limits.max_joints);
    uint32_t nt = p->tags;
    m->tag_names = iqi_alloc(ctx, nt, sizeof(char *), "tag names");
    char *names = iqi_alloc(ctx, nt, MD3_NAME_SIZE + 1, "tag name text");
    m->tag_transforms = iqi_alloc(ctx, (uint64_t)p->frames * nt, 12 * sizeof(float), "tag transforms");
    /* per record: bit 1 the origin, bit 2 the axes hold a value that is not usable */
    uint8_t *bad = iqi_alloc(ctx, (uint64_t)p->frames * nt, 1, "tag repairs");
    if (!m->tag_names || !names || !m->tag_transforms || !bad) return 0;
    m->tag_count = nt;
    uint32_t renamed = 0, skewed = 0, duplicates = 0, bad_origins = 0, bad_axes = 0;
    for (uint32_t f = 0; f < p->frames; f++) {
        for (uint32_t t = 0; t < nt; t++, at += MD3_TAG_SIZE) {
            const uint8_t *r = p->d + at;
            if (f == 0) {
                m->tag_names[t] = iqi_copy_name(r, MD3_NAME_SIZE, names + (size_t)t * (MD3_NAME_SIZE + 1), &p->unterminated_names);
                for (uint32_t u = 0; u < t; u++)
                    if (strcmp(m->tag_names[u], m->tag_names[t]) == 0) { duplicates++; break; }
            } else if (strncmp((const char *)r, m->tag_names[t], MD3_NAME_SIZE) != 0) {
                renamed++;
            }
            float v[12];
            uint8_t *b = &bad[(size_t)f * nt + t];
            for (int k = 0; k < 12; k++) {
                v[k] = iqi_f32(r + MD3_NAME_SIZE + 4 * k);
                if (!iqi_usable(ctx, v[k])) *b |= k < 3 ? 1 : 2;
            }
            /* Unvanquished ships tags whose axes hold garbage (1.78e+31): a tag, like a frame's
             * bounds, is repaired, not refused (below: from the nearest usable frame). */
            if (*b & 1) { v[0] = v[1] = v[2] = 0; bad_origins++; }
            if (*b & 2) {
                static const float identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
                memcpy(v + 3, identity, sizeof identity);
                bad_axes++;
            }
            /* File order: origin, then the x, y and z axes. Stored as a 3x4
             * matrix whose columns are the axes and the origin. */
            float *out = m->tag_transforms + 12 * ((size_t)f * nt + t);
            for (int row = 0; row < 3; row++) {
                for (int axis = 0; axis < 3; axis++) out[4 * row + axis] = v[3 + 3 * axis + row];
                out[4 * row + 3] = v[row];
            }
            const float *x = v + 3, *y = v + 6, *z = v + 9;
            if (fabsf(dot3(x, x) - 1) > 1e-3f || fabsf(dot3(y, y) - 1) > 1e-3f || fabsf(dot3(z, z) - 1) > 1e-3f ||
                fabsf(dot3(x, y)) > 1e-3f || fabsf(dot3(x, z)) > 1e-3f || fabsf(dot3(y, z)) > 1e-3f)
                skewed++;
        }
    }
    if (bad_origins || bad_axes) repair_tags(m, bad, p->frames);
    if (bad_origins)
        iqi_warn(ctx, IQ_WARNING_REPAIRED,
                 "%u tag record(s) had an origin that is not finite or beyond the magnitude limit; taken from the nearest usable "
                 "frame of the tag (0 when none is)", bad_origins);
    if (bad_axes)
        iqi_warn(ctx, IQ_WARNING_REPAIRED,
                 "%u tag record(s) had axes that are not finite or beyond the magnitude limit; taken from the nearest usable "
                 "frame of the tag (the identity when none is)", bad_axes);
    if (duplicates)
        iqi_warn(ctx, IQ_WARNING_DUPLICATE_NAME, "%u tag name(s) repeat an earlier tag's name; tagMatrix finds the first",
                 duplicates);
    if (renamed)
        iqi_warn(ctx, IQ_WARNING_NONSTANDARD, "%u tag record(s) after frame 0 have a different name; read by position",
                 renamed);
    if (skewed)
        iqi_warn(ctx, IQ_WARNING_REPAIRED,
                 "%u tag record(s) have axes that are not orthonormal; tag matrices orthonormalise them", skewed);
    return 1;
}

// -- Surfaces

/* Walks the surface chain, checking every header and section range before
 * anything is decoded, and lays the surfaces out in the model-wide arrays. */
static int walk_surfaces(md3_parser *p) {
    iqi_ctx *ctx = p->ctx;
    iqi_surface_chain *c = &p->chain;
    if (!iqi_surfaces_begin(ctx, c, p->surface_count, H_NUM_SURFACES, H_OFS_SURFACES, MD3_SURFACE_SIZE, p->tags)) return 0;
    if (!p->surface_count) return 1;
    p->surfaces = iqi_alloc(ctx, p->surface_count, sizeof(iqi_surface), "surface list");
    if (!p->surfaces) return 0;
    uint32_t bad_ident = 0, big_verts = 0, big_tris = 0, big_shaders = 0, no_tris = 0, no_shaders = 0;
    for (uint32_t i = 0; i < p->surface_count; i++) {
        iqi_surface *s = &p->surfaces[i];
        uint64_t at = c->at;
        if (!iqi_range_ok(p->size, at, 1, MD3_SURFACE_SIZE))
            return iqi_fail(ctx, IQ_ERROR_TRUNCATED, (int64_t)(at > p->size ? p->size : at),
                            "surface %u: its 108-byte header at offset %llu runs past the end of the %zu-byte file", i,
                            (unsigned long long)at, p->size);
        s->at = at;
        if (memcmp(p->d + at, "IDP3", 4) != 0) bad_ident++;
        uint32_t frames;
        if (!iqi_read_count(ctx, at + S_NUM_FRAMES, "a surface's frame count", &frames) ||
            !iqi_read_count(ctx, at + S_NUM_SHADERS, "a surface's shader count", &s->shaders) ||
            !iqi_read_count(ctx, at + S_NUM_VERTS, "a surface's vertex count", &s->verts) ||
            !iqi_read_count(ctx, at + S_NUM_TRIANGLES, "a surface's triangle count", &s->triangles))
            return 0;
        /* Engines index every surface with the header's frame numbers. */
        if (frames != p->frames)
            return iqi_fail(ctx, IQ_ERROR_BAD_ANIMATION, at + S_NUM_FRAMES,
                            "surface %u has %u frames, the header says %u", i, frames, p->frames);
        if (!iqi_read_section(ctx, at + S_OFS_SHADERS, at, "surface shaders", s->shaders, MD3_SHADER_SIZE, &s->shaders_at) ||
            !iqi_read_section(ctx, at + S_OFS_TRIANGLES, at, "surface triangles", s->triangles, MD3_TRIANGLE_SIZE,
                              &s->triangles_at) ||
            !iqi_read_section(ctx, at + S_OFS_ST, at, "surface texture coordinates", s->verts, MD3_ST_SIZE, &s->st_at) ||
            !iqi_read_section(ctx, at + S_OFS_XYZNORMAL, at, "surface vertices (all frames)", (uint64_t)s->verts * p->frames,
                              MD3_VERTEX_SIZE, &s->xyz_at))
            return 0;
        if (s->verts > MD3_MAX_VERTS) big_verts++;
        if (s->triangles > MD3_MAX_TRIANGLES) big_tris++;
        if (s->shaders > MD3_MAX_SHADERS) big_shaders++;
        if (!s->triangles) no_tris++;
        if (!s->shaders) no_shaders++;
        if (!iqi_surfaces_next(ctx, c, s, i, S_OFS_END)) return 0;
    }
    if (bad_ident) iqi_warn(ctx, IQ_WARNING_NONSTANDARD, "%u surface(s) have an ident other than \"IDP3\"", bad_ident);
    if (big_verts) iqi_warn(ctx, IQ_WARNING_OVER_LIMIT, "%u surface(s) have more than %d vertices", big_verts, MD3_MAX_VERTS);
    if (big_tris)
        iqi_warn(ctx, IQ_WARNING_OVER_LIMIT, "%u surface(s) have more than %d triangles", big_tris, MD3_MAX_TRIANGLES);
    if (big_shaders)
        iqi_warn(ctx, IQ_WARNING_OVER_LIMIT, "%u surface(s) have more than %d shaders", big_shaders, MD3_MAX_SHADERS);
    if (no_tris) iqi_warn(ctx, IQ_WARNING_EMPTY, "%u surface(s) have no triangles", no_tris);
    if (no_shaders) iqi_warn(ctx, IQ_WARNING_EMPTY, "%u surface(s) have no shaders", no_shaders);
    return 1;
}

static int decode_surfaces(md3_parser *p) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    uint32_t frames = p->frames;
    if (!p->surface_count) return 1;
    if (!iqi_surfaces_arrays(ctx, &p->chain, frames)) return 0;
    uint32_t nv = m->vertex_count;
    float sines[256];
    iqi_latlong_sines(sines);

    for (uint32_t i = 0; i < p->surface_count; i++) {
        const iqi_surface *s = &p->surfaces[i];
        if (!iqi_surface_decode(ctx, s, i, S_NAME, &p->unterminated_names)) return 0;

        /* Triangles: clockwise front faces, as IQM; kept in file order. */
        const uint8_t *tri = p->d + s->triangles_at;
        uint32_t *idx = m->indices ? m->indices + 3 * (size_t)s->first_triangle : NULL;
        for (uint32_t t = 0; t < 3 * s->triangles; t++) {
            int32_t v = iqi_i32(tri + 4 * t);
            if (v < 0 || (uint32_t)v >= s->verts)
                return iqi_fail(ctx, IQ_ERROR_BAD_INDEX, (tri - p->d) + 4 * t,
                                "surface %u ('%s'), triangle %u: vertex %d, but the surface has %u vertices", i,
                                m->meshes[i].name, t / 3, v, s->verts);
            idx[t] = s->first_vertex + (uint32_t)v;
        }

        const uint8_t *xyz = p->d + s->xyz_at;
        for (uint32_t f = 0; f < frames; f++) {
            size_t base = (size_t)f * nv + s->first_vertex;
            for (uint32_t v = 0; v < s->verts; v++, xyz += MD3_VERTEX_SIZE) {
                float *pos = m->frame_positions + 3 * (base + v);
                for (int k = 0; k < 3; k++) pos[k] = iqi_i16(xyz + 2 * k) * (1.0f / 64.0f);
                iqi_latlong_normal(iqi_u16(xyz + 6), sines, m->frame_normals + 3 * (base + v));
            }
        }
    }
    return 1;
}

int iqi_parse_md3(iqi_ctx *ctx) {
    md3_parser p;
    memset(&p, 0, sizeof p);
    p.ctx = ctx;
    if (!(read_header(&p) && read_frames(&p) && read_tags(&p) && walk_surfaces(&p) && decode_surfaces(&p) &&
          iqi_clip_all_frames(ctx)))
        return 0;
    iqi_frame_xy_radii(ctx->model);
    iqi_warn_unterminated_names(ctx, p.unterminated_names);
    return 1;
}
