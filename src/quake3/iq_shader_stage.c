/* Shader scripts, stage keywords (ParseStage): map, clampMap, animMap,
 * blendFunc, alphaFunc, depthFunc, depthWrite, rgbGen, alphaGen, tcGen,
 * tcMod, and the defaults Quake 3 gives a stage at its end. */
#include "quake3/iq_shader_internal.h"

static int stage_image(parser *ps, iq_shader_stage *st, const token *keyword, int clamp) {
    token t;
    char buf[48];
    if (!iqi_shader_need(ps, keyword, &t, "an image name")) return 0;
    st->clamp = (uint32_t)clamp;
    st->frame_count = 1;
    st->anim_frequency = 0;
    memset(st->images, 0, sizeof st->images);
    if (!clamp && iqi_q3_token_is(&t, "$whiteimage")) {
        st->map = IQ_MAP_WHITE;
    } else if (!clamp && iqi_q3_token_is(&t, "$lightmap")) {
        st->map = IQ_MAP_LIGHTMAP;
    } else {
        if (t.length > IQ_SHADER_MAX_NAME)
            return iqi_fail_at_line(ps->ctx, IQ_ERROR_LIMIT, t.line, t.column, "image name '%s' has %zu characters; at most %d",
                                    iqi_q3_shown(&t, buf), t.length, IQ_SHADER_MAX_NAME);
        st->map = IQ_MAP_IMAGE;
        st->images[0].name = iqi_shader_store(ps, &t);
    }
    return 1;
}

static int stage_animmap(parser *ps, iq_shader_stage *st, const token *keyword) {
    token t;
    char buf[48];
    float frequency;
    if (!iqi_shader_need(ps, keyword, &t, "frames per second") || !iqi_shader_number(ps, keyword, &t, &frequency)) return 0;
    uint32_t count = 0, total = 0;
    iq_shader_image images[IQ_SHADER_MAX_FRAMES];
    memset(images, 0, sizeof images);
    int r;
    for (;;) {
        lexer before = ps->lx;
        if ((r = iqi_q3lex_next(&ps->lx, &t, 1)) <= 0) break;
        if (t.length == 1 && (t.text[0] == '{' || t.text[0] == '}')) { /* the stage ends on this line */
            ps->lx = before;
            r = 0;
            break;
        }
        if (t.length > IQ_SHADER_MAX_NAME)
            return iqi_fail_at_line(ps->ctx, IQ_ERROR_LIMIT, t.line, t.column, "image name '%s' has %zu characters; at most %d",
                                    iqi_q3_shown(&t, buf), t.length, IQ_SHADER_MAX_NAME);
        if (count < IQ_SHADER_MAX_FRAMES) images[count++].name = iqi_shader_store(ps, &t);
        total++;
    }
    if (r < 0) return 0;
    if (count == 0)
        return iqi_fail_at_line(ps->ctx, IQ_ERROR_SYNTAX, keyword->line, keyword->column, "animMap: no images on its line");
    if (total > count)
        iqi_shader_note(ps, IQ_NOTE_OVER_LIMIT, keyword, "%u images; the first %d are used", total, IQ_SHADER_MAX_FRAMES);
    st->map = IQ_MAP_IMAGE;
    st->clamp = 0;
    st->frame_count = count;
    st->anim_frequency = frequency;
    memcpy(st->images, images, sizeof images);
    return 1;
}

static uint32_t blend_factor(parser *ps, const token *t, int src) {
    static const struct { const char *name; uint32_t value; int as_src, as_dst; } factors[] = {
        {"gl_one", IQ_BLEND_ONE, 1, 1}, {"gl_zero", IQ_BLEND_ZERO, 1, 1},
        {"gl_dst_color", IQ_BLEND_DST_COLOR, 1, 0}, {"gl_one_minus_dst_color", IQ_BLEND_ONE_MINUS_DST_COLOR, 1, 0},
        {"gl_src_alpha", IQ_BLEND_SRC_ALPHA, 1, 1}, {"gl_one_minus_src_alpha", IQ_BLEND_ONE_MINUS_SRC_ALPHA, 1, 1},
        {"gl_dst_alpha", IQ_BLEND_DST_ALPHA, 1, 1}, {"gl_one_minus_dst_alpha", IQ_BLEND_ONE_MINUS_DST_ALPHA, 1, 1},
        {"gl_src_alpha_saturate", IQ_BLEND_SRC_ALPHA_SATURATE, 1, 0},
        {"gl_src_color", IQ_BLEND_SRC_COLOR, 0, 1}, {"gl_one_minus_src_color", IQ_BLEND_ONE_MINUS_SRC_COLOR, 0, 1},
    };
    for (size_t i = 0; i < sizeof factors / sizeof factors[0]; i++)
        if (iqi_q3_token_is(t, factors[i].name) && (src ? factors[i].as_src : factors[i].as_dst)) return factors[i].value;
    iqi_shader_note(ps, IQ_NOTE_UNKNOWN_VALUE, t, "not a %s blend factor: GL_ONE is used, as Quake 3 does", src ? "source" : "destination");
    return IQ_BLEND_ONE;
}

static int stage_tcmod(parser *ps, iq_shader_stage *st, const token *keyword) {
    token t;
    if (!iqi_shader_need(ps, keyword, &t, "a tcMod type")) return 0;
    if (st->tcmod_count == IQ_SHADER_MAX_TCMODS)
        return iqi_fail_at_line(ps->ctx, IQ_ERROR_LIMIT, keyword->line, keyword->column,
                                "a stage has more than %d tcMods (Quake 3 stops with an error)", IQ_SHADER_MAX_TCMODS);
    iq_shader_tcmod m;
    memset(&m, 0, sizeof m);
    if (iqi_q3_token_is(&t, "scroll")) {
        m.type = IQ_TCMOD_SCROLL;
        if (!iqi_shader_need_numbers(ps, &t, m.params, 2, "s and t speeds")) return 0;
    } else if (iqi_q3_token_is(&t, "scale")) {
        m.type = IQ_TCMOD_SCALE;
        if (!iqi_shader_need_numbers(ps, &t, m.params, 2, "s and t scales")) return 0;
    } else if (iqi_q3_token_is(&t, "rotate")) {
        m.type = IQ_TCMOD_ROTATE;
        if (!iqi_shader_need_numbers(ps, &t, m.params, 1, "degrees per second")) return 0;
    } else if (iqi_q3_token_is(&t, "stretch")) {
        m.type = IQ_TCMOD_STRETCH;
        if (!iqi_shader_need_wave(ps, &t, &m.wave)) return 0;
    } else if (iqi_q3_token_is(&t, "turb")) {
        float v[4];
        m.type = IQ_TCMOD_TURB;
        if (!iqi_shader_need_numbers(ps, &t, v, 4, "base, amplitude, phase and frequency")) return 0;
        m.wave.func = IQ_WAVE_SIN;
        m.wave.base = v[0];
        m.wave.amplitude = v[1];
        m.wave.phase = v[2];
        m.wave.frequency = v[3];
    } else if (iqi_q3_token_is(&t, "transform")) {
        m.type = IQ_TCMOD_TRANSFORM;
        if (!iqi_shader_need_numbers(ps, &t, m.params, 6, "m00 m01 m10 m11 t0 t1")) return 0;
    } else if (iqi_q3_token_is(&t, "entityTranslate")) {
        m.type = IQ_TCMOD_ENTITY_TRANSLATE;
    } else {
        char rest[64];
        if (!iqi_shader_skip_line(ps, rest)) return 0;
        iqi_shader_note(ps, IQ_NOTE_UNKNOWN_VALUE, &t, "not a tcMod: ignored%s%s", rest[0] ? ": " : "", rest);
        return 1;
    }
    st->tcmods[st->tcmod_count++] = m;
    return iqi_shader_skip_line(ps, NULL);
}

int iqi_shader_parse_stage(parser *ps, iq_shader_stage *st, const token *open) {
    token t, v;
    int r, rgb_given = 0, depth_write_given = 0;
    memset(st, 0, sizeof *st);
    st->line = open->line;
    st->depth_write = 1;
    st->portal_range = 256;
    for (;;) {
        if ((r = iqi_q3lex_next(&ps->lx, &t, 0)) < 0) return 0;
        if (r == 0)
            return iqi_fail_at_line(ps->ctx, IQ_ERROR_TRUNCATED, open->line, open->column,
                                    "the stage opened here in shader '%s' is never closed", ps->shader->name);
        if (t.text[0] == '}' && t.length == 1) break;
        if (t.text[0] == '{' && t.length == 1)
            return iqi_fail_at_line(ps->ctx, IQ_ERROR_SYNTAX, t.line, t.column, "a '{' inside a stage (stages do not nest)");
        if (iqi_q3_token_is(&t, "map")) {
            if (!stage_image(ps, st, &t, 0)) return 0;
        } else if (iqi_q3_token_is(&t, "clampmap")) {
            if (!stage_image(ps, st, &t, 1)) return 0;
        } else if (iqi_q3_token_is(&t, "animmap")) {
            if (!stage_animmap(ps, st, &t)) return 0;
            continue;
        } else if (iqi_q3_token_is(&t, "videomap")) {
            if (!iqi_shader_skip_line(ps, NULL)) return 0;
            iqi_shader_note(ps, IQ_NOTE_IGNORED, &t, "videos are not played");
            continue;
        } else if (iqi_q3_token_is(&t, "alphafunc")) {
            if (!iqi_shader_need(ps, &t, &v, "GT0, LT128 or GE128")) return 0;
            st->alpha_func = iqi_q3_token_is(&v, "gt0") ? IQ_ALPHA_GT0 : iqi_q3_token_is(&v, "lt128") ? IQ_ALPHA_LT128
                           : iqi_q3_token_is(&v, "ge128") ? IQ_ALPHA_GE128 : IQ_ALPHA_ALL;
            if (st->alpha_func == IQ_ALPHA_ALL) iqi_shader_note(ps, IQ_NOTE_UNKNOWN_VALUE, &v, "not an alphaFunc: no alpha test");
        } else if (iqi_q3_token_is(&t, "depthfunc")) {
            if (!iqi_shader_need(ps, &t, &v, "lequal or equal")) return 0;
            if (iqi_q3_token_is(&v, "lequal")) st->depth_func = IQ_DEPTH_LEQUAL;
            else if (iqi_q3_token_is(&v, "equal")) st->depth_func = IQ_DEPTH_EQUAL;
            else iqi_shader_note(ps, IQ_NOTE_UNKNOWN_VALUE, &v, "not a depthFunc: lequal is kept");
        } else if (iqi_q3_token_is(&t, "depthwrite")) {
            st->depth_write = 1;
            depth_write_given = 1;
        } else if (iqi_q3_token_is(&t, "detail")) {
            st->detail = 1;
        } else if (iqi_q3_token_is(&t, "blendfunc")) {
            if (!iqi_shader_need(ps, &t, &v, "a blend")) return 0;
            if (iqi_q3_token_is(&v, "add")) {
                st->blend_src = IQ_BLEND_ONE, st->blend_dst = IQ_BLEND_ONE;
            } else if (iqi_q3_token_is(&v, "filter")) {
                st->blend_src = IQ_BLEND_DST_COLOR, st->blend_dst = IQ_BLEND_ZERO;
            } else if (iqi_q3_token_is(&v, "blend")) {
                st->blend_src = IQ_BLEND_SRC_ALPHA, st->blend_dst = IQ_BLEND_ONE_MINUS_SRC_ALPHA;
            } else {
                token d;
                st->blend_src = blend_factor(ps, &v, 1);
                if (!iqi_shader_need(ps, &t, &d, "the destination factor")) return 0;
                st->blend_dst = blend_factor(ps, &d, 0);
            }
            if (!depth_write_given) st->depth_write = 0; /* blended stages leave depth alone */
        } else if (iqi_q3_token_is(&t, "rgbgen")) {
            static const struct { const char *name; uint32_t value; } gens[] = {
                {"identity", IQ_RGBGEN_IDENTITY}, {"identitylighting", IQ_RGBGEN_IDENTITY_LIGHTING},
                {"entity", IQ_RGBGEN_ENTITY}, {"oneminusentity", IQ_RGBGEN_ONE_MINUS_ENTITY},
                {"vertex", IQ_RGBGEN_VERTEX}, {"exactvertex", IQ_RGBGEN_EXACT_VERTEX},
                {"lightingdiffuse", IQ_RGBGEN_LIGHTING_DIFFUSE}, {"oneminusvertex", IQ_RGBGEN_ONE_MINUS_VERTEX},
            };
            if (!iqi_shader_need(ps, &t, &v, "an rgbGen")) return 0;
            if (iqi_q3_token_is(&v, "wave")) {
                if (!iqi_shader_need_wave(ps, &t, &st->rgb_wave)) return 0;
                st->rgb_gen = IQ_RGBGEN_WAVE;
            } else if (iqi_q3_token_is(&v, "const")) {
                if (!iqi_shader_need_vector(ps, &t, st->constant, 3)) return 0;
                st->rgb_gen = IQ_RGBGEN_CONST;
            } else {
                size_t k, n = sizeof gens / sizeof gens[0];
                for (k = 0; k < n && !iqi_q3_token_is(&v, gens[k].name); k++) {}
                if (k == n) {
                    iqi_shader_note(ps, IQ_NOTE_UNKNOWN_VALUE, &v, "not an rgbGen: ignored");
                    if (!iqi_shader_skip_line(ps, NULL)) return 0;
                    continue;
                }
                st->rgb_gen = gens[k].value;
                /* rgbGen vertex brings alphaGen vertex unless an alphaGen came first */
                if (st->rgb_gen == IQ_RGBGEN_VERTEX && st->alpha_gen == IQ_ALPHAGEN_IDENTITY) st->alpha_gen = IQ_ALPHAGEN_VERTEX;
            }
            rgb_given = 1;
        } else if (iqi_q3_token_is(&t, "alphagen")) {
            static const struct { const char *name; uint32_t value; } gens[] = {
                {"identity", IQ_ALPHAGEN_IDENTITY}, {"entity", IQ_ALPHAGEN_ENTITY},
                {"oneminusentity", IQ_ALPHAGEN_ONE_MINUS_ENTITY}, {"vertex", IQ_ALPHAGEN_VERTEX},
                {"lightingspecular", IQ_ALPHAGEN_LIGHTING_SPECULAR}, {"oneminusvertex", IQ_ALPHAGEN_ONE_MINUS_VERTEX},
            };
            if (!iqi_shader_need(ps, &t, &v, "an alphaGen")) return 0;
            if (iqi_q3_token_is(&v, "wave")) {
                if (!iqi_shader_need_wave(ps, &t, &st->alpha_wave)) return 0;
                st->alpha_gen = IQ_ALPHAGEN_WAVE;
            } else if (iqi_q3_token_is(&v, "const")) {
                if (!iqi_shader_need_numbers(ps, &t, &st->constant[3], 1, "the alpha")) return 0;
                st->alpha_gen = IQ_ALPHAGEN_CONST;
            } else if (iqi_q3_token_is(&v, "portal")) {
                token range;
                st->alpha_gen = IQ_ALPHAGEN_PORTAL;
                if ((r = iqi_q3lex_next(&ps->lx, &range, 1)) < 0) return 0;
                if (r > 0 && !iqi_shader_number(ps, &t, &range, &st->portal_range)) return 0;
            } else {
                size_t k, n = sizeof gens / sizeof gens[0];
                for (k = 0; k < n && !iqi_q3_token_is(&v, gens[k].name); k++) {}
                if (k == n) {
                    iqi_shader_note(ps, IQ_NOTE_UNKNOWN_VALUE, &v, "not an alphaGen: ignored");
                    if (!iqi_shader_skip_line(ps, NULL)) return 0;
                    continue;
                }
                st->alpha_gen = gens[k].value;
            }
        } else if (iqi_q3_token_is(&t, "tcgen") || iqi_q3_token_is(&t, "texgen")) {
            if (!iqi_shader_need(ps, &t, &v, "a tcGen")) return 0;
            if (iqi_q3_token_is(&v, "environment")) st->tcgen = IQ_TCGEN_ENVIRONMENT;
            else if (iqi_q3_token_is(&v, "lightmap")) st->tcgen = IQ_TCGEN_LIGHTMAP;
            else if (iqi_q3_token_is(&v, "base") || iqi_q3_token_is(&v, "texture")) st->tcgen = IQ_TCGEN_BASE;
            else if (iqi_q3_token_is(&v, "vector")) {
                if (!iqi_shader_need_vector(ps, &t, st->tcgen_vectors, 3) || !iqi_shader_need_vector(ps, &t, st->tcgen_vectors + 3, 3)) return 0;
                st->tcgen = IQ_TCGEN_VECTOR;
            } else {
                iqi_shader_note(ps, IQ_NOTE_UNKNOWN_VALUE, &v, "not a tcGen: ignored");
            }
        } else if (iqi_q3_token_is(&t, "tcmod")) {
            if (!stage_tcmod(ps, st, &t)) return 0;
            continue;
        } else {
            if (!iqi_shader_unknown_keyword(ps, &t, "in a stage")) return 0;
            continue;
        }
    }
    /* Quake 3's defaults (ParseStage's end) */
    if (!rgb_given)
        st->rgb_gen = (st->blend_src == IQ_BLEND_NONE || st->blend_src == IQ_BLEND_ONE || st->blend_src == IQ_BLEND_SRC_ALPHA)
                          ? IQ_RGBGEN_IDENTITY_LIGHTING : IQ_RGBGEN_IDENTITY;
    if (st->blend_src == IQ_BLEND_ONE && st->blend_dst == IQ_BLEND_ZERO) { /* GL_ONE GL_ZERO: no blending */
        st->blend_src = st->blend_dst = IQ_BLEND_NONE;
        st->depth_write = 1;
    }
    return 1;
}
