/* Quake 3 shader scripts: text to fixed-size records, and names to blocks.
 *
 * The grammar is Quake 3's (tr_shader.c ParseShader/ParseStage over
 * COM_ParseExt): `name { keyword args... { stage keywords... } }`, words
 * separated by whitespace, "quoted strings", // and block comments, keywords
 * in any case, a keyword's arguments on its own line. Differences, on
 * purpose (docs/SHADERS.md): '{' and '}' are tokens even when glued to a
 * word; a keyword we do not know is noted and its line skipped (Quake 3
 * drops the whole shader); what cannot be read (a missing argument, a
 * word where a number goes, an unclosed block or comment, a limit passed)
 * fails the script with its line and column, where Quake 3 would read
 * atof("")=0 or silently drop the file. */
#include "iq_shader.h"
#include "iq_internal.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

// -- Tokens

typedef struct lexer {
    const char *p, *end;        /* end: the size given, or the first NUL before it (as the game reads it) */
    uint32_t line, column;
    iqi_ctx *ctx;
} lexer;

typedef struct token {
    const char *text;
    size_t length;
    uint32_t line, column;
} token;

/* A line ends at \n, \r\n or a lone \r (old Mac files: OpenArena ships some). */
static int at_line_break(const lexer *lx) {
    return *lx->p == '\n' || (*lx->p == '\r' && !(lx->p + 1 < lx->end && lx->p[1] == '\n'));
}

static void advance(lexer *lx) {
    if (at_line_break(lx)) {
        lx->line++;
        lx->column = 1;
    } else {
        lx->column++;
    }
    lx->p++;
}

static int at_comment(const lexer *lx) {
    return lx->p + 1 < lx->end && lx->p[0] == '/' && (lx->p[1] == '/' || lx->p[1] == '*');
}

/* Skips whitespace and comments; *newline is set when a line break was passed. */
static int skip_space(lexer *lx, int *newline) {
    for (;;) {
        while (lx->p < lx->end && (unsigned char)*lx->p <= ' ') {
            if (at_line_break(lx)) *newline = 1;
            advance(lx);
        }
        if (!at_comment(lx)) return 1;
        if (lx->p[1] == '/') {
            while (lx->p < lx->end && !at_line_break(lx)) advance(lx);
            continue;
        }
        uint32_t line = lx->line, column = lx->column;
        advance(lx);
        advance(lx);
        while (lx->p < lx->end && !(lx->p[0] == '*' && lx->p + 1 < lx->end && lx->p[1] == '/')) {
            if (at_line_break(lx)) *newline = 1;
            advance(lx);
        }
        if (lx->p >= lx->end) return iqi_fail_at_line(lx->ctx, IQ_ERROR_SYNTAX, line, column, "a /* comment is never closed");
        advance(lx);
        advance(lx);
    }
}

/* The next token: 1, 0 at the end of the text (or, with same_line, at the end
 * of the line: nothing is consumed then), -1 on error. */
static int next_token(lexer *lx, token *t, int same_line) {
    lexer before = *lx;
    int newline = 0;
    if (!skip_space(lx, &newline)) return -1;
    if (lx->p >= lx->end || (same_line && newline)) {
        if (same_line) *lx = before;
        return 0;
    }
    t->line = lx->line;
    t->column = lx->column;
    t->text = lx->p;
    if (*lx->p == '{' || *lx->p == '}') {
        advance(lx);
    } else if (*lx->p == '"') {
        advance(lx);
        t->text = lx->p;
        while (lx->p < lx->end && *lx->p != '"' && !at_line_break(lx)) advance(lx);
        if (lx->p >= lx->end || *lx->p != '"')
            return iqi_fail_at_line(lx->ctx, IQ_ERROR_SYNTAX, t->line, t->column, "a quoted string is not closed on its line") - 1;
        t->length = (size_t)(lx->p - t->text);
        advance(lx);
        goto check;
    } else {
        do {
            advance(lx);
        } while (lx->p < lx->end && (unsigned char)*lx->p > ' ' && *lx->p != '{' && *lx->p != '}' && !at_comment(lx));
    }
    t->length = (size_t)(lx->p - t->text);
check:
    if (t->length > IQ_SHADER_MAX_TOKEN)
        return iqi_fail_at_line(lx->ctx, IQ_ERROR_LIMIT, t->line, t->column, "a word of %zu characters; at most %d are read",
                                t->length, IQ_SHADER_MAX_TOKEN) - 1;
    return 1;
}

static int token_is(const token *t, const char *word) {
    size_t n = strlen(word);
    if (t->length != n) return 0;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)t->text[i]) != tolower((unsigned char)word[i])) return 0;
    return 1;
}

static int token_starts(const token *t, const char *prefix) {
    size_t n = strlen(prefix);
    if (t->length < n) return 0;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)t->text[i]) != prefix[i]) return 0;
    return 1;
}

/* A token quoted for messages: at most 40 characters, non-printing bytes as '?'. */
static const char *shown(const token *t, char buf[48]) {
    size_t n = t->length < 40 ? t->length : 40, i;
    for (i = 0; i < n; i++) buf[i] = isprint((unsigned char)t->text[i]) ? t->text[i] : '?';
    if (t->length > 40) { buf[n++] = '.'; buf[n++] = '.'; buf[n++] = '.'; }
    buf[n] = 0;
    return buf;
}

// -- Parser state

typedef struct parser {
    lexer lx;
    iqi_ctx *ctx;
    iq_shader_script *script;
    size_t shader_capacity;
    char *pool, *pool_end, *pool_at;   /* every string; sized so that it cannot run out */
    iq_q3_shader *shader;                 /* the one being read */
    char buf[48];
} parser;

/* A copy of the token in the pool. A token is stored at most twice (a shader
 * name is also a note's keyword when the shader has no stages), each copy
 * L + 1 <= 2L bytes, so 4 * size + 16 bytes always suffice. */
static const char *store(parser *ps, const token *t) {
    char *s = ps->pool_at;
    if ((size_t)(ps->pool_end - s) < t->length + 1) return ""; /* cannot happen: see the pool's size */
    memcpy(s, t->text, t->length);
    s[t->length] = 0;
    ps->pool_at += t->length + 1;
    return s;
}

static void note(parser *ps, iq_shader_note_kind kind, const token *keyword, const char *fmt, ...) IQI_PRINTF(4, 5);
static void note(parser *ps, iq_shader_note_kind kind, const token *keyword, const char *fmt, ...) {
    iq_shader_script *sc = ps->script;
    if (sc->note_count < UINT32_MAX) sc->note_count++;
    if (sc->notes_kept == IQ_SHADER_MAX_NOTES) return;
    iq_shader_note *n = &sc->notes[sc->notes_kept++];
    n->keyword = store(ps, keyword);
    n->kind = kind;
    n->shader = sc->shader_count ? sc->shader_count - 1 : 0;
    n->line = keyword->line;
    n->column = keyword->column;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(n->detail, sizeof n->detail, fmt, ap);
    va_end(ap);
}

/* Skips what is left of the line up to a '{' or '}' (a block's brace is never
 * an argument); its words joined by spaces go to rest (64 bytes) when given. */
static int skip_line(parser *ps, char *rest) {
    size_t used = 0;
    token t;
    int r;
    for (;;) {
        lexer before = ps->lx;
        if ((r = next_token(&ps->lx, &t, 1)) <= 0) break;
        if (t.length == 1 && (t.text[0] == '{' || t.text[0] == '}')) {
            ps->lx = before;
            r = 0;
            break;
        }
        if (!rest) continue;
        if (used && used < 62) rest[used++] = ' ';
        for (size_t i = 0; i < t.length && used < 62; i++) rest[used++] = isprint((unsigned char)t.text[i]) ? t.text[i] : '?';
    }
    if (rest) rest[used] = 0;
    return r == 0;
}

static int unknown_keyword(parser *ps, const token *t, const char *where) {
    char rest[64];
    if (!skip_line(ps, rest)) return 0;
    note(ps, IQ_NOTE_UNKNOWN_KEYWORD, t, "%s%s%s", where, rest[0] ? ": " : "", rest);
    return 1;
}

/* The next word on the keyword's line, or an error naming what was expected. */
static int need(parser *ps, const token *keyword, token *t, const char *what) {
    int r = next_token(&ps->lx, t, 1);
    if (r > 0) return 1;
    if (r < 0) return 0;
    return iqi_fail_at_line(ps->ctx, IQ_ERROR_SYNTAX, keyword->line, keyword->column, "%s: %s is missing on its line",
                            shown(keyword, ps->buf), what);
}

/* A number as Quake 3's atof reads it: a token with trailing letters
 * ("0.5f") keeps its leading number and is noted; one that does not start
 * like a number, or is not finite, or is beyond IQ_SHADER_MAX_VALUE, fails. */
static int number(parser *ps, const token *keyword, const token *t, float *out) {
    char text[64], buf[48];
    size_t n = t->length < sizeof text - 1 ? t->length : sizeof text - 1;
    memcpy(text, t->text, n);
    text[n] = 0;
    char *end = text;
    double v = 0;
    if (n && strchr("+-.0123456789", text[0])) v = strtod(text, &end);
    if (end == text || (n >= 2 && (text[1] == 'x' || text[1] == 'X' || text[2] == 'x' || text[2] == 'X')))
        return iqi_fail_at_line(ps->ctx, IQ_ERROR_SYNTAX, t->line, t->column, "%s: expected a number, found '%s'",
                                shown(keyword, ps->buf), shown(t, buf));
    if (!(fabs(v) <= IQ_SHADER_MAX_VALUE))
        return iqi_fail_at_line(ps->ctx, IQ_ERROR_BAD_VALUE, t->line, t->column, "%s: %s is beyond %g",
                                shown(keyword, ps->buf), shown(t, buf), IQ_SHADER_MAX_VALUE);
    if (*end || t->length != n) note(ps, IQ_NOTE_UNKNOWN_VALUE, t, "read as %g, as Quake 3's atof does", v);
    *out = (float)v;
    return 1;
}

static int need_numbers(parser *ps, const token *keyword, float *out, int count, const char *what) {
    token t;
    for (int i = 0; i < count; i++)
        if (!need(ps, keyword, &t, what) || !number(ps, keyword, &t, &out[i])) return 0;
    return 1;
}

/* ( a b c ): the parentheses are words of their own, as Quake 3 wants them. */
static int need_vector(parser *ps, const token *keyword, float *out, int count) {
    token t;
    char buf[48];
    if (!need(ps, keyword, &t, "'( x y z )'")) return 0;
    if (!(t.length == 1 && t.text[0] == '('))
        return iqi_fail_at_line(ps->ctx, IQ_ERROR_SYNTAX, t.line, t.column, "%s: expected '(', found '%s'",
                                shown(keyword, ps->buf), shown(&t, buf));
    if (!need_numbers(ps, keyword, out, count, "a vector element")) return 0;
    if (!need(ps, keyword, &t, "')'")) return 0;
    if (!(t.length == 1 && t.text[0] == ')'))
        return iqi_fail_at_line(ps->ctx, IQ_ERROR_SYNTAX, t.line, t.column, "%s: expected ')', found '%s'",
                                shown(keyword, ps->buf), shown(&t, buf));
    return 1;
}

/* func base amplitude phase frequency */
static int need_wave(parser *ps, const token *keyword, iq_shader_wave *w) {
    static const char *const names[] = {"sin", "square", "triangle", "sawtooth", "inversesawtooth", "noise"};
    token t;
    if (!need(ps, keyword, &t, "a wave function")) return 0;
    unsigned k;
    for (k = 0; k < 6 && !token_is(&t, names[k]); k++) {}
    if (k == 6) note(ps, IQ_NOTE_UNKNOWN_VALUE, &t, "not a wave function: sin is used, as Quake 3 does");
    w->func = k == 6 ? IQ_WAVE_SIN : IQ_WAVE_SIN + k;
    float v[4];
    if (!need_numbers(ps, keyword, v, 4, "base, amplitude, phase and frequency")) return 0;
    w->base = v[0];
    w->amplitude = v[1];
    w->phase = v[2];
    w->frequency = v[3];
    return 1;
}

// -- Stage keywords

static int stage_image(parser *ps, iq_shader_stage *st, const token *keyword, int clamp) {
    token t;
    char buf[48];
    if (!need(ps, keyword, &t, "an image name")) return 0;
    st->clamp = (uint32_t)clamp;
    st->frame_count = 1;
    st->anim_frequency = 0;
    memset(st->images, 0, sizeof st->images);
    if (!clamp && token_is(&t, "$whiteimage")) {
        st->map = IQ_MAP_WHITE;
    } else if (!clamp && token_is(&t, "$lightmap")) {
        st->map = IQ_MAP_LIGHTMAP;
    } else {
        if (t.length > IQ_SHADER_MAX_NAME)
            return iqi_fail_at_line(ps->ctx, IQ_ERROR_LIMIT, t.line, t.column, "image name '%s' has %zu characters; at most %d",
                                    shown(&t, buf), t.length, IQ_SHADER_MAX_NAME);
        st->map = IQ_MAP_IMAGE;
        st->images[0].name = store(ps, &t);
    }
    return 1;
}

static int stage_animmap(parser *ps, iq_shader_stage *st, const token *keyword) {
    token t;
    char buf[48];
    float frequency;
    if (!need(ps, keyword, &t, "frames per second") || !number(ps, keyword, &t, &frequency)) return 0;
    uint32_t count = 0, total = 0;
    iq_shader_image images[IQ_SHADER_MAX_FRAMES];
    memset(images, 0, sizeof images);
    int r;
    for (;;) {
        lexer before = ps->lx;
        if ((r = next_token(&ps->lx, &t, 1)) <= 0) break;
        if (t.length == 1 && (t.text[0] == '{' || t.text[0] == '}')) { /* the stage ends on this line */
            ps->lx = before;
            r = 0;
            break;
        }
        if (t.length > IQ_SHADER_MAX_NAME)
            return iqi_fail_at_line(ps->ctx, IQ_ERROR_LIMIT, t.line, t.column, "image name '%s' has %zu characters; at most %d",
                                    shown(&t, buf), t.length, IQ_SHADER_MAX_NAME);
        if (count < IQ_SHADER_MAX_FRAMES) images[count++].name = store(ps, &t);
        total++;
    }
    if (r < 0) return 0;
    if (count == 0)
        return iqi_fail_at_line(ps->ctx, IQ_ERROR_SYNTAX, keyword->line, keyword->column, "animMap: no images on its line");
    if (total > count)
        note(ps, IQ_NOTE_OVER_LIMIT, keyword, "%u images; the first %d are used", total, IQ_SHADER_MAX_FRAMES);
    st->map = IQ_MAP_IMAGE;
    st->clamp = 0;
    st->frame_count = count;
    st->anim_frequency = frequency;
    memcpy(st->images, images, sizeof images);
    return 1;
}

static uint32_t blend_factor(parser *ps, const token *t, int src) {
    static const struct { const char *name; uint32_t value; int as_src, as_dst; } factors[] = {
        {"gl_one", IQ_BLEND_ONE, 1, 1}, {"gl_zero", IQ_BLEND_ZERO, 1, 1},
        {"gl_dst_color", IQ_BLEND_DST_COLOR, 1, 0}, {"gl_one_minus_dst_color", IQ_BLEND_ONE_MINUS_DST_COLOR, 1, 0},
        {"gl_src_alpha", IQ_BLEND_SRC_ALPHA, 1, 1}, {"gl_one_minus_src_alpha", IQ_BLEND_ONE_MINUS_SRC_ALPHA, 1, 1},
        {"gl_dst_alpha", IQ_BLEND_DST_ALPHA, 1, 1}, {"gl_one_minus_dst_alpha", IQ_BLEND_ONE_MINUS_DST_ALPHA, 1, 1},
        {"gl_src_alpha_saturate", IQ_BLEND_SRC_ALPHA_SATURATE, 1, 0},
        {"gl_src_color", IQ_BLEND_SRC_COLOR, 0, 1}, {"gl_one_minus_src_color", IQ_BLEND_ONE_MINUS_SRC_COLOR, 0, 1},
    };
    for (size_t i = 0; i < sizeof factors / sizeof factors[0]; i++)
        if (token_is(t, factors[i].name) && (src ? factors[i].as_src : factors[i].as_dst)) return factors[i].value;
    note(ps, IQ_NOTE_UNKNOWN_VALUE, t, "not a %s blend factor: GL_ONE is used, as Quake 3 does", src ? "source" : "destination");
    return IQ_BLEND_ONE;
}

static int stage_tcmod(parser *ps, iq_shader_stage *st, const token *keyword) {
    token t;
    if (!need(ps, keyword, &t, "a tcMod type")) return 0;
    if (st->tcmod_count == IQ_SHADER_MAX_TCMODS)
        return iqi_fail_at_line(ps->ctx, IQ_ERROR_LIMIT, keyword->line, keyword->column,
                                "a stage has more than %d tcMods (Quake 3 stops with an error)", IQ_SHADER_MAX_TCMODS);
    iq_shader_tcmod m;
    memset(&m, 0, sizeof m);
    if (token_is(&t, "scroll")) {
        m.type = IQ_TCMOD_SCROLL;
        if (!need_numbers(ps, &t, m.params, 2, "s and t speeds")) return 0;
    } else if (token_is(&t, "scale")) {
        m.type = IQ_TCMOD_SCALE;
        if (!need_numbers(ps, &t, m.params, 2, "s and t scales")) return 0;
    } else if (token_is(&t, "rotate")) {
        m.type = IQ_TCMOD_ROTATE;
        if (!need_numbers(ps, &t, m.params, 1, "degrees per second")) return 0;
    } else if (token_is(&t, "stretch")) {
        m.type = IQ_TCMOD_STRETCH;
        if (!need_wave(ps, &t, &m.wave)) return 0;
    } else if (token_is(&t, "turb")) {
        float v[4];
        m.type = IQ_TCMOD_TURB;
        if (!need_numbers(ps, &t, v, 4, "base, amplitude, phase and frequency")) return 0;
        m.wave.func = IQ_WAVE_SIN;
        m.wave.base = v[0];
        m.wave.amplitude = v[1];
        m.wave.phase = v[2];
        m.wave.frequency = v[3];
    } else if (token_is(&t, "transform")) {
        m.type = IQ_TCMOD_TRANSFORM;
        if (!need_numbers(ps, &t, m.params, 6, "m00 m01 m10 m11 t0 t1")) return 0;
    } else if (token_is(&t, "entityTranslate")) {
        m.type = IQ_TCMOD_ENTITY_TRANSLATE;
    } else {
        char rest[64];
        if (!skip_line(ps, rest)) return 0;
        note(ps, IQ_NOTE_UNKNOWN_VALUE, &t, "not a tcMod: ignored%s%s", rest[0] ? ": " : "", rest);
        return 1;
    }
    st->tcmods[st->tcmod_count++] = m;
    return skip_line(ps, NULL);
}

static int parse_stage(parser *ps, iq_shader_stage *st, const token *open) {
    token t, v;
    int r, rgb_given = 0, depth_write_given = 0;
    memset(st, 0, sizeof *st);
    st->line = open->line;
    st->depth_write = 1;
    st->portal_range = 256;
    for (;;) {
        if ((r = next_token(&ps->lx, &t, 0)) < 0) return 0;
        if (r == 0)
            return iqi_fail_at_line(ps->ctx, IQ_ERROR_TRUNCATED, open->line, open->column,
                                    "the stage opened here in shader '%s' is never closed", ps->shader->name);
        if (t.text[0] == '}' && t.length == 1) break;
        if (t.text[0] == '{' && t.length == 1)
            return iqi_fail_at_line(ps->ctx, IQ_ERROR_SYNTAX, t.line, t.column, "a '{' inside a stage (stages do not nest)");
        if (token_is(&t, "map")) {
            if (!stage_image(ps, st, &t, 0)) return 0;
        } else if (token_is(&t, "clampmap")) {
            if (!stage_image(ps, st, &t, 1)) return 0;
        } else if (token_is(&t, "animmap")) {
            if (!stage_animmap(ps, st, &t)) return 0;
            continue;
        } else if (token_is(&t, "videomap")) {
            if (!skip_line(ps, NULL)) return 0;
            note(ps, IQ_NOTE_IGNORED, &t, "videos are not played");
            continue;
        } else if (token_is(&t, "alphafunc")) {
            if (!need(ps, &t, &v, "GT0, LT128 or GE128")) return 0;
            st->alpha_func = token_is(&v, "gt0") ? IQ_ALPHA_GT0 : token_is(&v, "lt128") ? IQ_ALPHA_LT128
                           : token_is(&v, "ge128") ? IQ_ALPHA_GE128 : IQ_ALPHA_ALL;
            if (st->alpha_func == IQ_ALPHA_ALL) note(ps, IQ_NOTE_UNKNOWN_VALUE, &v, "not an alphaFunc: no alpha test");
        } else if (token_is(&t, "depthfunc")) {
            if (!need(ps, &t, &v, "lequal or equal")) return 0;
            if (token_is(&v, "lequal")) st->depth_func = IQ_DEPTH_LEQUAL;
            else if (token_is(&v, "equal")) st->depth_func = IQ_DEPTH_EQUAL;
            else note(ps, IQ_NOTE_UNKNOWN_VALUE, &v, "not a depthFunc: lequal is kept");
        } else if (token_is(&t, "depthwrite")) {
            st->depth_write = 1;
            depth_write_given = 1;
        } else if (token_is(&t, "detail")) {
            st->detail = 1;
        } else if (token_is(&t, "blendfunc")) {
            if (!need(ps, &t, &v, "a blend")) return 0;
            if (token_is(&v, "add")) {
                st->blend_src = IQ_BLEND_ONE, st->blend_dst = IQ_BLEND_ONE;
            } else if (token_is(&v, "filter")) {
                st->blend_src = IQ_BLEND_DST_COLOR, st->blend_dst = IQ_BLEND_ZERO;
            } else if (token_is(&v, "blend")) {
                st->blend_src = IQ_BLEND_SRC_ALPHA, st->blend_dst = IQ_BLEND_ONE_MINUS_SRC_ALPHA;
            } else {
                token d;
                st->blend_src = blend_factor(ps, &v, 1);
                if (!need(ps, &t, &d, "the destination factor")) return 0;
                st->blend_dst = blend_factor(ps, &d, 0);
            }
            if (!depth_write_given) st->depth_write = 0; /* blended stages leave depth alone */
        } else if (token_is(&t, "rgbgen")) {
            static const struct { const char *name; uint32_t value; } gens[] = {
                {"identity", IQ_RGBGEN_IDENTITY}, {"identitylighting", IQ_RGBGEN_IDENTITY_LIGHTING},
                {"entity", IQ_RGBGEN_ENTITY}, {"oneminusentity", IQ_RGBGEN_ONE_MINUS_ENTITY},
                {"vertex", IQ_RGBGEN_VERTEX}, {"exactvertex", IQ_RGBGEN_EXACT_VERTEX},
                {"lightingdiffuse", IQ_RGBGEN_LIGHTING_DIFFUSE}, {"oneminusvertex", IQ_RGBGEN_ONE_MINUS_VERTEX},
            };
            if (!need(ps, &t, &v, "an rgbGen")) return 0;
            if (token_is(&v, "wave")) {
                if (!need_wave(ps, &t, &st->rgb_wave)) return 0;
                st->rgb_gen = IQ_RGBGEN_WAVE;
            } else if (token_is(&v, "const")) {
                if (!need_vector(ps, &t, st->constant, 3)) return 0;
                st->rgb_gen = IQ_RGBGEN_CONST;
            } else {
                size_t k, n = sizeof gens / sizeof gens[0];
                for (k = 0; k < n && !token_is(&v, gens[k].name); k++) {}
                if (k == n) {
                    note(ps, IQ_NOTE_UNKNOWN_VALUE, &v, "not an rgbGen: ignored");
                    if (!skip_line(ps, NULL)) return 0;
                    continue;
                }
                st->rgb_gen = gens[k].value;
                /* rgbGen vertex brings alphaGen vertex unless an alphaGen came first */
                if (st->rgb_gen == IQ_RGBGEN_VERTEX && st->alpha_gen == IQ_ALPHAGEN_IDENTITY) st->alpha_gen = IQ_ALPHAGEN_VERTEX;
            }
            rgb_given = 1;
        } else if (token_is(&t, "alphagen")) {
            static const struct { const char *name; uint32_t value; } gens[] = {
                {"identity", IQ_ALPHAGEN_IDENTITY}, {"entity", IQ_ALPHAGEN_ENTITY},
                {"oneminusentity", IQ_ALPHAGEN_ONE_MINUS_ENTITY}, {"vertex", IQ_ALPHAGEN_VERTEX},
                {"lightingspecular", IQ_ALPHAGEN_LIGHTING_SPECULAR}, {"oneminusvertex", IQ_ALPHAGEN_ONE_MINUS_VERTEX},
            };
            if (!need(ps, &t, &v, "an alphaGen")) return 0;
            if (token_is(&v, "wave")) {
                if (!need_wave(ps, &t, &st->alpha_wave)) return 0;
                st->alpha_gen = IQ_ALPHAGEN_WAVE;
            } else if (token_is(&v, "const")) {
                if (!need_numbers(ps, &t, &st->constant[3], 1, "the alpha")) return 0;
                st->alpha_gen = IQ_ALPHAGEN_CONST;
            } else if (token_is(&v, "portal")) {
                token range;
                st->alpha_gen = IQ_ALPHAGEN_PORTAL;
                if ((r = next_token(&ps->lx, &range, 1)) < 0) return 0;
                if (r > 0 && !number(ps, &t, &range, &st->portal_range)) return 0;
            } else {
                size_t k, n = sizeof gens / sizeof gens[0];
                for (k = 0; k < n && !token_is(&v, gens[k].name); k++) {}
                if (k == n) {
                    note(ps, IQ_NOTE_UNKNOWN_VALUE, &v, "not an alphaGen: ignored");
                    if (!skip_line(ps, NULL)) return 0;
                    continue;
                }
                st->alpha_gen = gens[k].value;
            }
        } else if (token_is(&t, "tcgen") || token_is(&t, "texgen")) {
            if (!need(ps, &t, &v, "a tcGen")) return 0;
            if (token_is(&v, "environment")) st->tcgen = IQ_TCGEN_ENVIRONMENT;
            else if (token_is(&v, "lightmap")) st->tcgen = IQ_TCGEN_LIGHTMAP;
            else if (token_is(&v, "base") || token_is(&v, "texture")) st->tcgen = IQ_TCGEN_BASE;
            else if (token_is(&v, "vector")) {
                if (!need_vector(ps, &t, st->tcgen_vectors, 3) || !need_vector(ps, &t, st->tcgen_vectors + 3, 3)) return 0;
                st->tcgen = IQ_TCGEN_VECTOR;
            } else {
                note(ps, IQ_NOTE_UNKNOWN_VALUE, &v, "not a tcGen: ignored");
            }
        } else if (token_is(&t, "tcmod")) {
            if (!stage_tcmod(ps, st, &t)) return 0;
            continue;
        } else {
            if (!unknown_keyword(ps, &t, "in a stage")) return 0;
            continue;
        }
    }
    /* Quake 3's defaults (ParseStage's end) */
    if (!rgb_given)
        st->rgb_gen = (st->blend_src == IQ_BLEND_NONE || st->blend_src == IQ_BLEND_ONE || st->blend_src == IQ_BLEND_SRC_ALPHA)
                          ? IQ_RGBGEN_IDENTITY_LIGHTING : IQ_RGBGEN_IDENTITY;
    if (st->blend_src == IQ_BLEND_ONE && st->blend_dst == IQ_BLEND_ZERO) { /* GL_ONE GL_ZERO: no blending */
        st->blend_src = st->blend_dst = IQ_BLEND_NONE;
        st->depth_write = 1;
    }
    return 1;
}

// -- Shader keywords

static int parse_deform(parser *ps, const token *keyword) {
    iq_q3_shader *sh = ps->shader;
    token t;
    if (!need(ps, keyword, &t, "a deform type")) return 0;
    if (sh->deform_count == IQ_SHADER_MAX_DEFORMS) {
        if (!skip_line(ps, NULL)) return 0;
        note(ps, IQ_NOTE_OVER_LIMIT, keyword, "more than %d deforms: ignored, as Quake 3 does", IQ_SHADER_MAX_DEFORMS);
        return 1;
    }
    iq_shader_deform d;
    memset(&d, 0, sizeof d);
    if (token_is(&t, "wave")) {
        float div;
        d.type = IQ_DEFORM_WAVE;
        if (!need_numbers(ps, &t, &div, 1, "the spread (div)") || !need_wave(ps, &t, &d.wave)) return 0;
        d.spread = div != 0 ? 1.0f / div : 100.0f;
        if (div == 0) note(ps, IQ_NOTE_UNKNOWN_VALUE, &t, "div 0: spread 100, as Quake 3 does");
    } else if (token_is(&t, "normal")) {
        float v[2];
        d.type = IQ_DEFORM_NORMAL;
        if (!need_numbers(ps, &t, v, 2, "amplitude and frequency")) return 0;
        d.wave.amplitude = v[0];
        d.wave.frequency = v[1];
    } else if (token_is(&t, "bulge")) {
        float v[3];
        d.type = IQ_DEFORM_BULGE;
        if (!need_numbers(ps, &t, v, 3, "width, height and speed")) return 0;
        d.bulge_width = v[0], d.bulge_height = v[1], d.bulge_speed = v[2];
    } else if (token_is(&t, "move")) {
        d.type = IQ_DEFORM_MOVE;
        if (!need_numbers(ps, &t, d.vector, 3, "x y z") || !need_wave(ps, &t, &d.wave)) return 0;
    } else if (token_is(&t, "autosprite")) {
        d.type = IQ_DEFORM_AUTOSPRITE;
    } else if (token_is(&t, "autosprite2")) {
        d.type = IQ_DEFORM_AUTOSPRITE2;
    } else if (token_is(&t, "projectionshadow") || token_starts(&t, "text")) {
        d.type = token_starts(&t, "text") ? IQ_DEFORM_TEXT : IQ_DEFORM_PROJECTION_SHADOW;
        note(ps, IQ_NOTE_IGNORED, &t, "a game-side deform: kept, not evaluated");
    } else {
        char rest[64];
        if (!skip_line(ps, rest)) return 0;
        note(ps, IQ_NOTE_UNKNOWN_VALUE, &t, "not a deformVertexes type: ignored");
        return 1;
    }
    sh->deforms[sh->deform_count++] = d;
    return 1;
}

static int parse_sort(parser *ps, const token *keyword, float *out) {
    static const struct { const char *name; float value; } sorts[] = {
#define IQ_X(name, word, value) {word, value},
        IQ_SHADER_SORTS(IQ_X)
#undef IQ_X
    };
    token t;
    if (!need(ps, keyword, &t, "a sort")) return 0;
    for (size_t k = 0; k < sizeof sorts / sizeof sorts[0]; k++)
        if (token_is(&t, sorts[k].name)) return *out = sorts[k].value, 1;
    return number(ps, keyword, &t, out);
}

/* The sort Quake 3's FinishShader settles on. */
static float settle_sort(const iq_q3_shader *sh, float sort) {
    if (sh->flags & IQ_SHADER_SKY) sort = IQ_SORT_SKY;
    if ((sh->flags & IQ_SHADER_POLYGON_OFFSET) && sort == 0) sort = IQ_SORT_DECAL;
    for (uint32_t i = 0; i < sh->stage_count; i++) {
        const iq_shader_stage *st = &sh->stages[i];
        if (st->map == IQ_MAP_NONE) continue; /* a stage with no image is dropped */
        if (st->blend_src != IQ_BLEND_NONE && sh->stages[0].blend_src != IQ_BLEND_NONE && sort == 0)
            sort = st->depth_write ? IQ_SORT_SEE_THROUGH : IQ_SORT_BLEND0;
    }
    return sort == 0 ? IQ_SORT_OPAQUE : sort;
}

static int parse_shader(parser *ps, const token *name) {
    iq_q3_shader *sh = ps->shader;
    token t;
    int r;
    float sort = 0;
    for (;;) {
        if ((r = next_token(&ps->lx, &t, 0)) < 0) return 0;
        if (r == 0)
            return iqi_fail_at_line(ps->ctx, IQ_ERROR_TRUNCATED, name->line, name->column,
                                    "shader '%s' is never closed (the text ends inside it)", sh->name);
        if (t.length == 1 && t.text[0] == '}') break;
        if (t.length == 1 && t.text[0] == '{') {
            if (sh->stage_count == IQ_SHADER_MAX_STAGES) { /* read and dropped; Quake 3 refuses the shader */
                iq_shader_stage extra;
                if (!parse_stage(ps, &extra, &t)) return 0;
                if (!(sh->flags & IQ_SHADER_REFUSED))
                    note(ps, IQ_NOTE_OVER_LIMIT, &t, "more than %d stages: the first %d are kept; Quake 3 refuses the shader",
                         IQ_SHADER_MAX_STAGES, IQ_SHADER_MAX_STAGES);
                sh->flags |= IQ_SHADER_REFUSED;
                continue;
            }
            if (!parse_stage(ps, &sh->stages[sh->stage_count], &t)) return 0;
            sh->stage_count++;
            ps->script->stage_count++;
            continue;
        }
        if (token_is(&t, "deformvertexes")) {
            if (!parse_deform(ps, &t)) return 0;
            continue;
        } else if (token_is(&t, "cull")) {
            token v;
            if (!need(ps, &t, &v, "front, back or none")) return 0;
            if (token_is(&v, "none") || token_is(&v, "twosided") || token_is(&v, "disable")) sh->cull = IQ_CULL_NONE;
            else if (token_is(&v, "back") || token_is(&v, "backside") || token_is(&v, "backsided")) sh->cull = IQ_CULL_BACK;
            else if (!token_is(&v, "front")) note(ps, IQ_NOTE_UNKNOWN_VALUE, &v, "not a cull: front faces are drawn");
        } else if (token_is(&t, "sort")) {
            if (!parse_sort(ps, &t, &sh->sort_given)) return 0;
            sort = sh->sort_given;
        } else if (token_is(&t, "nomipmaps")) {
            sh->flags |= IQ_SHADER_NOMIPMAPS | IQ_SHADER_NOPICMIP;
        } else if (token_is(&t, "nopicmip")) {
            sh->flags |= IQ_SHADER_NOPICMIP;
        } else if (token_is(&t, "polygonoffset")) {
            sh->flags |= IQ_SHADER_POLYGON_OFFSET;
        } else if (token_is(&t, "entitymergable")) {
            sh->flags |= IQ_SHADER_ENTITY_MERGABLE;
        } else if (token_is(&t, "portal")) {
            sh->flags |= IQ_SHADER_PORTAL;
            sort = IQ_SORT_PORTAL;
        } else if (token_is(&t, "skyparms") || token_is(&t, "fogparms") || token_is(&t, "clamptime")) {
            int sky = token_is(&t, "skyparms"), fog = token_is(&t, "fogparms");
            sh->flags |= sky ? IQ_SHADER_SKY : fog ? IQ_SHADER_FOG : 0;
            if (!skip_line(ps, NULL)) return 0;
            note(ps, IQ_NOTE_IGNORED, &t, "%s", sky ? "sky boxes are not drawn" : fog ? "fog volumes are not drawn"
                                                                                : "shader time is not clamped");
        } else if (token_starts(&t, "qer") || token_starts(&t, "q3map") || token_is(&t, "surfaceparm") ||
                   token_is(&t, "tesssize") || token_is(&t, "light")) {
            /* for the editor, the map compiler or the server: nothing to draw (Quake 3 skips them too) */
            if (!skip_line(ps, NULL)) return 0;
        } else {
            if (!unknown_keyword(ps, &t, "in the shader")) return 0;
        }
    }
    if (sh->stage_count == 0 && !(sh->flags & (IQ_SHADER_SKY | IQ_SHADER_FOG))) {
        sh->flags |= IQ_SHADER_REFUSED;
        note(ps, IQ_NOTE_IGNORED, name, "no stages: Quake 3 shows its default shader for it");
    }
    sh->sort = settle_sort(sh, sort);
    return 1;
}

static int parse_script(parser *ps) {
    token name, open;
    char buf[48];
    int r;
    for (;;) {
        if ((r = next_token(&ps->lx, &name, 0)) < 0) return 0;
        if (r == 0) return 1;
        if (name.length == 1 && (name.text[0] == '{' || name.text[0] == '}'))
            return iqi_fail_at_line(ps->ctx, IQ_ERROR_SYNTAX, name.line, name.column, "expected a shader name, found '%c'",
                                    name.text[0]);
        if (name.length > IQ_SHADER_MAX_NAME)
            return iqi_fail_at_line(ps->ctx, IQ_ERROR_LIMIT, name.line, name.column, "shader name '%s' has %zu characters; at most %d",
                                    shown(&name, buf), name.length, IQ_SHADER_MAX_NAME);
        if ((r = next_token(&ps->lx, &open, 0)) < 0) return 0;
        if (r == 0)
            return iqi_fail_at_line(ps->ctx, IQ_ERROR_TRUNCATED, name.line, name.column,
                                    "shader '%s' has no '{' (the text ends after its name)", shown(&name, buf));
        if (!(open.length == 1 && open.text[0] == '{'))
            return iqi_fail_at_line(ps->ctx, IQ_ERROR_SYNTAX, open.line, open.column, "expected '{' after shader name '%s'",
                                    shown(&name, buf));
        iq_shader_script *sc = ps->script;
        if (sc->shader_count == IQ_SHADER_MAX_SHADERS)
            return iqi_fail_at_line(ps->ctx, IQ_ERROR_LIMIT, name.line, name.column, "more than %d shaders in one script",
                                    IQ_SHADER_MAX_SHADERS);
        if (sc->shader_count == ps->shader_capacity) {
            size_t grown = ps->shader_capacity ? ps->shader_capacity * 2 : 16;
            if (grown > IQ_SHADER_MAX_SHADERS) grown = IQ_SHADER_MAX_SHADERS;
            iq_q3_shader *s = realloc(sc->shaders, grown * sizeof *s);
            if (!s) return iqi_fail(ps->ctx, IQ_ERROR_OUT_OF_MEMORY, -1, "out of memory for %zu shaders", grown);
            sc->shaders = s;
            ps->shader_capacity = grown;
        }
        iq_q3_shader *sh = &sc->shaders[sc->shader_count++];
        memset(sh, 0, sizeof *sh);
        sh->name = store(ps, &name);
        sh->line = name.line;
        sh->column = name.column;
        ps->shader = sh;
        if (!parse_shader(ps, &name)) return 0;
    }
}

iq_shader_script *iq_shader_parse(const void *text, size_t size, iq_error *error) {
    iq_error local;
    iqi_ctx ctx;
    parser ps;
    error = iqi_error_reset(error, &local);
    memset(&ctx, 0, sizeof ctx);
    ctx.error = error;
    if (!text && size) {
        iqi_fail(&ctx, IQ_ERROR_INVALID_ARGUMENT, -1, "NULL text");
        return NULL;
    }
    if (size > IQ_SHADER_MAX_BYTES) {
        iqi_fail(&ctx, IQ_ERROR_LIMIT, -1, "a shader script of %zu bytes; at most %u are read", size, IQ_SHADER_MAX_BYTES);
        return NULL;
    }
    memset(&ps, 0, sizeof ps);
    ps.ctx = &ctx;
    ps.script = calloc(1, sizeof *ps.script);
    ps.pool = malloc(4 * size + 16);
    if (!ps.script || !ps.pool) {
        free(ps.script);
        free(ps.pool);
        iqi_fail(&ctx, IQ_ERROR_OUT_OF_MEMORY, -1, "out of memory for a script of %zu bytes", size);
        return NULL;
    }
    ps.script->strings = ps.pool_at = ps.pool;
    ps.pool_end = ps.pool + 4 * size + 16;
    const char *t = text;
    const char *nul = size ? memchr(t, 0, size) : NULL;
    ps.lx.p = t;
    ps.lx.end = nul ? nul : t + size;
    ps.lx.line = ps.lx.column = 1;
    ps.lx.ctx = &ctx;
    if (!parse_script(&ps)) {
        iq_shader_free(ps.script);
        return NULL;
    }
    return ps.script;
}

void iq_shader_free(iq_shader_script *script) {
    if (!script) return;
    free(script->shaders);
    free(script->strings);
    free(script);
}

// -- Names

/* Compares a requested name (extension already cut at `length`) with a block's name. */
static int same_name(const char *want, size_t length, const char *have) {
    size_t i;
    for (i = 0; i < length && have[i]; i++) {
        int a = tolower((unsigned char)want[i]), b = tolower((unsigned char)have[i]);
        if (a == '\\') a = '/';
        if (b == '\\') b = '/';
        if (a != b) return 0;
    }
    return i == length && have[i] == 0;
}

/* The length of name without its extension (COM_StripExtension: the last '.' after the last '/'). */
static size_t stripped_length(const char *name) {
    size_t n = strlen(name), dot = n;
    for (size_t i = 0; i < n; i++) {
        if (name[i] == '/' || name[i] == '\\') dot = n;
        else if (name[i] == '.') dot = i;
    }
    return dot;
}

int32_t iq_shader_find(const iq_shader_script *script, const char *name) {
    if (!script || !name) return -1;
    size_t length = stripped_length(name);
    for (uint32_t i = 0; i < script->shader_count; i++)
        if (same_name(name, length, script->shaders[i].name)) return (int32_t)i;
    return -1;
}

const iq_q3_shader *iq_shader_find_in(const iq_shader_script *const *scripts, uint32_t count, const char *name, uint32_t *which) {
    for (uint32_t s = 0; scripts && s < count; s++) {
        int32_t i = iq_shader_find(scripts[s], name);
        if (i >= 0) {
            if (which) *which = s;
            return &scripts[s]->shaders[i];
        }
    }
    return NULL;
}

const char *iq_shader_sort_name(float sort) {
#define IQ_X(name, word, value) if (sort == value) return word;
    IQ_SHADER_SORTS(IQ_X)
#undef IQ_X
    if (sort == IQ_SORT_BLEND0) return "blend0";
    return NULL;
}
