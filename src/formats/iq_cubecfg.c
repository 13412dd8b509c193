/* Cube 2 / Tesseract / Red Eclipse model .cfg files: commands and words
 * (iq_cubecfg.h has the rules; web/core/modelcfg.js gives them meaning). */
#include "formats/iq_cubecfg.h"
#include "base/iq_internal.h"
#include <stdio.h>
#include <string.h>

typedef struct cursor {
    const char *p;
    uint32_t line, column;
} cursor;

typedef struct parser {
    const char *text;     /* offsets are counted from here */
    iq_cubecfg *out;
    iqi_ctx ctx;
} parser;

static void step(cursor *c) {
    if (*c->p == '\n') { c->line++; c->column = 1; }
    else c->column++;
    c->p++;
}

static int is_space(char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v'; }
static int is_comment(const cursor *c, const char *end) { return c->p + 1 < end && c->p[0] == '/' && c->p[1] == '/'; }

static void skip_line(cursor *c, const char *end) {
    while (c->p < end && *c->p != '\n') step(c);
}

/* Past a string whose opening quote c is on: at its closing quote, or at the
 * line's end when it has none (then *open is set). '^' takes the next
 * character as it is. */
static void skip_string(cursor *c, const char *end, int *open) {
    step(c); /* the opening quote */
    while (c->p < end && *c->p != '"' && *c->p != '\n') {
        if (*c->p == '^' && c->p + 1 < end && c->p[1] != '\n') step(c);
        step(c);
    }
    *open = !(c->p < end && *c->p == '"');
}

static void warn_string(parser *ps, uint32_t line, uint32_t column) {
    if (ps->out->warning_count++ == 0)
        snprintf(ps->out->warning, sizeof ps->out->warning,
                 "line %u, column %u: a string without its closing quote ends at the line's end, as the engines read it", line, column);
}

static const char *closer_name(char ch) { return ch == '[' ? "']'" : "')'"; }

/* From the opening bracket c is on to just past its match: brackets of both
 * kinds nest and must match; strings and comments inside are skipped. */
static int skip_block(parser *ps, cursor *c, const char *end) {
    char stack[IQ_CUBECFG_MAX_DEPTH];
    uint32_t lines[IQ_CUBECFG_MAX_DEPTH], columns[IQ_CUBECFG_MAX_DEPTH];
    int depth = 0;
    for (;;) {
        if (c->p >= end)
            return iqi_fail_at_line(&ps->ctx, IQ_ERROR_SYNTAX, lines[depth - 1], columns[depth - 1],
                                    "'%c' is never closed: missing %s", stack[depth - 1], closer_name(stack[depth - 1]));
        char ch = *c->p;
        if (ch == '[' || ch == '(') {
            if (depth == IQ_CUBECFG_MAX_DEPTH)
                return iqi_fail_at_line(&ps->ctx, IQ_ERROR_LIMIT, c->line, c->column,
                                        "blocks nested more than %d deep", IQ_CUBECFG_MAX_DEPTH);
            stack[depth] = ch;
            lines[depth] = c->line;
            columns[depth] = c->column;
            depth++;
            step(c);
        } else if (ch == ']' || ch == ')') {
            char want = ch == ']' ? '[' : '(';
            if (stack[depth - 1] != want)
                return iqi_fail_at_line(&ps->ctx, IQ_ERROR_SYNTAX, c->line, c->column,
                                        "'%c' closes the '%c' of line %u, column %u", ch, stack[depth - 1],
                                        lines[depth - 1], columns[depth - 1]);
            step(c);
            if (--depth == 0) return 1;
        } else if (ch == '"') {
            int open; /* a string left open is warned about when the block's inside is parsed */
            skip_string(c, end, &open);
            if (!open) step(c);
        } else if (is_comment(c, end)) {
            skip_line(c, end);
        } else {
            step(c);
        }
    }
}

static int add_word(parser *ps, int32_t *command, int32_t parent, const cursor *at, const char *start, size_t length,
                    iq_cubecfg_kind kind) {
    iq_cubecfg *out = ps->out;
    if (*command < 0) {
        if (out->command_count == IQ_CUBECFG_MAX_COMMANDS)
            return iqi_fail_at_line(&ps->ctx, IQ_ERROR_LIMIT, at->line, at->column, "more than %d commands", IQ_CUBECFG_MAX_COMMANDS);
        *command = (int32_t)out->command_count++;
        iq_cubecfg_command *cmd = &out->commands[*command];
        cmd->parent = parent;
        cmd->line = at->line;
        cmd->column = at->column;
        cmd->word_count = 0;
    }
    if (out->word_count == IQ_CUBECFG_MAX_WORDS)
        return iqi_fail_at_line(&ps->ctx, IQ_ERROR_LIMIT, at->line, at->column, "more than %d words", IQ_CUBECFG_MAX_WORDS);
    iq_cubecfg_word *w = &out->words[out->word_count++];
    w->offset = (uint32_t)(start - ps->text);
    w->length = (uint32_t)length;
    w->line = at->line;
    w->column = at->column;
    w->kind = (uint32_t)kind;
    w->command = (uint32_t)*command;
    out->commands[*command].word_count++;
    return 1;
}

/* The commands of [c->p, end): the whole text, or a block's inside (parent:
 * that block's word). */
static int parse_commands(parser *ps, cursor c, const char *end, int32_t parent, int depth) {
    int32_t command = -1;
    while (c.p < end) {
        char ch = *c.p;
        if (ch == '\n' || ch == ';') { command = -1; step(&c); continue; }
        if (is_space(ch)) { step(&c); continue; }
        if (is_comment(&c, end)) { skip_line(&c, end); continue; }
        cursor at = c;
        if (ch == '"') {
            int open;
            skip_string(&c, end, &open);
            if (open) warn_string(ps, at.line, at.column);
            if (!add_word(ps, &command, parent, &at, at.p + 1, (size_t)(c.p - at.p - 1), IQ_CUBECFG_STRING)) return 0;
            if (!open) step(&c);
        } else if (ch == '[' || ch == '(') {
            if (!skip_block(ps, &c, end)) return 0;
            if (!add_word(ps, &command, parent, &at, at.p + 1, (size_t)(c.p - at.p - 2), ch == '[' ? IQ_CUBECFG_BLOCK : IQ_CUBECFG_EXPR))
                return 0;
            if (depth + 1 >= IQ_CUBECFG_MAX_DEPTH)
                return iqi_fail_at_line(&ps->ctx, IQ_ERROR_LIMIT, at.line, at.column, "blocks nested more than %d deep", IQ_CUBECFG_MAX_DEPTH);
            cursor inside = at;
            step(&inside);
            if (!parse_commands(ps, inside, c.p - 1, (int32_t)(ps->out->word_count - 1), depth + 1)) return 0;
        } else if (ch == ']' || ch == ')') {
            return iqi_fail_at_line(&ps->ctx, IQ_ERROR_SYNTAX, c.line, c.column, "'%c' closes nothing", ch);
        } else {
            while (c.p < end && !is_space(*c.p) && !strchr("\n;\"[]()", *c.p) && !is_comment(&c, end)) step(&c);
            if (!add_word(ps, &command, parent, &at, at.p, (size_t)(c.p - at.p), IQ_CUBECFG_WORD)) return 0;
        }
    }
    return 1;
}

static int parse_cubecfg(const void *text, size_t size, iq_cubecfg *out, iq_error *error) {
    parser ps;
    memset(&ps, 0, sizeof ps);
    ps.ctx.error = error;
    if (!out || (!text && size)) return iqi_fail(&ps.ctx, IQ_ERROR_INVALID_ARGUMENT, -1, "NULL text or result");
    out->word_count = out->command_count = out->warning_count = 0;
    out->warning[0] = '\0';
    if (size > IQ_CUBECFG_MAX_BYTES)
        return iqi_fail(&ps.ctx, IQ_ERROR_LIMIT, -1, "%zu bytes; a model cfg may have at most %u", size, IQ_CUBECFG_MAX_BYTES);
    const char *start = text ? (const char *)text : "";
    const char *nul = size ? memchr(start, 0, size) : NULL;
    ps.text = start;
    ps.out = out;
    cursor c = { start, 1, 1 };
    if (!parse_commands(&ps, c, nul ? nul : start + size, -1, 0)) {
        out->word_count = out->command_count = 0;
        return 0;
    }
    return 1;
}

iq_error_code iq_cubecfg_parse(const void *text, size_t size, iq_cubecfg *out, iq_error *error) {
    iq_error local;
    error = iqi_error_reset(error, &local);
    return iqi_result(parse_cubecfg(text, size, out, error), error);
}
