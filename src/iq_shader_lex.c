/* Shader scripts, tokens: words, "quoted strings" and braces, with the line
 * and column of each; // and block comments skipped. '{' and '}' are tokens
 * even when glued to a word (docs/SHADERS.md). */
#include "iq_shader_internal.h"
#include <ctype.h>

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

int iqi_shader_next_token(lexer *lx, token *t, int same_line) {
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

int iqi_shader_token_is(const token *t, const char *word) {
    size_t n = strlen(word);
    if (t->length != n) return 0;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)t->text[i]) != tolower((unsigned char)word[i])) return 0;
    return 1;
}

int iqi_shader_token_starts(const token *t, const char *prefix) {
    size_t n = strlen(prefix);
    if (t->length < n) return 0;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)t->text[i]) != prefix[i]) return 0;
    return 1;
}

const char *iqi_shader_shown(const token *t, char buf[48]) {
    size_t n = t->length < 40 ? t->length : 40, i;
    for (i = 0; i < n; i++) buf[i] = isprint((unsigned char)t->text[i]) ? t->text[i] : '?';
    if (t->length > 40) { buf[n++] = '.'; buf[n++] = '.'; buf[n++] = '.'; }
    buf[n] = 0;
    return buf;
}
