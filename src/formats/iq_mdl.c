/* Quake 1 MDL ("IDPO" version 6, vertex animated). Layout as Quake's
 * modelgen.h describes it: an 84-byte header (scale, origin, radius, eye
 * position, the skin count and size, vertex, triangle and frame counts, sync
 * type, flags, size), then the skins (each a type int: 0 one 8-bit picture of
 * width x height palette indices, otherwise a group: a count, that many
 * float intervals and pictures), the texture vertices (on-seam flag, s, t as
 * int32), the triangles (faces-front flag, three int32 vertex indices), and
 * the frames (each a type int: 0 one frame, otherwise a group: a count, a
 * box, the intervals and the frames; a frame is a box of two 4-byte vertex
 * records, a 16-byte name and one 4-byte record per vertex: x, y, z bytes
 * and an index into the 162 normals). Positions are byte * scale + origin.
 * Decisions: docs/API-mdl.md.
 *
 * The skin seam, as Quake and DarkPlaces split it: a texture vertex flagged
 * on-seam that a back-facing triangle (faces-front 0) uses takes its s half
 * a skin to the right, so it is a separate model vertex there. Model
 * vertices are numbered in first use, the triangles keep the file's order
 * and winding (clockwise front faces, as IQM and MD3).
 *
 * Skins are decoded to RGBA through Quake's palette (iq_quake_palette.c);
 * every picture of a skin group is an image, with its interval. Frame groups
 * (torches, flames: pictures the engine cycles on its own clock) become
 * frames in order, one clip per group, their intervals on the frames. */
#include "formats/iq_vertex_formats.h"
#include <stdio.h>

#define MDL_HEADER_SIZE 84
#define MDL_STVERT_SIZE 12
#define MDL_TRIANGLE_SIZE 16
#define MDL_FRAME_HEADER_SIZE 24 /* box (2 x 4 bytes) and a 16-byte name */
#define MDL_FRAME_NAME_SIZE 16
#define MDL_VERSION 6
/* Single frames play at Quake's 10 Hz think rate (its monsters step a frame per 0.1 s). */
#define MDL_FRAMERATE 10.0f

/* GLQuake's limits (gl_model.h, modelgen.h); Quake refuses files over them,
 * later engines raised them: over is a warning here. */
#define MDL_MAX_VERTS 1024
#define MDL_MAX_TRIANGLES 2048
#define MDL_MAX_FRAMES 256
#define MDL_MAX_SKINS 32

enum {
    H_IDENT = 0, H_VERSION = 4, H_SCALE = 8, H_ORIGIN = 20, H_RADIUS = 32, H_EYE = 36, H_NUM_SKINS = 48,
    H_SKIN_WIDTH = 52, H_SKIN_HEIGHT = 56, H_NUM_VERTS = 60, H_NUM_TRIS = 64, H_NUM_FRAMES = 68, H_SYNCTYPE = 72,
    H_FLAGS = 76, H_SIZE = 80
};

typedef struct mdl_parser {
    iqi_ctx *ctx;
    const uint8_t *d;
    size_t size;
    float scale[3], origin[3];
    uint32_t skins, width, height, verts, tris, file_frames;
    uint64_t skins_at, st_at, tris_at, frames_at, pixels; /* pixels: width * height */
    uint32_t pictures, frames;                            /* skin pictures and frames, groups flattened */
    uint32_t *remap;                                      /* 2 * verts: file vertex (+ verts on the back seam) -> model vertex */
    uint32_t *source;                                     /* per model vertex: its file vertex (+ verts on the back seam) */
    uint32_t unterminated_names, repaired_intervals, bad_normals;
} mdl_parser;

/* The next `bytes` bytes at *at must be in the file. */
static int need(mdl_parser *p, uint64_t at, uint64_t count, uint64_t elem, const char *what) {
    if (iqi_range_ok(p->size, at, count, elem)) return 1;
    return iqi_fail(p->ctx, IQ_ERROR_TRUNCATED, (int64_t)(at < p->size ? at : p->size),
                    "%s (%llu x %llu bytes at offset %llu) runs past the end of the %zu-byte file", what,
                    (unsigned long long)count, (unsigned long long)elem, (unsigned long long)at, p->size);
}

/* A group's intervals (cumulative end times, as the engines read them):
 * unusable ones (not finite, or not at least a millisecond past the
 * previous: DarkPlaces replaces intervals under 0.01 s) are repaired to
 * 0.1 s steps, so a group's clip plays at most 1000 frames a second. */
static void read_intervals(mdl_parser *p, const uint8_t *src, uint32_t n, float *out) {
    float prev = 0;
    int usable = 1;
    for (uint32_t k = 0; k < n; k++) {
        float v = iqi_f32(src + 4 * (size_t)k);
        if (!(v >= prev + 0.001f) || !iqi_usable(p->ctx, v)) usable = 0;
        if (out) out[k] = v;
        prev = v;
    }
    if (usable) return;
    p->repaired_intervals++;
    for (uint32_t k = 0; out && k < n; k++) out[k] = 0.1f * (float)(k + 1);
}

// -- Header

static int read_header(mdl_parser *p) {
    iqi_ctx *ctx = p->ctx;
    if (ctx->size < MDL_HEADER_SIZE)
        return iqi_fail(ctx, IQ_ERROR_TRUNCATED, 0, "the MDL header needs 84 bytes, the file has %zu", ctx->size);
    if (memcmp(ctx->data, "IDPO", 4) != 0) return iqi_fail(ctx, IQ_ERROR_BAD_MAGIC, 0, "the ident is not \"IDPO\"");
    p->d = ctx->data;
    p->size = ctx->size;
    int32_t version = iqi_i32(p->d + H_VERSION);
    if (version != MDL_VERSION)
        return iqi_fail(ctx, IQ_ERROR_BAD_VERSION, H_VERSION, "version %d; Quake's MDL is version 6", version);
    for (int k = 0; k < 3; k++) {
        p->scale[k] = iqi_f32(p->d + H_SCALE + 4 * k);
        p->origin[k] = iqi_f32(p->d + H_ORIGIN + 4 * k);
        if (!iqi_usable(ctx, p->scale[k]))
            return iqi_fail_value(ctx, H_SCALE + 4 * k, 0, p->scale[k], "the scale's value %d", k);
        if (!iqi_usable(ctx, p->origin[k]) || !iqi_usable(ctx, (double)p->origin[k] + 255.0 * p->scale[k]))
            return iqi_fail_value(ctx, H_ORIGIN + 4 * k, 0, (double)p->origin[k] + 255.0 * p->scale[k],
                                  "the origin's value %d (with 255 x scale)", k);
    }
    if (!iqi_read_count(ctx, H_NUM_SKINS, "the skin count", &p->skins) ||
        !iqi_read_count(ctx, H_SKIN_WIDTH, "the skin width", &p->width) ||
        !iqi_read_count(ctx, H_SKIN_HEIGHT, "the skin height", &p->height) ||
        !iqi_read_count(ctx, H_NUM_VERTS, "the vertex count", &p->verts) ||
        !iqi_read_count(ctx, H_NUM_TRIS, "the triangle count", &p->tris) ||
        !iqi_read_count(ctx, H_NUM_FRAMES, "the frame count", &p->file_frames))
        return 0;
    if (p->file_frames == 0) return iqi_fail(ctx, IQ_ERROR_BAD_ANIMATION, H_NUM_FRAMES, "the model has no frames");
    if (p->skins && (p->width == 0 || p->height == 0))
        return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, H_SKIN_WIDTH, "%u skins of %ux%u pixels", p->skins, p->width, p->height);
    if (p->width > IQ_TGA_MAX_DIMENSION || p->height > IQ_TGA_MAX_DIMENSION)
        return iqi_fail(ctx, IQ_ERROR_LIMIT, H_SKIN_WIDTH, "a %ux%u skin; the limit is %d on a side", p->width, p->height,
                        IQ_TGA_MAX_DIMENSION);
    p->pixels = (uint64_t)p->width * p->height;
    if (p->verts > MDL_MAX_VERTS) iqi_warn(ctx, IQ_WARNING_OVER_LIMIT, "%u vertices; GLQuake allows %d", p->verts, MDL_MAX_VERTS);
    if (p->tris > MDL_MAX_TRIANGLES)
        iqi_warn(ctx, IQ_WARNING_OVER_LIMIT, "%u triangles; GLQuake allows %d", p->tris, MDL_MAX_TRIANGLES);
    if (p->skins > MDL_MAX_SKINS) iqi_warn(ctx, IQ_WARNING_OVER_LIMIT, "%u skins; Quake allows %d", p->skins, MDL_MAX_SKINS);
    if (!p->tris) iqi_warn(ctx, IQ_WARNING_EMPTY, "the model has no triangles");
    return 1;
}

// -- The walk: every section's place, before anything is allocated

static int walk(mdl_parser *p) {
    iqi_ctx *ctx = p->ctx;
    uint64_t at = MDL_HEADER_SIZE;
    p->skins_at = at;
    /* Each skin takes at least its type and one picture: a larger count is found before the loop. */
    if (p->skins && p->skins > p->size / (4 + p->pixels))
        return iqi_fail(ctx, IQ_ERROR_TRUNCATED, H_NUM_SKINS, "%u skins of %ux%u cannot fit in %zu bytes", p->skins, p->width,
                        p->height, p->size);
    for (uint32_t s = 0; s < p->skins; s++) {
        if (!need(p, at, 1, 4, "a skin's type")) return 0;
        uint32_t n = 1;
        if (iqi_i32(p->d + at) != 0) {
            at += 4;
            if (!need(p, at, 1, 4, "a skin group's count")) return 0;
            int32_t count = iqi_i32(p->d + at);
            if (count <= 0) return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, at, "skin %u: a group of %d pictures", s, count);
            n = (uint32_t)count;
            at += 4;
            if (!need(p, at, n, 4, "a skin group's intervals")) return 0;
            at += 4 * (uint64_t)n;
        } else {
            at += 4;
        }
        if (!need(p, at, n, p->pixels, "skin pictures")) return 0;
        at += n * p->pixels;
        p->pictures += n;
    }
    p->st_at = at;
    if (!need(p, at, p->verts, MDL_STVERT_SIZE, "texture vertices")) return 0;
    at += (uint64_t)p->verts * MDL_STVERT_SIZE;
    p->tris_at = at;
    if (!need(p, at, p->tris, MDL_TRIANGLE_SIZE, "triangles")) return 0;
    at += (uint64_t)p->tris * MDL_TRIANGLE_SIZE;
    p->frames_at = at;
    uint64_t frame_size = MDL_FRAME_HEADER_SIZE + 4 * (uint64_t)p->verts;
    if (p->file_frames > p->size / 4)
        return iqi_fail(ctx, IQ_ERROR_TRUNCATED, H_NUM_FRAMES, "%u frames cannot fit in %zu bytes", p->file_frames, p->size);
    uint64_t frames = 0;
    for (uint32_t f = 0; f < p->file_frames; f++) {
        if (!need(p, at, 1, 4, "a frame's type")) return 0;
        uint64_t n = 1;
        if (iqi_i32(p->d + at) != 0) {
            at += 4;
            if (!need(p, at, 1, 12, "a frame group's header")) return 0;
            int32_t count = iqi_i32(p->d + at);
            if (count <= 0) return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, at, "frame %u: a group of %d frames", f, count);
            n = (uint32_t)count;
            at += 12;
            if (!need(p, at, n, 4, "a frame group's intervals")) return 0;
            at += 4 * n;
        } else {
            at += 4;
        }
        if (!need(p, at, n, frame_size, "frames")) return 0;
        at += n * frame_size;
        frames += n;
        if (frames > ctx->limits.max_frames)
            return iqi_fail(ctx, IQ_ERROR_LIMIT, H_NUM_FRAMES, "over %u frames (groups counted); the limit is %u",
                            ctx->limits.max_frames, ctx->limits.max_frames);
    }
    p->frames = (uint32_t)frames;
    if (p->file_frames > MDL_MAX_FRAMES)
        iqi_warn(ctx, IQ_WARNING_OVER_LIMIT, "%u frames; Quake allows %d", p->file_frames, MDL_MAX_FRAMES);
    if (at < p->size) iqi_warn(ctx, IQ_WARNING_TRAILING_BYTES, "%llu bytes after the last frame were ignored",
                               (unsigned long long)(p->size - at));
    return 1;
}

// -- Triangles: the seam split

static int read_triangles(mdl_parser *p) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    uint32_t corners = 3 * p->tris;
    if (!corners) return 1;
    p->remap = iqi_alloc(ctx, 2 * (uint64_t)p->verts, sizeof(uint32_t), "vertex remap");
    p->source = iqi_alloc(ctx, corners, sizeof(uint32_t), "vertex sources");
    m->indices = iqi_alloc(ctx, corners, sizeof(uint32_t), "indices");
    if (!p->remap || !p->source || !m->indices) return 0;
    for (uint64_t i = 0; i < 2 * (uint64_t)p->verts; i++) p->remap[i] = UINT32_MAX;
    uint32_t vertices = 0;
    for (uint32_t t = 0; t < p->tris; t++) {
        const uint8_t *r = p->d + p->tris_at + (size_t)t * MDL_TRIANGLE_SIZE;
        int back = iqi_i32(r) == 0;
        for (int k = 0; k < 3; k++) {
            int32_t v = iqi_i32(r + 4 + 4 * k);
            if (v < 0 || (uint32_t)v >= p->verts)
                return iqi_fail(ctx, IQ_ERROR_BAD_INDEX, (r - p->d) + 4 + 4 * k, "triangle %u: vertex %d, but the model has %u",
                                t, v, p->verts);
            uint32_t key = (uint32_t)v;
            if (back && iqi_i32(p->d + p->st_at + (size_t)v * MDL_STVERT_SIZE) != 0) key += p->verts;
            if (p->remap[key] == UINT32_MAX) {
                p->remap[key] = vertices;
                p->source[vertices++] = key;
            }
            m->indices[3 * (size_t)t + k] = p->remap[key];
        }
    }
    m->vertex_count = vertices;
    m->triangle_count = p->tris;
    return 1;
}

// -- Skins

static int read_skins(mdl_parser *p) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    if (!iqi_single_mesh(ctx)) return 0;
    if (!p->pictures) return 1;
    m->images = iqi_alloc(ctx, p->pictures, sizeof(iq_model_image), "skin images");
    m->shaders = iqi_alloc(ctx, p->skins, sizeof(iq_shader), "skins");
    if (!m->images || !m->shaders) return 0;
    m->image_count = p->pictures;
    m->shader_count = p->skins;
    uint64_t at = p->skins_at;
    uint32_t image = 0;
    for (uint32_t s = 0; s < p->skins; s++) {
        uint32_t n = 1;
        float *intervals = NULL;
        if (iqi_i32(p->d + at) != 0) {
            n = (uint32_t)iqi_i32(p->d + at + 4);
            if (!(intervals = iqi_alloc(ctx, n, sizeof(float), "skin intervals"))) return 0;
            read_intervals(p, p->d + at + 8, n, intervals);
            at += 8 + 4 * (uint64_t)n;
        } else {
            at += 4;
        }
        /* The skin's name is its first picture's: what mesh.material and the images share. */
        for (uint32_t k = 0; k < n; k++, image++, at += p->pixels) {
            iq_model_image *img = &m->images[image];
            char *name = iqi_alloc(ctx, 32, 1, "skin name");
            uint8_t *rgba = iqi_alloc(ctx, p->pixels, 4, "skin pixels");
            if (!name || !rgba) return 0;
            if (intervals) snprintf(name, 32, "skin%u_%u", s, k);
            else snprintf(name, 32, "skin%u", s);
            const uint8_t *src = p->d + at;
            for (uint64_t i = 0; i < p->pixels; i++) {
                memcpy(rgba + 4 * i, iqi_quake_palette + 3 * (size_t)src[i], 3);
                rgba[4 * i + 3] = 255;
            }
            *img = (iq_model_image){name, p->width, p->height, rgba, s, intervals ? intervals[k] : 0.0f};
        }
        m->shaders[s] = (iq_shader){m->images[image - n].name, (int32_t)s, 0};
    }
    m->meshes[0].material = m->shaders[0].name;
    return 1;
}

// -- Texture coordinates and frames

static void read_texcoords(mdl_parser *p) {
    iq_model *m = p->ctx->model;
    for (uint32_t v = 0; v < m->vertex_count; v++) {
        uint32_t key = p->source[v], file = key % p->verts;
        const uint8_t *st = p->d + p->st_at + (size_t)file * MDL_STVERT_SIZE;
        double s = iqi_i32(st + 4), t = iqi_i32(st + 8);
        if (key >= p->verts) s += p->width / 2; /* the back of the seam: half a skin to the right */
        m->texcoords[2 * v] = p->width ? (float)(s / p->width) : 0.0f;
        m->texcoords[2 * v + 1] = p->height ? (float)(t / p->height) : 0.0f;
    }
}

static void decode_frame(mdl_parser *p, const uint8_t *rec, uint32_t frame, char *name_out) {
    iq_model *m = p->ctx->model;
    uint32_t nv = m->vertex_count;
    m->frame_info[frame].name = iqi_copy_name(rec + 8, MDL_FRAME_NAME_SIZE, name_out, &p->unterminated_names);
    float *pos = nv ? m->frame_positions + 3 * (size_t)frame * nv : NULL;
    float *nrm = nv ? m->frame_normals + 3 * (size_t)frame * nv : NULL;
    iqi_decode_byte_vertices(rec + MDL_FRAME_HEADER_SIZE, p->verts, p->source, nv, p->scale, p->origin, pos, nrm, &p->bad_normals);
    /* The stored box (bytes, decoded like the vertices); the radii from the vertices. */
    iq_bounds *b = &m->frame_bounds[frame];
    iqi_points_bounds(pos, pos ? nv : 0, b);
    for (int k = 0; k < 3; k++) {
        b->min[k] = rec[k] * p->scale[k] + p->origin[k];
        b->max[k] = rec[4 + k] * p->scale[k] + p->origin[k];
    }
}

static int read_frames(mdl_parser *p) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    uint32_t nv = m->vertex_count, frames = p->frames;
    m->frame_count = frames;
    m->frame_info = iqi_alloc(ctx, frames, sizeof(iq_frame_info), "frame info");
    m->frame_bounds = iqi_alloc(ctx, frames, sizeof(iq_bounds), "frame bounds");
    char *names = iqi_alloc(ctx, frames, MDL_FRAME_NAME_SIZE + 1, "frame names");
    uint8_t *group_part = iqi_alloc(ctx, frames, 1, "frame groups");
    float *group_rate = iqi_alloc(ctx, frames, sizeof(float), "frame group rates");
    if (!m->frame_info || !m->frame_bounds || !names || !group_part || !group_rate) return 0;
    if (!iqi_alloc_vertex_frames(ctx, frames, 1)) return 0;
    if (nv) read_texcoords(p);
    uint64_t at = p->frames_at, frame_size = MDL_FRAME_HEADER_SIZE + 4 * (uint64_t)p->verts;
    uint32_t frame = 0;
    for (uint32_t f = 0; f < p->file_frames; f++) {
        if (iqi_i32(p->d + at) == 0) {
            decode_frame(p, p->d + at + 4, frame, names + (size_t)frame * (MDL_FRAME_NAME_SIZE + 1));
            frame++;
            at += 4 + frame_size;
            continue;
        }
        uint32_t n = (uint32_t)iqi_i32(p->d + at + 4);
        float *intervals = group_rate + frame; /* borrowed for the intervals, then the rate is put in place */
        read_intervals(p, p->d + at + 16, n, intervals);
        at += 16 + 4 * (uint64_t)n;
        float last = intervals[n - 1];
        for (uint32_t k = 0; k < n; k++, frame++, at += frame_size) {
            decode_frame(p, p->d + at, frame, names + (size_t)frame * (MDL_FRAME_NAME_SIZE + 1));
            m->frame_info[frame].interval = intervals[k];
            group_part[frame] = k ? 2 : 1;
        }
        /* A group plays its frames over its last interval: the clip's rate is the mean. */
        group_rate[frame - n] = (float)n / last;
    }
    if (p->repaired_intervals)
        iqi_warn(ctx, IQ_WARNING_REPAIRED, "%u group(s) have intervals that are not finite or do not increase; set to 0.1 s steps",
                 p->repaired_intervals);
    iqi_warn_bad_normals(ctx, p->bad_normals);
    return iqi_clips_from_frame_names(ctx, MDL_FRAMERATE, group_part, group_rate);
}

int iqi_parse_mdl(iqi_ctx *ctx) {
    mdl_parser p;
    memset(&p, 0, sizeof p);
    p.ctx = ctx;
    if (!(read_header(&p) && walk(&p) && read_triangles(&p) && read_skins(&p) && read_frames(&p))) return 0;
    iqi_warn_unterminated_names(ctx, p.unterminated_names);
    return 1;
}
