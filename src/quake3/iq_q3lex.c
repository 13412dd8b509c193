/* Quake 3's text files as tokens (iq_q3lex.h): words, "quoted strings" and,
 * for shader scripts, braces, with the line and column of each. */
#include "quake3/iq_q3lex.h"
#include <ctype.h>

void iqi_q3lex_init(iqi_q3lexer *lx, iqi_ctx *ctx, const void *text, size_t size, unsigned flags, size_t max_token) {
    const char *t = text;
    const char *nul = size ? memchr(t, 0, size) : NULL;
    lx->p = t;
    lx->end = nul ? nul : t + size;
    lx->line = lx->column = 1;
    lx->flags = flags;
    lx->max_token = max_token;
    lx->ctx = ctx;
}

/* A line ends at \n (so \r\n too) and, with IQI_Q3LEX_CR_BREAKS, a lone \r. */
static int at_line_break(const iqi_q3lexer *lx) {
    return *lx->p == '\n' ||
           ((lx->flags & IQI_Q3LEX_CR_BREAKS) && *lx->p == '\r' && !(lx->p + 1 < lx->end && lx->p[1] == '\n'));
}

void iqi_q3lex_advance(iqi_q3lexer *lx) {
    if (at_line_break(lx)) {
        lx->line++;
        lx->column = 1;
    } else {
        lx->column++;
    }
    lx->p++;
}

static int at_comment(const iqi_q3lexer *lx) {
    return lx->p + 1 < lx->end && lx->p[0] == '/' && (lx->p[1] == '/' || lx->p[1] == '*');
}

/* Skips whitespace and comments; *newline is set when a line break was
 * passed. Returns 0 (with an error) for an unterminated block comment, which
 * in the game silently swallows the rest of the file. */
static int skip_space(iqi_q3lexer *lx, int *newline) {
    for (;;) {
        while (lx->p < lx->end && (unsigned char)*lx->p <= ' ') {
            if (at_line_break(lx)) *newline = 1;
            iqi_q3lex_advance(lx);
        }
        if (!at_comment(lx)) return 1;
        if (lx->p[1] == '/') {
            while (lx->p < lx->end && !at_line_break(lx)) iqi_q3lex_advance(lx);
            continue;
        }
        uint32_t line = lx->line, column = lx->column;
        iqi_q3lex_advance(lx);
        iqi_q3lex_advance(lx);
        while (lx->p < lx->end && !(lx->p[0] == '*' && lx->p + 1 < lx->end && lx->p[1] == '/')) {
            if (at_line_break(lx)) *newline = 1;
            iqi_q3lex_advance(lx);
        }
        if (lx->p >= lx->end) return iqi_fail_at_line(lx->ctx, IQ_ERROR_SYNTAX, line, column, "a /* comment is never closed");
        iqi_q3lex_advance(lx);
        iqi_q3lex_advance(lx);
    }
}

static int ends_word(const iqi_q3lexer *lx) {
    char c = *lx->p;
    return (unsigned char)c <= ' ' || ((lx->flags & IQI_Q3LEX_BRACES) && (c == '{' || c == '}')) || at_comment(lx) ||
           ((lx->flags & IQI_Q3LEX_COMMA_ENDS_WORD) && c == ',');
}

int iqi_q3lex_next(iqi_q3lexer *lx, iqi_q3token *t, int same_line) {
    iqi_q3lexer before = *lx;
    t->newline_before = 0;
    if (!skip_space(lx, &t->newline_before)) return -1;
    if (lx->p >= lx->end || (same_line && t->newline_before)) {
        if (same_line) *lx = before;
        return 0;
    }
    t->line = lx->line;
    t->column = lx->column;
    t->text = lx->p;
    if ((lx->flags & IQI_Q3LEX_BRACES) && (*lx->p == '{' || *lx->p == '}')) {
        iqi_q3lex_advance(lx);
    } else if (*lx->p == '"') {
        iqi_q3lex_advance(lx);
        t->text = lx->p;
        while (lx->p < lx->end && *lx->p != '"' && !at_line_break(lx)) iqi_q3lex_advance(lx);
        if (lx->p >= lx->end || *lx->p != '"')
            return iqi_fail_at_line(lx->ctx, IQ_ERROR_SYNTAX, t->line, t->column, "a quoted string is not closed on its line") - 1;
        t->length = (size_t)(lx->p - t->text);
        iqi_q3lex_advance(lx);
        goto check;
    } else {
        do {
            iqi_q3lex_advance(lx);
        } while (lx->p < lx->end && !ends_word(lx));
    }
    t->length = (size_t)(lx->p - t->text);
check:
    if (lx->max_token && t->length > lx->max_token)
        return iqi_fail_at_line(lx->ctx, IQ_ERROR_LIMIT, t->line, t->column, "a word of %zu characters; at most %zu are read",
                                t->length, lx->max_token) - 1;
    return 1;
}

int iqi_q3_token_is(const iqi_q3token *t, const char *word) {
    size_t n = strlen(word);
    if (t->length != n) return 0;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)t->text[i]) != tolower((unsigned char)word[i])) return 0;
    return 1;
}

int iqi_q3_token_starts(const iqi_q3token *t, const char *prefix) {
    size_t n = strlen(prefix);
    if (t->length < n) return 0;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)t->text[i]) != prefix[i]) return 0;
    return 1;
}

const char *iqi_q3_shown(const iqi_q3token *t, char buf[48]) {
    size_t n = t->length < 40 ? t->length : 40, i;
    for (i = 0; i < n; i++) buf[i] = isprint((unsigned char)t->text[i]) ? t->text[i] : '?';
    if (t->length > 40) { buf[n++] = '.'; buf[n++] = '.'; buf[n++] = '.'; }
    buf[n] = 0;
    return buf;
}
