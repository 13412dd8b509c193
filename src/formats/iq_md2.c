/* MD2 (Quake 2, vertex animated). Layout as Quake 2's qfiles.h describes it:
 * a 68-byte header of 17 little-endian int32 (ident "IDP2", version 8, skin
 * width and height, the frame record's size, the counts of skins, vertices,
 * texture coordinates, triangles, GL commands and frames, their offsets and
 * the end offset), then 64-byte skin names, int16 s/t pairs, triangles of
 * three int16 vertex indices and three int16 texture-coordinate indices, and
 * per frame a float scale and translate, a 16-byte name and one 4-byte
 * record per vertex (x, y, z bytes and an index into the 162 normals).
 * Decisions: docs/API-md2.md.
 *
 * A triangle corner names a position and a texture coordinate separately;
 * a model vertex is one distinct (position, texture coordinate) pair, found
 * through a hash table in first-use order, so the work is linear in the
 * triangle count. Triangles keep the file's order and winding: clockwise
 * front faces, as IQM and MD3 (the normals of 723 of UFO:AI's 859 files
 * agree with that winding; the rest are mixed).
 *
 * The GL command list is a second copy of the triangles for Quake 2's
 * renderer (strips and fans with float texture coordinates): not decoded,
 * but it must lie inside the file, as Quake 2's renderer reads it. */
#include "formats/iq_vertex_formats.h"

#define MD2_HEADER_SIZE 68
#define MD2_SKIN_SIZE 64
#define MD2_ST_SIZE 4
#define MD2_TRIANGLE_SIZE 12
#define MD2_FRAME_HEADER_SIZE 40
#define MD2_FRAME_NAME_SIZE 16
#define MD2_VERSION 8
/* Quake 2's clip rate: its game code steps monster and player frames at the 10 Hz server tick. */
#define MD2_FRAMERATE 10.0f

/* Quake 2's limits (qfiles.h). Its renderer refuses files over the vertex
 * and skin limits; later engines (UFO:AI, Q2PRO) raised them, and shipped
 * UFO:AI files have 1007 frames, so going over is a warning here. */
#define MD2_MAX_TRIANGLES 4096
#define MD2_MAX_VERTS 2048
#define MD2_MAX_FRAMES 512
#define MD2_MAX_SKINS 32

enum {
    H_IDENT = 0, H_VERSION = 4, H_SKIN_WIDTH = 8, H_SKIN_HEIGHT = 12, H_FRAME_SIZE = 16, H_NUM_SKINS = 20,
    H_NUM_XYZ = 24, H_NUM_ST = 28, H_NUM_TRIS = 32, H_NUM_GLCMDS = 36, H_NUM_FRAMES = 40, H_OFS_SKINS = 44,
    H_OFS_ST = 48, H_OFS_TRIS = 52, H_OFS_FRAMES = 56, H_OFS_GLCMDS = 60, H_OFS_END = 64
};

typedef struct md2_parser {
    iqi_ctx *ctx;
    const uint8_t *d;
    size_t size;
    int32_t skin_width, skin_height;
    uint32_t frame_size, skins, xyz, st, tris, glcmds, frames;
    uint64_t skins_at, st_at, tris_at, frames_at;
    uint32_t *corner_vertex; /* per triangle corner, the model vertex */
    uint32_t *vertex_xyz, *vertex_st; /* per model vertex, its position and texture coordinate index */
    uint32_t unterminated_names;
} md2_parser;

// -- Header

static int read_header(md2_parser *p) {
    iqi_ctx *ctx = p->ctx;
    uint64_t glcmds_at;
    if (ctx->size < MD2_HEADER_SIZE)
        return iqi_fail(ctx, IQ_ERROR_TRUNCATED, 0, "the MD2 header needs 68 bytes, the file has %zu", ctx->size);
    if (memcmp(ctx->data, "IDP2", 4) != 0) return iqi_fail(ctx, IQ_ERROR_BAD_MAGIC, 0, "the ident is not \"IDP2\"");
    p->d = ctx->data;
    p->size = ctx->size;
    int32_t version = iqi_i32(p->d + H_VERSION);
    if (version != MD2_VERSION)
        return iqi_fail(ctx, IQ_ERROR_BAD_VERSION, H_VERSION, "version %d; MD2 is version 8", version);
    p->skin_width = iqi_i32(p->d + H_SKIN_WIDTH);
    p->skin_height = iqi_i32(p->d + H_SKIN_HEIGHT);
    if (!iqi_read_count(ctx, H_FRAME_SIZE, "the frame size", &p->frame_size) ||
        !iqi_read_count(ctx, H_NUM_SKINS, "the skin count", &p->skins) ||
        !iqi_read_count(ctx, H_NUM_XYZ, "the vertex count", &p->xyz) ||
        !iqi_read_count(ctx, H_NUM_ST, "the texture coordinate count", &p->st) ||
        !iqi_read_count(ctx, H_NUM_TRIS, "the triangle count", &p->tris) ||
        !iqi_read_count(ctx, H_NUM_GLCMDS, "the GL command count", &p->glcmds) ||
        !iqi_read_count(ctx, H_NUM_FRAMES, "the frame count", &p->frames))
        return 0;
    if (!iqi_check_frame_count(ctx, H_NUM_FRAMES, p->frames)) return 0;
    /* Frame records hold 4 bytes per vertex after a 40-byte header; vertex
     * indices are int16, so more than 32767 vertices cannot be used. */
    if (p->xyz > 32767 || p->st > 32767)
        return iqi_fail(ctx, IQ_ERROR_LIMIT, p->xyz > 32767 ? H_NUM_XYZ : H_NUM_ST,
                        "%u vertices and %u texture coordinates; int16 indices reach 32767", p->xyz, p->st);
    if ((uint64_t)p->frame_size < MD2_FRAME_HEADER_SIZE + 4 * (uint64_t)p->xyz)
        return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, H_FRAME_SIZE, "the frame size %u is below the %u bytes %u vertices need",
                        p->frame_size, MD2_FRAME_HEADER_SIZE + 4 * p->xyz, p->xyz);
    if (p->frames > MD2_MAX_FRAMES) iqi_warn(ctx, IQ_WARNING_OVER_LIMIT, "%u frames; Quake 2 allows %d", p->frames, MD2_MAX_FRAMES);
    if (p->xyz > MD2_MAX_VERTS) iqi_warn(ctx, IQ_WARNING_OVER_LIMIT, "%u vertices; Quake 2 allows %d", p->xyz, MD2_MAX_VERTS);
    if (p->tris > MD2_MAX_TRIANGLES)
        iqi_warn(ctx, IQ_WARNING_OVER_LIMIT, "%u triangles; Quake 2 allows %d", p->tris, MD2_MAX_TRIANGLES);
    if (p->skins > MD2_MAX_SKINS) iqi_warn(ctx, IQ_WARNING_OVER_LIMIT, "%u skins; Quake 2 allows %d", p->skins, MD2_MAX_SKINS);
    if (!iqi_read_section(ctx, H_OFS_SKINS, 0, "skins", p->skins, MD2_SKIN_SIZE, &p->skins_at) ||
        !iqi_read_section(ctx, H_OFS_ST, 0, "texture coordinates", p->st, MD2_ST_SIZE, &p->st_at) ||
        !iqi_read_section(ctx, H_OFS_TRIS, 0, "triangles", p->tris, MD2_TRIANGLE_SIZE, &p->tris_at) ||
        !iqi_read_section(ctx, H_OFS_FRAMES, 0, "frames", p->frames, p->frame_size, &p->frames_at) ||
        !iqi_read_section(ctx, H_OFS_GLCMDS, 0, "GL commands", p->glcmds, 4, &glcmds_at))
        return 0;
    if (!iqi_check_end_offset(ctx, H_OFS_END, MD2_HEADER_SIZE)) return 0;
    if (!p->tris) iqi_warn(ctx, IQ_WARNING_EMPTY, "the model has no triangles");
    return 1;
}

// -- Triangles: corners to model vertices

static int read_triangles(md2_parser *p) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    uint32_t corners = 3 * p->tris;
    if (!corners) return 1;
    uint32_t slots = 4;
    while (slots < 2 * corners) slots *= 2;
    /* Slots hold (xyz << 15 | st) + 1, 0 for empty; values hold the vertex. */
    uint32_t *keys = iqi_alloc(ctx, slots, sizeof(uint32_t), "vertex table");
    uint32_t *values = iqi_alloc(ctx, slots, sizeof(uint32_t), "vertex table");
    p->corner_vertex = iqi_alloc(ctx, corners, sizeof(uint32_t), "triangle corners");
    p->vertex_xyz = iqi_alloc(ctx, corners, sizeof(uint32_t), "vertex positions");
    p->vertex_st = iqi_alloc(ctx, corners, sizeof(uint32_t), "vertex texture coordinates");
    if (!keys || !values || !p->corner_vertex || !p->vertex_xyz || !p->vertex_st) return 0;
    uint32_t vertices = 0;
    const uint8_t *tri = p->d + p->tris_at;
    for (uint32_t c = 0; c < corners; c++) {
        uint32_t t = c / 3, k = c % 3;
        const uint8_t *r = tri + (size_t)t * MD2_TRIANGLE_SIZE;
        int32_t xyz = iqi_i16(r + 2 * k), st = iqi_i16(r + 6 + 2 * k);
        if (xyz < 0 || (uint32_t)xyz >= p->xyz)
            return iqi_fail(ctx, IQ_ERROR_BAD_INDEX, (r - p->d) + 2 * k, "triangle %u: vertex %d, but the model has %u", t,
                            xyz, p->xyz);
        if (st < 0 || (uint32_t)st >= p->st)
            return iqi_fail(ctx, IQ_ERROR_BAD_INDEX, (r - p->d) + 6 + 2 * k,
                            "triangle %u: texture coordinate %d, but the model has %u", t, st, p->st);
        uint32_t key = ((uint32_t)xyz << 15 | (uint32_t)st) + 1;
        uint32_t i = (key * 2654435761u) & (slots - 1);
        while (keys[i] && keys[i] != key) i = (i + 1) & (slots - 1);
        if (!keys[i]) {
            keys[i] = key;
            values[i] = vertices;
            p->vertex_xyz[vertices] = (uint32_t)xyz;
            p->vertex_st[vertices] = (uint32_t)st;
            vertices++;
        }
        p->corner_vertex[c] = values[i];
    }
    m->vertex_count = vertices;
    m->triangle_count = p->tris;
    m->indices = iqi_alloc(ctx, corners, sizeof(uint32_t), "indices");
    if (!m->indices) return 0;
    memcpy(m->indices, p->corner_vertex, (size_t)corners * sizeof(uint32_t));
    return 1;
}

// -- Skins, texture coordinates, the mesh

static int read_skins_and_mesh(md2_parser *p) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    if (!iqi_single_mesh(ctx)) return 0;
    /* The skins are alternatives for the one surface: the mesh's shader list, as MD3 surfaces list theirs. */
    if (p->skins) {
        m->shaders = iqi_alloc(ctx, p->skins, sizeof(iq_shader), "skins");
        char *names = iqi_alloc(ctx, p->skins, MD2_SKIN_SIZE + 1, "skin names");
        if (!m->shaders || !names) return 0;
        m->shader_count = p->skins;
        for (uint32_t s = 0; s < p->skins; s++) {
            const uint8_t *r = p->d + p->skins_at + (size_t)s * MD2_SKIN_SIZE;
            m->shaders[s] = (iq_shader){iqi_copy_name(r, MD2_SKIN_SIZE, names + (size_t)s * (MD2_SKIN_SIZE + 1), &p->unterminated_names), (int32_t)s, 0};
        }
        m->meshes[0].material = m->shaders[0].name;
    }
    if (!m->vertex_count) return 1;
    m->texcoords = iqi_alloc(ctx, m->vertex_count, 2 * sizeof(float), "texture coordinates");
    if (!m->texcoords) return 0;
    /* Texture coordinates are skin pixels: divided by the skin's size, origin top-left as IQM's. */
    int sized = p->skin_width > 0 && p->skin_height > 0;
    if (!sized)
        iqi_warn(ctx, IQ_WARNING_REPAIRED, "the skin size is %dx%d; texture coordinates set to 0", p->skin_width,
                 p->skin_height);
    for (uint32_t v = 0; sized && v < m->vertex_count; v++) {
        const uint8_t *r = p->d + p->st_at + (size_t)p->vertex_st[v] * MD2_ST_SIZE;
        m->texcoords[2 * v] = (float)iqi_i16(r) / (float)p->skin_width;
        m->texcoords[2 * v + 1] = (float)iqi_i16(r + 2) / (float)p->skin_height;
    }
    return 1;
}

// -- Frames

static int read_frames(md2_parser *p) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    uint32_t nv = m->vertex_count;
    m->frame_count = p->frames;
    m->frame_info = iqi_alloc(ctx, p->frames, sizeof(iq_frame_info), "frame info");
    m->frame_bounds = iqi_alloc(ctx, p->frames, sizeof(iq_bounds), "frame bounds");
    char *names = iqi_alloc(ctx, p->frames, MD2_FRAME_NAME_SIZE + 1, "frame names");
    if (!m->frame_info || !m->frame_bounds || !names) return 0;
    if (!iqi_alloc_vertex_frames(ctx, p->frames, 0)) return 0;
    uint32_t bad_normals = 0;
    for (uint32_t f = 0; f < p->frames; f++) {
        const uint8_t *r = p->d + p->frames_at + (size_t)f * p->frame_size;
        float scale[3], translate[3];
        for (int k = 0; k < 3; k++) {
            scale[k] = iqi_f32(r + 4 * k);
            translate[k] = iqi_f32(r + 12 + 4 * k);
            /* Positions are byte * scale + translate: both ends of that range must be usable. */
            if (!iqi_usable(ctx, scale[k]) || !iqi_usable(ctx, translate[k]) ||
                !iqi_usable(ctx, (double)translate[k] + 255.0 * scale[k]))
                return iqi_fail_value(ctx, (r - p->d) + (iqi_usable(ctx, scale[k]) ? 12 : 0) + 4 * k, 0,
                                      iqi_usable(ctx, scale[k]) ? (double)translate[k] + 255.0 * scale[k] : scale[k],
                                      "frame %u: scale or translate %d", f, k);
        }
        m->frame_info[f].name =
            iqi_copy_name(r + 24, MD2_FRAME_NAME_SIZE, names + (size_t)f * (MD2_FRAME_NAME_SIZE + 1), &p->unterminated_names);
        float *pos = nv ? m->frame_positions + 3 * (size_t)f * nv : NULL;
        float *nrm = nv ? m->frame_normals + 3 * (size_t)f * nv : NULL;
        iqi_decode_byte_vertices(r + MD2_FRAME_HEADER_SIZE, p->xyz, p->vertex_xyz, nv, scale, translate, pos, nrm, &bad_normals);
        /* MD2 stores no box: the frame's bounds come from its vertices. */
        iqi_points_bounds(pos, pos ? nv : 0, &m->frame_bounds[f]);
    }
    iqi_warn_bad_normals(ctx, bad_normals);
    return 1;
}

int iqi_parse_md2(iqi_ctx *ctx) {
    md2_parser p;
    memset(&p, 0, sizeof p);
    p.ctx = ctx;
    if (!(read_header(&p) && read_triangles(&p) && read_skins_and_mesh(&p) && read_frames(&p) &&
          iqi_clips_from_frame_names(ctx, MD2_FRAMERATE, NULL, NULL)))
        return 0;
    iqi_warn_unterminated_names(ctx, p.unterminated_names);
    return 1;
}
