/* The animator: playback in time, frame sampling, crossfades, the joint
 * hierarchy, CPU skinning, joint queries and attaching animations from
 * another file.
 *
 * The hierarchy is one flat parent-first pass (every loader guarantees
 * parent < index) that composes full 3x4 matrices: composing translate /
 * rotate / scale triples across joints would lose the shear that non-uniform
 * scale under a rotated child creates. Skin matrix = world * inverse bind.
 *
 * Nothing here allocates after load: what posing writes lives in an
 * iq_instance (iq_instance.c), never in the model, which posing leaves as it is. */
#include "iq_internal.h"
#include "iq_iqm_format.h"
#include "iq_math.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* Vertices whose (joint, weight) lists are equal share one "influence set":
 * CPU skinning blends each set's matrix (and its normal matrix) once per pose
 * instead of once per vertex. Real meshes have far fewer sets than vertices
 * (mrfixit: 1861 vertices, see docs/BENCHMARKS.md). */
#define SET_STRIDE IQI_SET_STRIDE

struct iqi_animator {
    uint32_t set_count;
    uint32_t *vertex_set;   /* vertex_count: each vertex's influence set */
    uint16_t *set_joints;   /* set_count * 4 */
    float *set_weights;     /* set_count * 4 */
    uint8_t *set_sizes;     /* influences per set, 1..4 */
};

uint32_t iqi_anim_set_count(const iq_model *m) { return m->animator ? m->animator->set_count : 0; }

// -- Load-time preparation

/* A vertex's influences in canonical form: zero weights dropped, repeated
 * joints merged, sorted by joint, so equal influences compare equal. */
static uint32_t canonical_influences(const uint16_t *bi, const float *bw, uint16_t joints[4], float weights[4]) {
    uint32_t n = 0;
    for (int k = 0; k < 4; k++) {
        if (bw[k] == 0.0f) continue;
        uint32_t i = 0;
        while (i < n && joints[i] != bi[k]) i++;
        if (i < n) { weights[i] += bw[k]; continue; }
        joints[n] = bi[k];
        weights[n] = bw[k];
        n++;
    }
    if (n == 0) { /* every weight zero cannot come out of a loader; follow the first joint */
        joints[0] = bi[0];
        weights[0] = 1.0f;
        n = 1;
    }
    for (uint32_t i = 1; i < n; i++) /* insertion sort of at most 4 */
        for (uint32_t k = i; k > 0 && joints[k - 1] > joints[k]; k--) {
            uint16_t tj = joints[k]; joints[k] = joints[k - 1]; joints[k - 1] = tj;
            float tw = weights[k]; weights[k] = weights[k - 1]; weights[k - 1] = tw;
        }
    for (uint32_t i = n; i < 4; i++) { joints[i] = 0; weights[i] = 0.0f; }
    return n;
}

static int build_influence_sets(iqi_ctx *ctx, struct iqi_animator *a) {
    iq_model *m = ctx->model;
    uint32_t nv = m->vertex_count;
    uint64_t table_size = iqi_hash_table_size(nv);
    a->vertex_set = iqi_alloc(ctx, nv, sizeof(uint32_t), "influence set per vertex");
    a->set_joints = iqi_alloc(ctx, nv, 4 * sizeof(uint16_t), "influence set joints");
    a->set_weights = iqi_alloc(ctx, nv, 4 * sizeof(float), "influence set weights");
    a->set_sizes = iqi_alloc(ctx, nv, 1, "influence set sizes");
    uint32_t *table = iqi_alloc(ctx, table_size, sizeof(uint32_t), "influence set table");
    if (!a->vertex_set || !a->set_joints || !a->set_weights || !a->set_sizes || !table) return 0;
    uint32_t count = 0;
    for (uint32_t v = 0; v < nv; v++) {
        uint16_t joints[4];
        float weights[4];
        uint32_t n = canonical_influences(m->blend_indices + 4 * (size_t)v, m->blend_weights + 4 * (size_t)v, joints, weights);
        uint64_t slot = iqi_hash_influences(joints, weights) & (table_size - 1);
        for (;;) {
            uint32_t entry = table[slot];
            if (entry == 0) { /* a new set */
                memcpy(a->set_joints + 4 * (size_t)count, joints, sizeof joints);
                memcpy(a->set_weights + 4 * (size_t)count, weights, sizeof weights);
                a->set_sizes[count] = (uint8_t)n;
                table[slot] = ++count;
                a->vertex_set[v] = count - 1;
                break;
            }
            uint32_t s = entry - 1;
            if (memcmp(a->set_joints + 4 * (size_t)s, joints, sizeof joints) == 0 &&
                memcmp(a->set_weights + 4 * (size_t)s, weights, sizeof weights) == 0) {
                a->vertex_set[v] = s;
                break;
            }
            slot = (slot + 1) & (table_size - 1);
        }
    }
    a->set_count = count;
    return 1;
}

int iqi_anim_prepare(iqi_ctx *ctx) {
    iq_model *m = ctx->model;
    struct iqi_animator *a = iqi_alloc(ctx, 1, sizeof *a, "animator");
    if (!a) return 0;
    m->animator = a;
    if (m->vertex_count && m->positions && m->blend_indices && m->blend_weights && m->joint_count)
        return build_influence_sets(ctx, a);
    return 1;
}

// -- Math that only the animator needs

/* Row-major 3x4 to column-major 4x4 (the layout uniformMatrix4fv and most
 * JS math libraries take). */
static inline void mat34_to_col44(float out[16], const float m[12]) {
    for (int c = 0; c < 4; c++) {
        out[4 * c + 0] = m[c];
        out[4 * c + 1] = m[4 + c];
        out[4 * c + 2] = m[8 + c];
        out[4 * c + 3] = c == 3 ? 1.0f : 0.0f;
    }
}

/* Shortest-path slerp; falls back to nlerp when the rotations are so close
 * that sin(angle) loses precision (the two agree there). */
static inline void quat_slerp(float out[4], const float a[4], const float b[4], float t) {
    float dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    float sign = dot < 0.0f ? -1.0f : 1.0f;
    dot *= sign;
    if (dot > 0.9995f) {
        iqm_quat_nlerp(out, a, b, t);
        return;
    }
    float angle = acosf(dot), inv_sin = 1.0f / sinf(angle);
    float wa = sinf((1.0f - t) * angle) * inv_sin, wb = sign * sinf(t * angle) * inv_sin;
    for (int i = 0; i < 4; i++) out[i] = a[i] * wa + b[i] * wb;
    iqm_quat_normalize(out);
}

/* Rotation interpolation (measured in docs/API-anim.md): nlerp is within
 * 0.0012 degrees of slerp for rotations up to 10 degrees apart, which covers
 * nearly every pair of adjacent frames; for larger steps (door2.iqm turns 90
 * degrees in 5 frames, where nlerp is off by 0.9 degrees) the default uses
 * slerp. |dot| of unit quaternions is the cosine of half the angle. */
#define NLERP_MIN_DOT 0.99619470f /* cos(5 degrees): steps up to 10 degrees */

static inline void transform_blend(iq_transform *out, const iq_transform *a, const iq_transform *b, float t,
                                   uint32_t flags) {
    int use_slerp = (flags & IQ_PLAY_SLERP) != 0;
    if (!use_slerp && !(flags & IQ_PLAY_NLERP)) {
        float dot = a->rotate[0] * b->rotate[0] + a->rotate[1] * b->rotate[1] + a->rotate[2] * b->rotate[2] +
                    a->rotate[3] * b->rotate[3];
        use_slerp = fabsf(dot) < NLERP_MIN_DOT;
    }
    if (use_slerp) {
        float q[4];
        quat_slerp(q, a->rotate, b->rotate, t);
        for (int i = 0; i < 3; i++) {
            out->translate[i] = a->translate[i] + (b->translate[i] - a->translate[i]) * t;
            out->scale[i] = a->scale[i] + (b->scale[i] - a->scale[i]) * t;
        }
        memcpy(out->rotate, q, sizeof q);
    } else {
        iq_transform r;
        iqm_transform_lerp(&r, a, b, t);
        *out = r;
    }
}

void iq_blend_poses(iq_transform *out, const iq_transform *a, const iq_transform *b, uint32_t count, float weight,
                    uint32_t flags) {
    for (uint32_t j = 0; j < count; j++) transform_blend(&out[j], &a[j], &b[j], weight, flags);
}

// -- Playback in time

static double effective_framerate(const iq_animation *a, const iq_play_opts *o) {
    if (o->framerate > 0) return o->framerate;
    if (a->framerate > 0) return a->framerate;
    return IQ_DEFAULT_FRAMERATE;
}

int iq_playhead_at(const iq_model *m, uint32_t animation, double time, const iq_play_opts *opts, iq_playhead *out) {
    if (!m || animation >= m->animation_count) return IQ_ERROR_INVALID_ARGUMENT;
    return iq_clip_playhead(m, &m->animations[animation], time, opts, out);
}

int iq_clip_playhead(const iq_model *m, const iq_animation *a, double time, const iq_play_opts *opts, iq_playhead *out) {
    static const iq_play_opts defaults;
    const iq_play_opts *o = opts ? opts : &defaults;
    if (!a || !out || !isfinite(time) || !isfinite(o->speed) || !(o->framerate >= 0) || !isfinite(o->framerate) ||
        (unsigned)o->loop > IQ_LOOP_PINGPONG || !(a->framerate >= 0) || !isfinite(a->framerate))
        return IQ_ERROR_INVALID_ARGUMENT;
    if (m && (uint64_t)a->first_frame + a->frame_count > m->frame_count && a->frame_count) return IQ_ERROR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    uint32_t n = a->frame_count;
    out->frame_count = n;
    out->frame_a = out->frame_b = a->first_frame;
    if (n == 0) {
        out->finished = 1;
        return 0;
    }
    iq_loop_mode mode = o->loop;
    if (mode == IQ_LOOP_AUTO) mode = (a->flags & IQ_ANIMATION_LOOP) ? IQ_LOOP_REPEAT : IQ_LOOP_ONCE;
    double speed = o->speed == 0 ? 1.0 : o->speed;
    int reverse = speed < 0;
    double rate = effective_framerate(a, o) * fabs(speed); /* frames per second of playback */
    double played = time * rate;                           /* frames travelled since time 0 */
    if (!isfinite(played)) return IQ_ERROR_INVALID_ARGUMENT;
    /* A looping action exported from Blender repeats its first frame at the
     * end; showing that frame twice per period would stall the loop, so repeat
     * then wraps from the second-to-last frame straight to the first. */
    uint32_t period = n;
    if (mode == IQ_LOOP_REPEAT && n > 2 && m && m->frame_poses && m->joint_count &&
        memcmp(m->frame_poses + (size_t)a->first_frame * m->joint_count,
               m->frame_poses + ((size_t)a->first_frame + n - 1) * m->joint_count,
               m->joint_count * sizeof(iq_transform)) == 0)
        period = n - 1;
    double last = (double)(n - 1), p;
    int wraps = 0; /* repeat: the frame after the last is the first */
    switch (mode) {
    case IQ_LOOP_REPEAT: {
        double cycles = floor(played / period);
        double q = played - cycles * period;
        if (q >= period || q < 0) q = 0; /* rounding at the edge of a period */
        p = reverse ? (q > 0 ? period - q : 0) : q;
        if (p >= period) p = 0;
        out->duration = period / rate;
        out->loops = cycles > INT32_MAX ? INT32_MAX : cycles < INT32_MIN ? INT32_MIN : (int32_t)cycles;
        wraps = 1;
        break;
    }
    case IQ_LOOP_PINGPONG: {
        out->duration = 2 * last / rate;
        if (n == 1) { p = 0; break; }
        double cycles = floor(played / (2 * last));
        double q = played - cycles * 2 * last;
        if (q < 0) q = 0;
        p = q <= last ? q : 2 * last - q;
        if (p < 0) p = 0;
        if (reverse) p = last - p;
        out->loops = cycles > INT32_MAX ? INT32_MAX : cycles < INT32_MIN ? INT32_MIN : (int32_t)cycles;
        break;
    }
    default: { /* once */
        double c = played < 0 ? 0 : played > last ? last : played;
        p = reverse ? last - c : c;
        out->duration = last / rate;
        out->finished = played >= last;
        break;
    }
    }
    double whole = floor(p);
    double t = p - whole;
    if ((float)t >= 1.0f) { /* a hair below the next frame: that frame */
        whole += 1;
        t = 0;
        if (wraps && whole >= period) whole = 0;
    }
    uint32_t fa = (uint32_t)whole, fb;
    if (fa >= n - 1 && !wraps) { fa = n - 1; fb = fa; t = 0; }
    else fb = fa + 1 < period ? fa + 1 : 0;
    if (o->flags & IQ_PLAY_STEPPED) { fb = fa; t = 0; }
    out->frame_a = a->first_frame + fa;
    out->frame_b = a->first_frame + fb;
    out->blend = t;
    out->position = (float)p;
    return 0;
}

/* One joint's local pose at a playhead. */
static inline void sample_joint(const iq_model *m, const iq_playhead *h, uint32_t j, uint32_t flags, iq_transform *out) {
    if (!h->frame_count || !m->frame_poses) {
        *out = m->joints[j].bind;
        return;
    }
    size_t nj = m->joint_count;
    const iq_transform *a = &m->frame_poses[h->frame_a * nj + j];
    if (h->blend == 0.0f) *out = *a;
    else transform_blend(out, a, &m->frame_poses[h->frame_b * nj + j], h->blend, flags);
}

static void sample_pose(const iq_model *m, const iq_playhead *h, uint32_t flags, iq_transform *out) {
    uint32_t nj = m->joint_count;
    if (!h->frame_count || !m->frame_poses) {
        for (uint32_t j = 0; j < nj; j++) out[j] = m->joints[j].bind;
        return;
    }
    const iq_transform *a = m->frame_poses + (size_t)h->frame_a * nj;
    if (h->blend == 0.0f) {
        memcpy(out, a, nj * sizeof *out);
        return;
    }
    const iq_transform *b = m->frame_poses + (size_t)h->frame_b * nj;
    for (uint32_t j = 0; j < nj; j++) transform_blend(&out[j], &a[j], &b[j], h->blend, flags);
}

int iq_sample_animation(const iq_model *m, uint32_t animation, double time, const iq_play_opts *opts, iq_transform *out,
                        iq_playhead *head) {
    iq_playhead h;
    int r = iq_playhead_at(m, animation, time, opts, &h);
    if (r) return r;
    if (!out && m->joint_count) return IQ_ERROR_INVALID_ARGUMENT;
    sample_pose(m, &h, opts ? opts->flags : 0, out);
    if (head) *head = h;
    return 0;
}

// -- Frames (the original entry point: a fractional global frame)

void iq_sample_frame(const iq_model *m, float frame, iq_transform *out) {
    uint32_t nj = m->joint_count;
    if (!m->frame_poses || m->frame_count == 0 || !(frame == frame)) {
        for (uint32_t j = 0; j < nj; j++) out[j] = m->joints[j].bind;
        return;
    }
    float last = (float)(m->frame_count - 1);
    if (frame < 0) frame = 0;
    if (frame > last) frame = last;
    uint32_t f0 = (uint32_t)frame;
    uint32_t f1 = f0 + 1 < m->frame_count ? f0 + 1 : f0;
    float t = frame - (float)f0;
    const iq_transform *a = m->frame_poses + (size_t)f0 * nj, *b = m->frame_poses + (size_t)f1 * nj;
    if (t == 0.0f) {
        memcpy(out, a, nj * sizeof *out);
        return;
    }
    for (uint32_t j = 0; j < nj; j++) iqm_transform_lerp(&out[j], &a[j], &b[j], t);
}

// -- Hierarchy

void iq_compute_skin_matrices(iq_instance *inst, const iq_transform *locals) {
    const iq_model *m = inst->model;
    float *world = inst->world_matrices;
    for (uint32_t j = 0; j < m->joint_count; j++) {
        float local[12];
        iqm_mat_from_transform(local, &locals[j]);
        int32_t parent = m->joints[j].parent;
        if (parent >= 0) iqm_mat_mul(world + 12 * j, world + 12 * parent, local);
        else memcpy(world + 12 * j, local, sizeof local);
    }
    for (uint32_t j = 0; j < m->joint_count; j++) {
        iqm_mat_mul(inst->skin_matrices + 12 * j, world + 12 * j, m->inverse_bind + 12 * j);
        mat34_to_col44(inst->skin_matrices_4x4 + 16 * j, inst->skin_matrices + 12 * j);
    }
}

// -- CPU skinning

/* In double: a normal through the cofactor matrix may be up to 6 K^2 long
 * (iq_numbers.c), whose square would overflow a float. */
static inline void normalize3(float *v) {
    double len2 = (double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2];
    if (len2 > 0) { /* divided in double: 1/len of a subnormal vector would overflow a float */
        double len = sqrt(len2);
        v[0] = (float)(v[0] / len); v[1] = (float)(v[1] / len); v[2] = (float)(v[2] / len);
    }
}

/* Blends each influence set's skin matrix, and from it the normal matrix:
 * normals go through the inverse transpose, and the cofactor matrix is that up
 * to a scale which normalising removes. A mirroring matrix (negative
 * determinant) flips the tangent frame's handedness. */
static void blend_set_matrices(iq_instance *inst, const struct iqi_animator *a, int need_normal) {
    const float *skin = inst->skin_matrices;
    for (uint32_t s = 0; s < a->set_count; s++) {
        float *mat = inst->set_matrices + (size_t)s * SET_STRIDE;
        const uint16_t *joints = a->set_joints + 4 * (size_t)s;
        const float *weights = a->set_weights + 4 * (size_t)s;
        uint32_t n = a->set_sizes[s];
        const float *s0 = skin + 12 * joints[0];
        float w0 = weights[0];
        for (int k = 0; k < 12; k++) mat[k] = s0[k] * w0;
        for (uint32_t i = 1; i < n; i++) {
            const float *si = skin + 12 * joints[i];
            float wi = weights[i];
            for (int k = 0; k < 12; k++) mat[k] += si[k] * wi;
        }
        if (!need_normal) continue;
        float *c = mat + 12;
        c[0] = mat[5] * mat[10] - mat[6] * mat[9];
        c[1] = mat[6] * mat[8] - mat[4] * mat[10];
        c[2] = mat[4] * mat[9] - mat[5] * mat[8];
        c[3] = mat[2] * mat[9] - mat[1] * mat[10];
        c[4] = mat[0] * mat[10] - mat[2] * mat[8];
        c[5] = mat[1] * mat[8] - mat[0] * mat[9];
        c[6] = mat[1] * mat[6] - mat[2] * mat[5];
        c[7] = mat[2] * mat[4] - mat[0] * mat[6];
        c[8] = mat[0] * mat[5] - mat[1] * mat[4];
        double det = (double)mat[0] * c[0] + (double)mat[1] * c[1] + (double)mat[2] * c[2]; /* only its sign; no overflow */
        mat[21] = det < 0 ? -1.0f : 1.0f;
    }
}

void iq_skin_vertices(iq_instance *inst) {
    const iq_model *m = inst->model;
    uint32_t n = m->vertex_count;
    const struct iqi_animator *a = m->animator;
    if (!n || !m->positions) return;
    if (!a || !a->set_count) { /* nothing to skin: the bind pose */
        memcpy(inst->skinned_positions, m->positions, (size_t)n * 3 * sizeof(float));
        if (m->normals) memcpy(inst->skinned_normals, m->normals, (size_t)n * 3 * sizeof(float));
        if (m->tangents) memcpy(inst->skinned_tangents, m->tangents, (size_t)n * 4 * sizeof(float));
        return;
    }
    const float *normals = m->normals, *tangents = m->tangents;
    blend_set_matrices(inst, a, normals || tangents);
    const float *pos = m->positions;
    float *out_pos = inst->skinned_positions, *out_nrm = inst->skinned_normals, *out_tan = inst->skinned_tangents;
    const uint32_t *vertex_set = a->vertex_set;
    const float *sets = inst->set_matrices;
    for (uint32_t v = 0; v < n; v++) {
        const float *mat = sets + (size_t)vertex_set[v] * SET_STRIDE;
        const float *p = pos + 3 * (size_t)v;
        float *op = out_pos + 3 * (size_t)v;
        float px = p[0], py = p[1], pz = p[2];
        op[0] = mat[0] * px + mat[1] * py + mat[2] * pz + mat[3];
        op[1] = mat[4] * px + mat[5] * py + mat[6] * pz + mat[7];
        op[2] = mat[8] * px + mat[9] * py + mat[10] * pz + mat[11];
        if (normals) {
            const float *c = mat + 12, *nn = normals + 3 * (size_t)v;
            float *on = out_nrm + 3 * (size_t)v;
            on[0] = c[0] * nn[0] + c[1] * nn[1] + c[2] * nn[2];
            on[1] = c[3] * nn[0] + c[4] * nn[1] + c[5] * nn[2];
            on[2] = c[6] * nn[0] + c[7] * nn[1] + c[8] * nn[2];
            normalize3(on);
        }
        if (tangents) {
            const float *t = tangents + 4 * (size_t)v;
            float *ot = out_tan + 4 * (size_t)v;
            ot[0] = mat[0] * t[0] + mat[1] * t[1] + mat[2] * t[2];
            ot[1] = mat[4] * t[0] + mat[5] * t[1] + mat[6] * t[2];
            ot[2] = mat[8] * t[0] + mat[9] * t[1] + mat[10] * t[2];
            normalize3(ot);
            ot[3] = t[3] * mat[21];
        }
    }
}

int iq_instance_evaluate(iq_instance *inst, float frame) {
    if (!inst) return IQ_ERROR_INVALID_ARGUMENT;
    const iq_model *m = inst->model;
    if (m->frame_positions) {
        iqi_morph_evaluate(inst, frame);
        return 0;
    }
    if (m->joint_count) {
        iq_sample_frame(m, frame, inst->local_poses);
        iq_compute_skin_matrices(inst, inst->local_poses);
    }
    iq_skin_vertices(inst);
    return 0;
}

int iq_evaluate(iq_model *m, float frame) { return m ? iq_instance_evaluate(m->instance, frame) : IQ_ERROR_INVALID_ARGUMENT; }

// -- Posing by time, with crossfades

static int check_weight(float weight) { return weight == weight && weight - weight == 0.0f; }

int iq_pose_model(iq_model *m, const iq_play *play, const iq_play *blend, float weight, int skin_vertices,
                  iq_playhead *head) {
    return m ? iq_pose_instance(m->instance, play, blend, weight, skin_vertices, head) : IQ_ERROR_INVALID_ARGUMENT;
}

int iq_pose_instance(iq_instance *inst, const iq_play *play, const iq_play *blend, float weight, int skin_vertices,
                     iq_playhead *head) {
    iq_playhead h1, h2;
    const iq_model *m = inst ? inst->model : NULL;
    if (!m || !play || (blend && !check_weight(weight))) return IQ_ERROR_INVALID_ARGUMENT;
    int r = iq_playhead_at(m, play->animation, play->time, &play->opts, &h1);
    if (!r && blend) r = iq_playhead_at(m, blend->animation, blend->time, &blend->opts, &h2);
    if (r) return r;
    if (weight < 0) weight = 0;
    if (weight > 1) weight = 1;
    if (m->joint_count) {
        sample_pose(m, &h1, play->opts.flags, inst->local_poses);
        if (blend && weight > 0) {
            iq_transform *other = inst->fade_pose;
            sample_pose(m, &h2, blend->opts.flags, other);
            iq_blend_poses(inst->local_poses, inst->local_poses, other, m->joint_count, weight, play->opts.flags);
        }
        iq_compute_skin_matrices(inst, inst->local_poses);
    }
    if (skin_vertices && m->frame_positions) { /* vertex animation (MD3): morph between the playhead's frames */
        int fade = blend && weight > 0;
        iqi_morph_frames(inst, h1.frame_a, h1.frame_b, h1.blend, fade ? h2.frame_a : 0, fade ? h2.frame_b : 0,
                         fade ? h2.blend : 0.0f, fade ? weight : 0.0f);
    } else if (skin_vertices) {
        iq_skin_vertices(inst);
    }
    if (head) *head = h1;
    return 0;
}

// -- Joint queries

int iq_joint_matrix(const iq_model *m, uint32_t joint, const iq_play *play, const iq_play *blend, float weight,
                    float out[16]) {
    if (!m || !out || joint >= m->joint_count || (play && blend && !check_weight(weight)))
        return IQ_ERROR_INVALID_ARGUMENT;
    if (!play) return iq_instance_joint_matrix(m->instance, joint, out);
    iq_playhead h1, h2;
    int r = iq_playhead_at(m, play->animation, play->time, &play->opts, &h1);
    if (!r && blend) r = iq_playhead_at(m, blend->animation, blend->time, &blend->opts, &h2);
    if (r) return r;
    if (weight < 0) weight = 0;
    if (weight > 1) weight = 1;
    /* Walk up to the root: world = local(root) * ... * local(joint). Only the
     * joint's ancestors are sampled, and the model's buffers stay untouched. */
    float world[12], local[12], tmp[12];
    int first = 1;
    for (int32_t j = (int32_t)joint; j >= 0; j = m->joints[j].parent) {
        iq_transform t;
        sample_joint(m, &h1, (uint32_t)j, play->opts.flags, &t);
        if (blend && weight > 0) {
            iq_transform t2;
            sample_joint(m, &h2, (uint32_t)j, blend->opts.flags, &t2);
            transform_blend(&t, &t, &t2, weight, play->opts.flags);
        }
        iqm_mat_from_transform(local, &t);
        if (first) memcpy(world, local, sizeof world);
        else {
            iqm_mat_mul(tmp, local, world);
            memcpy(world, tmp, sizeof world);
        }
        first = 0;
    }
    mat34_to_col44(out, world);
    return 0;
}

int iq_instance_joint_matrix(const iq_instance *inst, uint32_t joint, float out[16]) {
    if (!inst || !out || joint >= inst->model->joint_count) return IQ_ERROR_INVALID_ARGUMENT;
    mat34_to_col44(out, inst->world_matrices + 12 * (size_t)joint);
    return 0;
}

int32_t iq_find_joint(const iq_model *m, const char *name) {
    if (!m || !name) return -1;
    for (uint32_t j = 0; j < m->joint_count; j++)
        if (strcmp(m->joints[j].name, name) == 0) return (int32_t)j;
    return -1;
}

int32_t iq_find_animation(const iq_model *m, const char *name) {
    if (!m || !name) return -1;
    for (uint32_t i = 0; i < m->animation_count; i++)
        if (strcmp(m->animations[i].name, name) == 0) return (int32_t)i;
    return -1;
}

// -- Attaching animations from another file

/* True when every joint has a name and no two share one. */
static int names_usable(const iq_model *m) {
    for (uint32_t i = 0; i < m->joint_count; i++) {
        if (!m->joints[i].name[0]) return 0;
        for (uint32_t k = 0; k < i; k++)
            if (strcmp(m->joints[i].name, m->joints[k].name) == 0) return 0;
    }
    return 1;
}

static int attach_fail(iq_error *err, iq_error_code code, const char *fmt, ...) IQI_PRINTF(3, 4);
static int attach_fail(iq_error *err, iq_error_code code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    iqi_set_errorv(err, code, fmt, ap);
    va_end(ap);
    return code;
}

static const char *joint_label(const iq_model *m, int32_t j) {
    if (j < 0) return "(root)";
    return m->joints[j].name[0] ? m->joints[j].name : "(unnamed)";
}

/* The bounds of one pose of the model's mesh, for appended frames and for
 * file bounds that were unusable (iq_numbers.c). Poses `inst`. */
void iqi_pose_bounds(iq_instance *inst, const iq_transform *locals, iq_bounds *b) {
    iq_compute_skin_matrices(inst, locals);
    iq_skin_vertices(inst);
    iqi_points_bounds(inst->skinned_positions, inst->skinned_positions ? inst->model->vertex_count : 0, b);
}

int iq_attach_animations(iq_model *m, const iq_model *src, iq_error *error) {
    iq_error local_error;
    iq_error *err = iqi_error_reset(error, &local_error);
    if (!m || !src) return attach_fail(err, IQ_ERROR_INVALID_ARGUMENT, "the model and the animation source must not be NULL");
    uint32_t nj = m->joint_count, ns = src->joint_count;
    if (!nj) return attach_fail(err, IQ_ERROR_SKELETON_MISMATCH, "the model has no skeleton to animate");
    /* src joint i drives model joint map[i]: by name when both sides name every
     * joint uniquely (a reordered or partial skeleton still fits), else by
     * order, which needs equal counts. */
    int by_name = names_usable(m) && names_usable(src);
    if (!by_name && ns != nj)
        return attach_fail(err, IQ_ERROR_SKELETON_MISMATCH,
                           "the model has %u joints, the animations are for %u, and joints cannot be matched by name "
                           "(the %s has unnamed or repeated joint names)",
                           nj, ns, names_usable(m) ? "animation file" : "model");
    if (!src->frame_count || !src->frame_poses)
        return attach_fail(err, IQ_ERROR_INVALID_ARGUMENT, "the source has no animation frames to attach");
    if ((uint64_t)m->frame_count + src->frame_count > UINT32_MAX ||
        (uint64_t)m->animation_count + src->animation_count > UINT32_MAX)
        return attach_fail(err, IQ_ERROR_LIMIT, "too many frames or animations together");

    iqi_arena *arena = m->internal;
    iqi_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.arena = arena;
    ctx.model = m;
    ctx.error = err;
    ctx.limits.max_magnitude = IQ_MAX_REACH; /* each file kept its own limit when it loaded */
    uint64_t total_frames = (uint64_t)m->frame_count + src->frame_count;
    uint64_t total_anims = (uint64_t)m->animation_count + src->animation_count;
    uint64_t names = 0;
    for (uint32_t i = 0; i < src->animation_count; i++) names += strlen(src->animations[i].name) + 1;
    int with_bounds = m->frame_bounds != NULL;
    /* What attaching adds to the model; the budget grows by exactly that (the
     * source passed its own limits when it was loaded). The map, the moved
     * flags and the reach check's four doubles per joint are scratch. */
    uint64_t need = total_frames * nj * sizeof(iq_transform) + total_anims * sizeof(iq_animation) +
                    (with_bounds ? total_frames * sizeof(iq_bounds) : 0) + names + (uint64_t)ns * sizeof(uint32_t) +
                    (uint64_t)nj * (1 + 4 * sizeof(double)) + (src->animation_count + 12) * 32;
    if (need > (uint64_t)SIZE_MAX / 4 || need > (uint64_t)(SIZE_MAX - arena->budget))
        return attach_fail(err, IQ_ERROR_LIMIT, "the attached animations need %llu more bytes than this platform can address",
                           (unsigned long long)need);
    size_t old_budget = arena->budget;
    arena->budget += (size_t)need;

    uint32_t *map = iqi_alloc(&ctx, ns, sizeof(uint32_t), "joint map");
    uint8_t *moved = iqi_alloc(&ctx, nj, 1, "moved joints");
    if (!map || !moved) goto fail;
    for (uint32_t i = 0; i < ns; i++) {
        if (!by_name) { map[i] = i; moved[i] = 1; continue; }
        int32_t found = iq_find_joint(m, src->joints[i].name);
        if (found < 0) {
            attach_fail(err, IQ_ERROR_SKELETON_MISMATCH,
                        "the animations move joint '%s', which the model does not have (the model has %u joints, the "
                        "animations %u)", src->joints[i].name, nj, ns);
            goto fail;
        }
        map[i] = (uint32_t)found;
        moved[found] = 1;
    }
    /* Parents that differ: the engines pose animations with the mesh's own
     * hierarchy (the poses are local), so do we; the warning names them. */
    char differ[112] = "";
    uint32_t differ_count = 0, listed = 0, still = 0;
    for (uint32_t i = 0; i < ns; i++) {
        int32_t sp = src->joints[i].parent, want = sp < 0 ? -1 : (int32_t)map[sp], have = m->joints[map[i]].parent;
        if (want == have) continue;
        size_t used = strlen(differ);
        int n = snprintf(differ + used, sizeof differ - used, "%s'%s'", listed ? ", " : "", joint_label(m, (int32_t)map[i]));
        if (n >= 0 && (size_t)n < sizeof differ - used) listed++;
        else differ[used] = 0; /* did not fit: counted below instead */
        differ_count++;
    }
    for (uint32_t j = 0; j < nj; j++) still += !moved[j];

    iq_transform *frames = iqi_alloc(&ctx, total_frames * nj, sizeof(iq_transform), "attached frames");
    iq_animation *anims = iqi_alloc(&ctx, total_anims, sizeof(iq_animation), "attached animations");
    iq_bounds *bounds = with_bounds ? iqi_alloc(&ctx, total_frames, sizeof(iq_bounds), "attached bounds") : NULL;
    if (!frames || !anims || (with_bounds && !bounds)) goto fail;
    if (m->frame_count) memcpy(frames, m->frame_poses, (size_t)m->frame_count * nj * sizeof(iq_transform));
    for (uint32_t f = 0; f < src->frame_count; f++) {
        iq_transform *dst = frames + ((size_t)m->frame_count + f) * nj;
        const iq_transform *from = src->frame_poses + (size_t)f * ns;
        for (uint32_t j = 0; j < nj; j++)
            if (!moved[j]) dst[j] = m->joints[j].bind;
        for (uint32_t i = 0; i < ns; i++) dst[map[i]] = from[i];
    }
    if (!iqi_check_reach(&ctx, frames + (size_t)m->frame_count * nj, src->frame_count)) goto fail;
    if (m->animation_count) memcpy(anims, m->animations, (size_t)m->animation_count * sizeof(iq_animation));
    for (uint32_t i = 0; i < src->animation_count; i++) {
        iq_animation *a = &anims[m->animation_count + i];
        *a = src->animations[i];
        a->first_frame += m->frame_count;
        a->name = iqi_strdup_n(&ctx, src->animations[i].name, strlen(src->animations[i].name));
        if (!a->name) goto fail;
    }
    if (with_bounds) {
        /* The source's bounds (if any) describe its own mesh: measure ours.
         * This poses the model in scratch, then restores the last pose. */
        memcpy(bounds, m->frame_bounds, (size_t)m->frame_count * sizeof(iq_bounds));
        iq_instance *inst = m->instance;
        for (uint32_t f = 0; f < src->frame_count; f++) {
            memcpy(inst->fade_pose, frames + ((size_t)m->frame_count + f) * nj, nj * sizeof(iq_transform));
            iqi_pose_bounds(inst, inst->fade_pose, &bounds[m->frame_count + f]);
        }
        iq_compute_skin_matrices(inst, inst->local_poses);
        iq_skin_vertices(inst);
    }
    m->frame_poses = frames;
    m->frame_count = (uint32_t)total_frames;
    m->animations = anims;
    m->animation_count = (uint32_t)total_anims;
    if (with_bounds) m->frame_bounds = bounds;
    if (differ_count)
        iqi_warn(&ctx, IQ_WARNING_NONSTANDARD, "%u joint(s) have other parents in the animations; posed with the model's: %s%s",
                 differ_count, differ, listed < differ_count ? " and more" : "");
    if (still)
        iqi_warn(&ctx, IQ_WARNING_IGNORED_DATA, "%u of the model's %u joints are not in the animations; they keep their bind pose",
                 still, nj);
    arena->budget = arena->used > old_budget ? arena->used : old_budget;
    return 0;
fail:
    arena->budget = arena->used > old_budget ? arena->used : old_budget;
    if (err->code == IQ_ERROR_NONE) attach_fail(err, IQ_ERROR_OUT_OF_MEMORY, "attaching animations failed");
    return err->code;
}
