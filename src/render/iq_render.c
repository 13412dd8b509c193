/* The software rasterizer (iq_render.h): the element's WebGL drawing done on
 * the CPU. Vertices go through the same matrices, are clipped to the near and
 * far planes, snapped to 1/256 of a sample (as GPUs snap to sub-pixels) so the
 * edge functions are exact in double and edges shared by two triangles cover
 * each sample once (the top-left rule); attributes are interpolated with
 * perspective correction and shaded per sample; colours are stored as 8-bit
 * premultiplied RGBA, like a WebGL canvas with premultipliedAlpha, so blending
 * reads back what a GPU would. */
#include "render/iq_render.h"
#include "base/iq_internal.h"
#include <math.h>
#include <string.h>

#define IQR_MAX_VERTICES (1u << 26)
#define IQR_ATTRS 13            /* clip xyzw, world normal xyz, st, rgba */
#define IQR_CLIP_MAX 9          /* a triangle clipped by two planes has at most 5 corners; room to spare */
#define IQR_SNAP 256.0
#define IQR_DEPTH_RESOLUTION (1.0 / 16777216.0) /* polygonOffset's r: 2^-24, a 24-bit depth buffer */

struct iq_render_target {
    uint32_t width, height, ss;  /* pixels, samples per pixel along each axis */
    uint32_t sw, sh;             /* samples */
    uint8_t *color;              /* sw * sh * 4, premultiplied */
    float *depth;                /* sw * sh, 0 near .. 1 far */
    float *scratch;              /* 7 floats per vertex of the surface being drawn */
    uint32_t scratch_vertices;
    uint64_t drawn, skipped;
};

iq_render_target *iq_render_target_new(uint32_t width, uint32_t height, uint32_t supersample, iq_error *error) {
    iq_error local;
    error = iqi_error_reset(error, &local);
    if (width == 0 || height == 0 || width > IQ_RENDER_MAX_DIMENSION || height > IQ_RENDER_MAX_DIMENSION) {
        iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT, "render: size %ux%u is outside 1..%u", width, height,
                      IQ_RENDER_MAX_DIMENSION);
        return NULL;
    }
    if (supersample == 0 || supersample > IQ_RENDER_MAX_SUPERSAMPLE) {
        iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT, "render: supersample %u is outside 1..%u", supersample,
                      IQ_RENDER_MAX_SUPERSAMPLE);
        return NULL;
    }
    uint64_t samples = (uint64_t)width * height * supersample * supersample;
    if (samples > IQ_RENDER_MAX_SAMPLES) {
        iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT,
                      "render: %ux%u with %ux%u samples per pixel is %llu samples, over the limit of %u", width,
                      height, supersample, supersample, (unsigned long long)samples, IQ_RENDER_MAX_SAMPLES);
        return NULL;
    }
    iq_render_target *t = iqi_calloc(1, sizeof *t);
    if (t) {
        /* Not zeroed: iq_render_clear below writes every sample (a 512x512 picture at 2x2 is 8 MB). */
        t->color = iqi_malloc((size_t)samples * 4);
        t->depth = t->color ? iqi_malloc((size_t)samples * sizeof(float)) : NULL;
    }
    if (!t || !t->depth) {
        iq_render_target_free(t);
        iqi_set_error(error, IQ_ERROR_OUT_OF_MEMORY, "render: no memory for %llu samples", (unsigned long long)samples);
        return NULL;
    }
    t->width = width;
    t->height = height;
    t->ss = supersample;
    t->sw = width * supersample;
    t->sh = height * supersample;
    static const float clear[4] = {0, 0, 0, 0};
    iq_render_clear(t, clear);
    return t;
}

void iq_render_target_free(iq_render_target *t) {
    if (!t) return;
    iqi_free(t->color);
    iqi_free(t->depth);
    iqi_free(t->scratch);
    iqi_free(t);
}

static uint8_t unorm8(float v) { /* GL's float to 8-bit: clamp, round to nearest */
    if (!(v > 0)) return 0;
    if (v >= 1) return 255;
    return (uint8_t)(v * 255.0f + 0.5f);
}

void iq_render_clear(iq_render_target *t, const float rgba[4]) {
    if (!t) return;
    float a = rgba ? rgba[3] : 0;
    a = a > 0 ? (a < 1 ? a : 1) : 0;
    uint8_t c[4] = {0, 0, 0, 0};
    if (rgba)
        for (int k = 0; k < 3; k++) c[k] = unorm8(rgba[k] * a);
    c[3] = unorm8(a);
    size_t n = (size_t)t->sw * t->sh;
    uint32_t word;
    memcpy(&word, c, 4);
    uint32_t *color = (uint32_t *)(void *)t->color; /* malloc's memory is aligned for any type */
    for (size_t i = 0; i < n; i++) color[i] = word;
    for (size_t i = 0; i < n; i++) t->depth[i] = 1.0f;
}

void iq_render_counts(const iq_render_target *t, uint64_t *drawn, uint64_t *skipped) {
    if (drawn) *drawn = t ? t->drawn : 0;
    if (skipped) *skipped = t ? t->skipped : 0;
}

void iq_render_resolve(const iq_render_target *t, uint8_t *rgba) {
    if (!t || !rgba) return;
    /* 32-bit sums: at most 16 samples of 255 each, times 255, fits with room to spare. */
    uint32_t ss = t->ss, n = ss * ss;
    for (uint32_t y = 0; y < t->height; y++) {
        for (uint32_t x = 0; x < t->width; x++) {
            uint32_t sum[4] = {0, 0, 0, 0};
            if (ss == 2) { /* the default: the four samples unrolled */
                const uint8_t *a = t->color + ((size_t)(y * 2) * t->sw + (size_t)x * 2) * 4, *b = a + (size_t)t->sw * 4;
                for (int k = 0; k < 4; k++) sum[k] = (uint32_t)a[k] + a[4 + k] + b[k] + b[4 + k];
            } else {
                for (uint32_t j = 0; j < ss; j++) {
                    const uint8_t *row = t->color + ((size_t)(y * ss + j) * t->sw + (size_t)x * ss) * 4;
                    for (uint32_t i = 0; i < ss; i++)
                        for (int k = 0; k < 4; k++) sum[k] += row[i * 4 + k];
                }
            }
            uint8_t *out = rgba + ((size_t)y * t->width + x) * 4;
            /* The average, then alpha un-premultiplied (what toBlob does with a premultiplied canvas). */
            uint32_t a = (sum[3] + n / 2) / n;
            if (a == 0) {
                out[0] = out[1] = out[2] = out[3] = 0;
                continue;
            }
            uint32_t total = sum[3], half = total / 2;
            if (total == 255 * n) {
                /* Every sample opaque (most pixels): the same rounding as below, which with
                 * total = 255 n comes to the plain average (for any n: the terms are 255 times
                 * those of (sum + n / 2) / n, and the odd-n remainder never crosses a multiple). */
                if (n == 4) for (int k = 0; k < 3; k++) out[k] = (uint8_t)((sum[k] + 2) >> 2);
                else for (int k = 0; k < 3; k++) out[k] = (uint8_t)((sum[k] + n / 2) / n);
            } else {
                for (int k = 0; k < 3; k++) {
                    uint32_t v = (sum[k] * 255 + half) / total;
                    out[k] = (uint8_t)(v > 255 ? 255 : v);
                }
            }
            out[3] = (uint8_t)a;
        }
    }
}

// -- Textures

#define IQR_MAX_LEVELS 16

typedef struct iqr_level {
    const uint8_t *data;
    int w, h;
} iqr_level;

typedef struct iqr_sampler {
    const uint8_t *data;
    int w, h, nearest, clamp;
    int levels;                  /* 1 without mipmaps */
    iqr_level level[IQR_MAX_LEVELS];
} iqr_sampler;

static int level_count(uint32_t w, uint32_t h) {
    int n = 1;
    while (w > 1 || h > 1) {
        w = w > 1 ? w / 2 : 1;
        h = h > 1 ? h / 2 : 1;
        n++;
    }
    return n;
}

uint64_t iq_render_mipmap_bytes(uint32_t width, uint32_t height) {
    if (width == 0 || height == 0 || width > IQ_RENDER_MAX_TEXTURE || height > IQ_RENDER_MAX_TEXTURE) return 0;
    uint64_t total = 0;
    for (;;) {
        total += (uint64_t)width * height * 4;
        if (width == 1 && height == 1) return total;
        width = width > 1 ? width / 2 : 1;
        height = height > 1 ? height / 2 : 1;
    }
}

iq_error_code iq_render_mipmaps(const uint8_t *rgba, uint32_t width, uint32_t height, uint8_t *chain) {
    if (!rgba || !chain || !iq_render_mipmap_bytes(width, height)) return IQ_ERROR_INVALID_ARGUMENT;
    memcpy(chain, rgba, (size_t)width * height * 4);
    const uint8_t *src = chain;
    uint8_t *dst = chain + (size_t)width * height * 4;
    uint32_t w = width, h = height;
    while (w > 1 || h > 1) {
        uint32_t nw = w > 1 ? w / 2 : 1, nh = h > 1 ? h / 2 : 1;
        for (uint32_t y = 0; y < nh; y++) {
            uint32_t y0 = h > 1 ? 2 * y : 0, y1 = h > 1 ? 2 * y + 1 : 0;
            for (uint32_t x = 0; x < nw; x++) {
                uint32_t x0 = w > 1 ? 2 * x : 0, x1 = w > 1 ? 2 * x + 1 : 0;
                for (int k = 0; k < 4; k++) {
                    uint32_t sum = src[((size_t)y0 * w + x0) * 4 + k] + src[((size_t)y0 * w + x1) * 4 + k] +
                                   src[((size_t)y1 * w + x0) * 4 + k] + src[((size_t)y1 * w + x1) * 4 + k];
                    dst[((size_t)y * nw + x) * 4 + k] = (uint8_t)((sum + 2) / 4);
                }
            }
        }
        src = dst;
        dst += (size_t)nw * nh * 4;
        w = nw;
        h = nh;
    }
    return IQ_ERROR_NONE;
}

/* i is within one texture of the range (the coordinates were wrapped or clamped first). */
static int wrap_index(int i, int n, int clamp) {
    if (clamp) return i < 0 ? 0 : i >= n ? n - 1 : i;
    if (i < 0) i += n;
    else if (i >= n) i -= n;
    return i < 0 || i >= n ? 0 : i;
}

/* GL's texture(): coordinates to texels with the half-texel offset, then
 * bilinear (or nearest) with repeat or clamp-to-edge. out: 0..1. */
static void sample_level(const iqr_sampler *s, const iqr_level *l, float u, float v, float out[4]);

/* GL's texture() with LINEAR_MIPMAP_LINEAR: the level of detail from the footprint (rho, texels per
 * pixel at level 0), bilinear in the two nearest levels, mixed. rho <= 1: level 0 (magnified). */
static void sample_texture(const iqr_sampler *s, float u, float v, float rho, float out[4]) {
    if (!s->data) {
        out[0] = out[1] = out[2] = out[3] = 1;
        return;
    }
    if (s->levels <= 1 || !(rho > 1)) {
        sample_level(s, &s->level[0], u, v, out);
        return;
    }
    float lod = log2f(rho);
    float top = (float)(s->levels - 1);
    if (!(lod < top)) lod = top; /* NaN too */
    int l0 = (int)lod;
    float f = lod - (float)l0;
    sample_level(s, &s->level[l0], u, v, out);
    if (f > 0 && l0 + 1 < s->levels) {
        float next[4];
        sample_level(s, &s->level[l0 + 1], u, v, next);
        for (int k = 0; k < 4; k++) out[k] += (next[k] - out[k]) * f;
    }
}

static void sample_level(const iqr_sampler *s, const iqr_level *l, float u, float v, float out[4]) {
    /* Far outside 0..1 a repeat wraps, a clamp sticks; keep the float to int conversion in range. */
    if (!s->clamp) {
        u -= floorf(u);
        v -= floorf(v);
    } else {
        u = u < -1 ? -1 : u > 2 ? 2 : u;
        v = v < -1 ? -1 : v > 2 ? 2 : v;
    }
    if (!(u == u)) u = 0; /* NaN */
    if (!(v == v)) v = 0;
    float x = u * (float)l->w, y = v * (float)l->h;
    if (s->nearest) {
        int ix = wrap_index((int)floorf(x), l->w, s->clamp), iy = wrap_index((int)floorf(y), l->h, s->clamp);
        const uint8_t *p = l->data + ((size_t)iy * l->w + ix) * 4;
        for (int k = 0; k < 4; k++) out[k] = p[k] * (1.0f / 255.0f);
        return;
    }
    x -= 0.5f;
    y -= 0.5f;
    float fx = floorf(x), fy = floorf(y);
    float ax = x - fx, ay = y - fy;
    int x0 = wrap_index((int)fx, l->w, s->clamp), x1 = wrap_index((int)fx + 1, l->w, s->clamp);
    int y0 = wrap_index((int)fy, l->h, s->clamp), y1 = wrap_index((int)fy + 1, l->h, s->clamp);
    const uint8_t *p00 = l->data + ((size_t)y0 * l->w + x0) * 4, *p10 = l->data + ((size_t)y0 * l->w + x1) * 4;
    const uint8_t *p01 = l->data + ((size_t)y1 * l->w + x0) * 4, *p11 = l->data + ((size_t)y1 * l->w + x1) * 4;
    for (int k = 0; k < 4; k++) {
        float top = p00[k] + (p10[k] - p00[k]) * ax;
        float bottom = p01[k] + (p11[k] - p01[k]) * ax;
        out[k] = (top + (bottom - top) * ay) * (1.0f / 255.0f);
    }
}

// -- Blending

static float blend_factor(uint32_t f, const float *src, const float *dst, int k) {
    switch (f) {
    case IQ_BLEND_ZERO: return 0;
    case IQ_BLEND_ONE: return 1;
    case IQ_BLEND_SRC_COLOR: return src[k];
    case IQ_BLEND_ONE_MINUS_SRC_COLOR: return 1 - src[k];
    case IQ_BLEND_DST_COLOR: return dst[k];
    case IQ_BLEND_ONE_MINUS_DST_COLOR: return 1 - dst[k];
    case IQ_BLEND_SRC_ALPHA: return src[3];
    case IQ_BLEND_ONE_MINUS_SRC_ALPHA: return 1 - src[3];
    case IQ_BLEND_DST_ALPHA: return dst[3];
    case IQ_BLEND_ONE_MINUS_DST_ALPHA: return 1 - dst[3];
    case IQ_BLEND_SRC_ALPHA_SATURATE: {
        float m = 1 - dst[3];
        return src[3] < m ? src[3] : m;
    }
    default: return 0;
    }
}

// -- Triangles

typedef struct iqr_vertex {
    float a[IQR_ATTRS]; /* clip x y z w, normal xyz, s t, r g b a */
} iqr_vertex;

typedef struct iqr_draw {
    iq_render_target *t;
    const iq_render_view *view;
    const iq_render_surface *s;
    iqr_sampler sampler;
} iqr_draw;

/* Sutherland-Hodgman against one plane: keeps the side where d >= 0. */
static int clip_polygon(const iqr_vertex *in, int n, iqr_vertex *out, int plane) {
    int m = 0;
    for (int i = 0; i < n; i++) {
        const iqr_vertex *a = &in[i], *b = &in[(i + 1) % n];
        /* near: z + w >= 0; far: w - z >= 0 */
        float da = plane == 0 ? a->a[2] + a->a[3] : a->a[3] - a->a[2];
        float db = plane == 0 ? b->a[2] + b->a[3] : b->a[3] - b->a[2];
        if (da >= 0) out[m++] = *a;
        if ((da >= 0) != (db >= 0)) {
            float f = da / (da - db);
            for (int k = 0; k < IQR_ATTRS; k++) out[m].a[k] = a->a[k] + (b->a[k] - a->a[k]) * f;
            m++;
        }
        if (m >= IQR_CLIP_MAX - 1) break;
    }
    return m;
}

typedef struct iqr_screen {
    double x, y;     /* samples, snapped, y down */
    float z;         /* depth 0..1 */
    float inv_w;
} iqr_screen;

static void shade_triangle(iqr_draw *d, const iqr_vertex *v0, const iqr_vertex *v1, const iqr_vertex *v2) {
    iq_render_target *t = d->t;
    const iq_render_surface *s = d->s;
    const iqr_vertex *v[3] = {v0, v1, v2};
    iqr_screen p[3];
    for (int i = 0; i < 3; i++) {
        float w = v[i]->a[3];
        if (!(w > 0)) { t->skipped++; return; }
        double nx = v[i]->a[0] / w, ny = v[i]->a[1] / w, nz = v[i]->a[2] / w;
        double sx = (nx * 0.5 + 0.5) * t->sw, sy = (0.5 - ny * 0.5) * t->sh;
        /* Guard band: a vertex this far out would lose the snap's exactness; such triangles
         * only arise from absurd geometry, which is skipped. */
        if (!(fabs(sx) < 1e6 && fabs(sy) < 1e6)) { t->skipped++; return; }
        p[i].x = floor(sx * IQR_SNAP + 0.5) / IQR_SNAP;
        p[i].y = floor(sy * IQR_SNAP + 0.5) / IQR_SNAP;
        float z = (float)(nz * 0.5 + 0.5);
        p[i].z = z < 0 ? 0 : z > 1 ? 1 : z;
        p[i].inv_w = 1.0f / w;
    }
    /* Area in screen space (y down): positive when the triangle is clockwise on screen, which is
     * a clockwise front face in GL's y-up window space flipped... see below. */
    double area = (p[1].x - p[0].x) * (p[2].y - p[0].y) - (p[2].x - p[0].x) * (p[1].y - p[0].y);
    if (area == 0) { t->skipped++; return; }
    /* In GL's window space (y up) front faces are clockwise (frontFace(CW)): a negative y-up
     * area. With y down the sign flips: front faces have a positive area here. */
    int front = area > 0;
    if ((s->cull == IQ_CULL_FRONT && !front) || (s->cull == IQ_CULL_BACK && front)) { t->skipped++; return; }
    int i1 = 1, i2 = 2;
    if (area < 0) { i1 = 2; i2 = 1; area = -area; }
    const iqr_screen *a = &p[0], *b = &p[i1], *c = &p[i2];
    const iqr_vertex *va = v[0], *vb = v[i1], *vc = v[i2];
    t->drawn++;

    /* Pixels the triangle may touch (the bounding box, in samples, rounded out to whole pixels). */
    const int ss = (int)t->ss;
    double minx = fmin(a->x, fmin(b->x, c->x)), maxx = fmax(a->x, fmax(b->x, c->x));
    double miny = fmin(a->y, fmin(b->y, c->y)), maxy = fmax(a->y, fmax(b->y, c->y));
    int x0 = (int)floor(minx / ss), x1 = (int)floor(maxx / ss);
    int y0 = (int)floor(miny / ss), y1 = (int)floor(maxy / ss);
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > (int)t->width - 1) x1 = (int)t->width - 1;
    if (y1 > (int)t->height - 1) y1 = (int)t->height - 1;
    if (x0 > x1 || y0 > y1) return;

    /* Edge functions E(p) = (q.x - o.x)(p.y - o.y) - (q.y - o.y)(p.x - o.x) for each edge o->q,
     * positive inside: E = ex * px + ey * py + ec. Edge bc weighs a, ca weighs b, ab weighs c.
     * Snapped coordinates and sample centres (multiples of 1/2) keep every term exact. */
    const iqr_screen *eo[3] = {b, c, a}, *eq[3] = {c, a, b};
    double ex[3], ey[3], ec[3];
    int top_left[3];
    for (int e = 0; e < 3; e++) {
        double dx = eq[e]->x - eo[e]->x, dy = eq[e]->y - eo[e]->y;
        ex[e] = -dy;
        ey[e] = dx;
        ec[e] = dy * eo[e]->x - dx * eo[e]->y;
        top_left[e] = dy < 0 || (dy == 0 && dx > 0);
    }
    double inv_area = 1.0 / area;
    /* polygonOffset: the largest depth slope per pixel (z is affine on the screen) times the factor,
     * plus units of a 24-bit depth buffer's resolution (WebGL's default depth buffer). */
    float offset = 0;
    if (s->offset_factor != 0 || s->offset_units != 0) {
        double dzdx = (ex[0] * a->z + ex[1] * b->z + ex[2] * c->z) * inv_area * ss;
        double dzdy = (ey[0] * a->z + ey[1] * b->z + ey[2] * c->z) * inv_area * ss;
        double m = fmax(fabs(dzdx), fabs(dzdy));
        offset = (float)(s->offset_factor * m + s->offset_units * IQR_DEPTH_RESOLUTION);
    }
    const iq_render_view *view = d->view;
    float ambient = view->ambient, intensity = view->intensity;
    const float *L = view->light;
    uint32_t alpha_func = s->alpha_func;
    int blended = s->blend_src != IQ_BLEND_NONE;
    int equal = s->depth_func == IQ_DEPTH_EQUAL;
    /* As multisampling does: coverage and depth per sample, the colour once per pixel (at its
     * centre) for the samples that pass. */
    for (int py = y0; py <= y1; py++) {
        /* The pixels of this row the triangle can cover: for each sample row, the span where every
         * edge function is >= 0, solved per edge and widened by a pixel each side (the exact test
         * below still decides every sample; this only skips the bounding box's empty ends). */
        int rx0 = x0, rx1 = x1;
        {
            double lo = HUGE_VAL, hi = -HUGE_VAL;
            for (int j = 0; j < ss; j++) {
                double sy = py * ss + j + 0.5, l = -HUGE_VAL, h = HUGE_VAL;
                for (int e = 0; e < 3; e++) {
                    double r = ey[e] * sy + ec[e]; /* E = ex * sx + r */
                    if (ex[e] > 0) l = fmax(l, -r / ex[e]);
                    else if (ex[e] < 0) h = fmin(h, -r / ex[e]);
                    else if (r < 0) h = -HUGE_VAL; /* a horizontal edge this row is outside of */
                }
                if (l <= h) { lo = fmin(lo, l); hi = fmax(hi, h); }
            }
            if (!(lo <= hi)) continue;
            double first = floor((lo - 0.5) / ss) - 1, last = floor((hi - 0.5) / ss) + 1;
            if (first > rx0) rx0 = (int)first;
            if (last < rx1) rx1 = (int)last;
        }
        for (int px = rx0; px <= rx1; px++) {
            uint32_t pass = 0; /* bit per sample that is covered and passes the depth test */
            float zs[IQ_RENDER_MAX_SUPERSAMPLE * IQ_RENDER_MAX_SUPERSAMPLE];
            for (int j = 0; j < ss; j++) {
                double sy = py * ss + j + 0.5;
                for (int i = 0; i < ss; i++) {
                    double sx = px * ss + i + 0.5;
                    double e0 = ex[0] * sx + ey[0] * sy + ec[0];
                    double e1 = ex[1] * sx + ey[1] * sy + ec[1];
                    double e2 = ex[2] * sx + ey[2] * sy + ec[2];
                    if (!((e0 > 0 || (e0 == 0 && top_left[0])) && (e1 > 0 || (e1 == 0 && top_left[1])) &&
                          (e2 > 0 || (e2 == 0 && top_left[2]))))
                        continue;
                    float z = (float)((e0 * a->z + e1 * b->z + e2 * c->z) * inv_area);
                    if (offset != 0) {
                        z += offset;
                        z = z < 0 ? 0 : z > 1 ? 1 : z;
                    }
                    float dz = t->depth[(size_t)(py * ss + j) * t->sw + (size_t)(px * ss + i)];
                    if (equal ? !(z == dz) : !(z <= dz)) continue;
                    zs[j * ss + i] = z;
                    pass |= 1u << (j * ss + i);
                }
            }
            if (!pass) continue;
            /* Attributes at the pixel's centre, perspective-correct. */
            double cx = (px + 0.5) * ss, cy = (py + 0.5) * ss;
            float wa = (float)((ex[0] * cx + ey[0] * cy + ec[0]) * inv_area);
            float wb = (float)((ex[1] * cx + ey[1] * cy + ec[1]) * inv_area);
            float wc = 1.0f - wa - wb;
            float pa = wa * a->inv_w, pb = wb * b->inv_w, pc = wc * c->inv_w;
            float sum = pa + pb + pc;
            if (!(sum > 0) || !isfinite(sum)) continue;
            float inv = 1.0f / sum;
            pa *= inv; pb *= inv; pc *= inv;
            float attr[IQR_ATTRS];
            for (int k = 4; k < IQR_ATTRS; k++) attr[k] = pa * va->a[k] + pb * vb->a[k] + pc * vc->a[k];
            /* The texture's footprint: texture coordinates one pixel to the right and one down. */
            float rho = 0;
            if (d->sampler.levels > 1) {
                float st[2][2];
                for (int k = 0; k < 2; k++) {
                    double qx = cx + (k == 0 ? ss : 0), qy = cy + (k == 1 ? ss : 0);
                    float qa = (float)((ex[0] * qx + ey[0] * qy + ec[0]) * inv_area) * a->inv_w;
                    float qb = (float)((ex[1] * qx + ey[1] * qy + ec[1]) * inv_area) * b->inv_w;
                    float qc = (float)((ex[2] * qx + ey[2] * qy + ec[2]) * inv_area) * c->inv_w;
                    float qs = qa + qb + qc;
                    qs = qs != 0 ? 1.0f / qs : 0;
                    st[k][0] = (qa * va->a[7] + qb * vb->a[7] + qc * vc->a[7]) * qs - attr[7];
                    st[k][1] = (qa * va->a[8] + qb * vb->a[8] + qc * vc->a[8]) * qs - attr[8];
                }
                float tw = (float)d->sampler.w, th = (float)d->sampler.h;
                float rx = sqrtf(st[0][0] * st[0][0] * tw * tw + st[0][1] * st[0][1] * th * th);
                float ry = sqrtf(st[1][0] * st[1][0] * tw * tw + st[1][1] * st[1][1] * th * th);
                rho = rx > ry ? rx : ry;
            }
            float tex[4], col[4];
            sample_texture(&d->sampler, attr[7], attr[8], rho, tex);
            for (int k = 0; k < 4; k++) col[k] = tex[k] * attr[9 + k];
            uint8_t out[4];
            int replace = 1;
            if (s->lit) {
                /* renderer.js's fragment shader */
                float n[3] = {attr[4], attr[5], attr[6]};
                float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
                if (len > 0) { n[0] /= len; n[1] /= len; n[2] /= len; }
                if (!front) { n[0] = -n[0]; n[1] = -n[1]; n[2] = -n[2]; }
                float diffuse = n[0] * L[0] + n[1] * L[1] + n[2] * L[2];
                if (!(diffuse > 0)) diffuse = 0;
                float sky = 0.5f + 0.5f * n[2];
                float level = ambient * (0.62f + 0.38f * sky) + intensity * diffuse;
                out[0] = unorm8(col[0] * level);
                out[1] = unorm8(col[1] * level);
                out[2] = unorm8(col[2] * level);
                out[3] = 255;
            } else {
                /* shaderdraw.js's fragment shader: the alpha test, then the blend. */
                if ((alpha_func == IQ_ALPHA_GT0 && col[3] <= 0) || (alpha_func == IQ_ALPHA_LT128 && col[3] >= 0.5f) ||
                    (alpha_func == IQ_ALPHA_GE128 && col[3] < 0.5f))
                    continue;
                out[0] = unorm8(col[0]);
                out[1] = unorm8(col[1]);
                out[2] = unorm8(col[2]);
                out[3] = 255;
                replace = !blended;
            }
            float src[4];
            for (int k = 0; k < 4; k++) src[k] = col[k] < 0 ? 0 : col[k] > 1 ? 1 : col[k];
            for (int j = 0; j < ss; j++) {
                for (int i = 0; i < ss; i++) {
                    if (!(pass & (1u << (j * ss + i)))) continue;
                    size_t at = (size_t)(py * ss + j) * t->sw + (size_t)(px * ss + i);
                    uint8_t *dst8 = t->color + at * 4;
                    if (replace) memcpy(dst8, out, 4);
                    else {
                        float dst[4];
                        for (int k = 0; k < 4; k++) dst[k] = dst8[k] * (1.0f / 255.0f);
                        /* The colour as the script says; the target's alpha (what a page composites) is kept. */
                        for (int k = 0; k < 3; k++)
                            dst8[k] = unorm8(src[k] * blend_factor(s->blend_src, src, dst, k) +
                                             dst[k] * blend_factor(s->blend_dst, src, dst, k));
                    }
                    if (s->depth_write) t->depth[at] = zs[j * ss + i];
                }
            }
        }
    }
}

static int render_draw(iq_render_target *t, const iq_render_view *view, const iq_render_surface *s, iq_error *error) {
    if (!t || !view || !s) return iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT, "render: no target, view or surface");
    if (s->triangle_count == 0) return 1;
    if (!s->positions || !s->indices)
        return iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT, "render: a surface without positions or indices");
    if (s->vertex_count > IQR_MAX_VERTICES)
        return iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT, "render: %u vertices, over the limit of %u",
                             s->vertex_count, IQR_MAX_VERTICES);
    if (s->cull > IQ_CULL_NONE || s->blend_src > IQ_BLEND_ONE_MINUS_SRC_COLOR ||
        s->blend_dst > IQ_BLEND_ONE_MINUS_SRC_COLOR || s->alpha_func > IQ_ALPHA_GE128 || s->depth_func > IQ_DEPTH_EQUAL || (s->blend_src == IQ_BLEND_NONE) != (s->blend_dst == IQ_BLEND_NONE))
        return iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT, "render: unknown cull, blend or alpha test value");
    if (!iqi_finite(s->offset_factor) || !iqi_finite(s->offset_units) || fabsf(s->offset_factor) > 1e6f ||
        fabsf(s->offset_units) > 1e6f)
        return iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT, "render: polygon offset %g, %g is not a number in -1e6..1e6",
                             s->offset_factor, s->offset_units);
    const iq_render_texture *tx = &s->texture;
    if (tx->data && (tx->width == 0 || tx->height == 0 || tx->width > IQ_RENDER_MAX_TEXTURE ||
                     tx->height > IQ_RENDER_MAX_TEXTURE))
        return iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT, "render: texture %ux%u is outside 1..%u", tx->width,
                             tx->height, IQ_RENDER_MAX_TEXTURE);
    uint64_t index_count = (uint64_t)s->triangle_count * 3;
    for (uint64_t i = 0; i < index_count; i++)
        if (s->indices[i] >= s->vertex_count)
            return iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT, "render: index %u at %llu is past the %u vertices",
                                 s->indices[i], (unsigned long long)i, s->vertex_count);
    if (t->scratch_vertices < s->vertex_count) {
        float *grown = iqi_realloc(t->scratch, (size_t)s->vertex_count * 7 * sizeof(float));
        if (!grown) return iqi_set_error(error, IQ_ERROR_OUT_OF_MEMORY, "render: no memory for %u vertices", s->vertex_count);
        t->scratch = grown;
        t->scratch_vertices = s->vertex_count;
    }
    /* The model-view-projection, in double from the float matrices as the GPU's float maths would
     * see them, and each vertex's clip position and world normal (mat3(uModel) * normal). */
    const float *m = s->matrix, *vp = view->view_projection;
    double mvp[16];
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            mvp[c * 4 + r] = (double)vp[r] * m[c * 4] + (double)vp[4 + r] * m[c * 4 + 1] +
                             (double)vp[8 + r] * m[c * 4 + 2] + (double)vp[12 + r] * m[c * 4 + 3];
    for (uint32_t i = 0; i < s->vertex_count; i++) {
        const float *p = s->positions + (size_t)i * 3;
        float *o = t->scratch + (size_t)i * 7;
        for (int r = 0; r < 4; r++)
            o[r] = (float)(mvp[r] * p[0] + mvp[4 + r] * p[1] + mvp[8 + r] * p[2] + mvp[12 + r]);
        float n[3] = {0, 0, 1};
        if (s->normals) memcpy(n, s->normals + (size_t)i * 3, sizeof n);
        for (int r = 0; r < 3; r++) o[4 + r] = m[r] * n[0] + m[4 + r] * n[1] + m[8 + r] * n[2];
    }
    iqr_draw d;
    memset(&d, 0, sizeof d);
    d.t = t;
    d.view = view;
    d.s = s;
    iqr_sampler *sm = &d.sampler;
    sm->data = tx->data;
    sm->w = (int)tx->width;
    sm->h = (int)tx->height;
    sm->nearest = (int)tx->nearest;
    sm->clamp = (int)tx->clamp;
    sm->levels = tx->data && tx->mipmapped && !tx->nearest ? level_count(tx->width, tx->height) : 1;
    if (sm->levels > IQR_MAX_LEVELS) sm->levels = IQR_MAX_LEVELS;
    {
        const uint8_t *at = tx->data;
        uint32_t w = tx->width, h = tx->height;
        for (int l = 0; l < sm->levels; l++) {
            sm->level[l] = (iqr_level){at, (int)w, (int)h};
            if (l + 1 == sm->levels) break;
            at += (size_t)w * h * 4;
            w = w > 1 ? w / 2 : 1;
            h = h > 1 ? h / 2 : 1;
        }
    }
    for (uint32_t tri = 0; tri < s->triangle_count; tri++) {
        iqr_vertex poly[IQR_CLIP_MAX], clipped[IQR_CLIP_MAX];
        int finite = 1, inside = 1;
        for (int k = 0; k < 3; k++) {
            uint32_t i = s->indices[(size_t)tri * 3 + k];
            const float *o = t->scratch + (size_t)i * 7;
            float *a = poly[k].a;
            memcpy(a, o, 7 * sizeof(float));
            if (s->texcoords) { a[7] = s->texcoords[(size_t)i * 2]; a[8] = s->texcoords[(size_t)i * 2 + 1]; }
            else a[7] = a[8] = 0;
            if (s->colors) memcpy(a + 9, s->colors + (size_t)i * 4, 4 * sizeof(float));
            else a[9] = a[10] = a[11] = a[12] = 1;
            for (int j = 0; j < IQR_ATTRS; j++) finite &= iqi_finite(a[j]);
            if (!(a[2] >= -a[3] && a[2] <= a[3])) inside = 0;
        }
        if (!finite) { t->skipped++; continue; }
        int n = 3;
        const iqr_vertex *list = poly;
        if (!inside) {
            n = clip_polygon(poly, 3, clipped, 0);
            n = n >= 3 ? clip_polygon(clipped, n, poly, 1) : 0;
            if (n < 3) { t->skipped++; continue; }
        }
        for (int k = 1; k + 1 < n; k++) shade_triangle(&d, &list[0], &list[k], &list[k + 1]);
    }
    return 1;
}

iq_error_code iq_render_draw(iq_render_target *t, const iq_render_view *view, const iq_render_surface *s, iq_error *error) {
    iq_error local;
    error = iqi_error_reset(error, &local);
    return iqi_result(render_draw(t, view, s, error), error);
}

// -- Lines

typedef struct iqr_line_end {
    double c[4];   /* clip x y z w */
    double rgb[3];
} iqr_line_end;

typedef struct iqr_line_point {
    double x, y;   /* samples, y down */
    double z;      /* depth 0..1 */
    double inv_w;
    double rgb_w[3]; /* colour / w: affine on the screen, like z and 1/w */
} iqr_line_point;

/* Narrows [*t0, *t1] to where da + (db - da) t >= 0; 0 when nothing is left. */
static int clip_range(double *t0, double *t1, double da, double db) {
    if (da >= 0 && db >= 0) return 1;
    if (da < 0 && db < 0) return 0;
    double t = da / (da - db);
    if (da < 0) { if (t > *t0) *t0 = t; }
    else if (t < *t1) *t1 = t;
    return *t0 <= *t1;
}

static void lerp_point(const iqr_line_point *a, const iqr_line_point *b, double t, iqr_line_point *out) {
    out->x = a->x + (b->x - a->x) * t;
    out->y = a->y + (b->y - a->y) * t;
    out->z = a->z + (b->z - a->z) * t;
    out->inv_w = a->inv_w + (b->inv_w - a->inv_w) * t;
    for (int k = 0; k < 3; k++) out->rgb_w[k] = a->rgb_w[k] + (b->rgb_w[k] - a->rgb_w[k]) * t;
}

static void draw_segment(iq_render_target *t, const iqr_line_end *a, const iqr_line_end *b, int depth_test) {
    /* The near and far planes, in clip space (attributes are affine there). */
    double t0 = 0, t1 = 1;
    if (!clip_range(&t0, &t1, a->c[2] + a->c[3], b->c[2] + b->c[3]) ||
        !clip_range(&t0, &t1, a->c[3] - a->c[2], b->c[3] - b->c[2])) {
        t->skipped++;
        return;
    }
    iqr_line_point p[2];
    for (int e = 0; e < 2; e++) {
        double f = e ? t1 : t0, c[4], rgb[3];
        for (int k = 0; k < 4; k++) c[k] = a->c[k] + (b->c[k] - a->c[k]) * f;
        for (int k = 0; k < 3; k++) rgb[k] = a->rgb[k] + (b->rgb[k] - a->rgb[k]) * f;
        if (!(c[3] > 0)) { t->skipped++; return; }
        double iw = 1.0 / c[3];
        p[e].x = (c[0] * iw * 0.5 + 0.5) * t->sw;
        p[e].y = (0.5 - c[1] * iw * 0.5) * t->sh;
        double z = c[2] * iw * 0.5 + 0.5;
        p[e].z = z < 0 ? 0 : z > 1 ? 1 : z;
        p[e].inv_w = iw;
        for (int k = 0; k < 3; k++) p[e].rgb_w[k] = rgb[k] * iw;
        if (!(isfinite(p[e].x) && isfinite(p[e].y) && isfinite(iw))) { t->skipped++; return; }
    }
    /* The part on the target (with a pixel to spare), so that the walk below is bounded by it; each
     * end moved to a side gets that side's coordinate exactly (an end 1e30 away cannot smear it). */
    const double hw = t->ss * 0.5; /* half the width: half a pixel */
    const double margin = t->ss + 1.0;
    iqr_line_point q[2] = {p[0], p[1]};
    for (int side = 0; side < 4; side++) {
        int y = side >= 2;
        double bound = side & 1 ? (y ? t->sh : t->sw) + margin : -margin;
        double d0 = side & 1 ? bound - (y ? q[0].y : q[0].x) : (y ? q[0].y : q[0].x) - bound;
        double d1 = side & 1 ? bound - (y ? q[1].y : q[1].x) : (y ? q[1].y : q[1].x) - bound;
        if (d0 < 0 && d1 < 0) { t->skipped++; return; }
        if (d0 >= 0 && d1 >= 0) continue;
        int out = d0 < 0 ? 0 : 1;
        iqr_line_point moved;
        lerp_point(&q[out], &q[1 - out], (out ? d1 : d0) / ((out ? d1 : d0) - (out ? d0 : d1)), &moved);
        if (y) moved.y = bound;
        else moved.x = bound;
        q[out] = moved;
    }
    /* Snapped as triangle vertices are, so the coverage tests below are exact for ordinary input. */
    for (int e = 0; e < 2; e++) {
        q[e].x = floor(q[e].x * IQR_SNAP + 0.5) / IQR_SNAP;
        q[e].y = floor(q[e].y * IQR_SNAP + 0.5) / IQR_SNAP;
    }
    /* Walk the major axis (u) one sample at a time, in increasing u (the same samples whichever
     * way the segment was given); across it (v) only the rows the rectangle can reach. */
    int xmajor = fabs(q[1].x - q[0].x) >= fabs(q[1].y - q[0].y);
    const iqr_line_point *s0 = &q[0], *s1 = &q[1];
    if ((xmajor ? q[1].x - q[0].x : q[1].y - q[0].y) < 0) { s0 = &q[1]; s1 = &q[0]; }
    double a0 = xmajor ? s0->x : s0->y, b0 = xmajor ? s0->y : s0->x;
    double du = xmajor ? s1->x - s0->x : s1->y - s0->y, dv = xmajor ? s1->y - s0->y : s1->x - s0->x;
    double len2 = du * du + dv * dv;
    if (!(du > 0)) { t->skipped++; return; } /* a point: a rectangle without area */
    t->drawn++;
    double len = sqrt(len2), reach = hw * len / du;
    int usize = (int)(xmajor ? t->sw : t->sh), vsize = (int)(xmajor ? t->sh : t->sw);
    double ufirst = ceil(a0 - hw - 0.5), ulast = floor(a0 + du + hw - 0.5);
    int i0 = ufirst < 0 ? 0 : (int)ufirst, i1 = ulast > usize - 1 ? usize - 1 : (int)ulast;
    for (int i = i0; i <= i1; i++) {
        double cu = i + 0.5, vl = b0 + (cu - a0) * dv / du;
        double vfirst = ceil(vl - reach - 0.5), vlast = floor(vl + reach - 0.5);
        int j0 = vfirst < 0 ? 0 : (int)vfirst, j1 = vlast > vsize - 1 ? vsize - 1 : (int)vlast;
        for (int j = j0; j <= j1; j++) {
            double cv = j + 0.5;
            double across = ((cv - b0) * du - (cu - a0) * dv) / len; /* signed distance from the line */
            double along = ((cu - a0) * du + (cv - b0) * dv) / len2; /* 0 at s0, 1 at s1 */
            if (!(across > -hw && across <= hw && along >= 0 && along <= 1)) continue;
            size_t at = xmajor ? (size_t)j * t->sw + (size_t)i : (size_t)i * t->sw + (size_t)j;
            float z = (float)(s0->z + (s1->z - s0->z) * along);
            if (depth_test) {
                if (!(z <= t->depth[at])) continue;
                t->depth[at] = z;
            }
            /* Perspective-correct: colour / w and 1 / w are affine on the screen. */
            double iw = s0->inv_w + (s1->inv_w - s0->inv_w) * along;
            uint8_t *dst = t->color + at * 4;
            for (int k = 0; k < 3; k++)
                dst[k] = unorm8(iw > 0 ? (float)((s0->rgb_w[k] + (s1->rgb_w[k] - s0->rgb_w[k]) * along) / iw) : 0);
            dst[3] = 255;
        }
    }
}

static int render_draw_lines(iq_render_target *t, const iq_render_view *view, const iq_render_lines *l, iq_error *error) {
    if (!t || !view || !l) return iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT, "render: no target, view or lines");
    if (l->segment_count == 0) return 1;
    uint32_t stride = l->stride ? l->stride : 3;
    if (!l->positions || stride < 3 || l->depth_test > 1)
        return iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT, "render: lines without positions, or stride %u under 3",
                             stride);
    if (l->vertex_count > IQR_MAX_VERTICES)
        return iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT, "render: %u line vertices, over the limit of %u",
                             l->vertex_count, IQR_MAX_VERTICES);
    uint64_t ends = (uint64_t)l->segment_count * 2;
    if (l->indices) {
        for (uint64_t i = 0; i < ends; i++)
            if (l->indices[i] >= l->vertex_count)
                return iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT,
                                     "render: line index %u at %llu is past the %u vertices", l->indices[i],
                                     (unsigned long long)i, l->vertex_count);
    } else if (ends > l->vertex_count) {
        return iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT, "render: %u segments need %llu vertices, there are %u",
                             l->segment_count, (unsigned long long)ends, l->vertex_count);
    }
    const float *m = l->matrix, *vp = view->view_projection;
    double mvp[16];
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            mvp[c * 4 + r] = (double)vp[r] * m[c * 4] + (double)vp[4 + r] * m[c * 4 + 1] +
                             (double)vp[8 + r] * m[c * 4 + 2] + (double)vp[12 + r] * m[c * 4 + 3];
    for (uint32_t sgm = 0; sgm < l->segment_count; sgm++) {
        iqr_line_end end[2];
        int finite = 1;
        for (int e = 0; e < 2; e++) {
            uint64_t i = l->indices ? l->indices[(size_t)sgm * 2 + e] : (uint64_t)sgm * 2 + e;
            const float *p = l->positions + (size_t)i * stride;
            for (int r = 0; r < 4; r++) {
                /* As a float vertex shader computes it, so lines meet the triangles they outline. */
                end[e].c[r] = (float)(mvp[r] * p[0] + mvp[4 + r] * p[1] + mvp[8 + r] * p[2] + mvp[12 + r]);
                finite &= iqi_finite((float)end[e].c[r]);
            }
            const float *rgb = l->colors ? l->colors + (size_t)i * stride : l->color;
            for (int k = 0; k < 3; k++) {
                end[e].rgb[k] = rgb[k];
                finite &= iqi_finite(rgb[k]);
            }
        }
        if (!finite) { t->skipped++; continue; }
        draw_segment(t, &end[0], &end[1], (int)l->depth_test);
    }
    return 1;
}

iq_error_code iq_render_draw_lines(iq_render_target *t, const iq_render_view *view, const iq_render_lines *l,
                                   iq_error *error) {
    iq_error local;
    error = iqi_error_reset(error, &local);
    return iqi_result(render_draw_lines(t, view, l, error), error);
}
