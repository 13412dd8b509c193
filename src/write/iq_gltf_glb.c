/* The GLB container of the glTF writer: the JSON text (escaped, valid UTF-8,
 * floats that round-trip), the BIN chunk and its accessors, the node list, and
 * the final bytes (header, JSON chunk padded with spaces, BIN chunk). */
#include "write/iq_gltf_internal.h"
#include <stdio.h>

int iqi_gltf_fail(gw *w, iq_error_code code, const char *fmt, ...) {
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
    char *p = realloc(b->p, cap);
    if (!p) return iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for the glTF JSON");
    b->p = p;
    b->cap = cap;
    return 1;
}

void iqi_json_put(gw *w, sbuf *b, const char *s, size_t n) {
    if (!sb_reserve(w, b, n)) return;
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

#define iqi_json_lit(w, b, s) iqi_json_put(w, b, s, sizeof(s) - 1)

void iqi_json_printf(gw *w, sbuf *b, const char *fmt, ...) {
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

void iqi_json_str_n(gw *w, sbuf *b, const char *str, size_t n) {
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
void iqi_json_str(gw *w, sbuf *b, const char *s) { iqi_json_str_n(w, b, s ? s : "", s ? strlen(s) : 0); }

/* %.9g round-trips every float exactly. */
void iqi_json_floats(gw *w, sbuf *b, const float *v, int n) {
    iqi_json_lit(w, b, "[");
    for (int i = 0; i < n; i++) iqi_json_printf(w, b, "%s%.9g", i ? "," : "", (double)(v[i] == 0 ? 0.0f : v[i]));
    iqi_json_lit(w, b, "]");
}
void iqi_json_sep(gw *w, sbuf *b) { if (b->n) iqi_json_lit(w, b, ","); }

char *iqi_gltf_dup_printf(gw *w, const char *fmt, ...) {
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) n = 0;
    if ((size_t)n >= sizeof tmp) n = sizeof tmp - 1; /* long names are cut, never an error */
    char *s = malloc((size_t)n + 1);
    if (!s) { iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for names"); return NULL; }
    memcpy(s, tmp, (size_t)n);
    s[n] = 0;
    return s;
}

/* -- BIN chunk */
uint8_t *iqi_gltf_bin_alloc(gw *w, uint64_t n, size_t *offset) {
    if (w->failed) return NULL;
    uint64_t at = (w->blen + 3) & ~(uint64_t)3;
    if (n > GLB_MAX || at + n > GLB_MAX) { iqi_gltf_fail(w, IQ_ERROR_LIMIT, "the glTF binary data would be over 4 GiB"); return NULL; }
    if (at + n > w->bcap) {
        uint64_t cap = w->bcap ? w->bcap : 4096;
        while (cap < at + n) cap *= 2;
        if (cap > SIZE_MAX) { iqi_gltf_fail(w, IQ_ERROR_LIMIT, "the glTF binary data does not fit in memory"); return NULL; }
        uint8_t *p = realloc(w->bin, (size_t)cap);
        if (!p) { iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for the glTF binary data"); return NULL; }
        w->bin = p;
        w->bcap = (size_t)cap;
    }
    memset(w->bin + w->blen, 0, (size_t)(at + n - w->blen));
    *offset = (size_t)at;
    w->blen = (size_t)(at + n);
    return w->bin + at;
}

float *iqi_gltf_scratch(gw *w, uint64_t floats) {
    if (w->failed) return NULL;
    if (floats > GLB_MAX / 4) { iqi_gltf_fail(w, IQ_ERROR_LIMIT, "the glTF binary data would be over 4 GiB"); return NULL; }
    if (floats > w->tmp_cap) {
        float *p = realloc(w->tmp, (size_t)floats * 4 + 4);
        if (!p) { iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for glTF data"); return NULL; }
        w->tmp = p;
        w->tmp_cap = (size_t)floats;
    }
    return w->tmp;
}

static void put_u32(uint8_t *p, uint32_t v) { for (int k = 0; k < 4; k++) p[k] = (uint8_t)(v >> (8 * k)); }
static void put_f32(uint8_t *p, float f) { uint32_t u; memcpy(&u, &f, 4); put_u32(p, u); }

int32_t iqi_gltf_add_view(gw *w, size_t offset, size_t length, int target) {
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
int32_t iqi_gltf_acc_floats(gw *w, const float *data, uint32_t count, int ncomp, int target, int minmax) {
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
int32_t iqi_gltf_acc_ints(gw *w, const uint32_t *data, uint64_t n, uint32_t count, int ncomp, int ctype, int target) {
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
int32_t iqi_gltf_add_node(gw *w, int32_t parent, char *name) {
    if (w->failed) { free(name); return -1; }
    if (w->n_nodes == w->nodes_cap) {
        uint32_t cap = w->nodes_cap ? w->nodes_cap * 2 : 64;
        gnode *p = realloc(w->nodes, (size_t)cap * sizeof *p);
        if (!p) { free(name); iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for nodes"); return -1; }
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

void iqi_gltf_node_trs(gnode *n, const float *t, const float *r, const float *s) {
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

uint8_t *iqi_gltf_assemble(gw *w, size_t *size_out) {
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
    if (w->failed) { free(js.p); return NULL; }
    uint64_t jlen = (js.n + 3) & ~(uint64_t)3, blen = (w->blen + 3) & ~(uint64_t)3;
    uint64_t total = 12 + 8 + jlen + (blen ? 8 + blen : 0);
    if (total > UINT32_MAX) { free(js.p); iqi_gltf_fail(w, IQ_ERROR_LIMIT, "the GLB would be %llu bytes, over 4 GiB", (unsigned long long)total); return NULL; }
    uint8_t *b = malloc((size_t)total);
    if (!b) { free(js.p); iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for the GLB"); return NULL; }
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
    free(js.p);
    *size_out = (size_t)total;
    return b;
}
