/* Quake 3 shader scripts: text to fixed-size records. The entry
 * (iq_shader_parse), the script's blocks, and the shader-level keywords
 * (ParseShader: deformVertexes, cull, sort, ...) with the sort Quake 3's
 * FinishShader settles on. The grammar, and where we differ from Quake 3 on
 * purpose, are in iq_shader_internal.h; stages are read by iq_shader_stage.c. */
#include "quake3/iq_shader_internal.h"

// -- Shader keywords

static int parse_deform(parser *ps, const token *keyword) {
    iq_q3_shader *sh = ps->shader;
    token t;
    if (!iqi_shader_need(ps, keyword, &t, "a deform type")) return 0;
    if (sh->deform_count == IQ_SHADER_MAX_DEFORMS) {
        if (!iqi_shader_skip_line(ps, NULL)) return 0;
        iqi_shader_note(ps, IQ_NOTE_OVER_LIMIT, keyword, "more than %d deforms: ignored, as Quake 3 does", IQ_SHADER_MAX_DEFORMS);
        return 1;
    }
    iq_shader_deform d;
    memset(&d, 0, sizeof d);
    if (iqi_q3_token_is(&t, "wave")) {
        float div;
        d.type = IQ_DEFORM_WAVE;
        if (!iqi_shader_need_numbers(ps, &t, &div, 1, "the spread (div)") || !iqi_shader_need_wave(ps, &t, &d.wave)) return 0;
        d.spread = div != 0 ? 1.0f / div : 100.0f;
        if (div == 0) iqi_shader_note(ps, IQ_NOTE_UNKNOWN_VALUE, &t, "div 0: spread 100, as Quake 3 does");
    } else if (iqi_q3_token_is(&t, "normal")) {
        float v[2];
        d.type = IQ_DEFORM_NORMAL;
        if (!iqi_shader_need_numbers(ps, &t, v, 2, "amplitude and frequency")) return 0;
        d.wave.amplitude = v[0];
        d.wave.frequency = v[1];
    } else if (iqi_q3_token_is(&t, "bulge")) {
        float v[3];
        d.type = IQ_DEFORM_BULGE;
        if (!iqi_shader_need_numbers(ps, &t, v, 3, "width, height and speed")) return 0;
        d.bulge_width = v[0], d.bulge_height = v[1], d.bulge_speed = v[2];
    } else if (iqi_q3_token_is(&t, "move")) {
        d.type = IQ_DEFORM_MOVE;
        if (!iqi_shader_need_numbers(ps, &t, d.vector, 3, "x y z") || !iqi_shader_need_wave(ps, &t, &d.wave)) return 0;
    } else if (iqi_q3_token_is(&t, "autosprite")) {
        d.type = IQ_DEFORM_AUTOSPRITE;
    } else if (iqi_q3_token_is(&t, "autosprite2")) {
        d.type = IQ_DEFORM_AUTOSPRITE2;
    } else if (iqi_q3_token_is(&t, "projectionshadow") || iqi_q3_token_starts(&t, "text")) {
        d.type = iqi_q3_token_starts(&t, "text") ? IQ_DEFORM_TEXT : IQ_DEFORM_PROJECTION_SHADOW;
        iqi_shader_note(ps, IQ_NOTE_IGNORED, &t, "a game-side deform: kept, not evaluated");
    } else {
        char rest[64];
        if (!iqi_shader_skip_line(ps, rest)) return 0;
        iqi_shader_note(ps, IQ_NOTE_UNKNOWN_VALUE, &t, "not a deformVertexes type: ignored");
        return 1;
    }
    sh->deforms[sh->deform_count++] = d;
    return 1;
}

static int parse_sort(parser *ps, const token *keyword, float *out) {
    static const struct { const char *name; float value; } sorts[] = {
#define IQ_X(name, word, value) {word, value},
        IQ_SHADER_SORTS(IQ_X)
#undef IQ_X
    };
    token t;
    if (!iqi_shader_need(ps, keyword, &t, "a sort")) return 0;
    for (size_t k = 0; k < sizeof sorts / sizeof sorts[0]; k++)
        if (iqi_q3_token_is(&t, sorts[k].name)) return *out = sorts[k].value, 1;
    return iqi_shader_number(ps, keyword, &t, out);
}

/* The sort Quake 3's FinishShader settles on. */
static float settle_sort(const iq_q3_shader *sh, float sort) {
    if (sh->flags & IQ_SHADER_SKY) sort = IQ_SORT_SKY;
    if ((sh->flags & IQ_SHADER_POLYGON_OFFSET) && sort == 0) sort = IQ_SORT_DECAL;
    for (uint32_t i = 0; i < sh->stage_count; i++) {
        const iq_shader_stage *st = &sh->stages[i];
        if (st->map == IQ_MAP_NONE) continue; /* a stage with no image is dropped */
        if (st->blend_src != IQ_BLEND_NONE && sh->stages[0].blend_src != IQ_BLEND_NONE && sort == 0)
            sort = st->depth_write ? IQ_SORT_SEE_THROUGH : IQ_SORT_BLEND0;
    }
    return sort == 0 ? IQ_SORT_OPAQUE : sort;
}

static int parse_shader(parser *ps, const token *name) {
    iq_q3_shader *sh = ps->shader;
    token t;
    int r;
    float sort = 0;
    for (;;) {
        if ((r = iqi_q3lex_next(&ps->lx, &t, 0)) < 0) return 0;
        if (r == 0)
            return iqi_fail_at_line(ps->ctx, IQ_ERROR_TRUNCATED, name->line, name->column,
                                    "shader '%s' is never closed (the text ends inside it)", sh->name);
        if (t.length == 1 && t.text[0] == '}') break;
        if (t.length == 1 && t.text[0] == '{') {
            if (sh->stage_count == IQ_SHADER_MAX_STAGES) { /* read and dropped; Quake 3 refuses the shader */
                iq_shader_stage extra;
                if (!iqi_shader_parse_stage(ps, &extra, &t)) return 0;
                if (!(sh->flags & IQ_SHADER_REFUSED))
                    iqi_shader_note(ps, IQ_NOTE_OVER_LIMIT, &t, "more than %d stages: the first %d are kept; Quake 3 refuses the shader",
                         IQ_SHADER_MAX_STAGES, IQ_SHADER_MAX_STAGES);
                sh->flags |= IQ_SHADER_REFUSED;
                continue;
            }
            if (!iqi_shader_parse_stage(ps, &sh->stages[sh->stage_count], &t)) return 0;
            sh->stage_count++;
            ps->script->stage_count++;
            continue;
        }
        if (iqi_q3_token_is(&t, "deformvertexes")) {
            if (!parse_deform(ps, &t)) return 0;
            continue;
        } else if (iqi_q3_token_is(&t, "cull")) {
            token v;
            if (!iqi_shader_need(ps, &t, &v, "front, back or none")) return 0;
            if (iqi_q3_token_is(&v, "none") || iqi_q3_token_is(&v, "twosided") || iqi_q3_token_is(&v, "disable")) sh->cull = IQ_CULL_NONE;
            else if (iqi_q3_token_is(&v, "back") || iqi_q3_token_is(&v, "backside") || iqi_q3_token_is(&v, "backsided")) sh->cull = IQ_CULL_BACK;
            else if (!iqi_q3_token_is(&v, "front")) iqi_shader_note(ps, IQ_NOTE_UNKNOWN_VALUE, &v, "not a cull: front faces are drawn");
        } else if (iqi_q3_token_is(&t, "sort")) {
            if (!parse_sort(ps, &t, &sh->sort_given)) return 0;
            sort = sh->sort_given;
        } else if (iqi_q3_token_is(&t, "nomipmaps")) {
            sh->flags |= IQ_SHADER_NOMIPMAPS | IQ_SHADER_NOPICMIP;
        } else if (iqi_q3_token_is(&t, "nopicmip")) {
            sh->flags |= IQ_SHADER_NOPICMIP;
        } else if (iqi_q3_token_is(&t, "polygonoffset")) {
            sh->flags |= IQ_SHADER_POLYGON_OFFSET;
        } else if (iqi_q3_token_is(&t, "entitymergable")) {
            sh->flags |= IQ_SHADER_ENTITY_MERGABLE;
        } else if (iqi_q3_token_is(&t, "portal")) {
            sh->flags |= IQ_SHADER_PORTAL;
            sort = IQ_SORT_PORTAL;
        } else if (iqi_q3_token_is(&t, "skyparms") || iqi_q3_token_is(&t, "fogparms") || iqi_q3_token_is(&t, "clamptime")) {
            int sky = iqi_q3_token_is(&t, "skyparms"), fog = iqi_q3_token_is(&t, "fogparms");
            sh->flags |= sky ? IQ_SHADER_SKY : fog ? IQ_SHADER_FOG : 0;
            if (!iqi_shader_skip_line(ps, NULL)) return 0;
            iqi_shader_note(ps, IQ_NOTE_IGNORED, &t, "%s", sky ? "sky boxes are not drawn" : fog ? "fog volumes are not drawn"
                                                                                : "shader time is not clamped");
        } else if (iqi_q3_token_starts(&t, "qer") || iqi_q3_token_starts(&t, "q3map") || iqi_q3_token_is(&t, "surfaceparm") ||
                   iqi_q3_token_is(&t, "tesssize") || iqi_q3_token_is(&t, "light")) {
            /* for the editor, the map compiler or the server: nothing to draw (Quake 3 skips them too) */
            if (!iqi_shader_skip_line(ps, NULL)) return 0;
        } else {
            if (!iqi_shader_unknown_keyword(ps, &t, "in the shader")) return 0;
        }
    }
    if (sh->stage_count == 0 && !(sh->flags & (IQ_SHADER_SKY | IQ_SHADER_FOG))) {
        sh->flags |= IQ_SHADER_REFUSED;
        iqi_shader_note(ps, IQ_NOTE_IGNORED, name, "no stages: Quake 3 shows its default shader for it");
    }
    sh->sort = settle_sort(sh, sort);
    return 1;
}

// -- The script

static int parse_script(parser *ps) {
    token name, open;
    char buf[48];
    int r;
    for (;;) {
        if ((r = iqi_q3lex_next(&ps->lx, &name, 0)) < 0) return 0;
        if (r == 0) return 1;
        if (name.length == 1 && (name.text[0] == '{' || name.text[0] == '}'))
            return iqi_fail_at_line(ps->ctx, IQ_ERROR_SYNTAX, name.line, name.column, "expected a shader name, found '%c'",
                                    name.text[0]);
        if (name.length > IQ_SHADER_MAX_NAME)
            return iqi_fail_at_line(ps->ctx, IQ_ERROR_LIMIT, name.line, name.column, "shader name '%s' has %zu characters; at most %d",
                                    iqi_q3_shown(&name, buf), name.length, IQ_SHADER_MAX_NAME);
        if ((r = iqi_q3lex_next(&ps->lx, &open, 0)) < 0) return 0;
        if (r == 0)
            return iqi_fail_at_line(ps->ctx, IQ_ERROR_TRUNCATED, name.line, name.column,
                                    "shader '%s' has no '{' (the text ends after its name)", iqi_q3_shown(&name, buf));
        if (!(open.length == 1 && open.text[0] == '{'))
            return iqi_fail_at_line(ps->ctx, IQ_ERROR_SYNTAX, open.line, open.column, "expected '{' after shader name '%s'",
                                    iqi_q3_shown(&name, buf));
        iq_shader_script *sc = ps->script;
        if (sc->shader_count == IQ_SHADER_MAX_SHADERS)
            return iqi_fail_at_line(ps->ctx, IQ_ERROR_LIMIT, name.line, name.column, "more than %d shaders in one script",
                                    IQ_SHADER_MAX_SHADERS);
        if (sc->shader_count == ps->shader_capacity) {
            size_t grown = ps->shader_capacity ? ps->shader_capacity * 2 : 16;
            if (grown > IQ_SHADER_MAX_SHADERS) grown = IQ_SHADER_MAX_SHADERS;
            iq_q3_shader *s = iqi_realloc(sc->shaders, grown * sizeof *s);
            if (!s) return iqi_fail(ps->ctx, IQ_ERROR_OUT_OF_MEMORY, -1, "out of memory for %zu shaders", grown);
            sc->shaders = s;
            ps->shader_capacity = grown;
        }
        iq_q3_shader *sh = &sc->shaders[sc->shader_count++];
        memset(sh, 0, sizeof *sh);
        sh->name = iqi_shader_store(ps, &name);
        sh->line = name.line;
        sh->column = name.column;
        ps->shader = sh;
        if (!parse_shader(ps, &name)) return 0;
    }
}

iq_shader_script *iq_shader_parse(const void *text, size_t size, iq_error *error) {
    iq_error local;
    iqi_ctx ctx;
    parser ps;
    error = iqi_error_reset(error, &local);
    memset(&ctx, 0, sizeof ctx);
    ctx.error = error;
    if (!text && size) {
        iqi_fail(&ctx, IQ_ERROR_INVALID_ARGUMENT, -1, "NULL text");
        return NULL;
    }
    if (size > IQ_SHADER_MAX_BYTES) {
        iqi_fail(&ctx, IQ_ERROR_LIMIT, -1, "a shader script of %zu bytes; at most %u are read", size, IQ_SHADER_MAX_BYTES);
        return NULL;
    }
    memset(&ps, 0, sizeof ps);
    ps.ctx = &ctx;
    ps.script = iqi_calloc(1, sizeof *ps.script);
    ps.pool = iqi_malloc(4 * size + 16);
    if (!ps.script || !ps.pool) {
        iqi_free(ps.script);
        iqi_free(ps.pool);
        iqi_fail(&ctx, IQ_ERROR_OUT_OF_MEMORY, -1, "out of memory for a script of %zu bytes", size);
        return NULL;
    }
    ps.script->strings = ps.pool_at = ps.pool;
    ps.pool_end = ps.pool + 4 * size + 16;
    iqi_q3lex_init(&ps.lx, &ctx, text, size, IQI_Q3LEX_CR_BREAKS | IQI_Q3LEX_BRACES, IQ_SHADER_MAX_TOKEN);
    if (!parse_script(&ps)) {
        iq_shader_free(ps.script);
        return NULL;
    }
    return ps.script;
}

void iq_shader_free(iq_shader_script *script) {
    if (!script) return;
    iqi_free(script->shaders);
    iqi_free(script->strings);
    iqi_free(script);
}
