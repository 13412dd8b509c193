/* The invariants every loaded model promises (interquake.h "Trust"). Run
 * after every successful load in the tests and the fuzzers; returns the
 * number of violations and prints the first few. */
#ifndef IQT_CHECK_MODEL_H
#define IQT_CHECK_MODEL_H
#include "interquake.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

#define IQT_BAD(...) do { if (bad++ < 5) { fprintf(stderr, "check_model: "); fprintf(stderr, __VA_ARGS__); fprintf(stderr, "\n"); } } while (0)

static int iqt_all_finite(const float *v, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i])) return 0;
    return 1;
}

static inline int check_model(const iq_model *m) {
    int bad = 0;
    uint32_t nv = m->vertex_count;
    if (nv && !m->positions) IQT_BAD("vertices without positions");
    if (m->positions && !iqt_all_finite(m->positions, (size_t)nv * 3)) IQT_BAD("non-finite position");
    if (m->normals && !iqt_all_finite(m->normals, (size_t)nv * 3)) IQT_BAD("non-finite normal");
    if (m->texcoords && !iqt_all_finite(m->texcoords, (size_t)nv * 2)) IQT_BAD("non-finite texcoord");
    if (m->tangents && !iqt_all_finite(m->tangents, (size_t)nv * 4)) IQT_BAD("non-finite tangent");
    if (m->colors && !iqt_all_finite(m->colors, (size_t)nv * 4)) IQT_BAD("non-finite color");
    for (uint32_t i = 0; i < m->triangle_count * 3u; i++)
        if (m->indices[i] >= nv) { IQT_BAD("index %u = %u >= %u vertices", i, m->indices[i], nv); break; }
    if (m->adjacency)
        for (uint32_t i = 0; i < m->triangle_count * 3u; i++)
            if (m->adjacency[i] >= m->triangle_count && m->adjacency[i] != 0xFFFFFFFFu) { IQT_BAD("adjacency %u", i); break; }
    if (m->blend_indices) {
        for (uint32_t v = 0; v < nv; v++) {
            float sum = 0;
            for (int k = 0; k < 4; k++) {
                if (m->blend_indices[4 * v + k] >= m->joint_count) { IQT_BAD("vertex %u blend index out of range", v); break; }
                float w = m->blend_weights[4 * v + k];
                if (!(w >= 0 && w <= 1.0001f)) IQT_BAD("vertex %u weight %g", v, w);
                sum += w;
            }
            if (fabsf(sum - 1) > 1e-3f) { IQT_BAD("vertex %u weights sum to %g", v, sum); break; }
        }
    }
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        const iq_mesh *mesh = &m->meshes[i];
        if (!mesh->name || !mesh->material) IQT_BAD("mesh %u has a NULL name", i);
        if ((uint64_t)mesh->first_vertex + mesh->vertex_count > nv) IQT_BAD("mesh %u vertex range", i);
        if ((uint64_t)mesh->first_triangle + mesh->triangle_count > m->triangle_count) IQT_BAD("mesh %u triangle range", i);
    }
    for (uint32_t j = 0; j < m->joint_count; j++) {
        const iq_joint *jt = &m->joints[j];
        if (!jt->name) IQT_BAD("joint %u has a NULL name", j);
        if (jt->parent < -1 || jt->parent >= (int32_t)j) IQT_BAD("joint %u parent %d", j, jt->parent);
        if (!iqt_all_finite(jt->bind.translate, 10)) IQT_BAD("joint %u bind not finite", j);
        if (!iqt_all_finite(m->inverse_bind + 12 * j, 12)) IQT_BAD("joint %u inverse bind not finite", j);
    }
    if (m->frame_poses && !iqt_all_finite(&m->frame_poses[0].translate[0], (size_t)m->frame_count * m->joint_count * 10))
        IQT_BAD("non-finite frame pose");
    for (uint32_t a = 0; a < m->animation_count; a++) {
        const iq_animation *an = &m->animations[a];
        if (!an->name) IQT_BAD("animation %u has a NULL name", a);
        if ((uint64_t)an->first_frame + an->frame_count > m->frame_count) IQT_BAD("animation %u frame range", a);
        if (!(an->framerate >= 0) || !isfinite(an->framerate)) IQT_BAD("animation %u framerate", a);
    }
    for (uint32_t i = 0; i < m->custom_array_count; i++)
        if (!m->custom_arrays[i].name || !m->custom_arrays[i].data) IQT_BAD("custom array %u", i);
    for (uint32_t i = 0; i < m->extension_count; i++)
        if (!m->extensions[i].name) IQT_BAD("extension %u", i);
    /* Vertex animation (MD3): every frame finite, normals unit length. */
    if (m->frame_positions) {
        size_t n = (size_t)m->frame_count * nv * 3;
        if (!iqt_all_finite(m->frame_positions, n) || !iqt_all_finite(m->frame_normals, n)) IQT_BAD("non-finite frame vertex");
        for (size_t i = 0; i < n; i += 3) {
            const float *fn = m->frame_normals + i;
            if (fabsf(fn[0] * fn[0] + fn[1] * fn[1] + fn[2] * fn[2] - 1) > 1e-4f) { IQT_BAD("frame normal %zu not unit", i / 3); break; }
        }
        if (m->positions != m->frame_positions) IQT_BAD("positions are not frame 0");
    }
    if (m->frame_info)
        for (uint32_t f = 0; f < m->frame_count; f++)
            if (!m->frame_info[f].name || !iqt_all_finite(m->frame_info[f].local_origin, 3)) IQT_BAD("frame %u info", f);
    if (m->tag_count) {
        for (uint32_t t = 0; t < m->tag_count; t++)
            if (!m->tag_names[t]) IQT_BAD("tag %u has a NULL name", t);
        if (!m->tag_transforms || !iqt_all_finite(m->tag_transforms, (size_t)m->frame_count * m->tag_count * 12))
            IQT_BAD("tag transforms missing or not finite");
    }
    for (uint32_t i = 0; i < m->shader_count; i++)
        if (!m->shaders[i].name || m->shaders[i].mesh >= m->mesh_count) { IQT_BAD("shader %u", i); break; }
    if (!iqt_all_finite(m->bounds.min, 8)) IQT_BAD("model bounds not finite");
    if (m->frame_bounds)
        for (uint32_t f = 0; f < m->frame_count; f++)
            if (!iqt_all_finite(m->frame_bounds[f].min, 8)) { IQT_BAD("frame %u bounds not finite", f); break; }
    for (uint32_t i = 0; i < m->warning_count && i < IQ_MAX_WARNINGS; i++)
        if (!memchr(m->warnings[i].message, 0, sizeof m->warnings[i].message)) IQT_BAD("warning %u not terminated", i);
    return bad;
}

/* Every output buffer the evaluation functions write is finite. */
static inline int iqt_outputs_finite(const iq_model *m) {
    size_t nv = m->vertex_count, nj = m->joint_count;
    if (m->instance->skinned_positions && !iqt_all_finite(m->instance->skinned_positions, nv * 3)) return 0;
    if (m->instance->skinned_normals && !iqt_all_finite(m->instance->skinned_normals, nv * 3)) return 0;
    if (m->instance->skinned_tangents && !iqt_all_finite(m->instance->skinned_tangents, nv * 4)) return 0;
    if (nj && (!iqt_all_finite(m->instance->skin_matrices, nj * 12) || !iqt_all_finite(m->instance->world_matrices, nj * 12) ||
               !iqt_all_finite(m->instance->skin_matrices_4x4, nj * 16) || !iqt_all_finite(&m->instance->local_poses[0].translate[0], nj * 10)))
        return 0;
    return 1;
}

/* Evaluates a few frames, poses every animation (a few), queries every tag
 * and joint matrix, and checks that every output is finite: the API promises
 * finite numbers for every accepted model (interquake.h, "Trust"). */
static inline int check_evaluate(iq_model *m) {
    int bad = 0;
    float frames[] = {0.0f, 0.5f, (float)m->frame_count - 1.0f, (float)m->frame_count - 1.5f, 1e9f, -5.0f};
    for (size_t i = 0; i < sizeof frames / sizeof frames[0]; i++) {
        if (iq_evaluate(m, frames[i]) != 0) IQT_BAD("evaluate(%g) failed", frames[i]);
        if (!iqt_outputs_finite(m)) IQT_BAD("evaluate(%g): an output is not finite", frames[i]);
    }
    /* Every tag, then every joint (iq_tag_matrix_at's index space), at three frames. */
    uint64_t places = (uint64_t)m->tag_count + m->joint_count;
    for (uint64_t t = 0; t < places && t < 8192; t++)
        for (int k = 0; k < 3; k++) {
            float mat[16], fr = k == 0 ? 0.0f : k == 1 ? 0.5f * (float)m->frame_count : (float)m->frame_count - 0.25f;
            if (iq_tag_matrix_at(m, (uint32_t)t, fr, mat) != IQ_ERROR_NONE) { IQT_BAD("tag matrix %llu missing", (unsigned long long)t); break; }
            if (!iqt_all_finite(mat, 16)) { IQT_BAD("tag matrix %llu at %g not finite", (unsigned long long)t, fr); break; }
        }
    float none[16];
    if (iq_tag_matrix_at(m, (uint32_t)places, 0, none) == IQ_ERROR_NONE && places < UINT32_MAX) IQT_BAD("tag index past the end answered");
    /* The animator on every animation (a few): playheads inside the animation,
     * poses and joint queries succeed and stay finite. */
    if (m->joint_count && !m->instance->skin_matrices_4x4) IQT_BAD("joints but no 4x4 skin matrices");
    for (uint32_t a = 0; a < m->animation_count && a < 4; a++) {
        const iq_animation *an = &m->animations[a];
        for (int loop = IQ_LOOP_AUTO; loop <= IQ_LOOP_PINGPONG; loop++) {
            iq_play play;
            memset(&play, 0, sizeof play);
            play.animation = a;
            play.time = 0.37 * loop - 0.1;
            play.opts.loop = (iq_loop_mode)loop;
            play.opts.speed = loop == IQ_LOOP_PINGPONG ? -1.5 : 1;
            play.opts.flags = loop == IQ_LOOP_REPEAT ? IQ_PLAY_SLERP : 0;
            iq_playhead h;
            if (iq_pose_model(m, &play, loop == IQ_LOOP_ONCE ? &play : NULL, 0.5f, 1, &h) != 0) IQT_BAD("pose of animation %u failed", a);
            else if (an->frame_count && (h.frame_a < an->first_frame || h.frame_a >= an->first_frame + an->frame_count ||
                                         h.frame_b < an->first_frame || h.frame_b >= an->first_frame + an->frame_count))
                IQT_BAD("animation %u: playhead frames %u, %u outside it", a, h.frame_a, h.frame_b);
            if (!iqt_outputs_finite(m)) IQT_BAD("pose of animation %u: an output is not finite", a);
            if (m->joint_count) {
                iq_transform *locals = m->instance->local_poses; /* joint_count entries */
                if (iq_sample_animation(m, a, play.time + 0.05, &play.opts, locals, NULL) != 0 ||
                    !iqt_all_finite(&locals[0].translate[0], (size_t)m->joint_count * 10))
                    IQT_BAD("sample of animation %u not finite", a);
                for (uint32_t j = 0; j < m->joint_count && j < 256; j++) {
                    float matrix[16];
                    if (iq_joint_matrix(m, j, &play, &play, 0.25f, matrix) != 0 || !iqt_all_finite(matrix, 16)) {
                        IQT_BAD("joint matrix %u of animation %u", j, a);
                        break;
                    }
                }
            }
        }
    }
    return bad;
}
#endif
