/* The software renderer's exports (interquake.wasm only: the element's smaller
 * builds link without this file, so the renderer's code is not in them). The
 * records they take are in the layout table (iq_wasm_tables.c); JS drives
 * them from web/render/render.js. */
#include "wasm/iq_wasm_internal.h"
#include "render/iq_render.h"

IQ_EXPORT iq_render_target *iq_wasm_render_target_new(uint32_t width, uint32_t height, uint32_t supersample,
                                                      iq_error *err) {
    return iq_render_target_new(width, height, supersample, err);
}
IQ_EXPORT void iq_wasm_render_target_free(iq_render_target *target) { iq_render_target_free(target); }
IQ_EXPORT void iq_wasm_render_clear(iq_render_target *target, const float *rgba) { iq_render_clear(target, rgba); }
IQ_EXPORT uint32_t iq_wasm_render_draw(iq_render_target *target, const iq_render_view *view,
                                       const iq_render_surface *surface, iq_error *err) {
    return (uint32_t)iq_render_draw(target, view, surface, err);
}
IQ_EXPORT void iq_wasm_render_resolve(const iq_render_target *target, uint8_t *rgba) { iq_render_resolve(target, rgba); }
IQ_EXPORT double iq_wasm_render_mipmap_bytes(uint32_t width, uint32_t height) {
    return (double)iq_render_mipmap_bytes(width, height);
}
IQ_EXPORT uint32_t iq_wasm_render_mipmaps(const uint8_t *rgba, uint32_t width, uint32_t height, uint8_t *chain) {
    return (uint32_t)iq_render_mipmaps(rgba, width, height, chain);
}
IQ_EXPORT uint32_t iq_wasm_render_draw_lines(iq_render_target *target, const iq_render_view *view,
                                             const iq_render_lines *lines, iq_error *err) {
    return (uint32_t)iq_render_draw_lines(target, view, lines, err);
}
