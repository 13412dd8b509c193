/* The IQM skeleton and its animation: joints (hierarchy, bind poses), pose
 * records (channel masks), frames decoded from the pose channels into local
 * poses, and the animation list. */
#include "formats/iq_iqm_internal.h"
#include "base/iq_math.h"
#include <math.h>

static int read_quat(iqm_parser *p, const uint8_t *src, float q[4], const char *what, uint32_t index) {
    float len2 = 0;
    for (int k = 0; k < 4; k++) {
        q[k] = iqi_f32(src + 4 * k);
        len2 += q[k] * q[k];
    }
    if (!iqi_finite(len2) || len2 < 1e-12f)
        return iqi_fail(p->ctx, IQ_ERROR_BAD_VALUE, src - p->d, "%s %u: rotation (%g, %g, %g, %g) is not a usable quaternion",
                        what, index, q[0], q[1], q[2], q[3]);
    iqm_quat_normalize(q);
    return 1;
}

/* A parent index read from a file: negative means root (the spec says < 0). */
static int check_parent(iqm_parser *p, int32_t parent, uint32_t index, uint32_t count, int64_t at, const char *what,
                        int32_t *out, uint32_t *odd_roots) {
    if (parent < 0) {
        if (parent != -1) (*odd_roots)++;
        *out = -1;
        return 1;
    }
    if ((uint32_t)parent >= count)
        return iqi_fail(p->ctx, IQ_ERROR_BAD_HIERARCHY, at, "%s %u: parent %d, but there are %u", what, index, parent, count);
    if ((uint32_t)parent == index)
        return iqi_fail(p->ctx, IQ_ERROR_BAD_HIERARCHY, at, "%s %u is its own parent", what, index);
    if ((uint32_t)parent > index)
        return iqi_fail(p->ctx, IQ_ERROR_BAD_HIERARCHY, at,
                        "%s %u: parent %d comes after it; parents must come first", what, index, parent);
    *out = parent;
    return 1;
}

int iqi_iqm_read_joints(iqm_parser *p) {
    iq_model *m = p->ctx->model;
    const iqm_header *h = &p->h;
    if (h->num_joints > p->ctx->limits.max_joints)
        return iqi_fail(p->ctx, IQ_ERROR_LIMIT, FIELD_OFFSET(num_joints), "%u joints; the limit is %u", h->num_joints,
                        p->ctx->limits.max_joints);
    if (!iqi_iqm_check_section(p, "joints", FIELD_OFFSET(ofs_joints), h->ofs_joints, h->num_joints, IQM_JOINT_SIZE, 4)) return 0;
    if (!h->num_joints) return 1;
    m->joints = iqi_alloc(p->ctx, h->num_joints, sizeof(iq_joint), "joints");
    if (!m->joints) return 0;
    m->joint_count = h->num_joints;
    uint32_t odd_roots = 0;
    for (uint32_t i = 0; i < h->num_joints; i++) {
        uint32_t at = h->ofs_joints + i * IQM_JOINT_SIZE;
        const uint8_t *r = p->d + at;
        iq_joint *j = &m->joints[i];
        if (!iqi_iqm_get_string(p, iqi_u32(r), at, "joint name", &j->name)) return 0;
        if (!check_parent(p, iqi_i32(r + 4), i, h->num_joints, at + 4, "joint", &j->parent, &odd_roots)) return 0;
        for (int k = 0; k < 3; k++) {
            j->bind.translate[k] = iqi_f32(r + 8 + 4 * k);
            j->bind.scale[k] = iqi_f32(r + 36 + 4 * k);
            if (!iqi_usable(p->ctx, j->bind.translate[k]))
                return iqi_fail_value(p->ctx, at + 8 + 4 * k, 0, j->bind.translate[k], "joint %u ('%s'): translate %d", i,
                                      j->name, k);
            if (!iqi_usable(p->ctx, j->bind.scale[k]))
                return iqi_fail_value(p->ctx, at + 36 + 4 * k, 0, j->bind.scale[k], "joint %u ('%s'): scale %d", i, j->name,
                                      k);
        }
        if (!read_quat(p, r + 20, j->bind.rotate, "joint", i)) return 0;
    }
    if (odd_roots) iqi_warn(p->ctx, IQ_WARNING_REPAIRED, "%u joints had a negative parent other than -1; read as roots", odd_roots);
    return 1;
}

int iqi_iqm_read_poses(iqm_parser *p, pose **out) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    const iqm_header *h = &p->h;
    *out = NULL;
    if (!iqi_iqm_check_section(p, "poses", FIELD_OFFSET(ofs_poses), h->ofs_poses, h->num_poses, IQM_POSE_SIZE, 4)) return 0;
    if (!h->num_poses) {
        if (h->num_framechannels)
            return iqi_fail(ctx, IQ_ERROR_BAD_ANIMATION, FIELD_OFFSET(num_framechannels),
                            "%u frame channels but no poses", h->num_framechannels);
        return 1;
    }
    if (h->num_joints && h->num_poses != h->num_joints)
        return iqi_fail(ctx, IQ_ERROR_BAD_ANIMATION, FIELD_OFFSET(num_poses), "%u poses for %u joints; they must match",
                        h->num_poses, h->num_joints);
    if (h->num_poses > ctx->limits.max_joints)
        return iqi_fail(ctx, IQ_ERROR_LIMIT, FIELD_OFFSET(num_poses), "%u poses; the joint limit is %u", h->num_poses,
                        ctx->limits.max_joints);
    pose *poses = iqi_alloc(ctx, h->num_poses, sizeof(pose), "poses");
    if (!poses) return 0;
    uint64_t channels = 0;
    uint32_t odd_roots = 0;
    for (uint32_t i = 0; i < h->num_poses; i++) {
        uint32_t at = h->ofs_poses + i * IQM_POSE_SIZE;
        const uint8_t *r = p->d + at;
        pose *ps = &poses[i];
        if (!check_parent(p, iqi_i32(r), i, h->num_poses, at, "pose", &ps->parent, &odd_roots)) return 0;
        if (h->num_joints && ps->parent != m->joints[i].parent)
            return iqi_fail(ctx, IQ_ERROR_BAD_HIERARCHY, at, "pose %u has parent %d but joint %u has parent %d", i,
                            ps->parent, i, m->joints[i].parent);
        ps->mask = iqi_u32(r + 4);
        if (ps->mask & ~0x3FFu)
            return iqi_fail(ctx, IQ_ERROR_BAD_ANIMATION, at + 4, "pose %u: channel mask 0x%x has bits above the 10 channels",
                            i, ps->mask);
        for (int k = 0; k < 10; k++) {
            ps->offset[k] = iqi_f32(r + 8 + 4 * k);
            ps->scale[k] = iqi_f32(r + 48 + 4 * k);
            if (!iqi_finite(ps->offset[k]) || !iqi_finite(ps->scale[k]))
                return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, at + 8 + 4 * k, "pose %u: channel %d offset or scale is not finite",
                                i, k);
            if (ps->mask & (1u << k)) channels++;
        }
    }
    if (odd_roots) iqi_warn(ctx, IQ_WARNING_REPAIRED, "%u poses had a negative parent other than -1; read as roots", odd_roots);
    if (channels != h->num_framechannels)
        return iqi_fail(ctx, IQ_ERROR_BAD_ANIMATION, FIELD_OFFSET(num_framechannels),
                        "the pose masks use %llu channels but the header says %u", (unsigned long long)channels,
                        h->num_framechannels);
    if (!h->num_joints) {
        /* An animation-only file (guyanim.iqm): the poses carry the hierarchy. */
        m->joints = iqi_alloc(ctx, h->num_poses, sizeof(iq_joint), "joints");
        if (!m->joints) return 0;
        m->joint_count = h->num_poses;
        for (uint32_t i = 0; i < h->num_poses; i++) {
            m->joints[i].name = "";
            m->joints[i].parent = poses[i].parent;
            m->joints[i].bind = (iq_transform){{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
        }
        iqi_warn(ctx, IQ_WARNING_NO_BIND_POSE, "%u poses but no joints: joints are unnamed and have an identity bind pose",
                 h->num_poses);
    }
    *out = poses;
    return 1;
}

int iqi_iqm_read_frames(iqm_parser *p, const pose *poses) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    const iqm_header *h = &p->h;
    if (h->num_frames > ctx->limits.max_frames)
        return iqi_fail(ctx, IQ_ERROR_LIMIT, FIELD_OFFSET(num_frames), "%u frames; the limit is %u", h->num_frames,
                        ctx->limits.max_frames);
    if (!iqi_iqm_check_section(p, "frames", FIELD_OFFSET(ofs_frames), h->ofs_frames, (uint64_t)h->num_frames * h->num_framechannels,
                               2, 2))
        return 0;
    m->frame_count = h->num_frames;
    if (!h->num_frames) {
        if (h->num_poses) iqi_warn(ctx, IQ_WARNING_EMPTY, "%u poses but no frames", h->num_poses);
        return 1;
    }
    if (!poses) {
        iqi_warn(ctx, IQ_WARNING_IGNORED_DATA, "%u frames but no poses: the frames hold nothing", h->num_frames);
        return 1;
    }
    uint32_t nj = h->num_poses;
    m->frame_poses = iqi_alloc(ctx, (uint64_t)h->num_frames * nj, sizeof(iq_transform), "decoded frames");
    if (!m->frame_poses) return 0;
    const uint8_t *src = p->d + h->ofs_frames;
    for (uint32_t f = 0; f < h->num_frames; f++) {
        for (uint32_t j = 0; j < nj; j++) {
            const pose *ps = &poses[j];
            float v[10];
            for (int k = 0; k < 10; k++) {
                /* the channel's value in the frame data, or the pose's offset when it is not animated */
                int64_t at = (ps->mask & (1u << k)) ? (int64_t)(src - p->d) : (int64_t)h->ofs_poses + (int64_t)j * IQM_POSE_SIZE + 8 + 4 * k;
                v[k] = ps->offset[k];
                if (ps->mask & (1u << k)) {
                    v[k] += iqi_u16(src) * ps->scale[k];
                    src += 2;
                }
                if (!iqi_usable(ctx, v[k]))
                    return iqi_fail_value(ctx, at, 0, v[k], "frame %u, joint %u: channel %d", f, j, k);
            }
            iq_transform *t = &m->frame_poses[(size_t)f * nj + j];
            for (int k = 0; k < 3; k++) {
                t->translate[k] = v[k];
                t->scale[k] = v[7 + k];
            }
            for (int k = 0; k < 4; k++) t->rotate[k] = v[3 + k];
            iqm_quat_normalize(t->rotate); /* quantised quaternions are not unit length */
        }
    }
    return 1;
}

int iqi_iqm_read_anims(iqm_parser *p) {
    iqi_ctx *ctx = p->ctx;
    iq_model *m = ctx->model;
    const iqm_header *h = &p->h;
    if (!iqi_iqm_check_section(p, "animations", FIELD_OFFSET(ofs_anims), h->ofs_anims, h->num_anims, IQM_ANIM_SIZE, 4)) return 0;
    if (!h->num_anims) return 1;
    m->animations = iqi_alloc(ctx, h->num_anims, sizeof(iq_animation), "animations");
    if (!m->animations) return 0;
    m->animation_count = h->num_anims;
    uint32_t empty = 0;
    for (uint32_t i = 0; i < h->num_anims; i++) {
        uint32_t at = h->ofs_anims + i * IQM_ANIM_SIZE;
        const uint8_t *r = p->d + at;
        iq_animation *a = &m->animations[i];
        if (!iqi_iqm_get_string(p, iqi_u32(r), at, "animation name", &a->name)) return 0;
        a->first_frame = iqi_u32(r + 4);
        a->frame_count = iqi_u32(r + 8);
        a->framerate = iqi_f32(r + 12);
        a->flags = iqi_u32(r + 16) & IQ_ANIMATION_LOOP;
        if ((uint64_t)a->first_frame + a->frame_count > h->num_frames)
            return iqi_fail(ctx, IQ_ERROR_BAD_ANIMATION, at + 4,
                            "animation %u ('%s'): frames %u..%llu are past the %u frames of the file", i, a->name,
                            a->first_frame, (unsigned long long)a->first_frame + a->frame_count, h->num_frames);
        if (!iqi_finite(a->framerate) || a->framerate < 0)
            return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, at + 12, "animation %u ('%s'): framerate %g", i, a->name, a->framerate);
        if (a->frame_count == 0) empty++;
    }
    if (empty) iqi_warn(ctx, IQ_WARNING_EMPTY, "%u animation(s) have no frames", empty);
    return 1;
}
