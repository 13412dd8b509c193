/* MDC (Return to Castle Wolfenstein, Enemy Territory: compressed MD3,
 * "IDPC" version 2). Layout as the games' qfiles.h describes it: a 112-byte
 * header (name, flags, frame, tag, surface and skin counts, offsets of the
 * MD3 frame records, the tag names, the tags and the surfaces, the end),
 * tag names once (64 bytes each), tags per frame (int16 origin and
 * angles), and surfaces chained by their end offsets: a 124-byte header,
 * MD3 shaders, triangles and texture coordinates, the base frames' MD3
 * vertices (int16 xyz and a packed normal), the compressed frames' 32-bit
 * offsets, and per frame its base frame and compressed frame (-1: none).
 * Decisions: docs/API-md2.md.
 *
 * Decoded as the games' renderer decodes it (R_AddMDCSurfaces at a whole
 * frame): a frame's position is its base frame's int16 xyz / 64, plus, when
 * the frame has a compressed frame, the offset's bytes x, y, z as
 * ((byte - 127) * 0.05) each; its normal is then the compressed vector's top
 * byte in the games' table of 256 normals, otherwise the base frame's MD3
 * normal. A tag's origin is int16 / 64, its axes Quake's AnglesToAxis of
 * its angles * 360 / 32700 degrees. Triangles keep their order and winding
 * (clockwise front faces, as MD3). */
#include "formats/iq_vertex_formats.h"

#define MDC_HEADER_SIZE 112
#define MDC_SURFACE_SIZE 124
#define MDC_FRAME_SIZE 56
#define MDC_TAG_SIZE 12
#define MDC_NAME_SIZE 64
#define MDC_SHADER_SIZE 68
#define MDC_TRIANGLE_SIZE 12
#define MDC_ST_SIZE 8
#define MDC_XYZ_SIZE 8
#define MDC_COMP_SIZE 4
#define MDC_VERSION 2
#define MDC_MAX_OFS 127.0
#define MDC_DIST_SCALE 0.05
#define MDC_TAG_ANGLE_SCALE (360.0 / 32700.0)

enum {
    H_VERSION = 4, H_NUM_FRAMES = 76, H_NUM_TAGS = 80, H_NUM_SURFACES = 84, H_OFS_FRAMES = 92, H_OFS_TAG_NAMES = 96,
    H_OFS_TAGS = 100, H_OFS_SURFACES = 104, H_OFS_END = 108
};
enum {
    S_NAME = 4, S_NUM_COMP = 72, S_NUM_BASE = 76, S_NUM_SHADERS = 80, S_NUM_VERTS = 84, S_NUM_TRIANGLES = 88,
    S_OFS_TRIANGLES = 92, S_OFS_SHADERS = 96, S_OFS_ST = 100, S_OFS_XYZ = 104, S_OFS_COMP = 108, S_OFS_BASE_FRAMES = 112,
    S_OFS_COMP_FRAMES = 116, S_OFS_END = 120
};

typedef struct mdc_surface {
    iqi_surface s; /* as MD3's; xyz_at: the base frames */
    uint32_t comp, base;
    uint64_t comp_at, base_frames_at, comp_frames_at;
} mdc_surface;

typedef struct mdc_parser {
    iqi_ctx *ctx;
    const uint8_t *d;
    size_t size;
    uint32_t frames, tags, surface_count;
    iqi_surface_chain chain;
    mdc_surface *surfaces;
    float normals[256][3]; /* the games' table of compressed-frame normals */
    uint32_t unterminated_names;
} mdc_parser;

/* The 256 normals of compressed frames: a ring of 32 around the equator,
 * then rings of 28, 24, .. 4 at 11.25-degree steps below it, then the same
 * above it, each ring from azimuth 0 in equal steps (the games' table, built
 * here from that rule). */
static void build_normals(float out[256][3]) {
    const double pi = 3.14159265358979323846;
    int i = 0;
    for (int side = 0; side < 3; side++) {
        for (int k = side == 0 ? 0 : 1; k <= (side == 0 ? 0 : 7); k++) {
            int n = 32 - 4 * k;
            double z = (side == 1 ? -1 : 1) * sin(k * pi / 16), r = cos(k * pi / 16);
            for (int j = 0; j < n; j++, i++) {
                out[i][0] = (float)(r * cos(2 * pi * j / n));
                out[i][1] = (float)(r * sin(2 * pi * j / n));
                out[i][2] = (float)z;
            }
        }
    }
}

// -- Header, frames, tags

static int read_header(mdc_parser *p) {
    iqi_ctx *ctx = p->ctx;
    if (ctx->size < MDC_HEADER_SIZE)
        return iqi_fail(ctx, IQ_ERROR_TRUNCATED, 0, "the MDC header needs 112 bytes, the file has %zu", ctx->size);
    if (memcmp(ctx->data, "IDPC", 4) != 0) return iqi_fail(ctx, IQ_ERROR_BAD_MAGIC, 0, "the ident is not \"IDPC\"");
    p->d = ctx->data;
    p->size = ctx->size;
    int32_t version = iqi_i32(p->d + H_VERSION);
    if (version != MDC_VERSION)
        return iqi_fail(ctx, IQ_ERROR_BAD_VERSION, H_VERSION, "version %d; only version 2 is supported", version);
    if (!iqi_read_count(ctx, H_NUM_FRAMES, "the frame count", &p->frames) || !iqi_read_count(ctx, H_NUM_TAGS, "the tag count", &p->tags) ||
        !iqi_read_count(ctx, H_NUM_SURFACES, "the surface count", &p->surface_count))
        return 0;
    if (!iqi_check_frame_count(ctx, H_NUM_FRAMES, p->frames)) return 0;
    if (p->tags > ctx->limits.max_joints)
        return iqi_fail(ctx, IQ_ERROR_LIMIT, H_NUM_TAGS, "%u tags; the limit is %u", p->tags, ctx->limits.max_joints);
    return iqi_check_end_offset(ctx, H_OFS_END, MDC_HEADER_SIZE);
}

static int read_frames(mdc_parser *p) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    uint64_t at;
    if (!iqi_read_section(ctx, H_OFS_FRAMES, 0, "frames", p->frames, MDC_FRAME_SIZE, &at)) return 0;
    m->frame_count = p->frames;
    m->frame_bounds = iqi_alloc(ctx, p->frames, sizeof(iq_bounds), "frame bounds");
    m->frame_info = iqi_alloc(ctx, p->frames, sizeof(iq_frame_info), "frame info");
    char *names = iqi_alloc(ctx, p->frames, 17, "frame names");
    if (!m->frame_bounds || !m->frame_info || !names) return 0;
    for (uint32_t f = 0; f < p->frames; f++, at += MDC_FRAME_SIZE) {
        const uint8_t *r = p->d + at;
        float v[10];
        int usable = 1;
        for (int k = 0; k < 10; k++) usable &= iqi_usable(ctx, v[k] = iqi_f32(r + 4 * k));
        iq_bounds *b = &m->frame_bounds[f];
        memcpy(b->min, v, sizeof b->min);
        memcpy(b->max, v + 3, sizeof b->max);
        b->radius = v[9];
        if (!usable) { /* as MD3: recomputed from the frame's vertices (iq_numbers.c) */
            iqi_mark_bounds_unusable(b);
            v[6] = v[7] = v[8] = 0;
        }
        memcpy(m->frame_info[f].local_origin, v + 6, 3 * sizeof(float));
        m->frame_info[f].name = iqi_copy_name(r + 40, 16, names + (size_t)f * 17, &p->unterminated_names);
    }
    return 1;
}

/* Quake's AnglesToAxis (pitch, yaw, roll in degrees): forward, left (minus right), up. */
static void angles_to_axis(const double a[3], double axis[3][3]) {
    const double k = 3.14159265358979323846 / 180;
    double sp = sin(a[0] * k), cp = cos(a[0] * k), sy = sin(a[1] * k), cy = cos(a[1] * k), sr = sin(a[2] * k), cr = cos(a[2] * k);
    double right[3] = {-sr * sp * cy + cr * sy, -sr * sp * sy - cr * cy, -sr * cp};
    axis[0][0] = cp * cy, axis[0][1] = cp * sy, axis[0][2] = -sp;
    for (int i = 0; i < 3; i++) axis[1][i] = -right[i];
    axis[2][0] = cr * sp * cy + sr * sy, axis[2][1] = cr * sp * sy - sr * cy, axis[2][2] = cr * cp;
}

static int read_tags(mdc_parser *p) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    uint64_t names_at, tags_at;
    if (!iqi_read_section(ctx, H_OFS_TAG_NAMES, 0, "tag names", p->tags, MDC_NAME_SIZE, &names_at) ||
        !iqi_read_section(ctx, H_OFS_TAGS, 0, "tags", (uint64_t)p->tags * p->frames, MDC_TAG_SIZE, &tags_at))
        return 0;
    if (!p->tags) return 1;
    m->tag_names = iqi_alloc(ctx, p->tags, sizeof(char *), "tag names");
    char *names = iqi_alloc(ctx, p->tags, MDC_NAME_SIZE + 1, "tag name text");
    m->tag_transforms = iqi_alloc(ctx, (uint64_t)p->frames * p->tags, 12 * sizeof(float), "tag transforms");
    if (!m->tag_names || !names || !m->tag_transforms) return 0;
    m->tag_count = p->tags;
    for (uint32_t t = 0; t < p->tags; t++)
        m->tag_names[t] = iqi_copy_name(p->d + names_at + (size_t)t * MDC_NAME_SIZE, MDC_NAME_SIZE,
                                        names + (size_t)t * (MDC_NAME_SIZE + 1), &p->unterminated_names);
    for (uint64_t i = 0; i < (uint64_t)p->frames * p->tags; i++) {
        const uint8_t *r = p->d + tags_at + i * MDC_TAG_SIZE;
        double angles[3], axis[3][3];
        float *out = m->tag_transforms + 12 * i;
        for (int k = 0; k < 3; k++) angles[k] = iqi_i16(r + 6 + 2 * k) * MDC_TAG_ANGLE_SCALE;
        angles_to_axis(angles, axis);
        for (int row = 0; row < 3; row++) {
            for (int a = 0; a < 3; a++) out[4 * row + a] = (float)axis[a][row];
            out[4 * row + 3] = iqi_i16(r + 2 * row) * (1.0f / 64.0f);
        }
    }
    return 1;
}

// -- Surfaces

static int walk_surfaces(mdc_parser *p) {
    iqi_ctx *ctx = p->ctx;
    iqi_surface_chain *c = &p->chain;
    if (!iqi_surfaces_begin(ctx, c, p->surface_count, H_NUM_SURFACES, H_OFS_SURFACES, MDC_SURFACE_SIZE, p->tags)) return 0;
    if (!p->surface_count) return 1;
    p->surfaces = iqi_alloc(ctx, p->surface_count, sizeof(mdc_surface), "surface list");
    if (!p->surfaces) return 0;
    for (uint32_t i = 0; i < p->surface_count; i++) {
        mdc_surface *ms = &p->surfaces[i];
        iqi_surface *s = &ms->s;
        uint64_t at = c->at;
        if (!iqi_range_ok(p->size, at, 1, MDC_SURFACE_SIZE))
            return iqi_fail(ctx, IQ_ERROR_TRUNCATED, (int64_t)(at > p->size ? p->size : at),
                            "surface %u: its 124-byte header at offset %llu runs past the end of the file", i, (unsigned long long)at);
        s->at = at;
        if (!iqi_read_count(ctx, at + S_NUM_COMP, "a surface's compressed frame count", &ms->comp) ||
            !iqi_read_count(ctx, at + S_NUM_BASE, "a surface's base frame count", &ms->base) ||
            !iqi_read_count(ctx, at + S_NUM_SHADERS, "a surface's shader count", &s->shaders) ||
            !iqi_read_count(ctx, at + S_NUM_VERTS, "a surface's vertex count", &s->verts) ||
            !iqi_read_count(ctx, at + S_NUM_TRIANGLES, "a surface's triangle count", &s->triangles))
            return 0;
        if (!ms->base && s->verts)
            return iqi_fail(ctx, IQ_ERROR_BAD_ANIMATION, (int64_t)(at + S_NUM_BASE), "surface %u has vertices but no base frame", i);
        if (!iqi_read_section(ctx, at + S_OFS_SHADERS, at, "surface shaders", s->shaders, MDC_SHADER_SIZE, &s->shaders_at) ||
            !iqi_read_section(ctx, at + S_OFS_TRIANGLES, at, "surface triangles", s->triangles, MDC_TRIANGLE_SIZE, &s->triangles_at) ||
            !iqi_read_section(ctx, at + S_OFS_ST, at, "surface texture coordinates", s->verts, MDC_ST_SIZE, &s->st_at) ||
            !iqi_read_section(ctx, at + S_OFS_XYZ, at, "surface base frames", (uint64_t)s->verts * ms->base, MDC_XYZ_SIZE, &s->xyz_at) ||
            !iqi_read_section(ctx, at + S_OFS_COMP, at, "surface compressed frames", (uint64_t)s->verts * ms->comp, MDC_COMP_SIZE, &ms->comp_at) ||
            !iqi_read_section(ctx, at + S_OFS_BASE_FRAMES, at, "surface frame base frames", p->frames, 2, &ms->base_frames_at) ||
            !iqi_read_section(ctx, at + S_OFS_COMP_FRAMES, at, "surface frame compressed frames", p->frames, 2, &ms->comp_frames_at))
            return 0;
        /* Every frame names a base frame and a compressed frame (or -1) the surface has. */
        for (uint32_t f = 0; f < p->frames && s->verts; f++) {
            int32_t b = iqi_i16(p->d + ms->base_frames_at + 2 * (size_t)f), cf = iqi_i16(p->d + ms->comp_frames_at + 2 * (size_t)f);
            if (b < 0 || (uint32_t)b >= ms->base)
                return iqi_fail(ctx, IQ_ERROR_BAD_INDEX, (int64_t)(ms->base_frames_at + 2 * (uint64_t)f),
                                "surface %u, frame %u: base frame %d, but the surface has %u", i, f, b, ms->base);
            if (cf < -1 || (cf >= 0 && (uint32_t)cf >= ms->comp))
                return iqi_fail(ctx, IQ_ERROR_BAD_INDEX, (int64_t)(ms->comp_frames_at + 2 * (uint64_t)f),
                                "surface %u, frame %u: compressed frame %d, but the surface has %u", i, f, cf, ms->comp);
        }
        if (!iqi_surfaces_next(ctx, c, s, i, S_OFS_END)) return 0;
    }
    return 1;
}

static int decode_surfaces(mdc_parser *p) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    if (!p->surface_count) return 1;
    if (!iqi_surfaces_arrays(ctx, &p->chain, p->frames)) return 0;
    uint32_t nv = m->vertex_count;
    float sines[256];
    iqi_latlong_sines(sines);
    for (uint32_t i = 0; i < p->surface_count; i++) {
        const mdc_surface *ms = &p->surfaces[i];
        const iqi_surface *s = &ms->s;
        if (!iqi_surface_decode(ctx, s, i, S_NAME, &p->unterminated_names)) return 0;
        for (uint32_t t = 0; t < 3 * s->triangles; t++) {
            const uint8_t *r = p->d + s->triangles_at + 4 * (size_t)t;
            int32_t v = iqi_i32(r);
            if (v < 0 || (uint32_t)v >= s->verts)
                return iqi_fail(ctx, IQ_ERROR_BAD_INDEX, r - p->d, "surface %u ('%s'), triangle %u: vertex %d, but the surface has %u",
                                i, m->meshes[i].name, t / 3, v, s->verts);
            m->indices[3 * (size_t)s->first_triangle + t] = s->first_vertex + (uint32_t)v;
        }
        for (uint32_t f = 0; f < p->frames && s->verts; f++) {
            uint32_t base = (uint32_t)iqi_i16(p->d + ms->base_frames_at + 2 * (size_t)f);
            int32_t comp = iqi_i16(p->d + ms->comp_frames_at + 2 * (size_t)f);
            const uint8_t *xyz = p->d + s->xyz_at + (size_t)base * s->verts * MDC_XYZ_SIZE;
            const uint8_t *ofs = comp >= 0 ? p->d + ms->comp_at + (size_t)comp * s->verts * MDC_COMP_SIZE : NULL;
            for (uint32_t v = 0; v < s->verts; v++) {
                size_t o = 3 * ((size_t)f * nv + s->first_vertex + v);
                float *pos = m->frame_positions + o, *n = m->frame_normals + o;
                const uint8_t *r = xyz + (size_t)v * MDC_XYZ_SIZE;
                for (int k = 0; k < 3; k++) pos[k] = iqi_i16(r + 2 * k) * (1.0f / 64.0f);
                if (ofs) {
                    uint32_t vec = iqi_u32(ofs + (size_t)v * MDC_COMP_SIZE);
                    for (int k = 0; k < 3; k++) pos[k] += (float)(((double)((vec >> (8 * k)) & 255) - MDC_MAX_OFS) * MDC_DIST_SCALE);
                    memcpy(n, p->normals[vec >> 24], 3 * sizeof(float));
                } else {
                    iqi_latlong_normal(iqi_u16(r + 6), sines, n); /* the base frame's MD3 normal */
                }
            }
        }
    }
    return 1;
}

int iqi_parse_mdc(iqi_ctx *ctx) {
    mdc_parser p;
    memset(&p, 0, sizeof p);
    p.ctx = ctx;
    build_normals(p.normals);
    if (!(read_header(&p) && read_frames(&p) && read_tags(&p) && walk_surfaces(&p) && decode_surfaces(&p) &&
          iqi_clip_all_frames(ctx)))
        return 0;
    iqi_frame_xy_radii(ctx->model); /* as MD3's */
    iqi_warn_unterminated_names(ctx, p.unterminated_names);
    return 1;
}
