/* The animator: playback in time, frame sampling, crossfades, the joint
 * hierarchy, posing and joint queries. CPU skinning and the influence sets it
 * uses are in iq_anim_skin.c; attaching animations from another file in
 * iq_anim_attach.c.
 *
 * The hierarchy is one flat parent-first pass (every loader guarantees
 * parent < index) that composes full 3x4 matrices: composing translate /
 * rotate / scale triples across joints would lose the shear that non-uniform
 * scale under a rotated child creates. Skin matrix = world * inverse bind.
 *
 * Nothing here allocates after load: what posing writes lives in an
 * iq_instance (iq_instance.c), never in the model, which posing leaves as it is. */
#include "base/iq_internal.h"
#include "anim/iq_anim_internal.h"
#include "base/iq_math.h"
#include <stdlib.h>

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
        iqi_quat_nlerp(out, a, b, t);
        return;
    }
    float angle = acosf(dot), inv_sin = 1.0f / sinf(angle);
    float wa = sinf((1.0f - t) * angle) * inv_sin, wb = sign * sinf(t * angle) * inv_sin;
    for (int i = 0; i < 4; i++) out[i] = a[i] * wa + b[i] * wb;
    iqi_quat_normalize(out);
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
        iqi_transform_lerp(&r, a, b, t);
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

iq_error_code iq_playhead_at(const iq_model *m, uint32_t animation, double time, const iq_play_opts *opts, iq_playhead *out) {
    if (!m || animation >= m->animation_count) return IQ_ERROR_INVALID_ARGUMENT;
    return iq_clip_playhead(m, &m->animations[animation], time, opts, out);
}

iq_error_code iq_clip_playhead(const iq_model *m, const iq_animation *a, double time, const iq_play_opts *opts, iq_playhead *out) {
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
        return IQ_ERROR_NONE;
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
    return IQ_ERROR_NONE;
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

iq_error_code iq_sample_animation(const iq_model *m, uint32_t animation, double time, const iq_play_opts *opts, iq_transform *out,
                        iq_playhead *head) {
    iq_playhead h;
    int r = iq_playhead_at(m, animation, time, opts, &h);
    if (r) return r;
    if (!out && m->joint_count) return IQ_ERROR_INVALID_ARGUMENT;
    sample_pose(m, &h, opts ? opts->flags : 0, out);
    if (head) *head = h;
    return IQ_ERROR_NONE;
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
    for (uint32_t j = 0; j < nj; j++) iqi_transform_lerp(&out[j], &a[j], &b[j], t);
}

// -- Hierarchy

void iq_compute_skin_matrices(iq_instance *inst, const iq_transform *locals) {
    const iq_model *m = inst->model;
    float *world = inst->world_matrices;
    for (uint32_t j = 0; j < m->joint_count; j++) {
        float local[12];
        iqi_mat_from_transform(local, &locals[j]);
        int32_t parent = m->joints[j].parent;
        if (parent >= 0) iqi_mat_mul(world + 12 * j, world + 12 * parent, local);
        else memcpy(world + 12 * j, local, sizeof local);
    }
    for (uint32_t j = 0; j < m->joint_count; j++) {
        iqi_mat_mul(inst->skin_matrices + 12 * j, world + 12 * j, m->inverse_bind + 12 * j);
        mat34_to_col44(inst->skin_matrices_4x4 + 16 * j, inst->skin_matrices + 12 * j);
    }
}

iq_error_code iq_instance_evaluate(iq_instance *inst, float frame) {
    if (!inst) return IQ_ERROR_INVALID_ARGUMENT;
    const iq_model *m = inst->model;
    if (m->frame_positions) {
        iqi_morph_evaluate(inst, frame);
        return IQ_ERROR_NONE;
    }
    if (m->joint_count) {
        iq_sample_frame(m, frame, inst->local_poses);
        iq_compute_skin_matrices(inst, inst->local_poses);
    }
    iq_skin_vertices(inst);
    return IQ_ERROR_NONE;
}

iq_error_code iq_evaluate(iq_model *m, float frame) { return m ? iq_instance_evaluate(m->instance, frame) : IQ_ERROR_INVALID_ARGUMENT; }

// -- Posing by time, with crossfades

static int check_weight(float weight) { return weight == weight && weight - weight == 0.0f; }

iq_error_code iq_pose_model(iq_model *m, const iq_play *play, const iq_play *blend, float weight, int skin_vertices,
                  iq_playhead *head) {
    return m ? iq_pose_instance(m->instance, play, blend, weight, skin_vertices, head) : IQ_ERROR_INVALID_ARGUMENT;
}

iq_error_code iq_pose_instance(iq_instance *inst, const iq_play *play, const iq_play *blend, float weight, int skin_vertices,
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
    return IQ_ERROR_NONE;
}

/* The bounds of one pose of the model's mesh, for appended frames (iq_anim_attach.c) and for
 * file bounds that were unusable (load/iq_load.c). Poses `inst`. */
void iqi_pose_bounds(iq_instance *inst, const iq_transform *locals, iq_bounds *b) {
    iq_compute_skin_matrices(inst, locals);
    iq_skin_vertices(inst);
    iqi_points_bounds(inst->skinned_positions, inst->skinned_positions ? inst->model->vertex_count : 0, b);
}

// -- Joint queries

iq_error_code iq_joint_matrix(const iq_model *m, uint32_t joint, const iq_play *play, const iq_play *blend, float weight,
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
        iqi_mat_from_transform(local, &t);
        if (first) memcpy(world, local, sizeof world);
        else {
            iqi_mat_mul(tmp, local, world);
            memcpy(world, tmp, sizeof world);
        }
        first = 0;
    }
    mat34_to_col44(out, world);
    return IQ_ERROR_NONE;
}

iq_error_code iq_instance_joint_matrix(const iq_instance *inst, uint32_t joint, float out[16]) {
    if (!inst || !out || joint >= inst->model->joint_count) return IQ_ERROR_INVALID_ARGUMENT;
    mat34_to_col44(out, inst->world_matrices + 12 * (size_t)joint);
    return IQ_ERROR_NONE;
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
