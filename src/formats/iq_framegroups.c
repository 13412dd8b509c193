/* DarkPlaces' .framegroups sidecar (`model.iqm.framegroups` beside
 * `model.iqm`): one animation per line, "first count [fps [loop [name]]]",
 * naming the clips of an IQM, DPM, ZYM or MD3 whose file has none or
 * other ones. Read as DarkPlaces reads it (model_shared.c,
 * Mod_FrameGroupify): tokens split on blanks, `//` and `/ * * /` comments and
 * quoted words; fps 20 and loop 1 when left out; numbers read as C's atoi
 * and atof read them (leading digits; anything else is 0); further tokens
 * ignored; a line with one number is skipped; the first frame clamped into
 * the model's frames, the count to at least 1 and at most what is left, the
 * rate to at least 1; an unnamed group is called "groupified_<i>_anim". A
 * file with no group leaves the model's own clips, as the engine does.
 * Decisions: docs/API-md2.md, "DarkPlaces .framegroups". */
#include "formats/iq_vertex_formats.h"
#include <stdio.h>

typedef struct fg_token {
    const char *s;
    size_t n;
    int newline; /* the token is the end of a line */
} fg_token;

typedef struct fg_reader {
    const char *p, *end;
    uint32_t line;
} fg_reader;

/* The next token or line end; 0 at the end of the text. */
static int next_token(fg_reader *r, fg_token *t) {
    for (;;) {
        /* every byte up to ' ' but the line end is a blank, as Quake's parser has it */
        while (r->p < r->end && (uint8_t)*r->p <= ' ' && *r->p != '\n') r->p++;
        if (r->p >= r->end) return 0;
        if (*r->p == '\n') {
            r->p++;
            r->line++;
            *t = (fg_token){"\n", 1, 1};
            return 1;
        }
        if (r->end - r->p >= 2 && r->p[0] == '/' && r->p[1] == '/') {
            while (r->p < r->end && *r->p != '\n') r->p++;
            continue;
        }
        if (r->end - r->p >= 2 && r->p[0] == '/' && r->p[1] == '*') {
            r->p += 2;
            while (r->p < r->end && !(r->end - r->p >= 2 && r->p[0] == '*' && r->p[1] == '/')) r->line += *r->p++ == '\n';
            r->p = r->p < r->end ? r->p + 2 : r->end;
            continue;
        }
        break;
    }
    const char *start = r->p;
    if (*r->p == '"') {
        start = ++r->p;
        while (r->p < r->end && *r->p != '"' && *r->p != '\n') r->p++;
        *t = (fg_token){start, (size_t)(r->p - start), 0};
        if (r->p < r->end && *r->p == '"') r->p++;
        return 1;
    }
    while (r->p < r->end && (uint8_t)*r->p > ' ' && *r->p != '"' &&
           !(r->end - r->p >= 2 && r->p[0] == '/' && (r->p[1] == '/' || r->p[1] == '*')))
        r->p++;
    if (r->p == start) r->p++; /* never reached (a blank, quote or comment starts no word); progress all the same */
    *t = (fg_token){start, (size_t)(r->p - start), 0};
    return 1;
}

/* C's atoi on a token: optional sign, leading digits (saturated), else 0. */
static int64_t token_int(const fg_token *t) {
    size_t i = 0;
    int neg = 0;
    if (i < t->n && (t->s[i] == '-' || t->s[i] == '+')) neg = t->s[i++] == '-';
    int64_t v = 0;
    for (; i < t->n && t->s[i] >= '0' && t->s[i] <= '9'; i++) v = v > INT32_MAX ? v : v * 10 + (t->s[i] - '0');
    return neg ? -v : v;
}

/* C's atof on a token, locale-free: sign, digits, a fraction and an exponent; else 0. */
static double token_float(const fg_token *t) {
    size_t i = 0;
    int neg = 0;
    if (i < t->n && (t->s[i] == '-' || t->s[i] == '+')) neg = t->s[i++] == '-';
    double v = 0, scale = 1;
    for (; i < t->n && t->s[i] >= '0' && t->s[i] <= '9'; i++) v = v * 10 + (t->s[i] - '0');
    if (i < t->n && t->s[i] == '.')
        for (i++; i < t->n && t->s[i] >= '0' && t->s[i] <= '9'; i++) v += (t->s[i] - '0') * (scale /= 10);
    if (i + 1 < t->n && (t->s[i] == 'e' || t->s[i] == 'E')) {
        fg_token e = {t->s + i + 1, t->n - i - 1, 0};
        int64_t x = token_int(&e);
        if (x > 60) x = 60;
        if (x < -60) x = -60;
        v *= pow(10.0, (double)x);
    }
    return neg ? -v : v;
}

typedef struct fg_group { int64_t first, count; double fps; int loop; fg_token name; int named; } fg_group;

/* One pass over the text: counts the groups, and fills `out` when it is not NULL. */
static uint32_t parse_groups(const char *text, size_t size, fg_group *out, uint32_t *skipped) {
    fg_reader r = {text, text + size, 1};
    fg_token t;
    uint32_t count = 0;
    *skipped = 0;
    while (next_token(&r, &t)) {
        if (t.newline) continue;
        fg_group g = {token_int(&t), 0, 20.0, 1, {"", 0, 0}, 0};
        if (!next_token(&r, &t) || t.newline) { (*skipped)++; continue; }
        g.count = token_int(&t);
        int more = next_token(&r, &t);
        if (more && !t.newline) { g.fps = token_float(&t); more = next_token(&r, &t); }
        if (more && !t.newline) { g.loop = token_int(&t) != 0; more = next_token(&r, &t); }
        if (more && !t.newline) { g.name = t; g.named = 1; more = next_token(&r, &t); }
        while (more && !t.newline) more = next_token(&r, &t);
        if (out) out[count] = g;
        count++;
    }
    return count;
}

iq_error_code iq_apply_framegroups(iq_model *m, const char *text, size_t size, iq_error *error) {
    iq_error local_error;
    iq_error *err = iqi_error_reset(error, &local_error);
    if (!m || (!text && size)) return iqi_set_error_code(err, IQ_ERROR_INVALID_ARGUMENT, "the model and the text must not be NULL");
    if (!m->frame_count) return iqi_set_error_code(err, IQ_ERROR_BAD_ANIMATION, "the model has no frames for frame groups to name");
    uint32_t skipped;
    uint32_t count = parse_groups(text, size, NULL, &skipped);
    iqi_arena *arena = m->internal;
    iqi_ctx ctx;
    iqi_model_ctx(&ctx, m, err);
    if (!count) {
        iqi_warn(&ctx, IQ_WARNING_EMPTY, "the frame groups name no group; the model keeps its %u animation(s)", m->animation_count);
        return IQ_ERROR_NONE;
    }
    /* What this adds to the model (groups, their names, the parse's scratch); the budget grows by exactly that. */
    uint64_t need = (uint64_t)count * (sizeof(fg_group) + sizeof(iq_animation) + 2 * 32) + size + 64;
    if (need > (uint64_t)(SIZE_MAX / 4 - arena->budget))
        return iqi_set_error_code(err, IQ_ERROR_LIMIT, "the frame groups need %llu more bytes than this platform can address",
                       (unsigned long long)need);
    size_t old_budget = arena->budget;
    arena->budget += (size_t)need;
    fg_group *groups = iqi_alloc(&ctx, count, sizeof(fg_group), "frame groups");
    iq_animation *anims = iqi_alloc(&ctx, count, sizeof(iq_animation), "frame group animations");
    if (!groups || !anims) { arena->budget = old_budget; return err->code; }
    parse_groups(text, size, groups, &skipped);
    uint32_t clamped = 0, frames = m->frame_count;
    for (uint32_t i = 0; i < count; i++) {
        const fg_group *g = &groups[i];
        int64_t first = g->first < 0 ? 0 : g->first > (int64_t)frames - 1 ? (int64_t)frames - 1 : g->first;
        int64_t left = (int64_t)frames - first;
        int64_t n = g->count < 1 ? 1 : g->count > left ? left : g->count;
        double fps = g->fps >= 1 ? g->fps : 1; /* also NaN */
        if (fps > 1e6) fps = 1e6;
        if (first != g->first || n != g->count || fps != g->fps) clamped++;
        char *name;
        if (g->named) name = iqi_strdup_n(&ctx, g->name.s, g->name.n);
        else if ((name = iqi_alloc(&ctx, 32, 1, "frame group name"))) snprintf(name, 32, "groupified_%u_anim", i);
        if (!name) { arena->budget = old_budget; return err->code; }
        anims[i] = (iq_animation){name, (uint32_t)first, (uint32_t)n, (float)fps, g->loop ? IQ_ANIMATION_LOOP : 0u};
    }
    m->animations = anims;
    m->animation_count = count;
    if (skipped) iqi_warn(&ctx, IQ_WARNING_IGNORED_DATA, "%u frame group line(s) without a frame count were skipped", skipped);
    if (clamped)
        iqi_warn(&ctx, IQ_WARNING_REPAIRED,
                 "%u frame group(s) reach past the model's %u frames or have a rate below 1; clamped as DarkPlaces does",
                 clamped, frames);
    return IQ_ERROR_NONE;
}
