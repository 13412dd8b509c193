/* interquake: the model .cfg files of Cube 2 (Sauerbraten), Tesseract and Red
 * Eclipse (iqm.cfg, md5.cfg, md3.cfg, ... beside a model), split into commands
 * and words as the engines' CubeScript reader splits them.
 *
 * This is the syntax only: which commands mean what (iqmskin, md5anim, exec,
 * if ...) is read by web/core/modelcfg.js (docs/MODELCFG.md). The rules follow
 * Cube 2's and Tesseract's command.cpp:
 *   - a command is words up to a line end or ';';
 *   - a word is a bare word, a "string" (the character after '^' is taken as
 *     it is, so ^" does not end it; a string the line ends before its closing
 *     quote ends there, as the engines accept it, with a warning), a [block]
 *     or an (expression), whose brackets nest and whose text is parsed into
 *     commands of its own (their `parent` is the block's word);
 *   - '//' starts a comment to the line's end (outside strings);
 *   - a ']' or ')' that closes nothing, and a '[' or '(' never closed, are
 *     syntax errors at their line and column (the engines report them too).
 * Fixed-size results: no allocation. */
#ifndef IQ_CUBECFG_H
#define IQ_CUBECFG_H

#include "interquake.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IQ_CUBECFG_MAX_BYTES (1u << 20)  /* Red Eclipse's longest model cfg is 6 KB */
#define IQ_CUBECFG_MAX_WORDS 16384
#define IQ_CUBECFG_MAX_COMMANDS 8192
#define IQ_CUBECFG_MAX_DEPTH 32          /* blocks inside blocks */

typedef enum iq_cubecfg_kind {
    IQ_CUBECFG_WORD = 0,   /* a bare word */
    IQ_CUBECFG_STRING = 1, /* "a string": the text between the quotes, as written (^ escapes kept) */
    IQ_CUBECFG_BLOCK = 2,  /* [a block]: the text between the brackets */
    IQ_CUBECFG_EXPR = 3    /* (an expression): the text between the parentheses */
} iq_cubecfg_kind;

typedef struct iq_cubecfg_word {
    uint32_t offset, length;   /* the word's text in the input (see iq_cubecfg_kind) */
    uint32_t line, column;     /* of its first character (a string's or block's opening mark) */
    uint32_t kind;             /* iq_cubecfg_kind */
    uint32_t command;          /* the command it belongs to */
} iq_cubecfg_word;

typedef struct iq_cubecfg_command {
    int32_t parent;            /* the block or expression word it is inside, -1 at the top */
    uint32_t line, column;     /* of its first word */
    uint32_t word_count;       /* its words are the words whose `command` is this one, in order */
} iq_cubecfg_command;

typedef struct iq_cubecfg {
    uint32_t word_count, command_count;
    uint32_t warning_count;    /* strings that ran to their line's end */
    char warning[160];         /* the first warning */
    iq_cubecfg_word words[IQ_CUBECFG_MAX_WORDS];
    iq_cubecfg_command commands[IQ_CUBECFG_MAX_COMMANDS];
} iq_cubecfg;

/* Splits a model cfg into commands and words. A NUL byte ends the text, as in
 * the engines. Returns 1, or 0 with *error filled (code 'syntax' or 'limit',
 * line and column set; 'invalid_argument' for NULL arguments). */
iq_error_code iq_cubecfg_parse(const void *text, size_t size, iq_cubecfg *out, iq_error *error);

#ifdef __cplusplus
}
#endif
#endif
