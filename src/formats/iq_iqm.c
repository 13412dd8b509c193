/* IQM v2 (binary, skeletal). Spec: shared/specs/iqm.txt.
 *
 * Order of work: header, then every section is range-checked before it is
 * read; strings, meshes, vertex arrays, triangles, adjacency, joints, poses,
 * frames, animations, bounds, comment, extensions. Every field is read through
 * the bounds-checked little-endian reader, so misaligned files (which real
 * games ship) load like aligned ones. Each error names the field and carries
 * the byte offset where the bad value is. Vertex arrays are read in
 * iq_iqm_vertex.c, joints, poses, frames and animations in iq_iqm_skeleton.c. */
#include "formats/iq_iqm_internal.h"
#include "base/iq_math.h"
#include <math.h>

// -- Header

/* Checks that num elements of elem_size at ofs lie inside the file and after
 * the header. Empty sections are fine wherever they point. */
int iqi_iqm_check_section(iqm_parser *p, const char *what, int64_t field, uint32_t ofs, uint64_t num, uint64_t elem_size,
                          uint32_t align) {
    if (num == 0) {
        if (ofs != 0) iqi_warn(p->ctx, IQ_WARNING_STRAY_OFFSET, "%s: empty but its offset is %u", what, ofs);
        return 1;
    }
    if (ofs < IQM_HEADER_SIZE)
        return iqi_fail(p->ctx, IQ_ERROR_OUT_OF_RANGE, field, "%s: offset %u overlaps the 124-byte header", what, ofs);
    if (!iqi_range_ok(p->size, ofs, num, elem_size))
        return iqi_fail(p->ctx, IQ_ERROR_OUT_OF_RANGE, field,
                        "%s: %llu x %llu bytes at offset %u run past the end of the %zu-byte file", what,
                        (unsigned long long)num, (unsigned long long)elem_size, ofs, p->size);
    if (ofs % align) iqi_warn(p->ctx, IQ_WARNING_MISALIGNED, "%s: offset %u is not a multiple of %u", what, ofs, align);
    return 1;
}

/* A name from the text table. Offset 0 in a file without text is "". */
int iqi_iqm_get_string(iqm_parser *p, uint32_t ofs, int64_t where, const char *what, const char **out) {
    if (p->h.num_text == 0 && ofs == 0) {
        *out = "";
        return 1;
    }
    if (ofs >= p->h.num_text)
        return iqi_fail(p->ctx, IQ_ERROR_BAD_STRING, where, "%s: text offset %u is outside the %u-byte text table", what,
                        ofs, p->h.num_text);
    *out = p->text + ofs;
    return 1;
}

static int read_header(iqm_parser *p) {
    iqi_ctx *ctx = p->ctx;
    if (ctx->size < IQM_HEADER_SIZE)
        return iqi_fail(ctx, IQ_ERROR_TRUNCATED, 0, "the IQM header needs 124 bytes, the file has %zu", ctx->size);
    if (memcmp(ctx->data, IQM_MAGIC, 16) != 0)
        return iqi_fail(ctx, IQ_ERROR_BAD_MAGIC, 0, "the magic is not \"INTERQUAKEMODEL\\0\"");
    iqi_iqm_header_read(ctx->data, &p->h);
    if (p->h.version != IQM_VERSION)
        return iqi_fail(ctx, IQ_ERROR_BAD_VERSION, FIELD_OFFSET(version), "version %u; only version 2 is supported",
                        p->h.version);
    if (p->h.filesize < IQM_HEADER_SIZE)
        return iqi_fail(ctx, IQ_ERROR_BAD_FILESIZE, FIELD_OFFSET(filesize),
                        "filesize %u is smaller than the 124-byte header", p->h.filesize);
    if (p->h.filesize > ctx->size)
        return iqi_fail(ctx, IQ_ERROR_TRUNCATED, FIELD_OFFSET(filesize),
                        "the header says the file has %u bytes, only %zu are present", p->h.filesize, ctx->size);
    if (p->h.filesize < ctx->size)
        iqi_warn(ctx, IQ_WARNING_TRAILING_BYTES, "%zu bytes after the declared filesize %u were ignored",
                 ctx->size - p->h.filesize, p->h.filesize);
    p->d = ctx->data;
    p->size = p->h.filesize;
    return 1;
}

// -- Text and meshes

static int read_text(iqm_parser *p) {
    uint32_t n = p->h.num_text;
    if (!iqi_iqm_check_section(p, "text", FIELD_OFFSET(ofs_text), p->h.ofs_text, n, 1, 1)) return 0;
    if (n == 0) {
        p->text = "";
        return 1;
    }
    const uint8_t *t = p->d + p->h.ofs_text;
    if (t[0] != 0)
        return iqi_fail(p->ctx, IQ_ERROR_BAD_STRING, p->h.ofs_text, "the text table must start with an empty string");
    if (t[n - 1] != 0)
        return iqi_fail(p->ctx, IQ_ERROR_BAD_STRING, (int64_t)p->h.ofs_text + n - 1,
                        "the text table does not end with a NUL byte");
    p->text = iqi_strdup_n(p->ctx, (const char *)t, n);
    return p->text != NULL;
}

static int read_meshes(iqm_parser *p) {
    iq_model *m = p->ctx->model;
    const iqm_header *h = &p->h;
    if (!iqi_iqm_check_section(p, "meshes", FIELD_OFFSET(ofs_meshes), h->ofs_meshes, h->num_meshes, IQM_MESH_SIZE, 4)) return 0;
    uint32_t count = h->num_meshes;
    int synthesize = count == 0 && h->num_triangles > 0;
    if (synthesize) {
        iqi_warn(p->ctx, IQ_WARNING_REPAIRED, "no meshes but %u triangles: made one mesh holding them all", h->num_triangles);
        count = 1;
    }
    if (!count) return 1;
    m->meshes = iqi_alloc(p->ctx, count, sizeof(iq_mesh), "meshes");
    if (!m->meshes) return 0;
    m->mesh_count = count;
    if (synthesize) {
        m->meshes[0] = (iq_mesh){"", "", 0, h->num_vertexes, 0, h->num_triangles};
        return 1;
    }
    uint32_t empty = 0;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t at = h->ofs_meshes + i * IQM_MESH_SIZE;
        const uint8_t *r = p->d + at;
        iq_mesh *mesh = &m->meshes[i];
        if (!iqi_iqm_get_string(p, iqi_u32(r), at, "mesh name", &mesh->name)) return 0;
        if (!iqi_iqm_get_string(p, iqi_u32(r + 4), at + 4, "mesh material", &mesh->material)) return 0;
        mesh->first_vertex = iqi_u32(r + 8);
        mesh->vertex_count = iqi_u32(r + 12);
        mesh->first_triangle = iqi_u32(r + 16);
        mesh->triangle_count = iqi_u32(r + 20);
        if ((uint64_t)mesh->first_vertex + mesh->vertex_count > h->num_vertexes)
            return iqi_fail(p->ctx, IQ_ERROR_BAD_MESH, at + 8,
                            "mesh %u ('%s'): vertices %u..%llu are past the %u vertices of the file", i, mesh->name,
                            mesh->first_vertex, (unsigned long long)mesh->first_vertex + mesh->vertex_count,
                            h->num_vertexes);
        if ((uint64_t)mesh->first_triangle + mesh->triangle_count > h->num_triangles)
            return iqi_fail(p->ctx, IQ_ERROR_BAD_MESH, at + 16,
                            "mesh %u ('%s'): triangles %u..%llu are past the %u triangles of the file", i, mesh->name,
                            mesh->first_triangle, (unsigned long long)mesh->first_triangle + mesh->triangle_count,
                            h->num_triangles);
        if (mesh->triangle_count == 0) empty++;
    }
    if (empty) iqi_warn(p->ctx, IQ_WARNING_EMPTY, "%u mesh(es) have no triangles", empty);
    return 1;
}

// -- Triangles and adjacency

static int read_triangles(iqm_parser *p) {
    iq_model *m = p->ctx->model;
    const iqm_header *h = &p->h;
    if (!iqi_iqm_check_section(p, "triangles", FIELD_OFFSET(ofs_triangles), h->ofs_triangles, h->num_triangles, IQM_TRIANGLE_SIZE, 4))
        return 0;
    if (h->num_triangles == 0) return 1;
    uint32_t n = m->triangle_count = h->num_triangles;
    m->indices = iqi_alloc(p->ctx, n, 3 * sizeof(uint32_t), "triangles");
    if (!m->indices) return 0;
    for (uint32_t i = 0; i < 3 * n; i++) {
        uint32_t at = h->ofs_triangles + 4 * i, v = iqi_u32(p->d + at);
        if (v >= m->vertex_count)
            return iqi_fail(p->ctx, IQ_ERROR_BAD_INDEX, at, "triangle %u: vertex index %u, but there are %u vertices",
                            i / 3, v, m->vertex_count);
        m->indices[i] = v;
    }
    for (uint32_t mi = 0; mi < m->mesh_count; mi++) {
        const iq_mesh *mesh = &m->meshes[mi];
        uint64_t end = (uint64_t)mesh->first_vertex + mesh->vertex_count;
        for (uint32_t t = mesh->first_triangle; t < mesh->first_triangle + mesh->triangle_count; t++)
            for (int k = 0; k < 3; k++) {
                uint32_t v = m->indices[3 * t + k];
                if (v < mesh->first_vertex || v >= end)
                    return iqi_fail(p->ctx, IQ_ERROR_BAD_INDEX, h->ofs_triangles + 12 * (int64_t)t + 4 * k,
                                    "triangle %u of mesh %u ('%s') uses vertex %u, outside the mesh's vertices %u..%llu", t,
                                    mi, mesh->name, v, mesh->first_vertex, (unsigned long long)end - 1);
            }
    }
    if (h->ofs_adjacency) {
        if (!iqi_iqm_check_section(p, "adjacency", FIELD_OFFSET(ofs_adjacency), h->ofs_adjacency, n, IQM_TRIANGLE_SIZE, 4)) return 0;
        m->adjacency = iqi_alloc(p->ctx, n, 3 * sizeof(uint32_t), "adjacency");
        if (!m->adjacency) return 0;
        for (uint32_t i = 0; i < 3 * n; i++) {
            uint32_t at = h->ofs_adjacency + 4 * i, t = iqi_u32(p->d + at);
            if (t >= n && t != 0xFFFFFFFFu)
                return iqi_fail(p->ctx, IQ_ERROR_BAD_INDEX, at,
                                "adjacency of triangle %u names triangle %u, but there are %u", i / 3, t, n);
            m->adjacency[i] = t;
        }
    }
    return 1;
}

// -- Bounds, comment, extensions

static int read_bounds(iqm_parser *p) {
    iq_model *m = p->ctx->model;
    const iqm_header *h = &p->h;
    if (!h->ofs_bounds || !h->num_frames) return 1;
    if (!iqi_iqm_check_section(p, "bounds", FIELD_OFFSET(ofs_bounds), h->ofs_bounds, h->num_frames, IQM_BOUNDS_SIZE, 4)) return 0;
    m->frame_bounds = iqi_alloc(p->ctx, h->num_frames, sizeof(iq_bounds), "bounds");
    if (!m->frame_bounds) return 0;
    for (uint32_t f = 0; f < h->num_frames; f++) {
        const uint8_t *r = p->d + h->ofs_bounds + (size_t)f * IQM_BOUNDS_SIZE;
        float v[8];
        int usable = 1;
        for (int k = 0; k < 8; k++) {
            v[k] = iqi_f32(r + 4 * k);
            usable &= iqi_usable(p->ctx, v[k]);
        }
        iq_bounds *b = &m->frame_bounds[f];
        memcpy(b->min, v, 12);
        memcpy(b->max, v + 3, 12);
        b->xy_radius = v[6];
        b->radius = v[7];
        if (!usable) iqi_mark_bounds_unusable(b); /* recomputed by load/iq_load.c, with a warning */
    }
    return 1;
}

static int read_comment_and_extensions(iqm_parser *p) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    const iqm_header *h = &p->h;
    if (!iqi_iqm_check_section(p, "comment", FIELD_OFFSET(ofs_comment), h->ofs_comment, h->num_comment, 1, 1)) return 0;
    if (h->num_comment) {
        uint8_t *c = iqi_alloc(ctx, h->num_comment, 1, "comment");
        if (!c) return 0;
        memcpy(c, p->d + h->ofs_comment, h->num_comment);
        m->comment = c;
        m->comment_size = h->num_comment;
    }
    if (!h->num_extensions) {
        if (h->ofs_extensions) iqi_warn(ctx, IQ_WARNING_STRAY_OFFSET, "extensions: none, but the offset is %u", h->ofs_extensions);
        return 1;
    }
    /* A linked list; each entry is 16 bytes, so a count past size/16 is a lie. */
    if (h->num_extensions > p->size / IQM_EXTENSION_SIZE)
        return iqi_fail(ctx, IQ_ERROR_BAD_EXTENSION, FIELD_OFFSET(num_extensions), "%u extensions cannot fit in %zu bytes",
                        h->num_extensions, p->size);
    m->extensions = iqi_alloc(ctx, h->num_extensions, sizeof(iq_extension), "extensions");
    if (!m->extensions) return 0;
    uint32_t at = h->ofs_extensions, count = 0;
    int64_t link = FIELD_OFFSET(ofs_extensions);
    while (at != 0) {
        if (count == h->num_extensions)
            return iqi_fail(ctx, IQ_ERROR_BAD_EXTENSION, link,
                            "the extension list has more than the %u entries the header declares (a cycle?)",
                            h->num_extensions);
        if (!iqi_iqm_check_section(p, "extension", link, at, 1, IQM_EXTENSION_SIZE, 4)) return 0;
        const uint8_t *r = p->d + at;
        iq_extension *e = &m->extensions[count];
        uint32_t ofs_data = iqi_u32(r + 8);
        if (!iqi_iqm_get_string(p, iqi_u32(r), at, "extension name", &e->name)) return 0;
        e->size = iqi_u32(r + 4);
        if (!iqi_iqm_check_section(p, "extension data", at + 8, ofs_data, e->size, 1, 1)) return 0;
        if (e->size) {
            uint8_t *copy = iqi_alloc(ctx, e->size, 1, "extension data");
            if (!copy) return 0;
            memcpy(copy, p->d + ofs_data, e->size);
            e->data = copy;
        }
        count++;
        link = at + 12;
        at = iqi_u32(r + 12);
    }
    if (count < h->num_extensions)
        iqi_warn(ctx, IQ_WARNING_REPAIRED, "the header declares %u extensions, the list holds %u", h->num_extensions, count);
    m->extension_count = count;
    return 1;
}

int iqi_parse_iqm(iqi_ctx *ctx) {
    iqm_parser p;
    pose *poses = NULL;
    memset(&p, 0, sizeof p);
    p.ctx = ctx;
    /* Joints come before vertex arrays so blend indices can be checked. */
    return read_header(&p) && read_text(&p) && read_meshes(&p) && iqi_iqm_read_joints(&p) && iqi_iqm_read_poses(&p, &poses) &&
           iqi_iqm_read_vertex_arrays(&p) && read_triangles(&p) && iqi_iqm_read_frames(&p, poses) && iqi_iqm_read_anims(&p) &&
           read_bounds(&p) && read_comment_and_extensions(&p);
}
