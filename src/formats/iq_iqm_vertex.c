/* IQM vertex arrays: each array's type, format and size checked, then
 * converted into the model's canonical arrays (positions, normals, texcoords,
 * tangents, colours, blend indices and weights), repaired where real files
 * need it; custom arrays are kept as they are. */
#include "formats/iq_iqm_internal.h"
#include <math.h>

typedef struct vertex_array {
    uint32_t type, format, size, offset;
    int64_t header_at;
} vertex_array;

/* Converts one standard array into `components` floats per vertex; missing
 * components take `defaults`. Positions must be usable (finite, within the
 * magnitude limit); other arrays are optional data, repaired per vertex
 * (iq_numbers.c). kind < 0 means positions. */
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

int iqi_iqm_read_vertex_arrays(iqm_parser *p) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    const iqm_header *h = &p->h;
    if (!iqi_iqm_check_section(p, "vertex arrays", FIELD_OFFSET(ofs_vertexarrays), h->ofs_vertexarrays, h->num_vertexarrays,
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
            if (!iqi_iqm_get_string(p, va.type - IQM_CUSTOM, at, "custom vertex array name", &name)) return 0;
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
            iqi_iqm_get_string(p, va->type - IQM_CUSTOM, va->header_at, "custom vertex array name", &ca->name);
            ca->type = va->type;
            ca->format = (iq_component)va->format;
            ca->size = va->size;
            ca->data = copy;
        }
        m->custom_array_count = customs;
    }
    return 1;
}
