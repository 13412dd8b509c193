/* What the shader-script reader's files share (not part of the public API).
 * iq_q3lex.c (shared with animation.cfg and .skin) turns text into tokens;
 * iq_shader_args.c reads a keyword's arguments (words, numbers, vectors,
 * waves), keeps strings and notes;
 * iq_shader_stage.c reads a stage's keywords; iq_shader.c reads the
 * shader-level keywords, settles what Quake 3's FinishShader settles, and is
 * the entry (iq_shader_parse); iq_shader_names.c finds blocks by name.
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
#ifndef IQ_SHADER_INTERNAL_H
#define IQ_SHADER_INTERNAL_H

#include "quake3/iq_shader.h"
#include "quake3/iq_q3lex.h"

/* Tokens come from iq_q3lex.c (IQI_Q3LEX_CR_BREAKS | IQI_Q3LEX_BRACES, at most
 * IQ_SHADER_MAX_TOKEN characters); the short names are this reader's. */
typedef iqi_q3lexer lexer;
typedef iqi_q3token token;

typedef struct parser {
    lexer lx;
    iqi_ctx *ctx;
    iq_shader_script *script;
    size_t shader_capacity;
    char *pool, *pool_end, *pool_at;   /* every string; sized so that it cannot run out */
    iq_q3_shader *shader;                 /* the one being read */
    char buf[48];
} parser;

/* -- Arguments, strings and notes (iq_shader_args.c) */

/* A copy of the token in the pool (which cannot run out: see its size there). */
const char *iqi_shader_store(parser *ps, const token *t);
void iqi_shader_note(parser *ps, iq_shader_note_kind kind, const token *keyword, const char *fmt, ...) IQI_PRINTF(4, 5);
/* Skips what is left of the line up to a '{' or '}' (a block's brace is never
 * an argument); its words joined by spaces go to rest (64 bytes) when given. */
int iqi_shader_skip_line(parser *ps, char *rest);
/* Notes a keyword we do not know (`where`: "in a stage", ...) and skips its line. */
int iqi_shader_unknown_keyword(parser *ps, const token *t, const char *where);
/* The next word on the keyword's line, or an error naming what was expected. */
int iqi_shader_need(parser *ps, const token *keyword, token *t, const char *what);
/* A number as Quake 3's atof reads it (iq_shader_args.c says what fails). */
int iqi_shader_number(parser *ps, const token *keyword, const token *t, float *out);
int iqi_shader_need_numbers(parser *ps, const token *keyword, float *out, int count, const char *what);
/* ( a b c ): the parentheses are words of their own, as Quake 3 wants them. */
int iqi_shader_need_vector(parser *ps, const token *keyword, float *out, int count);
/* func base amplitude phase frequency */
int iqi_shader_need_wave(parser *ps, const token *keyword, iq_shader_wave *w);

/* -- Stages (iq_shader_stage.c) */

/* Reads a stage after its '{' (open) up to its '}', Quake 3's defaults included. */
int iqi_shader_parse_stage(parser *ps, iq_shader_stage *st, const token *open);

#endif
