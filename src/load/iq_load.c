/* The load pipeline: iq_load_memory detects the format, sets up the limits,
 * arena and model, dispatches to the format's reader (formats/iq_formats.h)
 * and, when it succeeds, finishes the model: the skeleton checked, inverse
 * binds, bounds, the animator's tables, the model's own instance, repaired
 * numbers reported and unusable frame bounds recomputed. Readers only read;
 * every step after them is here, run once, in this order. */
#include "base/iq_internal.h"
#include "base/iq_math.h"
#include "formats/iq_formats.h"
#include "anim/iq_anim_internal.h"
#include <stdlib.h>

// -- Finishing a model

static int bounds_usable(const iqi_ctx *ctx, const iq_bounds *b) {
    const float *v = b->min; /* min, max, xy_radius, radius: 8 floats */
    for (int k = 0; k < 8; k++)
        if (!iqi_usable(ctx, v[k])) return 0;
    return 1;
}

/* After iqi_instance_prepare: recomputes the frame bounds a parser marked (or
 * that are unusable), then puts the bind pose back in the evaluation buffers. */
static void repair_frame_bounds(iqi_ctx *ctx) {
    iq_model *m = ctx->model;
    uint32_t repaired = 0;
    if (!m->frame_bounds) return;
    for (uint32_t f = 0; f < m->frame_count; f++) {
        iq_bounds *b = &m->frame_bounds[f];
        if (bounds_usable(ctx, b)) continue;
        repaired++;
        if (m->frame_positions) iqi_points_bounds(m->frame_positions + 3 * (size_t)f * m->vertex_count, m->vertex_count, b);
        else if (m->frame_poses && m->joint_count) iqi_pose_bounds(m->instance, m->frame_poses + (size_t)f * m->joint_count, b);
        else iqi_points_bounds(m->positions, m->positions ? m->vertex_count : 0, b);
    }
    if (!repaired) return;
    iqi_warn(ctx, IQ_WARNING_REPAIRED, "%u frame bound(s) were NaN, infinite or beyond the magnitude limit; recomputed from the vertices",
             repaired);
    if (!m->frame_positions && m->joint_count) iqi_instance_reset(m->instance); /* back to the bind pose */
}

/* After a reader succeeded: the skeleton checked (parent < index), inverse
 * bind matrices, the reach proof (base/iq_numbers.c), the model bounds, the
 * animator's tables, the model's own evaluation state, then the numbers
 * repaired on the way reported and unusable frame bounds recomputed. */
static int finish_model(iqi_ctx *ctx) {
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
            iqi_mat_from_transform(local, &m->joints[i].bind);
            if (m->joints[i].parent >= 0) iqi_mat_mul(world + 12 * i, world + 12 * m->joints[i].parent, local);
            else memcpy(world + 12 * i, local, sizeof local);
            if (!iqi_mat_invert(m->inverse_bind + 12 * i, world + 12 * i))
                return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, -1,
                                "the bind pose of joint %u ('%s') is not invertible (zero scale?)", i, m->joints[i].name);
        }
    }
    if (!iqi_check_reach(ctx, NULL, 0)) return 0;
    if (m->vertex_count && m->positions) {
        iqi_points_bounds(m->positions, m->vertex_count, &m->bounds);
    }
    if (!iqi_anim_prepare(ctx) || !iqi_instance_prepare(ctx)) return 0;
    iqi_warn_repairs(ctx);
    repair_frame_bounds(ctx);
    return 1;
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

/* Every format the library knows, by magic and name, read by this build or not (a build may leave
 * readers out: iq_format_readable). One line per format. */
static const struct { iq_format format; const char *name; const char *magic; size_t size; } formats[] = {
    {IQ_FORMAT_IQM, "iqm", "INTERQUAKEMODEL", 15},
    {IQ_FORMAT_MD3, "md3", "IDP3", 4},
    {IQ_FORMAT_IQE, "iqe", "# Inter-Quake Export", 20},
    {IQ_FORMAT_MD2, "md2", "IDP2", 4},
    {IQ_FORMAT_MDL, "mdl", "IDPO", 4},
    {IQ_FORMAT_MDC, "mdc", "IDPC", 4},
    /* MD5 text starts with its version line; Red Eclipse ships files that start at the commandline */
    {IQ_FORMAT_MD5, "md5", "MD5Version", 10},
    {IQ_FORMAT_MD5, "md5", "commandline", 11},
    {IQ_FORMAT_DPM, "dpm", "DARKPLACESMODEL", 16},
    {IQ_FORMAT_ZYM, "zym", "ZYMOTICMODEL", 12},
    {IQ_FORMAT_MDR, "mdr", "RDM5", 4},
};

const char *iq_format_name(iq_format format) {
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (formats[i].format == format) return formats[i].name;
    return format == IQ_FORMAT_AUTO ? "auto" : "unknown";
}

static const iqi_reader *on_demand_reader(iq_format format) {
    for (const iqi_reader *r = iqi_on_demand_readers; r->parse; r++)
        if (r->format == format) return r;
    return NULL;
}

int iq_format_readable(iq_format format) {
    return format == IQ_FORMAT_IQM || format == IQ_FORMAT_IQE || format == IQ_FORMAT_MD3 || on_demand_reader(format) != NULL;
}

static iq_format detect_format(const uint8_t *d, size_t n) {
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (starts_with(d, n, formats[i].magic, formats[i].size)) return formats[i].format;
    return IQ_FORMAT_AUTO;
}

iq_format iq_detect_format(const void *data, size_t size) { return data ? detect_format(data, size) : IQ_FORMAT_AUTO; }

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
    ctx.name = opts ? opts->name : NULL;

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
        if (on_demand_reader(format)) ok = on_demand_reader(format)->parse(&ctx);
        else if (format != IQ_FORMAT_AUTO && (unsigned)format < IQ_FORMAT_COUNT)
            iqi_fail(&ctx, IQ_ERROR_UNSUPPORTED, 0, "%s: not in this build (interquake-readers.wasm reads it)",
                     iq_format_name(format));
        else if (iqi_sibling_format(ctx.data, size))
            iqi_fail(&ctx, IQ_ERROR_UNSUPPORTED, 0, "%s: interquake does not read it", iqi_sibling_format(ctx.data, size));
        else if (size < 4) iqi_fail(&ctx, IQ_ERROR_TRUNCATED, 0, "%zu bytes is too short to be a model file", size);
        else iqi_fail(&ctx, IQ_ERROR_UNKNOWN_FORMAT, 0, "no signature of a format interquake reads at the start of the file");
        break;
    }
    if (ok) ok = finish_model(&ctx);
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
