/* Native tests of the TGA decoder (iq_tga.c) under ASan/UBSan: a small RLE
 * image built here decodes to the pixels worked out on paper; corpus skins
 * decode, and every truncation and byte patch fails cleanly (or, for prefixes
 * that only lose the optional footer, decodes the same image); budgets and
 * bad arguments fail with their codes; each allocation failing in turn
 * leaves nothing allocated. Run from the repository root. */
#include "check.h"
#include "check_model.h"
#include "sweeps.h"
#include "interquake.h"
#include <string.h>

#define SARGE "../shared/corpus/md3/openarena/models/players/sarge/"
#define GRISM "../shared/corpus/md3/openarena/models/players/grism/"

/* A small RLE TGA built here: 24-bit, top-left, runs and raw packets across rows. */
static unsigned char *build_rle_tga(size_t *size) {
    enum { W = 9, H = 4 };
    unsigned char *t = calloc(1, 18 + 4 * W * H * 4);
    size_t at = 18;
    t[2] = 10; t[12] = W; t[14] = H; t[16] = 24; t[17] = 0x20;
    t[at++] = 0x80 | 11; t[at++] = 1; t[at++] = 2; t[at++] = 3;        /* a run of 12 */
    t[at++] = 4;                                                        /* 5 raw pixels */
    for (int k = 0; k < 15; k++) t[at++] = (unsigned char)(k * 17);
    t[at++] = 0x80 | 18; t[at++] = 200; t[at++] = 100; t[at++] = 50;   /* a run of 19: 36 in all */
    *size = at;
    return t;
}

static void test_tga_rle_pixels(void) {
    size_t n;
    unsigned char *t = build_rle_tga(&n);
    iq_error err;
    iq_image *img = iq_decode_tga(t, n, NULL, &err);
    CHECK(img && img->width == 9 && img->height == 4, "rle: %s", err.message);
    if (img) {
        const uint8_t *p = img->data;
        CHECK(p[0] == 3 && p[1] == 2 && p[2] == 1 && p[3] == 255, "pixel 0 is BGR 1,2,3");
        CHECK(p[4 * 11 + 0] == 3, "pixel 11 is still the run");
        CHECK(p[4 * 12 + 0] == 2 * 17 && p[4 * 12 + 1] == 17 && p[4 * 12 + 2] == 0, "pixel 12 is the first raw one");
        CHECK(p[4 * 35 + 0] == 50 && p[4 * 35 + 2] == 200, "the last pixel is the last run");
        iq_image_free(img);
    }
    free(t);
}

/* Prefixes either fail with a code or (when only the footer is lost) decode
 * to the same image as the whole file. */
static void test_tga_truncation(const unsigned char *d, size_t n, size_t stride, const char *what) {
    iq_image *whole = iq_decode_tga(d, n, NULL, NULL);
    CHECK(whole != NULL, "%s decodes", what);
    if (!whole) return;
    int bad = 0;
    for (size_t len = 0; len < n; len += (len < 2048 ? 1 : stride)) {
        unsigned char *copy = malloc(len ? len : 1);
        memcpy(copy, d, len);
        iq_error err;
        iq_image *img = iq_decode_tga(copy, len, NULL, &err);
        if (img) {
            if (img->width != whole->width || img->height != whole->height ||
                memcmp(img->data, whole->data, (size_t)whole->width * whole->height * 4) != 0)
                bad++;
            iq_image_free(img);
        } else if (err.code == IQ_ERROR_NONE) bad++;
        free(copy);
    }
    CHECK(bad == 0, "%s: %d bad prefixes", what, bad);
    iq_image_free(whole);
}

static void test_tga_patch(const unsigned char *d, size_t n, const char *what) {
    int bad = 0;
    unsigned char *copy = malloc(n);
    for (size_t i = 0; i < n; i++) {
        unsigned char values[4] = {0, 0xff, (unsigned char)(d[i] + 1), (unsigned char)(d[i] - 1)};
        for (int v = 0; v < 4; v++) {
            memcpy(copy, d, n);
            copy[i] = values[v];
            iq_error err;
            iq_image *img = iq_decode_tga(copy, n, NULL, &err);
            if (img) {
                unsigned sum = 0; /* touch every byte: ASan checks the size */
                for (size_t k = 0; k < (size_t)img->width * img->height * 4; k++) sum += img->data[k];
                if (!img->width || !img->height || sum == 0xFFFFFFFFu) bad++;
                iq_image_free(img);
            } else if (err.code == IQ_ERROR_NONE) bad++;
        }
    }
    free(copy);
    CHECK(bad == 0, "%s: %d bad patched decodes", what, bad);
}

static void test_tga_files(void) {
    size_t n;
    unsigned char *d = iqt_read_file(SARGE "icon_red.tga", &n);
    CHECK(d != NULL, "missing icon_red.tga");
    if (d) {
        test_tga_truncation(d, n, 97, "icon_red.tga");
        iq_limits small = {.max_memory = 32 * 1024};
        iq_error err;
        CHECK(iq_decode_tga(d, n, &small, &err) == NULL && err.code == IQ_ERROR_LIMIT, "a 32 KiB budget: %s",
              iq_error_name(err.code));
        free(d);
    }
    d = iqt_read_file(GRISM "redskin.tga", &n);
    CHECK(d != NULL, "missing redskin.tga");
    if (d) {
        iq_image *img = iq_decode_tga(d, n, NULL, NULL);
        CHECK(img && img->width == 512 && img->height == 512, "redskin.tga (RLE) decodes");
        iq_image_free(img);
        /* The RLE pixel data ends 26 bytes before the file (the footer): cut it inside the pixels. */
        unsigned char *copy = malloc(n / 2);
        memcpy(copy, d, n / 2);
        iq_error err;
        CHECK(iq_decode_tga(copy, n / 2, NULL, &err) == NULL && err.code == IQ_ERROR_TRUNCATED, "half an RLE file");
        free(copy);
        free(d);
    }
    unsigned char *t = build_rle_tga(&n);
    test_tga_truncation(t, n, 1, "built RLE");
    test_tga_patch(t, n, "built RLE");
    free(t);
    iq_error err;
    CHECK(iq_decode_tga(NULL, 4, NULL, &err) == NULL && err.code == IQ_ERROR_INVALID_ARGUMENT, "NULL data");
    CHECK(iq_decode_tga(NULL, 0, NULL, &err) == NULL && err.code == IQ_ERROR_TRUNCATED, "empty input");
    iq_image_free(NULL);
}

typedef struct tga_arg { const unsigned char *data; size_t size; } tga_arg;
static int decode_attempt(const void *arg, iq_error *err) {
    const tga_arg *a = arg;
    iq_image *img = iq_decode_tga(a->data, a->size, NULL, err);
    iq_image_free(img);
    return img != NULL;
}

static void test_tga_allocations(void) {
    size_t n;
    unsigned char *d = iqt_read_file(GRISM "redskin.tga", &n);
    CHECK(d != NULL, "missing redskin.tga");
    if (!d) return;
    tga_arg arg = {d, n};
    iqt_allocation_sweep("redskin.tga", decode_attempt, &arg);
    free(d);
}

int main(void) {
    test_tga_rle_pixels();
    test_tga_files();
    test_tga_allocations();
    return iqt_finish("test_tga");
}
