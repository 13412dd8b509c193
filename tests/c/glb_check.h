/* Test-side GLB reading: a strict JSON parser into a flat node table, and
 * iqt_glb_wellformed, the cheap container check the fuzzers run on every GLB
 * they write. A reader separate from src/write/iq_gltf.c, so the two cannot share a bug. */
#ifndef IQT_GLB_CHECK_H
#define IQT_GLB_CHECK_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "write/iq_gltf.h"

/* -- A strict JSON parser into a flat node table */
typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jtype;
typedef struct jnode {
    jtype type;
    double num;
    const char *str, *key; /* not terminated: lengths below */
    size_t str_len, key_len;
    int first, next, count;
} jnode;
typedef struct jdoc { const char *s; size_t n, at; jnode *nodes; int count, cap, ok; } jdoc;

static void jws(jdoc *d) { while (d->at < d->n && strchr(" \t\r\n", d->s[d->at])) d->at++; }
static int jnew(jdoc *d, jtype t) {
    if (d->count == d->cap) { d->cap = d->cap ? 2 * d->cap : 1024; d->nodes = realloc(d->nodes, (size_t)d->cap * sizeof *d->nodes); }
    jnode *n = &d->nodes[d->count];
    memset(n, 0, sizeof *n);
    n->type = t;
    n->first = n->next = -1;
    return d->count++;
}
static int jstring(jdoc *d, const char **s, size_t *len) {
    if (d->at >= d->n || d->s[d->at] != '"') return 0;
    size_t start = ++d->at;
    while (d->at < d->n && d->s[d->at] != '"') {
        unsigned char c = (unsigned char)d->s[d->at];
        if (c < 0x20) return 0;
        if (c == '\\') {
            d->at++;
            if (d->at >= d->n || !strchr("\"\\/bfnrtu", d->s[d->at])) return 0;
        }
        d->at++;
    }
    if (d->at >= d->n) return 0;
    *s = d->s + start;
    *len = d->at - start;
    d->at++;
    return 1;
}
static int jvalue(jdoc *d, int depth);
static int jcontainer(jdoc *d, int self, char close, int depth) {
    int last = -1;
    d->at++;
    jws(d);
    if (d->at < d->n && d->s[d->at] == close) { d->at++; return 1; }
    for (;;) {
        const char *key = NULL;
        size_t key_len = 0;
        jws(d);
        if (close == '}') {
            if (!jstring(d, &key, &key_len)) return 0;
            jws(d);
            if (d->at >= d->n || d->s[d->at++] != ':') return 0;
        }
        int v = jvalue(d, depth + 1);
        if (v < 0) return 0;
        d->nodes[v].key = key;
        d->nodes[v].key_len = key_len;
        if (last < 0) d->nodes[self].first = v;
        else d->nodes[last].next = v;
        last = v;
        d->nodes[self].count++;
        jws(d);
        if (d->at >= d->n) return 0;
        char c = d->s[d->at++];
        if (c == close) return 1;
        if (c != ',') return 0;
    }
}
static int jvalue(jdoc *d, int depth) {
    jws(d);
    if (d->at >= d->n || depth > 64) return -1;
    char c = d->s[d->at];
    if (c == '{' || c == '[') {
        int self = jnew(d, c == '{' ? J_OBJ : J_ARR);
        return jcontainer(d, self, c == '{' ? '}' : ']', depth) ? self : -1;
    }
    if (c == '"') {
        int self = jnew(d, J_STR);
        return jstring(d, &d->nodes[self].str, &d->nodes[self].str_len) ? self : -1;
    }
    static const char *words[] = {"true", "false", "null"};
    for (int k = 0; k < 3; k++)
        if (d->n - d->at >= strlen(words[k]) && !strncmp(d->s + d->at, words[k], strlen(words[k]))) {
            d->at += strlen(words[k]);
            int self = jnew(d, k == 2 ? J_NULL : J_BOOL);
            d->nodes[self].num = k == 0;
            return self;
        }
    /* number, JSON grammar: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)? */
    size_t s = d->at;
    if (d->s[d->at] == '-') d->at++;
    if (d->at < d->n && d->s[d->at] == '0') d->at++;
    else if (d->at < d->n && d->s[d->at] >= '1' && d->s[d->at] <= '9') while (d->at < d->n && d->s[d->at] >= '0' && d->s[d->at] <= '9') d->at++;
    else return -1;
    if (d->at < d->n && d->s[d->at] == '.') {
        d->at++;
        if (!(d->at < d->n && d->s[d->at] >= '0' && d->s[d->at] <= '9')) return -1;
        while (d->at < d->n && d->s[d->at] >= '0' && d->s[d->at] <= '9') d->at++;
    }
    if (d->at < d->n && (d->s[d->at] == 'e' || d->s[d->at] == 'E')) {
        d->at++;
        if (d->at < d->n && (d->s[d->at] == '+' || d->s[d->at] == '-')) d->at++;
        if (!(d->at < d->n && d->s[d->at] >= '0' && d->s[d->at] <= '9')) return -1;
        while (d->at < d->n && d->s[d->at] >= '0' && d->s[d->at] <= '9') d->at++;
    }
    char tmp[64];
    size_t len = d->at - s < 63 ? d->at - s : 63;
    memcpy(tmp, d->s + s, len);
    tmp[len] = 0;
    int self = jnew(d, J_NUM);
    d->nodes[self].num = strtod(tmp, NULL);
    return self;
}
static int jget(const jdoc *d, int obj, const char *key) {
    if (obj < 0 || d->nodes[obj].type != J_OBJ) return -1;
    for (int c = d->nodes[obj].first; c >= 0; c = d->nodes[c].next)
        if (d->nodes[c].key_len == strlen(key) && !strncmp(d->nodes[c].key, key, d->nodes[c].key_len)) return c;
    return -1;
}
static int jat(const jdoc *d, int arr, int i) {
    if (arr < 0 || (d->nodes[arr].type != J_ARR)) return -1;
    int c = d->nodes[arr].first;
    while (c >= 0 && i-- > 0) c = d->nodes[c].next;
    return c;
}
static double jnum(const jdoc *d, int v, double fallback) { return v >= 0 && d->nodes[v].type == J_NUM ? d->nodes[v].num : fallback; }
static inline int jis(const jdoc *d, int v, const char *s) {
    return v >= 0 && d->nodes[v].type == J_STR && d->nodes[v].str_len == strlen(s) && !strncmp(d->nodes[v].str, s, d->nodes[v].str_len);
}

static uint32_t u32le(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

/* 0 when the bytes are a GLB whose JSON parses completely and whose buffer,
 * views and accessors fit the BIN chunk; otherwise the number of the failed step. */
static int iqt_glb_wellformed(const uint8_t *b, size_t n) {
    if (n < 20 || memcmp(b, "glTF", 4) || u32le(b + 4) != 2 || u32le(b + 8) != n) return 1;
    uint32_t jl = u32le(b + 12);
    if (jl % 4 || memcmp(b + 16, "JSON", 4) || 20ull + jl > n) return 2;
    size_t rest = n - 20 - jl, bin_len = 0;
    if (rest) {
        const uint8_t *c = b + 20 + jl;
        if (rest < 8 || u32le(c) % 4 || memcmp(c + 4, "BIN\0", 4) || 8ull + u32le(c) != rest) return 3;
        bin_len = u32le(c);
    }
    jdoc d = {(const char *)b + 20, jl, 0, NULL, 0, 0, 0};
    int root = jvalue(&d, 0), bad = 0;
    jws(&d);
    if (root < 0 || d.at != jl || d.nodes[root].type != J_OBJ) bad = 4;
    int buf = bad ? -1 : jat(&d, jget(&d, root, "buffers"), 0);
    if (!bad && (size_t)jnum(&d, jget(&d, buf, "byteLength"), 0) != bin_len) bad = 5;
    int views = bad ? -1 : jget(&d, root, "bufferViews");
    for (int v = views >= 0 ? d.nodes[views].first : -1; v >= 0 && !bad; v = d.nodes[v].next) {
        double ofs = jnum(&d, jget(&d, v, "byteOffset"), 0), len = jnum(&d, jget(&d, v, "byteLength"), -1);
        if (!(len > 0) || ofs + len > (double)bin_len || (uint64_t)ofs % 4) bad = 6;
    }
    int accs = bad ? -1 : jget(&d, root, "accessors");
    for (int a = accs >= 0 ? d.nodes[accs].first : -1; a >= 0 && !bad; a = d.nodes[a].next) {
        int view = jat(&d, views, (int)jnum(&d, jget(&d, a, "bufferView"), -1));
        double count = jnum(&d, jget(&d, a, "count"), 0), ct = jnum(&d, jget(&d, a, "componentType"), 0);
        double size = ct == 5126 || ct == 5125 ? 4 : ct == 5123 ? 2 : 1;
        int type = jget(&d, a, "type");
        double comps = 0;
        static const char *names[] = {"SCALAR", "VEC2", "VEC3", "VEC4", "MAT4"};
        static const double counts[] = {1, 2, 3, 4, 16};
        for (int k = 0; k < 5; k++)
            if (type >= 0 && d.nodes[type].str_len == strlen(names[k]) && !strncmp(d.nodes[type].str, names[k], strlen(names[k]))) comps = counts[k];
        if (view < 0 || !(count >= 1) || !comps || count * comps * size > jnum(&d, jget(&d, view, "byteLength"), 0)) bad = 7;
    }
    free(d.nodes);
    return bad;
}
/* Writes m as GLB: well-formed bytes, or only a limit / out_of_memory error.
 * Returns 0 when fine. */
static inline int iqt_check_glb(const iq_model *m) {
    size_t n;
    iq_error err;
    uint8_t *b = iq_write_glb_model(m, &n, &err);
    if (!b) return err.code == IQ_ERROR_LIMIT || err.code == IQ_ERROR_OUT_OF_MEMORY ? 0 : 100;
    int bad = iqt_glb_wellformed(b, n);
    iq_free_bytes(b);
    return bad;
}
#endif
