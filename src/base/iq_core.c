/* Load entry point, format detection, errors and warnings, the arena, and
 * the post-parse steps every format shares. */
#include "base/iq_internal.h"
#include "base/iq_math.h"
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

// -- Shared post-parse steps

void iqi_quat_normalize(float q[4]) { iqm_quat_normalize(q); }

/* Inverse bind matrices, the model bounds, the animator's tables and the
 * model's own evaluation state. */
int iqi_finish_model(iqi_ctx *ctx) {
    iq_model *m = ctx->model;
    uint32_t nj = m->joint_count;
    for (uint32_t i = 0; i < nj; i++) {
        int32_t p = m->joints[i].parent;
        if (p >= (int32_t)i)
            return iqi_fail(ctx, IQ_ERROR_BAD_HIERARCHY, -1, "joint %u ('%s') has parent %d; a parent must come before its child",
                            i, m->joints[i].name, p);
    }
    if (nj) {
        m->inverse_bind = iqi_alloc(ctx, nj, 12 * sizeof(float), "inverse bind matrices");
        float *world = iqi_alloc(ctx, nj, 12 * sizeof(float), "bind world matrices");
        if (!m->inverse_bind || !world) return 0;
        for (uint32_t i = 0; i < nj; i++) {
            float local[12];
            iqm_mat_from_transform(local, &m->joints[i].bind);
            if (m->joints[i].parent >= 0) iqm_mat_mul(world + 12 * i, world + 12 * m->joints[i].parent, local);
            else memcpy(world + 12 * i, local, sizeof local);
            if (!iqm_mat_invert(m->inverse_bind + 12 * i, world + 12 * i))
                return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, -1,
                                "the bind pose of joint %u ('%s') is not invertible (zero scale?)", i, m->joints[i].name);
        }
    }
    if (!iqi_check_reach(ctx, NULL, 0)) return 0;
    if (m->vertex_count && m->positions) {
        iqi_points_bounds(m->positions, m->vertex_count, &m->bounds);
    }
    return iqi_anim_prepare(ctx) && iqi_instance_prepare(ctx) && iqi_numbers_finish(ctx);
}

// -- Entry points

static void fill_limits(iq_limits *l, const iq_load_opts *opts) {
    if (opts) *l = opts->limits;
    else memset(l, 0, sizeof *l);
    if (!l->max_memory) l->max_memory = IQI_DEFAULT_MAX_MEMORY;
    if (!l->memory_per_input_byte) l->memory_per_input_byte = 64;
    if (!l->fixed_allowance) l->fixed_allowance = (size_t)16 << 20;
    if (!l->max_joints) l->max_joints = 4096;
    if (!l->max_frames) l->max_frames = 1000000;
    if (!(l->max_magnitude > 0)) l->max_magnitude = IQ_DEFAULT_MAX_MAGNITUDE; /* also NaN */
    if (l->max_magnitude > IQ_MAX_REACH) l->max_magnitude = IQ_MAX_REACH;
}

/* A file shorter than its format's signature but matching its start is
 * reported by that format's parser as truncated, not as unknown. */
static int starts_with(const uint8_t *d, size_t n, const char *signature, size_t signature_size) {
    if (n == 0) return 0;
    return memcmp(d, signature, n < signature_size ? n : signature_size) == 0;
}

/* Formats that games ship under our extensions (Xonotic has Quake 1 MDL
 * files named .md3): named in the error instead of "unknown". */
static const struct { const char *magic; size_t size; const char *what; } siblings[] = {
    {"IDPO", 4, "a Quake 1 MDL model (IDPO)"},
    {"IDP2", 4, "a Quake 2 MD2 model (IDP2)"},
    {"IDPC", 4, "a Return to Castle Wolfenstein MDC model (IDPC)"},
    {"RDM5", 4, "an ioquake3 MDR model (RDM5)"},
    {"MDSW", 4, "a Wolfenstein MDS model (MDSW)"},
    {"MDMW", 4, "a Wolfenstein: Enemy Territory MDM mesh (MDMW)"},
    {"MDXW", 4, "a Wolfenstein: Enemy Territory MDX skeleton (MDXW)"},
    {"IDST", 4, "a Half-Life studio MDL model (IDST)"},
    {"IDSQ", 4, "a Half-Life MDL sequence file (IDSQ)"},
    {"IDSP", 4, "a Quake sprite (IDSP)"},
    {"MD5Version", 10, "an MD5 mesh or animation (MD5Version)"},
    {"ZYMOTICMODEL", 12, "a Darkplaces ZYM model (ZYMOTICMODEL)"},
    {"DARKPLACESMODEL", 15, "a Darkplaces DPM model (DARKPLACESMODEL)"},
    {"ACTRHEAD", 8, "an Unreal PSK mesh (ACTRHEAD)"},
    {"ANIMHEAD", 8, "an Unreal PSA animation (ANIMHEAD)"},
    {"glTF", 4, "a binary glTF model (glTF)"},
    {"Kaydara FBX Binary", 18, "a binary FBX model (Kaydara FBX Binary)"},
};

static const char *sibling_format(const uint8_t *d, size_t n) {
    for (size_t i = 0; i < sizeof siblings / sizeof siblings[0]; i++)
        if (n >= siblings[i].size && memcmp(d, siblings[i].magic, siblings[i].size) == 0) return siblings[i].what;
    return NULL;
}

static iq_format detect_format(const uint8_t *d, size_t n) {
    if (starts_with(d, n, "INTERQUAKEMODEL", 15)) return IQ_FORMAT_IQM;
    if (starts_with(d, n, "IDP3", 4)) return IQ_FORMAT_MD3;
    if (starts_with(d, n, "# Inter-Quake Export", 20)) return IQ_FORMAT_IQE;
    return IQ_FORMAT_AUTO;
}

iq_model *iq_load_memory(const void *data, size_t size, const iq_load_opts *opts, iq_error *error) {
    iq_error local_error;
    iqi_arena *arena;
    iq_model *model;
    iqi_ctx ctx;
    error = iqi_error_reset(error, &local_error);
    if (!data && size) {
        iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT, "data is NULL");
        return NULL;
    }

    memset(&ctx, 0, sizeof ctx);
    ctx.data = data;
    ctx.size = size;
    ctx.error = error;
    fill_limits(&ctx.limits, opts);

    arena = iqi_calloc(1, sizeof *arena);
    if (!arena) {
        iqi_set_error(error, IQ_ERROR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    /* The budget ties decoded size to input size, so a small file cannot make
     * us allocate gigabytes before its lies are found out. */
    {
        uint64_t scaled = (uint64_t)size * ctx.limits.memory_per_input_byte;
        uint64_t budget = ctx.limits.fixed_allowance + (scaled / ctx.limits.memory_per_input_byte == size ? scaled : UINT64_MAX / 2);
        arena->budget = budget < ctx.limits.max_memory ? (size_t)budget : ctx.limits.max_memory;
    }
    ctx.arena = arena;
    model = iqi_alloc(&ctx, 1, sizeof *model, "model");
    if (!model) {
        iqi_arena_free(arena);
        iqi_free(arena);
        return NULL;
    }
    model->internal = arena;
    ctx.model = model;
    /* Allocated up front so that recording a warning can never fail. */
    model->warnings = iqi_alloc(&ctx, IQ_MAX_WARNINGS, sizeof(iq_warning), "warnings");
    if (!model->warnings) {
        iqi_arena_free(arena);
        iqi_free(arena);
        return NULL;
    }

    iq_format format = opts && opts->format ? opts->format : detect_format(ctx.data, size);
    int ok = 0;
    switch (format) {
    case IQ_FORMAT_IQM: ok = iqi_parse_iqm(&ctx); break;
    case IQ_FORMAT_IQE: ok = iqi_parse_iqe(&ctx); break;
    case IQ_FORMAT_MD3: ok = iqi_parse_md3(&ctx); break;
    default:
        if (sibling_format(ctx.data, size))
            iqi_fail(&ctx, IQ_ERROR_UNSUPPORTED, 0, "%s: interquake reads IQM, IQE and MD3", sibling_format(ctx.data, size));
        else if (size < 4) iqi_fail(&ctx, IQ_ERROR_TRUNCATED, 0, "%zu bytes is too short to be a model file", size);
        else iqi_fail(&ctx, IQ_ERROR_UNKNOWN_FORMAT, 0, "no IQM, IQE or MD3 signature at the start of the file");
        break;
    }
    if (ok) ok = iqi_finish_model(&ctx);
    if (!ok) {
        if (error->code == IQ_ERROR_NONE) { /* a parser bug if ever reached; never hand out a half-built model */
            iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT, "load failed without a reason");
        }
        iqi_arena_free(arena);
        iqi_free(arena);
        return NULL;
    }
    model->format = format;
    return model;
}

void iq_free(iq_model *model) {
    if (!model) return;
    iqi_arena *arena = model->internal;
    iqi_arena_free(arena); /* the model itself lives in the arena */
    iqi_free(arena);
}
