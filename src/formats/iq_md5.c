/* MD5 (Doom 3, version 10): .md5mesh (a skeleton in model space and meshes
 * whose vertices are weighted points in joint space) and .md5anim (a
 * hierarchy, per-frame bounds, a base frame and per-frame animated
 * components), both text. docs/MD5.md says what is read and how.
 *
 * Doom 3's conventions, and how they land in the model:
 * - A file quaternion gives only x, y, z; Doom 3 restores w as
 *   sqrt(|1 - x^2 - y^2 - z^2|) (idQuat::CalcW: the absolute value, so a
 *   rounding overshoot still gives a number) and rotates by the transpose of
 *   that quaternion's matrix (idJointMat stores idMat3 transposed). In the
 *   standard convention this model uses, that is the quaternion
 *   (x, y, z, -sqrt(|1 - x^2 - y^2 - z^2|)), normalised.
 * - The mesh's joints are in model space; the model's binds are local, so
 *   each is taken relative to its parent. A vertex is the sum over its
 *   weights of bias * (joint position + joint rotation * weight point).
 * - An anim joint starts from its base frame, and the bits of its flags
 *   (1 Tx, 2 Ty, 4 Tz, 8 Qx, 16 Qy, 32 Qz) take the next values of the
 *   frame's components, from its first component on, in that order.
 * Tokens are read as Doom 3's lexer reads these files: words, "quoted
 * strings" (on one line), // and block comments, and ( ) { } as tokens of
 * their own even when glued to a word. */
#include "formats/iq_skeletal.h"
#include "base/iq_math.h"
#include "base/iq_text.h"
#include <stdio.h>
#include <stdlib.h>

#define MD5_VERSION 10
/* A vertex keeps its 4 largest weights, as Cube 2 and Red Eclipse do
 * (Doom 3 keeps them all); the position uses every weight. */
#define MD5_INFLUENCES 4

typedef struct md5_lexer {
    const char *p, *end;   /* end: the size given, or the first NUL before it */
    uint32_t line, column; /* of p, 1-based */
} md5_lexer;

typedef struct md5_token {
    const char *text;      /* a quoted string's without its quotes */
    size_t length;
    uint32_t line, column; /* of its first character (a quoted string's opening quote) */
} md5_token;

typedef struct md5_reader {
    iqi_ctx *ctx;
    md5_lexer lx;
    md5_token tok; /* the last token read */
    const char *file; /* "md5mesh" or "md5anim", for messages */
} md5_reader;

// -- Tokens

static void lex_init(md5_lexer *lx, const void *text, size_t size) {
    const char *t = text, *nul = size ? memchr(t, 0, size) : NULL;
    lx->p = t;
    lx->end = nul ? nul : t + size;
    lx->line = lx->column = 1;
}

static void lex_advance(md5_lexer *lx) {
    if (*lx->p == '\n') { lx->line++; lx->column = 1; }
    else lx->column++;
    lx->p++;
}

static int is_punct(char c) { return c == '(' || c == ')' || c == '{' || c == '}'; }
static int at_comment(const md5_lexer *lx) { return lx->p + 1 < lx->end && lx->p[0] == '/' && (lx->p[1] == '/' || lx->p[1] == '*'); }

/* The next token: 1, 0 at the end of the text, or 0 with an error set
 * (an unclosed block comment or quoted string): *failed tells which. */
static int lex_next(md5_reader *r, md5_token *t, int *failed) {
    md5_lexer *lx = &r->lx;
    *failed = 0;
    for (;;) {
        while (lx->p < lx->end && (unsigned char)*lx->p <= ' ') lex_advance(lx);
        if (!at_comment(lx)) break;
        if (lx->p[1] == '/') {
            while (lx->p < lx->end && *lx->p != '\n') lex_advance(lx);
            continue;
        }
        uint32_t line = lx->line, column = lx->column;
        lex_advance(lx);
        lex_advance(lx);
        while (lx->p < lx->end && !(lx->p[0] == '*' && lx->p + 1 < lx->end && lx->p[1] == '/')) lex_advance(lx);
        if (lx->p >= lx->end) {
            *failed = 1;
            return iqi_fail_at_line(r->ctx, IQ_ERROR_SYNTAX, line, column, "a /* comment is never closed");
        }
        lex_advance(lx);
        lex_advance(lx);
    }
    if (lx->p >= lx->end) return 0;
    t->line = lx->line;
    t->column = lx->column;
    t->text = lx->p;
    if (*lx->p == '"') {
        lex_advance(lx);
        t->text = lx->p;
        while (lx->p < lx->end && *lx->p != '"' && *lx->p != '\n') lex_advance(lx);
        if (lx->p >= lx->end || *lx->p != '"') {
            *failed = 1;
            return iqi_fail_at_line(r->ctx, IQ_ERROR_SYNTAX, t->line, t->column, "a quoted string is not closed on its line");
        }
        t->length = (size_t)(lx->p - t->text);
        lex_advance(lx);
        return 1;
    }
    if (is_punct(*lx->p)) lex_advance(lx);
    else
        do lex_advance(lx);
        while (lx->p < lx->end && (unsigned char)*lx->p > ' ' && !is_punct(*lx->p) && *lx->p != '"' && !at_comment(lx));
    t->length = (size_t)(lx->p - t->text);
    return 1;
}

/* A token quoted for messages: at most 40 characters, non-printing bytes as '?'. */
static const char *shown_token(const md5_token *t, char buf[48]) {
    size_t n = t->length < 40 ? t->length : 40, i;
    for (i = 0; i < n; i++) buf[i] = t->text[i] >= ' ' && t->text[i] < 127 ? t->text[i] : '?';
    if (t->length > 40) { buf[n++] = '.'; buf[n++] = '.'; buf[n++] = '.'; }
    buf[n] = 0;
    return buf;
}

static int fail_here(md5_reader *r, iq_error_code code, const char *fmt, const char *a, const char *b) {
    return iqi_fail_at_line(r->ctx, code, r->tok.line, r->tok.column, fmt, a, b);
}

/* The next token; at the end of the text a 'truncated' error saying what was expected. */
static int next(md5_reader *r, const char *expected) {
    int failed, got = lex_next(r, &r->tok, &failed);
    if (failed) return 0;
    if (got == 0)
        return iqi_fail_at_line(r->ctx, IQ_ERROR_TRUNCATED, r->lx.line, r->lx.column, "the %s ends where %s was expected",
                                r->file, expected);
    return 1;
}

static int token_equals(const md5_token *t, const char *word) {
    size_t n = strlen(word);
    return t->length == n && memcmp(t->text, word, n) == 0; /* Doom 3's keywords are case-sensitive */
}

static int expect(md5_reader *r, const char *word) {
    char what[48], shown[48];
    snprintf(what, sizeof what, "'%s'", word);
    if (!next(r, what)) return 0;
    if (token_equals(&r->tok, word)) return 1;
    return fail_here(r, IQ_ERROR_SYNTAX, "expected %s, found '%s'", what, shown_token(&r->tok, shown));
}

static int read_number(md5_reader *r, const char *what, double *out) {
    char shown[48];
    if (!next(r, what)) return 0;
    iqi_token t = {r->tok.text, r->tok.length, r->tok.column, 0};
    int status = iqi_tok_double(&t, out);
    if (status == IQI_NUM_BAD)
        return iqi_fail_at_line(r->ctx, IQ_ERROR_SYNTAX, r->tok.line, r->tok.column, "%s: '%s' is not a number", what,
                                shown_token(&r->tok, shown));
    if (status == IQI_NUM_NONFINITE) return iqi_fail_value(r->ctx, -1, r->tok.line, NAN, "%s", what);
    return 1;
}

/* A whole number within lo..hi (Doom 3 reads these with ParseInt); outside
 * them, `code` (bad_index for indices, bad_value for counts and the like). */
static int read_int(md5_reader *r, const char *what, int64_t lo, int64_t hi, iq_error_code code, int64_t *out) {
    char shown[48];
    if (!next(r, what)) return 0;
    iqi_token t = {r->tok.text, r->tok.length, r->tok.column, 0};
    if (!iqi_tok_int(&t, out))
        return iqi_fail_at_line(r->ctx, IQ_ERROR_SYNTAX, r->tok.line, r->tok.column, "%s: '%s' is not a whole number", what,
                                shown_token(&r->tok, shown));
    if (*out < lo || *out > hi)
        return iqi_fail_at_line(r->ctx, code, r->tok.line, r->tok.column, "%s is %lld; it must be %lld to %lld",
                                what, (long long)*out, (long long)lo, (long long)hi);
    return 1;
}

/* A count that must be at least lo and that the rest of the file can hold:
 * every element takes at least `tokens` tokens of 2 bytes, so a small file
 * claiming millions fails here, before anything is allocated. */
static int read_count(md5_reader *r, const char *what, int64_t lo, uint32_t tokens, uint32_t *out) {
    int64_t n;
    if (!read_int(r, what, lo, UINT32_MAX, IQ_ERROR_BAD_VALUE, &n)) return 0;
    uint64_t left = (uint64_t)(r->lx.end - r->lx.p);
    if ((uint64_t)n * tokens * 2 > left + 1)
        return iqi_fail_at_line(r->ctx, IQ_ERROR_OUT_OF_RANGE, r->tok.line, r->tok.column,
                                "%s is %lld, but the %llu bytes left in the file cannot hold that many", what, (long long)n,
                                (unsigned long long)left);
    *out = (uint32_t)n;
    return 1;
}

/* ( a b c ): n numbers in parentheses, each a usable value (README "Numbers")
 * unless `any` (quaternion parts, which only need to be finite). */
static int read_tuple(md5_reader *r, const char *what, int n, double *out, int any) {
    if (!expect(r, "(")) return 0;
    for (int k = 0; k < n; k++) {
        if (!read_number(r, what, &out[k])) return 0;
        if (!any && !iqi_usable(r->ctx, out[k])) return iqi_fail_value(r->ctx, -1, r->tok.line, out[k], "%s", what);
    }
    return expect(r, ")");
}

/* A name (quoted or bare), stored in the arena. */
static const char *read_name(md5_reader *r, const char *what) {
    char shown[48];
    if (!next(r, what)) return NULL;
    if (memchr(r->tok.text, 0, r->tok.length)) {
        fail_here(r, IQ_ERROR_SYNTAX, "%s '%s' contains a NUL byte", what, shown_token(&r->tok, shown));
        return NULL;
    }
    return iqi_strdup_n(r->ctx, r->tok.text, r->tok.length);
}

// -- Quaternions (x, y, z, w; the standard convention, as iq_math.h)

/* Doom 3's rotation from the file's x, y, z (see the top of the file). */
static void doom_quat(const double xyz[3], double q[4]) {
    double d = xyz[0] * xyz[0] + xyz[1] * xyz[1] + xyz[2] * xyz[2];
    q[0] = xyz[0];
    q[1] = xyz[1];
    q[2] = xyz[2];
    q[3] = -sqrt(fabs(1.0 - d));
    double len = sqrt(d + q[3] * q[3]); /* >= 1 - never 0 */
    for (int k = 0; k < 4; k++) q[k] /= len;
}

static void quat_mul(double out[4], const double a[4], const double b[4]) {
    double r[4] = {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1], a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
                   a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3], a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
    memcpy(out, r, sizeof r);
}

static void quat_rotate(double out[3], const double q[4], const double v[3]) {
    /* v + 2w (u x v) + 2 u x (u x v) */
    double u[3] = {q[0], q[1], q[2]}, w = q[3];
    double c[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    double cc[3] = {u[1] * c[2] - u[2] * c[1], u[2] * c[0] - u[0] * c[2], u[0] * c[1] - u[1] * c[0]};
    for (int k = 0; k < 3; k++) out[k] = v[k] + 2 * w * c[k] + 2 * cc[k];
}

static void set_transform(iq_transform *t, const double pos[3], const double q[4]) {
    for (int k = 0; k < 3; k++) {
        t->translate[k] = (float)pos[k];
        t->scale[k] = 1;
    }
    for (int k = 0; k < 4; k++) t->rotate[k] = (float)q[k];
    iqi_quat_normalize(t->rotate);
}

// -- The common header

typedef enum { MD5_MESH, MD5_ANIM } md5_kind;

/* "MD5Version 10", "commandline <string>", then numJoints (a mesh) or
 * numFrames (an anim). Red Eclipse ships files without the version line or
 * without the commandline (Cube 2 reads lines by what they start with, and
 * needs neither): read as version 10, with a warning. */
static int read_header(md5_reader *r, md5_kind *kind) {
    int64_t version;
    uint32_t missing = 0;
    char shown[48];
    if (!next(r, "'MD5Version'")) return 0;
    if (token_equals(&r->tok, "MD5Version")) {
        if (!read_int(r, "MD5Version", INT64_MIN + 1, INT64_MAX, IQ_ERROR_BAD_VERSION, &version)) return 0;
        if (version != MD5_VERSION)
            return iqi_fail_at_line(r->ctx, IQ_ERROR_BAD_VERSION, r->tok.line, r->tok.column,
                                    "MD5Version %lld; Doom 3's version 10 is read (11 is Enemy Territory: Quake Wars')",
                                    (long long)version);
        if (!next(r, "'commandline'")) return 0;
    } else {
        missing |= 1;
    }
    if (token_equals(&r->tok, "commandline")) {
        if (!next(r, "the commandline string") || !next(r, "'numJoints' or 'numFrames'")) return 0;
    } else {
        missing |= 2;
    }
    if (token_equals(&r->tok, "numJoints")) *kind = MD5_MESH;
    else if (token_equals(&r->tok, "numFrames")) *kind = MD5_ANIM;
    else
        return fail_here(r, IQ_ERROR_SYNTAX, "expected 'numJoints' (an md5mesh) or 'numFrames' (an md5anim), found '%s'%s",
                         shown_token(&r->tok, shown), "");
    r->file = *kind == MD5_MESH ? "md5mesh" : "md5anim";
    if (missing)
        iqi_warn(r->ctx, IQ_WARNING_NONSTANDARD, "the %s has no %s line; read as version 10", r->file,
                 missing == 3 ? "MD5Version or commandline" : missing == 1 ? "MD5Version" : "commandline");
    return 1;
}

static int read_joint_count(md5_reader *r, const char *what, uint32_t tokens, uint32_t *out) {
    if (!read_count(r, what, 1, tokens, out)) return 0;
    if (*out > r->ctx->limits.max_joints)
        return iqi_fail_at_line(r->ctx, IQ_ERROR_LIMIT, r->tok.line, r->tok.column, "%s is %u; the limit is %u joints", what,
                                *out, r->ctx->limits.max_joints);
    return 1;
}

/* A parent index: below 0 is a root (more than -1 is repaired, counted),
 * otherwise it must come before the joint. */
static int read_parent(md5_reader *r, uint32_t joint, const char *name, int32_t *parent, uint32_t *repaired) {
    int64_t p;
    if (!read_int(r, "parent", INT32_MIN, INT32_MAX, IQ_ERROR_BAD_HIERARCHY, &p)) return 0;
    if (p >= (int64_t)joint)
        return iqi_fail_at_line(r->ctx, IQ_ERROR_BAD_HIERARCHY, r->tok.line, r->tok.column,
                                "joint %u ('%s') has parent %lld; a parent must come before its child", joint, name, (long long)p);
    if (p < -1) ++*repaired;
    *parent = p < 0 ? -1 : (int32_t)p;
    return 1;
}

// -- .md5mesh

typedef struct md5_weight {
    uint32_t joint;
    double bias, point[3];
} md5_weight;

typedef struct md5_vert {
    double uv[2];
    uint32_t start, count, line;
} md5_vert;

typedef struct md5_counts {
    uint32_t many_weights, unweighted, renumbered, spread;
    double widest;
} md5_counts;

/* One influence list from a vertex's weights: a joint named twice is summed,
 * weights <= 0 dropped, the 4 largest kept and made to sum to 1. */
static void vertex_influences(const md5_weight *w, uint32_t count, uint16_t *index, float *weight, md5_counts *c) {
    uint32_t joint[MD5_INFLUENCES + 1];
    double bias[MD5_INFLUENCES + 1];
    uint32_t kept = 0, distinct = 0;
    for (uint32_t k = 0; k < count; k++) {
        if (!(w[k].bias > 0)) continue;
        int merged = 0;
        for (uint32_t e = 0; e < k; e++) /* a joint seen before in this vertex: its bias adds up */
            if (w[e].joint == w[k].joint && w[e].bias > 0) { merged = 1; break; }
        if (merged) continue;
        double b = 0;
        for (uint32_t e = k; e < count; e++)
            if (w[e].joint == w[k].joint && w[e].bias > 0) b += w[e].bias;
        distinct++;
        /* insert in descending order, keeping at most MD5_INFLUENCES */
        uint32_t at = kept;
        while (at > 0 && bias[at - 1] < b) at--;
        if (at >= MD5_INFLUENCES) continue;
        uint32_t end = kept < MD5_INFLUENCES ? kept : MD5_INFLUENCES - 1;
        for (uint32_t e = end; e > at; e--) { bias[e] = bias[e - 1]; joint[e] = joint[e - 1]; }
        bias[at] = b;
        joint[at] = w[k].joint;
        if (kept < MD5_INFLUENCES) kept++;
    }
    if (distinct > MD5_INFLUENCES) c->many_weights++;
    double total = 0;
    for (uint32_t k = 0; k < kept; k++) total += bias[k];
    if (!(total > 0)) {
        index[0] = (uint16_t)(count ? w[0].joint : 0);
        weight[0] = 1;
        c->unweighted++;
        return;
    }
    for (uint32_t k = 0; k < kept; k++) {
        index[k] = (uint16_t)joint[k];
        weight[k] = (float)(bias[k] / total);
    }
}

static int read_mesh_file(md5_reader *r) {
    iqi_ctx *ctx = r->ctx;
    iq_model *m = ctx->model;
    uint32_t nj, nm, repaired_parents = 0;
    if (!read_joint_count(r, "numJoints", 11, &nj)) return 0;
    if (!expect(r, "numMeshes") || !read_count(r, "numMeshes", 0, 4, &nm)) return 0;
    m->joints = iqi_alloc(ctx, nj, sizeof(iq_joint), "joints");
    double *world = iqi_alloc(ctx, nj, 7 * sizeof(double), "joint placements"); /* position, quaternion */
    if (!m->joints || !world) return 0;
    m->joint_count = nj;
    if (!expect(r, "joints") || !expect(r, "{")) return 0;
    for (uint32_t j = 0; j < nj; j++) {
        iq_joint *jt = &m->joints[j];
        double pos[3], xyz[3], *w = world + 7 * (size_t)j;
        if (!(jt->name = read_name(r, "joint name"))) return 0;
        if (!read_parent(r, j, jt->name, &jt->parent, &repaired_parents)) return 0;
        if (!read_tuple(r, "joint position", 3, pos, 0) || !read_tuple(r, "joint orientation", 3, xyz, 1)) return 0;
        memcpy(w, pos, sizeof pos);
        doom_quat(xyz, w + 3);
        if (jt->parent < 0) {
            set_transform(&jt->bind, w, w + 3);
        } else { /* relative to the parent: conj(qp) * q, conj(qp) * (t - tp) */
            const double *pw = world + 7 * (size_t)jt->parent;
            double inv[4] = {-pw[3], -pw[4], -pw[5], pw[6]}, q[4], d[3], t[3];
            quat_mul(q, inv, w + 3);
            for (int k = 0; k < 3; k++) d[k] = w[k] - pw[k];
            quat_rotate(t, inv, d);
            set_transform(&jt->bind, t, q);
        }
    }
    if (!expect(r, "}")) return 0;
    if (repaired_parents) iqi_warn(ctx, IQ_WARNING_REPAIRED, "%u joint parent(s) below -1 were read as roots", repaired_parents);

    /* Meshes: read each into scratch, then place its vertices and triangles. */
    typedef struct { const char *name, *shader; uint32_t first_vertex, verts, first_tri, tris; } mesh_rec;
    mesh_rec *recs = iqi_alloc(ctx, nm ? nm : 1, sizeof(mesh_rec), "meshes");
    if (!recs) return 0;
    iqi_text scratch_owner = {0};
    scratch_owner.ctx = ctx;
    iqi_grow g_pos = {0}, g_uv = {0}, g_bi = {0}, g_bw = {0}, g_idx = {0}, g_verts = {0}, g_weights = {0};
    md5_counts counts = {0};
    double extent = 0;
    int ok = 1;
    uint32_t declared_meshes = nm, unshaded = 0;
    for (uint32_t i = 0; ok && i < nm; i++) {
        mesh_rec *mr = &recs[i];
        uint32_t nv, nt, nw;
        char shown[48];
        /* Fewer meshes than numMeshes says (Red Eclipse ships such files): the ones there are. */
        md5_lexer before = r->lx;
        int failed;
        if (!lex_next(r, &r->tok, &failed)) {
            if (failed) { ok = 0; break; }
            nm = i;
            break;
        }
        r->lx = before;
        ok = expect(r, "mesh") && expect(r, "{") && next(r, "'shader'");
        if (!ok) break;
        if (token_equals(&r->tok, "name")) { /* Doom 3 takes an optional mesh name here */
            ok = (mr->name = read_name(r, "mesh name")) != NULL && next(r, "'shader'");
            if (!ok) break;
        }
        if (token_equals(&r->tok, "shader")) {
            if (!(mr->shader = read_name(r, "shader"))) { ok = 0; break; }
            if (!(ok = next(r, "'numverts'"))) break;
        } else { /* Red Eclipse ships meshes without one */
            mr->shader = "";
            unshaded++;
        }
        if (!mr->name) mr->name = mr->shader;
        mr->first_vertex = IQI_GROW_COUNT(g_uv, float) / 2;
        mr->first_tri = IQI_GROW_COUNT(g_idx, uint32_t) / 3;
        if (!token_equals(&r->tok, "numverts")) {
            ok = fail_here(r, IQ_ERROR_SYNTAX, "expected 'numverts', found '%s'%s", shown_token(&r->tok, shown), "");
            break;
        }
        if (!(ok = read_count(r, "numverts", 0, 8, &nv))) break;
        g_verts.len = 0;
        md5_vert *verts = iqi_grow_push(&scratch_owner, &g_verts, (size_t)nv * sizeof(md5_vert) + 1, "vertices");
        if (!(ok = verts != NULL)) break;
        for (uint32_t v = 0; ok && v < nv; v++) {
            int64_t index, start, count;
            ok = expect(r, "vert") && read_int(r, "vert index", INT64_MIN + 1, INT64_MAX, IQ_ERROR_BAD_INDEX, &index) &&
                 read_tuple(r, "texture coordinates", 2, verts[v].uv, 0) &&
                 read_int(r, "vert's first weight", 0, UINT32_MAX, IQ_ERROR_BAD_INDEX, &start) &&
                 read_int(r, "vert's weight count", 0, UINT32_MAX, IQ_ERROR_BAD_INDEX, &count);
            if (!ok) break;
            if (index != v) counts.renumbered++; /* Doom 3 ignores the number and goes by order */
            verts[v].start = (uint32_t)start;
            verts[v].count = (uint32_t)count;
            verts[v].line = r->tok.line;
        }
        if (!ok || !(ok = expect(r, "numtris") && read_count(r, "numtris", 0, 5, &nt))) break;
        uint32_t *tri = nt ? iqi_grow_push(&scratch_owner, &g_idx, (size_t)nt * 12, "triangles") : NULL;
        if (!(ok = tri != NULL || !nt)) break;
        for (uint32_t t = 0; ok && t < nt; t++) {
            int64_t index, corner;
            ok = expect(r, "tri") && read_int(r, "tri index", INT64_MIN + 1, INT64_MAX, IQ_ERROR_BAD_INDEX, &index);
            for (int k = 0; ok && k < 3; k++) {
                ok = read_int(r, "tri vertex", 0, (int64_t)nv - 1, IQ_ERROR_BAD_INDEX, &corner);
                if (ok) tri[3 * (size_t)t + k] = mr->first_vertex + (uint32_t)corner;
            }
        }
        if (!ok || !(ok = expect(r, "numweights") && read_count(r, "numweights", 0, 8, &nw))) break;
        g_weights.len = 0;
        md5_weight *weights = iqi_grow_push(&scratch_owner, &g_weights, (size_t)nw * sizeof(md5_weight) + 1, "weights");
        if (!(ok = weights != NULL)) break;
        for (uint32_t w = 0; ok && w < nw; w++) {
            int64_t index, joint;
            ok = expect(r, "weight") && read_int(r, "weight index", INT64_MIN + 1, INT64_MAX, IQ_ERROR_BAD_INDEX, &index) &&
                 read_int(r, "weight joint", 0, (int64_t)nj - 1, IQ_ERROR_BAD_INDEX, &joint) && read_number(r, "weight bias", &weights[w].bias);
            if (ok && !iqi_usable(ctx, weights[w].bias))
                ok = iqi_fail_value(ctx, -1, r->tok.line, weights[w].bias, "weight bias");
            if (ok) ok = read_tuple(r, "weight position", 3, weights[w].point, 0);
            if (ok) {
                if (index != w) counts.renumbered++;
                weights[w].joint = (uint32_t)joint;
            }
        }
        if (!ok || !(ok = expect(r, "}"))) break;
        /* The vertices: Doom 3's bind pose from every weight; influences from the largest. */
        mr->verts = nv;
        mr->tris = nt;
        if (!nv) continue;
        float *pos = iqi_grow_push(&scratch_owner, &g_pos, (size_t)nv * 12, "positions");
        float *uv = iqi_grow_push(&scratch_owner, &g_uv, (size_t)nv * 8, "texture coordinates");
        uint16_t *bi = iqi_grow_push(&scratch_owner, &g_bi, (size_t)nv * 8, "blend indices");
        float *bw = iqi_grow_push(&scratch_owner, &g_bw, (size_t)nv * 16, "blend weights");
        if (!(ok = pos && uv && bi && bw)) break;
        for (uint32_t v = 0; ok && v < nv; v++) {
            const md5_vert *vt = &verts[v];
            if ((uint64_t)vt->start + vt->count > nw) {
                ok = iqi_fail_at_line(ctx, IQ_ERROR_BAD_INDEX, vt->line, 1,
                                      "vert %u uses weights %u to %llu, but the mesh has %u weights", v, vt->start,
                                      (unsigned long long)vt->start + vt->count - 1, nw);
                break;
            }
            const md5_weight *w = weights + vt->start;
            double p[3] = {0, 0, 0};
            for (uint32_t k = 0; k < vt->count; k++) {
                const double *jw = world + 7 * (size_t)w[k].joint;
                double rot[3];
                quat_rotate(rot, jw + 3, w[k].point);
                for (int d = 0; d < 3; d++) p[d] += w[k].bias * (jw[d] + rot[d]);
            }
            for (int d = 0; d < 3; d++) {
                if (!iqi_usable(ctx, p[d])) {
                    ok = iqi_fail_value(ctx, -1, vt->line, p[d], "vert %u's position (from its weights)", v);
                    break;
                }
                pos[3 * (size_t)v + d] = (float)p[d];
                if (fabs(p[d]) > extent) extent = fabs(p[d]);
            }
            /* How far apart the weights' own points are: skinning moves the
             * blended position, which is exact when they coincide (exporters
             * write them so). */
            for (uint32_t k = 0; ok && k < vt->count && vt->count > 1; k++) {
                const double *jw = world + 7 * (size_t)w[k].joint;
                double rot[3], d2 = 0;
                quat_rotate(rot, jw + 3, w[k].point);
                for (int d = 0; d < 3; d++) d2 += (jw[d] + rot[d] - p[d]) * (jw[d] + rot[d] - p[d]);
                if (sqrt(d2) > counts.widest) counts.widest = sqrt(d2);
            }
            uv[2 * (size_t)v] = (float)vt->uv[0];
            uv[2 * (size_t)v + 1] = (float)vt->uv[1];
            vertex_influences(w, vt->count, bi + 4 * (size_t)v, bw + 4 * (size_t)v, &counts);
        }
    }
    if (ok) {
        uint32_t nv = IQI_GROW_COUNT(g_uv, float) / 2, nt = IQI_GROW_COUNT(g_idx, uint32_t) / 3;
        m->meshes = iqi_alloc(ctx, nm ? nm : 1, sizeof(iq_mesh), "meshes");
        ok = m->meshes != NULL;
        if (ok && nv) {
            m->positions = iqi_alloc(ctx, nv, 12, "positions");
            m->texcoords = iqi_alloc(ctx, nv, 8, "texture coordinates");
            m->blend_indices = iqi_alloc(ctx, nv, 8, "blend indices");
            m->blend_weights = iqi_alloc(ctx, nv, 16, "blend weights");
            ok = m->positions && m->texcoords && m->blend_indices && m->blend_weights;
            if (ok) {
                memcpy(m->positions, g_pos.data, (size_t)nv * 12);
                memcpy(m->texcoords, g_uv.data, (size_t)nv * 8);
                memcpy(m->blend_indices, g_bi.data, (size_t)nv * 8);
                memcpy(m->blend_weights, g_bw.data, (size_t)nv * 16);
            }
        }
        if (ok && nt) {
            ok = (m->indices = iqi_alloc(ctx, nt, 12, "triangles")) != NULL;
            if (ok) memcpy(m->indices, g_idx.data, (size_t)nt * 12);
        }
        if (ok) {
            m->vertex_count = nv;
            m->triangle_count = nt;
            m->mesh_count = nm;
            for (uint32_t i = 0; i < nm; i++)
                m->meshes[i] = (iq_mesh){recs[i].name, recs[i].shader, recs[i].first_vertex, recs[i].verts, recs[i].first_tri,
                                         recs[i].tris};
        }
    }
    iqi_grow *all[] = {&g_pos, &g_uv, &g_bi, &g_bw, &g_idx, &g_verts, &g_weights};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) iqi_grow_release(&scratch_owner, all[i]);
    if (!ok) return 0;
    if (!iqi_normals_from_triangles(ctx, 1)) return 0; /* Doom 3 shares normals between vertices at one position */
    if (nm < declared_meshes)
        iqi_warn(ctx, IQ_WARNING_NONSTANDARD, "numMeshes is %u, but the file ends after %u mesh(es)", declared_meshes, nm);
    if (unshaded) iqi_warn(ctx, IQ_WARNING_NONSTANDARD, "%u mesh(es) have no shader line; their material is \"\"", unshaded);
    if (counts.many_weights)
        iqi_warn(ctx, IQ_WARNING_IGNORED_DATA,
                 "%u vertices have more than %d weights; their %d largest drive the skinning (the bind pose uses all)",
                 counts.many_weights, MD5_INFLUENCES, MD5_INFLUENCES);
    if (counts.unweighted)
        iqi_warn(ctx, IQ_WARNING_REPAIRED, "%u vertices have no positive weight; bound to their first weight's joint",
                 counts.unweighted);
    if (counts.renumbered)
        iqi_warn(ctx, IQ_WARNING_NONSTANDARD, "%u vert/weight numbers differ from their place in the list; read in file order, as Doom 3 does",
                 counts.renumbered);
    if (counts.widest > 1e-3 * (extent > 1 ? extent : 1))
        iqi_warn(ctx, IQ_WARNING_NONSTANDARD,
                 "the weights of some vertices place them up to %.4g units apart; skinning moves the weighted average "
                 "(exact in the bind pose)", counts.widest);
    int failed;
    if (lex_next(r, &r->tok, &failed) == 1)
        iqi_warn(ctx, IQ_WARNING_IGNORED_DATA, "text after the last mesh (line %u) was ignored", r->tok.line);
    return 1;
}

// -- .md5anim

typedef struct md5_channel {
    uint32_t flags, first;
} md5_channel;

static int read_anim_file(md5_reader *r, const char *anim_name) {
    iqi_ctx *ctx = r->ctx;
    iq_model *m = ctx->model;
    uint32_t nf, nj, ncomp, repaired_parents = 0, roots = 0;
    double rate;
    if (!read_count(r, "numFrames", 1, 4, &nf)) return 0;
    if (nf > ctx->limits.max_frames)
        return iqi_fail_at_line(ctx, IQ_ERROR_LIMIT, r->tok.line, r->tok.column, "numFrames is %u; the limit is %u frames", nf,
                                ctx->limits.max_frames);
    uint32_t frames_line = r->tok.line;
    if (!expect(r, "numJoints") || !read_joint_count(r, "numJoints", 14, &nj)) return 0;
    if (!expect(r, "frameRate") || !read_number(r, "frameRate", &rate)) return 0;
    if (!(rate >= 0) || !iqi_usable(ctx, rate))
        return iqi_fail_value(ctx, -1, r->tok.line, rate, "frameRate (it must be 0 or more)");
    if (!expect(r, "numAnimatedComponents") || !read_count(r, "numAnimatedComponents", 0, 1, &ncomp)) return 0;
    if ((uint64_t)ncomp > (uint64_t)nj * 6)
        return iqi_fail_at_line(ctx, IQ_ERROR_BAD_ANIMATION, r->tok.line, r->tok.column,
                                "numAnimatedComponents is %u; %u joints have at most %llu (6 each)", ncomp, nj,
                                (unsigned long long)nj * 6);
    if ((uint64_t)nf * (ncomp + 4) * 2 > (uint64_t)(r->lx.end - r->lx.p) + 1)
        return iqi_fail_at_line(ctx, IQ_ERROR_OUT_OF_RANGE, frames_line, 1,
                                "%u frames of %u components cannot fit in the %llu bytes left in the file", nf, ncomp,
                                (unsigned long long)(r->lx.end - r->lx.p));
    m->joints = iqi_alloc(ctx, nj, sizeof(iq_joint), "joints");
    md5_channel *ch = iqi_alloc(ctx, nj, sizeof(md5_channel), "joint channels");
    if (!m->joints || !ch) return 0;
    m->joint_count = nj;
    if (!expect(r, "hierarchy") || !expect(r, "{")) return 0;
    for (uint32_t j = 0; j < nj; j++) {
        int64_t flags, first;
        iq_joint *jt = &m->joints[j];
        if (!(jt->name = read_name(r, "joint name")) || !read_parent(r, j, jt->name, &jt->parent, &repaired_parents)) return 0;
        if (!read_int(r, "joint flags", 0, 63, IQ_ERROR_BAD_ANIMATION, &flags) || !read_int(r, "joint's first component", INT32_MIN, INT32_MAX, IQ_ERROR_BAD_ANIMATION, &first))
            return 0;
        int used = 0;
        for (int b = 0; b < 6; b++) used += (int)((flags >> b) & 1);
        if (used && (first < 0 || (uint64_t)first + used > ncomp))
            return iqi_fail_at_line(ctx, IQ_ERROR_BAD_ANIMATION, r->tok.line, r->tok.column,
                                    "joint %u ('%s') animates %d components from component %lld, past the %u each frame has", j,
                                    jt->name, used, (long long)first, ncomp);
        ch[j].flags = (uint32_t)flags;
        ch[j].first = used ? (uint32_t)first : 0;
        if (jt->parent < 0) roots++;
    }
    if (!expect(r, "}")) return 0;
    if (repaired_parents) iqi_warn(ctx, IQ_WARNING_REPAIRED, "%u joint parent(s) below -1 were read as roots", repaired_parents);
    if (roots > 1) iqi_warn(ctx, IQ_WARNING_NONSTANDARD, "%u root joints; Doom 3 allows one", roots);

    m->frame_bounds = iqi_alloc(ctx, nf, sizeof(iq_bounds), "bounds");
    if (!m->frame_bounds) return 0;
    /* One box per frame; Red Eclipse ships anims with more boxes (and frames)
     * than numFrames: the first numFrames are used. Fewer: the missing ones
     * are measured (iqi_finish_model). */
    if (!expect(r, "bounds") || !expect(r, "{")) return 0;
    uint32_t boxes = 0;
    for (;;) {
        double lo[3], hi[3];
        if (!next(r, "'}'")) return 0;
        if (token_equals(&r->tok, "}")) break;
        if (!token_equals(&r->tok, "(")) {
            char shown[48];
            return fail_here(r, IQ_ERROR_SYNTAX, "expected '(' or '}', found '%s'%s", shown_token(&r->tok, shown), "");
        }
        for (int k = 0; k < 3; k++)
            if (!read_number(r, "bounds minimum", &lo[k])) return 0;
        if (!expect(r, ")") || !read_tuple(r, "bounds maximum", 3, hi, 1)) return 0;
        if (boxes++ >= nf) continue;
        iq_bounds *b = &m->frame_bounds[boxes - 1];
        double xy = 0, all = 0;
        for (int k = 0; k < 3; k++) {
            b->min[k] = (float)lo[k];
            b->max[k] = (float)hi[k];
        }
        /* radii from the origin to the box's farthest corner */
        for (int k = 0; k < 3; k++) {
            double far = fabs(lo[k]) > fabs(hi[k]) ? fabs(lo[k]) : fabs(hi[k]);
            all += far * far;
            if (k < 2) xy += far * far;
        }
        b->xy_radius = (float)sqrt(xy);
        b->radius = (float)sqrt(all);
        int usable = 1;
        for (int k = 0; k < 3; k++) usable &= iqi_usable(ctx, lo[k]) && iqi_usable(ctx, hi[k]);
        if (!usable) iqi_mark_bounds_unusable(b); /* recomputed by iqi_finish_model, with a warning */
    }
    for (uint32_t f = boxes; f < nf; f++) iqi_mark_bounds_unusable(&m->frame_bounds[f]);
    if (boxes != nf)
        iqi_warn(ctx, IQ_WARNING_NONSTANDARD, "numFrames is %u, but the bounds list %u boxes; %s", nf, boxes,
                 boxes > nf ? "the extra ones were ignored" : "the missing ones are measured");

    if (!expect(r, "baseframe") || !expect(r, "{")) return 0;
    double *base = iqi_alloc(ctx, nj, 6 * sizeof(double), "base frame");
    if (!base) return 0;
    for (uint32_t j = 0; j < nj; j++) {
        double *b = base + 6 * (size_t)j, q[4];
        if (!read_tuple(r, "base frame position", 3, b, 0) || !read_tuple(r, "base frame orientation", 3, b + 3, 1)) return 0;
        doom_quat(b + 3, q);
        set_transform(&m->joints[j].bind, b, q); /* what the file poses when nothing animates */
    }
    if (!expect(r, "}")) return 0;

    m->frame_poses = iqi_alloc(ctx, (uint64_t)nf * nj, sizeof(iq_transform), "frames");
    double *comp = iqi_alloc(ctx, ncomp ? ncomp : 1, sizeof(double), "frame components");
    if (!m->frame_poses || !comp) return 0;
    m->frame_count = nf;
    for (uint32_t f = 0; f < nf; f++) {
        int64_t index;
        if (!expect(r, "frame") || !read_int(r, "frame number", INT64_MIN + 1, INT64_MAX, IQ_ERROR_BAD_ANIMATION, &index)) return 0;
        if (index != f)
            return iqi_fail_at_line(ctx, IQ_ERROR_BAD_ANIMATION, r->tok.line, r->tok.column,
                                    "frame %lld where frame %u was expected (frames are numbered in order)", (long long)index, f);
        if (!expect(r, "{")) return 0;
        uint32_t line = r->tok.line;
        for (uint32_t c = 0; c < ncomp; c++)
            if (!read_number(r, "frame component", &comp[c])) return 0;
        if (!expect(r, "}")) return 0;
        for (uint32_t j = 0; j < nj; j++) {
            double v[6], q[4];
            memcpy(v, base + 6 * (size_t)j, sizeof v);
            uint32_t at = ch[j].first;
            for (int b = 0; b < 6; b++)
                if (ch[j].flags & (1u << b)) v[b] = comp[at++];
            for (int k = 0; k < 3; k++)
                if (!iqi_usable(ctx, v[k]))
                    return iqi_fail_value(ctx, -1, line, v[k], "frame %u: joint %u ('%s') position", f, j, m->joints[j].name);
            doom_quat(v + 3, q);
            set_transform(&m->frame_poses[(size_t)f * nj + j], v, q);
        }
    }
    m->animations = iqi_alloc(ctx, 1, sizeof(iq_animation), "animation");
    if (!m->animations) return 0;
    m->animation_count = 1;
    m->animations[0].name = iqi_strdup_n(ctx, anim_name, strlen(anim_name));
    if (!m->animations[0].name) return 0;
    m->animations[0].frame_count = nf;
    m->animations[0].framerate = (float)rate;
    int failed;
    if (lex_next(r, &r->tok, &failed) == 1)
        iqi_warn(ctx, IQ_WARNING_IGNORED_DATA, "text after the last frame (line %u) was ignored", r->tok.line);
    return 1;
}

/* The animation's name: the file name's base without its extension
 * (the file itself names none), else "md5anim". */
static void anim_name_from(const char *file, char *out, size_t size) {
    const char *base = file ? file : "";
    for (const char *c = base; *c; c++)
        if (*c == '/' || *c == '\\') base = c + 1;
    size_t n = strlen(base);
    const char *dot = strrchr(base, '.');
    if (dot && dot != base) n = (size_t)(dot - base);
    if (!n) { base = "md5anim"; n = 7; }
    if (n >= size) n = size - 1;
    memcpy(out, base, n);
    out[n] = 0;
}

int iqi_parse_md5(iqi_ctx *ctx) {
    md5_reader r;
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.file = "MD5 file";
    lex_init(&r.lx, ctx->data, ctx->size);
    md5_kind kind = MD5_MESH;
    if (!read_header(&r, &kind)) return 0;
    if (kind == MD5_MESH) return read_mesh_file(&r);
    char name[128];
    anim_name_from(ctx->name, name, sizeof name);
    return read_anim_file(&r, name);
}
