/* What a line-based text format reader needs (IQE today): scratch arrays
 * counted against the model's memory budget, a tokenizer over the current
 * line, locale-free numbers, and errors that quote the token at fault with
 * its line and column. Not part of the public API. */
#ifndef IQ_TEXT_H
#define IQ_TEXT_H

#include "base/iq_internal.h"

/* The reader's position: the whole text, the current line and a cursor in it.
 * `scratch` is what the reader's grow arrays hold, counted with the arena
 * against the model's budget. */
typedef struct iqi_text {
    iqi_ctx *ctx;
    const char *text, *end;
    const char *line_start, *line_end, *cursor;
    uint32_t line;
    size_t scratch; /* bytes held by grow arrays */
} iqi_text;

// -- Scratch arrays: realloc-grown, counted against the arena's budget

typedef struct iqi_grow {
    uint8_t *data;
    size_t len, cap; /* bytes */
} iqi_grow;

/* `bytes` more zeroed bytes at the end of g, or NULL with a 'limit' or
 * 'out_of_memory' error (at the current line) naming `what`. */
void *iqi_grow_push(iqi_text *tx, iqi_grow *g, size_t bytes, const char *what);
/* Frees g and takes its capacity off tx->scratch. */
void iqi_grow_release(iqi_text *tx, iqi_grow *g);

#define IQI_GROW_COUNT(g, type) ((uint32_t)((g).len / sizeof(type)))
#define IQI_GROW_AT(g, type, i) (((type *)(g).data) + (i))

// -- Tokens

typedef struct iqi_token {
    const char *s;
    size_t len;
    uint32_t column;
    int quoted;
} iqi_token;

/* Quotes a token for a message: at most 40 bytes, with "..." when cut. */
#define IQI_TOKFMT "'%.*s%s'"
#define IQI_TOKARG(t) (int)((t)->len > 40 ? 40 : (t)->len), (t)->s, ((t)->len > 40 ? "..." : "")

/* Fails at the token's line and column: "<what>: '<token>' <why>". Returns 0. */
int iqi_fail_tok(iqi_text *tx, iq_error_code code, const iqi_token *t, const char *what, const char *why);

/* The next token of the current line: 1 and *t, 0 at the end of the line (a
 * bare token starting with '#' begins a trailing comment), -1 on a bad quote. */
int iqi_next_token(iqi_text *tx, iqi_token *t);
/* An unquoted token equal to `word`. */
int iqi_tok_is(const iqi_token *t, const char *word);
/* A token equal to lowercase `word`, ignoring ASCII case (quoted or not). */
int iqi_tok_is_nocase(const iqi_token *t, const char *word);

// -- Numbers (a fast path for the decimal forms exporters write; no locale)

enum { IQI_NUM_OK = 0, IQI_NUM_BAD, IQI_NUM_NONFINITE };
/* A decimal number: IQI_NUM_OK and *out, IQI_NUM_BAD when the token is not a
 * number, IQI_NUM_NONFINITE for inf/nan or a value past double. */
int iqi_tok_double(const iqi_token *t, double *out);
/* A decimal integer (sign allowed) that fits int64: 1 and *out, or 0. */
int iqi_tok_int(const iqi_token *t, int64_t *out);

/* Reads up to max numbers of the current line into out (already holding the
 * defaults). Returns how many were given, or -1 after an error. Non-finite
 * values fail with 'bad_value' unless *nonfinite is given to count them. */
int iqi_read_floats(iqi_text *tx, const char *what, double *out, int max, int *nonfinite);
/* A name argument: quoted or bare; absent gives "" (and *given 0). Stored in
 * the arena; NULL after an error. */
const char *iqi_read_name(iqi_text *tx, const char *what, int *given);
/* 1 when the line has no more tokens; else fails on the extra one. */
int iqi_expect_end(iqi_text *tx, const char *what);

#endif
