/* The one policy for numbers a file gives, and why nothing the API computes
 * from an accepted model can overflow.
 *
 * Policy (README "Numbers"):
 * - Positions, joint bind and frame poses (translate, scale, and every decoded
 *   IQM channel), MD3 tags: a value that is not finite or whose magnitude is
 *   over limits.max_magnitude fails the load with 'bad_value', located.
 * - Optional vertex vectors (normals, tangents, colours, texcoords, custom
 *   arrays): such a vector is replaced by a default (iqi_repair_vector) and
 *   counted; one 'repaired' warning per kind. Renderers need something there,
 *   and shipped models carry NaN tangents (Cube 2's Frankie.iqm, Unvanquished).
 * - File-stored frame bounds (IQM bounds, MD3 frame records): unusable ones
 *   are recomputed from the posed vertices with a warning (a shipped Nexuiz
 *   MD3 has garbage per-frame bounds; engines recompute or ignore them).
 * - A skeleton whose composed transforms could pass IQ_MAX_REACH is refused
 *   (iqi_check_reach): per-value limits alone cannot stop a chain of 4096
 *   joints each scaling by 10 from overflowing.
 *
 * The proof that the animator stays finite, for an accepted model. Norms are
 * Euclidean; ||A|| is the spectral norm of a 3x3 part, which bounds every
 * entry and every row's length.
 * 1. A local matrix T*R*S has ||R S|| = max|s| and translation |t|. Lerps,
 *    nlerp/slerp and crossfades of poses are convex in t and s (weights are
 *    clamped to 0..1), so over every pose the animator can sample, a joint's
 *    local stays within smax_j = max|s| and tmax_j = max|t| over its bind
 *    pose and every frame.
 * 2. World_j = World_parent * Local_j: ||W_j|| <= N_j = N_p * smax_j and
 *    |t_j| <= T_j = N_p * tmax_j + T_p. Every partial sum of the float
 *    products is bounded by the same (Cauchy-Schwarz on a row and a column).
 * 3. Skin_j = W_j * InverseBind_j: ||.|| <= K_j = N_j * |Inv_j|_F and the
 *    translation <= St_j = N_j * |inv t_j| + T_j. Blending up to four skin
 *    matrices with weights summing to 1 is convex: still within K = max K_j.
 * 4. A skinned position is within K * P + St (P = max |position|); a normal
 *    goes through the cofactor matrix (entries <= 2 K^2): within 6 K^2 |n|;
 *    a tangent within 3 K |t|. Lengths for normalising are summed in double.
 * iqi_check_reach refuses the model unless all of N, T, K, St and those three
 * are <= IQ_MAX_REACH (1e30); float holds 3.4e38, so none overflows, and
 * neither do the 3-term sums (3e30). MD3 morphing lerps values that are
 * within +-512 by format; tag matrices lerp usable values in double and
 * orthonormalise. */
#include "base/iq_internal.h"
#include "base/iq_math.h"
#include <stdio.h>

int iqi_fail_value(iqi_ctx *ctx, int64_t offset, uint32_t line, double value, const char *what_fmt, ...) {
    char what[160];
    va_list ap;
    va_start(ap, what_fmt);
    vsnprintf(what, sizeof what, what_fmt, ap);
    va_end(ap);
    const char *fmt = isfinite(value) ? "%s is %g, beyond the magnitude limit of %g (iq_limits.max_magnitude)"
                                      : "%s is not a finite number";
    if (line) return iqi_fail_at_line(ctx, IQ_ERROR_BAD_VALUE, line, 1, fmt, what, value, ctx->limits.max_magnitude);
    return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, offset, fmt, what, value, ctx->limits.max_magnitude);
}

static const float vector_defaults[IQI_VECTOR_KINDS][4] = {
    {0, 0, 1, 0}, /* normal: Z up */
    {1, 0, 0, 1}, /* tangent along X, bitangent sign +1 */
    {1, 1, 1, 1}, /* colour: white, opaque (multiplies to no change) */
    {0, 0, 0, 0}, /* texcoord */
    {0, 0, 0, 0}, /* custom array value */
};
static const char *const vector_names[IQI_VECTOR_KINDS] = {"normal", "tangent", "colour", "texture coordinate",
                                                           "custom array value"};
static const char *const vector_fix[IQI_VECTOR_KINDS] = {"(0,0,1)", "(1,0,0,1)", "(1,1,1,1)", "(0,0)", "0"};

int iqi_repair_vector(iqi_ctx *ctx, iqi_vector_kind kind, float *v, int n) {
    int bad = 0;
    for (int k = 0; k < n; k++) bad |= !iqi_usable(ctx, v[k]);
    if (!bad) return 0;
    memcpy(v, vector_defaults[kind], (size_t)n * sizeof(float));
    ctx->repaired[kind]++;
    return 1;
}

void iqi_warn_repairs(iqi_ctx *ctx) {
    for (int k = 0; k < IQI_VECTOR_KINDS; k++)
        if (ctx->repaired[k])
            iqi_warn(ctx, IQ_WARNING_REPAIRED, "%u %s(s) were NaN, infinite or beyond the magnitude limit %g; set to %s",
                     ctx->repaired[k], vector_names[k], ctx->limits.max_magnitude, vector_fix[k]);
}

void iqi_mark_bounds_unusable(iq_bounds *b) { b->radius = NAN; }

void iqi_points_bounds(const float *pos, uint32_t n, iq_bounds *b) {
    double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, xy2 = 0, r2 = 0;
    for (uint32_t v = 0; v < n; v++) {
        const float *p = pos + 3 * (size_t)v;
        for (int k = 0; k < 3; k++) {
            if (v == 0 || p[k] < lo[k]) lo[k] = p[k];
            if (v == 0 || p[k] > hi[k]) hi[k] = p[k];
        }
        double xy = (double)p[0] * p[0] + (double)p[1] * p[1], r = xy + (double)p[2] * p[2];
        if (xy > xy2) xy2 = xy;
        if (r > r2) r2 = r;
    }
    for (int k = 0; k < 3; k++) { b->min[k] = (float)lo[k]; b->max[k] = (float)hi[k]; }
    b->xy_radius = (float)sqrt(xy2);
    b->radius = (float)sqrt(r2);
}

static void widen(const iq_transform *t, double *smax, double *tmax) {
    for (int k = 0; k < 3; k++)
        if (fabs(t->scale[k]) > *smax) *smax = fabs(t->scale[k]);
    double len = sqrt((double)t->translate[0] * t->translate[0] + (double)t->translate[1] * t->translate[1] +
                      (double)t->translate[2] * t->translate[2]);
    if (len > *tmax) *tmax = len;
}

static double max_length(const float *v, uint32_t count, int stride) {
    double best = 0;
    for (uint32_t i = 0; v && i < count; i++) {
        const float *p = v + (size_t)i * stride;
        double l = (double)p[0] * p[0] + (double)p[1] * p[1] + (double)p[2] * p[2];
        if (l > best) best = l;
    }
    return sqrt(best);
}

int iqi_check_reach(iqi_ctx *ctx, const iq_transform *extra, uint64_t extra_frames) {
    iq_model *m = ctx->model;
    uint32_t nj = m->joint_count;
    if (!nj) return 1;
    double *r = iqi_alloc(ctx, nj, 4 * sizeof(double), "reach bounds"); /* smax, tmax, N, T per joint */
    if (!r) return 0;
    for (uint32_t j = 0; j < nj; j++) {
        r[4 * j] = r[4 * j + 1] = 0;
        widen(&m->joints[j].bind, &r[4 * j], &r[4 * j + 1]);
    }
    const iq_transform *sets[2] = {m->frame_poses, extra};
    uint64_t counts[2] = {m->frame_poses ? m->frame_count : 0, extra ? extra_frames : 0};
    for (int s = 0; s < 2; s++)
        for (uint64_t f = 0; f < counts[s]; f++)
            for (uint32_t j = 0; j < nj; j++) widen(&sets[s][f * nj + j], &r[4 * j], &r[4 * j + 1]);
    double P = max_length(m->positions, m->positions ? m->vertex_count : 0, 3);
    double NRM = max_length(m->normals, m->normals ? m->vertex_count : 0, 3);
    double TAN = max_length(m->tangents, m->tangents ? m->vertex_count : 0, 4);
    for (uint32_t j = 0; j < nj; j++) {
        int32_t p = m->joints[j].parent;
        double np = p >= 0 ? r[4 * p + 2] : 1, tp = p >= 0 ? r[4 * p + 3] : 0;
        double N = np * r[4 * j], T = np * r[4 * j + 1] + tp;
        r[4 * j + 2] = N;
        r[4 * j + 3] = T;
        const float *inv = m->inverse_bind + 12 * (size_t)j;
        double f2 = 0;
        for (int row = 0; row < 3; row++)
            for (int c = 0; c < 3; c++) f2 += (double)inv[4 * row + c] * inv[4 * row + c];
        double it = sqrt((double)inv[3] * inv[3] + (double)inv[7] * inv[7] + (double)inv[11] * inv[11]);
        double K = N * sqrt(f2), St = N * it + T;
        double reach = N;
        double terms[6] = {T, K, St, K * P + St, 6 * K * K * NRM, 3 * K * TAN};
        for (int k = 0; k < 6; k++)
            if (!(terms[k] <= reach)) reach = terms[k]; /* NaN wins, and fails below */
        if (!(reach <= IQ_MAX_REACH))
            return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, -1,
                            "joint %u ('%s'): composed with its parents over the bind pose and every frame, its "
                            "transform or skinned vertices could reach %.3g, beyond %.0e; posing could overflow",
                            j, m->joints[j].name, reach, IQ_MAX_REACH);
    }
    return 1;
}
