/* libFuzzer harness for Quake 3 shader scripts: on success every count is
 * within its limit, every name is a terminated string of at most 63
 * characters, and evaluating every stage and deform at a few times gives
 * finite colours in 0..1 and finite texture matrices; on failure the error
 * has a code and a line.
 *   ./build.sh fuzz 600 */
// seeds: tests/fixtures/shaders
#include "quake3/iq_shader.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void check_name(const char *s) {
    if (!s || strlen(s) > IQ_SHADER_MAX_NAME) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    iq_error err;
    iq_shader_script *s = iq_shader_parse(data, size, &err);
    if (!s) {
        if (err.code == IQ_ERROR_NONE || (err.line == 0 && err.code != IQ_ERROR_LIMIT)) abort();
        return 0;
    }
    if (s->shader_count > IQ_SHADER_MAX_SHADERS || s->notes_kept > IQ_SHADER_MAX_NOTES || s->notes_kept > s->note_count) abort();
    iq_shader_env env;
    iq_shader_env_default(&env);
    float pos[6] = {1, 2, 3, -4, 5, 0.5f}, nrm[6] = {0, 0, 1, 0.6f, 0.8f, 0}, st[4] = {0.25f, 0.5f, 1, 1}, out[8];
    for (uint32_t i = 0; i < s->shader_count; i++) {
        const iq_q3_shader *sh = &s->shaders[i];
        check_name(sh->name);
        if (sh->stage_count > IQ_SHADER_MAX_STAGES || sh->deform_count > IQ_SHADER_MAX_DEFORMS) abort();
        /* A name without an extension finds its first definition. One with an extension may find
         * nothing or another block: R_FindShader drops the requested name's extension ("all.tga"
         * looks for "all", which a later block may be called), never a block's own. */
        int32_t found = iq_shader_find(s, sh->name);
        if (found >= (int32_t)s->shader_count || (!strchr(sh->name, '.') && (found < 0 || found > (int32_t)i))) abort();
        for (uint32_t k = 0; k < sh->stage_count; k++) {
            const iq_shader_stage *stage = &sh->stages[k];
            if (stage->tcmod_count > IQ_SHADER_MAX_TCMODS || stage->frame_count > IQ_SHADER_MAX_FRAMES) abort();
            for (uint32_t f = 0; f < stage->frame_count && stage->map == IQ_MAP_IMAGE; f++) check_name(stage->images[f].name);
            for (double t = 0; t < 3; t += 1.37) {
                env.time = t;
                iq_shader_stage_state state;
                if (iq_shader_stage_eval(stage, &env, &state) != 0) abort();
                for (int c = 0; c < 4; c++)
                    if (!(state.color[c] >= 0 && state.color[c] <= 1)) abort();
                if (stage->frame_count > 1 && state.frame >= stage->frame_count) abort();
                iq_shader_colors(stage, &env, 2, pos, nrm, NULL, out);
                for (int c = 0; c < 8; c++)
                    if (!(out[c] >= 0 && out[c] <= 1)) abort();
            }
        }
        float p[6], n[6];
        memcpy(p, pos, sizeof p);
        memcpy(n, nrm, sizeof n);
        iq_shader_deform_vertices(sh, &env, 2, p, n, st);
    }
    for (uint32_t k = 0; k < s->notes_kept; k++)
        if (!s->notes[k].keyword || !memchr(s->notes[k].detail, 0, sizeof s->notes[k].detail)) abort();
    iq_shader_free(s);
    return 0;
}
