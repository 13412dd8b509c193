/* Native tests of the IQM component formats (formats/iq_iqm_format.c) against answers worked out
 * by hand from the conventions iqm.txt and the reference tools use: integer formats are
 * normalized, unsigned as c / (2^b - 1), signed as (2c + 1) / (2^b - 1) (GL's pre-4.2 rule, which
 * reaches -1 and 1 exactly and has no zero); half is IEEE 754 binary16; the writer rounds to the
 * nearest code and clamps. Every format round-trips its own codes exactly. */
#include "check.h"
#include "formats/iq_iqm_format.h"
#include <math.h>
#include <string.h>

static double read_one(iq_component f, const uint8_t *bytes) { return iqi_component_read(bytes, f); }

static void test_normalized_reads(void) {
    const uint8_t b127[1] = {127}, bm128[1] = {0x80}, b0[1] = {0}, bff[1] = {0xff};
    CHECK(read_one(IQ_BYTE, b127) == 1.0, "byte 127 is 1");
    CHECK(read_one(IQ_BYTE, bm128) == -1.0, "byte -128 is -1");
    CHECK(read_one(IQ_BYTE, b0) == 1.0 / 255.0, "byte 0 is 1/255 (no zero in this rule)");
    CHECK(read_one(IQ_UBYTE, bff) == 1.0 && read_one(IQ_UBYTE, b0) == 0.0, "ubyte 255 is 1, 0 is 0");
    const uint8_t s_max[2] = {0xff, 0x7f}, s_min[2] = {0x00, 0x80}, us_half[2] = {0x00, 0x80};
    CHECK(read_one(IQ_SHORT, s_max) == 1.0 && read_one(IQ_SHORT, s_min) == -1.0, "short ends");
    CHECK(fabs(read_one(IQ_USHORT, us_half) - 32768.0 / 65535.0) < 1e-15, "ushort 32768");
    const uint8_t i_max[4] = {0xff, 0xff, 0xff, 0x7f}, u_max[4] = {0xff, 0xff, 0xff, 0xff}, i_m1[4] = {0xff, 0xff, 0xff, 0xff};
    CHECK(read_one(IQ_INT, i_max) == 1.0 && read_one(IQ_UINT, u_max) == 1.0, "int and uint ends");
    CHECK(fabs(read_one(IQ_INT, i_m1) - -1.0 / 4294967295.0) < 1e-18, "int -1 is -1/(2^32-1)");
    /* plain reads (blend indexes): the integer itself */
    CHECK(iqi_component_read_plain(bm128, IQ_BYTE) == -128 && iqi_component_read_plain(bff, IQ_UBYTE) == 255, "plain bytes");
    CHECK(iqi_component_read_plain(s_min, IQ_SHORT) == -32768 && iqi_component_read_plain(us_half, IQ_USHORT) == 32768, "plain shorts");
    CHECK(iqi_component_read_plain(i_m1, IQ_INT) == -1 && iqi_component_read_plain(u_max, IQ_UINT) == 4294967295.0, "plain ints");
    const uint8_t h_one[2] = {0x00, 0x3c}; /* 1.0 in binary16 */
    CHECK(iqi_component_read_plain(h_one, IQ_HALF) == 1.0, "plain half is the float");
}

static void test_half_and_floats(void) {
    struct { uint16_t bits; float value; } halves[] = {
        {0x3c00, 1.0f}, {0xc000, -2.0f}, {0x3555, 0.333251953125f}, {0x7bff, 65504.0f},
        {0x0001, 5.9604644775390625e-8f}, /* the smallest subnormal, 2^-24 */
        {0x03ff, 6.097555160522461e-5f},  /* the largest subnormal */
        {0x0400, 6.103515625e-5f},        /* the smallest normal, 2^-14 */
        {0x8000, -0.0f},
    };
    for (size_t i = 0; i < sizeof halves / sizeof *halves; i++) {
        uint8_t q[2] = {(uint8_t)halves[i].bits, (uint8_t)(halves[i].bits >> 8)};
        CHECK(read_one(IQ_HALF, q) == halves[i].value, "half %04x reads %g, not %g", halves[i].bits, halves[i].value, read_one(IQ_HALF, q));
        uint8_t w[2];
        iqi_component_write(w, IQ_HALF, halves[i].value);
        CHECK((w[0] | w[1] << 8) == halves[i].bits, "%g writes half %04x, not %04x", halves[i].value, halves[i].bits, w[0] | w[1] << 8);
    }
    const uint8_t inf[2] = {0x00, 0x7c};
    CHECK(isinf(read_one(IQ_HALF, inf)), "half 7c00 is infinity");
    uint8_t w[2];
    iqi_component_write(w, IQ_HALF, 1e6);
    CHECK((w[0] | w[1] << 8) == 0x7c00, "too large for a half: infinity");
    iqi_component_write(w, IQ_HALF, 1e-10);
    CHECK((w[0] | w[1] << 8) == 0x0000, "too small for a subnormal: zero");
    iqi_component_write(w, IQ_HALF, 1.0 + 1.0 / 1024.0 + 1.0 / 4096.0);
    CHECK((w[0] | w[1] << 8) == 0x3c01, "rounded to the nearest mantissa");
    uint8_t f[4], d[8];
    iqi_component_write(f, IQ_FLOAT, 0.1);
    CHECK(read_one(IQ_FLOAT, f) == (double)0.1f, "float round trip");
    iqi_component_write(d, IQ_DOUBLE, 0.1);
    CHECK(read_one(IQ_DOUBLE, d) == 0.1, "double round trip");
}

/* Every code of the 8- and 16-bit formats (and a spread of the 32-bit ones) reads to a value that
 * writes back to the same code; out-of-range values clamp to the ends. */
static void test_round_trips_and_clamps(void) {
    const iq_component formats[] = {IQ_BYTE, IQ_UBYTE, IQ_SHORT, IQ_USHORT, IQ_INT, IQ_UINT};
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
        iq_component f = formats[i];
        unsigned size = iqi_component_size[f];
        uint64_t codes = size == 4 ? 1u << 16 : 1u << (8 * size);
        int bad = 0;
        for (uint64_t c = 0; c < codes; c++) {
            uint64_t code = size == 4 ? c * 65537u : c; /* 65536 codes spread over 32 bits */
            uint8_t q[4] = {(uint8_t)code, (uint8_t)(code >> 8), (uint8_t)(code >> 16), (uint8_t)(code >> 24)}, back[4] = {0};
            iqi_component_write(back, f, iqi_component_read(q, f));
            if (memcmp(q, back, size) != 0) bad++;
        }
        CHECK(bad == 0, "%s: %d codes do not round-trip", iqi_component_names[f], bad);
        uint8_t hi[4] = {0}, lo[4] = {0};
        iqi_component_write(hi, f, 5.0);
        iqi_component_write(lo, f, -5.0);
        CHECK(iqi_component_read(hi, f) == 1.0, "%s: 5 clamps to 1", iqi_component_names[f]);
        int is_signed = f == IQ_BYTE || f == IQ_SHORT || f == IQ_INT;
        CHECK(iqi_component_read(lo, f) == (is_signed ? -1.0 : 0.0), "%s: -5 clamps to the low end", iqi_component_names[f]);
    }
    uint8_t q[1];
    iqi_component_write(q, IQ_UBYTE, 0.5);
    CHECK(q[0] == 128, "ubyte 0.5 rounds to 128 (127.5 to nearest, half up)");
    iqi_component_write(q, IQ_BYTE, 0.0);
    CHECK((int8_t)q[0] == 0 || (int8_t)q[0] == -1, "byte 0 is one of the two codes next to it");
}

int main(void) {
    test_normalized_reads();
    test_half_and_floats();
    test_round_trips_and_clamps();
    return iqt_finish("test_iqm_format");
}
