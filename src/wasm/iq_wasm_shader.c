/* The shader scripts' exports (quake3/iq_shader.h): in interquake.wasm and in
 * interquake-shaders.wasm, the viewer's lazily fetched second WASM (build.sh).
 * They take no model: every array is passed in. */
#include "wasm/iq_wasm_internal.h"
#include "quake3/iq_shader.h"
#include "formats/iq_cubecfg.h"

/* A parsed script (JS reads it by layout and frees it with iq_wasm_shader_free), or 0 with *err filled. */
IQ_EXPORT iq_shader_script *iq_wasm_shader_parse(const void *text, uint32_t size, iq_error *err) {
    return iq_shader_parse(text, size, err);
}
IQ_EXPORT void iq_wasm_shader_free(iq_shader_script *script) { iq_shader_free(script); }

/* The index of the block a NUL-terminated name finds in a script, or -1. */
IQ_EXPORT int32_t iq_wasm_shader_find(const iq_shader_script *script, const char *name) { return iq_shader_find(script, name); }

IQ_EXPORT void iq_wasm_shader_env_default(iq_shader_env *env) { iq_shader_env_default(env); }

/* A stage's colour, texture matrices and animMap frame at env->time into *out. Returns 0 or an error code. */
IQ_EXPORT iq_error_code iq_wasm_shader_stage_eval(const iq_shader_stage *stage, const iq_shader_env *env, iq_shader_stage_state *out) {
    return iq_shader_stage_eval(stage, env, out);
}

IQ_EXPORT double iq_wasm_shader_wave_value(const iq_shader_wave *wave, double time) { return iq_shader_wave_value(wave, time); }

/* Per-vertex forms (arrays in the heap, n vertices): colours (rgba 4n), texture coordinates (out 2n),
 * deforms (positions and normals 3n, in place; returns the deforms left to the renderer). */
IQ_EXPORT void iq_wasm_shader_colors(const iq_shader_stage *stage, const iq_shader_env *env, uint32_t n, const float *positions,
                                     const float *normals, const float *vertex_colors, float *rgba) {
    iq_shader_colors(stage, env, n, positions, normals, vertex_colors, rgba);
}
IQ_EXPORT void iq_wasm_shader_texcoords(const iq_shader_stage *stage, const iq_shader_env *env, uint32_t n, const float *positions,
                                        const float *normals, const float *st, float *out) {
    iq_shader_texcoords(stage, env, n, positions, normals, st, out);
}
IQ_EXPORT uint32_t iq_wasm_shader_deform(const iq_q3_shader *shader, const iq_shader_env *env, uint32_t n, float *positions,
                                         float *normals, const float *st) {
    return iq_shader_deform_vertices(shader, env, n, positions, normals, st);
}

/* autosprite / autosprite2 over a surface's vertices (axes: forward, left, up, 9 floats); returns the triangles to draw. */
IQ_EXPORT uint32_t iq_wasm_shader_autosprite(uint32_t kind, const float *axes, uint32_t n, float *positions, float *normals,
                                             float *st, float *colors, const uint32_t *indices, uint32_t index_count,
                                             uint32_t *out_indices) {
    return iq_shader_autosprite(kind, axes, n, positions, normals, st, colors, indices, index_count, out_indices);
}

// -- Model .cfg files (Cube 2, Tesseract, Red Eclipse): like shader scripts, text read only when a
// folder holds one, so the one-file element fetches this parser with interquake-shaders.wasm

/* Commands and words into *out (JS owns it). Returns 1, or 0 with *err filled. */
IQ_EXPORT uint32_t iq_wasm_parse_cubecfg(const void *text, uint32_t size, iq_cubecfg *out, iq_error *err) {
    return (uint32_t)iq_cubecfg_parse(text, size, out, err);
}
