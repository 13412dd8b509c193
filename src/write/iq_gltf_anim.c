/* glTF animations: one per clip, with joint TRS channels, tag tracks (keys
 * between frames, since glTF slerps where the library lerps) and the morph
 * chunks' channels (iq_gltf_morph.c). */
#include "write/iq_gltf_internal.h"
#include "base/iq_math.h"

/* -- Math */
/* Rotation of an orthonormal basis (columns x, y, z) as a unit quaternion. */
static void quat_from_axes(float q[4], const float x[3], const float y[3], const float z[3]) {
    double m00 = x[0], m10 = x[1], m20 = x[2], m01 = y[0], m11 = y[1], m21 = y[2], m02 = z[0], m12 = z[1], m22 = z[2];
    double tr = m00 + m11 + m22, d[4];
    if (tr > 0) {
        double s = sqrt(tr + 1.0) * 2;
        d[3] = 0.25 * s; d[0] = (m21 - m12) / s; d[1] = (m02 - m20) / s; d[2] = (m10 - m01) / s;
    } else if (m00 > m11 && m00 > m22) {
        double s = sqrt(1.0 + m00 - m11 - m22) * 2;
        d[3] = (m21 - m12) / s; d[0] = 0.25 * s; d[1] = (m01 + m10) / s; d[2] = (m02 + m20) / s;
    } else if (m11 > m22) {
        double s = sqrt(1.0 + m11 - m00 - m22) * 2;
        d[3] = (m02 - m20) / s; d[0] = (m01 + m10) / s; d[1] = 0.25 * s; d[2] = (m12 + m21) / s;
    } else {
        double s = sqrt(1.0 + m22 - m00 - m11) * 2;
        d[3] = (m10 - m01) / s; d[0] = (m02 + m20) / s; d[1] = (m12 + m21) / s; d[2] = 0.25 * s;
    }
    for (int k = 0; k < 4; k++) q[k] = (float)d[k];
    iqm_quat_normalize(q);
}

/* The same hemisphere as the previous key, so LINEAR slerp takes the short way. */
static void quat_follow(float q[4], const float *prev) {
    if (prev && q[0] * prev[0] + q[1] * prev[1] + q[2] * prev[2] + q[3] * prev[3] < 0)
        for (int k = 0; k < 4; k++) q[k] = -q[k];
}

/* A tag between two frames as TRS, as iq_tag_matrix_frames places it (lerped,
 * orthonormalised); a mirrored basis is rotation * (-1 scale), since -I is the
 * one reflection glTF's TRS can hold with a quaternion. */
void iqi_gltf_tag_trs(const iq_model *m, uint32_t tag, uint32_t frame_a, uint32_t frame_b, float blend, float t[3], float r[4],
                      float s[3]) {
    float a[16];
    if (!iq_tag_matrix_frames(m, tag, frame_a, frame_b, blend, a)) memset(a, 0, sizeof a), a[0] = a[5] = a[10] = a[15] = 1;
    float x[3] = {a[0], a[1], a[2]}, y[3] = {a[4], a[5], a[6]}, z[3] = {a[8], a[9], a[10]};
    float det = x[0] * (y[1] * z[2] - y[2] * z[1]) - y[0] * (x[1] * z[2] - x[2] * z[1]) + z[0] * (x[1] * y[2] - x[2] * y[1]);
    float sign = det < 0 ? -1.0f : 1.0f;
    for (int k = 0; k < 3; k++) { x[k] *= sign; y[k] *= sign; z[k] *= sign; }
    quat_from_axes(r, x, y, z);
    for (int k = 0; k < 3; k++) { t[k] = a[12 + k]; s[k] = sign; }
}

/* -- Animations */
void iqi_gltf_channel(gw *w, anim_builder *ab, int32_t input, int32_t output, int32_t node, const char *path, const char *interp) {
    iqi_json_sep(w, &ab->samplers);
    iqi_json_printf(w, &ab->samplers, "{\"input\":%d,\"output\":%d,\"interpolation\":\"%s\"}", input, output, interp);
    iqi_json_sep(w, &ab->channels);
    iqi_json_printf(w, &ab->channels, "{\"sampler\":%u,\"target\":{\"node\":%d,\"path\":\"%s\"}}", ab->n_samplers++, node, path);
}

static int32_t times(gw *w, uint32_t count, float fps) {
    float *t = iqi_gltf_scratch(w, count);
    if (!t) return -1;
    for (uint32_t k = 0; k < count; k++) t[k] = (float)((double)k / fps);
    return iqi_gltf_acc_floats(w, t, count, 1, 0, 1);
}

/* A joint channel is left out only when every frame equals the bind value, which
 * is the node's own TRS (three.js keeps a node's TRS where no channel drives it). */
static int joint_channels(gw *w, anim_builder *ab, const iq_model *m, iq_gltf_range r, uint32_t nk, int32_t input,
                          int32_t joint_node) {
    for (uint32_t j = 0; j < m->joint_count && !w->failed; j++) {
        const iq_transform *bind = &m->joints[j].bind;
        for (int path = 0; path < 3; path++) {
            int n = path == 1 ? 4 : 3;
            const float *bv = path == 0 ? bind->translate : path == 1 ? bind->rotate : bind->scale;
            float *o = iqi_gltf_scratch(w, (uint64_t)nk * n);
            if (!o) return 0;
            int same = 1;
            for (uint32_t k = 0; k < nk; k++) {
                const iq_transform *pose = m->frame_poses + (size_t)iqi_gltf_key_frame(r, k) * m->joint_count + j;
                const float *v = path == 0 ? pose->translate : path == 1 ? pose->rotate : pose->scale;
                float *dst = o + (size_t)n * k;
                memcpy(dst, v, (size_t)n * 4);
                if (path == 1) {
                    iqm_quat_normalize(dst);
                    quat_follow(dst, k ? dst - 4 : NULL);
                }
                for (int c = 0; c < n; c++) same &= v[c] == bv[c];
            }
            if (same) continue;
            int32_t out = iqi_gltf_acc_floats(w, o, nk, n, 0, 0);
            iqi_gltf_channel(w, ab, input, out, joint_node + (int32_t)j, path == 0 ? "translation" : path == 1 ? "rotation" : "scale", "LINEAR");
        }
    }
    return !w->failed;
}

/* Tag tracks get IQ_GLTF_TAG_STEPS keys per frame step: glTF slerps between
 * keys where the library lerps the axes and re-orthonormalises, and the
 * in-between keys hold the library's placements, so the two stay within a
 * hair of each other between frames too (a player's head rides on two tags). */
static int tag_channels(gw *w, anim_builder *ab, const iq_model *m, iq_gltf_range r, uint32_t nk, float fps,
                        int32_t tag_node) {
    const uint32_t steps = IQ_GLTF_TAG_STEPS;
    uint32_t n = (nk - 1) * steps + 1;
    float *tk = iqi_gltf_scratch(w, n);
    if (!tk) return 0;
    for (uint32_t i = 0; i < n; i++) tk[i] = (float)((double)i / steps / fps);
    int32_t input = iqi_gltf_acc_floats(w, tk, n, 1, 0, 1);
    for (uint32_t t = 0; t < m->tag_count && !w->failed; t++) {
        float *o = iqi_gltf_scratch(w, 10ull * n);
        if (!o) return 0;
        float *tr = o, *rq = o + 3 * (size_t)n, *sc = o + 7 * (size_t)n;
        int mirrored = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t k = i / steps;
            iqi_gltf_tag_trs(m, t, iqi_gltf_key_frame(r, k), iqi_gltf_key_frame(r, k + 1 < nk ? k + 1 : k), (float)(i % steps) / (float)steps, tr + 3 * i,
                    rq + 4 * i, sc + 3 * i);
            quat_follow(rq + 4 * i, i ? rq + 4 * (i - 1) : NULL);
            mirrored |= sc[3 * i] < 0;
        }
        int32_t a = iqi_gltf_acc_floats(w, tr, n, 3, 0, 0);
        iqi_gltf_channel(w, ab, input, a, tag_node + (int32_t)t, "translation", "LINEAR");
        a = iqi_gltf_acc_floats(w, rq, n, 4, 0, 0);
        iqi_gltf_channel(w, ab, input, a, tag_node + (int32_t)t, "rotation", "LINEAR");
        if (mirrored || w->nodes[tag_node + (int32_t)t].has_s) {
            a = iqi_gltf_acc_floats(w, sc, n, 3, 0, 0); /* mirrored frames: the -1 scale flips with them (STEP) */
            iqi_gltf_channel(w, ab, input, a, tag_node + (int32_t)t, "scale", "STEP");
        }
    }
    return !w->failed;
}

int iqi_gltf_write_animation(gw *w, uint32_t c) {
    const clip *cl = &w->clips[c];
    anim_builder ab = {{0}, {0}, 0};
    for (uint32_t p = 0; p < w->scene->part_count && !w->failed; p++) {
        iq_gltf_range r = cl->ranges[p];
        if (!r.frame_count) continue;
        const iq_model *m = w->scene->parts[p].model;
        uint32_t nk = iqi_gltf_range_keys(cl, r, m);
        if (m->joint_count && m->frame_poses) joint_channels(w, &ab, m, r, nk, times(w, nk, cl->fps), w->pinfo[p].joint_node);
        if (m->tag_count && m->tag_transforms) tag_channels(w, &ab, m, r, nk, cl->fps, w->pinfo[p].tag_node);
        if (iqi_gltf_is_md3(m)) iqi_gltf_morph_channels(w, &ab, c, p, cl->fps);
    }
    if (!w->failed && ab.n_samplers) {
        iqi_json_sep(w, &w->anims);
        iqi_json_lit(w, &w->anims, "{\"name\":");
        iqi_json_str(w, &w->anims, cl->name);
        iqi_json_lit(w, &w->anims, ",\"samplers\":[");
        iqi_json_put(w, &w->anims, ab.samplers.p, ab.samplers.n);
        iqi_json_lit(w, &w->anims, "],\"channels\":[");
        iqi_json_put(w, &w->anims, ab.channels.p, ab.channels.n);
        iqi_json_printf(w, &w->anims, "],\"extras\":{\"framerate\":%.9g,\"loop\":%s}}", (double)cl->fps, cl->loop ? "true" : "false");
        w->n_anims++;
    }
    free(ab.samplers.p);
    free(ab.channels.p);
    return !w->failed;
}
