/* The software renderer (docs/RENDER.md): draws posed surfaces into an RGBA
 * picture the way the element's WebGL renderer does (web/viewer/renderer.js,
 * shaderdraw.js), without a GPU. Callers pose the model (the animator), give
 * a view-projection matrix (web/scene/camera.js, the element's orbit camera,
 * computes it), then draw each surface into a target and resolve it to 8-bit
 * RGBA.
 *
 * What it does: clipping to the near and far planes, back-face culling with
 * clockwise front faces (Quake's and IQM's winding), a depth buffer (LEQUAL or
 * EQUAL, writes on or off), perspective-correct attributes, bilinear texture
 * filtering with repeat or clamp (nearest for small images), the element's
 * light model (a key light, a sky term and ambient; per pixel from the
 * interpolated normal), or for Quake 3 shader stages the colour as given with
 * the alpha test before blending (GL's blend factors, the target's alpha
 * kept), and anti-aliasing by supersampling (n x n samples per pixel, a box
 * filter when resolving). */
#ifndef IQ_RENDER_H
#define IQ_RENDER_H

#include "interquake.h"
#include "quake3/iq_shader.h" /* the stage states: iq_shader_cull, iq_shader_blend, iq_shader_alpha_func, iq_shader_depth_func */

#ifdef __cplusplus
extern "C" {
#endif

/* Limits: a picture's width and height, the samples per pixel along each axis,
 * and width * height * supersample^2 (about 20 bytes each). */
#define IQ_RENDER_MAX_DIMENSION 8192u
#define IQ_RENDER_MAX_SUPERSAMPLE 4u
#define IQ_RENDER_MAX_SAMPLES (64u * 1024u * 1024u)
/* Textures: the same limit as the TGA decoder. */
#define IQ_RENDER_MAX_TEXTURE IQ_TGA_MAX_DIMENSION

typedef struct iq_render_target iq_render_target;

typedef struct iq_render_texture {
    uint32_t width, height;
    const uint8_t *data;      /* width * height * 4 bytes, RGBA, top row first; NULL: white */
    uint32_t nearest;         /* 1: no filtering (the element keeps images of 16x16 or less crisp) */
    uint32_t clamp;           /* 1: clamp to the edge, 0: repeat */
    uint32_t mipmapped;       /* 1: data holds the whole chain iq_render_mipmaps made, and minified
                               * texels are filtered trilinearly (GL's LINEAR_MIPMAP_LINEAR) */
} iq_render_texture;

/* Bytes of a texture's mipmap chain (level 0 included: every level halves, down to 1x1), or 0
 * for a size outside 1..IQ_RENDER_MAX_TEXTURE. */
uint64_t iq_render_mipmap_bytes(uint32_t width, uint32_t height);
/* Fills chain (iq_render_mipmap_bytes long) with level 0 (a copy of rgba) and each smaller level
 * the 2x2 average of the one above (as glGenerateMipmap's box filter). Returns 1, or 0 when the
 * size is outside the limits. */
iq_error_code iq_render_mipmaps(const uint8_t *rgba, uint32_t width, uint32_t height, uint8_t *chain);

/* One draw: a surface's triangles with one texture and one state. */
typedef struct iq_render_surface {
    const float *positions;   /* 3 per vertex, model space (posed) */
    const float *normals;     /* 3 per vertex, or NULL: (0, 0, 1) */
    const float *texcoords;   /* 2 per vertex, or NULL: (0, 0) */
    const float *colors;      /* 4 per vertex (0..1), or NULL: white */
    uint32_t vertex_count;
    const uint32_t *indices;  /* 3 per triangle, each < vertex_count */
    uint32_t triangle_count;
    float matrix[16];         /* model to world, column-major */
    iq_render_texture texture;
    uint32_t lit;             /* 1: the element's light model, opaque; 0: colour as given (shader stages) */
    uint32_t cull;            /* iq_shader_cull, Quake 3's sense: IQ_CULL_FRONT (its default, and the
                               * element's for plain surfaces) hides back faces, IQ_CULL_BACK front faces */
    uint32_t blend_src, blend_dst; /* iq_shader_blend (GL's factors); NONE: replace, alpha becomes 1 */
    uint32_t alpha_func;      /* iq_shader_alpha_func, tested before blending */
    uint32_t depth_write;     /* 1: write depth */
    uint32_t depth_func;      /* iq_shader_depth_func: LEQUAL or EQUAL */
    /* GL's polygonOffset (Quake 3's polygonOffset is factor -1, units -2): each sample's depth moves
     * by factor * m + units * r before the test, m the triangle's largest depth slope per pixel and
     * r = 2^-24, the smallest difference a 24-bit depth buffer (WebGL's) resolves. 0, 0: none. */
    float offset_factor, offset_units;
} iq_render_surface;

/* Line segments, drawn as WebGL draws gl.LINES on a multisampled canvas: each a rectangle one pixel
 * wide centred on the segment, ending at its ends, covering the samples inside it; clipped to the
 * near and far planes; colours interpolated with perspective correction, written opaque. */
typedef struct iq_render_lines {
    const float *positions;   /* x y z per vertex, model space, every `stride` floats */
    const float *colors;      /* r g b per vertex (0..1), every `stride` floats; NULL: color */
    uint32_t stride;          /* floats from one vertex to the next (0: 3) */
    uint32_t vertex_count;
    const uint32_t *indices;  /* 2 per segment, each < vertex_count; NULL: the vertices in pairs */
    uint32_t segment_count;
    float matrix[16];         /* model to world, column-major */
    float color[3];
    uint32_t depth_test;      /* 1: LEQUAL against the depth buffer, written (hidden by what is in
                               * front); 0: over everything, depth untouched */
} iq_render_lines;

/* The camera and the light a draw uses. */
typedef struct iq_render_view {
    float view_projection[16]; /* world to clip, column-major (GL's conventions: NDC z in -1..1) */
    float light[3];           /* unit direction toward the key light, world space */
    float ambient, intensity; /* the element's light-ambient and light-intensity */
} iq_render_view;

/* A target of width x height pixels with supersample^2 samples each, or NULL
 * with 'invalid_argument' (a size of 0 or beyond the limits above) or
 * 'out_of_memory'. It starts cleared to transparent black. */
iq_render_target *iq_render_target_new(uint32_t width, uint32_t height, uint32_t supersample, iq_error *error);
void iq_render_target_free(iq_render_target *target);
/* Every sample to rgba (0..1, not premultiplied; stored premultiplied as a
 * WebGL canvas is) and the farthest depth. */
void iq_render_clear(iq_render_target *target, const float rgba[4]);
/* Draws a surface. Returns 1, or 0 with 'invalid_argument' (a missing array,
 * an index past the vertices, a texture without data or beyond the limits, an
 * unknown state value). Triangles with a vertex that is not finite are skipped. */
iq_error_code iq_render_draw(iq_render_target *target, const iq_render_view *view, const iq_render_surface *surface,
                   iq_error *error);
/* Draws line segments. Returns 0, or 'invalid_argument' (no positions, a stride under 3, an index
 * past the vertices). Segments with an end that is not finite are skipped (counted as skipped). */
iq_error_code iq_render_draw_lines(iq_render_target *target, const iq_render_view *view, const iq_render_lines *lines,
                                   iq_error *error);
/* The picture: width * height * 4 bytes of RGBA, top row first, alpha not
 * premultiplied (as a PNG or canvas.toBlob holds it). */
void iq_render_resolve(const iq_render_target *target, uint8_t *rgba);
/* Triangles and line segments drawn and skipped (culled, clipped away, not finite) since the
 * target was made. */
void iq_render_counts(const iq_render_target *target, uint64_t *drawn, uint64_t *skipped);

#ifdef __cplusplus
}
#endif
#endif
