/* glTF 2.0 (GLB) writer: one or more loaded models as one scene (docs/GLTF.md).
 *
 * Axes: the data is written in the library's own Z-up space, bit for bit, and
 * one root node turns it to glTF's Y-up (-90 degrees about X). Poses, inverse
 * binds and tags then compare directly with iq_sample_frame / iq_tag_matrix,
 * and parts hang from tags with no conversion. Skinned mesh nodes sit at the
 * scene root (the spec ignores their parents; the validator warns otherwise):
 * their joints are under the root, so the turn reaches them through the skin.
 * Winding: Quake's clockwise front faces become counter-clockwise by swapping
 * the 2nd and 3rd index of every triangle.
 *
 * Buffers: every accessor has its own 4-aligned bufferView, no strides. The
 * BIN chunk is grown with realloc and capped below 4 GiB (GLB sizes are 32-bit).
 *
 * One file, read top to bottom: the writer's state, the GLB container (JSON
 * text, BIN chunk, accessors, nodes), scene checks and clips, materials,
 * parts (nodes, vertex data, meshes, skins), MD3 frames as morph targets,
 * animations, and the entry points last. Every step does nothing once the
 * writer has failed (w->failed): the first error wins and callers check
 * w->failed when they need to. */
#include "write/iq_gltf.h"
#include "base/iq_internal.h"
#include "base/iq_math.h"
#include "formats/iq_iqm_format.h"
#include <stddef.h>
#include <stdio.h>

// -- The writer's state

#define GLB_MAX ((uint64_t)UINT32_MAX - 64) /* room for the headers */

enum { CT_UBYTE = 5121, CT_USHORT = 5123, CT_UINT = 5125, CT_FLOAT = 5126 };
enum { TARGET_ARRAY = 34962, TARGET_ELEMENTS = 34963 };

typedef struct sbuf { char *p; size_t n, cap; } sbuf;

/* A node, emitted at the end once every child is known. */
typedef struct gnode {
    char *name;
    int32_t parent, mesh, skin;
    int32_t first_child, next_sibling, last_child;
    float t[3], r[4], s[3];
    int has_t, has_r, has_s;
    char *extras;             /* raw JSON object or NULL */
} gnode;

/* The internal form of a clip (defaults filled in). */
typedef struct clip {
    char *name;
    float fps;
    int loop;
    iq_gltf_range *ranges;    /* part_count */
} clip;

/* One morph-animated mesh node: a chunk of <= IQ_GLTF_MAX_TARGETS + 1 frames of one clip. */
typedef struct chunk {
    uint32_t clip, part, node;
    uint32_t first, last;     /* local frames of the clip range; first is the mesh's base */
} chunk;

typedef struct part_info {
    int32_t node;             /* the part's node */
    int32_t joint_node;       /* node of joint 0 (joints are consecutive) */
    int32_t tag_node;         /* node of tag 0 */
    int32_t rest_node;        /* MD3: the static mesh shown when no clip plays */
    int32_t mesh_node;        /* skeletal: the (root) skinned mesh node */
} part_info;

typedef struct gw {
    const iq_gltf_scene *scene;
    iq_error *error;
    int failed;
    uint8_t *bin;
    size_t blen, bcap;
    float *tmp;               /* scratch for accessor data */
    size_t tmp_cap;
    sbuf acc, views, meshes, mats, texs, imgs, skins, anims;
    uint32_t n_acc, n_views, n_meshes, n_mats, n_texs, n_imgs, n_skins, n_anims;
    gnode *nodes;
    uint32_t n_nodes, nodes_cap;
    clip *clips;
    uint32_t n_clips;
    chunk *chunks;
    uint32_t n_chunks, chunks_cap;
    part_info *pinfo;
    uint32_t **part_mats;     /* per part, per mesh: material index */
} gw;

/* Vertex data of one part, shared by every mesh of the part (accessor indices, -1 = none). */
typedef struct vattrs {
    int32_t position, normal, texcoord, tangent, color, joints, weights;
    int32_t *custom;          /* custom_array_count */
    char **custom_names;
    int32_t *indices;         /* per mesh; -1 for an empty mesh */
} vattrs;

/* One glTF animation's samplers and channels while its parts are written. */
typedef struct anim_builder { sbuf samplers, channels; uint32_t n_samplers; } anim_builder;

static inline int iqi_gltf_is_md3(const iq_model *m) { return m->frame_positions && m->frame_count && !m->joint_count; }
static inline int iqi_gltf_skinned(const iq_model *m) { return m->joint_count && m->blend_indices && m->blend_weights; }

/* The sections below call each other in the order of the work (a part writes
 * its morph chunks, an animation their channels): their functions, by section.
 * The JSON and error helpers are called from a few hundred places: kept out of
 * line (inlined everywhere they cost over 10 KB of WASM, for nothing a GLB
 * export would notice). */
/* GLB container */
/* Records the first error; returns 0. */
static IQI_NOINLINE int iqi_gltf_fail(gw *w, iq_error_code code, const char *fmt, ...) IQI_PRINTF(3, 4);
static IQI_NOINLINE void iqi_json_put(gw *w, sbuf *b, const char *s, size_t n);
#define iqi_json_lit(w, b, s) iqi_json_put(w, b, s, sizeof(s) - 1)
static IQI_NOINLINE void iqi_json_printf(gw *w, sbuf *b, const char *fmt, ...) IQI_PRINTF(3, 4);
static IQI_NOINLINE void iqi_json_str_n(gw *w, sbuf *b, const char *str, size_t n);
static IQI_NOINLINE void iqi_json_str(gw *w, sbuf *b, const char *s);
static IQI_NOINLINE void iqi_json_floats(gw *w, sbuf *b, const float *v, int n);
static IQI_NOINLINE void iqi_json_sep(gw *w, sbuf *b); /* a comma unless b is empty */
static IQI_NOINLINE char *iqi_gltf_dup_printf(gw *w, const char *fmt, ...) IQI_PRINTF(2, 3);
static uint8_t *iqi_gltf_bin_alloc(gw *w, uint64_t n, size_t *offset);
static float *iqi_gltf_scratch(gw *w, uint64_t floats); /* reused: valid until the next call */
static int32_t iqi_gltf_add_view(gw *w, size_t offset, size_t length, int target);
static int32_t iqi_gltf_acc_floats(gw *w, const float *data, uint32_t count, int ncomp, int target, int minmax);
static int32_t iqi_gltf_acc_ints(gw *w, const uint32_t *data, uint64_t n, uint32_t count, int ncomp, int ctype, int target);
static int32_t iqi_gltf_add_node(gw *w, int32_t parent, char *name); /* takes name (freed on failure) */
static void iqi_gltf_node_trs(gnode *n, const float *t, const float *r, const float *s);
static uint8_t *iqi_gltf_assemble(gw *w, size_t *size_out);

/* Clips */
static uint32_t iqi_gltf_range_keys(const clip *cl, iq_gltf_range r, const iq_model *m);
/* The global frame of key k of a range (the seam key is the first frame). */
static inline uint32_t iqi_gltf_key_frame(iq_gltf_range r, uint32_t k) { return r.first_frame + (k < r.frame_count ? k : 0); }

/* Materials */
static int iqi_gltf_write_materials(gw *w);

/* Parts */
static int iqi_gltf_write_part(gw *w, uint32_t p, int32_t root);
static int32_t iqi_gltf_unit_vectors(gw *w, const float *src, uint32_t nv, int ncomp);
static int32_t iqi_gltf_write_mesh(gw *w, uint32_t part, const vattrs *va, const char *name, int32_t position, int32_t normal,
                            const int32_t *targets, uint32_t target_count, int normal_targets);

/* Morph targets */
static int iqi_gltf_write_morph_part(gw *w, uint32_t p, const vattrs *va);
static int iqi_gltf_morph_channels(gw *w, anim_builder *ab, uint32_t c, uint32_t p, float fps);

/* Animations */
static void iqi_gltf_tag_trs(const iq_model *m, uint32_t tag, uint32_t frame_a, uint32_t frame_b, float blend, float t[3], float r[4],
                      float s[3]);
static void iqi_gltf_channel(gw *w, anim_builder *ab, int32_t input, int32_t output, int32_t node, const char *path, const char *interp);
static int iqi_gltf_write_animation(gw *w, uint32_t c);

// -- GLB container: JSON text, BIN chunk, accessors, nodes, the GLB

/* The GLB container of the glTF writer: the JSON text (escaped, valid UTF-8,
 * floats that round-trip), the BIN chunk and its accessors, the node list, and
 * the final bytes (header, JSON chunk padded with spaces, BIN chunk). */

static int iqi_gltf_fail(gw *w, iq_error_code code, const char *fmt, ...) {
    if (w->failed) return 0;
    va_list ap;
    va_start(ap, fmt);
    iqi_set_errorv(w->error, code, fmt, ap);
    va_end(ap);
    w->failed = 1;
    return 0;
}

/* -- JSON text */
static int sb_reserve(gw *w, sbuf *b, size_t more) {
    if (w->failed) return 0;
    if (more > GLB_MAX || b->n + more > GLB_MAX) return iqi_gltf_fail(w, IQ_ERROR_LIMIT, "the glTF JSON would be over 4 GiB");
    if (b->n + more + 1 <= b->cap) return 1;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + more + 1) cap *= 2;
    char *p = iqi_realloc(b->p, cap);
    if (!p) return iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for the glTF JSON");
    b->p = p;
    b->cap = cap;
    return 1;
}

static void iqi_json_put(gw *w, sbuf *b, const char *s, size_t n) {
    if (!sb_reserve(w, b, n)) return;
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

#define iqi_json_lit(w, b, s) iqi_json_put(w, b, s, sizeof(s) - 1)

static void iqi_json_printf(gw *w, sbuf *b, const char *fmt, ...) {
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof tmp) { iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "internal: JSON fragment too long"); return; }
    iqi_json_put(w, b, tmp, (size_t)n);
}

/* Names come from files: the JSON must stay valid UTF-8, so a byte that does
 * not start a well-formed sequence becomes U+FFFD. */
static size_t utf8_seq(const uint8_t *s, size_t n) {
    uint8_t c = s[0];
    size_t len = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (!len || len > n) return 0;
    for (size_t k = 1; k < len; k++)
        if ((s[k] & 0xC0) != 0x80) return 0;
    if (c == 0xE0 && s[1] < 0xA0) return 0; /* overlong */
    if (c == 0xED && s[1] >= 0xA0) return 0; /* surrogates */
    if (c == 0xF0 && s[1] < 0x90) return 0;
    if (c == 0xF4 && s[1] >= 0x90) return 0;
    return len;
}

static void iqi_json_str_n(gw *w, sbuf *b, const char *str, size_t n) {
    const uint8_t *s = (const uint8_t *)str;
    iqi_json_lit(w, b, "\"");
    for (size_t i = 0; i < n && !w->failed;) {
        uint8_t c = s[i];
        if (c == '"' || c == '\\') { char e[2] = {'\\', (char)c}; iqi_json_put(w, b, e, 2); i++; continue; }
        if (c < 0x20) { iqi_json_printf(w, b, "\\u%04x", c); i++; continue; }
        size_t len = utf8_seq(s + i, n - i);
        if (!len) { iqi_json_lit(w, b, "\xEF\xBF\xBD"); i++; continue; }
        iqi_json_put(w, b, (const char *)s + i, len);
        i += len;
    }
    iqi_json_lit(w, b, "\"");
}
static void iqi_json_str(gw *w, sbuf *b, const char *s) { iqi_json_str_n(w, b, s ? s : "", s ? strlen(s) : 0); }

/* %.9g round-trips every float exactly. */
static void iqi_json_floats(gw *w, sbuf *b, const float *v, int n) {
    iqi_json_lit(w, b, "[");
    for (int i = 0; i < n; i++) iqi_json_printf(w, b, "%s%.9g", i ? "," : "", (double)(v[i] == 0 ? 0.0f : v[i]));
    iqi_json_lit(w, b, "]");
}
static void iqi_json_sep(gw *w, sbuf *b) { if (b->n) iqi_json_lit(w, b, ","); }

static char *iqi_gltf_dup_printf(gw *w, const char *fmt, ...) {
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) n = 0;
    if ((size_t)n >= sizeof tmp) n = sizeof tmp - 1; /* long names are cut, never an error */
    char *s = iqi_malloc((size_t)n + 1);
    if (!s) { iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for names"); return NULL; }
    memcpy(s, tmp, (size_t)n);
    s[n] = 0;
    return s;
}

/* -- BIN chunk */
static uint8_t *iqi_gltf_bin_alloc(gw *w, uint64_t n, size_t *offset) {
    if (w->failed) return NULL;
    uint64_t at = (w->blen + 3) & ~(uint64_t)3;
    if (n > GLB_MAX || at + n > GLB_MAX) { iqi_gltf_fail(w, IQ_ERROR_LIMIT, "the glTF binary data would be over 4 GiB"); return NULL; }
    if (at + n > w->bcap) {
        uint64_t cap = w->bcap ? w->bcap : 4096;
        while (cap < at + n) cap *= 2;
        if (cap > SIZE_MAX) { iqi_gltf_fail(w, IQ_ERROR_LIMIT, "the glTF binary data does not fit in memory"); return NULL; }
        uint8_t *p = iqi_realloc(w->bin, (size_t)cap);
        if (!p) { iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for the glTF binary data"); return NULL; }
        w->bin = p;
        w->bcap = (size_t)cap;
    }
    memset(w->bin + w->blen, 0, (size_t)(at + n - w->blen));
    *offset = (size_t)at;
    w->blen = (size_t)(at + n);
    return w->bin + at;
}

static float *iqi_gltf_scratch(gw *w, uint64_t floats) {
    if (w->failed) return NULL;
    if (floats > GLB_MAX / 4) { iqi_gltf_fail(w, IQ_ERROR_LIMIT, "the glTF binary data would be over 4 GiB"); return NULL; }
    if (floats > w->tmp_cap) {
        float *p = iqi_realloc(w->tmp, (size_t)floats * 4 + 4);
        if (!p) { iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for glTF data"); return NULL; }
        w->tmp = p;
        w->tmp_cap = (size_t)floats;
    }
    return w->tmp;
}

static void put_u32(uint8_t *p, uint32_t v) { for (int k = 0; k < 4; k++) p[k] = (uint8_t)(v >> (8 * k)); }
static void put_f32(uint8_t *p, float f) { uint32_t u; memcpy(&u, &f, 4); put_u32(p, u); }

static int32_t iqi_gltf_add_view(gw *w, size_t offset, size_t length, int target) {
    iqi_json_sep(w, &w->views);
    iqi_json_printf(w, &w->views, "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu", offset, length);
    if (target) iqi_json_printf(w, &w->views, ",\"target\":%d", target);
    iqi_json_lit(w, &w->views, "}");
    return (int32_t)w->n_views++;
}

static const char *type_name(int ncomp, int mat4) {
    static const char *names[] = {"", "SCALAR", "VEC2", "VEC3", "VEC4"};
    return mat4 ? "MAT4" : names[ncomp];
}

/* count * ncomp floats from `data` as a new accessor (mat4: ncomp 16, type MAT4);
 * with minmax, per-component min/max as the spec wants for POSITION and times. */
static int32_t iqi_gltf_acc_floats(gw *w, const float *data, uint32_t count, int ncomp, int target, int minmax) {
    size_t ofs;
    uint64_t n = (uint64_t)count * (uint64_t)ncomp;
    uint8_t *p = iqi_gltf_bin_alloc(w, n * 4, &ofs);
    if (!p) return -1;
    float mn[16], mx[16];
    for (int c = 0; c < ncomp; c++) { mn[c] = INFINITY; mx[c] = -INFINITY; }
    for (uint64_t i = 0; i < n; i++) {
        float v = data[i] == 0 ? 0.0f : data[i]; /* no -0 in min/max text vs data */
        int c = (int)(i % (uint64_t)ncomp);
        if (v < mn[c]) mn[c] = v;
        if (v > mx[c]) mx[c] = v;
        put_f32(p + 4 * i, v);
    }
    int32_t view = iqi_gltf_add_view(w, ofs, (size_t)(n * 4), target);
    iqi_json_sep(w, &w->acc);
    iqi_json_printf(w, &w->acc, "{\"bufferView\":%d,\"componentType\":%d,\"count\":%u,\"type\":\"%s\"", view, CT_FLOAT, count,
              type_name(ncomp == 16 ? 4 : ncomp, ncomp == 16));
    if (minmax && count) {
        iqi_json_lit(w, &w->acc, ",\"min\":");
        iqi_json_floats(w, &w->acc, mn, ncomp);
        iqi_json_lit(w, &w->acc, ",\"max\":");
        iqi_json_floats(w, &w->acc, mx, ncomp);
    }
    iqi_json_lit(w, &w->acc, "}");
    return w->failed ? -1 : (int32_t)w->n_acc++;
}

/* Integer accessor (indices, joints): values are written as `ctype`. */
static int32_t iqi_gltf_acc_ints(gw *w, const uint32_t *data, uint64_t n, uint32_t count, int ncomp, int ctype, int target) {
    size_t ofs, csize = ctype == CT_UBYTE ? 1 : ctype == CT_USHORT ? 2 : 4;
    uint8_t *p = iqi_gltf_bin_alloc(w, n * csize, &ofs);
    if (!p) return -1;
    for (uint64_t i = 0; i < n; i++) {
        if (csize == 1) p[i] = (uint8_t)data[i];
        else if (csize == 2) { p[2 * i] = (uint8_t)data[i]; p[2 * i + 1] = (uint8_t)(data[i] >> 8); }
        else put_u32(p + 4 * i, data[i]);
    }
    int32_t view = iqi_gltf_add_view(w, ofs, (size_t)(n * csize), target);
    iqi_json_sep(w, &w->acc);
    iqi_json_printf(w, &w->acc, "{\"bufferView\":%d,\"componentType\":%d,\"count\":%u,\"type\":\"%s\"}", view, ctype, count,
              type_name(ncomp, 0));
    return w->failed ? -1 : (int32_t)w->n_acc++;
}

/* -- Nodes */
static int32_t iqi_gltf_add_node(gw *w, int32_t parent, char *name) {
    if (w->failed) { iqi_free(name); return -1; }
    if (w->n_nodes == w->nodes_cap) {
        uint32_t cap = w->nodes_cap ? w->nodes_cap * 2 : 64;
        gnode *p = iqi_realloc(w->nodes, (size_t)cap * sizeof *p);
        if (!p) { iqi_free(name); iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for nodes"); return -1; }
        w->nodes = p;
        w->nodes_cap = cap;
    }
    int32_t i = (int32_t)w->n_nodes++;
    gnode *n = &w->nodes[i];
    memset(n, 0, sizeof *n);
    n->name = name;
    n->parent = parent;
    n->mesh = n->skin = n->first_child = n->next_sibling = n->last_child = -1;
    if (parent >= 0) {
        gnode *p = &w->nodes[parent];
        if (p->last_child < 0) p->first_child = i;
        else w->nodes[p->last_child].next_sibling = i;
        p->last_child = i;
    }
    return i;
}

static void iqi_gltf_node_trs(gnode *n, const float *t, const float *r, const float *s) {
    if (t) { memcpy(n->t, t, 12); n->has_t = 1; }
    if (r) { memcpy(n->r, r, 16); n->has_r = 1; }
    if (s) { memcpy(n->s, s, 12); n->has_s = 1; }
}

/* -- Assembly */
static void section(gw *w, sbuf *out, const char *key, const sbuf *items) {
    if (!items->n) return;
    iqi_json_printf(w, out, ",\"%s\":[", key);
    iqi_json_put(w, out, items->p, items->n);
    iqi_json_lit(w, out, "]");
}

static void write_nodes(gw *w, sbuf *out) {
    iqi_json_lit(w, out, ",\"nodes\":[");
    for (uint32_t i = 0; i < w->n_nodes && !w->failed; i++) {
        const gnode *n = &w->nodes[i];
        iqi_json_put(w, out, i ? ",{\"name\":" : "{\"name\":", i ? 9 : 8);
        iqi_json_str(w, out, n->name);
        if (n->first_child >= 0) {
            iqi_json_lit(w, out, ",\"children\":[");
            for (int32_t c = n->first_child; c >= 0; c = w->nodes[c].next_sibling)
                iqi_json_printf(w, out, "%d%s", c, w->nodes[c].next_sibling >= 0 ? "," : "");
            iqi_json_lit(w, out, "]");
        }
        if (n->mesh >= 0) iqi_json_printf(w, out, ",\"mesh\":%d", n->mesh);
        if (n->skin >= 0) iqi_json_printf(w, out, ",\"skin\":%d", n->skin);
        if (n->has_t) { iqi_json_lit(w, out, ",\"translation\":"); iqi_json_floats(w, out, n->t, 3); }
        if (n->has_r) { iqi_json_lit(w, out, ",\"rotation\":"); iqi_json_floats(w, out, n->r, 4); }
        if (n->has_s) { iqi_json_lit(w, out, ",\"scale\":"); iqi_json_floats(w, out, n->s, 3); }
        if (n->extras) { iqi_json_lit(w, out, ",\"extras\":"); iqi_json_put(w, out, n->extras, strlen(n->extras)); }
        iqi_json_lit(w, out, "}");
    }
    iqi_json_lit(w, out, "]");
}

static uint8_t *iqi_gltf_assemble(gw *w, size_t *size_out) {
    sbuf js = {0};
    iqi_json_lit(w, &js, "{\"asset\":{\"version\":\"2.0\",\"generator\":\"interquake\"},\"scene\":0,\"scenes\":[{\"nodes\":[");
    int first = 1;
    for (uint32_t i = 0; i < w->n_nodes; i++)
        if (w->nodes[i].parent < 0) { iqi_json_printf(w, &js, "%s%u", first ? "" : ",", i); first = 0; }
    iqi_json_lit(w, &js, "]}]");
    write_nodes(w, &js);
    section(w, &js, "meshes", &w->meshes);
    section(w, &js, "materials", &w->mats);
    section(w, &js, "textures", &w->texs);
    section(w, &js, "images", &w->imgs);
    if (w->n_texs) iqi_json_lit(w, &js, ",\"samplers\":[{\"magFilter\":9729,\"minFilter\":9987}]");
    section(w, &js, "skins", &w->skins);
    section(w, &js, "animations", &w->anims);
    section(w, &js, "accessors", &w->acc);
    section(w, &js, "bufferViews", &w->views);
    if (w->blen) iqi_json_printf(w, &js, ",\"buffers\":[{\"byteLength\":%zu}]", (w->blen + 3) & ~(size_t)3);
    iqi_json_lit(w, &js, "}");
    if (w->failed) { iqi_free(js.p); return NULL; }
    uint64_t jlen = (js.n + 3) & ~(uint64_t)3, blen = (w->blen + 3) & ~(uint64_t)3;
    uint64_t total = 12 + 8 + jlen + (blen ? 8 + blen : 0);
    if (total > UINT32_MAX) { iqi_free(js.p); iqi_gltf_fail(w, IQ_ERROR_LIMIT, "the GLB would be %llu bytes, over 4 GiB", (unsigned long long)total); return NULL; }
    uint8_t *b = iqi_malloc((size_t)total);
    if (!b) { iqi_free(js.p); iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for the GLB"); return NULL; }
    memcpy(b, "glTF", 4);
    put_u32(b + 4, 2);
    put_u32(b + 8, (uint32_t)total);
    put_u32(b + 12, (uint32_t)jlen);
    memcpy(b + 16, "JSON", 4);
    memcpy(b + 20, js.p, js.n);
    memset(b + 20 + js.n, ' ', (size_t)(jlen - js.n)); /* the JSON chunk pads with spaces */
    if (blen) {
        uint8_t *c = b + 20 + jlen;
        put_u32(c, (uint32_t)blen);
        memcpy(c + 4, "BIN\0", 4);
        memcpy(c + 8, w->bin, w->blen);
        memset(c + 8 + w->blen, 0, (size_t)(blen - w->blen));
    }
    iqi_free(js.p);
    *size_out = (size_t)total;
    return b;
}

// -- Scene checks and clips
static int check_scene(gw *w) {
    const iq_gltf_scene *s = w->scene;
    if (!s->parts || !s->part_count) return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "a glTF scene needs at least one part");
    if (s->material_count && !s->materials) return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "material_count without materials");
    if (s->clip_count && !s->clips) return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "clip_count without clips");
    if (s->max_morph_targets > IQ_GLTF_MAX_TARGETS)
        return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "max_morph_targets %u is over %u", s->max_morph_targets, IQ_GLTF_MAX_TARGETS);
    if ((unsigned)s->front > IQ_GLTF_FRONT_Z) return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "front %u is not an iq_gltf_front", (unsigned)s->front);
    if (!(s->scale >= 0 && s->scale <= 1e6f)) return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "scale %g is outside 0..1e6", (double)s->scale);
    if (!(fabsf(s->floor) <= 1e6f)) return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "floor %g is not finite or beyond 1e6", (double)s->floor);
    for (uint32_t i = 0; i < s->material_count; i++) {
        const iq_gltf_material *mt = &s->materials[i];
        if (mt->image && (!mt->image_size || !mt->image_mime ||
                          (strcmp(mt->image_mime, "image/png") && strcmp(mt->image_mime, "image/jpeg"))))
            return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "material %u: an image needs a size and the mime type image/png or image/jpeg", i);
        if ((unsigned)mt->alpha_mode > IQ_GLTF_BLEND) return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "material %u: bad alpha mode", i);
        if (!(mt->alpha_cutoff >= 0 && mt->alpha_cutoff <= 1e30f)) return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "material %u: bad alpha cutoff", i);
        for (int k = 0; k < 4; k++)
            if (!(mt->base_color[k] >= 0 && mt->base_color[k] <= 1)) return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "material %u: base colour outside 0..1", i);
    }
    for (uint32_t p = 0; p < s->part_count; p++) {
        const iq_gltf_part *pt = &s->parts[p];
        if (!pt->model) return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "part %u has no model", p);
        if (pt->attached) {
            if (pt->parent >= p) return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "part %u: parent %u is not an earlier part", p, pt->parent);
            const iq_model *pm = s->parts[pt->parent].model;
            uint32_t n = pm->tag_count ? pm->tag_count : pm->joint_count;
            if (pt->attach_index >= n)
                return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "part %u: attach index %u, but the parent has %u %s", p, pt->attach_index, n,
                            pm->tag_count ? "tags" : "joints");
        }
        for (uint32_t i = 0; pt->mesh_materials && i < pt->model->mesh_count; i++)
            if (pt->mesh_materials[i] >= s->material_count)
                return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "part %u mesh %u: material %u of %u", p, i, pt->mesh_materials[i], s->material_count);
    }
    for (uint32_t c = 0; c < s->clip_count; c++) {
        const iq_gltf_clip *cl = &s->clips[c];
        if (!cl->ranges) return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "clip %u has no ranges", c);
        if (!(cl->framerate >= 0 && cl->framerate <= 1e6f)) return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "clip %u: framerate %g", c, (double)cl->framerate);
        for (uint32_t p = 0; p < s->part_count; p++) {
            const iq_gltf_range *r = &cl->ranges[p];
            if ((uint64_t)r->first_frame + r->frame_count > s->parts[p].model->frame_count)
                return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "clip %u part %u: frames %u+%u of %u", c, p, r->first_frame, r->frame_count,
                            s->parts[p].model->frame_count);
        }
    }
    return 1;
}

static float default_fps(const iq_model *m) { return iqi_gltf_is_md3(m) ? IQ_MD3_DEFAULT_FRAMERATE : (float)IQ_DEFAULT_FRAMERATE; }

/* The slowest clip glTF can hold: key times are floats of frame / fps, so a file's framerate of,
 * say, 1e-40 (finite and positive, so loaded) would put them past FLT_MAX. One frame per 1000 s
 * keeps a million frames within 1e9 s. */
#define MIN_CLIP_FRAMERATE 1e-3f

static int add_clip(gw *w, const char *name, float fps, int loop) {
    if (!(fps >= MIN_CLIP_FRAMERATE))
        return iqi_gltf_fail(w, IQ_ERROR_LIMIT, "animation '%s' plays at %g frames per second: below %g, glTF's float key times cannot hold it",
                             name, (double)fps, (double)MIN_CLIP_FRAMERATE);
    clip *c = &w->clips[w->n_clips];
    memset(c, 0, sizeof *c);
    c->name = iqi_gltf_dup_printf(w, "%s", name);
    c->fps = fps;
    c->loop = loop;
    c->ranges = iqi_calloc(w->scene->part_count, sizeof *c->ranges);
    w->n_clips++;
    if (!c->ranges) return iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for clips");
    return !w->failed;
}

static int make_clips(gw *w) {
    const iq_gltf_scene *s = w->scene;
    uint64_t n = s->clip_count;
    if (!n)
        for (uint32_t p = 0; p < s->part_count; p++) {
            const iq_model *m = s->parts[p].model;
            n += m->animation_count ? m->animation_count : m->frame_count > 0;
        }
    if (!n) return 1;
    if (n > 1000000) return iqi_gltf_fail(w, IQ_ERROR_LIMIT, "%llu clips", (unsigned long long)n);
    w->clips = iqi_calloc((size_t)n, sizeof *w->clips);
    if (!w->clips) return iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for clips");
    for (uint32_t c = 0; c < s->clip_count; c++) {
        const iq_gltf_clip *cl = &s->clips[c];
        float fps = cl->framerate;
        for (uint32_t p = 0; p < s->part_count && fps == 0; p++)
            if (cl->ranges[p].frame_count) fps = default_fps(s->parts[p].model);
        char fallback[32];
        snprintf(fallback, sizeof fallback, "clip%u", c);
        if (!add_clip(w, cl->name ? cl->name : fallback, fps ? fps : (float)IQ_DEFAULT_FRAMERATE, cl->loop != 0)) return 0;
        memcpy(w->clips[c].ranges, cl->ranges, s->part_count * sizeof *cl->ranges);
    }
    if (s->clip_count) return 1;
    for (uint32_t p = 0; p < s->part_count; p++) {
        const iq_model *m = s->parts[p].model;
        for (uint32_t a = 0; a < m->animation_count; a++) {
            const iq_animation *an = &m->animations[a];
            float fps = an->framerate > 0 && isfinite(an->framerate) ? an->framerate : default_fps(m);
            if (!add_clip(w, an->name ? an->name : "", fps, (an->flags & IQ_ANIMATION_LOOP) != 0)) return 0;
            uint64_t first = an->first_frame, count = an->frame_count;
            if (first > m->frame_count) first = m->frame_count;
            if (first + count > m->frame_count) count = m->frame_count - first;
            w->clips[w->n_clips - 1].ranges[p] = (iq_gltf_range){(uint32_t)first, (uint32_t)count};
        }
        if (!m->animation_count && m->frame_count) {
            if (!add_clip(w, "all", default_fps(m), 1)) return 0;
            w->clips[w->n_clips - 1].ranges[p] = (iq_gltf_range){0, m->frame_count};
        }
    }
    return 1;
}

/* Keys a clip gives a part: one per frame and, when the clip loops and has two
 * frames or more, one more at frame_count / fps holding the first frame again:
 * the library's repeat mode blends the last frame back into the first, and so
 * do glTF players when the key is there (docs/GLTF.md, "Loop seam"). As in
 * iq_clip_playhead, a skeletal clip of 3+ frames whose last pose is its first
 * (Blender's loops) is already closed: no key is added. */
static uint32_t iqi_gltf_range_keys(const clip *cl, iq_gltf_range r, const iq_model *m) {
    if (!cl->loop || r.frame_count < 2) return r.frame_count;
    if (r.frame_count > 2 && m->frame_poses && m->joint_count &&
        memcmp(m->frame_poses + (size_t)r.first_frame * m->joint_count,
               m->frame_poses + ((size_t)r.first_frame + r.frame_count - 1) * m->joint_count,
               m->joint_count * sizeof(iq_transform)) == 0)
        return r.frame_count;
    return r.frame_count + 1;
}

// -- Materials and images

/* glTF materials and images: the scene's materials (embedded PNG/JPEG in the
 * BIN chunk), and one plain material per mesh for parts without a list. */

static void material_json(gw *w, const char *name, const float *color, int texture, iq_gltf_alpha alpha, float cutoff, int double_sided) {
    static const float white[4] = {1, 1, 1, 1};
    iqi_json_sep(w, &w->mats);
    iqi_json_lit(w, &w->mats, "{\"name\":");
    iqi_json_str(w, &w->mats, name);
    iqi_json_lit(w, &w->mats, ",\"pbrMetallicRoughness\":{\"baseColorFactor\":");
    iqi_json_floats(w, &w->mats, color ? color : white, 4);
    if (texture >= 0) iqi_json_printf(w, &w->mats, ",\"baseColorTexture\":{\"index\":%d}", texture);
    iqi_json_lit(w, &w->mats, ",\"metallicFactor\":0,\"roughnessFactor\":1}");
    if (alpha == IQ_GLTF_MASK) iqi_json_printf(w, &w->mats, ",\"alphaMode\":\"MASK\",\"alphaCutoff\":%.9g", (double)(cutoff > 0 ? cutoff : 0.5f));
    if (alpha == IQ_GLTF_BLEND) iqi_json_lit(w, &w->mats, ",\"alphaMode\":\"BLEND\"");
    if (double_sided) iqi_json_lit(w, &w->mats, ",\"doubleSided\":true");
    iqi_json_lit(w, &w->mats, "}");
    w->n_mats++;
}

static int iqi_gltf_write_materials(gw *w) {
    const iq_gltf_scene *s = w->scene;
    for (uint32_t i = 0; i < s->material_count && !w->failed; i++) {
        const iq_gltf_material *mt = &s->materials[i];
        int tex = -1;
        if (mt->image) {
            size_t ofs;
            uint8_t *p = iqi_gltf_bin_alloc(w, mt->image_size, &ofs);
            if (!p) return 0;
            memcpy(p, mt->image, mt->image_size);
            int32_t view = iqi_gltf_add_view(w, ofs, mt->image_size, 0);
            iqi_json_sep(w, &w->imgs);
            iqi_json_printf(w, &w->imgs, "{\"bufferView\":%d,\"mimeType\":\"%s\"}", view, mt->image_mime);
            iqi_json_sep(w, &w->texs);
            iqi_json_printf(w, &w->texs, "{\"sampler\":0,\"source\":%u}", w->n_imgs++);
            tex = (int)w->n_texs++;
        }
        int zero = !mt->base_color[0] && !mt->base_color[1] && !mt->base_color[2] && !mt->base_color[3];
        char fallback[32];
        snprintf(fallback, sizeof fallback, "material%u", i);
        material_json(w, mt->name ? mt->name : fallback, zero ? NULL : mt->base_color, tex, mt->alpha_mode, mt->alpha_cutoff, mt->double_sided != 0);
    }
    /* Parts without a material list: one plain material per mesh. */
    w->part_mats = iqi_calloc(s->part_count, sizeof *w->part_mats);
    if (!w->part_mats) return iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for materials");
    for (uint32_t p = 0; p < s->part_count && !w->failed; p++) {
        const iq_model *m = s->parts[p].model;
        w->part_mats[p] = iqi_malloc((size_t)m->mesh_count * 4 + 4);
        if (!w->part_mats[p]) return iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for materials");
        for (uint32_t i = 0; i < m->mesh_count; i++) {
            if (s->parts[p].mesh_materials) { w->part_mats[p][i] = s->parts[p].mesh_materials[i]; continue; }
            w->part_mats[p][i] = w->n_mats;
            const char *name = m->meshes[i].material && *m->meshes[i].material ? m->meshes[i].material : m->meshes[i].name;
            material_json(w, name, NULL, -1, IQ_GLTF_OPAQUE, 0, 0);
        }
    }
    return !w->failed;
}

// -- Parts: nodes, vertex data, meshes, skins

/* A part of a glTF scene: its nodes (part, joints, tags), its vertex data
 * (attributes shared by every mesh of the part, indices per mesh), meshes and skin. */

static void free_vattrs(vattrs *va, uint32_t ncustom) {
    for (uint32_t i = 0; va->custom_names && i < ncustom; i++) iqi_free(va->custom_names[i]);
    iqi_free(va->custom_names);
    iqi_free(va->custom);
    iqi_free(va->indices);
}

/* Unit vectors as the spec wants (the validator checks); w of tangents +-1. */
static int32_t iqi_gltf_unit_vectors(gw *w, const float *src, uint32_t nv, int ncomp) {
    float *t = iqi_gltf_scratch(w, (uint64_t)nv * ncomp);
    if (!t) return -1;
    for (uint32_t v = 0; v < nv; v++) {
        const float *a = src + (size_t)ncomp * v;
        float *o = t + (size_t)ncomp * v;
        double len = sqrt((double)a[0] * a[0] + (double)a[1] * a[1] + (double)a[2] * a[2]);
        if (len > 1e-20 && isfinite(len))
            for (int k = 0; k < 3; k++) o[k] = (float)(a[k] / len);
        else { o[0] = 0; o[1] = 0; o[2] = 1; }
        if (ncomp == 4) o[3] = a[3] < 0 ? -1.0f : 1.0f;
    }
    return iqi_gltf_acc_floats(w, t, nv, ncomp, TARGET_ARRAY, 0);
}

/* Custom arrays as `_NAME` FLOAT attributes holding the stored values as they
 * are (not normalised): FLOAT is the one component type every size and
 * alignment allows. Non-finite values (a custom array is raw bytes) become 0. */
static int write_custom(gw *w, const iq_model *m, vattrs *va) {
    uint32_t nc = m->custom_array_count, nv = m->vertex_count;
    va->custom = iqi_malloc((size_t)nc * sizeof *va->custom + 1);
    va->custom_names = iqi_calloc((size_t)nc + 1, sizeof *va->custom_names);
    if (!va->custom || !va->custom_names) return iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for custom arrays");
    for (uint32_t i = 0; i < nc; i++) {
        const iq_custom_array *ca = &m->custom_arrays[i];
        va->custom[i] = -1;
        if (ca->size < 1 || ca->size > 4 || (unsigned)ca->format > IQ_DOUBLE || !ca->data || !nv) continue;
        char name[80];
        size_t n = 0;
        name[n++] = '_';
        for (const char *c = ca->name ? ca->name : ""; *c && n < 60; c++)
            name[n++] = (*c >= 'a' && *c <= 'z') ? (char)(*c - 32) : ((*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')) ? *c : '_';
        name[n] = 0;
        for (uint32_t j = 0; j < i; j++) /* attribute names must be unique */
            if (va->custom_names[j] && !strcmp(va->custom_names[j], name)) { snprintf(name + n, sizeof name - n, "_%u", i); break; }
        va->custom_names[i] = iqi_gltf_dup_printf(w, "%s", name);
        float *t = iqi_gltf_scratch(w, (uint64_t)nv * ca->size);
        if (!t || !va->custom_names[i]) return 0;
        const uint8_t *d = ca->data;
        for (uint64_t k = 0; k < (uint64_t)nv * ca->size; k++) {
            float v = (float)iqi_component_read_plain(d + k * iqi_component_size[ca->format], ca->format);
            t[k] = isfinite(v) ? v : 0.0f;
        }
        va->custom[i] = iqi_gltf_acc_floats(w, t, nv, (int)ca->size, TARGET_ARRAY, 0);
    }
    return !w->failed;
}

/* JOINTS_0 / WEIGHTS_0: a joint listed twice is merged into one slot, unused
 * slots point at joint 0 with weight 0, and weights are renormalised in float
 * with the rounding left over put on the largest, so they sum to 1 as the
 * validator measures. */
static int write_skin_attrs(gw *w, const iq_model *m, vattrs *va) {
    uint32_t nv = m->vertex_count;
    uint32_t *j = iqi_malloc((size_t)nv * 16 + 16);
    float *wt = iqi_gltf_scratch(w, (uint64_t)nv * 4);
    if (!j || !wt) { iqi_free(j); return j ? 0 : iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for joints"); }
    for (uint32_t v = 0; v < nv; v++) {
        uint32_t *jo = j + 4 * (size_t)v;
        float *wo = wt + 4 * (size_t)v;
        int n = 0;
        for (int k = 0; k < 4; k++) {
            uint32_t idx = m->blend_indices[4 * (size_t)v + k];
            float x = m->blend_weights[4 * (size_t)v + k];
            if (!(x > 0)) continue;
            int s = 0;
            while (s < n && jo[s] != idx) s++;
            if (s == n) { jo[n] = idx; wo[n] = 0; n++; }
            wo[s] += x;
        }
        double sum = 0;
        for (int k = 0; k < n; k++) sum += wo[k];
        if (!n || !(sum > 0)) { n = 1; jo[0] = 0; wo[0] = 1; sum = 1; }
        int big = 0;
        for (int k = 0; k < n; k++) {
            wo[k] = (float)(wo[k] / sum);
            if (wo[k] > wo[big]) big = k;
        }
        for (int k = n; k < 4; k++) { jo[k] = 0; wo[k] = 0; }
        float rest = 0;
        for (int k = 0; k < 4; k++)
            if (k != big) rest += wo[k];
        wo[big] = 1.0f - rest;
    }
    va->weights = iqi_gltf_acc_floats(w, wt, nv, 4, TARGET_ARRAY, 0);
    va->joints = iqi_gltf_acc_ints(w, j, (uint64_t)nv * 4, nv, 4, m->joint_count <= 256 ? CT_UBYTE : CT_USHORT, TARGET_ARRAY);
    iqi_free(j);
    return !w->failed;
}

static int write_vertex_data(gw *w, const iq_model *m, vattrs *va) {
    uint32_t nv = m->vertex_count;
    memset(va, 0xFF, offsetof(vattrs, custom));
    va->custom = NULL;
    va->custom_names = NULL;
    va->indices = iqi_malloc((size_t)m->mesh_count * sizeof *va->indices + 1);
    if (!va->indices) return iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for meshes");
    if (!nv) {
        for (uint32_t i = 0; i < m->mesh_count; i++) va->indices[i] = -1;
        return 1;
    }
    va->position = iqi_gltf_acc_floats(w, m->positions, nv, 3, TARGET_ARRAY, 1);
    if (m->normals) va->normal = iqi_gltf_unit_vectors(w, m->normals, nv, 3);
    if (m->tangents) va->tangent = iqi_gltf_unit_vectors(w, m->tangents, nv, 4);
    if (m->texcoords) va->texcoord = iqi_gltf_acc_floats(w, m->texcoords, nv, 2, TARGET_ARRAY, 0);
    if (m->colors) {
        float *t = iqi_gltf_scratch(w, (uint64_t)nv * 4);
        if (!t) return 0;
        for (uint64_t k = 0; k < (uint64_t)nv * 4; k++) t[k] = m->colors[k] < 0 ? 0 : m->colors[k] > 1 ? 1 : m->colors[k];
        va->color = iqi_gltf_acc_floats(w, t, nv, 4, TARGET_ARRAY, 0);
    }
    if (iqi_gltf_skinned(m) && !write_skin_attrs(w, m, va)) return 0;
    if (!write_custom(w, m, va)) return 0;
    /* Indices: one accessor per mesh, winding swapped for counter-clockwise front faces. */
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        const iq_mesh *mesh = &m->meshes[i];
        va->indices[i] = -1;
        if (!mesh->triangle_count || (uint64_t)mesh->first_triangle + mesh->triangle_count > m->triangle_count) continue;
        uint64_t n = 3ull * mesh->triangle_count;
        uint32_t *idx = iqi_malloc((size_t)n * 4);
        if (!idx) return iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for indices");
        const uint32_t *src = m->indices + 3ull * mesh->first_triangle;
        for (uint64_t t = 0; t < n; t += 3) {
            idx[t] = src[t];
            idx[t + 1] = src[t + 2];
            idx[t + 2] = src[t + 1];
        }
        /* 0xFFFF would be a restart value for UNSIGNED_SHORT; vertex_count <= 65535 keeps indices below it */
        va->indices[i] = iqi_gltf_acc_ints(w, idx, n, (uint32_t)n, 1, nv <= 65535 ? CT_USHORT : CT_UINT, TARGET_ELEMENTS);
        iqi_free(idx);
        if (w->failed) return 0;
    }
    return !w->failed;
}

/* A glTF mesh: one primitive per non-empty model mesh. positions/normals
 * override the part's (MD3 base frames); targets: count morph targets, each
 * with POSITION (and NORMAL when normal_targets) accessors. */
static int32_t iqi_gltf_write_mesh(gw *w, uint32_t part, const vattrs *va, const char *name, int32_t position, int32_t normal,
                            const int32_t *targets, uint32_t target_count, int normal_targets) {
    const iq_model *m = w->scene->parts[part].model;
    uint32_t prims = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++) prims += va->indices[i] >= 0;
    if (!prims) return -1;
    sbuf *b = &w->meshes;
    iqi_json_sep(w, b);
    iqi_json_lit(w, b, "{\"name\":");
    iqi_json_str(w, b, name);
    iqi_json_lit(w, b, ",\"primitives\":[");
    int first = 1;
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        if (va->indices[i] < 0) continue;
        iqi_json_printf(w, b, "%s{\"attributes\":{\"POSITION\":%d", first ? "" : ",", position);
        first = 0;
        if (normal >= 0) iqi_json_printf(w, b, ",\"NORMAL\":%d", normal);
        if (va->tangent >= 0 && normal >= 0) iqi_json_printf(w, b, ",\"TANGENT\":%d", va->tangent);
        if (va->texcoord >= 0) iqi_json_printf(w, b, ",\"TEXCOORD_0\":%d", va->texcoord);
        if (va->color >= 0) iqi_json_printf(w, b, ",\"COLOR_0\":%d", va->color);
        if (va->joints >= 0) iqi_json_printf(w, b, ",\"JOINTS_0\":%d,\"WEIGHTS_0\":%d", va->joints, va->weights);
        for (uint32_t c = 0; c < m->custom_array_count; c++)
            if (va->custom[c] >= 0) {
                iqi_json_lit(w, b, ",");
                iqi_json_str(w, b, va->custom_names[c]);
                iqi_json_printf(w, b, ":%d", va->custom[c]);
            }
        iqi_json_printf(w, b, "},\"indices\":%d,\"material\":%u", va->indices[i], w->part_mats[part][i]);
        if (target_count) {
            iqi_json_lit(w, b, ",\"targets\":[");
            for (uint32_t t = 0; t < target_count; t++) {
                const int32_t *tg = targets + 2 * (size_t)t;
                iqi_json_printf(w, b, "%s{\"POSITION\":%d", t ? "," : "", tg[0]);
                if (normal_targets) iqi_json_printf(w, b, ",\"NORMAL\":%d", tg[1]);
                iqi_json_lit(w, b, "}");
            }
            iqi_json_lit(w, b, "]");
        }
        iqi_json_lit(w, b, "}");
    }
    iqi_json_lit(w, b, "],\"extras\":{\"meshes\":[");
    first = 1;
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        if (va->indices[i] < 0) continue;
        if (!first) iqi_json_lit(w, b, ",");
        first = 0;
        iqi_json_str(w, b, m->meshes[i].name);
    }
    iqi_json_lit(w, b, "]}}");
    return w->failed ? -1 : (int32_t)w->n_meshes++;
}

/* -- Parts: nodes, meshes, skins */
static int32_t write_skin(gw *w, const iq_model *m, int32_t joint_node) {
    float *t = iqi_gltf_scratch(w, 16ull * m->joint_count);
    if (!t) return -1;
    for (uint32_t j = 0; j < m->joint_count; j++) { /* row-major 3x4 -> column-major 4x4 */
        const float *ib = m->inverse_bind + 12 * (size_t)j;
        float *o = t + 16 * (size_t)j;
        for (int c = 0; c < 4; c++) {
            for (int r = 0; r < 3; r++) o[4 * c + r] = ib[4 * r + c];
            o[4 * c + 3] = c == 3 ? 1.0f : 0.0f;
        }
    }
    int32_t ibm = iqi_gltf_acc_floats(w, t, m->joint_count, 16, 0, 0);
    iqi_json_sep(w, &w->skins);
    iqi_json_printf(w, &w->skins, "{\"inverseBindMatrices\":%d,\"joints\":[", ibm);
    for (uint32_t j = 0; j < m->joint_count; j++) iqi_json_printf(w, &w->skins, "%s%d", j ? "," : "", joint_node + (int32_t)j);
    iqi_json_lit(w, &w->skins, "]}");
    return w->failed ? -1 : (int32_t)w->n_skins++;
}

static int iqi_gltf_write_part(gw *w, uint32_t p, int32_t root) {
    const iq_gltf_scene *s = w->scene;
    const iq_gltf_part *pt = &s->parts[p];
    const iq_model *m = pt->model;
    part_info *pi = &w->pinfo[p];
    int32_t parent = root;
    if (pt->attached) {
        const part_info *pp = &w->pinfo[pt->parent];
        parent = (s->parts[pt->parent].model->tag_count ? pp->tag_node : pp->joint_node) + (int32_t)pt->attach_index;
    }
    char *pname = pt->name ? iqi_gltf_dup_printf(w, "%s", pt->name) : iqi_gltf_dup_printf(w, "part%u", p);
    pi->node = iqi_gltf_add_node(w, parent, pname);
    if (pi->node < 0) return 0;
    {
        sbuf e = {0};
        iqi_json_printf(w, &e, "{\"format\":\"%s\"", iq_format_name(m->format));
        if (m->comment_size) {
            iqi_json_lit(w, &e, ",\"comment\":");
            size_t n = 0;
            while (n < m->comment_size && m->comment[n]) n++; /* IQM comments are NUL-terminated text */
            iqi_json_str_n(w, &e, (const char *)m->comment, n);
        }
        iqi_json_lit(w, &e, "}");
        w->nodes[pi->node].extras = e.p;
    }
    /* joints, parent-first (parent < index is guaranteed) */
    pi->joint_node = (int32_t)w->n_nodes;
    for (uint32_t j = 0; j < m->joint_count; j++) {
        const iq_joint *jt = &m->joints[j];
        int32_t node = iqi_gltf_add_node(w, jt->parent < 0 ? pi->node : pi->joint_node + jt->parent, iqi_gltf_dup_printf(w, "%s", jt->name ? jt->name : ""));
        if (node < 0) return 0;
        iqi_gltf_node_trs(&w->nodes[node], jt->bind.translate, jt->bind.rotate, jt->bind.scale);
    }
    /* tags at frame 0 */
    pi->tag_node = (int32_t)w->n_nodes;
    for (uint32_t t = 0; t < m->tag_count; t++) {
        int32_t node = iqi_gltf_add_node(w, pi->node, iqi_gltf_dup_printf(w, "%s", m->tag_names[t]));
        if (node < 0) return 0;
        if (!m->frame_count) continue;
        float tr[3], rq[4], sc[3];
        iqi_gltf_tag_trs(m, t, 0, 0, 0, tr, rq, sc);
        iqi_gltf_node_trs(&w->nodes[node], tr, rq, sc[0] < 0 ? sc : NULL);
    }
    vattrs va;
    int ok = write_vertex_data(w, m, &va);
    pi->rest_node = pi->mesh_node = -1;
    if (ok && m->vertex_count) {
        char *name = iqi_gltf_dup_printf(w, "%s/mesh", w->nodes[pi->node].name);
        int32_t mesh = name ? iqi_gltf_write_mesh(w, p, &va, name, va.position, va.normal, NULL, 0, 0) : -1;
        if (mesh >= 0 && iqi_gltf_skinned(m)) {
            int32_t skin = write_skin(w, m, pi->joint_node);
            pi->mesh_node = iqi_gltf_add_node(w, -1, name); /* a scene root: see the top comment */
            if (pi->mesh_node >= 0) { w->nodes[pi->mesh_node].mesh = mesh; w->nodes[pi->mesh_node].skin = skin; }
        } else if (mesh >= 0) {
            pi->rest_node = iqi_gltf_add_node(w, pi->node, name);
            if (pi->rest_node >= 0) w->nodes[pi->rest_node].mesh = mesh;
        } else {
            iqi_free(name);
        }
        if (!w->failed && iqi_gltf_is_md3(m)) iqi_gltf_write_morph_part(w, p, &va);
    }
    free_vattrs(&va, m->custom_array_count);
    return !w->failed;
}

// -- MD3 frames as morph targets

/* Vertex (MD3) animation in glTF: each clip's frames as chunks of morph
 * targets, one mesh node per chunk, and the channels that show one chunk at a
 * time and step its weights (docs/GLTF.md). */

static int add_chunk(gw *w, chunk c) {
    if (w->n_chunks == w->chunks_cap) {
        uint32_t cap = w->chunks_cap ? w->chunks_cap * 2 : 16;
        chunk *p = iqi_realloc(w->chunks, (size_t)cap * sizeof *p);
        if (!p) return iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for morph chunks");
        w->chunks = p;
        w->chunks_cap = cap;
    }
    w->chunks[w->n_chunks++] = c;
    return 1;
}

/* Vertex animation: every clip that plays this part gets its own meshes, each
 * holding a chunk of that clip's frames as morph targets (see docs/GLTF.md):
 * base = the chunk's first frame, target k = frame first+k+1 minus the base.
 * Chunks share their boundary frame so LINEAR weights interpolate across every
 * step of the clip within one mesh. */
static int iqi_gltf_write_morph_part(gw *w, uint32_t p, const vattrs *va) {
    const iq_model *m = w->scene->parts[p].model;
    uint32_t nv = m->vertex_count;
    size_t stride = 3 * (size_t)nv;
    uint32_t max = w->scene->max_morph_targets ? w->scene->max_morph_targets : IQ_GLTF_MAX_TARGETS;
    int32_t *targets = iqi_malloc(2 * sizeof(int32_t) * (IQ_GLTF_MAX_TARGETS + 1));
    if (!targets) return iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for morph targets");
    for (uint32_t c = 0; c < w->n_clips && !w->failed; c++) {
        iq_gltf_range r = w->clips[c].ranges[p];
        if (!r.frame_count) continue;
        uint32_t nk = iqi_gltf_range_keys(&w->clips[c], r, m);
        for (uint32_t first = 0;;) {
            uint32_t last = nk - 1 - first > max ? first + max : nk - 1;
            uint32_t base = iqi_gltf_key_frame(r, first), nt = last - first;
            const float *bp = m->frame_positions + base * stride, *bn = m->frame_normals + base * stride;
            int32_t pos = iqi_gltf_acc_floats(w, bp, nv, 3, TARGET_ARRAY, 1);
            int32_t nrm = m->normals ? iqi_gltf_unit_vectors(w, bn, nv, 3) : -1;
            for (uint32_t t = 0; t < nt && !w->failed; t++) {
                uint32_t frame = iqi_gltf_key_frame(r, first + 1 + t);
                const float *fp = m->frame_positions + frame * stride, *fn = m->frame_normals + frame * stride;
                float *d = iqi_gltf_scratch(w, stride);
                if (!d) break;
                for (size_t k = 0; k < stride; k++) d[k] = fp[k] - bp[k];
                targets[2 * t] = iqi_gltf_acc_floats(w, d, nv, 3, TARGET_ARRAY, 1);
                if (m->normals) {
                    d = iqi_gltf_scratch(w, stride);
                    if (!d) break;
                    for (size_t k = 0; k < stride; k++) d[k] = fn[k] - bn[k];
                    targets[2 * t + 1] = iqi_gltf_acc_floats(w, d, nv, 3, TARGET_ARRAY, 0);
                }
            }
            char *name = iqi_gltf_dup_printf(w, "%s/%s/%u", w->nodes[w->pinfo[p].node].name, w->clips[c].name, first);
            int32_t mesh = name ? iqi_gltf_write_mesh(w, p, va, name, pos, nrm, targets, nt, m->normals != NULL) : -1;
            int32_t node = iqi_gltf_add_node(w, w->pinfo[p].node, name);
            if (node < 0) break;
            static const float hidden[3] = {0, 0, 0};
            iqi_gltf_node_trs(&w->nodes[node], NULL, NULL, hidden);
            w->nodes[node].mesh = mesh;
            if (!add_chunk(w, (chunk){c, p, (uint32_t)node, first, last})) break;
            if (last == nk - 1) break;
            first = last;
        }
    }
    iqi_free(targets);
    return !w->failed;
}

/* Morph chunks: the chunk's node is visible (scale 1) from its first frame to
 * its last (STEP), its weights pick one target per frame time (LINEAR), and
 * the part's rest mesh is hidden while the clip plays. */
static int iqi_gltf_morph_channels(gw *w, anim_builder *ab, uint32_t c, uint32_t p, float fps) {
    uint32_t keys = iqi_gltf_range_keys(&w->clips[c], w->clips[c].ranges[p], w->scene->parts[p].model);
    for (uint32_t i = 0; i < w->n_chunks && !w->failed; i++) {
        const chunk *ch = &w->chunks[i];
        if (ch->clip != c || ch->part != p) continue;
        float key[3], val[9];
        uint32_t n = 0;
        if (ch->first) { key[n] = 0; val[3 * n] = val[3 * n + 1] = val[3 * n + 2] = 0; n++; }
        key[n] = (float)((double)ch->first / fps); val[3 * n] = val[3 * n + 1] = val[3 * n + 2] = 1; n++;
        if (ch->last != keys - 1) {
            key[n] = (float)((double)ch->last / fps); val[3 * n] = val[3 * n + 1] = val[3 * n + 2] = 0; n++;
        }
        int32_t in = iqi_gltf_acc_floats(w, key, n, 1, 0, 1);
        int32_t out = iqi_gltf_acc_floats(w, val, n, 3, 0, 0);
        iqi_gltf_channel(w, ab, in, out, (int32_t)ch->node, "scale", "STEP");
        uint32_t nt = ch->last - ch->first, nk = nt + 1;
        if (!nt || w->nodes[ch->node].mesh < 0) continue;
        float *tk = iqi_gltf_scratch(w, (uint64_t)nk * nt + nk);
        if (!tk) return 0;
        float *wt = tk + nk;
        for (uint32_t k = 0; k < nk; k++) {
            tk[k] = (float)((double)(ch->first + k) / fps);
            for (uint32_t t = 0; t < nt; t++) wt[(size_t)k * nt + t] = k == t + 1 ? 1.0f : 0.0f;
        }
        in = iqi_gltf_acc_floats(w, tk, nk, 1, 0, 1);
        out = iqi_gltf_acc_floats(w, wt, nk * nt, 1, 0, 0);
        iqi_gltf_channel(w, ab, in, out, (int32_t)ch->node, "weights", "LINEAR");
    }
    int32_t rest = w->pinfo[p].rest_node;
    if (rest >= 0 && !w->failed) {
        static const float zero[3] = {0, 0, 0};
        float t0 = 0;
        int32_t in = iqi_gltf_acc_floats(w, &t0, 1, 1, 0, 1), out = iqi_gltf_acc_floats(w, zero, 1, 3, 0, 0);
        iqi_gltf_channel(w, ab, in, out, rest, "scale", "STEP");
    }
    return !w->failed;
}

// -- Animations

/* glTF animations: one per clip, with joint TRS channels, tag tracks (keys
 * between frames, since glTF slerps where the library lerps) and the morph
 * chunks' channels (the section above). */

/* -- Math */
/* Rotation of an orthonormal basis (columns x, y, z) as a unit quaternion. */
static void quat_from_axes(float q[4], const float x[3], const float y[3], const float z[3]) {
    double m00 = x[0], m10 = x[1], m20 = x[2], m01 = y[0], m11 = y[1], m21 = y[2], m02 = z[0], m12 = z[1], m22 = z[2];
    double tr = m00 + m11 + m22, d[4];
    if (tr > 0) {
        double s = sqrt(tr + 1.0) * 2;
        d[3] = 0.25 * s; d[0] = (m21 - m12) / s; d[1] = (m02 - m20) / s; d[2] = (m10 - m01) / s;
    } else if (m00 > m11 && m00 > m22) {
        double s = sqrt(1.0 + m00 - m11 - m22) * 2;
        d[3] = (m21 - m12) / s; d[0] = 0.25 * s; d[1] = (m01 + m10) / s; d[2] = (m02 + m20) / s;
    } else if (m11 > m22) {
        double s = sqrt(1.0 + m11 - m00 - m22) * 2;
        d[3] = (m02 - m20) / s; d[0] = (m01 + m10) / s; d[1] = 0.25 * s; d[2] = (m12 + m21) / s;
    } else {
        double s = sqrt(1.0 + m22 - m00 - m11) * 2;
        d[3] = (m10 - m01) / s; d[0] = (m02 + m20) / s; d[1] = (m12 + m21) / s; d[2] = 0.25 * s;
    }
    for (int k = 0; k < 4; k++) q[k] = (float)d[k];
    iqi_quat_normalize(q);
}

/* The same hemisphere as the previous key, so LINEAR slerp takes the short way. */
static void quat_follow(float q[4], const float *prev) {
    if (prev && q[0] * prev[0] + q[1] * prev[1] + q[2] * prev[2] + q[3] * prev[3] < 0)
        for (int k = 0; k < 4; k++) q[k] = -q[k];
}

/* A tag between two frames as TRS, as iq_tag_matrix_frames places it (lerped,
 * orthonormalised); a mirrored basis is rotation * (-1 scale), since -I is the
 * one reflection glTF's TRS can hold with a quaternion. */
static void iqi_gltf_tag_trs(const iq_model *m, uint32_t tag, uint32_t frame_a, uint32_t frame_b, float blend, float t[3], float r[4],
                      float s[3]) {
    float a[16];
    if (iq_tag_matrix_frames(m, tag, frame_a, frame_b, blend, a) != IQ_ERROR_NONE) memset(a, 0, sizeof a), a[0] = a[5] = a[10] = a[15] = 1;
    float x[3] = {a[0], a[1], a[2]}, y[3] = {a[4], a[5], a[6]}, z[3] = {a[8], a[9], a[10]};
    float det = x[0] * (y[1] * z[2] - y[2] * z[1]) - y[0] * (x[1] * z[2] - x[2] * z[1]) + z[0] * (x[1] * y[2] - x[2] * y[1]);
    float sign = det < 0 ? -1.0f : 1.0f;
    for (int k = 0; k < 3; k++) { x[k] *= sign; y[k] *= sign; z[k] *= sign; }
    quat_from_axes(r, x, y, z);
    for (int k = 0; k < 3; k++) { t[k] = a[12 + k]; s[k] = sign; }
}

/* -- Animations */
static void iqi_gltf_channel(gw *w, anim_builder *ab, int32_t input, int32_t output, int32_t node, const char *path, const char *interp) {
    iqi_json_sep(w, &ab->samplers);
    iqi_json_printf(w, &ab->samplers, "{\"input\":%d,\"output\":%d,\"interpolation\":\"%s\"}", input, output, interp);
    iqi_json_sep(w, &ab->channels);
    iqi_json_printf(w, &ab->channels, "{\"sampler\":%u,\"target\":{\"node\":%d,\"path\":\"%s\"}}", ab->n_samplers++, node, path);
}

static int32_t times(gw *w, uint32_t count, float fps) {
    float *t = iqi_gltf_scratch(w, count);
    if (!t) return -1;
    for (uint32_t k = 0; k < count; k++) t[k] = (float)((double)k / fps);
    return iqi_gltf_acc_floats(w, t, count, 1, 0, 1);
}

/* A joint channel is left out only when every frame equals the bind value, which
 * is the node's own TRS (three.js keeps a node's TRS where no channel drives it). */
static int joint_channels(gw *w, anim_builder *ab, const iq_model *m, iq_gltf_range r, uint32_t nk, int32_t input,
                          int32_t joint_node) {
    for (uint32_t j = 0; j < m->joint_count && !w->failed; j++) {
        const iq_transform *bind = &m->joints[j].bind;
        for (int path = 0; path < 3; path++) {
            int n = path == 1 ? 4 : 3;
            const float *bv = path == 0 ? bind->translate : path == 1 ? bind->rotate : bind->scale;
            float *o = iqi_gltf_scratch(w, (uint64_t)nk * n);
            if (!o) return 0;
            int same = 1;
            for (uint32_t k = 0; k < nk; k++) {
                const iq_transform *pose = m->frame_poses + (size_t)iqi_gltf_key_frame(r, k) * m->joint_count + j;
                const float *v = path == 0 ? pose->translate : path == 1 ? pose->rotate : pose->scale;
                float *dst = o + (size_t)n * k;
                memcpy(dst, v, (size_t)n * 4);
                if (path == 1) {
                    iqi_quat_normalize(dst);
                    quat_follow(dst, k ? dst - 4 : NULL);
                }
                for (int c = 0; c < n; c++) same &= v[c] == bv[c];
            }
            if (same) continue;
            int32_t out = iqi_gltf_acc_floats(w, o, nk, n, 0, 0);
            iqi_gltf_channel(w, ab, input, out, joint_node + (int32_t)j, path == 0 ? "translation" : path == 1 ? "rotation" : "scale", "LINEAR");
        }
    }
    return !w->failed;
}

/* Tag tracks get IQ_GLTF_TAG_STEPS keys per frame step: glTF slerps between
 * keys where the library lerps the axes and re-orthonormalises, and the
 * in-between keys hold the library's placements, so the two stay within a
 * hair of each other between frames too (a player's head rides on two tags). */
static int tag_channels(gw *w, anim_builder *ab, const iq_model *m, iq_gltf_range r, uint32_t nk, float fps,
                        int32_t tag_node) {
    const uint32_t steps = IQ_GLTF_TAG_STEPS;
    uint32_t n = (nk - 1) * steps + 1;
    float *tk = iqi_gltf_scratch(w, n);
    if (!tk) return 0;
    for (uint32_t i = 0; i < n; i++) tk[i] = (float)((double)i / steps / fps);
    int32_t input = iqi_gltf_acc_floats(w, tk, n, 1, 0, 1);
    for (uint32_t t = 0; t < m->tag_count && !w->failed; t++) {
        float *o = iqi_gltf_scratch(w, 10ull * n);
        if (!o) return 0;
        float *tr = o, *rq = o + 3 * (size_t)n, *sc = o + 7 * (size_t)n;
        int mirrored = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t k = i / steps;
            iqi_gltf_tag_trs(m, t, iqi_gltf_key_frame(r, k), iqi_gltf_key_frame(r, k + 1 < nk ? k + 1 : k), (float)(i % steps) / (float)steps, tr + 3 * i,
                    rq + 4 * i, sc + 3 * i);
            quat_follow(rq + 4 * i, i ? rq + 4 * (i - 1) : NULL);
            mirrored |= sc[3 * i] < 0;
        }
        int32_t a = iqi_gltf_acc_floats(w, tr, n, 3, 0, 0);
        iqi_gltf_channel(w, ab, input, a, tag_node + (int32_t)t, "translation", "LINEAR");
        a = iqi_gltf_acc_floats(w, rq, n, 4, 0, 0);
        iqi_gltf_channel(w, ab, input, a, tag_node + (int32_t)t, "rotation", "LINEAR");
        if (mirrored || w->nodes[tag_node + (int32_t)t].has_s) {
            a = iqi_gltf_acc_floats(w, sc, n, 3, 0, 0); /* mirrored frames: the -1 scale flips with them (STEP) */
            iqi_gltf_channel(w, ab, input, a, tag_node + (int32_t)t, "scale", "STEP");
        }
    }
    return !w->failed;
}

/* A clip whose every joint channel equals the bind pose (a door's idle) would have no channel, and
 * glTF has no animation without one: it gets its first joint's translation, held, so every
 * animation the model has becomes a clip of its own length. */
static int hold_channel(gw *w, anim_builder *ab, const iq_model *m, uint32_t nk, float fps, int32_t joint_node) {
    int32_t input = times(w, nk, fps); /* before the values: both use the one scratch buffer */
    float *o = iqi_gltf_scratch(w, 3ull * nk);
    if (input < 0 || !o) return 0;
    for (uint32_t k = 0; k < nk; k++) memcpy(o + 3 * (size_t)k, m->joints[0].bind.translate, 12);
    int32_t out = iqi_gltf_acc_floats(w, o, nk, 3, 0, 0);
    iqi_gltf_channel(w, ab, input, out, joint_node, "translation", "LINEAR");
    return !w->failed;
}

static int iqi_gltf_write_animation(gw *w, uint32_t c) {
    const clip *cl = &w->clips[c];
    anim_builder ab = {{0}, {0}, 0};
    for (uint32_t p = 0; p < w->scene->part_count && !w->failed; p++) {
        iq_gltf_range r = cl->ranges[p];
        if (!r.frame_count) continue;
        const iq_model *m = w->scene->parts[p].model;
        uint32_t nk = iqi_gltf_range_keys(cl, r, m);
        if (m->joint_count && m->frame_poses) joint_channels(w, &ab, m, r, nk, times(w, nk, cl->fps), w->pinfo[p].joint_node);
        if (m->tag_count && m->tag_transforms) tag_channels(w, &ab, m, r, nk, cl->fps, w->pinfo[p].tag_node);
        if (iqi_gltf_is_md3(m)) iqi_gltf_morph_channels(w, &ab, c, p, cl->fps);
    }
    for (uint32_t p = 0; p < w->scene->part_count && !w->failed && !ab.n_samplers; p++) {
        iq_gltf_range r = cl->ranges[p];
        const iq_model *m = w->scene->parts[p].model;
        if (r.frame_count && m->joint_count && m->frame_poses)
            hold_channel(w, &ab, m, iqi_gltf_range_keys(cl, r, m), cl->fps, w->pinfo[p].joint_node);
    }
    if (!w->failed && ab.n_samplers) {
        iqi_json_sep(w, &w->anims);
        iqi_json_lit(w, &w->anims, "{\"name\":");
        iqi_json_str(w, &w->anims, cl->name);
        iqi_json_lit(w, &w->anims, ",\"samplers\":[");
        iqi_json_put(w, &w->anims, ab.samplers.p, ab.samplers.n);
        iqi_json_lit(w, &w->anims, "],\"channels\":[");
        iqi_json_put(w, &w->anims, ab.channels.p, ab.channels.n);
        iqi_json_printf(w, &w->anims, "],\"extras\":{\"framerate\":%.9g,\"loop\":%s}}", (double)cl->fps, cl->loop ? "true" : "false");
        w->n_anims++;
    }
    iqi_free(ab.samplers.p);
    iqi_free(ab.channels.p);
    return !w->failed;
}

// -- Entry points

static void cleanup(gw *w) {
    iqi_free(w->bin);
    iqi_free(w->tmp);
    sbuf *bufs[] = {&w->acc, &w->views, &w->meshes, &w->mats, &w->texs, &w->imgs, &w->skins, &w->anims};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) iqi_free(bufs[i]->p);
    for (uint32_t i = 0; i < w->n_nodes; i++) { iqi_free(w->nodes[i].name); iqi_free(w->nodes[i].extras); }
    iqi_free(w->nodes);
    for (uint32_t i = 0; i < w->n_clips; i++) { iqi_free(w->clips[i].name); iqi_free(w->clips[i].ranges); }
    iqi_free(w->clips);
    iqi_free(w->chunks);
    iqi_free(w->pinfo);
    for (uint32_t p = 0; w->part_mats && p < w->scene->part_count; p++) iqi_free(w->part_mats[p]);
    iqi_free(w->part_mats);
}

uint8_t *iq_write_glb(const iq_gltf_scene *scene, size_t *size, iq_error *error) {
    iq_error local;
    error = iqi_error_reset(error, &local);
    if (!scene || !size) { iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT, "iq_write_glb needs a scene and a size pointer"); return NULL; }
    *size = 0;
    gw w;
    memset(&w, 0, sizeof w);
    w.scene = scene;
    w.error = error;
    uint8_t *out = NULL;
    if (check_scene(&w) && make_clips(&w) && iqi_gltf_write_materials(&w)) {
        w.pinfo = iqi_calloc(scene->part_count, sizeof *w.pinfo);
        if (!w.pinfo) iqi_gltf_fail(&w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for parts");
        /* The root node places the whole scene: Z up -> Y up (-90 degrees about X); with
         * IQ_GLTF_FRONT_Z also -90 degrees about Z first, so +X -> +Z, +Z -> +Y, +Y -> +X; then
         * the scale, and the floor moved to y = 0. */
        static const float turn[4] = {-0.70710678f, 0, 0, 0.70710678f};
        static const float turn_front[4] = {-0.5f, -0.5f, -0.5f, 0.5f};
        float scale = scene->scale > 0 ? scene->scale : 1;
        float lift[3] = {0, -scale * scene->floor, 0}, sizes[3] = {scale, scale, scale};
        int32_t root = iqi_gltf_add_node(&w, -1, iqi_gltf_dup_printf(&w, "interquake_z_up"));
        if (root >= 0)
            iqi_gltf_node_trs(&w.nodes[root], scene->floor != 0 ? lift : NULL, scene->front == IQ_GLTF_FRONT_Z ? turn_front : turn,
                              scale != 1 ? sizes : NULL);
        for (uint32_t p = 0; p < scene->part_count && !w.failed; p++) iqi_gltf_write_part(&w, p, root);
        for (uint32_t c = 0; c < w.n_clips && !w.failed; c++) iqi_gltf_write_animation(&w, c);
        if (!w.failed) out = iqi_gltf_assemble(&w, size);
    }
    cleanup(&w);
    return out;
}

uint8_t *iq_write_glb_model(const iq_model *model, size_t *size, iq_error *error) {
    iq_gltf_part part;
    memset(&part, 0, sizeof part);
    part.model = model;
    iq_gltf_scene scene;
    memset(&scene, 0, sizeof scene);
    scene.parts = &part;
    scene.part_count = 1;
    if (!model) {
        iq_error local;
        iqi_set_error(iqi_error_reset(error, &local), IQ_ERROR_INVALID_ARGUMENT, "iq_write_glb_model needs a model");
        return NULL;
    }
    return iq_write_glb(&scene, size, error);
}
