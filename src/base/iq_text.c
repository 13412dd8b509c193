/* The text reader (iq_text.h): scratch arrays, tokens and numbers. */
#include "base/iq_text.h"
#include <math.h>
#include <stdlib.h>

// -- Scratch arrays

void *iqi_grow_push(iqi_text *tx, iqi_grow *g, size_t bytes, const char *what) {
    if (g->cap - g->len < bytes) {
        size_t want = g->len + bytes, cap = g->cap ? g->cap : 256;
        while (cap < want) {
            if (cap > SIZE_MAX / 2) { cap = want; break; }
            cap *= 2;
        }
        iqi_arena *a = tx->ctx->arena;
        size_t extra = cap - g->cap;
        if (a->used + tx->scratch > a->budget || extra > a->budget - a->used - tx->scratch) {
            iqi_fail_at_line(tx->ctx, IQ_ERROR_LIMIT, tx->line, 1,
                             "%s needs more than this model's memory budget of %zu bytes", what, a->budget);
            return NULL;
        }
        uint8_t *d = iqi_realloc(g->data, cap);
        if (!d) {
            iqi_fail_at_line(tx->ctx, IQ_ERROR_OUT_OF_MEMORY, tx->line, 1, "out of memory growing %s", what);
            return NULL;
        }
        g->data = d;
        g->cap = cap;
        tx->scratch += extra;
    }
    void *out = g->data + g->len;
    memset(out, 0, bytes);
    g->len += bytes;
    return out;
}

void iqi_grow_release(iqi_text *tx, iqi_grow *g) {
    tx->scratch -= g->cap;
    iqi_free(g->data);
    memset(g, 0, sizeof *g);
}

// -- Errors

int iqi_fail_tok(iqi_text *tx, iq_error_code code, const iqi_token *t, const char *what, const char *why) {
    return iqi_fail_at_line(tx->ctx, code, tx->line, t->column, "%s: " IQI_TOKFMT " %s", what, IQI_TOKARG(t), why);
}

// -- Tokens

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

int iqi_next_token(iqi_text *tx, iqi_token *t) {
    const char *c = tx->cursor, *e = tx->line_end;
    while (c < e && is_space(*c)) c++;
    if (c == e || *c == '#') {
        tx->cursor = e;
        return 0;
    }
    t->column = (uint32_t)(c - tx->line_start) + 1;
    if (*c == '"') {
        const char *q = c + 1;
        while (q < e && *q != '"') q++;
        if (q == e) {
            t->s = c;
            t->len = (size_t)(e - c);
            iqi_fail_tok(tx, IQ_ERROR_SYNTAX, t, "name", "has no closing quote");
            return -1;
        }
        t->s = c + 1;
        t->len = (size_t)(q - c - 1);
        t->quoted = 1;
        tx->cursor = q + 1;
        if (tx->cursor < e && !is_space(*tx->cursor)) {
            iqi_token after = {tx->cursor, 1, (uint32_t)(tx->cursor - tx->line_start) + 1, 0};
            iqi_fail_tok(tx, IQ_ERROR_SYNTAX, &after, "name", "follows a closing quote without a space");
            return -1;
        }
        return 1;
    }
    const char *s = c;
    while (c < e && !is_space(*c)) c++;
    t->s = s;
    t->len = (size_t)(c - s);
    t->quoted = 0;
    tx->cursor = c;
    return 1;
}

int iqi_tok_is(const iqi_token *t, const char *word) {
    size_t n = strlen(word);
    return !t->quoted && t->len == n && memcmp(t->s, word, n) == 0;
}

int iqi_tok_is_nocase(const iqi_token *t, const char *word) {
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

int iqi_tok_double(const iqi_token *t, double *out) {
    const char *s = t->s, *e = s + t->len;
    int neg = 0;
    if (t->quoted || s == e) return IQI_NUM_BAD;
    if (*s == '+' || *s == '-') { neg = *s == '-'; s++; }
    if (s < e && (*s == 'i' || *s == 'I' || *s == 'n' || *s == 'N')) { /* inf / nan: a number, but not a usable one */
        size_t n = (size_t)(e - s);
        iqi_token rest = {s, n, 0, 0};
        if (iqi_tok_is_nocase(&rest, "inf") || iqi_tok_is_nocase(&rest, "infinity") || iqi_tok_is_nocase(&rest, "nan") ||
            (n > 4 && iqi_tok_is_nocase(&(iqi_token){s, 4, 0, 0}, "nan(") && e[-1] == ')'))
            return IQI_NUM_NONFINITE;
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
    if (!any) return IQI_NUM_BAD;
    if (s < e && (*s == 'e' || *s == 'E')) {
        s++;
        int eneg = 0;
        int64_t ev = 0;
        if (s < e && (*s == '+' || *s == '-')) { eneg = *s == '-'; s++; }
        if (s == e || *s < '0' || *s > '9') return IQI_NUM_BAD;
        while (s < e && *s >= '0' && *s <= '9') {
            if (ev < 100000) ev = ev * 10 + (*s - '0');
            s++;
        }
        exp10 += eneg ? -ev : ev;
    }
    if (s != e) return IQI_NUM_BAD;
    double v = (double)mant;
    if (mant == 0) v = 0;
    else if (exp10 >= 0 && exp10 <= 22) v *= pow10_table[exp10];
    else if (exp10 < 0 && exp10 >= -22) v /= pow10_table[-exp10];
    else if (exp10 > 400) v = HUGE_VAL;
    else if (exp10 < -400) v = 0;
    else v *= pow(10.0, (double)exp10);
    *out = neg ? -v : v;
    return isfinite(*out) ? IQI_NUM_OK : IQI_NUM_NONFINITE;
}

int iqi_tok_int(const iqi_token *t, int64_t *out) {
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

int iqi_read_floats(iqi_text *tx, const char *what, double *out, int max, int *nonfinite) {
    iqi_token t;
    int n = 0, r;
    while ((r = iqi_next_token(tx, &t)) == 1) {
        if (n == max)
            return iqi_fail_tok(tx, IQ_ERROR_SYNTAX, &t, what, "is one value too many for this command"), -1;
        double v;
        int status = iqi_tok_double(&t, &v);
        if (status == IQI_NUM_BAD) return iqi_fail_tok(tx, IQ_ERROR_SYNTAX, &t, what, "is not a number"), -1;
        if (status == IQI_NUM_NONFINITE) {
            if (!nonfinite) return iqi_fail_tok(tx, IQ_ERROR_BAD_VALUE, &t, what, "is not a finite number"), -1;
            *nonfinite = 1;
            v = 0;
        }
        out[n++] = v;
    }
    return r < 0 ? -1 : n;
}

const char *iqi_read_name(iqi_text *tx, const char *what, int *given) {
    iqi_token t;
    int r = iqi_next_token(tx, &t);
    if (r < 0) return NULL;
    if (given) *given = r == 1;
    if (r == 0) return "";
    if (memchr(t.s, 0, t.len)) return iqi_fail_tok(tx, IQ_ERROR_SYNTAX, &t, what, "contains a NUL byte"), NULL;
    return iqi_strdup_n(tx->ctx, t.s, t.len);
}

int iqi_expect_end(iqi_text *tx, const char *what) {
    iqi_token t;
    int r = iqi_next_token(tx, &t);
    if (r < 0) return 0;
    if (r == 1) return iqi_fail_tok(tx, IQ_ERROR_SYNTAX, &t, what, "is an unexpected extra argument");
    return 1;
}

