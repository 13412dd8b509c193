/* The base every layer stands on: error and warning names, errors and
 * warnings, the heap (counted in the native tests) and the arena, and half
 * floats. Knows nothing of formats, the animator or the load pipeline
 * (load/iq_load.c). */
#include "base/iq_internal.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

// -- Names

static const char *const error_names[] = {
#define IQ_X(name, code, text) code,
    IQ_ERROR_LIST(IQ_X)
#undef IQ_X
};
static const char *const warning_names[] = {
#define IQ_X(name, code, text) code,
    IQ_WARNING_LIST(IQ_X)
#undef IQ_X
};

const char *iq_error_name(iq_error_code code) {
    return (unsigned)code < IQ_ERROR_COUNT ? error_names[code] : "unknown";
}
const char *iq_warning_name(iq_warning_code code) {
    return (unsigned)code < IQ_WARNING_COUNT ? warning_names[code] : "unknown";
}

size_t iq_format_error(char *dst, size_t dst_size, const iq_error *e) {
    int n;
    if (!dst || !dst_size) return 0;
    if (e->line)
        n = snprintf(dst, dst_size, "%s (line %u, column %u): %s", iq_error_name(e->code), e->line, e->column, e->message);
    else if (e->offset >= 0)
        n = snprintf(dst, dst_size, "%s (byte %lld): %s", iq_error_name(e->code), (long long)e->offset, e->message);
    else
        n = snprintf(dst, dst_size, "%s: %s", iq_error_name(e->code), e->message);
    return n < 0 ? 0 : (size_t)n;
}

// -- Errors and warnings

iq_error *iqi_error_reset(iq_error *error, iq_error *local) {
    if (!error) error = local;
    memset(error, 0, sizeof *error);
    error->offset = -1;
    return error;
}

int iqi_set_errorv(iq_error *error, iq_error_code code, const char *fmt, va_list ap) {
    memset(error, 0, sizeof *error);
    error->code = code;
    error->offset = -1;
    vsnprintf(error->message, sizeof error->message, fmt, ap);
    return 0;
}

int iqi_set_error(iq_error *error, iq_error_code code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    iqi_set_errorv(error, code, fmt, ap);
    va_end(ap);
    return 0;
}

void iqi_model_ctx(iqi_ctx *ctx, iq_model *m, iq_error *error) {
    memset(ctx, 0, sizeof *ctx);
    ctx->arena = m->internal;
    ctx->model = m;
    ctx->error = error;
}

iq_error_code iqi_set_error_code(iq_error *error, iq_error_code code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    iqi_set_errorv(error, code, fmt, ap);
    va_end(ap);
    return code;
}

iq_error_code iqi_result(int ok, const iq_error *error) {
    if (ok) return IQ_ERROR_NONE;
    return error->code != IQ_ERROR_NONE ? error->code : IQ_ERROR_INTERNAL;
}

static int record_error(iqi_ctx *ctx, iq_error_code code, int64_t offset, uint32_t line, uint32_t column,
                        const char *fmt, va_list ap) {
    iq_error *e = ctx->error;
    if (e->code != IQ_ERROR_NONE) return 0; /* keep the first, most specific error */
    iqi_set_errorv(e, code, fmt, ap);
    e->offset = offset;
    e->line = line;
    e->column = column;
    return 0;
}

int iqi_fail(iqi_ctx *ctx, iq_error_code code, int64_t offset, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    record_error(ctx, code, offset, 0, 0, fmt, ap);
    va_end(ap);
    return 0;
}

int iqi_fail_at_line(iqi_ctx *ctx, iq_error_code code, uint32_t line, uint32_t column, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    record_error(ctx, code, -1, line, column, fmt, ap);
    va_end(ap);
    return 0;
}

void iqi_warn(iqi_ctx *ctx, iq_warning_code code, const char *fmt, ...) {
    iq_model *m = ctx->model;
    if (m->warning_count < IQ_MAX_WARNINGS) {
        iq_warning *w = &m->warnings[m->warning_count];
        va_list ap;
        w->code = code;
        va_start(ap, fmt);
        vsnprintf(w->message, sizeof w->message, fmt, ap);
        va_end(ap);
    }
    m->warning_count++;
}

// -- Heap (counted and failable in the native tests)

#ifdef IQI_TEST_ALLOC
iqi_test_heap iqi_test_heap_state;

static int test_heap_fails(void) {
    return ++iqi_test_heap_state.allocations == iqi_test_heap_state.fail_at;
}
void *iqi_malloc(size_t size) {
    if (test_heap_fails()) return NULL;
    void *p = malloc(size);
    if (p) iqi_test_heap_state.live++;
    return p;
}
void *iqi_calloc(size_t count, size_t size) {
    if (test_heap_fails()) return NULL;
    void *p = calloc(count, size);
    if (p) iqi_test_heap_state.live++;
    return p;
}
void *iqi_realloc(void *p, size_t size) {
    if (test_heap_fails()) return NULL;
    void *q = realloc(p, size);
    if (q && !p) iqi_test_heap_state.live++;
    return q;
}
void iqi_free(void *p) {
    if (p) iqi_test_heap_state.live--;
    free(p);
}
#endif

// -- Arena

struct iqi_block {
    iqi_block *next;
    /* keeps the payload 16-byte aligned on 32- and 64-bit targets */
    uint64_t pad[(16 - sizeof(iqi_block *)) / 8 > 0 ? (16 - sizeof(iqi_block *)) / 8 : 1];
};

void *iqi_alloc(iqi_ctx *ctx, uint64_t count, uint64_t size, const char *what) {
    iqi_arena *a = ctx->arena;
    if (size != 0 && count > (uint64_t)SIZE_MAX / 4 / size) {
        iqi_fail(ctx, IQ_ERROR_LIMIT, -1, "%s: %llu x %llu bytes overflows", what, (unsigned long long)count,
                 (unsigned long long)size);
        return NULL;
    }
    uint64_t bytes = count * size + sizeof(iqi_block);
    if (a->used > a->budget || bytes > a->budget - a->used) {
        iqi_fail(ctx, IQ_ERROR_LIMIT, -1,
                 "%s would need %llu bytes, over this model's memory budget of %llu bytes (%llu already used)",
                 what, (unsigned long long)(count * size), (unsigned long long)a->budget, (unsigned long long)a->used);
        return NULL;
    }
    iqi_block *b = iqi_calloc(1, (size_t)bytes);
    if (!b) {
        iqi_fail(ctx, IQ_ERROR_OUT_OF_MEMORY, -1, "out of memory allocating %s (%llu bytes)", what,
                 (unsigned long long)bytes);
        return NULL;
    }
    b->next = a->blocks;
    a->blocks = b;
    a->used += (size_t)bytes;
    return b + 1;
}

char *iqi_strdup_n(iqi_ctx *ctx, const char *s, size_t n) {
    char *out = iqi_alloc(ctx, n + 1, 1, "string");
    if (out) memcpy(out, s, n);
    return out;
}

void iqi_arena_free(iqi_arena *a) {
    iqi_block *b = a->blocks;
    while (b) {
        iqi_block *next = b->next;
        iqi_free(b);
        b = next;
    }
    a->blocks = NULL;
    a->used = 0;
}

float iqi_half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f, mant = h & 0x3ff, bits;
    if (exp == 0) {
        if (mant == 0) bits = sign;
        else { /* subnormal: renormalise */
            int e = -1;
            do { e++; mant <<= 1; } while (!(mant & 0x400));
            bits = sign | ((uint32_t)(127 - 15 - e) << 23) | ((mant & 0x3ff) << 13);
        }
    } else if (exp == 31) bits = sign | 0x7f800000u | (mant << 13);
    else bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
    float f;
    memcpy(&f, &bits, 4);
    return f;
}
