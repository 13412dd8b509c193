/* IQM v2 (binary, skeletal). Spec: shared/specs/iqm.txt.
 *
 * Order of work: header, then every section is range-checked before it is
 * read; strings, meshes, vertex arrays, triangles, adjacency, joints, poses,
 * frames, animations, bounds, comment, extensions. Every field is read through
 * the bounds-checked little-endian reader, so misaligned files (which real
 * games ship) load like aligned ones. Each error names the field and carries
 * the byte offset where the bad value is. One file, read top to bottom in
 * the order of the work; the sections are greppable (`// -- `). */
#include "base/iq_internal.h"
#include "base/iq_math.h"
#include "formats/iq_formats.h"
#include "formats/iq_iqm_format.h"
#include <math.h>

// -- Parser state

/* Byte offset of a header field, for error messages that point at it. */
#define FIELD_OFFSET(field) (16 + (int64_t)offsetof(iqm_header, field))

typedef struct iqm_parser {
    iqi_ctx *ctx;
    iqm_header h;
    const uint8_t *d; /* input, limited to the header's filesize */
    size_t size;
    const char *text; /* copy of the text table, NUL-terminated */
} iqm_parser;

/* A pose record: its parent and channel mask, and each channel's offset and scale. */
typedef struct pose {
    int32_t parent;
    uint32_t mask;
    float offset[10], scale[10];
} pose;

// -- Header

/* Checks that num elements of elem_size at ofs lie inside the file and after
 * the header. Empty sections are fine wherever they point. */
static int check_section(iqm_parser *p, const char *what, int64_t field, uint32_t ofs, uint64_t num, uint64_t elem_size,
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
static int get_string(iqm_parser *p, uint32_t ofs, int64_t where, const char *what, const char **out) {
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
    if (!check_section(p, "text", FIELD_OFFSET(ofs_text), p->h.ofs_text, n, 1, 1)) return 0;
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
    if (!check_section(p, "meshes", FIELD_OFFSET(ofs_meshes), h->ofs_meshes, h->num_meshes, IQM_MESH_SIZE, 4)) return 0;
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
        if (!get_string(p, iqi_u32(r), at, "mesh name", &mesh->name)) return 0;
        if (!get_string(p, iqi_u32(r + 4), at + 4, "mesh material", &mesh->material)) return 0;
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

// -- Vertex arrays

/* Each array's type, format and size checked, then
 * converted into the model's canonical arrays (positions, normals, texcoords,
 * tangents, colours, blend indices and weights), repaired where real files
 * need it; custom arrays are kept as they are. */
typedef struct vertex_array {
    uint32_t type, format, size, offset;
    int64_t header_at;
} vertex_array;

/* Converts one standard array into `components` floats per vertex; missing
 * components take `defaults`. Positions must be usable (finite, within the
 * magnitude limit); other arrays are optional data, repaired per vertex
 * (base/iq_numbers.c). kind < 0 means positions. */
static int convert_floats(iqm_parser *p, const vertex_array *va, float *out, int components, const float *defaults,
                          const char *what, int kind) {
    uint32_t n = p->ctx->model->vertex_count, cs = iqi_component_size[va->format];
    for (uint32_t v = 0; v < n; v++) {
        const uint8_t *src = p->d + va->offset + (size_t)v * va->size * cs;
        float *o = out + (size_t)v * components;
        for (int k = 0; k < components; k++) {
            double d = (uint32_t)k < va->size ? iqi_component_read(src + k * cs, va->format) : defaults[k];
            o[k] = (float)d;
            if (kind < 0 && !(iqi_usable(p->ctx, d) && iqi_finite(o[k])))
                return iqi_fail_value(p->ctx, (int64_t)(src - p->d) + k * cs, 0, d, "%s %d of vertex %u", what, k, v);
        }
        if (kind >= 0) iqi_repair_vector(p->ctx, (iqi_vector_kind)kind, o, components);
    }
    return 1;
}

static int convert_blend(iqm_parser *p, const vertex_array *ia, const vertex_array *wa) {
    iq_model *m = p->ctx->model;
    uint32_t n = m->vertex_count, ics = iqi_component_size[ia->format], wcs = iqi_component_size[wa->format];
    uint32_t zero_sum = 0, negative = 0;
    m->blend_indices = iqi_alloc(p->ctx, n, 4 * sizeof(uint16_t), "blend indices");
    m->blend_weights = iqi_alloc(p->ctx, n, 4 * sizeof(float), "blend weights");
    if (!m->blend_indices || !m->blend_weights) return 0;
    for (uint32_t v = 0; v < n; v++) {
        const uint8_t *is = p->d + ia->offset + (size_t)v * ia->size * ics;
        const uint8_t *ws = p->d + wa->offset + (size_t)v * wa->size * wcs;
        uint16_t *oi = m->blend_indices + 4 * (size_t)v;
        float *ow = m->blend_weights + 4 * (size_t)v, sum = 0;
        for (uint32_t k = 0; k < 4; k++) {
            if (k < ia->size) {
                double idx = iqi_component_read_plain(is + k * ics, ia->format);
                if (!(idx >= 0 && idx < m->joint_count && idx == floor(idx)))
                    return iqi_fail(p->ctx, IQ_ERROR_BAD_INDEX, (int64_t)(is - p->d) + k * ics,
                                    "blend index %g of vertex %u is not a joint (the model has %u joints)", idx, v,
                                    m->joint_count);
                oi[k] = (uint16_t)idx;
            }
            if (k < wa->size) {
                float w = (float)iqi_component_read(ws + k * wcs, wa->format);
                if (!iqi_finite(w))
                    return iqi_fail(p->ctx, IQ_ERROR_BAD_VALUE, (int64_t)(ws - p->d) + k * wcs,
                                    "blend weight of vertex %u is not a finite number", v);
                if (w < 0) { w = 0; negative++; }
                ow[k] = w;
                sum += w;
            }
        }
        if (sum > 0) {
            for (int k = 0; k < 4; k++) ow[k] /= sum;
        } else {
            ow[0] = 1.0f; /* an unweighted vertex follows its first joint */
            zero_sum++;
        }
    }
    if (zero_sum) iqi_warn(p->ctx, IQ_WARNING_REPAIRED, "%u vertices had all blend weights zero; bound to their first joint", zero_sum);
    if (negative) iqi_warn(p->ctx, IQ_WARNING_REPAIRED, "%u negative blend weights were set to zero", negative);
    return 1;
}

/* A vertex's float vector in a custom array with a value that is not usable
 * becomes 0, like other optional vertex data (iq_numbers.c); integer
 * formats are always fine. */
static void repair_custom(iqm_parser *p, uint8_t *data, uint32_t vertices, uint32_t size, uint32_t format) {
    if (format != IQ_HALF && format != IQ_FLOAT && format != IQ_DOUBLE) return;
    uint32_t cs = iqi_component_size[format];
    for (uint32_t v = 0; v < vertices; v++) {
        uint8_t *q = data + (size_t)v * size * cs;
        float f[4];
        for (uint32_t k = 0; k < size; k++) f[k] = (float)iqi_component_read(q + k * cs, format);
        if (iqi_repair_vector(p->ctx, IQI_CUSTOM, f, (int)size)) memset(q, 0, (size_t)size * cs);
    }
}

static int read_vertex_arrays(iqm_parser *p) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    const iqm_header *h = &p->h;
    if (!check_section(p, "vertex arrays", FIELD_OFFSET(ofs_vertexarrays), h->ofs_vertexarrays, h->num_vertexarrays,
                               IQM_VERTEXARRAY_SIZE, 4))
        return 0;
    if (h->num_vertexarrays == 0) {
        if (h->num_vertexes == 0) return 1;
        if (h->num_triangles > 0)
            return iqi_fail(ctx, IQ_ERROR_BAD_VERTEX_ARRAY, FIELD_OFFSET(num_vertexarrays),
                            "%u vertices and %u triangles but no vertex arrays", h->num_vertexes, h->num_triangles);
        iqi_warn(ctx, IQ_WARNING_IGNORED_DATA, "%u vertices declared but no vertex arrays; no geometry loaded", h->num_vertexes);
        for (uint32_t i = 0; i < m->mesh_count; i++) m->meshes[i].vertex_count = m->meshes[i].first_vertex = 0;
        return 1;
    }
    vertex_array standard[IQM_STANDARD_TYPES];
    int have[IQM_STANDARD_TYPES] = {0};
    uint32_t customs = 0, reserved = 0;
    vertex_array *custom = iqi_alloc(ctx, h->num_vertexarrays, sizeof(vertex_array), "vertex array list");
    if (!custom) return 0;
    for (uint32_t i = 0; i < h->num_vertexarrays; i++) {
        uint32_t at = h->ofs_vertexarrays + i * IQM_VERTEXARRAY_SIZE;
        const uint8_t *r = p->d + at;
        vertex_array va = {iqi_u32(r), iqi_u32(r + 8), iqi_u32(r + 12), iqi_u32(r + 16), at};
        if (va.format > IQ_DOUBLE)
            return iqi_fail(ctx, IQ_ERROR_BAD_VERTEX_ARRAY, at + 8, "vertex array %u: unknown component format %u", i,
                            va.format);
        if (va.size < 1 || va.size > 4)
            return iqi_fail(ctx, IQ_ERROR_BAD_VERTEX_ARRAY, at + 12,
                            "vertex array %u: %u components; 1 to 4 are allowed", i, va.size);
        uint32_t cs = iqi_component_size[va.format];
        if (va.offset < IQM_HEADER_SIZE || !iqi_range_ok(p->size, va.offset, (uint64_t)h->num_vertexes * va.size, cs))
            return iqi_fail(ctx, IQ_ERROR_OUT_OF_RANGE, at + 16,
                            "vertex array %u: %u vertices x %u x %u bytes at offset %u do not fit in the %zu-byte file",
                            i, h->num_vertexes, va.size, cs, va.offset, p->size);
        if (va.offset % (cs > 4 ? cs : 4))
            iqi_warn(ctx, IQ_WARNING_MISALIGNED, "vertex array %u: offset %u is not aligned to %u", i, va.offset,
                     cs > 4 ? cs : 4);
        if (va.type < IQM_STANDARD_TYPES) {
            if (have[va.type])
                return iqi_fail(ctx, IQ_ERROR_BAD_VERTEX_ARRAY, at, "vertex array %u: a second %s array", i,
                                iqi_iqm_type_names[va.type]);
            have[va.type] = 1;
            standard[va.type] = va;
        } else if (va.type < IQM_CUSTOM) {
            reserved++;
        } else {
            const char *name;
            if (!get_string(p, va.type - IQM_CUSTOM, at, "custom vertex array name", &name)) return 0;
            custom[customs++] = va;
        }
    }
    if (reserved) iqi_warn(ctx, IQ_WARNING_IGNORED_DATA, "%u vertex arrays of reserved types 7..15 were ignored", reserved);
    if (!have[IQM_POSITION])
        return iqi_fail(ctx, IQ_ERROR_BAD_VERTEX_ARRAY, FIELD_OFFSET(ofs_vertexarrays), "there is no position array");

    uint32_t n = m->vertex_count = h->num_vertexes;
    static const float zero4[4] = {0, 0, 0, 0}, tangent_defaults[4] = {0, 0, 0, 1}, color_defaults[4] = {0, 0, 0, 1};
    struct { int type, components; float **out; const float *defaults; const char *what; int kind; } floats[] = {
        {IQM_POSITION, 3, &m->positions, zero4, "position", -1},
        {IQM_TEXCOORD, 2, &m->texcoords, zero4, "texcoord", IQI_TEXCOORD},
        {IQM_NORMAL, 3, &m->normals, zero4, "normal", IQI_NORMAL},
        {IQM_TANGENT, 4, &m->tangents, tangent_defaults, "tangent", IQI_TANGENT},
        {IQM_COLOR, 4, &m->colors, color_defaults, "color", IQI_COLOR},
    };
    for (size_t i = 0; i < sizeof floats / sizeof floats[0]; i++) {
        if (!have[floats[i].type]) continue;
        *floats[i].out = iqi_alloc(ctx, n, floats[i].components * sizeof(float), floats[i].what);
        if (!*floats[i].out) return 0;
        if (!convert_floats(p, &standard[floats[i].type], *floats[i].out, floats[i].components, floats[i].defaults,
                            floats[i].what, floats[i].kind))
            return 0;
    }
    if (have[IQM_BLENDINDEXES] != have[IQM_BLENDWEIGHTS]) {
        iqi_warn(ctx, IQ_WARNING_IGNORED_DATA, "blend %s without blend %s were ignored",
                 have[IQM_BLENDINDEXES] ? "indexes" : "weights", have[IQM_BLENDINDEXES] ? "weights" : "indexes");
    } else if (have[IQM_BLENDINDEXES] && m->joint_count == 0) {
        iqi_warn(ctx, IQ_WARNING_IGNORED_DATA, "blend data without joints was ignored");
    } else if (have[IQM_BLENDINDEXES]) {
        if (!convert_blend(p, &standard[IQM_BLENDINDEXES], &standard[IQM_BLENDWEIGHTS])) return 0;
    }
    if (customs) {
        m->custom_arrays = iqi_alloc(ctx, customs, sizeof(iq_custom_array), "custom arrays");
        if (!m->custom_arrays) return 0;
        for (uint32_t i = 0; i < customs; i++) {
            const vertex_array *va = &custom[i];
            iq_custom_array *ca = &m->custom_arrays[i];
            size_t bytes = (size_t)n * va->size * iqi_component_size[va->format];
            void *copy = iqi_alloc(ctx, bytes ? bytes : 1, 1, "custom array data");
            if (!copy) return 0;
            memcpy(copy, p->d + va->offset, bytes);
            repair_custom(p, copy, n, va->size, va->format);
            get_string(p, va->type - IQM_CUSTOM, va->header_at, "custom vertex array name", &ca->name);
            ca->type = va->type;
            ca->format = (iq_component)va->format;
            ca->size = va->size;
            ca->data = copy;
        }
        m->custom_array_count = customs;
    }
    return 1;
}

// -- Triangles and adjacency

static int read_triangles(iqm_parser *p) {
    iq_model *m = p->ctx->model;
    const iqm_header *h = &p->h;
    if (!check_section(p, "triangles", FIELD_OFFSET(ofs_triangles), h->ofs_triangles, h->num_triangles, IQM_TRIANGLE_SIZE, 4))
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
        if (!check_section(p, "adjacency", FIELD_OFFSET(ofs_adjacency), h->ofs_adjacency, n, IQM_TRIANGLE_SIZE, 4)) return 0;
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

// -- Joints, poses, frames and animations

/* Joints (hierarchy, bind poses), pose
 * records (channel masks), frames decoded from the pose channels into local
 * poses, and the animation list. */
static int read_quat(iqm_parser *p, const uint8_t *src, float q[4], const char *what, uint32_t index) {
    float len2 = 0;
    for (int k = 0; k < 4; k++) {
        q[k] = iqi_f32(src + 4 * k);
        len2 += q[k] * q[k];
    }
    if (!iqi_finite(len2) || len2 < 1e-12f)
        return iqi_fail(p->ctx, IQ_ERROR_BAD_VALUE, src - p->d, "%s %u: rotation (%g, %g, %g, %g) is not a usable quaternion",
                        what, index, q[0], q[1], q[2], q[3]);
    iqi_quat_normalize(q);
    return 1;
}

/* A parent index read from a file: negative means root (the spec says < 0). */
static int check_parent(iqm_parser *p, int32_t parent, uint32_t index, uint32_t count, int64_t at, const char *what,
                        int32_t *out, uint32_t *odd_roots) {
    if (parent < 0) {
        if (parent != -1) (*odd_roots)++;
        *out = -1;
        return 1;
    }
    if ((uint32_t)parent >= count)
        return iqi_fail(p->ctx, IQ_ERROR_BAD_HIERARCHY, at, "%s %u: parent %d, but there are %u", what, index, parent, count);
    if ((uint32_t)parent == index)
        return iqi_fail(p->ctx, IQ_ERROR_BAD_HIERARCHY, at, "%s %u is its own parent", what, index);
    if ((uint32_t)parent > index)
        return iqi_fail(p->ctx, IQ_ERROR_BAD_HIERARCHY, at,
                        "%s %u: parent %d comes after it; parents must come first", what, index, parent);
    *out = parent;
    return 1;
}

static int read_joints(iqm_parser *p) {
    iq_model *m = p->ctx->model;
    const iqm_header *h = &p->h;
    if (h->num_joints > p->ctx->limits.max_joints)
        return iqi_fail(p->ctx, IQ_ERROR_LIMIT, FIELD_OFFSET(num_joints), "%u joints; the limit is %u", h->num_joints,
                        p->ctx->limits.max_joints);
    if (!check_section(p, "joints", FIELD_OFFSET(ofs_joints), h->ofs_joints, h->num_joints, IQM_JOINT_SIZE, 4)) return 0;
    if (!h->num_joints) return 1;
    m->joints = iqi_alloc(p->ctx, h->num_joints, sizeof(iq_joint), "joints");
    if (!m->joints) return 0;
    m->joint_count = h->num_joints;
    uint32_t odd_roots = 0;
    for (uint32_t i = 0; i < h->num_joints; i++) {
        uint32_t at = h->ofs_joints + i * IQM_JOINT_SIZE;
        const uint8_t *r = p->d + at;
        iq_joint *j = &m->joints[i];
        if (!get_string(p, iqi_u32(r), at, "joint name", &j->name)) return 0;
        if (!check_parent(p, iqi_i32(r + 4), i, h->num_joints, at + 4, "joint", &j->parent, &odd_roots)) return 0;
        for (int k = 0; k < 3; k++) {
            j->bind.translate[k] = iqi_f32(r + 8 + 4 * k);
            j->bind.scale[k] = iqi_f32(r + 36 + 4 * k);
            if (!iqi_usable(p->ctx, j->bind.translate[k]))
                return iqi_fail_value(p->ctx, at + 8 + 4 * k, 0, j->bind.translate[k], "joint %u ('%s'): translate %d", i,
                                      j->name, k);
            if (!iqi_usable(p->ctx, j->bind.scale[k]))
                return iqi_fail_value(p->ctx, at + 36 + 4 * k, 0, j->bind.scale[k], "joint %u ('%s'): scale %d", i, j->name,
                                      k);
        }
        if (!read_quat(p, r + 20, j->bind.rotate, "joint", i)) return 0;
    }
    if (odd_roots) iqi_warn(p->ctx, IQ_WARNING_REPAIRED, "%u joints had a negative parent other than -1; read as roots", odd_roots);
    return 1;
}

static int read_poses(iqm_parser *p, pose **out) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    const iqm_header *h = &p->h;
    *out = NULL;
    if (!check_section(p, "poses", FIELD_OFFSET(ofs_poses), h->ofs_poses, h->num_poses, IQM_POSE_SIZE, 4)) return 0;
    if (!h->num_poses) {
        if (h->num_framechannels)
            return iqi_fail(ctx, IQ_ERROR_BAD_ANIMATION, FIELD_OFFSET(num_framechannels),
                            "%u frame channels but no poses", h->num_framechannels);
        return 1;
    }
    if (h->num_joints && h->num_poses != h->num_joints)
        return iqi_fail(ctx, IQ_ERROR_BAD_ANIMATION, FIELD_OFFSET(num_poses), "%u poses for %u joints; they must match",
                        h->num_poses, h->num_joints);
    if (h->num_poses > ctx->limits.max_joints)
        return iqi_fail(ctx, IQ_ERROR_LIMIT, FIELD_OFFSET(num_poses), "%u poses; the joint limit is %u", h->num_poses,
                        ctx->limits.max_joints);
    pose *poses = iqi_alloc(ctx, h->num_poses, sizeof(pose), "poses");
    if (!poses) return 0;
    uint64_t channels = 0;
    uint32_t odd_roots = 0;
    for (uint32_t i = 0; i < h->num_poses; i++) {
        uint32_t at = h->ofs_poses + i * IQM_POSE_SIZE;
        const uint8_t *r = p->d + at;
        pose *ps = &poses[i];
        if (!check_parent(p, iqi_i32(r), i, h->num_poses, at, "pose", &ps->parent, &odd_roots)) return 0;
        if (h->num_joints && ps->parent != m->joints[i].parent)
            return iqi_fail(ctx, IQ_ERROR_BAD_HIERARCHY, at, "pose %u has parent %d but joint %u has parent %d", i,
                            ps->parent, i, m->joints[i].parent);
        ps->mask = iqi_u32(r + 4);
        if (ps->mask & ~0x3FFu)
            return iqi_fail(ctx, IQ_ERROR_BAD_ANIMATION, at + 4, "pose %u: channel mask 0x%x has bits above the 10 channels",
                            i, ps->mask);
        for (int k = 0; k < 10; k++) {
            ps->offset[k] = iqi_f32(r + 8 + 4 * k);
            ps->scale[k] = iqi_f32(r + 48 + 4 * k);
            if (!iqi_finite(ps->offset[k]) || !iqi_finite(ps->scale[k]))
                return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, at + 8 + 4 * k, "pose %u: channel %d offset or scale is not finite",
                                i, k);
            if (ps->mask & (1u << k)) channels++;
        }
    }
    if (odd_roots) iqi_warn(ctx, IQ_WARNING_REPAIRED, "%u poses had a negative parent other than -1; read as roots", odd_roots);
    if (channels != h->num_framechannels)
        return iqi_fail(ctx, IQ_ERROR_BAD_ANIMATION, FIELD_OFFSET(num_framechannels),
                        "the pose masks use %llu channels but the header says %u", (unsigned long long)channels,
                        h->num_framechannels);
    if (!h->num_joints) {
        /* An animation-only file (guyanim.iqm): the poses carry the hierarchy. */
        m->joints = iqi_alloc(ctx, h->num_poses, sizeof(iq_joint), "joints");
        if (!m->joints) return 0;
        m->joint_count = h->num_poses;
        for (uint32_t i = 0; i < h->num_poses; i++) {
            m->joints[i].name = "";
            m->joints[i].parent = poses[i].parent;
            m->joints[i].bind = (iq_transform){{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
        }
        iqi_warn(ctx, IQ_WARNING_NO_BIND_POSE, "%u poses but no joints: joints are unnamed and have an identity bind pose",
                 h->num_poses);
    }
    *out = poses;
    return 1;
}

static int read_frames(iqm_parser *p, const pose *poses) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    const iqm_header *h = &p->h;
    if (h->num_frames > ctx->limits.max_frames)
        return iqi_fail(ctx, IQ_ERROR_LIMIT, FIELD_OFFSET(num_frames), "%u frames; the limit is %u", h->num_frames,
                        ctx->limits.max_frames);
    if (!check_section(p, "frames", FIELD_OFFSET(ofs_frames), h->ofs_frames, (uint64_t)h->num_frames * h->num_framechannels,
                               2, 2))
        return 0;
    m->frame_count = h->num_frames;
    if (!h->num_frames) {
        if (h->num_poses) iqi_warn(ctx, IQ_WARNING_EMPTY, "%u poses but no frames", h->num_poses);
        return 1;
    }
    if (!poses) {
        iqi_warn(ctx, IQ_WARNING_IGNORED_DATA, "%u frames but no poses: the frames hold nothing", h->num_frames);
        return 1;
    }
    uint32_t nj = h->num_poses;
    m->frame_poses = iqi_alloc(ctx, (uint64_t)h->num_frames * nj, sizeof(iq_transform), "decoded frames");
    if (!m->frame_poses) return 0;
    const uint8_t *src = p->d + h->ofs_frames;
    for (uint32_t f = 0; f < h->num_frames; f++) {
        for (uint32_t j = 0; j < nj; j++) {
            const pose *ps = &poses[j];
            float v[10];
            for (int k = 0; k < 10; k++) {
                /* the channel's value in the frame data, or the pose's offset when it is not animated */
                int64_t at = (ps->mask & (1u << k)) ? (int64_t)(src - p->d) : (int64_t)h->ofs_poses + (int64_t)j * IQM_POSE_SIZE + 8 + 4 * k;
                v[k] = ps->offset[k];
                if (ps->mask & (1u << k)) {
                    v[k] += iqi_u16(src) * ps->scale[k];
                    src += 2;
                }
                if (!iqi_usable(ctx, v[k]))
                    return iqi_fail_value(ctx, at, 0, v[k], "frame %u, joint %u: channel %d", f, j, k);
            }
            iq_transform *t = &m->frame_poses[(size_t)f * nj + j];
            for (int k = 0; k < 3; k++) {
                t->translate[k] = v[k];
                t->scale[k] = v[7 + k];
            }
            for (int k = 0; k < 4; k++) t->rotate[k] = v[3 + k];
            iqi_quat_normalize(t->rotate); /* quantised quaternions are not unit length */
        }
    }
    return 1;
}

static int read_anims(iqm_parser *p) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    const iqm_header *h = &p->h;
    if (!check_section(p, "animations", FIELD_OFFSET(ofs_anims), h->ofs_anims, h->num_anims, IQM_ANIM_SIZE, 4)) return 0;
    if (!h->num_anims) return 1;
    m->animations = iqi_alloc(ctx, h->num_anims, sizeof(iq_animation), "animations");
    if (!m->animations) return 0;
    m->animation_count = h->num_anims;
    uint32_t empty = 0;
    for (uint32_t i = 0; i < h->num_anims; i++) {
        uint32_t at = h->ofs_anims + i * IQM_ANIM_SIZE;
        const uint8_t *r = p->d + at;
        iq_animation *a = &m->animations[i];
        if (!get_string(p, iqi_u32(r), at, "animation name", &a->name)) return 0;
        a->first_frame = iqi_u32(r + 4);
        a->frame_count = iqi_u32(r + 8);
        a->framerate = iqi_f32(r + 12);
        a->flags = iqi_u32(r + 16) & IQ_ANIMATION_LOOP;
        if ((uint64_t)a->first_frame + a->frame_count > h->num_frames)
            return iqi_fail(ctx, IQ_ERROR_BAD_ANIMATION, at + 4,
                            "animation %u ('%s'): frames %u..%llu are past the %u frames of the file", i, a->name,
                            a->first_frame, (unsigned long long)a->first_frame + a->frame_count, h->num_frames);
        if (!iqi_finite(a->framerate) || a->framerate < 0)
            return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, at + 12, "animation %u ('%s'): framerate %g", i, a->name, a->framerate);
        if (a->frame_count == 0) empty++;
    }
    if (empty) iqi_warn(ctx, IQ_WARNING_EMPTY, "%u animation(s) have no frames", empty);
    return 1;
}

// -- Bounds, comment, extensions

static int read_bounds(iqm_parser *p) {
    iq_model *m = p->ctx->model;
    const iqm_header *h = &p->h;
    if (!h->ofs_bounds || !h->num_frames) return 1;
    if (!check_section(p, "bounds", FIELD_OFFSET(ofs_bounds), h->ofs_bounds, h->num_frames, IQM_BOUNDS_SIZE, 4)) return 0;
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
    if (!check_section(p, "comment", FIELD_OFFSET(ofs_comment), h->ofs_comment, h->num_comment, 1, 1)) return 0;
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
        if (!check_section(p, "extension", link, at, 1, IQM_EXTENSION_SIZE, 4)) return 0;
        const uint8_t *r = p->d + at;
        iq_extension *e = &m->extensions[count];
        uint32_t ofs_data = iqi_u32(r + 8);
        if (!get_string(p, iqi_u32(r), at, "extension name", &e->name)) return 0;
        e->size = iqi_u32(r + 4);
        if (!check_section(p, "extension data", at + 8, ofs_data, e->size, 1, 1)) return 0;
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
    return read_header(&p) && read_text(&p) && read_meshes(&p) && read_joints(&p) && read_poses(&p, &poses) &&
           read_vertex_arrays(&p) && read_triangles(&p) && read_frames(&p, poses) && read_anims(&p) &&
           read_bounds(&p) && read_comment_and_extensions(&p);
}
