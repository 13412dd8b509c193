/* IQE joints, poses (pq, pm, pa) and animations (animation, frame, loop,
 * framerate): the skeleton commands of the line loop (iq_iqe.c). Poses
 * before the first `animation` are the base pose; later ones fill keyframes. */
#include "formats/iqe/iq_iqe_internal.h"
#include "base/iq_math.h"
#include <math.h>
#include <stdio.h>

int iqi_iqe_joint(iqe_parser *p) {
    const char *name = iqi_read_name(&p->tx, "joint", NULL);
    if (!name) return 0;
    uint32_t index = IQI_GROW_COUNT(p->joints, joint_rec);
    if (index >= p->ctx->limits.max_joints)
        return iqi_fail_at_line(p->ctx, IQ_ERROR_LIMIT, p->tx.line, 1, "joint: more than the limit of %u joints",
                                p->ctx->limits.max_joints);
    int64_t parent = -1;
    iqi_token t;
    int r = iqi_next_token(&p->tx, &t);
    if (r < 0) return 0;
    if (r == 1) {
        if (!iqi_tok_int(&t, &parent)) return iqi_fail_tok(&p->tx, IQ_ERROR_SYNTAX, &t, "joint", "is not a parent index");
        if (parent >= (int64_t)index) {
            char why[128];
            snprintf(why, sizeof why, "is not an earlier joint: joint %u ('%.40s') must have a parent < %u", index, name, index);
            return iqi_fail_tok(&p->tx, IQ_ERROR_BAD_HIERARCHY, &t, "joint", why);
        }
        if (parent < 0) parent = -1;
        if (!iqi_expect_end(&p->tx, "joint")) return 0;
    }
    joint_rec *j = iqi_grow_push(&p->tx, &p->joints, sizeof *j, "joints");
    if (!j) return 0;
    j->name = name;
    j->parent = (int32_t)parent;
    return 1;
}

/* Rotation matrix (rows, p' = R p) to a unit quaternion. */
static void quat_from_matrix(const double r[9], float q[4]) {
    double tr = r[0] + r[4] + r[8], x, y, z, w;
    if (tr > 0) {
        double s = sqrt(tr + 1.0) * 2;
        w = 0.25 * s; x = (r[7] - r[5]) / s; y = (r[2] - r[6]) / s; z = (r[3] - r[1]) / s;
    } else if (r[0] > r[4] && r[0] > r[8]) {
        double s = sqrt(1.0 + r[0] - r[4] - r[8]) * 2;
        w = (r[7] - r[5]) / s; x = 0.25 * s; y = (r[1] + r[3]) / s; z = (r[2] + r[6]) / s;
    } else if (r[4] > r[8]) {
        double s = sqrt(1.0 + r[4] - r[0] - r[8]) * 2;
        w = (r[2] - r[6]) / s; x = (r[1] + r[3]) / s; y = 0.25 * s; z = (r[5] + r[7]) / s;
    } else {
        double s = sqrt(1.0 + r[8] - r[0] - r[4]) * 2;
        w = (r[3] - r[1]) / s; x = (r[2] + r[6]) / s; y = (r[5] + r[7]) / s; z = 0.25 * s;
    }
    q[0] = (float)x; q[1] = (float)y; q[2] = (float)z; q[3] = (float)w;
}

/* Starts a keyframe of the current (last) animation; later poses go into it. */
static int open_frame(iqe_parser *p, uint32_t anims) {
    frame_rec *f = iqi_grow_push(&p->tx, &p->frames, sizeof *f, "frames");
    if (!f) return 0;
    f->line = p->tx.line;
    f->first_pose = IQI_GROW_COUNT(p->poses, iq_transform);
    IQI_GROW_AT(p->anims, anim_rec, anims - 1)->frame_rec_count++;
    p->frame_open = 1;
    return 1;
}

int iqi_iqe_pose(iqe_parser *p, char kind) {
    const char *what = kind == 'q' ? "pq" : kind == 'm' ? "pm" : "pa";
    double v[15];
    int max = kind == 'q' ? 10 : kind == 'm' ? 15 : 9, rot = kind == 'q' ? 4 : kind == 'm' ? 9 : 3;
    for (int k = 0; k < 15; k++) v[k] = 0;
    int n = iqi_read_floats(&p->tx, what, v, max, NULL);
    if (n < 0) return 0;
    int min = kind == 'q' ? 6 : 3 + rot;
    if (n < min)
        return iqi_fail_at_line(p->ctx, IQ_ERROR_SYNTAX, p->tx.line, 1, "%s: %d values; it needs at least %d (translation and %s)",
                                what, n, min, kind == 'q' ? "x y z of the quaternion" : kind == 'm' ? "a 3x3 matrix" : "3 angles");
    iq_transform t;
    int scale_at = kind == 'q' ? 7 : 3 + rot;
    double scale[3] = {1, 1, 1};
    for (int k = 0; k < 3; k++) {
        t.translate[k] = (float)v[k];
        if (n > scale_at + k) scale[k] = v[scale_at + k];
    }
    if (kind == 'q') {
        double x = v[3], y = v[4], z = v[5], w;
        if (n >= 7) w = v[6];
        else w = -sqrt(fmax(0.0, 1.0 - x * x - y * y - z * z)); /* spec: an omitted w is negative */
        double len = sqrt(x * x + y * y + z * z + w * w);
        if (!(len > 1e-12) || !isfinite(len))
            return iqi_fail_at_line(p->ctx, IQ_ERROR_BAD_VALUE, p->tx.line, 1, "pq: quaternion (%g, %g, %g, %g) has no direction",
                                    x, y, z, w);
        t.rotate[0] = (float)(x / len); t.rotate[1] = (float)(y / len); t.rotate[2] = (float)(z / len); t.rotate[3] = (float)(w / len);
    } else if (kind == 'm') {
        /* Rows A B C of R*S: each column's length is that axis's scale; a
         * negative determinant makes the scale negative (mirroring). */
        double m[9], s[3];
        for (int k = 0; k < 9; k++) m[k] = v[3 + k];
        for (int c = 0; c < 3; c++) s[c] = sqrt(m[c] * m[c] + m[3 + c] * m[3 + c] + m[6 + c] * m[6 + c]);
        double det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]);
        if (!(s[0] > 1e-20 && s[1] > 1e-20 && s[2] > 1e-20) || det == 0)
            return iqi_fail_at_line(p->ctx, IQ_ERROR_BAD_VALUE, p->tx.line, 1, "pm: the matrix is singular (a zero axis)");
        if (det < 0) for (int c = 0; c < 3; c++) s[c] = -s[c];
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) m[3 * r + c] /= s[c];
        quat_from_matrix(m, t.rotate);
        iqi_quat_normalize(t.rotate);
        for (int k = 0; k < 3; k++) scale[k] *= s[k];
    } else {
        /* Euler angles in radians: X first, then Y, then Z (q = qz * qy * qx). */
        double cx = cos(v[3] / 2), sx = sin(v[3] / 2), cy = cos(v[4] / 2), sy = sin(v[4] / 2);
        double cz = cos(v[5] / 2), sz = sin(v[5] / 2);
        t.rotate[0] = (float)(sx * cy * cz - cx * sy * sz);
        t.rotate[1] = (float)(cx * sy * cz + sx * cy * sz);
        t.rotate[2] = (float)(cx * cy * sz - sx * sy * cz);
        t.rotate[3] = (float)(cx * cy * cz + sx * sy * sz);
        iqi_quat_normalize(t.rotate);
    }
    if (t.rotate[3] > 0) for (int k = 0; k < 4; k++) t.rotate[k] = -t.rotate[k]; /* canonical w <= 0, like the SDK */
    for (int k = 0; k < 3; k++) t.scale[k] = (float)scale[k];
    for (int k = 0; k < 3; k++) {
        if (!iqi_usable(p->ctx, v[k]) || !iqi_finite(t.translate[k]))
            return iqi_fail_value(p->ctx, -1, p->tx.line, v[k], "%s: translate %d", what, k + 1);
        if (!iqi_usable(p->ctx, scale[k]) || !iqi_finite(t.scale[k]))
            return iqi_fail_value(p->ctx, -1, p->tx.line, scale[k], "%s: scale %d", what, k + 1);
    }

    uint32_t anims = IQI_GROW_COUNT(p->anims, anim_rec);
    if (!anims) {
        if (t.scale[0] == 0 || t.scale[1] == 0 || t.scale[2] == 0)
            return iqi_fail_at_line(p->ctx, IQ_ERROR_BAD_VALUE, p->tx.line, 1,
                                    "%s: a base pose with a zero scale (%g %g %g) cannot be inverted for skinning", what,
                                    t.scale[0], t.scale[1], t.scale[2]);
        if (!p->first_pose_line) p->first_pose_line = p->tx.line;
        iq_transform *out = iqi_grow_push(&p->tx, &p->base_poses, sizeof t, "base poses");
        if (!out) return 0;
        *out = t;
        return 1;
    }
    /* poses right after `animation` open its first keyframe */
    if (!p->frame_open && !open_frame(p, anims)) return 0;
    iq_transform *out = iqi_grow_push(&p->tx, &p->poses, sizeof t, "poses");
    if (!out) return 0;
    *out = t;
    IQI_GROW_AT(p->frames, frame_rec, IQI_GROW_COUNT(p->frames, frame_rec) - 1)->pose_count++;
    return 1;
}

int iqi_iqe_animation(iqe_parser *p) {
    int given;
    const char *name = iqi_read_name(&p->tx, "animation", &given);
    if (!name || !iqi_expect_end(&p->tx, "animation")) return 0;
    anim_rec *a = iqi_grow_push(&p->tx, &p->anims, sizeof *a, "animations");
    if (!a) return 0;
    a->name = given ? name : NULL;
    a->first_frame_rec = IQI_GROW_COUNT(p->frames, frame_rec);
    a->line = p->tx.line;
    p->frame_open = 0;
    return 1;
}

int iqi_iqe_frame(iqe_parser *p) {
    uint32_t anims = IQI_GROW_COUNT(p->anims, anim_rec);
    p->tx.cursor = p->tx.line_end; /* exporters write the frame number; it carries nothing */
    if (!anims) { p->ignored_frames++; return 1; }
    return open_frame(p, anims);
}

int iqi_iqe_anim_setting(iqe_parser *p, int is_loop) {
    uint32_t anims = IQI_GROW_COUNT(p->anims, anim_rec);
    anim_rec *a = anims ? IQI_GROW_AT(p->anims, anim_rec, anims - 1) : NULL;
    if (is_loop) {
        if (a) a->flags |= IQ_ANIMATION_LOOP;
        else p->ignored_loops++;
        return iqi_expect_end(&p->tx, "loop");
    }
    iqi_token t;
    int r = iqi_next_token(&p->tx, &t);
    if (r < 0) return 0;
    if (r == 0) return iqi_fail_at_line(p->ctx, IQ_ERROR_SYNTAX, p->tx.line, 1, "framerate: the value is missing");
    double fps;
    int status = iqi_tok_double(&t, &fps);
    if (status == IQI_NUM_BAD) return iqi_fail_tok(&p->tx, IQ_ERROR_SYNTAX, &t, "framerate", "is not a number");
    if (status != IQI_NUM_OK || fps < 0 || fps > 3.0e38)
        return iqi_fail_tok(&p->tx, IQ_ERROR_BAD_VALUE, &t, "framerate", "is not a finite rate >= 0");
    if (a) a->framerate = (float)fps;
    else p->ignored_loops++;
    return iqi_expect_end(&p->tx, "framerate");
}
