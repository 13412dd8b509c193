/* One lexer for Quake 3's text files (not part of the public API): the
 * player's animation.cfg and .skin (iq_q3text.c, as COM_Parse and CommaParse
 * read them) and shader scripts (iq_shader_*.c, as COM_ParseExt does).
 * Words are separated by whitespace, "quoted strings" end on their line, //
 * and block comments are skipped, and a NUL byte ends the text as it does in
 * the game. What differs between the callers are the IQI_Q3LEX_* flags and
 * the longest token. */
#ifndef IQ_Q3LEX_H
#define IQ_Q3LEX_H

#include "base/iq_internal.h"

#define IQI_Q3LEX_CR_BREAKS 1u       /* a lone \r ends a line too (old Mac files: OpenArena ships shader scripts so) */
#define IQI_Q3LEX_BRACES 2u          /* '{' and '}' are tokens even when glued to a word (docs/SHADERS.md) */
#define IQI_Q3LEX_COMMA_ENDS_WORD 4u /* skins: "surface,shader" */

typedef struct iqi_q3lexer {
    const char *p, *end;        /* end: the size given, or the first NUL before it (as the game reads it) */
    uint32_t line, column;      /* of p, 1-based */
    unsigned flags;             /* IQI_Q3LEX_* */
    size_t max_token;           /* a longer token fails (IQ_ERROR_LIMIT); 0: no limit */
    iqi_ctx *ctx;
} iqi_q3lexer;

typedef struct iqi_q3token {
    const char *text;           /* a quoted string's without its quotes */
    size_t length;
    uint32_t line, column;      /* of its first character (a quoted string's opening quote) */
    int newline_before;         /* a line break (or a comment holding one) came before it */
} iqi_q3token;

void iqi_q3lex_init(iqi_q3lexer *lx, iqi_ctx *ctx, const void *text, size_t size, unsigned flags, size_t max_token);
/* The next word or quoted string: 1, 0 at the end of the text (or, with
 * same_line, at the end of the line: nothing is consumed then), -1 on error
 * (an unclosed comment or string, a token over max_token). A word ends at
 * whitespace, at a comment (cgame would keep "25//x" as one word and read 25:
 * the same number), and by the flags at a brace or a comma. */
int iqi_q3lex_next(iqi_q3lexer *lx, iqi_q3token *t, int same_line);
/* Steps over one byte, counting lines and columns. */
void iqi_q3lex_advance(iqi_q3lexer *lx);
int iqi_q3_token_is(const iqi_q3token *t, const char *word);       /* any case */
int iqi_q3_token_starts(const iqi_q3token *t, const char *prefix); /* any case; prefix in lowercase */
/* A token quoted for messages: at most 40 characters, non-printing bytes as '?'. */
const char *iqi_q3_shown(const iqi_q3token *t, char buf[48]);

#endif
