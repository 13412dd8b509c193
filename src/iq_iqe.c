/* IQE (Inter-Quake Export, text). Spec: shared/specs/iqe.txt; how it differs
 * from the IQM SDK's converter: docs/API-iqe.md.
 *
 * One pass over the lines collects every command into growable scratch arrays
 * (counted against the model's memory budget, freed at the end); a second
 * step checks that everything fits together, generates normals when the file
 * has none (which may split vertices), and copies the result into the arena
 * at its exact size. Every error carries the line and column of the token at
 * fault and quotes it. Nothing here is quadratic in the input: positions are
 * hashed for smoothing, and pathological pile-ups are refused with 'limit'. */
#include "iq_internal.h"
#include "iq_math.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

// -- Scratch arrays: realloc-grown, counted against the arena's budget

typedef struct grow {
    uint8_t *data;
    size_t len, cap; /* bytes */
} grow;

enum { ATTR_VP, ATTR_VT, ATTR_VN, ATTR_VX, ATTR_VB, ATTR_VC, ATTR_VS, ATTR_V0, ATTR_COUNT = ATTR_V0 + 10 };
static const char *const attr_names[ATTR_COUNT] = {"vp", "vt", "vn", "vx", "vb", "vc", "vs", "v0", "v1", "v2",
                                                   "v3", "v4", "v5", "v6", "v7", "v8", "v9"};

/* Standard vertex array types in IQM order, then custom0..custom9. */
enum { VA_POSITION, VA_TEXCOORD, VA_NORMAL, VA_TANGENT, VA_BLENDINDEXES, VA_BLENDWEIGHTS, VA_COLOR, VA_CUSTOM0,
       VA_COUNT = VA_CUSTOM0 + 10 };
static const char *const va_type_names[VA_COUNT] = {
    "position", "texcoord", "normal", "tangent", "blendindexes", "blendweights", "color", "custom0", "custom1",
    "custom2", "custom3", "custom4", "custom5", "custom6", "custom7", "custom8", "custom9"};
static const char *const va_format_names[9] = {"byte", "ubyte", "short", "ushort", "int", "uint", "half", "float", "double"};
/* The IQM spec's recommended formats and sizes, used when a type is not declared. */
static const uint8_t va_default_size[VA_COUNT] = {3, 2, 3, 4, 4, 4, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4};

typedef struct va_decl {
    int declared;
    iq_component format;
    uint32_t size;
    const char *name; /* arena string */
} va_decl;

typedef struct tangent_in { float t[4], b[3]; uint32_t has_bitangent; } tangent_in;
typedef struct blend_in { uint32_t index[4]; float weight[4]; uint32_t count; } blend_in;

typedef struct mesh_block {
    const char *name, *material;
    uint32_t first_triangle, triangle_count;
    uint32_t first_vertex, end_vertex; /* vertices (vp) defined inside the block */
    uint32_t fm_base;                  /* `fm` index 0: the first vertex after the `mesh` command */
    int declared;                      /* made by a `mesh`/`material` command, not implicitly */
} mesh_block;

typedef struct smooth_state {
    int64_t key;       /* smoothgroup */
    double angle;      /* smoothangle in degrees, 0..180 */
    int uv;            /* smoothuv */
    uint32_t first_vertex; /* vertices defined before these settings (for face-less files) */
} smooth_state;

typedef struct face_rec { uint32_t first_triangle, vertex_count; } face_rec;
typedef struct fs_rec { uint32_t line, first_flag, count; } fs_rec;
typedef struct frame_rec { uint32_t line, first_pose, pose_count; } frame_rec;
typedef struct anim_rec {
    const char *name; /* NULL: give it a dummy name */
    uint32_t first_frame_rec, frame_rec_count;
    float framerate;
    uint32_t flags, line;
} anim_rec;
typedef struct joint_rec { const char *name; int32_t parent; } joint_rec;

typedef struct token {
    const char *s;
    size_t len;
    uint32_t column;
    int quoted;
} token;

/* A location remembered for a check that can only be made at the end. */
typedef struct where { uint32_t line, column; int64_t value; int set; } where;

typedef struct iqe_parser {
    iqi_ctx *ctx;
    const char *text, *end;
    const char *line_start, *line_end, *cursor;
    uint32_t line;
    size_t scratch; /* bytes held by the grow arrays */

    grow attr[ATTR_COUNT];
    uint32_t attr_first_line[ATTR_COUNT];
    va_decl decl[VA_COUNT];

    grow triangles;       /* uint32[3] */
    grow tri_state;       /* uint32 smoothing state per triangle */
    grow tri_edges;       /* uint8 per triangle: fs edge flags (bits 0..2) | 8 when given */
    grow faces;           /* face_rec per fa/fm command */
    grow fs;              /* fs_rec */
    grow fs_flags;        /* uint8 */
    grow states;          /* smooth_state */
    int state_used;       /* the last state has triangles: the next change makes a new one */

    grow meshes;          /* mesh_block */
    int have_faces;

    grow joints;          /* joint_rec */
    grow base_poses;      /* iq_transform */
    grow poses;           /* iq_transform, animation poses */
    grow frames;          /* frame_rec */
    grow anims;           /* anim_rec */
    int frame_open;       /* the current animation has an open keyframe */
    uint32_t first_pose_line;

    grow pairs;           /* per vb line: (index, weight) scratch */

    const char *comment;
    size_t comment_size;

    where max_vertex_ref, max_blend_index;
    uint32_t unknown_commands, unknown_line;
    char unknown_name[24];
    uint32_t dropped_weights, negative_weights, extra_influences, empty_frames, ignored_frames,
        ignored_loops, unused_customs;
} iqe_parser;

static void *grow_push(iqe_parser *p, grow *g, size_t bytes, const char *what) {
    if (g->cap - g->len < bytes) {
        size_t want = g->len + bytes, cap = g->cap ? g->cap : 256;
        while (cap < want) {
            if (cap > SIZE_MAX / 2) { cap = want; break; }
            cap *= 2;
        }
        iqi_arena *a = p->ctx->arena;
        size_t extra = cap - g->cap;
        if (a->used + p->scratch > a->budget || extra > a->budget - a->used - p->scratch) {
            iqi_fail_at_line(p->ctx, IQ_ERROR_LIMIT, p->line, 1,
                             "%s needs more than this model's memory budget of %zu bytes", what, a->budget);
            return NULL;
        }
        uint8_t *d = realloc(g->data, cap);
        if (!d) {
            iqi_fail_at_line(p->ctx, IQ_ERROR_OUT_OF_MEMORY, p->line, 1, "out of memory growing %s", what);
            return NULL;
        }
        g->data = d;
        g->cap = cap;
        p->scratch += extra;
    }
    void *out = g->data + g->len;
    memset(out, 0, bytes);
    g->len += bytes;
    return out;
}

static void grow_free(grow *g) { free(g->data); memset(g, 0, sizeof *g); }

#define GROW_COUNT(g, type) ((uint32_t)((g).len / sizeof(type)))
#define GROW_AT(g, type, i) (((type *)(g).data) + (i))

// -- Errors

/* Quotes a token for a message: at most 40 bytes, with "..." when cut. */
#define TOKFMT "'%.*s%s'"
#define TOKARG(t) (int)((t)->len > 40 ? 40 : (t)->len), (t)->s, ((t)->len > 40 ? "..." : "")

static int fail_tok(iqe_parser *p, iq_error_code code, const token *t, const char *what, const char *why) {
    return iqi_fail_at_line(p->ctx, code, p->line, t->column, "%s: " TOKFMT " %s", what, TOKARG(t), why);
}

// -- Tokens

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* The next token of the current line: 1 and *t, 0 at the end of the line (a
 * bare token starting with '#' begins a trailing comment), -1 on a bad quote. */
static int next_token(iqe_parser *p, token *t) {
    const char *c = p->cursor, *e = p->line_end;
    while (c < e && is_space(*c)) c++;
    if (c == e || *c == '#') {
        p->cursor = e;
        return 0;
    }
    t->column = (uint32_t)(c - p->line_start) + 1;
    if (*c == '"') {
        const char *q = c + 1;
        while (q < e && *q != '"') q++;
        if (q == e) {
            t->s = c;
            t->len = (size_t)(e - c);
            fail_tok(p, IQ_ERROR_SYNTAX, t, "name", "has no closing quote");
            return -1;
        }
        t->s = c + 1;
        t->len = (size_t)(q - c - 1);
        t->quoted = 1;
        p->cursor = q + 1;
        if (p->cursor < e && !is_space(*p->cursor)) {
            token after = {p->cursor, 1, (uint32_t)(p->cursor - p->line_start) + 1, 0};
            fail_tok(p, IQ_ERROR_SYNTAX, &after, "name", "follows a closing quote without a space");
            return -1;
        }
        return 1;
    }
    const char *s = c;
    while (c < e && !is_space(*c)) c++;
    t->s = s;
    t->len = (size_t)(c - s);
    t->quoted = 0;
    p->cursor = c;
    return 1;
}

static int tok_is(const token *t, const char *word) {
    size_t n = strlen(word);
    return !t->quoted && t->len == n && memcmp(t->s, word, n) == 0;
}

static int tok_is_nocase(const token *t, const char *word) {
    size_t n = strlen(word);
    if (t->len != n) return 0;
    for (size_t i = 0; i < n; i++) {
        char a = t->s[i];
        if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
        if (a != word[i]) return 0;
    }
    return 1;
}

// -- Numbers (a fast path for the decimal forms exporters write; no locale)

static const double pow10_table[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                       1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

enum { NUM_OK = 0, NUM_BAD, NUM_NONFINITE };

static int parse_double(const token *t, double *out) {
    const char *s = t->s, *e = s + t->len;
    int neg = 0;
    if (t->quoted || s == e) return NUM_BAD;
    if (*s == '+' || *s == '-') { neg = *s == '-'; s++; }
    if (s < e && (*s == 'i' || *s == 'I' || *s == 'n' || *s == 'N')) { /* inf / nan: a number, but not a usable one */
        size_t n = (size_t)(e - s);
        token rest = {s, n, 0, 0};
        if (tok_is_nocase(&rest, "inf") || tok_is_nocase(&rest, "infinity") || tok_is_nocase(&rest, "nan") ||
            (n > 4 && tok_is_nocase(&(token){s, 4, 0, 0}, "nan(") && e[-1] == ')'))
            return NUM_NONFINITE;
    }
    uint64_t mant = 0;
    int digits = 0, any = 0;
    int64_t exp10 = 0;
    while (s < e && *s >= '0' && *s <= '9') {
        any = 1;
        if (digits < 19) { mant = mant * 10 + (uint64_t)(*s - '0'); if (mant) digits++; }
        else exp10++;
        s++;
    }
    if (s < e && *s == '.') {
        s++;
        while (s < e && *s >= '0' && *s <= '9') {
            any = 1;
            if (digits < 19) { mant = mant * 10 + (uint64_t)(*s - '0'); if (mant) digits++; exp10--; }
            s++;
        }
    }
    if (!any) return NUM_BAD;
    if (s < e && (*s == 'e' || *s == 'E')) {
        s++;
        int eneg = 0;
        int64_t ev = 0;
        if (s < e && (*s == '+' || *s == '-')) { eneg = *s == '-'; s++; }
        if (s == e || *s < '0' || *s > '9') return NUM_BAD;
        while (s < e && *s >= '0' && *s <= '9') {
            if (ev < 100000) ev = ev * 10 + (*s - '0');
            s++;
        }
        exp10 += eneg ? -ev : ev;
    }
    if (s != e) return NUM_BAD;
    double v = (double)mant;
    if (mant == 0) v = 0;
    else if (exp10 >= 0 && exp10 <= 22) v *= pow10_table[exp10];
    else if (exp10 < 0 && exp10 >= -22) v /= pow10_table[-exp10];
    else if (exp10 > 400) v = HUGE_VAL;
    else if (exp10 < -400) v = 0;
    else v *= pow(10.0, (double)exp10);
    *out = neg ? -v : v;
    return isfinite(*out) ? NUM_OK : NUM_NONFINITE;
}

static int parse_int(const token *t, int64_t *out) {
    const char *s = t->s, *e = s + t->len;
    int neg = 0;
    if (t->quoted || s == e) return 0;
    if (*s == '+' || *s == '-') { neg = *s == '-'; s++; }
    if (s == e) return 0;
    int64_t v = 0;
    for (; s < e; s++) {
        if (*s < '0' || *s > '9') return 0;
        if (v > (INT64_MAX - 9) / 10) return 0;
        v = v * 10 + (*s - '0');
    }
    *out = neg ? -v : v;
    return 1;
}

/* Reads up to max numbers of the current line into out (already holding the
 * defaults). Returns how many were given, or -1 after an error. Non-finite
 * values fail with 'bad_value' unless *nonfinite is given to count them. */
static int read_floats(iqe_parser *p, const char *what, double *out, int max, int *nonfinite) {
    token t;
    int n = 0, r;
    while ((r = next_token(p, &t)) == 1) {
        if (n == max)
            return fail_tok(p, IQ_ERROR_SYNTAX, &t, what, "is one value too many for this command"), -1;
        double v;
        int status = parse_double(&t, &v);
        if (status == NUM_BAD) return fail_tok(p, IQ_ERROR_SYNTAX, &t, what, "is not a number"), -1;
        if (status == NUM_NONFINITE) {
            if (!nonfinite) return fail_tok(p, IQ_ERROR_BAD_VALUE, &t, what, "is not a finite number"), -1;
            *nonfinite = 1;
            v = 0;
        }
        out[n++] = v;
    }
    return r < 0 ? -1 : n;
}

/* A name argument: quoted or bare; absent gives "". Stored in the arena. */
static const char *read_name(iqe_parser *p, const char *what, int *given) {
    token t;
    int r = next_token(p, &t);
    if (r < 0) return NULL;
    if (given) *given = r == 1;
    if (r == 0) return "";
    if (memchr(t.s, 0, t.len)) return fail_tok(p, IQ_ERROR_SYNTAX, &t, what, "contains a NUL byte"), NULL;
    return iqi_strdup_n(p->ctx, t.s, t.len);
}

static int expect_end(iqe_parser *p, const char *what) {
    token t;
    int r = next_token(p, &t);
    if (r < 0) return 0;
    if (r == 1) return fail_tok(p, IQ_ERROR_SYNTAX, &t, what, "is an unexpected extra argument");
    return 1;
}

// -- Vertex attributes

static int push_floats(iqe_parser *p, int attr, const double *v, int count) {
    float *out = grow_push(p, &p->attr[attr], (size_t)count * sizeof(float), attr_names[attr]);
    if (!out) return 0;
    for (int k = 0; k < count; k++) out[k] = (float)v[k];
    for (int k = 0; k < count; k++)
        if (!iqi_finite(out[k])) /* a double that overflows float */
            return iqi_fail_at_line(p->ctx, IQ_ERROR_BAD_VALUE, p->line, 1, "%s: value %g does not fit a float",
                                    attr_names[attr], v[k]);
    return 1;
}

/* Optional vertex data: a value that is not a number the model can use
 * (NaN, infinite, beyond the magnitude limit) repairs the whole vector
 * (iq_numbers.c). */
static int push_optional(iqe_parser *p, int attr, const double *v, int count, int nonfinite, iqi_vector_kind kind) {
    float f[4];
    for (int k = 0; k < count; k++) f[k] = nonfinite ? NAN : (float)v[k];
    iqi_repair_vector(p->ctx, kind, f, count);
    float *out = grow_push(p, &p->attr[attr], (size_t)count * sizeof(float), attr_names[attr]);
    if (!out) return 0;
    memcpy(out, f, (size_t)count * sizeof(float));
    return 1;
}

static int parse_vertex_attr(iqe_parser *p, int attr) {
    if (!p->attr_first_line[attr]) p->attr_first_line[attr] = p->line;
    const char *what = attr_names[attr];
    double v[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int nonfinite = 0, n;
    switch (attr) {
    case ATTR_VP:
        if (read_floats(p, what, v, 4, NULL) < 0) return 0; /* W is allowed and ignored (spec) */
        for (int k = 0; k < 3; k++)
            if (!iqi_usable(p->ctx, v[k])) return iqi_fail_value(p->ctx, -1, p->line, v[k], "vp: value %d", k + 1);
        return push_floats(p, attr, v, 3);
    case ATTR_VT:
        if (read_floats(p, what, v, 2, &nonfinite) < 0) return 0;
        return push_optional(p, attr, v, 2, nonfinite, IQI_TEXCOORD);
    case ATTR_VN:
        if (read_floats(p, what, v, 3, &nonfinite) < 0) return 0;
        return push_optional(p, attr, v, 3, nonfinite, IQI_NORMAL);
    case ATTR_VC:
        v[3] = 1;
        if (read_floats(p, what, v, 4, &nonfinite) < 0) return 0;
        return push_optional(p, attr, v, 4, nonfinite, IQI_COLOR);
    case ATTR_VX: {
        v[3] = 1;
        if ((n = read_floats(p, what, v, 6, &nonfinite)) < 0) return 0;
        if (n == 5)
            return iqi_fail_at_line(p->ctx, IQ_ERROR_SYNTAX, p->line, 1,
                                    "vx: 5 values; it takes X Y Z [W] or X Y Z followed by a bitangent A B C");
        tangent_in *t = grow_push(p, &p->attr[attr], sizeof *t, what);
        if (!t) return 0;
        int usable = !nonfinite; /* the Unvanquished exporter has written NaN tangents */
        for (int k = 0; k < n; k++) usable &= iqi_usable(p->ctx, v[k]) && iqi_finite((float)v[k]);
        if (!usable) { /* repaired like every optional vector (iq_numbers.c) */
            float nan4[4] = {NAN, 0, 0, 0};
            iqi_repair_vector(p->ctx, IQI_TANGENT, nan4, 4);
            memcpy(t->t, nan4, sizeof t->t);
            return 1;
        }
        for (int k = 0; k < 3; k++) t->t[k] = (float)v[k];
        if (n == 6) {
            for (int k = 0; k < 3; k++) t->b[k] = (float)v[3 + k];
            t->has_bitangent = 1;
            t->t[3] = 1;
        } else {
            t->t[3] = v[3] < 0 ? -1.0f : 1.0f;
        }
        return 1;
    }
    case ATTR_VS: {
        token t;
        int64_t value = 0;
        int r = next_token(p, &t);
        if (r < 0) return 0;
        if (r == 0) return iqi_fail_at_line(p->ctx, IQ_ERROR_SYNTAX, p->line, 1, "vs: the smoothing index is missing");
        if (!parse_int(&t, &value)) return fail_tok(p, IQ_ERROR_SYNTAX, &t, what, "is not an integer");
        int64_t *out = grow_push(p, &p->attr[attr], sizeof *out, what);
        if (!out) return 0;
        *out = value;
        return expect_end(p, what);
    }
    case ATTR_VB: {
        /* Any number of (joint, weight) pairs: duplicates merge, weights <= 0
         * are unused, the four largest are kept (the spec allows that). */
        token t;
        int r;
        p->pairs.len = 0;
        while ((r = next_token(p, &t)) == 1) {
            int64_t index;
            if (!parse_int(&t, &index) || index < 0)
                return fail_tok(p, IQ_ERROR_SYNTAX, &t, what, "is not a joint index (an integer >= 0)");
            token wt;
            if ((r = next_token(p, &wt)) != 1) {
                if (r == 0) return fail_tok(p, IQ_ERROR_SYNTAX, &t, what, "is a joint index without a weight");
                return 0;
            }
            double w;
            int status = parse_double(&wt, &w);
            if (status == NUM_BAD) return fail_tok(p, IQ_ERROR_SYNTAX, &wt, what, "is not a number");
            if (status == NUM_NONFINITE || fabs(w) > 3.0e38) return fail_tok(p, IQ_ERROR_BAD_VALUE, &wt, what, "is not a finite float weight");
            if (!p->max_blend_index.set || index > p->max_blend_index.value)
                p->max_blend_index = (where){p->line, t.column, index, 1};
            double *pair = grow_push(p, &p->pairs, 2 * sizeof(double), what);
            if (!pair) return 0;
            pair[0] = (double)index;
            pair[1] = w;
        }
        if (r < 0) return 0;
        blend_in *b = grow_push(p, &p->attr[attr], sizeof *b, what);
        if (!b) return 0;
        uint32_t count = GROW_COUNT(p->pairs, double) / 2;
        double *pairs = (double *)p->pairs.data;
        /* merge duplicates in place (counts are tiny; big ones are sorted) */
        uint32_t kept = 0;
        for (uint32_t i = 0; i < count; i++) {
            double index = pairs[2 * i], w = pairs[2 * i + 1];
            if (w < 0) { p->negative_weights++; continue; }
            if (w == 0) continue;
            uint32_t j = 0;
            if (kept <= 16)
                for (; j < kept; j++)
                    if (pairs[2 * j] == index) break;
            if (kept > 16) j = kept; /* long lists: duplicates stay separate (skinning adds them up all the same) */
            if (j < kept) pairs[2 * j + 1] += w;
            else { pairs[2 * kept] = index; pairs[2 * kept + 1] = w; kept++; }
        }
        if (kept > 4) p->extra_influences++;
        /* the four largest, largest first */
        for (uint32_t i = 0; i < kept; i++) {
            float w = (float)fmin(pairs[2 * i + 1], 3.0e38); /* merged duplicates may add up past float */
            uint32_t idx = pairs[2 * i] > UINT32_MAX ? UINT32_MAX : (uint32_t)pairs[2 * i]; /* too large: refused at the end */
            uint32_t slot = b->count;
            while (slot > 0 && b->weight[slot - 1] < w) slot--;
            if (slot >= 4) continue;
            uint32_t last = b->count < 4 ? b->count : 3;
            for (uint32_t s = last; s > slot; s--) { b->weight[s] = b->weight[s - 1]; b->index[s] = b->index[s - 1]; }
            b->weight[slot] = w;
            b->index[slot] = idx;
            if (b->count < 4) b->count++;
        }
        return 1;
    }
    default: { /* v0..v9 */
        if (read_floats(p, what, v, 4, &nonfinite) < 0) return 0;
        return push_optional(p, attr, v, 4, nonfinite, IQI_CUSTOM);
    }
    }
}

static int parse_vertexarray(iqe_parser *p) {
    token t;
    int r = next_token(p, &t);
    if (r < 0) return 0;
    if (r == 0) return iqi_fail_at_line(p->ctx, IQ_ERROR_SYNTAX, p->line, 1, "vertexarray: no TYPE given");
    int type = -1;
    for (int i = 0; i < VA_COUNT; i++)
        if (tok_is_nocase(&t, va_type_names[i])) type = i;
    if (type < 0) { /* spec: any other TYPE is ignored */
        iqi_warn(p->ctx, IQ_WARNING_IGNORED_DATA, "line %u: vertexarray of unknown type '%.*s' ignored", p->line,
                 (int)(t.len > 40 ? 40 : t.len), t.s);
        p->cursor = p->line_end;
        return 1;
    }
    va_decl d = {1, IQ_FLOAT, va_default_size[type], NULL};
    if (type == VA_BLENDINDEXES || type == VA_BLENDWEIGHTS || type == VA_COLOR) d.format = IQ_UBYTE;
    if ((r = next_token(p, &t)) == 1) {
        int format = -1;
        for (int i = 0; i < 9; i++)
            if (tok_is_nocase(&t, va_format_names[i])) format = i;
        if (format >= 0) d.format = (iq_component)format; /* spec: any other COMPONENT is ignored */
        if ((r = next_token(p, &t)) == 1) {
            int64_t size;
            if (parse_int(&t, &size) && size >= 1 && size <= 4) d.size = (uint32_t)size; /* other SIZEs ignored */
            if ((r = next_token(p, &t)) == 1 && type >= VA_CUSTOM0) {
                if (memchr(t.s, 0, t.len)) return fail_tok(p, IQ_ERROR_SYNTAX, &t, "vertexarray", "contains a NUL byte");
                d.name = iqi_strdup_n(p->ctx, t.s, t.len);
                if (!d.name) return 0;
            }
        }
    }
    if (r < 0) return 0;
    if (!d.name) d.name = va_type_names[type];
    p->decl[type] = d;
    p->cursor = p->line_end;
    return 1;
}

// -- Meshes and faces

static mesh_block *current_mesh(iqe_parser *p) {
    uint32_t n = GROW_COUNT(p->meshes, mesh_block);
    return n ? GROW_AT(p->meshes, mesh_block, n - 1) : NULL;
}

static uint32_t vertex_count_so_far(const iqe_parser *p) { return GROW_COUNT(p->attr[ATTR_VP], float) / 3; }

static mesh_block *start_mesh(iqe_parser *p, const char *name, const char *material, uint32_t fm_base, int declared) {
    mesh_block *m = grow_push(p, &p->meshes, sizeof *m, "meshes");
    if (!m) return NULL;
    m->name = name;
    m->material = material;
    m->first_triangle = GROW_COUNT(p->triangles, uint32_t) / 3;
    m->first_vertex = m->end_vertex = vertex_count_so_far(p);
    m->fm_base = fm_base;
    m->declared = declared;
    return m;
}

static int parse_mesh(iqe_parser *p) {
    const char *name = read_name(p, "mesh", NULL);
    if (!name || !expect_end(p, "mesh")) return 0;
    return start_mesh(p, name, "", vertex_count_so_far(p), 1) != NULL;
}

static int parse_material(iqe_parser *p) {
    const char *material = read_name(p, "material", NULL);
    if (!material || !expect_end(p, "material")) return 0;
    mesh_block *m = current_mesh(p);
    /* A material change after the block has content starts a new block of the
     * same mesh; before that it names the current one. */
    if (!m || m->triangle_count || vertex_count_so_far(p) > m->first_vertex) {
        m = start_mesh(p, m ? m->name : "", material, m ? m->fm_base : 0, 1);
        return m != NULL;
    }
    m->material = material;
    m->declared = 1;
    return 1;
}

static uint32_t current_state(iqe_parser *p) {
    p->state_used = 1;
    return GROW_COUNT(p->states, smooth_state) - 1;
}

/* fa (absolute) and fm (relative to the mesh): a convex polygon, fanned. */
static int parse_face(iqe_parser *p, int relative) {
    const char *what = relative ? "fm" : "fa";
    mesh_block *m = current_mesh(p);
    if (!m && !(m = start_mesh(p, "", "", 0, 0))) return 0;
    uint32_t defined = vertex_count_so_far(p);
    uint32_t first = 0, prev = 0, count = 0;
    uint32_t first_tri = GROW_COUNT(p->triangles, uint32_t) / 3, state = current_state(p);
    token t;
    int r;
    while ((r = next_token(p, &t)) == 1) {
        int64_t i;
        if (!parse_int(&t, &i)) return fail_tok(p, IQ_ERROR_SYNTAX, &t, what, "is not a vertex index");
        int64_t v;
        if (i < 0) { /* relative to the last vertex defined so far: -1 is that vertex */
            v = (int64_t)defined + i;
            if (v < 0) {
                char why[96];
                snprintf(why, sizeof why, "reaches before the first vertex (%u vertices are defined so far)", defined);
                return fail_tok(p, IQ_ERROR_BAD_INDEX, &t, what, why);
            }
        } else {
            v = (relative ? (int64_t)m->fm_base : 0) + i;
            if (v > UINT32_MAX - 1) return fail_tok(p, IQ_ERROR_BAD_INDEX, &t, what, "is too large");
            if (!p->max_vertex_ref.set || v > p->max_vertex_ref.value) p->max_vertex_ref = (where){p->line, t.column, v, 1};
        }
        if (count == 0) first = (uint32_t)v;
        else if (count >= 2) {
            uint32_t *tri = grow_push(p, &p->triangles, 3 * sizeof(uint32_t), "triangles");
            uint32_t *st = grow_push(p, &p->tri_state, sizeof(uint32_t), "triangles");
            uint8_t *edges = grow_push(p, &p->tri_edges, 1, "triangles");
            if (!tri || !st || !edges) return 0;
            tri[0] = first; tri[1] = prev; tri[2] = (uint32_t)v;
            *st = state;
            *edges = 7;
        }
        prev = (uint32_t)v;
        count++;
    }
    if (r < 0) return 0;
    if (count < 3)
        return iqi_fail_at_line(p->ctx, IQ_ERROR_SYNTAX, p->line, 1,
                                "%s: a face needs at least 3 vertex indices, this one has %u", what, count);
    face_rec *f = grow_push(p, &p->faces, sizeof *f, "faces");
    if (!f) return 0;
    f->first_triangle = first_tri;
    f->vertex_count = count;
    m->triangle_count += count - 2;
    p->have_faces = 1;
    return 1;
}

static int parse_fs(iqe_parser *p) {
    fs_rec *rec = grow_push(p, &p->fs, sizeof *rec, "fs");
    if (!rec) return 0;
    rec->line = p->line;
    rec->first_flag = (uint32_t)p->fs_flags.len;
    token t;
    int r;
    while ((r = next_token(p, &t)) == 1) {
        if (!tok_is(&t, "0") && !tok_is(&t, "1")) return fail_tok(p, IQ_ERROR_SYNTAX, &t, "fs", "is not 0 or 1");
        uint8_t *flag = grow_push(p, &p->fs_flags, 1, "fs");
        if (!flag) return 0;
        *flag = t.s[0] == '1';
        rec->count++;
    }
    return r == 0;
}

static smooth_state *new_state(iqe_parser *p) {
    smooth_state *last = GROW_AT(p->states, smooth_state, GROW_COUNT(p->states, smooth_state) - 1);
    /* settings already given to faces or vertices stay as they were: change a copy */
    if (!p->state_used && last->first_vertex == vertex_count_so_far(p)) return last;
    smooth_state copy = *last;
    smooth_state *s = grow_push(p, &p->states, sizeof *s, "smoothing");
    if (!s) return NULL;
    *s = copy;
    s->first_vertex = vertex_count_so_far(p);
    p->state_used = 0;
    return s;
}

static int parse_smoothing(iqe_parser *p, const char *what) {
    token t;
    int r = next_token(p, &t);
    if (r < 0) return 0;
    if (r == 0) return iqi_fail_at_line(p->ctx, IQ_ERROR_SYNTAX, p->line, 1, "%s: the value is missing", what);
    smooth_state *s = new_state(p);
    if (!s) return 0;
    if (what[6] == 'a') { /* smoothangle: degrees, "in any direction" */
        double a;
        int status = parse_double(&t, &a);
        if (status != NUM_OK) return fail_tok(p, status == NUM_BAD ? IQ_ERROR_SYNTAX : IQ_ERROR_BAD_VALUE, &t, what, "is not a finite angle");
        a = fabs(a);
        s->angle = a > 180 ? 180 : a;
    } else {
        int64_t v;
        if (!parse_int(&t, &v)) return fail_tok(p, IQ_ERROR_SYNTAX, &t, what, "is not an integer");
        if (what[6] == 'g') s->key = v;
        else s->uv = v > 0;
    }
    return expect_end(p, what);
}

// -- Skeleton, poses, animations

static int parse_joint(iqe_parser *p) {
    const char *name = read_name(p, "joint", NULL);
    if (!name) return 0;
    uint32_t index = GROW_COUNT(p->joints, joint_rec);
    if (index >= p->ctx->limits.max_joints)
        return iqi_fail_at_line(p->ctx, IQ_ERROR_LIMIT, p->line, 1, "joint: more than the limit of %u joints",
                                p->ctx->limits.max_joints);
    int64_t parent = -1;
    token t;
    int r = next_token(p, &t);
    if (r < 0) return 0;
    if (r == 1) {
        if (!parse_int(&t, &parent)) return fail_tok(p, IQ_ERROR_SYNTAX, &t, "joint", "is not a parent index");
        if (parent >= (int64_t)index) {
            char why[128];
            snprintf(why, sizeof why, "is not an earlier joint: joint %u ('%.40s') must have a parent < %u", index, name, index);
            return fail_tok(p, IQ_ERROR_BAD_HIERARCHY, &t, "joint", why);
        }
        if (parent < 0) parent = -1;
        if (!expect_end(p, "joint")) return 0;
    }
    joint_rec *j = grow_push(p, &p->joints, sizeof *j, "joints");
    if (!j) return 0;
    j->name = name;
    j->parent = (int32_t)parent;
    return 1;
}

/* Rotation matrix (rows, p' = R p) to a unit quaternion. */
static void quat_from_matrix(const double r[9], float q[4]) {
    double tr = r[0] + r[4] + r[8], x, y, z, w;
    if (tr > 0) {
        double s = sqrt(tr + 1.0) * 2;
        w = 0.25 * s; x = (r[7] - r[5]) / s; y = (r[2] - r[6]) / s; z = (r[3] - r[1]) / s;
    } else if (r[0] > r[4] && r[0] > r[8]) {
        double s = sqrt(1.0 + r[0] - r[4] - r[8]) * 2;
        w = (r[7] - r[5]) / s; x = 0.25 * s; y = (r[1] + r[3]) / s; z = (r[2] + r[6]) / s;
    } else if (r[4] > r[8]) {
        double s = sqrt(1.0 + r[4] - r[0] - r[8]) * 2;
        w = (r[2] - r[6]) / s; x = (r[1] + r[3]) / s; y = 0.25 * s; z = (r[5] + r[7]) / s;
    } else {
        double s = sqrt(1.0 + r[8] - r[0] - r[4]) * 2;
        w = (r[3] - r[1]) / s; x = (r[2] + r[6]) / s; y = (r[5] + r[7]) / s; z = 0.25 * s;
    }
    q[0] = (float)x; q[1] = (float)y; q[2] = (float)z; q[3] = (float)w;
}


/* Starts a keyframe of the current (last) animation; later poses go into it. */
static int open_frame(iqe_parser *p, uint32_t anims) {
    frame_rec *f = grow_push(p, &p->frames, sizeof *f, "frames");
    if (!f) return 0;
    f->line = p->line;
    f->first_pose = GROW_COUNT(p->poses, iq_transform);
    GROW_AT(p->anims, anim_rec, anims - 1)->frame_rec_count++;
    p->frame_open = 1;
    return 1;
}

static int parse_pose(iqe_parser *p, char kind) {
    const char *what = kind == 'q' ? "pq" : kind == 'm' ? "pm" : "pa";
    double v[15];
    int max = kind == 'q' ? 10 : kind == 'm' ? 15 : 9, rot = kind == 'q' ? 4 : kind == 'm' ? 9 : 3;
    for (int k = 0; k < 15; k++) v[k] = 0;
    int n = read_floats(p, what, v, max, NULL);
    if (n < 0) return 0;
    int min = kind == 'q' ? 6 : 3 + rot;
    if (n < min)
        return iqi_fail_at_line(p->ctx, IQ_ERROR_SYNTAX, p->line, 1, "%s: %d values; it needs at least %d (translation and %s)",
                                what, n, min, kind == 'q' ? "x y z of the quaternion" : kind == 'm' ? "a 3x3 matrix" : "3 angles");
    iq_transform t;
    int scale_at = kind == 'q' ? 7 : 3 + rot;
    double scale[3] = {1, 1, 1};
    for (int k = 0; k < 3; k++) {
        t.translate[k] = (float)v[k];
        if (n > scale_at + k) scale[k] = v[scale_at + k];
    }
    if (kind == 'q') {
        double x = v[3], y = v[4], z = v[5], w;
        if (n >= 7) w = v[6];
        else w = -sqrt(fmax(0.0, 1.0 - x * x - y * y - z * z)); /* spec: an omitted w is negative */
        double len = sqrt(x * x + y * y + z * z + w * w);
        if (!(len > 1e-12) || !isfinite(len))
            return iqi_fail_at_line(p->ctx, IQ_ERROR_BAD_VALUE, p->line, 1, "pq: quaternion (%g, %g, %g, %g) has no direction",
                                    x, y, z, w);
        t.rotate[0] = (float)(x / len); t.rotate[1] = (float)(y / len); t.rotate[2] = (float)(z / len); t.rotate[3] = (float)(w / len);
    } else if (kind == 'm') {
        /* Rows A B C of R*S: each column's length is that axis's scale; a
         * negative determinant makes the scale negative (mirroring). */
        double m[9], s[3];
        for (int k = 0; k < 9; k++) m[k] = v[3 + k];
        for (int c = 0; c < 3; c++) s[c] = sqrt(m[c] * m[c] + m[3 + c] * m[3 + c] + m[6 + c] * m[6 + c]);
        double det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]);
        if (!(s[0] > 1e-20 && s[1] > 1e-20 && s[2] > 1e-20) || det == 0)
            return iqi_fail_at_line(p->ctx, IQ_ERROR_BAD_VALUE, p->line, 1, "pm: the matrix is singular (a zero axis)");
        if (det < 0) for (int c = 0; c < 3; c++) s[c] = -s[c];
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) m[3 * r + c] /= s[c];
        quat_from_matrix(m, t.rotate);
        iqm_quat_normalize(t.rotate);
        for (int k = 0; k < 3; k++) scale[k] *= s[k];
    } else {
        /* Euler angles in radians: X first, then Y, then Z (q = qz * qy * qx). */
        double cx = cos(v[3] / 2), sx = sin(v[3] / 2), cy = cos(v[4] / 2), sy = sin(v[4] / 2);
        double cz = cos(v[5] / 2), sz = sin(v[5] / 2);
        t.rotate[0] = (float)(sx * cy * cz - cx * sy * sz);
        t.rotate[1] = (float)(cx * sy * cz + sx * cy * sz);
        t.rotate[2] = (float)(cx * cy * sz - sx * sy * cz);
        t.rotate[3] = (float)(cx * cy * cz + sx * sy * sz);
        iqm_quat_normalize(t.rotate);
    }
    if (t.rotate[3] > 0) for (int k = 0; k < 4; k++) t.rotate[k] = -t.rotate[k]; /* canonical w <= 0, like the SDK */
    for (int k = 0; k < 3; k++) t.scale[k] = (float)scale[k];
    for (int k = 0; k < 3; k++) {
        if (!iqi_usable(p->ctx, v[k]) || !iqi_finite(t.translate[k]))
            return iqi_fail_value(p->ctx, -1, p->line, v[k], "%s: translate %d", what, k + 1);
        if (!iqi_usable(p->ctx, scale[k]) || !iqi_finite(t.scale[k]))
            return iqi_fail_value(p->ctx, -1, p->line, scale[k], "%s: scale %d", what, k + 1);
    }

    uint32_t anims = GROW_COUNT(p->anims, anim_rec);
    if (!anims) {
        if (t.scale[0] == 0 || t.scale[1] == 0 || t.scale[2] == 0)
            return iqi_fail_at_line(p->ctx, IQ_ERROR_BAD_VALUE, p->line, 1,
                                    "%s: a base pose with a zero scale (%g %g %g) cannot be inverted for skinning", what,
                                    t.scale[0], t.scale[1], t.scale[2]);
        if (!p->first_pose_line) p->first_pose_line = p->line;
        iq_transform *out = grow_push(p, &p->base_poses, sizeof t, "base poses");
        if (!out) return 0;
        *out = t;
        return 1;
    }
    /* poses right after `animation` open its first keyframe */
    if (!p->frame_open && !open_frame(p, anims)) return 0;
    iq_transform *out = grow_push(p, &p->poses, sizeof t, "poses");
    if (!out) return 0;
    *out = t;
    GROW_AT(p->frames, frame_rec, GROW_COUNT(p->frames, frame_rec) - 1)->pose_count++;
    return 1;
}

static int parse_animation(iqe_parser *p) {
    int given;
    const char *name = read_name(p, "animation", &given);
    if (!name || !expect_end(p, "animation")) return 0;
    anim_rec *a = grow_push(p, &p->anims, sizeof *a, "animations");
    if (!a) return 0;
    a->name = given ? name : NULL;
    a->first_frame_rec = GROW_COUNT(p->frames, frame_rec);
    a->line = p->line;
    p->frame_open = 0;
    return 1;
}

static int parse_frame(iqe_parser *p) {
    uint32_t anims = GROW_COUNT(p->anims, anim_rec);
    p->cursor = p->line_end; /* exporters write the frame number; it carries nothing */
    if (!anims) { p->ignored_frames++; return 1; }
    return open_frame(p, anims);
}

static int parse_anim_setting(iqe_parser *p, int is_loop) {
    uint32_t anims = GROW_COUNT(p->anims, anim_rec);
    anim_rec *a = anims ? GROW_AT(p->anims, anim_rec, anims - 1) : NULL;
    if (is_loop) {
        if (a) a->flags |= IQ_ANIMATION_LOOP;
        else p->ignored_loops++;
        return expect_end(p, "loop");
    }
    token t;
    int r = next_token(p, &t);
    if (r < 0) return 0;
    if (r == 0) return iqi_fail_at_line(p->ctx, IQ_ERROR_SYNTAX, p->line, 1, "framerate: the value is missing");
    double fps;
    int status = parse_double(&t, &fps);
    if (status == NUM_BAD) return fail_tok(p, IQ_ERROR_SYNTAX, &t, "framerate", "is not a number");
    if (status != NUM_OK || fps < 0 || fps > 3.0e38)
        return fail_tok(p, IQ_ERROR_BAD_VALUE, &t, "framerate", "is not a finite rate >= 0");
    if (a) a->framerate = (float)fps;
    else p->ignored_loops++;
    return expect_end(p, "framerate");
}

// -- The line loop

static int parse_line(iqe_parser *p) {
    token cmd;
    int r = next_token(p, &cmd);
    if (r <= 0) return r == 0;
    const char *c = cmd.s;
    size_t n = cmd.quoted ? 0 : cmd.len;
    if (n == 2) {
        if (c[0] == 'v') {
            switch (c[1]) {
            case 'p': return parse_vertex_attr(p, ATTR_VP);
            case 't': return parse_vertex_attr(p, ATTR_VT);
            case 'n': return parse_vertex_attr(p, ATTR_VN);
            case 'x': return parse_vertex_attr(p, ATTR_VX);
            case 'b': return parse_vertex_attr(p, ATTR_VB);
            case 'c': return parse_vertex_attr(p, ATTR_VC);
            case 's': return parse_vertex_attr(p, ATTR_VS);
            default:
                if (c[1] >= '0' && c[1] <= '9') return parse_vertex_attr(p, ATTR_V0 + (c[1] - '0'));
            }
        } else if (c[0] == 'f') {
            if (c[1] == 'a') return parse_face(p, 0);
            if (c[1] == 'm') return parse_face(p, 1);
            if (c[1] == 's') return parse_fs(p);
        } else if (c[0] == 'p') {
            if (c[1] == 'q' || c[1] == 'm' || c[1] == 'a') return parse_pose(p, c[1]);
        }
    }
    if (tok_is(&cmd, "mesh")) return parse_mesh(p);
    if (tok_is(&cmd, "material")) return parse_material(p);
    if (tok_is(&cmd, "joint")) return parse_joint(p);
    if (tok_is(&cmd, "frame")) return parse_frame(p);
    if (tok_is(&cmd, "animation")) return parse_animation(p);
    if (tok_is(&cmd, "framerate")) return parse_anim_setting(p, 0);
    if (tok_is(&cmd, "loop")) return parse_anim_setting(p, 1);
    if (tok_is(&cmd, "vertexarray")) return parse_vertexarray(p);
    if (tok_is(&cmd, "smoothgroup")) return parse_smoothing(p, "smoothgroup");
    if (tok_is(&cmd, "smoothangle")) return parse_smoothing(p, "smoothangle");
    if (tok_is(&cmd, "smoothuv")) return parse_smoothing(p, "smoothuv");
    if (tok_is(&cmd, "comment")) {
        /* The rest of the file after this line, verbatim. */
        const char *start = p->line_end < p->end ? p->line_end + 1 : p->end;
        p->comment = start;
        p->comment_size = (size_t)(p->end - start);
        return 2;
    }
    if (!p->unknown_commands++) {
        p->unknown_line = p->line;
        snprintf(p->unknown_name, sizeof p->unknown_name, "%.*s", (int)(cmd.len > 20 ? 20 : cmd.len), cmd.s);
    }
    p->cursor = p->line_end;
    return 1;
}

static int parse_lines(iqe_parser *p) {
    const char *c = p->text;
    p->line = 0;
    while (c < p->end) {
        const char *nl = memchr(c, '\n', (size_t)(p->end - c));
        const char *e = nl ? nl : p->end;
        p->line = p->line == UINT32_MAX ? UINT32_MAX : p->line + 1;
        p->line_start = c;
        p->line_end = e;
        p->cursor = c;
        if (p->line == 1) {
            static const char header[] = "# Inter-Quake Export";
            if ((size_t)(e - c) < sizeof header - 1 || memcmp(c, header, sizeof header - 1) != 0)
                return iqi_fail_at_line(p->ctx, IQ_ERROR_SYNTAX, 1, 1,
                                        "the first line must start with \"# Inter-Quake Export\"");
        } else {
            int r = parse_line(p);
            if (!r) return 0;
            if (r == 2) break; /* comment: the rest of the file is taken */
        }
        c = nl ? nl + 1 : p->end;
    }
    if (p->line == 0)
        return iqi_fail_at_line(p->ctx, IQ_ERROR_SYNTAX, 1, 1, "the file is empty; it must start with \"# Inter-Quake Export\"");
    return 1;
}

// -- Normal generation (spec "Smoothing")

typedef struct smoother {
    iqe_parser *p;
    const float *pos;
    const uint32_t *tri;
    uint32_t tri_count, vertex_count;
    uint32_t *pid;     /* per vertex: id of its exact position */
    uint32_t *parent;  /* union-find over corners */
    double *face;      /* per triangle: unnormalised (area-weighted) face normal */
    grow keyed;        /* sort scratch */
    uint64_t pair_budget;
} smoother;

static uint32_t uf_find(uint32_t *parent, uint32_t x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static void uf_union(uint32_t *parent, uint32_t a, uint32_t b) {
    a = uf_find(parent, a);
    b = uf_find(parent, b);
    if (a != b) parent[a < b ? b : a] = a < b ? a : b;
}

static uint32_t hash_position(const float *v) {
    uint32_t h = 2166136261u;
    for (int k = 0; k < 3; k++) {
        float f = v[k] == 0 ? 0.0f : v[k]; /* -0 and 0 are the same position */
        uint32_t u;
        memcpy(&u, &f, 4);
        h = (h ^ u) * 16777619u;
        h ^= h >> 15;
    }
    return h;
}

static int same_position(const float *a, const float *b) { return a[0] == b[0] && a[1] == b[1] && a[2] == b[2]; }

/* Vertex -> id of its position (equal positions, equal ids), via a hash table. */
static int assign_position_ids(smoother *s, grow *tmp) {
    uint32_t n = s->vertex_count, cap = 16;
    while (cap < 2 * (uint64_t)n) cap *= 2;
    tmp->len = 0;
    uint32_t *table = grow_push(s->p, tmp, (size_t)cap * sizeof(uint32_t), "normal generation");
    if (!table) return 0;
    memset(table, 0xFF, (size_t)cap * sizeof(uint32_t));
    for (uint32_t v = 0; v < n; v++) {
        uint32_t h = hash_position(s->pos + 3 * (size_t)v) & (cap - 1);
        for (;;) {
            uint32_t other = table[h];
            if (other == UINT32_MAX) { table[h] = v; s->pid[v] = v; break; }
            if (same_position(s->pos + 3 * (size_t)other, s->pos + 3 * (size_t)v)) { s->pid[v] = s->pid[other]; break; }
            h = (h + 1) & (cap - 1);
        }
    }
    return 1;
}

/* The spec's tests for two corners at the same position: same smoothgroup
 * key, same `vs` index, face normals within both triangles' smoothangle,
 * equal texcoords when either triangle has smoothuv, and, when either
 * triangle has `fs` flags, an edge through this position that both
 * triangles share and both flag as smooth. */
static int corners_smooth(const smoother *s, uint32_t ca, uint32_t cb) {
    const iqe_parser *p = s->p;
    uint32_t ta = ca / 3, tb = cb / 3, ka = ca % 3, kb = cb % 3;
    uint32_t va = s->tri[ca], vb = s->tri[cb];
    const smooth_state *sa = GROW_AT(p->states, smooth_state, *GROW_AT(p->tri_state, uint32_t, ta));
    const smooth_state *sb = GROW_AT(p->states, smooth_state, *GROW_AT(p->tri_state, uint32_t, tb));
    if (sa->key != sb->key) return 0;
    if (p->attr[ATTR_VS].len && *GROW_AT(p->attr[ATTR_VS], int64_t, va) != *GROW_AT(p->attr[ATTR_VS], int64_t, vb)) return 0;
    double limit = sa->angle < sb->angle ? sa->angle : sb->angle;
    if (limit < 180) {
        const double *na = s->face + 3 * (size_t)ta, *nb = s->face + 3 * (size_t)tb;
        double la = sqrt(na[0] * na[0] + na[1] * na[1] + na[2] * na[2]);
        double lb = sqrt(nb[0] * nb[0] + nb[1] * nb[1] + nb[2] * nb[2]);
        if (!(la > 0) || !(lb > 0)) return 0;
        double cosine = (na[0] * nb[0] + na[1] * nb[1] + na[2] * nb[2]) / (la * lb);
        if (cosine < cos(limit * (3.14159265358979323846 / 180.0)) - 1e-6) return 0;
    }
    if ((sa->uv || sb->uv) && p->attr[ATTR_VT].len) {
        const float *ua = GROW_AT(p->attr[ATTR_VT], float, 2 * (size_t)va), *ub = GROW_AT(p->attr[ATTR_VT], float, 2 * (size_t)vb);
        if (ua[0] != ub[0] || ua[1] != ub[1]) return 0;
    }
    uint8_t ea = *GROW_AT(p->tri_edges, uint8_t, ta), eb = *GROW_AT(p->tri_edges, uint8_t, tb);
    if ((ea | eb) & 8) {
        if (ta == tb) return 0;
        /* The two edges at corner k: edge k (to corner k+1) and edge k+2 (from corner k+2). */
        uint32_t a1 = s->pid[s->tri[3 * ta + (ka + 1) % 3]], a2 = s->pid[s->tri[3 * ta + (ka + 2) % 3]];
        uint32_t b1 = s->pid[s->tri[3 * tb + (kb + 1) % 3]], b2 = s->pid[s->tri[3 * tb + (kb + 2) % 3]];
        int fa1 = (ea >> ka) & 1, fa2 = (ea >> ((ka + 2) % 3)) & 1;
        int fb1 = (eb >> kb) & 1, fb2 = (eb >> ((kb + 2) % 3)) & 1;
        if (!((a1 == b1 && fa1 && fb1) || (a1 == b2 && fa1 && fb2) || (a2 == b1 && fa2 && fb1) || (a2 == b2 && fa2 && fb2)))
            return 0;
    }
    return 1;
}

static int corner_is_simple(const smoother *s, uint32_t c) {
    const iqe_parser *p = s->p;
    const smooth_state *st = GROW_AT(p->states, smooth_state, *GROW_AT(p->tri_state, uint32_t, c / 3));
    return st->angle >= 180 && !(st->uv && p->attr[ATTR_VT].len) && !(*GROW_AT(p->tri_edges, uint8_t, c / 3) & 8);
}

/* Sort records with their keys inside, so qsort needs no shared state. */
typedef struct keyed_corner { int64_t a, b; uint32_t corner; } keyed_corner;
static int cmp_keyed(const void *x, const void *y) {
    const keyed_corner *p = x, *q = y;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    if (p->b != q->b) return p->b < q->b ? -1 : 1;
    return p->corner < q->corner ? -1 : p->corner > q->corner;
}

/* Sorts corners by (a, b, corner) through the smoother's scratch. */
static int sort_corners(smoother *s, uint32_t *corners, uint32_t count, int by_root, const uint32_t *root) {
    const iqe_parser *p = s->p;
    s->keyed.len = 0;
    keyed_corner *k = grow_push(s->p, &s->keyed, (size_t)count * sizeof *k, "normal generation");
    if (!k) return 0;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t c = corners[i];
        if (by_root) k[i] = (keyed_corner){root[c], 0, c};
        else k[i] = (keyed_corner){GROW_AT(p->states, smooth_state, *GROW_AT(p->tri_state, uint32_t, c / 3))->key,
                                   p->attr[ATTR_VS].len ? *GROW_AT(p->attr[ATTR_VS], int64_t, s->tri[c]) : 0, c};
    }
    qsort(k, count, sizeof *k, cmp_keyed);
    for (uint32_t i = 0; i < count; i++) corners[i] = k[i].corner;
    return 1;
}

static int same_keys(const smoother *s, uint32_t a, uint32_t b) {
    const iqe_parser *p = s->p;
    if (GROW_AT(p->states, smooth_state, *GROW_AT(p->tri_state, uint32_t, a / 3))->key !=
        GROW_AT(p->states, smooth_state, *GROW_AT(p->tri_state, uint32_t, b / 3))->key)
        return 0;
    return !p->attr[ATTR_VS].len || *GROW_AT(p->attr[ATTR_VS], int64_t, s->tri[a]) == *GROW_AT(p->attr[ATTR_VS], int64_t, s->tri[b]);
}

/* Welds the corners of one position: runs of equal (key, vs) are the only
 * candidates; simple runs weld in one sweep, the rest pairwise within a budget. */
static int weld_bucket(smoother *s, uint32_t *corners, uint32_t count) {
    if (!sort_corners(s, corners, count, 0, NULL)) return 0;
    for (uint32_t start = 0; start < count;) {
        uint32_t end = start + 1;
        while (end < count && same_keys(s, corners[start], corners[end])) end++;
        int simple = 1;
        for (uint32_t i = start; i < end && simple; i++) simple = corner_is_simple(s, corners[i]);
        if (simple) {
            for (uint32_t i = start + 1; i < end; i++) uf_union(s->parent, corners[start], corners[i]);
        } else {
            uint64_t k = end - start, pairs = k * (k - 1) / 2;
            if (pairs > s->pair_budget) {
                const float *v = s->pos + 3 * (size_t)s->tri[corners[start]];
                return iqi_fail(s->p->ctx, IQ_ERROR_LIMIT, -1,
                                "normal generation: %llu triangle corners share the position (%g, %g, %g) under angle, uv or "
                                "edge smoothing; comparing them pairwise is over the work limit",
                                (unsigned long long)k, v[0], v[1], v[2]);
            }
            s->pair_budget -= pairs;
            for (uint32_t i = start; i < end; i++)
                for (uint32_t j = i + 1; j < end; j++)
                    if (uf_find(s->parent, corners[i]) != uf_find(s->parent, corners[j]) && corners_smooth(s, corners[i], corners[j]))
                        uf_union(s->parent, corners[i], corners[j]);
        }
        start = end;
    }
    return 1;
}

/* Sorts one vertex's corners by group root: insertion sort for the usual
 * handful, qsort for the rare vertex shared by many triangles. */
static int sort_by_root(smoother *s, uint32_t *c, uint32_t n, const uint32_t *root) {
    if (n > 16) return sort_corners(s, c, n, 1, root);
    for (uint32_t i = 1; i < n; i++) {
        uint32_t x = c[i], j = i;
        while (j > 0 && (root[c[j - 1]] > root[x] || (root[c[j - 1]] == root[x] && c[j - 1] > x))) { c[j] = c[j - 1]; j--; }
        c[j] = x;
    }
    return 1;
}

/* Output vertices after normal generation. */
typedef struct vertex_map {
    uint32_t count;        /* output vertices */
    uint32_t *source;      /* per output vertex: its IQE vertex */
    float *normals;        /* per output vertex */
    uint32_t *first;       /* per IQE vertex (+1): first output vertex */
} vertex_map;

static int generate_normals(iqe_parser *p, vertex_map *map) {
    iqi_ctx *ctx = p->ctx;
    uint32_t nv = vertex_count_so_far(p), nt = GROW_COUNT(p->triangles, uint32_t) / 3, nc = 3 * nt;
    grow g_pid = {0}, g_parent = {0}, g_face = {0}, g_tmp = {0}, g_bucket = {0}, g_keys = {0}, g_sum = {0};
    smoother s = {.p = p, .pos = (const float *)p->attr[ATTR_VP].data, .tri = (const uint32_t *)p->triangles.data,
                  .tri_count = nt, .vertex_count = nv, .pair_budget = (uint64_t)64 * nc + (1u << 24)};
    int ok = 0;
    if (!(s.pid = grow_push(p, &g_pid, (size_t)nv * 4 + 4, "normal generation"))) goto done;
    if (!(s.parent = grow_push(p, &g_parent, (size_t)nc * 4 + 4, "normal generation"))) goto done;
    if (!(s.face = grow_push(p, &g_face, (size_t)nt * 24 + 8, "normal generation"))) goto done;
    if (!assign_position_ids(&s, &g_tmp)) goto done;
    for (uint32_t t = 0; t < nt; t++) {
        /* clockwise front faces: n = (v2 - v0) x (v1 - v0), length = twice the area */
        const float *a = s.pos + 3 * (size_t)s.tri[3 * t], *b = s.pos + 3 * (size_t)s.tri[3 * t + 1], *c = s.pos + 3 * (size_t)s.tri[3 * t + 2];
        double e1[3] = {(double)c[0] - a[0], (double)c[1] - a[1], (double)c[2] - a[2]};
        double e2[3] = {(double)b[0] - a[0], (double)b[1] - a[1], (double)b[2] - a[2]};
        s.face[3 * t] = e1[1] * e2[2] - e1[2] * e2[1];
        s.face[3 * t + 1] = e1[2] * e2[0] - e1[0] * e2[2];
        s.face[3 * t + 2] = e1[0] * e2[1] - e1[1] * e2[0];
    }
    for (uint32_t c = 0; c < nc; c++) s.parent[c] = c;
    /* Bucket corners by position id (counting sort), then weld each bucket. */
    {
        g_tmp.len = 0;
        uint32_t *start = grow_push(p, &g_tmp, ((size_t)nv + 1) * 4, "normal generation");
        uint32_t *order = grow_push(p, &g_bucket, (size_t)nc * 4 + 4, "normal generation");
        if (!start || !order) goto done;
        for (uint32_t c = 0; c < nc; c++) start[s.pid[s.tri[c]] + 1]++;
        for (uint32_t v = 0; v < nv; v++) start[v + 1] += start[v];
        uint32_t *fill = grow_push(p, &g_keys, ((size_t)nv + 1) * 4, "normal generation");
        if (!fill) goto done;
        start = (uint32_t *)g_tmp.data; /* g_tmp did not move, but be explicit */
        memcpy(fill, start, (size_t)nv * 4);
        for (uint32_t c = 0; c < nc; c++) order[fill[s.pid[s.tri[c]]]++] = c;
        for (uint32_t v = 0; v < nv; v++)
            if (start[v + 1] - start[v] > 1 && !weld_bucket(&s, order + start[v], start[v + 1] - start[v])) goto done;
    }
    /* Group normals: the sum of the area-weighted face normals of the group's corners. */
    double *sum = grow_push(p, &g_sum, (size_t)nc * 24 + 8, "normal generation");
    if (!sum) goto done;
    for (uint32_t c = 0; c < nc; c++) {
        uint32_t r = uf_find(s.parent, c);
        for (int k = 0; k < 3; k++) sum[3 * (size_t)r + k] += s.face[3 * (size_t)(c / 3) + k];
    }
    /* Split vertices whose corners landed in different groups: corners by
     * vertex (counting sort), each vertex's corners by group. */
    uint32_t *root = s.parent; /* flattened: parent[c] becomes c's root */
    for (uint32_t c = 0; c < nc; c++) root[c] = uf_find(s.parent, c);
    g_tmp.len = 0;
    g_bucket.len = 0;
    uint32_t *first = grow_push(p, &g_tmp, ((size_t)nv + 1) * 4, "normal generation");
    uint32_t *by_vertex = grow_push(p, &g_bucket, (size_t)nc * 4 + 4, "normal generation");
    if (!first || !by_vertex) goto done;
    for (uint32_t c = 0; c < nc; c++) first[s.tri[c] + 1]++;
    for (uint32_t v = 0; v < nv; v++) first[v + 1] += first[v];
    g_keys.len = 0;
    uint32_t *fill = grow_push(p, &g_keys, (size_t)nv * 4 + 4, "normal generation");
    if (!fill) goto done;
    memcpy(fill, first, (size_t)nv * 4);
    for (uint32_t c = 0; c < nc; c++) by_vertex[fill[s.tri[c]]++] = c;
    uint64_t out = 0;
    for (uint32_t v = 0; v < nv; v++) {
        uint32_t *list = by_vertex + first[v], n = first[v + 1] - first[v];
        if (!sort_by_root(&s, list, n, root)) goto done;
        out += 1; /* at least one output vertex, even when unused */
        for (uint32_t i = 1; i < n; i++) out += root[list[i]] != root[list[i - 1]];
    }
    if (out > UINT32_MAX - 1) { iqi_fail(ctx, IQ_ERROR_LIMIT, -1, "normal generation: too many vertices"); goto done; }
    map->count = (uint32_t)out;
    map->source = iqi_alloc(ctx, out, 4, "vertex map");
    map->normals = iqi_alloc(ctx, out, 12, "normals");
    map->first = iqi_alloc(ctx, (uint64_t)nv + 1, 4, "vertex map");
    if (!map->source || !map->normals || !map->first) goto done;
    {
        uint32_t o = 0;
        uint32_t *tri = (uint32_t *)p->triangles.data;
        for (uint32_t v = 0; v < nv; v++) {
            uint32_t *list = by_vertex + first[v], n = first[v + 1] - first[v];
            map->first[v] = o;
            if (!n) { map->source[o++] = v; continue; } /* unused by any face: kept, with a zero normal */
            for (uint32_t i = 0; i < n; i++) {
                if (i > 0 && root[list[i]] == root[list[i - 1]]) { tri[list[i]] = o - 1; continue; }
                const double *nrm = sum + 3 * (size_t)root[list[i]];
                double len = sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
                for (int j = 0; j < 3; j++) map->normals[3 * (size_t)o + j] = len > 0 && isfinite(len) ? (float)(nrm[j] / len) : 0.0f;
                map->source[o] = v;
                tri[list[i]] = o++;
            }
        }
        map->first[nv] = o;
    }
    ok = 1;
done:
    p->scratch -= g_pid.cap + g_parent.cap + g_face.cap + g_tmp.cap + g_bucket.cap + g_keys.cap + g_sum.cap + s.keyed.cap;
    grow_free(&s.keyed);
    grow_free(&g_pid); grow_free(&g_parent); grow_free(&g_face); grow_free(&g_tmp);
    grow_free(&g_bucket); grow_free(&g_keys); grow_free(&g_sum);
    return ok;
}

// -- Building the model

/* Float value to an IQM component, the inverse of how the IQM loader reads
 * integer formats (normalised: unsigned c/(2^b-1), signed (2c+1)/(2^b-1)). */
static void store_component(uint8_t *dst, iq_component format, double v) {
    switch (format) {
    case IQ_BYTE: { double c = floor((v * 255.0 - 1.0) / 2.0 + 0.5); c = c < -128 ? -128 : c > 127 ? 127 : c; int8_t x = (int8_t)c; memcpy(dst, &x, 1); break; }
    case IQ_UBYTE: { double c = floor(v * 255.0 + 0.5); dst[0] = (uint8_t)(c < 0 ? 0 : c > 255 ? 255 : c); break; }
    case IQ_SHORT: { double c = floor((v * 65535.0 - 1.0) / 2.0 + 0.5); c = c < -32768 ? -32768 : c > 32767 ? 32767 : c; int16_t x = (int16_t)c; dst[0] = (uint8_t)x; dst[1] = (uint8_t)((uint16_t)x >> 8); break; }
    case IQ_USHORT: { double c = floor(v * 65535.0 + 0.5); uint16_t x = (uint16_t)(c < 0 ? 0 : c > 65535 ? 65535 : c); dst[0] = (uint8_t)x; dst[1] = (uint8_t)(x >> 8); break; }
    case IQ_INT: { double c = floor((v * 4294967295.0 - 1.0) / 2.0 + 0.5); c = c < -2147483648.0 ? -2147483648.0 : c > 2147483647.0 ? 2147483647.0 : c; int32_t x = (int32_t)c; uint32_t u; memcpy(&u, &x, 4); for (int k = 0; k < 4; k++) dst[k] = (uint8_t)(u >> (8 * k)); break; }
    case IQ_UINT: { double c = floor(v * 4294967295.0 + 0.5); uint32_t u = (uint32_t)(c < 0 ? 0 : c > 4294967295.0 ? 4294967295.0 : c); for (int k = 0; k < 4; k++) dst[k] = (uint8_t)(u >> (8 * k)); break; }
    case IQ_HALF: {
        float f = (float)v;
        uint32_t b; memcpy(&b, &f, 4);
        uint32_t sign = (b >> 16) & 0x8000; int32_t e = (int32_t)((b >> 23) & 0xff) - 127 + 15; uint32_t m = b & 0x7fffff;
        uint16_t h;
        if (e >= 31) h = (uint16_t)(sign | 0x7c00);                         /* overflow: infinity */
        else if (e <= 0) {                                                  /* subnormal or zero */
            if (e < -10) h = (uint16_t)sign;
            else { m |= 0x800000; uint32_t shift = (uint32_t)(14 - e); uint32_t r = m >> shift; if ((m >> (shift - 1)) & 1) r++; h = (uint16_t)(sign | r); }
        } else { uint32_t r = (uint32_t)(e << 10) | (m >> 13); if (m & 0x1000) r++; h = (uint16_t)(sign | r); }
        dst[0] = (uint8_t)h; dst[1] = (uint8_t)(h >> 8);
        break;
    }
    case IQ_FLOAT: { float f = (float)v; uint32_t u; memcpy(&u, &f, 4); for (int k = 0; k < 4; k++) dst[k] = (uint8_t)(u >> (8 * k)); break; }
    default: { uint64_t u; memcpy(&u, &v, 8); for (int k = 0; k < 8; k++) dst[k] = (uint8_t)(u >> (8 * k)); break; }
    }
}

static const uint8_t component_bytes[9] = {1, 1, 2, 2, 4, 4, 2, 4, 8};

static int check_attribute_counts(iqe_parser *p, uint32_t nv) {
    static const size_t elem[ATTR_COUNT] = {12, 8, 12, sizeof(tangent_in), sizeof(blend_in), 16, 8, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16};
    for (int a = 0; a < ATTR_COUNT; a++) {
        uint64_t count = p->attr[a].len / elem[a];
        if (a == ATTR_VP || !count) continue;
        if (!nv)
            return iqi_fail_at_line(p->ctx, IQ_ERROR_BAD_VERTEX_ARRAY, p->attr_first_line[a], 1,
                                    "%llu '%s' lines but no vertex positions (vp)", (unsigned long long)count, attr_names[a]);
        if (count != nv)
            return iqi_fail_at_line(p->ctx, IQ_ERROR_BAD_VERTEX_ARRAY, p->attr_first_line[a], 1,
                                    "%llu '%s' lines for %u vertices (vp lines); each vertex attribute must be given for every vertex or for none",
                                    (unsigned long long)count, attr_names[a], nv);
    }
    return 1;
}

static int build_meshes(iqe_parser *p, const vertex_map *map) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    uint32_t blocks = GROW_COUNT(p->meshes, mesh_block), kept = 0, empty = 0;
    if (!blocks) return 1;
    m->meshes = iqi_alloc(ctx, blocks, sizeof(iq_mesh), "meshes");
    if (!m->meshes) return 0;
    const uint32_t *tri = m->indices;
    for (uint32_t i = 0; i < blocks; i++) {
        mesh_block *b = GROW_AT(p->meshes, mesh_block, i);
        /* An implicit block (content before any `mesh`) is only a mesh if it has triangles. */
        if (!b->declared && !b->triangle_count) continue;
        uint64_t lo = b->first_vertex, hi = b->end_vertex; /* IQE vertex range of the block */
        uint64_t out_lo = map ? map->first[lo] : lo, out_hi = map ? map->first[hi] : hi;
        for (uint32_t t = b->first_triangle; t < b->first_triangle + b->triangle_count; t++)
            for (int k = 0; k < 3; k++) {
                uint32_t v = tri[3 * (size_t)t + k];
                if (v < out_lo) out_lo = v;
                if (v + 1 > out_hi) out_hi = v + 1;
            }
        if (out_hi < out_lo) out_hi = out_lo;
        iq_mesh *mesh = &m->meshes[kept++];
        mesh->name = b->name;
        mesh->material = b->material;
        mesh->first_vertex = (uint32_t)out_lo;
        mesh->vertex_count = (uint32_t)(out_hi - out_lo);
        mesh->first_triangle = b->first_triangle;
        mesh->triangle_count = b->triangle_count;
        if (!b->triangle_count) empty++;
    }
    m->mesh_count = kept;
    if (empty) iqi_warn(ctx, IQ_WARNING_EMPTY, "%u mesh(es) have no triangles", empty);
    return 1;
}

/* Face-less files: each mesh's own vertices, in threes, are its triangles,
 * each with the smoothing settings in force at its first vertex. */
static int make_triangles_from_vertices(iqe_parser *p) {
    uint32_t blocks = GROW_COUNT(p->meshes, mesh_block), leftover = 0, state = 0, states = GROW_COUNT(p->states, smooth_state);
    for (uint32_t i = 0; i < blocks; i++) {
        mesh_block *b = GROW_AT(p->meshes, mesh_block, i);
        uint32_t n = b->end_vertex - b->first_vertex;
        b->first_triangle = GROW_COUNT(p->triangles, uint32_t) / 3;
        b->triangle_count = n / 3;
        leftover += n % 3;
        for (uint32_t t = 0; t < n / 3; t++) {
            uint32_t *tri = grow_push(p, &p->triangles, 12, "triangles");
            uint32_t *st = grow_push(p, &p->tri_state, 4, "triangles");
            uint8_t *edges = grow_push(p, &p->tri_edges, 1, "triangles");
            if (!tri || !st || !edges) return 0;
            for (int k = 0; k < 3; k++) tri[k] = b->first_vertex + 3 * t + (uint32_t)k;
            while (state + 1 < states && GROW_AT(p->states, smooth_state, state + 1)->first_vertex <= tri[0]) state++;
            *st = state;
            *edges = 7;
        }
    }
    if (leftover) iqi_warn(p->ctx, IQ_WARNING_IGNORED_DATA, "%u vertices at the end of face-less meshes do not make a whole triangle", leftover);
    return 1;
}

/* Matches the k-th `fs` line to the k-th face command and stores each fan
 * triangle's edge flags (edges between fan triangles always smooth). */
static int apply_edge_flags(iqe_parser *p) {
    uint32_t nfs = GROW_COUNT(p->fs, fs_rec), nfaces = GROW_COUNT(p->faces, face_rec);
    if (!nfs) return 1;
    if (nfs > nfaces)
        return iqi_fail_at_line(p->ctx, IQ_ERROR_SYNTAX, GROW_AT(p->fs, fs_rec, nfaces)->line, 1,
                                "fs: %u fs lines for %u faces; each fs belongs to one fa/fm face, in order", nfs, nfaces);
    for (uint32_t i = 0; i < nfs; i++) {
        const fs_rec *fs = GROW_AT(p->fs, fs_rec, i);
        const face_rec *f = GROW_AT(p->faces, face_rec, i);
        if (fs->count != f->vertex_count)
            return iqi_fail_at_line(p->ctx, IQ_ERROR_SYNTAX, fs->line, 1,
                                    "fs: %u flags for face %u, which has %u vertices; they must match", fs->count, i, f->vertex_count);
        const uint8_t *flag = p->fs_flags.data + fs->first_flag;
        uint32_t n = f->vertex_count;
        for (uint32_t t = 0; t + 2 < n; t++) {
            /* fan triangle t = (v0, v[t+1], v[t+2]): edge 0 = v0->v[t+1] is polygon edge 0 only
             * for the first triangle, edge 1 = polygon edge t+1, edge 2 = v[t+2]->v0 is the
             * polygon's closing edge only for the last triangle. */
            int e0 = t == 0 ? flag[0] : 1, e1 = flag[t + 1], e2 = t == n - 3 ? flag[n - 1] : 1;
            *GROW_AT(p->tri_edges, uint8_t, f->first_triangle + t) = (uint8_t)(8 | e0 | (e1 << 1) | (e2 << 2));
        }
    }
    return 1;
}

static int build_vertices(iqe_parser *p, const vertex_map *map) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    uint32_t out = map ? map->count : vertex_count_so_far(p);
    m->vertex_count = out;
    if (!out) return 1;
#define SRC(o) (map ? map->source[o] : (o))
    struct { int attr, va, components; float **dst; float defaults[4]; const char *what; } floats[] = {
        {ATTR_VP, VA_POSITION, 3, &m->positions, {0, 0, 0, 0}, "positions"},
        {ATTR_VT, VA_TEXCOORD, 2, &m->texcoords, {0, 0, 0, 0}, "texcoords"},
        {ATTR_VN, VA_NORMAL, 3, &m->normals, {0, 0, 0, 0}, "normals"},
        {ATTR_VC, VA_COLOR, 4, &m->colors, {0, 0, 0, 1}, "colors"},
    };
    for (size_t i = 0; i < sizeof floats / sizeof floats[0]; i++) {
        if (!p->attr[floats[i].attr].len) continue;
        float *dst = *floats[i].dst = iqi_alloc(ctx, out, (uint64_t)floats[i].components * 4, floats[i].what);
        if (!dst) return 0;
        int comps = floats[i].components, in = floats[i].attr == ATTR_VC ? 4 : comps;
        /* The declared (or default) array size keeps that many components; the rest take defaults. */
        uint32_t keep = p->decl[floats[i].va].declared ? p->decl[floats[i].va].size : va_default_size[floats[i].va];
        const float *src = (const float *)p->attr[floats[i].attr].data;
        for (uint32_t o = 0; o < out; o++)
            for (int k = 0; k < comps; k++)
                dst[(size_t)o * comps + k] = (uint32_t)k < keep ? src[(size_t)SRC(o) * in + k] : floats[i].defaults[k];
    }
    if (map && !p->attr[ATTR_VN].len) m->normals = map->normals;
    if (p->attr[ATTR_VX].len) {
        m->tangents = iqi_alloc(ctx, out, 16, "tangents");
        if (!m->tangents) return 0;
        const tangent_in *src = (const tangent_in *)p->attr[ATTR_VX].data;
        for (uint32_t o = 0; o < out; o++) {
            const tangent_in *t = &src[SRC(o)];
            float *dst = m->tangents + 4 * (size_t)o;
            memcpy(dst, t->t, 16);
            if (t->has_bitangent && m->normals) { /* w = the side the bitangent is on: sign(dot(cross(n, t), b)) */
                const float *n = m->normals + 3 * (size_t)o;
                float c[3] = {n[1] * t->t[2] - n[2] * t->t[1], n[2] * t->t[0] - n[0] * t->t[2], n[0] * t->t[1] - n[1] * t->t[0]};
                dst[3] = c[0] * t->b[0] + c[1] * t->b[1] + c[2] * t->b[2] < 0 ? -1.0f : 1.0f;
            }
        }
    }
    if (p->attr[ATTR_VB].len) {
        uint32_t nj = GROW_COUNT(p->joints, joint_rec);
        if (!nj) {
            iqi_warn(ctx, IQ_WARNING_IGNORED_DATA, "blend data (vb) without joints was ignored");
        } else {
            if (p->max_blend_index.set && p->max_blend_index.value >= nj) {
                return iqi_fail_at_line(ctx, IQ_ERROR_BAD_INDEX, p->max_blend_index.line, p->max_blend_index.column,
                                        "vb: joint index %lld, but the file has %u joints", (long long)p->max_blend_index.value, nj);
            }
            m->blend_indices = iqi_alloc(ctx, out, 8, "blend indices");
            m->blend_weights = iqi_alloc(ctx, out, 16, "blend weights");
            if (!m->blend_indices || !m->blend_weights) return 0;
            uint32_t limit = 4, unweighted = 0;
            if (p->decl[VA_BLENDINDEXES].declared && p->decl[VA_BLENDINDEXES].size < limit) limit = p->decl[VA_BLENDINDEXES].size;
            if (p->decl[VA_BLENDWEIGHTS].declared && p->decl[VA_BLENDWEIGHTS].size < limit) limit = p->decl[VA_BLENDWEIGHTS].size;
            const blend_in *src = (const blend_in *)p->attr[ATTR_VB].data;
            for (uint32_t o = 0; o < out; o++) {
                const blend_in *b = &src[SRC(o)];
                uint16_t *oi = m->blend_indices + 4 * (size_t)o;
                float *ow = m->blend_weights + 4 * (size_t)o;
                double sum = 0;
                uint32_t count = b->count < limit ? b->count : limit;
                for (uint32_t k = 0; k < count; k++) sum += b->weight[k];
                if (!(sum > 0)) {
                    ow[0] = 1; /* an unweighted vertex follows joint 0 (the model needs weights summing to 1) */
                    unweighted++;
                    continue;
                }
                for (uint32_t k = 0; k < count; k++) {
                    oi[k] = (uint16_t)b->index[k];
                    ow[k] = (float)(b->weight[k] / sum);
                }
            }
            if (unweighted) iqi_warn(ctx, IQ_WARNING_REPAIRED, "%u vertices have no positive blend weight; bound to joint 0", unweighted);
        }
    }
    /* Custom attributes: used only with a vertexarray declaration (spec). */
    uint32_t customs = 0;
    for (int i = 0; i < 10; i++) {
        if (!p->attr[ATTR_V0 + i].len) continue;
        if (p->decl[VA_CUSTOM0 + i].declared) customs++;
        else p->unused_customs++;
    }
    if (p->unused_customs)
        iqi_warn(ctx, IQ_WARNING_IGNORED_DATA, "%u custom attribute(s) (v0..v9) without a vertexarray declaration are unused, as the spec says",
                 p->unused_customs);
    if (customs) {
        m->custom_arrays = iqi_alloc(ctx, customs, sizeof(iq_custom_array), "custom arrays");
        if (!m->custom_arrays) return 0;
        uint32_t c = 0;
        for (int i = 0; i < 10; i++) {
            const va_decl *d = &p->decl[VA_CUSTOM0 + i];
            if (!p->attr[ATTR_V0 + i].len || !d->declared) continue;
            uint32_t cs = component_bytes[d->format];
            uint8_t *data = iqi_alloc(ctx, out, (uint64_t)d->size * cs, "custom array data");
            if (!data) return 0;
            const float *src = (const float *)p->attr[ATTR_V0 + i].data;
            for (uint32_t o = 0; o < out; o++)
                for (uint32_t k = 0; k < d->size; k++)
                    store_component(data + ((size_t)o * d->size + k) * cs, d->format, src[(size_t)SRC(o) * 4 + k]);
            iq_custom_array *ca = &m->custom_arrays[c++];
            ca->name = d->name;
            ca->type = 0x10 + (uint32_t)i; /* IQE: 0x10 + N for customN (IQM stores 0x10 + a text offset) */
            ca->format = d->format;
            ca->size = d->size;
            ca->data = data;
        }
        m->custom_array_count = customs;
    }
#undef SRC
    return 1;
}

static int cmp_names(const void *x, const void *y) { return strcmp(*(const char *const *)x, *(const char *const *)y); }

static int build_skeleton(iqe_parser *p) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    uint32_t nj = GROW_COUNT(p->joints, joint_rec), nbase = GROW_COUNT(p->base_poses, iq_transform);
    uint32_t nframes_rec = GROW_COUNT(p->frames, frame_rec);
    if (!nj) {
        if (nbase || GROW_COUNT(p->poses, iq_transform))
            return iqi_fail_at_line(ctx, IQ_ERROR_BAD_ANIMATION, nbase ? p->first_pose_line : GROW_AT(p->frames, frame_rec, 0)->line, 1,
                                    "poses but no joint commands: without joints the hierarchy is unknown");
    } else {
        if (nbase && nbase != nj)
            return iqi_fail_at_line(ctx, IQ_ERROR_BAD_ANIMATION, p->first_pose_line, 1,
                                    "%u base poses (before the first animation) for %u joints; there must be one per joint", nbase, nj);
        m->joints = iqi_alloc(ctx, nj, sizeof(iq_joint), "joints");
        if (!m->joints) return 0;
        m->joint_count = nj;
        for (uint32_t i = 0; i < nj; i++) {
            const joint_rec *j = GROW_AT(p->joints, joint_rec, i);
            m->joints[i].name = j->name;
            m->joints[i].parent = j->parent;
            m->joints[i].bind = nbase ? *GROW_AT(p->base_poses, iq_transform, i) : (iq_transform){{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
        }
        if (!nbase) iqi_warn(ctx, IQ_WARNING_NO_BIND_POSE, "%u joints but no base poses: the bind pose is the identity", nj);
    }
    /* Frames: every keyframe holds one pose per joint; empty ones are dropped. */
    uint64_t frames = 0;
    for (uint32_t i = 0; i < nframes_rec; i++) {
        const frame_rec *f = GROW_AT(p->frames, frame_rec, i);
        if (!f->pose_count) { p->empty_frames++; continue; }
        if (f->pose_count != nj)
            return iqi_fail_at_line(ctx, IQ_ERROR_BAD_ANIMATION, f->line, 1, "this frame has %u poses; the skeleton has %u joints",
                                    f->pose_count, nj);
        frames++;
    }
    if (frames > ctx->limits.max_frames)
        return iqi_fail(ctx, IQ_ERROR_LIMIT, -1, "%llu frames; the limit is %u", (unsigned long long)frames, ctx->limits.max_frames);
    if (p->empty_frames) iqi_warn(ctx, IQ_WARNING_EMPTY, "%u empty frame(s) were dropped", p->empty_frames);
    if (frames) {
        m->frame_poses = iqi_alloc(ctx, frames * nj, sizeof(iq_transform), "frames");
        if (!m->frame_poses) return 0;
        m->frame_count = (uint32_t)frames;
    }
    uint32_t na = GROW_COUNT(p->anims, anim_rec);
    if (na) {
        m->animations = iqi_alloc(ctx, na, sizeof(iq_animation), "animations");
        if (!m->animations) return 0;
        m->animation_count = na;
    }
    uint32_t frame = 0, empty_anims = 0;
    for (uint32_t a = 0; a < na; a++) {
        const anim_rec *ar = GROW_AT(p->anims, anim_rec, a);
        iq_animation *an = &m->animations[a];
        an->first_frame = frame;
        for (uint32_t i = ar->first_frame_rec; i < ar->first_frame_rec + ar->frame_rec_count; i++) {
            const frame_rec *f = GROW_AT(p->frames, frame_rec, i);
            if (!f->pose_count) continue;
            memcpy(m->frame_poses + (size_t)frame * nj, GROW_AT(p->poses, iq_transform, f->first_pose), (size_t)nj * sizeof(iq_transform));
            frame++;
        }
        an->frame_count = frame - an->first_frame;
        an->framerate = ar->framerate;
        an->flags = ar->flags;
        an->name = ar->name;
        if (!an->frame_count) empty_anims++;
    }
    if (empty_anims) iqi_warn(ctx, IQ_WARNING_EMPTY, "%u animation(s) have no frames", empty_anims);
    /* Unnamed animations get "animation N" (N = its index), made unique against
     * the explicit names: those are sorted once and searched, so a file of a
     * million unnamed animations stays O(n log n). */
    uint32_t named = 0, unnamed = 0;
    for (uint32_t a = 0; a < na; a++) {
        if (m->animations[a].name) named++;
        else unnamed++;
    }
    if (unnamed) {
        grow g_names = {0};
        const char **names = grow_push(p, &g_names, (size_t)named * sizeof(char *) + sizeof(char *), "animation names");
        int ok = names != NULL;
        uint32_t k = 0;
        for (uint32_t a = 0; ok && a < na; a++)
            if (m->animations[a].name) names[k++] = m->animations[a].name;
        if (ok) qsort(names, named, sizeof *names, cmp_names);
        for (uint32_t a = 0; ok && a < na; a++) {
            if (m->animations[a].name) continue;
            char name[48];
            snprintf(name, sizeof name, "animation %u", a);
            for (uint32_t attempt = 1; bsearch(&(const char *){name}, names, named, sizeof *names, cmp_names); attempt++)
                snprintf(name, sizeof name, "animation %u (%u)", a, attempt);
            m->animations[a].name = iqi_strdup_n(ctx, name, strlen(name));
            ok = m->animations[a].name != NULL;
        }
        p->scratch -= g_names.cap;
        grow_free(&g_names);
        if (!ok) return 0;
    }
    return 1;
}

static void free_scratch(iqe_parser *p) {
    for (int a = 0; a < ATTR_COUNT; a++) grow_free(&p->attr[a]);
    grow *all[] = {&p->triangles, &p->tri_state, &p->tri_edges, &p->faces, &p->fs, &p->fs_flags, &p->states, &p->meshes,
                   &p->joints, &p->base_poses, &p->poses, &p->frames, &p->anims, &p->pairs};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) grow_free(all[i]);
    p->scratch = 0;
}

static int build_model(iqe_parser *p) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    uint32_t nv = vertex_count_so_far(p);
    if (!check_attribute_counts(p, nv)) return 0;
    if (p->max_vertex_ref.set && p->max_vertex_ref.value >= nv)
        return iqi_fail_at_line(ctx, IQ_ERROR_BAD_INDEX, p->max_vertex_ref.line, p->max_vertex_ref.column,
                                "face: vertex %lld, but the file defines %u vertices", (long long)p->max_vertex_ref.value, nv);
    /* Close the vertex ranges of the mesh blocks. */
    uint32_t blocks = GROW_COUNT(p->meshes, mesh_block);
    for (uint32_t i = 0; i < blocks; i++) {
        mesh_block *b = GROW_AT(p->meshes, mesh_block, i);
        b->end_vertex = i + 1 < blocks ? GROW_AT(p->meshes, mesh_block, i + 1)->first_vertex : nv;
    }
    if (!p->have_faces && nv) {
        if (!blocks || GROW_AT(p->meshes, mesh_block, 0)->first_vertex > 0) {
            /* vertices before the first `mesh` command form an unnamed mesh */
            mesh_block first = {"", "", 0, 0, 0, blocks ? GROW_AT(p->meshes, mesh_block, 0)->first_vertex : nv, 0, 1};
            if (!grow_push(p, &p->meshes, sizeof first, "meshes")) return 0;
            memmove(p->meshes.data + sizeof first, p->meshes.data, p->meshes.len - sizeof first);
            memcpy(p->meshes.data, &first, sizeof first);
        }
        if (!make_triangles_from_vertices(p)) return 0;
    }
    if (!apply_edge_flags(p)) return 0;
    uint32_t nt = GROW_COUNT(p->triangles, uint32_t) / 3;
    vertex_map map = {0};
    int generate = nt && !p->attr[ATTR_VN].len;
    if (generate && !generate_normals(p, &map)) return 0;
    if (nt) {
        m->indices = iqi_alloc(ctx, nt, 12, "triangles");
        if (!m->indices) return 0;
        memcpy(m->indices, p->triangles.data, (size_t)nt * 12);
        m->triangle_count = nt;
    }
    if (!build_vertices(p, generate ? &map : NULL)) return 0;
    if (!build_meshes(p, generate ? &map : NULL)) return 0;
    if (!build_skeleton(p)) return 0;
    if (p->comment_size) {
        if (p->comment_size > UINT32_MAX) return iqi_fail(ctx, IQ_ERROR_LIMIT, -1, "the comment is over 4 GiB");
        uint8_t *c = iqi_alloc(ctx, p->comment_size, 1, "comment");
        if (!c) return 0;
        memcpy(c, p->comment, p->comment_size);
        m->comment = c;
        m->comment_size = (uint32_t)p->comment_size;
    }
    if (p->negative_weights) iqi_warn(ctx, IQ_WARNING_REPAIRED, "%u negative blend weights were dropped", p->negative_weights);
    if (p->extra_influences) iqi_warn(ctx, IQ_WARNING_IGNORED_DATA, "%u vertices have more than 4 blend weights; the 4 largest were kept", p->extra_influences);
    if (p->ignored_frames || p->ignored_loops)
        iqi_warn(ctx, IQ_WARNING_IGNORED_DATA, "%u frame/loop/framerate command(s) before any animation were ignored",
                 p->ignored_frames + p->ignored_loops);
    if (p->unknown_commands)
        iqi_warn(ctx, IQ_WARNING_IGNORED_DATA, "%u line(s) with unknown commands were ignored (the first: '%s' on line %u)",
                 p->unknown_commands, p->unknown_name, p->unknown_line);
    return 1;
}

int iqi_parse_iqe(iqi_ctx *ctx) {
    iqe_parser p;
    memset(&p, 0, sizeof p);
    p.ctx = ctx;
    p.text = (const char *)ctx->data;
    p.end = p.text + ctx->size;
    smooth_state *initial = grow_push(&p, &p.states, sizeof *initial, "smoothing");
    int ok = 0;
    if (initial) {
        initial->key = -1;
        initial->angle = 180;
        ok = parse_lines(&p) && build_model(&p);
    }
    free_scratch(&p);
    return ok;
}
