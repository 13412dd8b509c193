/* The text files of a Quake 3 player: animation.cfg and .skin.
 *
 * Both are read the way Quake 3 tokenizes them (COM_Parse for animation.cfg,
 * CommaParse for skins): whitespace-separated words, "quoted strings", // and
 * block comments; a NUL byte ends the text as it does in the game. Where the
 * game silently does something harmful (a frame time of 0 ms that divides by
 * zero, a token it cannot read as a number) we report an error with a line
 * and column instead; where it merely tolerates an oddity we load and count a
 * warning. The deliberate differences are listed in docs/API-q3.md. */
#include "quake3/iq_quake3.h"
#include "quake3/iq_q3lex.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* The lexer is iq_q3lex.c's; the short names are this file's. */
typedef iqi_q3lexer lexer;
typedef iqi_q3token token;

// -- animation.cfg

static const char *const animation_names[IQ_Q3_ANIMATION_COUNT] = {
#define IQ_X(name) #name,
    IQ_Q3_ANIMATIONS(IQ_X)
#undef IQ_X
};

const char *iq_q3_animation_name(unsigned id) { return id < IQ_Q3_ANIMATION_COUNT ? animation_names[id] : NULL; }

#define CFG_MAX_FRAME 1000000 /* far past MD3's 1024 frames; keeps every sum in int32 */

static void cfg_warn(iq_q3_config *out, const char *fmt, ...) IQI_PRINTF(2, 3);
static void cfg_warn(iq_q3_config *out, const char *fmt, ...) {
    if (out->warning_count++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(out->warning, sizeof out->warning, fmt, ap);
        va_end(ap);
    }
}

/* A whole token as an integer: [+-]digits, |value| <= CFG_MAX_FRAME. */
static int parse_int(iqi_ctx *ctx, const token *t, const char *what, unsigned entry, int32_t *out) {
    char buf[48];
    size_t i = 0;
    int negative = 0;
    int64_t value = 0;
    if (t->length && (t->text[0] == '-' || t->text[0] == '+')) negative = t->text[i++] == '-';
    if (i == t->length) goto bad;
    for (; i < t->length; i++) {
        if (t->text[i] < '0' || t->text[i] > '9') goto bad;
        value = value * 10 + (t->text[i] - '0');
        if (value > CFG_MAX_FRAME)
            return iqi_fail_at_line(ctx, IQ_ERROR_LIMIT, t->line, t->column, "%s %s: %s is over the limit of %d",
                                    animation_names[entry], what, iqi_q3_shown(t, buf), CFG_MAX_FRAME);
    }
    *out = (int32_t)(negative ? -value : value);
    return 1;
bad:
    return iqi_fail_at_line(ctx, IQ_ERROR_SYNTAX, t->line, t->column, "%s %s: expected a whole number, found '%s'",
                            animation_names[entry], what, iqi_q3_shown(t, buf));
}

/* A whole token as a decimal number (no inf, nan or hex). */
static int parse_number(const token *t, double *out) {
    char buf[64];
    if (t->length == 0 || t->length >= sizeof buf) return 0;
    for (size_t i = 0; i < t->length; i++)
        if (!strchr("+-.0123456789eE", t->text[i])) return 0;
    memcpy(buf, t->text, t->length);
    buf[t->length] = 0;
    char *end;
    *out = strtod(buf, &end);
    return *end == 0 && end != buf && *out - *out == 0;
}

/* The optional keywords before the table. Leaves the lexer before the first
 * token that starts with a digit (cgame "ungets" it the same way). */
static int cfg_keywords(lexer *lx, iq_q3_config *out, token *first) {
    char buf[48];
    for (;;) {
        lexer before = *lx;
        int r = iqi_q3lex_next(lx, first, 0);
        if (r <= 0) {
            *lx = before;
            return r == 0 ? 1 : 0;
        }
        if (first->text[0] >= '0' && first->text[0] <= '9') {
            *lx = before;
            return 1;
        }
        token value;
        if (iqi_q3_token_is(first, "footsteps")) {
            static const char *const kinds[] = {"normal", "boot", "flesh", "mech", "energy"};
            if ((r = iqi_q3lex_next(lx, &value, 0)) <= 0) return r == 0;
            if (iqi_q3_token_is(&value, "default")) { out->footsteps = IQ_Q3_FOOTSTEPS_NORMAL; continue; }
            unsigned k;
            for (k = 0; k < 5 && !iqi_q3_token_is(&value, kinds[k]); k++) {}
            if (k < 5) out->footsteps = k;
            else cfg_warn(out, "line %u: unknown footsteps '%s' ignored", value.line, iqi_q3_shown(&value, buf));
        } else if (iqi_q3_token_is(first, "headoffset")) {
            for (int i = 0; i < 3; i++) {
                double v;
                if ((r = iqi_q3lex_next(lx, &value, 0)) <= 0) return r == 0;
                if (!parse_number(&value, &v) || v > 1e6 || v < -1e6)
                    return iqi_fail_at_line(lx->ctx, IQ_ERROR_SYNTAX, value.line, value.column,
                                            "headoffset: expected 3 numbers, found '%s'", iqi_q3_shown(&value, buf));
                out->head_offset[i] = (float)v;
            }
        } else if (iqi_q3_token_is(first, "sex")) {
            if ((r = iqi_q3lex_next(lx, &value, 0)) <= 0) return r == 0;
            char c = (char)tolower((unsigned char)value.text[0]);
            out->sex = value.length == 0 ? 'm' : (c == 'f' || c == 'n') ? (uint32_t)c : 'm';
        } else if (iqi_q3_token_is(first, "fixedlegs")) {
            out->fixed_legs = 1;
        } else if (iqi_q3_token_is(first, "fixedtorso")) {
            out->fixed_torso = 1;
        } else {
            cfg_warn(out, "line %u: unknown word '%s' ignored", first->line, iqi_q3_shown(first, buf));
        }
    }
}

/* Reads one "first count loop fps" entry. Returns 1, 0 on error, or 2 when
 * the text ends before the entry begins. */
static int cfg_entry(lexer *lx, iq_q3_config *out, unsigned i) {
    static const char *const fields[4] = {"first frame", "frame count", "looping frames", "frames per second"};
    token t[4];
    char buf[48];
    for (int k = 0; k < 4; k++) {
        int r = iqi_q3lex_next(lx, &t[k], 0);
        if (r < 0) return 0;
        if (r == 0) {
            if (k == 0) return 2;
            return iqi_fail_at_line(lx->ctx, IQ_ERROR_TRUNCATED, lx->line, lx->column,
                                    "%s: the file ends before its %s (an entry is: first frame, frame count, "
                                    "looping frames, frames per second)", animation_names[i], fields[k]);
        }
    }
    iq_q3_animation *a = &out->animations[i];
    int32_t first, count, loop;
    double fps;
    if (!parse_int(lx->ctx, &t[0], fields[0], i, &first) || !parse_int(lx->ctx, &t[1], fields[1], i, &count) ||
        !parse_int(lx->ctx, &t[2], fields[2], i, &loop))
        return 0;
    if (!parse_number(&t[3], &fps))
        return iqi_fail_at_line(lx->ctx, IQ_ERROR_SYNTAX, t[3].line, t[3].column,
                                "%s frames per second: expected a number, found '%s'", animation_names[i], iqi_q3_shown(&t[3], buf));
    if (loop < 0)
        return iqi_fail_at_line(lx->ctx, IQ_ERROR_BAD_VALUE, t[2].line, t[2].column,
                                "%s: %d looping frames; the count cannot be negative", animation_names[i], loop);
    if (fps == 0) fps = 1; /* cgame's rule */
    /* 1000/fps must be a whole number of milliseconds of at least 1: cgame
     * divides by it, so fps over 1000 would crash the game. */
    if (fps < 0.001 || fps > 1000)
        return iqi_fail_at_line(lx->ctx, IQ_ERROR_BAD_VALUE, t[3].line, t[3].column,
                                "%s: %g frames per second; it must be between 0.001 and 1000", animation_names[i], fps);
    a->first_frame = first;
    a->reversed = count < 0;
    a->frame_count = (uint32_t)(count < 0 ? -count : count);
    a->loop_frames = (uint32_t)loop;
    a->fps = (float)fps;
    a->frame_lerp = (uint32_t)(1000.0 / fps);
    a->from_file = 1;
    a->line = t[0].line;
    if (a->loop_frames > a->frame_count) {
        cfg_warn(out, "line %u: %s loops %u frames of %u; looping all of them", a->line, animation_names[i],
                 a->loop_frames, a->frame_count);
        a->loop_frames = a->frame_count;
    }
    if (a->frame_count == 0) cfg_warn(out, "line %u: %s has no frames; it shows its first frame", a->line, animation_names[i]);
    return 1;
}

static int parse_animation_cfg(const void *text, size_t size, iq_q3_config *out, iq_error *error) {
    iq_error local;
    iqi_ctx ctx;
    lexer lx;
    token first;
    error = iqi_error_reset(error, &local);
    memset(&ctx, 0, sizeof ctx);
    ctx.error = error;
    if (!out || (!text && size)) return iqi_fail(&ctx, IQ_ERROR_INVALID_ARGUMENT, -1, "NULL text or result");
    memset(out, 0, sizeof *out);
    out->sex = 'm';
    if (size > IQ_Q3_CFG_MAX_BYTES)
        return iqi_fail(&ctx, IQ_ERROR_LIMIT, -1,
                        "animation.cfg has %zu bytes; Quake 3 refuses files over %d bytes", size, IQ_Q3_CFG_MAX_BYTES);
    iqi_q3lex_init(&lx, &ctx, text, size, 0, 0);
    if (!cfg_keywords(&lx, out, &first)) return 0;

    unsigned i;
    for (i = 0; i < IQ_Q3_TABLE_ENTRIES; i++) {
        int r = cfg_entry(&lx, out, i);
        if (r == 0) return 0;
        if (r == 2) break;
        /* lower.md3 stores BOTH_* then LEGS_* frames; the table numbers LEGS_*
         * as if the torso-only frames were there too. */
        if (i == IQ_Q3_LEGS_WALKCR)
            out->legs_skip = out->animations[IQ_Q3_LEGS_WALKCR].first_frame - out->animations[IQ_Q3_TORSO_GESTURE].first_frame;
        if (i >= IQ_Q3_LEGS_WALKCR && i <= IQ_Q3_LEGS_TURN) out->animations[i].first_frame -= out->legs_skip;
    }
    if (i < IQ_Q3_REQUIRED_ENTRIES)
        return iqi_fail_at_line(&ctx, IQ_ERROR_BAD_ANIMATION, lx.line, lx.column,
                                "the animation table has %u entries; Quake 3 needs at least %d (BOTH_DEATH1 .. "
                                "LEGS_TURN), the next one would be %s",
                                i, IQ_Q3_REQUIRED_ENTRIES, animation_names[i]);
    out->table_entries = i;
    for (; i < IQ_Q3_TABLE_ENTRIES; i++) { /* Team Arena entries default to TORSO_GESTURE */
        out->animations[i] = out->animations[IQ_Q3_TORSO_GESTURE];
        out->animations[i].reversed = 0;
        out->animations[i].from_file = 0;
        out->animations[i].line = 0;
    }
    if (out->table_entries == IQ_Q3_TABLE_ENTRIES) {
        token extra;
        int r = iqi_q3lex_next(&lx, &extra, 0);
        if (r < 0) return 0;
        if (r > 0) cfg_warn(out, "line %u: text after the 31st animation was ignored", extra.line);
    }
    iq_q3_animation *backcr = &out->animations[IQ_Q3_LEGS_BACKCR], *backwalk = &out->animations[IQ_Q3_LEGS_BACKWALK];
    *backcr = out->animations[IQ_Q3_LEGS_WALKCR];
    *backwalk = out->animations[IQ_Q3_LEGS_WALK];
    backcr->reversed = backwalk->reversed = 1;
    backcr->from_file = backwalk->from_file = 0;
    backcr->line = backwalk->line = 0;
    return 1;
}

// -- .skin

static int parse_skin(const void *text, size_t size, iq_skin *out, iq_error *error) {
    iq_error local;
    iqi_ctx ctx;
    lexer lx;
    char buf[48];
    error = iqi_error_reset(error, &local);
    memset(&ctx, 0, sizeof ctx);
    ctx.error = error;
    if (!out || (!text && size)) return iqi_fail(&ctx, IQ_ERROR_INVALID_ARGUMENT, -1, "NULL text or result");
    memset(out, 0, sizeof *out);
    iqi_q3lex_init(&lx, &ctx, text, size, IQI_Q3LEX_COMMA_ENDS_WORD, 0);
    uint32_t ignored = 0;
    for (;;) {
        token name, shader;
        int r = iqi_q3lex_next(&lx, &name, 0);
        if (r < 0) return 0;
        if (r == 0) break;
        if (name.length == 0) { /* a "" surface: the game stops reading here */
            if (out->warning_count++ == 0)
                snprintf(out->warning, sizeof out->warning, "line %u: an empty surface name ends the skin", name.line);
            break;
        }
        /* "surface,shader": the comma may have spaces around it */
        while (lx.p < lx.end && (*lx.p == ' ' || *lx.p == '\t')) iqi_q3lex_advance(&lx);
        int comma = lx.p < lx.end && *lx.p == ',';
        if (comma) iqi_q3lex_advance(&lx);
        /* Quake 3 skips any line whose first word holds "tag_" anywhere (case
         * sensitive, on the word as written). It does not read a shader after
         * it, so "tag_x,path" would make "path" the next surface name; we skip
         * the rest of the line instead (see docs/API-q3.md). */
        int is_tag = 0;
        for (size_t k = 0; k + 4 <= name.length && !is_tag; k++) is_tag = memcmp(name.text + k, "tag_", 4) == 0;
        if (is_tag) {
            for (;;) { /* drop the words left on this line */
                lexer before = lx;
                token rest;
                r = iqi_q3lex_next(&lx, &rest, 0);
                if (r < 0) return 0;
                if (r == 0 || rest.newline_before) { lx = before; break; }
            }
            continue;
        }
        /* After a comma the shader is the next word wherever it is, as the
         * game's CommaParse skips line ends: "u_vest," followed by "tag_head,"
         * gives u_vest the shader "tag_head" (shipped OpenArena skins do this).
         * A surface alone on its line, without a comma, gets "" instead (Quake 3
         * would take the next line's first word there too). */
        lexer before = lx;
        r = iqi_q3lex_next(&lx, &shader, 0);
        if (r < 0) return 0;
        if (r == 0 || (shader.newline_before && !comma)) {
            lx = before;
            shader.length = 0;
            shader.text = "";
        } else if (shader.newline_before && out->warning_count++ == 0) {
            char word[48];
            snprintf(out->warning, sizeof out->warning,
                     "line %u: nothing follows '%s,' on its line; its shader is the next word '%s' (line %u), as in Quake 3",
                     name.line, iqi_q3_shown(&name, buf), iqi_q3_shown(&shader, word), shader.line);
        }
        if (name.length >= IQ_SKIN_NAME_SIZE)
            return iqi_fail_at_line(&ctx, IQ_ERROR_LIMIT, name.line, name.column,
                                    "surface name '%s' has %zu characters; MD3 names have at most %d", iqi_q3_shown(&name, buf),
                                    name.length, IQ_SKIN_NAME_SIZE - 1);
        if (shader.length >= IQ_SKIN_SHADER_SIZE)
            return iqi_fail_at_line(&ctx, IQ_ERROR_LIMIT, shader.line, shader.column,
                                    "shader path '%s' has %zu characters; at most %d are read", iqi_q3_shown(&shader, buf),
                                    shader.length, IQ_SKIN_SHADER_SIZE - 1);
        if (out->surface_count == IQ_SKIN_MAX_SURFACES) {
            ignored++;
            continue;
        }
        iq_skin_surface *s = &out->surfaces[out->surface_count++];
        for (size_t k = 0; k < name.length; k++) s->name[k] = (char)tolower((unsigned char)name.text[k]);
        memcpy(s->shader, shader.text, shader.length);
        s->line = name.line;
    }
    if (ignored && out->warning_count++ == 0)
        snprintf(out->warning, sizeof out->warning, "%u surfaces after the first %d were ignored", ignored,
                 IQ_SKIN_MAX_SURFACES);
    return 1;
}

// -- Entry points: one iq_error_code each

iq_error_code iq_q3_parse_animation_cfg(const void *text, size_t size, iq_q3_config *out, iq_error *error) {
    iq_error local;
    if (!error) error = &local;
    return iqi_result(parse_animation_cfg(text, size, out, error), error);
}

iq_error_code iq_q3_parse_skin(const void *text, size_t size, iq_skin *out, iq_error *error) {
    iq_error local;
    if (!error) error = &local;
    return iqi_result(parse_skin(text, size, out, error), error);
}
