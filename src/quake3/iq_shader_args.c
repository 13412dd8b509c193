/* Shader scripts, a keyword's arguments: the words on its line, numbers as
 * Quake 3's atof reads them, vectors and waves; the string pool and the notes
 * (what was not understood, ignored or over a limit). */
#include "quake3/iq_shader_internal.h"
#include <ctype.h>
#include <stdio.h>

/* A copy of the token in the pool. A token is stored at most twice (a shader
 * name is also a note's keyword when the shader has no stages), each copy
 * L + 1 <= 2L bytes, so 4 * size + 16 bytes always suffice. */
const char *iqi_shader_store(parser *ps, const token *t) {
    char *s = ps->pool_at;
    if ((size_t)(ps->pool_end - s) < t->length + 1) return ""; /* cannot happen: see the pool's size */
    memcpy(s, t->text, t->length);
    s[t->length] = 0;
    ps->pool_at += t->length + 1;
    return s;
}

void iqi_shader_note(parser *ps, iq_shader_note_kind kind, const token *keyword, const char *fmt, ...) {
    iq_shader_script *sc = ps->script;
    if (sc->note_count < UINT32_MAX) sc->note_count++;
    if (sc->notes_kept == IQ_SHADER_MAX_NOTES) return;
    iq_shader_note *n = &sc->notes[sc->notes_kept++];
    n->keyword = iqi_shader_store(ps, keyword);
    n->kind = kind;
    n->shader = sc->shader_count ? sc->shader_count - 1 : 0;
    n->line = keyword->line;
    n->column = keyword->column;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(n->detail, sizeof n->detail, fmt, ap);
    va_end(ap);
}

int iqi_shader_skip_line(parser *ps, char *rest) {
    size_t used = 0;
    token t;
    int r;
    for (;;) {
        lexer before = ps->lx;
        if ((r = iqi_q3lex_next(&ps->lx, &t, 1)) <= 0) break;
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

int iqi_shader_unknown_keyword(parser *ps, const token *t, const char *where) {
    char rest[64];
    if (!iqi_shader_skip_line(ps, rest)) return 0;
    iqi_shader_note(ps, IQ_NOTE_UNKNOWN_KEYWORD, t, "%s%s%s", where, rest[0] ? ": " : "", rest);
    return 1;
}

int iqi_shader_need(parser *ps, const token *keyword, token *t, const char *what) {
    int r = iqi_q3lex_next(&ps->lx, t, 1);
    if (r > 0) return 1;
    if (r < 0) return 0;
    return iqi_fail_at_line(ps->ctx, IQ_ERROR_SYNTAX, keyword->line, keyword->column, "%s: %s is missing on its line",
                            iqi_q3_shown(keyword, ps->buf), what);
}

/* A number as Quake 3's atof reads it: a token with trailing letters
 * ("0.5f") keeps its leading number and is noted; one that does not start
 * like a number, or is not finite, or is beyond IQ_SHADER_MAX_VALUE, fails. */
int iqi_shader_number(parser *ps, const token *keyword, const token *t, float *out) {
    char text[64], buf[48];
    size_t n = t->length < sizeof text - 1 ? t->length : sizeof text - 1;
    memcpy(text, t->text, n);
    text[n] = 0;
    char *end = text;
    double v = 0;
    if (n && strchr("+-.0123456789", text[0])) v = strtod(text, &end);
    if (end == text || (n >= 2 && (text[1] == 'x' || text[1] == 'X' || text[2] == 'x' || text[2] == 'X')))
        return iqi_fail_at_line(ps->ctx, IQ_ERROR_SYNTAX, t->line, t->column, "%s: expected a number, found '%s'",
                                iqi_q3_shown(keyword, ps->buf), iqi_q3_shown(t, buf));
    if (!(fabs(v) <= IQ_SHADER_MAX_VALUE))
        return iqi_fail_at_line(ps->ctx, IQ_ERROR_BAD_VALUE, t->line, t->column, "%s: %s is beyond %g",
                                iqi_q3_shown(keyword, ps->buf), iqi_q3_shown(t, buf), IQ_SHADER_MAX_VALUE);
    if (*end || t->length != n) iqi_shader_note(ps, IQ_NOTE_UNKNOWN_VALUE, t, "read as %g, as Quake 3's atof does", v);
    *out = (float)v;
    return 1;
}

int iqi_shader_need_numbers(parser *ps, const token *keyword, float *out, int count, const char *what) {
    token t;
    for (int i = 0; i < count; i++)
        if (!iqi_shader_need(ps, keyword, &t, what) || !iqi_shader_number(ps, keyword, &t, &out[i])) return 0;
    return 1;
}

int iqi_shader_need_vector(parser *ps, const token *keyword, float *out, int count) {
    token t;
    char buf[48];
    if (!iqi_shader_need(ps, keyword, &t, "'( x y z )'")) return 0;
    if (!(t.length == 1 && t.text[0] == '('))
        return iqi_fail_at_line(ps->ctx, IQ_ERROR_SYNTAX, t.line, t.column, "%s: expected '(', found '%s'",
                                iqi_q3_shown(keyword, ps->buf), iqi_q3_shown(&t, buf));
    if (!iqi_shader_need_numbers(ps, keyword, out, count, "a vector element")) return 0;
    if (!iqi_shader_need(ps, keyword, &t, "')'")) return 0;
    if (!(t.length == 1 && t.text[0] == ')'))
        return iqi_fail_at_line(ps->ctx, IQ_ERROR_SYNTAX, t.line, t.column, "%s: expected ')', found '%s'",
                                iqi_q3_shown(keyword, ps->buf), iqi_q3_shown(&t, buf));
    return 1;
}

int iqi_shader_need_wave(parser *ps, const token *keyword, iq_shader_wave *w) {
    static const char *const names[] = {"sin", "square", "triangle", "sawtooth", "inversesawtooth", "noise"};
    token t;
    if (!iqi_shader_need(ps, keyword, &t, "a wave function")) return 0;
    unsigned k;
    for (k = 0; k < 6 && !iqi_q3_token_is(&t, names[k]); k++) {}
    if (k == 6) iqi_shader_note(ps, IQ_NOTE_UNKNOWN_VALUE, &t, "not a wave function: sin is used, as Quake 3 does");
    w->func = k == 6 ? IQ_WAVE_SIN : IQ_WAVE_SIN + k;
    float v[4];
    if (!iqi_shader_need_numbers(ps, keyword, v, 4, "base, amplitude, phase and frequency")) return 0;
    w->base = v[0];
    w->amplitude = v[1];
    w->phase = v[2];
    w->frequency = v[3];
    return 1;
}
