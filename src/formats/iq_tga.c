/* TGA (Truevision) images to RGBA8, top row first: what WebGL wants with
 * UNPACK_FLIP_Y false, and what Quake 3 textures need (every OpenArena player
 * texture is a TGA, many of them RLE).
 *
 * Reads image types 1/9 (colour-mapped, 8- or 16-bit indices into a 15/16/24/
 * 32-bit map), 2/10 (true colour, 15/16/24/32 bits) and 3/11 (grey, 8 bits or
 * 16 bits grey + alpha), uncompressed and RLE, with either vertical origin
 * and either horizontal direction. The image-ID field and any colour map of
 * a true-colour image are skipped; the TGA 2.0 footer is ignored.
 *
 * Untrusted input: dimensions are capped (IQ_TGA_MAX_DIMENSION), and before
 * anything is allocated the file must hold at least the bytes the image
 * needs (for RLE: one packet header and one pixel per 128 pixels), so a tiny
 * file cannot make us allocate a huge image. RLE packets may cross rows (as
 * writers produce); pixels of a last packet that run past the image are
 * dropped. 16-bit true colour is opaque unless the descriptor declares an
 * alpha bit. */
#include "base/iq_internal.h"
#include <stdio.h>
#include <stdlib.h>

#define TGA_HEADER_SIZE 18

typedef struct tga_info {
    uint32_t width, height;
    unsigned type, depth, descriptor;
    unsigned map_first, map_length, map_entry_bits;
    const uint8_t *pixels; /* start of the image data */
    size_t available;      /* bytes from there to the end of the file */
    uint8_t *palette;      /* map_length RGBA entries, colour-mapped images only */
} tga_info;

static void expand_555(uint16_t v, int use_alpha, uint8_t out[4]) {
    unsigned r = (v >> 10) & 31, g = (v >> 5) & 31, b = v & 31;
    out[0] = (uint8_t)((r << 3) | (r >> 2));
    out[1] = (uint8_t)((g << 3) | (g >> 2));
    out[2] = (uint8_t)((b << 3) | (b >> 2));
    out[3] = use_alpha ? ((v & 0x8000) ? 255 : 0) : 255;
}

/* One true-colour value of `bits` bits (stored little-endian, BGR(A)) to RGBA. */
static void true_colour(const uint8_t *src, unsigned bits, int use_alpha, uint8_t out[4]) {
    switch (bits) {
    case 15:
    case 16: expand_555(iqi_u16(src), use_alpha && bits == 16, out); break;
    case 24: out[0] = src[2]; out[1] = src[1]; out[2] = src[0]; out[3] = 255; break;
    default: out[0] = src[2]; out[1] = src[1]; out[2] = src[0]; out[3] = src[3]; break;
    }
}

/* Decodes the pixel at src. Returns 0 for a colour index outside the map. */
static int read_pixel(const tga_info *t, const uint8_t *src, uint8_t out[4]) {
    switch (t->type & 7) {
    case 1: {
        unsigned index = t->depth == 8 ? src[0] : iqi_u16(src);
        if (index < t->map_first || index - t->map_first >= t->map_length) return 0;
        memcpy(out, t->palette + 4 * (size_t)(index - t->map_first), 4);
        return 1;
    }
    case 2: true_colour(src, t->depth, (t->descriptor & 15) != 0, out); return 1;
    default: /* grey, with alpha when 16 bits */
        out[0] = out[1] = out[2] = src[0];
        out[3] = t->depth == 16 ? src[1] : 255;
        return 1;
    }
}

static int bad_index(iqi_ctx *ctx, const tga_info *t, const uint8_t *src) {
    unsigned index = t->depth == 8 ? src[0] : iqi_u16(src);
    return iqi_fail(ctx, IQ_ERROR_BAD_INDEX, src - ctx->data,
                    "colour index %u is outside the colour map (entries %u..%u)", index, t->map_first,
                    t->map_first + t->map_length - 1);
}

static int read_header(iqi_ctx *ctx, tga_info *t) {
    const uint8_t *d = ctx->data;
    if (ctx->size < TGA_HEADER_SIZE)
        return iqi_fail(ctx, IQ_ERROR_TRUNCATED, 0, "the TGA header needs 18 bytes, the file has %zu", ctx->size);
    unsigned id_length = d[0], map_type = d[1];
    t->type = d[2];
    t->map_first = iqi_u16(d + 3);
    t->map_length = iqi_u16(d + 5);
    t->map_entry_bits = d[7];
    t->width = iqi_u16(d + 12);
    t->height = iqi_u16(d + 14);
    t->depth = d[16];
    t->descriptor = d[17];
    if (map_type > 1) return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, 1, "colour map type %u; TGA knows 0 and 1", map_type);
    switch (t->type) {
    case 1: case 9:
        if (map_type != 1 || t->map_length == 0)
            return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, 1, "a colour-mapped image (type %u) without a colour map", t->type);
        if (t->depth != 8 && t->depth != 16)
            return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, 16, "colour-mapped pixels of %u bits; 8 and 16 are supported",
                            t->depth);
        break;
    case 2: case 10:
        if (t->depth != 15 && t->depth != 16 && t->depth != 24 && t->depth != 32)
            return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, 16, "true-colour pixels of %u bits; 15, 16, 24 and 32 are supported",
                            t->depth);
        break;
    case 3: case 11:
        if (t->depth != 8 && t->depth != 16)
            return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, 16, "grey pixels of %u bits; 8 and 16 are supported", t->depth);
        break;
    case 0: return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, 2, "image type 0: the file holds no image");
    default:
        return iqi_fail(ctx, IQ_ERROR_UNKNOWN_FORMAT, 2,
                        "image type %u is not a TGA type this decoder reads (1, 2, 3, 9, 10, 11)", t->type);
    }
    if (map_type == 1 && t->map_entry_bits != 15 && t->map_entry_bits != 16 && t->map_entry_bits != 24 &&
        t->map_entry_bits != 32)
        return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, 7, "colour map entries of %u bits; 15, 16, 24 and 32 are supported",
                        t->map_entry_bits);
    if (t->width == 0 || t->height == 0)
        return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, 12, "the image is %u x %u pixels", t->width, t->height);
    if (t->width > IQ_TGA_MAX_DIMENSION || t->height > IQ_TGA_MAX_DIMENSION)
        return iqi_fail(ctx, IQ_ERROR_LIMIT, 12, "the image is %u x %u pixels; the limit is %d on each side", t->width,
                        t->height, IQ_TGA_MAX_DIMENSION);
    uint64_t map_bytes = map_type == 1 ? (uint64_t)t->map_length * ((t->map_entry_bits + 7) / 8) : 0;
    uint64_t at = TGA_HEADER_SIZE + (uint64_t)id_length;
    if (!iqi_range_ok(ctx->size, at, map_bytes, 1))
        return iqi_fail(ctx, IQ_ERROR_TRUNCATED, at, "the %u-byte image ID and %llu-byte colour map run past the end of the %zu-byte file",
                        id_length, (unsigned long long)map_bytes, ctx->size);
    if ((t->type & 7) == 1) { /* a map on a true-colour image is skipped unread */
        t->palette = iqi_alloc(ctx, t->map_length, 4, "colour map");
        if (!t->palette) return 0;
        unsigned entry = (t->map_entry_bits + 7) / 8;
        for (unsigned i = 0; i < t->map_length; i++)
            true_colour(ctx->data + at + (size_t)i * entry, t->map_entry_bits, (t->descriptor & 15) != 0,
                        t->palette + 4 * (size_t)i);
    }
    at += map_bytes;
    t->pixels = ctx->data + at;
    t->available = ctx->size - (size_t)at;
    return 1;
}

/* 24- and 32-bit true colour, BGR(A) to RGBA: the hot path of real textures. */
static inline void bgr_to_rgba(const uint8_t *src, unsigned bpp, uint8_t *out) {
    out[0] = src[2];
    out[1] = src[1];
    out[2] = src[0];
    out[3] = bpp == 4 ? src[3] : 255;
}

/* Where the next pixel of the file goes: rows run from the file's origin,
 * columns in its stored direction. */
typedef struct pixel_cursor {
    const tga_info *t;
    uint8_t *rgba, *row;
    uint32_t x, y;
} pixel_cursor;

static uint8_t *output_row(const pixel_cursor *c) {
    uint32_t row = (c->t->descriptor & 0x20) ? c->y : c->t->height - 1 - c->y;
    return c->rgba + (size_t)row * c->t->width * 4;
}

static inline void put_pixel(pixel_cursor *c, const uint8_t px[4]) {
    uint32_t col = (c->t->descriptor & 0x10) ? c->t->width - 1 - c->x : c->x;
    memcpy(c->row + 4 * (size_t)col, px, 4);
    if (++c->x == c->t->width) {
        c->x = 0;
        if (++c->y < c->t->height) c->row = output_row(c);
    }
}

static int decode(iqi_ctx *ctx, const tga_info *t, uint8_t *rgba) {
    unsigned bpp = (t->depth + 7) / 8;
    uint64_t count = (uint64_t)t->width * t->height;
    const uint8_t *src = t->pixels, *end = t->pixels + t->available;
    pixel_cursor c = {t, rgba, NULL, 0, 0};
    c.row = output_row(&c);
    uint8_t px[4];
    int true_colour_24_32 = (t->type & 7) == 2 && (t->depth == 24 || t->depth == 32);
    if (t->type == 2 && true_colour_24_32) {
        /* The common case (every uncompressed Quake 3 texture), row by row
         * without the per-pixel dispatch: several times faster. */
        int rtl = (t->descriptor & 0x10) != 0;
        for (uint32_t y = 0; y < t->height; y++, c.y++) {
            uint8_t *dst = output_row(&c);
            for (uint32_t x = 0; x < t->width; x++, src += bpp)
                bgr_to_rgba(src, bpp, dst + 4 * (size_t)(rtl ? t->width - 1 - x : x));
        }
        return 1;
    }
    if (t->type < 8) {
        for (uint64_t i = 0; i < count; i++, src += bpp) {
            if (!read_pixel(t, src, px)) return bad_index(ctx, t, src);
            put_pixel(&c, px);
        }
        return 1;
    }
    uint64_t i = 0;
    while (i < count) {
        if (src >= end)
            return iqi_fail(ctx, IQ_ERROR_TRUNCATED, src - ctx->data,
                            "the RLE data ends after %llu of %llu pixels", (unsigned long long)i, (unsigned long long)count);
        unsigned header = *src++, n = (header & 0x7f) + 1;
        int run = (header & 0x80) != 0;
        uint64_t need = run ? bpp : (uint64_t)n * bpp;
        if ((uint64_t)(end - src) < need)
            return iqi_fail(ctx, IQ_ERROR_TRUNCATED, src - 1 - ctx->data,
                            "an RLE packet of %u pixels runs past the end of the file", n);
        if (n > count - i) n = (unsigned)(count - i); /* pixels past the image are dropped */
        if (run && !read_pixel(t, src, px)) return bad_index(ctx, t, src);
        if (!run && true_colour_24_32) {
            for (unsigned k = 0; k < n; k++) {
                bgr_to_rgba(src + (size_t)k * bpp, bpp, px);
                put_pixel(&c, px);
            }
        } else {
            for (unsigned k = 0; k < n; k++) {
                if (!run && !read_pixel(t, src + (size_t)k * bpp, px)) return bad_index(ctx, t, src + (size_t)k * bpp);
                put_pixel(&c, px);
            }
        }
        i += n;
        src += need;
    }
    return 1;
}

iq_image *iq_decode_tga(const void *data, size_t size, const iq_limits *limits, iq_error *error) {
    iq_error local_error;
    error = iqi_error_reset(error, &local_error);
    if (!data && size) {
        iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT, "data is NULL");
        return NULL;
    }
    iqi_arena *arena = iqi_calloc(1, sizeof *arena);
    if (!arena) {
        iqi_set_error(error, IQ_ERROR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    arena->budget = limits && limits->max_memory ? limits->max_memory : IQI_DEFAULT_MAX_MEMORY;
    iqi_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.data = data;
    ctx.size = size;
    ctx.error = error;
    ctx.arena = arena; /* no model: this decoder never warns */

    tga_info t;
    memset(&t, 0, sizeof t);
    iq_image *image = NULL;
    int ok = read_header(&ctx, &t);
    if (ok) {
        uint64_t pixels = (uint64_t)t.width * t.height, bpp = (t.depth + 7) / 8;
        uint64_t need = t.type < 8 ? pixels * bpp : (pixels + 127) / 128 * (1 + bpp);
        if (need > t.available)
            ok = iqi_fail(&ctx, IQ_ERROR_TRUNCATED, (int64_t)(size - t.available),
                          "a %u x %u image needs at least %llu bytes of pixel data, the file has %zu", t.width,
                          t.height, (unsigned long long)need, t.available);
    }
    if (ok) {
        image = iqi_alloc(&ctx, 1, sizeof *image, "image");
        uint8_t *rgba = image ? iqi_alloc(&ctx, (uint64_t)t.width * t.height, 4, "image pixels") : NULL;
        ok = rgba && decode(&ctx, &t, rgba);
        if (ok) {
            image->width = t.width;
            image->height = t.height;
            image->data = rgba;
            image->internal = arena;
        }
    }
    if (!ok) {
        iqi_arena_free(arena);
        iqi_free(arena);
        return NULL;
    }
    return image;
}

void iq_image_free(iq_image *image) {
    if (!image) return;
    iqi_arena *arena = image->internal;
    iqi_arena_free(arena); /* the image itself lives in the arena */
    iqi_free(arena);
}
