/* IQM v2 format facts shared by the reader, the writer and IQE (iq_iqm_format.h). */
#include "formats/iq_iqm_format.h"
#include <math.h>

_Static_assert(sizeof(iqm_header) == 4 * IQM_HEADER_FIELDS, "iqm_header is the 27 header fields, unpadded");
_Static_assert(16 + 4 * IQM_HEADER_FIELDS == IQM_HEADER_SIZE, "magic + fields");

void iqi_iqm_header_read(const uint8_t *d, iqm_header *h) {
    uint32_t fields[IQM_HEADER_FIELDS];
    for (int i = 0; i < IQM_HEADER_FIELDS; i++) fields[i] = iqi_u32(d + 16 + 4 * i);
    memcpy(h, fields, sizeof fields);
}

void iqi_iqm_header_write(uint8_t *d, const iqm_header *h) {
    uint32_t fields[IQM_HEADER_FIELDS];
    memcpy(fields, h, sizeof fields);
    memcpy(d, IQM_MAGIC, 16);
    for (int i = 0; i < IQM_HEADER_FIELDS; i++)
        for (int k = 0; k < 4; k++) d[16 + 4 * i + k] = (uint8_t)(fields[i] >> (8 * k));
}

const char *const iqi_iqm_type_names[IQM_STANDARD_TYPES] = {"position", "texcoord", "normal", "tangent",
                                                            "blendindexes", "blendweights", "color"};

const char *const iqi_component_names[IQM_COMPONENT_FORMATS] = {"byte", "ubyte", "short", "ushort", "int",
                                                                "uint", "half", "float", "double"};
const uint8_t iqi_component_size[IQM_COMPONENT_FORMATS] = {1, 1, 2, 2, 4, 4, 2, 4, 8};

double iqi_component_read(const uint8_t *q, iq_component format) {
    switch (format) {
    case IQ_BYTE: return (2.0 * (int8_t)q[0] + 1.0) / 255.0;
    case IQ_UBYTE: return q[0] / 255.0;
    case IQ_SHORT: return (2.0 * iqi_i16(q) + 1.0) / 65535.0;
    case IQ_USHORT: return iqi_u16(q) / 65535.0;
    case IQ_INT: return (2.0 * iqi_i32(q) + 1.0) / 4294967295.0;
    case IQ_UINT: return iqi_u32(q) / 4294967295.0;
    case IQ_HALF: return iqi_half_to_float(iqi_u16(q));
    case IQ_FLOAT: return iqi_f32(q);
    default: return iqi_f64(q);
    }
}

double iqi_component_read_plain(const uint8_t *q, iq_component format) {
    switch (format) {
    case IQ_BYTE: return (int8_t)q[0];
    case IQ_UBYTE: return q[0];
    case IQ_SHORT: return iqi_i16(q);
    case IQ_USHORT: return iqi_u16(q);
    case IQ_INT: return iqi_i32(q);
    case IQ_UINT: return iqi_u32(q);
    default: return iqi_component_read(q, format);
    }
}

void iqi_component_write(uint8_t *dst, iq_component format, double v) {
    switch (format) {
    case IQ_BYTE: { double c = floor((v * 255.0 - 1.0) / 2.0 + 0.5); c = c < -128 ? -128 : c > 127 ? 127 : c; int8_t x = (int8_t)c; memcpy(dst, &x, 1); break; }
    case IQ_UBYTE: { double c = floor(v * 255.0 + 0.5); dst[0] = (uint8_t)(c < 0 ? 0 : c > 255 ? 255 : c); break; }
    case IQ_SHORT: { double c = floor((v * 65535.0 - 1.0) / 2.0 + 0.5); c = c < -32768 ? -32768 : c > 32767 ? 32767 : c; int16_t x = (int16_t)c; dst[0] = (uint8_t)x; dst[1] = (uint8_t)((uint16_t)x >> 8); break; }
    case IQ_USHORT: { double c = floor(v * 65535.0 + 0.5); uint16_t x = (uint16_t)(c < 0 ? 0 : c > 65535 ? 65535 : c); dst[0] = (uint8_t)x; dst[1] = (uint8_t)(x >> 8); break; }
    case IQ_INT: { double c = floor((v * 4294967295.0 - 1.0) / 2.0 + 0.5); c = c < -2147483648.0 ? -2147483648.0 : c > 2147483647.0 ? 2147483647.0 : c; int32_t x = (int32_t)c; uint32_t u; memcpy(&u, &x, 4); for (int k = 0; k < 4; k++) dst[k] = (uint8_t)(u >> (8 * k)); break; }
    case IQ_UINT: { double c = floor(v * 4294967295.0 + 0.5); uint32_t u = (uint32_t)(c < 0 ? 0 : c > 4294967295.0 ? 4294967295.0 : c); for (int k = 0; k < 4; k++) dst[k] = (uint8_t)(u >> (8 * k)); break; }
    case IQ_HALF: {
        float f = (float)v;
        uint32_t b; memcpy(&b, &f, 4);
        uint32_t sign = (b >> 16) & 0x8000; int32_t e = (int32_t)((b >> 23) & 0xff) - 127 + 15; uint32_t m = b & 0x7fffff;
        uint16_t h;
        if (e >= 31) h = (uint16_t)(sign | 0x7c00);                         /* overflow: infinity */
        else if (e <= 0) {                                                  /* subnormal or zero */
            if (e < -10) h = (uint16_t)sign;
            else { m |= 0x800000; uint32_t shift = (uint32_t)(14 - e); uint32_t r = m >> shift; if ((m >> (shift - 1)) & 1) r++; h = (uint16_t)(sign | r); }
        } else { uint32_t r = (uint32_t)(e << 10) | (m >> 13); if (m & 0x1000) r++; h = (uint16_t)(sign | r); }
        dst[0] = (uint8_t)h; dst[1] = (uint8_t)(h >> 8);
        break;
    }
    case IQ_FLOAT: { float f = (float)v; uint32_t u; memcpy(&u, &f, 4); for (int k = 0; k < 4; k++) dst[k] = (uint8_t)(u >> (8 * k)); break; }
    default: { uint64_t u; memcpy(&u, &v, 8); for (int k = 0; k < 8; k++) dst[k] = (uint8_t)(u >> (8 * k)); break; }
    }
}

uint32_t iqi_hash_position(const float v[3]) {
    uint32_t h = 2166136261u;
    for (int k = 0; k < 3; k++) {
        float f = v[k] == 0 ? 0.0f : v[k]; /* -0 and 0 are the same position */
        uint32_t u;
        memcpy(&u, &f, 4);
        h = (h ^ u) * 16777619u;
        h ^= h >> 15;
    }
    return h;
}

uint32_t iqi_hash_influences(const uint16_t joints[4], const float weights[4]) {
    uint32_t h = 2166136261u, bits;
    for (int k = 0; k < 4; k++) {
        memcpy(&bits, &weights[k], 4);
        h = (h ^ joints[k]) * 16777619u;
        h = (h ^ bits) * 16777619u;
    }
    return h ^ (h >> 15);
}

uint64_t iqi_hash_table_size(uint32_t n) {
    uint64_t size = 16;
    while (size < 2 * (uint64_t)n) size *= 2;
    return size;
}

void iqi_position_ids(const float *positions, uint32_t n, uint32_t *table, uint64_t table_size, uint32_t *pid) {
    uint64_t mask = table_size - 1;
    memset(table, 0xFF, (size_t)table_size * sizeof *table);
    for (uint32_t v = 0; v < n; v++) {
        const float *p = positions + 3 * (size_t)v;
        uint64_t h = iqi_hash_position(p) & mask;
        for (;;) {
            uint32_t other = table[h];
            if (other == UINT32_MAX) { table[h] = v; pid[v] = v; break; }
            const float *q = positions + 3 * (size_t)other;
            if (q[0] == p[0] && q[1] == p[1] && q[2] == p[2]) { pid[v] = pid[other]; break; }
            h = (h + 1) & mask;
        }
    }
}
