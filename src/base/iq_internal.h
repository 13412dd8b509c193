/* The base every layer stands on: the load context, errors and warnings with
 * the one-line check macros, the heap and the arena every model allocation
 * comes from, the bounds-checked reader and the policy for numbers. Not part
 * of the public API; declares nothing of an upper layer (the readers' entries
 * are in formats/iq_formats.h, the animator's load-time steps in
 * anim/iq_anim_internal.h). */
#ifndef IQ_INTERNAL_H
#define IQ_INTERNAL_H

#include "interquake.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#if defined(__GNUC__) || defined(__clang__)
#define IQI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define IQI_NOINLINE __attribute__((noinline))
#else
#define IQI_PRINTF(f, a)
#define IQI_NOINLINE
#endif

/* -- Heap: every allocation the library makes (loads, instances, writers,
 * TGA, zip directories, shader scripts) goes through these; nothing else in
 * src/ calls malloc, calloc, realloc or free (tests/js/core/layers.test.mjs
 * checks), except the WASM heap exports JS allocates with (wasm/iq_wasm_tables.c). Built with IQI_TEST_ALLOC (the native tests only), they
 * count allocations and live blocks and can fail the n-th allocation, so
 * the tests can fail each allocation in turn and check that nothing is left. */
#ifdef IQI_TEST_ALLOC
typedef struct iqi_test_heap {
    uint64_t allocations; /* calloc and realloc calls so far */
    uint64_t fail_at;     /* that call (1-based) returns NULL; 0: none */
    int64_t live;         /* blocks allocated and not freed */
} iqi_test_heap;
extern iqi_test_heap iqi_test_heap_state;
void *iqi_malloc(size_t size);
void *iqi_calloc(size_t count, size_t size);
void *iqi_realloc(void *p, size_t size);
void iqi_free(void *p);
#else
static inline void *iqi_malloc(size_t size) { return malloc(size); }
static inline void *iqi_calloc(size_t count, size_t size) { return calloc(count, size); }
static inline void *iqi_realloc(void *p, size_t size) { return realloc(p, size); }
static inline void iqi_free(void *p) { free(p); }
#endif

/* -- Arena: every allocation of one model; freeing the model frees them all,
 * so an error half way through a parse leaks nothing. */
typedef struct iqi_block iqi_block;
typedef struct iqi_arena {
    iqi_block *blocks;
    size_t used;      /* bytes handed out, headers included */
    size_t budget;    /* the most this model may use */
} iqi_arena;

/* -- Load context */
typedef struct iqi_ctx {
    const uint8_t *data;  /* the input; parsers never read past data + size */
    size_t size;
    iq_error *error;
    iqi_arena *arena;
    iq_model *model;
    iq_limits limits;     /* with defaults filled in */
    uint32_t repaired[5]; /* per iqi_vector_kind: optional vertex vectors repaired (iq_numbers.c) */
    const char *name;     /* iq_load_opts.name: the file's name, or NULL */
} iqi_ctx;

/* A context for a call that adds to a loaded model (iq_apply_framegroups,
 * iq_attach_animations): the model, its arena and `error`; no input, limits 0. */
void iqi_model_ctx(iqi_ctx *ctx, iq_model *m, iq_error *error);

/* Public entry points start with this: it clears the caller's error struct,
 * or `local` when the caller passed NULL, and returns the one to fill. */
iq_error *iqi_error_reset(iq_error *error, iq_error *local);
/* Fills an error outside a parse (no context, no location). Returns 0. */
int iqi_set_error(iq_error *error, iq_error_code code, const char *fmt, ...) IQI_PRINTF(3, 4);
int iqi_set_errorv(iq_error *error, iq_error_code code, const char *fmt, va_list ap);
/* The same, returning `code`: `return iqi_set_error_code(err, IQ_ERROR_X, ...)`
 * ends a public call that returns an iq_error_code. */
iq_error_code iqi_set_error_code(iq_error *error, iq_error_code code, const char *fmt, ...) IQI_PRINTF(3, 4);

/* The one return rule of the public calls (iq_error_code, 0 = IQ_ERROR_NONE):
 * IQ_ERROR_NONE when ok, else the code in *error (IQ_ERROR_INTERNAL if a
 * failure left none, a bug). Internal steps return 1/0 and fill the error. */
iq_error_code iqi_result(int ok, const iq_error *error);

/* Records the error (the first one wins) and returns 0, so checks read as
 * `if (bad) return iqi_fail(...)`. */
int iqi_fail(iqi_ctx *ctx, iq_error_code code, int64_t offset, const char *fmt, ...) IQI_PRINTF(4, 5);
int iqi_fail_at_line(iqi_ctx *ctx, iq_error_code code, uint32_t line, uint32_t column, const char *fmt, ...)
    IQI_PRINTF(5, 6);
void iqi_warn(iqi_ctx *ctx, iq_warning_code code, const char *fmt, ...) IQI_PRINTF(3, 4);

#define IQI_CHECK(ctx, cond, code, offset, ...) \
    do { if (!(cond)) return iqi_fail((ctx), IQ_ERROR_##code, (int64_t)(offset), __VA_ARGS__); } while (0)

/* Zeroed memory from the model's arena, or NULL with a 'limit' or
 * 'out_of_memory' error naming `what`. count * size is overflow-checked and
 * compared with the budget before anything is allocated. */
void *iqi_alloc(iqi_ctx *ctx, uint64_t count, uint64_t size, const char *what);
char *iqi_strdup_n(iqi_ctx *ctx, const char *s, size_t n);
void iqi_arena_free(iqi_arena *arena);

/* -- Bounds-checked little-endian reader. Offsets and counts from files are
 * 32-bit, so all range arithmetic is done in 64 bits where it cannot wrap. */
static inline int iqi_range_ok(size_t size, uint64_t offset, uint64_t count, uint64_t elem_size) {
    if (offset > size) return 0;
    if (elem_size != 0 && count > (UINT64_MAX / 2) / elem_size) return 0;
    return count * elem_size <= (uint64_t)size - offset;
}
static inline uint16_t iqi_u16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t iqi_u32(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline int32_t iqi_i32(const uint8_t *p) { uint32_t u = iqi_u32(p); int32_t i; memcpy(&i, &u, 4); return i; }
static inline int16_t iqi_i16(const uint8_t *p) { uint16_t u = iqi_u16(p); int16_t i; memcpy(&i, &u, 2); return i; }
static inline float iqi_f32(const uint8_t *p) { uint32_t u = iqi_u32(p); float f; memcpy(&f, &u, 4); return f; }
static inline double iqi_f64(const uint8_t *p) {
    uint64_t u = (uint64_t)iqi_u32(p) | ((uint64_t)iqi_u32(p + 4) << 32);
    double d; memcpy(&d, &u, 8); return d;
}
float iqi_half_to_float(uint16_t h);

static inline int iqi_finite(float f) { return f == f && f - f == 0.0f; }

/* -- Numbers (base/iq_numbers.c): the one policy for values that are not finite
 * or too large. Positions, poses, tags and bounds must be usable (finite and
 * within limits.max_magnitude) or the load fails; optional vertex vectors are
 * repaired; file-stored frame bounds are recomputed. */
static inline int iqi_usable(const iqi_ctx *ctx, double v) { return fabs(v) <= ctx->limits.max_magnitude; } /* NaN: 0 */
/* Fails with 'bad_value' at a byte offset (line 0) or a line (text formats):
 * "<what> is not a finite number" or "... is <v>, beyond the magnitude limit". */
int iqi_fail_value(iqi_ctx *ctx, int64_t offset, uint32_t line, double value, const char *what_fmt, ...) IQI_PRINTF(5, 6);
typedef enum iqi_vector_kind { IQI_NORMAL, IQI_TANGENT, IQI_COLOR, IQI_TEXCOORD, IQI_CUSTOM, IQI_VECTOR_KINDS } iqi_vector_kind;
/* An optional vertex vector of n (<= 4) values with a value that is not
 * usable gets the whole vector replaced by the kind's default: normal
 * (0,0,1), tangent (1,0,0,1), colour (1,1,1,1), texcoord (0,0), custom 0.
 * Counted in ctx->repaired; iqi_warn_repairs warns once per kind. Returns 1
 * when it repaired. */
int iqi_repair_vector(iqi_ctx *ctx, iqi_vector_kind kind, float *v, int n);
/* Marks a file-stored frame bound unusable; the load pipeline (load/iq_load.c)
 * recomputes it when it finishes the model. */
void iqi_mark_bounds_unusable(iq_bounds *b);
/* Refuses a skeleton whose world or skin matrices, over the bind pose, every
 * frame of the model and `extra_frames` more frames (joint_count poses each,
 * NULL for none), or whose skinned vertices could pass IQ_MAX_REACH. */
int iqi_check_reach(iqi_ctx *ctx, const iq_transform *extra, uint64_t extra_frames);
/* Warns once per kind about the optional vectors iqi_repair_vector repaired
 * (the load pipeline calls it when the model is finished). */
void iqi_warn_repairs(iqi_ctx *ctx);
/* Bounds (min, max, radii, in double) of n positions. */
void iqi_points_bounds(const float *positions, uint32_t n, iq_bounds *b);

#define IQI_DEFAULT_MAX_MEMORY ((size_t)512 << 20)

#endif
