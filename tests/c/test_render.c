/* Native tests of the software renderer (src/render/) under ASan/UBSan:
 * hand-built scenes whose pictures are worked out on paper (a quad's exact
 * coverage under the top-left rule, culling by winding, depth order and
 * EQUAL, texture addressing with repeat, clamp, nearest and bilinear, the
 * alpha test before blending, blend factors, supersampled edges, the light
 * model, perspective-correct texture coordinates), the camera's numbers, bad
 * arguments, and each allocation failing in turn. Run from the repository root. */
#include "check.h"
#include "render/iq_render.h"
#include "base/iq_internal.h"
#include "render_check.h"
#include <math.h>
#include <string.h>
#include <stdlib.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static const float IDENTITY[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

static iq_render_view flat_view(void) {
    iq_render_view v;
    memset(&v, 0, sizeof v);
    memcpy(v.view_projection, IDENTITY, sizeof IDENTITY);
    v.light[2] = 1;
    v.ambient = 0.45f;
    v.intensity = 0.7f;
    return v;
}

/* A quad from (x0,y0) to (x1,y1) in NDC at depth z, clockwise on screen (a front face) unless ccw. */
typedef struct quad {
    float positions[12], texcoords[8], colors[16];
    uint32_t indices[6];
} quad;

static void make_quad(quad *q, float x0, float y0, float x1, float y1, float z, int ccw) {
    float p[12] = {x0, y0, z, x0, y1, z, x1, y1, z, x1, y0, z};
    float st[8] = {0, 1, 0, 0, 1, 0, 1, 1}; /* s along x, t down the picture */
    memcpy(q->positions, p, sizeof p);
    memcpy(q->texcoords, st, sizeof st);
    for (int i = 0; i < 16; i++) q->colors[i] = 1;
    /* (x0,y0) -> (x0,y1) -> (x1,y1): up the left side then right along the top, clockwise in y-up */
    uint32_t cw[6] = {0, 1, 2, 0, 2, 3}, cc[6] = {0, 2, 1, 0, 3, 2};
    memcpy(q->indices, ccw ? cc : cw, sizeof cw);
}

static iq_render_surface surface_of(const quad *q) {
    iq_render_surface s;
    memset(&s, 0, sizeof s);
    s.positions = q->positions;
    s.texcoords = q->texcoords;
    s.colors = q->colors;
    s.vertex_count = 4;
    s.indices = q->indices;
    s.triangle_count = 2;
    memcpy(s.matrix, IDENTITY, sizeof IDENTITY);
    s.cull = IQ_CULL_FRONT; /* Quake's default: back faces hidden */
    s.depth_write = 1;
    return s;
}

static uint8_t *picture(iq_render_target *t, uint32_t w, uint32_t h) {
    uint8_t *px = calloc((size_t)w * h, 4);
    iq_render_resolve(t, px);
    return px;
}

static int count_alpha(const uint8_t *px, uint32_t n, uint8_t a) {
    int c = 0;
    for (uint32_t i = 0; i < n; i++) c += px[i * 4 + 3] == a;
    return c;
}

static void test_coverage_and_culling(void) {
    iq_render_view view = flat_view();
    quad q;
    for (int ccw = 0; ccw < 2; ccw++) {
        const uint32_t culls[3] = {IQ_CULL_NONE, IQ_CULL_FRONT, IQ_CULL_BACK};
        for (int c = 0; c < 3; c++) {
            uint32_t cull = culls[c];
            iq_render_target *t = iq_render_target_new(16, 16, 1, NULL);
            make_quad(&q, -0.5f, -0.5f, 0.5f, 0.5f, 0, ccw);
            iq_render_surface s = surface_of(&q);
            s.cull = cull;
            CHECK(iq_render_draw(t, &view, &s, NULL) == IQ_ERROR_NONE, "draw");
            uint8_t *px = picture(t, 16, 16);
            int expect = cull == IQ_CULL_NONE || (cull == IQ_CULL_FRONT) == !ccw ? 64 : 0;
            CHECK(count_alpha(px, 256, 255) == expect, "ccw %d cull %u: %d covered, expected %d", ccw, cull,
                  count_alpha(px, 256, 255), expect);
            if (expect) {
                /* exactly pixels 4..11 on both axes (NDC -0.5..0.5 is samples 4..12; centres 4.5..11.5) */
                CHECK(px[(4 * 16 + 4) * 4 + 3] == 255 && px[(11 * 16 + 11) * 4 + 3] == 255, "corners in");
                CHECK(px[(3 * 16 + 4) * 4 + 3] == 0 && px[(4 * 16 + 12) * 4 + 3] == 0, "outside out");
                CHECK(px[(8 * 16 + 8) * 4] == 255, "white");
            }
            free(px);
            iq_render_target_free(t);
        }
    }
    /* Two triangles sharing an edge with alpha-blended additive colour: the diagonal is covered once. */
    iq_render_target *t = iq_render_target_new(16, 16, 1, NULL);
    make_quad(&q, -1, -1, 1, 1, 0, 0);
    for (int i = 0; i < 16; i++) q.colors[i] = 0.25f;
    iq_render_surface s = surface_of(&q);
    s.blend_src = IQ_BLEND_ONE;
    s.blend_dst = IQ_BLEND_ONE;
    CHECK(iq_render_draw(t, &view, &s, NULL) == IQ_ERROR_NONE, "draw");
    uint8_t *px = picture(t, 16, 16);
    iq_render_clear(t, (const float[4]){0, 0, 0, 1});
    CHECK(iq_render_draw(t, &view, &s, NULL) == IQ_ERROR_NONE, "draw");
    iq_render_resolve(t, px);
    int ok = 1;
    for (int i = 0; i < 256; i++) ok &= px[i * 4] == 64;
    CHECK(ok, "every pixel covered exactly once along the shared diagonal");
    free(px);
    iq_render_target_free(t);
}

static void test_depth(void) {
    iq_render_view view = flat_view();
    iq_render_target *t = iq_render_target_new(8, 8, 1, NULL);
    quad near, far;
    make_quad(&near, -1, -1, 1, 1, -0.5f, 0);
    make_quad(&far, -1, -1, 1, 1, 0.5f, 0);
    for (int i = 0; i < 4; i++) {
        near.colors[i * 4 + 0] = 0; near.colors[i * 4 + 2] = 0; /* green */
        far.colors[i * 4 + 1] = 0; far.colors[i * 4 + 2] = 0;   /* red */
    }
    iq_render_surface sn = surface_of(&near), sf = surface_of(&far);
    iq_render_draw(t, &view, &sn, NULL);
    iq_render_draw(t, &view, &sf, NULL);
    uint8_t px[8 * 8 * 4];
    iq_render_resolve(t, px);
    CHECK(px[0] == 0 && px[1] == 255, "the nearer quad stays in front when the farther one comes later");
    /* EQUAL passes only at the same depth, and LEQUAL lets an equal depth through. */
    quad same;
    make_quad(&same, -1, -1, 1, 1, -0.5f, 0);
    for (int i = 0; i < 4; i++) { same.colors[i * 4 + 0] = 0; same.colors[i * 4 + 1] = 0; } /* blue */
    iq_render_surface ss = surface_of(&same);
    ss.depth_func = IQ_DEPTH_EQUAL;
    iq_render_draw(t, &view, &ss, NULL);
    iq_render_resolve(t, px);
    CHECK(px[2] == 255 && px[1] == 0, "depth EQUAL draws on the same depth");
    /* Depth write off: a surface in front that does not write lets a farther one through afterwards. */
    iq_render_clear(t, NULL);
    quad front;
    make_quad(&front, -1, -1, 1, 1, -0.9f, 0);
    iq_render_surface sw = surface_of(&front);
    sw.depth_write = 0;
    iq_render_draw(t, &view, &sw, NULL);
    iq_render_draw(t, &view, &sf, NULL);
    iq_render_resolve(t, px);
    CHECK(px[0] == 255 && px[1] == 0, "without depth writes the later, farther quad draws over");
    /* Clipped by the near plane: a quad behind z = -1 draws nothing; one across it draws its part. */
    iq_render_clear(t, NULL);
    quad behind;
    make_quad(&behind, -1, -1, 1, 1, -1.5f, 0);
    iq_render_surface sb = surface_of(&behind);
    iq_render_draw(t, &view, &sb, NULL);
    iq_render_resolve(t, px);
    CHECK(count_alpha(px, 64, 0) == 64, "behind the near plane: nothing");
    iq_render_target_free(t);
}

static void test_textures(void) {
    iq_render_view view = flat_view();
    /* 2x2: red green / blue white, top row first */
    static const uint8_t tex[16] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
    quad q;
    make_quad(&q, -1, -1, 1, 1, 0, 0);
    iq_render_surface s = surface_of(&q);
    s.texture = (iq_render_texture){2, 2, tex, 1, 0, 0};
    iq_render_target *t = iq_render_target_new(8, 8, 1, NULL);
    iq_render_draw(t, &view, &s, NULL);
    uint8_t px[8 * 8 * 4];
    iq_render_resolve(t, px);
    /* nearest, st 0..1: quadrants */
    CHECK(px[0] == 255 && px[1] == 0, "top left red");
    CHECK(px[(7) * 4 + 1] == 255 && px[7 * 4] == 0, "top right green");
    CHECK(px[(7 * 8) * 4 + 2] == 255 && px[(7 * 8) * 4] == 0, "bottom left blue");
    /* repeat: st 0..2 shows the pattern twice */
    for (int i = 0; i < 8; i++) q.texcoords[i] *= 2;
    iq_render_draw(t, &view, &s, NULL);
    iq_render_resolve(t, px);
    CHECK(px[(2 * 8 + 2) * 4 + 2] == 255 && px[(2 * 8 + 2) * 4] == 255, "repeat: pixel (2,2) is the white texel");
    CHECK(px[(0 * 8 + 4) * 4] == 255 && px[(0 * 8 + 4) * 4 + 1] == 0, "repeat: pixel (4,0) is red again");
    /* clamp: st -1..2 (x) sticks to the edge texels outside 0..1 */
    for (int i = 0; i < 8; i++) q.texcoords[i] = q.texcoords[i] * 1.5f - 1; /* 0->-1, 2->2 */
    s.texture.clamp = 1;
    iq_render_draw(t, &view, &s, NULL);
    iq_render_resolve(t, px);
    CHECK(px[0] == 255 && px[1] == 0 && px[2] == 0, "clamp: top left stays red");
    CHECK(px[7 * 4 + 1] == 255 && px[7 * 4] == 0, "clamp: top right stays green");
    /* bilinear: a 2x1 texture black | white over 8 pixels with st 0..1: the middle two pixels
     * (centres at s = 7/16 and 9/16) are 3/8 and 5/8 of the way (texel centres at 1/4 and 3/4). */
    static const uint8_t bw[8] = {0, 0, 0, 255, 255, 255, 255, 255};
    make_quad(&q, -1, -1, 1, 1, 0, 0);
    s.texture = (iq_render_texture){2, 1, bw, 0, 1, 0};
    iq_render_draw(t, &view, &s, NULL);
    iq_render_resolve(t, px);
    CHECK(abs(px[3 * 4] - 96) <= 1 && abs(px[4 * 4] - 159) <= 1, "bilinear: %d %d (expected 96 159)", px[12], px[16]);
    CHECK(px[0] == 0 && px[7 * 4] == 255, "bilinear clamp: the ends are the edge texels");
    iq_render_target_free(t);
}

/* Mipmaps: the chain's levels are 2x2 averages; a one-texel checker seen from far is grey (the
 * element's trilinear filtering), where sampling level 0 would give black or white. */
static void test_mipmaps(void) {
    CHECK(iq_render_mipmap_bytes(4, 2) == (4 * 2 + 2 * 1 + 1 * 1) * 4, "chain bytes");
    CHECK(iq_render_mipmap_bytes(0, 2) == 0 && iq_render_mipmap_bytes(IQ_RENDER_MAX_TEXTURE + 1, 1) == 0, "bad sizes");
    enum { N = 64 };
    uint8_t *tex = malloc(N * N * 4), *chain = malloc(iq_render_mipmap_bytes(N, N));
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++) {
            uint8_t v = ((x + y) & 1) ? 255 : 0;
            uint8_t *p = tex + (y * N + x) * 4;
            p[0] = p[1] = p[2] = v;
            p[3] = 255;
        }
    CHECK(iq_render_mipmaps(tex, N, N, chain) == IQ_ERROR_NONE, "mipmaps");
    CHECK(chain[N * N * 4] == 128 && chain[N * N * 4 + 3] == 255, "level 1 is the average: %d", chain[N * N * 4]);
    iq_render_view view = flat_view();
    quad q;
    make_quad(&q, -1, -1, 1, 1, 0, 0);
    for (int i = 0; i < 8; i++) q.texcoords[i] += 0.5f / N; /* pixel centres on texel centres */
    iq_render_surface s = surface_of(&q);
    s.texture = (iq_render_texture){N, N, chain, 0, 0, 1};
    iq_render_target *t = iq_render_target_new(4, 4, 1, NULL);
    iq_render_draw(t, &view, &s, NULL);
    uint8_t px[64];
    iq_render_resolve(t, px);
    int grey = 1;
    for (int i = 0; i < 16; i++) grey &= abs(px[i * 4] - 128) <= 2;
    CHECK(grey, "minified 16x: grey, got %d %d", px[0], px[4]);
    s.texture.mipmapped = 0;
    iq_render_draw(t, &view, &s, NULL);
    iq_render_resolve(t, px);
    CHECK(abs(px[0] - 128) > 60, "without mipmaps: a texel's black or white (%d)", px[0]);
    iq_render_target_free(t);
    free(tex);
    free(chain);
}

static void test_alpha_and_blending(void) {
    iq_render_view view = flat_view();
    /* 2x1: alpha 64 | alpha 192 */
    static const uint8_t tex[8] = {255, 255, 255, 64, 255, 255, 255, 192};
    quad q;
    make_quad(&q, -1, -1, 1, 1, 0, 0);
    iq_render_surface s = surface_of(&q);
    s.texture = (iq_render_texture){2, 1, tex, 1, 0, 0};
    iq_render_target *t = iq_render_target_new(8, 8, 1, NULL);
    uint8_t px[8 * 8 * 4];
    const uint32_t funcs[3] = {IQ_ALPHA_GE128, IQ_ALPHA_LT128, IQ_ALPHA_GT0};
    const int left[3] = {0, 1, 1}, right[3] = {1, 0, 1};
    for (int f = 0; f < 3; f++) {
        iq_render_clear(t, NULL);
        s.alpha_func = funcs[f];
        iq_render_draw(t, &view, &s, NULL);
        iq_render_resolve(t, px);
        CHECK((px[3] == 255) == left[f] && (px[7 * 4 + 3] == 255) == right[f], "alpha func %u", funcs[f]);
    }
    /* The alpha test comes before blending: GE128 with SRC_ALPHA/ONE_MINUS_SRC_ALPHA over grey
     * leaves the left half grey and blends the right one: 0.5 + (1 - 0.5) * 0.753 = 0.876. */
    iq_render_clear(t, (const float[4]){0.5f, 0.5f, 0.5f, 1});
    s.alpha_func = IQ_ALPHA_GE128;
    s.blend_src = IQ_BLEND_SRC_ALPHA;
    s.blend_dst = IQ_BLEND_ONE_MINUS_SRC_ALPHA;
    iq_render_draw(t, &view, &s, NULL);
    iq_render_resolve(t, px);
    CHECK(px[0] == 128, "alpha-tested away: background %d", px[0]);
    int expect = (int)floorf((192.0f / 255 + 128.0f / 255 * (1 - 192.0f / 255)) * 255 + 0.5f);
    CHECK(abs(px[7 * 4] - expect) <= 1, "blended %d, expected %d", px[7 * 4], expect);
    CHECK(px[7 * 4 + 3] == 255, "the target's alpha is kept");
    /* DST_COLOR, ZERO (a multiply) of a 0.5 white over 0.5 grey: 0.25 */
    iq_render_clear(t, (const float[4]){0.5f, 0.5f, 0.5f, 1});
    s.texture.data = NULL;
    s.alpha_func = IQ_ALPHA_ALL;
    for (int i = 0; i < 16; i++) q.colors[i] = 0.5f;
    s.blend_src = IQ_BLEND_DST_COLOR;
    s.blend_dst = IQ_BLEND_ZERO;
    iq_render_draw(t, &view, &s, NULL);
    iq_render_resolve(t, px);
    CHECK(abs(px[0] - 64) <= 1, "multiply: %d", px[0]);
    iq_render_target_free(t);
}

static void test_supersampling_and_background(void) {
    iq_render_view view = flat_view();
    /* The quad's left edge at NDC 0 on a 2-pixel-wide target covers pixel 1 whole; moving it to
     * NDC -0.5 covers half of pixel 0: with 4x4 samples, alpha 128. */
    quad q;
    make_quad(&q, -0.5f, -1, 1, 1, 0, 0);
    iq_render_surface s = surface_of(&q);
    iq_render_target *t = iq_render_target_new(2, 1, 4, NULL);
    iq_render_clear(t, (const float[4]){1, 0, 0, 0}); /* transparent, whatever the colour */
    iq_render_draw(t, &view, &s, NULL);
    uint8_t px[8];
    iq_render_resolve(t, px);
    CHECK(px[3] == 128 && px[7] == 255, "coverage: alphas %d %d", px[3], px[7]);
    CHECK(px[0] == 255 && px[1] == 255, "the colour of a half-covered pixel over transparent is the surface's");
    iq_render_clear(t, (const float[4]){0, 0, 1, 1});
    iq_render_draw(t, &view, &s, NULL);
    iq_render_resolve(t, px);
    CHECK(px[3] == 255 && abs(px[0] - 128) <= 1 && abs(px[2] - 255) <= 1, "over blue: %d %d %d", px[0], px[1], px[2]);
    iq_render_target_free(t);
}

static void test_light(void) {
    iq_render_view view = flat_view();
    quad q;
    make_quad(&q, -1, -1, 1, 1, 0, 0);
    float normals[12] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
    iq_render_surface s = surface_of(&q);
    s.normals = normals;
    s.lit = 1;
    iq_render_target *t = iq_render_target_new(4, 4, 1, NULL);
    uint8_t px[64];
    /* light along the normal: 0.45 * (0.62 + 0.38) + 0.7 = 1.15, clamped */
    iq_render_draw(t, &view, &s, NULL);
    iq_render_resolve(t, px);
    CHECK(px[0] == 255 && px[3] == 255, "lit: %d", px[0]);
    /* light across: ambient only, 0.45 with the sky term at its top */
    view.light[0] = 1; view.light[2] = 0;
    iq_render_draw(t, &view, &s, NULL);
    iq_render_resolve(t, px);
    CHECK(abs(px[0] - 115) <= 1, "ambient only: %d", px[0]);
    /* normal down, light down: sky term 0: 0.45 * 0.62 + 0.7 = 0.979 */
    for (int i = 0; i < 4; i++) normals[i * 3 + 2] = -1;
    view.light[0] = 0; view.light[2] = -1;
    iq_render_draw(t, &view, &s, NULL);
    iq_render_resolve(t, px);
    CHECK(abs(px[0] - 250) <= 1, "from below: %d", px[0]);
    /* a back face (drawn with culling off) is lit from its other side, as gl_FrontFacing flips n */
    make_quad(&q, -1, -1, 1, 1, 0, 1);
    s.cull = IQ_CULL_NONE;
    view.light[2] = 1; /* n = (0,0,-1) flipped to (0,0,1) */
    iq_render_draw(t, &view, &s, NULL);
    iq_render_resolve(t, px);
    CHECK(px[0] == 255, "back face lit from its side: %d", px[0]);
    iq_render_target_free(t);
}

/* A floor receding from a perspective camera: its texture's halfway line (t = 0.5, at world
 * z = -3 between -2 and -4) lands where the projection puts that point, not half way down. */
static void test_perspective(void) {
    /* A plain projection: f = 1, near 1, far 10, looking down -z. */
    float proj[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -11.0f / 9, -1, 0, 0, -20.0f / 9, 0};
    iq_render_view view = flat_view();
    memcpy(view.view_projection, proj, sizeof proj);
    float p[12] = {-1, -1, -2, -1, -1, -4, 1, -1, -4, 1, -1, -2};
    float st[8] = {0, 0, 0, 1, 1, 1, 1, 0};
    float colors[16];
    for (int i = 0; i < 16; i++) colors[i] = 1;
    uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    static const uint8_t tex[8] = {255, 0, 0, 255, 0, 0, 255, 255}; /* 1x2: red above blue */
    iq_render_surface s;
    memset(&s, 0, sizeof s);
    s.positions = p; s.texcoords = st; s.colors = colors; s.vertex_count = 4; s.indices = idx; s.triangle_count = 2;
    memcpy(s.matrix, IDENTITY, sizeof IDENTITY);
    s.texture = (iq_render_texture){1, 2, tex, 1, 0, 0};
    s.depth_write = 1;
    enum { N = 200 };
    iq_render_target *t = iq_render_target_new(N, N, 1, NULL);
    CHECK(iq_render_draw(t, &view, &s, NULL) == IQ_ERROR_NONE, "draw");
    uint8_t *px = picture(t, N, N);
    /* y = -1 at z = -2 is NDC -0.5 (row 150), at -4 NDC -0.25 (row 125), at -3 NDC -1/3 (row 133.3) */
    int change = -1;
    for (int y = N - 1; y >= 100; y--)
        if (px[(y * N + N / 2) * 4 + 3] == 255 && px[(y * N + N / 2) * 4 + 0] == 255) change = y; /* first red row */
    /* row 133's centre (133.5) is just past t = 0.5 (row 133.33); an affine mapping would put it at 137.5 */
    CHECK(change == 133, "t = 0.5 at row %d, expected 133", change);
    free(px);
    iq_render_target_free(t);
}

static void test_bad_arguments(void) {
    iq_error e;
    CHECK(!iq_render_target_new(0, 10, 1, &e) && e.code == IQ_ERROR_INVALID_ARGUMENT, "0 wide");
    CHECK(!iq_render_target_new(100000, 100000, 1, &e) && e.code == IQ_ERROR_INVALID_ARGUMENT, "huge");
    CHECK(!iq_render_target_new(8192, 8192, 2, &e) && e.code == IQ_ERROR_INVALID_ARGUMENT, "too many samples: %s", e.message);
    CHECK(!iq_render_target_new(8, 8, 5, &e) && e.code == IQ_ERROR_INVALID_ARGUMENT, "supersample 5");
    iq_render_target *t = iq_render_target_new(8, 8, 2, &e);
    iq_render_view view = flat_view();
    quad q;
    make_quad(&q, -1, -1, 1, 1, 0, 0);
    iq_render_surface s = surface_of(&q);
    q.indices[5] = 4;
    CHECK(iq_render_draw(t, &view, &s, &e) != IQ_ERROR_NONE && e.code == IQ_ERROR_INVALID_ARGUMENT, "index past the vertices");
    q.indices[5] = 3;
    s.blend_src = IQ_BLEND_ONE;
    CHECK(iq_render_draw(t, &view, &s, &e) != IQ_ERROR_NONE, "blend src without dst");
    s.blend_src = 0;
    static const uint8_t px1[4] = {1, 2, 3, 4};
    s.texture = (iq_render_texture){0, 1, px1, 0, 0, 0};
    CHECK(iq_render_draw(t, &view, &s, &e) != IQ_ERROR_NONE, "texture 0 wide");
    s.texture = (iq_render_texture){0};
    /* Non-finite and absurd vertices: skipped, never drawn, never a crash. */
    q.positions[0] = NAN;
    q.positions[4] = 1e30f;
    CHECK(iq_render_draw(t, &view, &s, &e) == IQ_ERROR_NONE, "NaN vertex: drawn without it");
    uint64_t drawn, skipped;
    iq_render_counts(t, &drawn, &skipped);
    CHECK(skipped == 2 && drawn == 0, "both triangles have a bad vertex: %llu %llu", (unsigned long long)drawn,
          (unsigned long long)skipped);
    iq_render_target_free(t);
}


// -- Lines and polygonOffset

/* Segments given in pixels (x right, y down, pixel centres at .5) of a W x H target, at NDC depth z. */
#define LW 16
#define LH 16
static float ndc_x(float px) { return px / LW * 2 - 1; }
static float ndc_y(float py) { return 1 - py / LH * 2; }

static iq_render_lines lines_of(const float *xyzrgb, uint32_t segments, int depth_test) {
    iq_render_lines l;
    memset(&l, 0, sizeof l);
    l.positions = xyzrgb;
    l.colors = xyzrgb + 3;
    l.stride = 6;
    l.vertex_count = segments * 2;
    l.segment_count = segments;
    memcpy(l.matrix, IDENTITY, sizeof IDENTITY);
    l.depth_test = (uint32_t)depth_test;
    return l;
}

static void segment(float *out, float x0, float y0, float x1, float y1, float z, float r, float g, float b) {
    float v[12] = {ndc_x(x0), ndc_y(y0), z, r, g, b, ndc_x(x1), ndc_y(y1), z, r, g, b};
    memcpy(out, v, sizeof v);
}

static const uint8_t *pixel(const uint8_t *px, int x, int y) { return px + ((size_t)y * LW + x) * 4; }

static void test_lines(void) {
    iq_render_view view = flat_view();
    iq_render_target *t = iq_render_target_new(LW, LH, 2, NULL);
    uint8_t px[LW * LH * 4];
    float v[6 * 2 * 4];
    /* Horizontal, through the centres of row 5 from pixel 2's centre to pixel 12's: one pixel wide (both
     * sample rows of row 5, none of rows 4 and 6), pixels 3..11 whole, 2 and 12 half (the rectangle
     * ends at the segment's ends: one of their two sample columns). */
    segment(v, 2.5f, 5.5f, 12.5f, 5.5f, 0, 1, 0, 0);
    iq_render_lines l = lines_of(v, 1, 0);
    CHECK(iq_render_draw_lines(t, &view, &l, NULL) == IQ_ERROR_NONE, "a line");
    iq_render_resolve(t, px);
    int wrong = 0;
    for (int y = 0; y < LH; y++)
        for (int x = 0; x < LW; x++) {
            int want = y != 5 ? 0 : x >= 3 && x <= 11 ? 255 : x == 2 || x == 12 ? 128 : 0;
            if (pixel(px, x, y)[3] != want) wrong++;
        }
    CHECK(wrong == 0, "horizontal line coverage: %d pixels differ", wrong);
    CHECK(pixel(px, 7, 5)[0] == 255 && pixel(px, 7, 5)[1] == 0 && pixel(px, 2, 5)[0] == 255, "its colour");
    /* The same line given the other way round covers the same samples. */
    uint8_t px2[LW * LH * 4];
    iq_render_clear(t, NULL);
    segment(v, 12.5f, 5.5f, 2.5f, 5.5f, 0, 1, 0, 0);
    iq_render_draw_lines(t, &view, &l, NULL);
    iq_render_resolve(t, px2);
    CHECK(memcmp(px, px2, sizeof px) == 0, "a segment's direction does not change its samples");
    /* Vertical, down column 9. */
    iq_render_clear(t, NULL);
    segment(v, 9.5f, 1.5f, 9.5f, 14.5f, 0, 0, 1, 0);
    iq_render_draw_lines(t, &view, &l, NULL);
    iq_render_resolve(t, px);
    wrong = 0;
    for (int y = 0; y < LH; y++)
        for (int x = 0; x < LW; x++) {
            int want = x != 9 ? 0 : y >= 2 && y <= 13 ? 255 : y == 1 || y == 14 ? 128 : 0;
            if (pixel(px, x, y)[3] != want) wrong++;
        }
    CHECK(wrong == 0, "vertical line coverage: %d pixels differ", wrong);
    /* Diagonal, from pixel (2, 2)'s centre to (12, 12)'s: every sample of the pixels on the diagonal
     * is within half a pixel of it (0.35 px), one sample of each pixel beside it (the one nearest the
     * line, 0.35 px off), none further. */
    iq_render_clear(t, NULL);
    segment(v, 2.5f, 2.5f, 12.5f, 12.5f, 0, 0, 0, 1);
    iq_render_draw_lines(t, &view, &l, NULL);
    iq_render_resolve(t, px);
    wrong = 0;
    for (int i = 3; i <= 11; i++) {
        if (pixel(px, i, i)[3] != 255) wrong++;
        if (i <= 10 && (pixel(px, i + 1, i)[3] != 64 || pixel(px, i, i + 1)[3] != 64)) wrong++;
        if (i <= 9 && (pixel(px, i + 2, i)[3] != 0 || pixel(px, i, i + 2)[3] != 0)) wrong++;
    }
    CHECK(wrong == 0, "diagonal line coverage: %d pixels differ (%d %d)", wrong, pixel(px, 5, 5)[3], pixel(px, 6, 5)[3]);
    /* Colours interpolated between the ends: red to blue, purple half way. */
    iq_render_clear(t, NULL);
    float grad[12] = {ndc_x(0), ndc_y(8.5f), 0, 1, 0, 0, ndc_x(16), ndc_y(8.5f), 0, 0, 0, 1};
    iq_render_lines lg = lines_of(grad, 1, 0);
    iq_render_draw_lines(t, &view, &lg, NULL);
    iq_render_resolve(t, px);
    const uint8_t *mid = pixel(px, 8, 8);
    CHECK(abs(mid[0] - 128) <= 9 && abs(mid[2] - 128) <= 9 && pixel(px, 0, 8)[0] > 240 && pixel(px, 15, 8)[2] > 240,
          "colours between the ends: %d %d %d", mid[0], mid[1], mid[2]);
    iq_render_target_free(t);
}

static void test_line_depth(void) {
    iq_render_view view = flat_view();
    iq_render_target *t = iq_render_target_new(LW, LH, 2, NULL);
    uint8_t px[LW * LH * 4];
    /* A red quad over the left half, near (NDC z -0.5: depth 0.25). */
    quad q;
    make_quad(&q, -1, -1, 0, 1, -0.5f, 0);
    for (int i = 0; i < 4; i++) { q.colors[i * 4 + 1] = 0; q.colors[i * 4 + 2] = 0; }
    iq_render_surface s = surface_of(&q);
    iq_render_draw(t, &view, &s, NULL);
    float v[12 * 4];
    /* Row 5: a depth-tested green line at depth 0.5 (hidden by the quad, drawn beside it, depth written);
     * then a depth-tested line at depth 0.7 on the same row: hidden everywhere. Row 8: a blue line
     * on top at depth 0.95 (over the quad too, depth untouched); then a white depth-tested line at
     * 0.75 on it: hidden by the quad, drawn beside it (the line on top left no depth). */
    segment(v, 0, 5.5f, 16, 5.5f, 0, 0, 1, 0);
    segment(v + 12, 0, 5.5f, 16, 5.5f, 0.4f, 1, 1, 0);
    segment(v + 24, 0, 8.5f, 16, 8.5f, 0.9f, 0, 0, 1);
    segment(v + 36, 0, 8.5f, 16, 8.5f, 0.5f, 1, 1, 1);
    for (int k = 0; k < 4; k++) {
        iq_render_lines l = lines_of(v + 12 * k, 1, k != 2);
        CHECK(iq_render_draw_lines(t, &view, &l, NULL) == IQ_ERROR_NONE, "line %d", k);
    }
    iq_render_resolve(t, px);
    int wrong = 0;
    for (int x = 0; x < LW; x++) {
        const uint8_t *a = pixel(px, x, 5), *b = pixel(px, x, 8);
        int left = x < 8;
        if (left ? !(a[0] == 255 && a[1] == 0) : !(a[0] == 0 && a[1] == 255)) wrong++;
        if (left ? !(b[0] == 0 && b[2] == 255) : !(b[0] == 255 && b[1] == 255 && b[2] == 255)) wrong++;
    }
    CHECK(wrong == 0, "depth-tested and on-top lines: %d pixels differ", wrong);
    /* Clipped to the near and far planes in clip space: a segment from z -3 to 1 (w 1) is seen from
     * half way (z -1): x from 0 to 0.5 in NDC, pixels 8..12. One wholly behind the near plane, or past
     * the far one, draws nothing. */
    iq_render_clear(t, NULL);
    float c[24] = {-0.5f, 0, -3, 1, 1, 1, 0.5f, 0, 1, 1, 1, 1, -1, 0.5f, -3, 1, 1, 1, 1, 0.5f, -1.5f, 1, 1, 1};
    float far[12] = {-1, -0.5f, 1.5f, 1, 1, 1, 1, -0.5f, 3, 1, 1, 1};
    iq_render_lines lc = lines_of(c, 2, 0), lf = lines_of(far, 1, 0);
    uint64_t drawn0, skipped0, drawn, skipped;
    iq_render_counts(t, &drawn0, &skipped0);
    iq_render_draw_lines(t, &view, &lc, NULL);
    iq_render_draw_lines(t, &view, &lf, NULL);
    iq_render_resolve(t, px);
    iq_render_counts(t, &drawn, &skipped);
    int row = (int)(LH / 2), lit = 0, outside = 0;
    for (int x = 0; x < LW; x++) {
        for (int y = 0; y < LH; y++) {
            uint8_t a = pixel(px, x, y)[3];
            /* the line runs between rows 7 and 8: half of its width in each */
            if (y == row - 1 || y == row) { if (x >= 9 && x <= 11) lit += a == 128; if (x < 7 || x > 12) outside += a != 0; }
            else outside += a != 0;
        }
    }
    CHECK(lit == 6 && outside == 0, "clipped to the near plane: %d lit, %d outside", lit, outside);
    CHECK(drawn - drawn0 == 1 && skipped - skipped0 == 2, "one segment drawn, two clipped away: %llu %llu",
          (unsigned long long)(drawn - drawn0), (unsigned long long)(skipped - skipped0));
    /* Absurd input: ends far off the target are clipped to it (the whole row, bounded work); NaN and
     * infinite ends are skipped. */
    iq_render_clear(t, NULL);
    float huge[36] = {-1e30f, ndc_y(3.5f), 0, 1, 1, 1, 1e30f, ndc_y(3.5f), 0, 1, 1, 1,
                      NAN, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1,
                      INFINITY, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1};
    iq_render_lines lh = lines_of(huge, 3, 1);
    iq_render_counts(t, &drawn0, &skipped0);
    CHECK(iq_render_draw_lines(t, &view, &lh, NULL) == IQ_ERROR_NONE, "absurd lines");
    iq_render_counts(t, &drawn, &skipped);
    iq_render_resolve(t, px);
    int whole = 0;
    for (int x = 0; x < LW; x++) whole += pixel(px, x, 3)[3] == 255;
    CHECK(whole == LW && count_alpha(px, LW * LH, 0) == LW * (LH - 1), "a line 1e30 long covers its row: %d", whole);
    CHECK(drawn - drawn0 == 1 && skipped - skipped0 == 2, "NaN and infinite ends are skipped");
    /* Bad arguments. */
    iq_error e;
    iq_render_lines bad = lines_of(huge, 1, 0);
    bad.stride = 2;
    CHECK(iq_render_draw_lines(t, &view, &bad, &e) == IQ_ERROR_INVALID_ARGUMENT, "stride 2");
    bad = lines_of(huge, 4, 0);
    bad.vertex_count = 6;
    CHECK(iq_render_draw_lines(t, &view, &bad, &e) == IQ_ERROR_INVALID_ARGUMENT, "4 segments of 6 vertices: %s", e.message);
    static const uint32_t idx[2] = {0, 6};
    bad = lines_of(huge, 1, 0);
    bad.indices = idx;
    CHECK(iq_render_draw_lines(t, &view, &bad, &e) == IQ_ERROR_INVALID_ARGUMENT, "an index past the vertices");
    bad.positions = NULL;
    CHECK(iq_render_draw_lines(t, &view, &bad, &e) == IQ_ERROR_INVALID_ARGUMENT, "no positions");
    /* Indexed, one colour for all: the wireframe's form (a quad's outline). */
    iq_render_clear(t, NULL);
    float corners[12] = {ndc_x(3.5f), ndc_y(3.5f), 0, ndc_x(11.5f), ndc_y(3.5f), 0,
                         ndc_x(11.5f), ndc_y(11.5f), 0, ndc_x(3.5f), ndc_y(11.5f), 0};
    static const uint32_t outline[8] = {0, 1, 1, 2, 2, 3, 3, 0};
    iq_render_lines lo;
    memset(&lo, 0, sizeof lo);
    lo.positions = corners;
    lo.vertex_count = 4;
    lo.indices = outline;
    lo.segment_count = 4;
    memcpy(lo.matrix, IDENTITY, sizeof IDENTITY);
    lo.color[1] = 1;
    CHECK(iq_render_draw_lines(t, &view, &lo, NULL) == IQ_ERROR_NONE, "an outline");
    iq_render_resolve(t, px);
    CHECK(pixel(px, 3, 7)[1] == 255 && pixel(px, 7, 11)[3] == 255 && pixel(px, 7, 7)[3] == 0 &&
              pixel(px, 11, 7)[3] == 255 && pixel(px, 7, 3)[3] == 255 && pixel(px, 2, 7)[3] == 0,
          "the outline's sides, not its inside");
    iq_render_target_free(t);
}

static void test_polygon_offset(void) {
    /* A wall sloping in depth across x (NDC z = 0.2 x: 0.1 / 8 = 0.0125 of depth per pixel) and a
     * decal on the same plane 0.005 behind it in window depth (NDC + 0.01). Without an offset the
     * decal loses the depth test everywhere; with polygonOffset's -1, -2 it moves forward by the
     * slope (0.0125) plus 2 * 2^-24 and wins everywhere. */
    iq_render_view view = flat_view();
    for (int with = 0; with < 2; with++) {
        iq_render_target *t = iq_render_target_new(LW, LH, 2, NULL);
        quad wall, decal;
        make_quad(&wall, -1, -1, 1, 1, 0, 0);
        make_quad(&decal, -0.5f, -0.5f, 0.5f, 0.5f, 0, 0);
        for (int i = 0; i < 4; i++) {
            wall.positions[i * 3 + 2] = 0.2f * wall.positions[i * 3];
            decal.positions[i * 3 + 2] = 0.2f * decal.positions[i * 3] + 0.01f;
            wall.colors[i * 4 + 1] = wall.colors[i * 4 + 2] = 0;   /* red */
            decal.colors[i * 4 + 0] = decal.colors[i * 4 + 2] = 0; /* green */
        }
        iq_render_surface sw = surface_of(&wall), sd = surface_of(&decal);
        sd.lit = sw.lit = 0;
        if (with) { sd.offset_factor = -1; sd.offset_units = -2; }
        iq_render_draw(t, &view, &sw, NULL);
        CHECK(iq_render_draw(t, &view, &sd, NULL) == IQ_ERROR_NONE, "the decal");
        uint8_t px[LW * LH * 4];
        iq_render_resolve(t, px);
        int green = 0;
        for (int i = 0; i < LW * LH; i++) green += px[i * 4 + 1] == 255;
        CHECK(with ? green == 8 * 8 : green == 0, "polygonOffset %s: %d decal pixels", with ? "on" : "off", green);
        iq_render_target_free(t);
    }
    /* A decal exactly coplanar with a wall facing the view: r's 2 units are enough. */
    iq_render_target *t = iq_render_target_new(LW, LH, 1, NULL);
    quad wall, decal;
    make_quad(&wall, -1, -1, 1, 1, 0.3f, 0);
    make_quad(&decal, -1, -1, 1, 1, 0.3f + 2.0f * 2.0f / 16777216.0f * 0.9f, 0);
    iq_render_surface sw = surface_of(&wall), sd = surface_of(&decal);
    for (int i = 0; i < 4; i++) decal.colors[i * 4 + 0] = 0;
    iq_render_draw(t, &view, &sw, NULL);
    sd.offset_factor = -1;
    sd.offset_units = -2;
    iq_render_draw(t, &view, &sd, NULL);
    uint8_t px[LW * LH * 4];
    iq_render_resolve(t, px);
    CHECK(px[0] == 0 && px[2] > 0, "2 units of 2^-24 win over a wall just in front");
    iq_error e;
    sd.offset_units = NAN;
    CHECK(iq_render_draw(t, &view, &sd, &e) == IQ_ERROR_INVALID_ARGUMENT, "a NaN offset is refused");
    iq_render_target_free(t);
}


#ifdef IQI_TEST_ALLOC
static void test_allocations(void) {
    for (uint64_t n = 1; n < 10; n++) {
        int64_t live = iqi_test_heap_state.live;
        iqi_test_heap_state.allocations = 0;
        iqi_test_heap_state.fail_at = n;
        iq_error e;
        iq_render_target *t = iq_render_target_new(8, 8, 2, &e);
        quad q;
        make_quad(&q, -1, -1, 1, 1, 0, 0);
        iq_render_surface s = surface_of(&q);
        iq_render_view view = flat_view();
        int drew = t ? iq_render_draw(t, &view, &s, &e) == IQ_ERROR_NONE : 0;
        CHECK(t ? (drew || e.code == IQ_ERROR_OUT_OF_MEMORY) : e.code == IQ_ERROR_OUT_OF_MEMORY, "allocation %llu",
              (unsigned long long)n);
        iq_render_target_free(t);
        iqi_test_heap_state.fail_at = 0;
        CHECK(iqi_test_heap_state.live == live, "allocation %llu failing leaves nothing", (unsigned long long)n);
    }
}
#endif

/* Every corpus model renders with finite clip coordinates (render_check.h, the fuzzer's invariant). */
static void test_corpus(void) {
    static const char *files[] = {"iqm/mrfixit/mrfixit.iqm", "iqm/raylib/guy.iqm", "iqm/raylib/vertex_colored_object.iqm",
                                  "iqm/extension/door2.iqm", "md3/assimp/watercan.md3", "md3/assimp/european_fnt_v2.md3",
                                  "iqe/unvanquished/jetpack.iqe", "iqe/unvanquished/weapons/level1/vwep_view.iqe",
                                  "md3/openarena/models/players/sarge/upper.md3"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "../shared/corpus/%s", files[i]);
        size_t size;
        unsigned char *data = iqt_read_file(path, &size);
        CHECK(data, "%s: read", path);
        if (!data) continue;
        iq_error e;
        iq_model *m = iq_load_memory(data, size, NULL, &e);
        CHECK(m, "%s: %s", path, e.message);
        if (m) {
            int bad = iqt_check_render(m);
            CHECK(bad == 0, "%s: render check %d", path, bad);
            iq_free(m);
        }
        free(data);
    }
}

int main(void) {
    test_coverage_and_culling();
    test_depth();
    test_textures();
    test_mipmaps();
    test_alpha_and_blending();
    test_supersampling_and_background();
    test_light();
    test_perspective();
    test_bad_arguments();
    test_lines();
    test_line_depth();
    test_polygon_offset();
    test_corpus();
#ifdef IQI_TEST_ALLOC
    test_allocations();
#endif
    return iqt_finish("test_render");
}
