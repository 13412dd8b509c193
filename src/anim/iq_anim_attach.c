/* iq_attach_animations: the frames and animations of another file (an
 * animation-only IQM/IQE) appended to a model, joints matched by name or by
 * order; the appended frames' bounds come from iqi_pose_bounds. */
#include "base/iq_internal.h"
#include "anim/iq_anim_internal.h"
#include <stdio.h>
#include <stdlib.h>


/* True when every joint has a name and no two share one. */
static int names_usable(const iq_model *m) {
    for (uint32_t i = 0; i < m->joint_count; i++) {
        if (!m->joints[i].name[0]) return 0;
        for (uint32_t k = 0; k < i; k++)
            if (strcmp(m->joints[i].name, m->joints[k].name) == 0) return 0;
    }
    return 1;
}

static const char *joint_label(const iq_model *m, int32_t j) {
    if (j < 0) return "(root)";
    return m->joints[j].name[0] ? m->joints[j].name : "(unnamed)";
}

iq_error_code iq_attach_animations(iq_model *m, const iq_model *src, iq_error *error) {
    iq_error local_error;
    iq_error *err = iqi_error_reset(error, &local_error);
    if (!m || !src) return iqi_set_error_code(err, IQ_ERROR_INVALID_ARGUMENT, "the model and the animation source must not be NULL");
    uint32_t nj = m->joint_count, ns = src->joint_count;
    if (!nj) return iqi_set_error_code(err, IQ_ERROR_SKELETON_MISMATCH, "the model has no skeleton to animate");
    /* src joint i drives model joint map[i]: by name when both sides name every
     * joint uniquely (a reordered or partial skeleton still fits), else by
     * order, which needs equal counts. */
    int by_name = names_usable(m) && names_usable(src);
    if (!by_name && ns != nj)
        return iqi_set_error_code(err, IQ_ERROR_SKELETON_MISMATCH,
                           "the model has %u joints, the animations are for %u, and joints cannot be matched by name "
                           "(the %s has unnamed or repeated joint names)",
                           nj, ns, names_usable(m) ? "animation file" : "model");
    if (!src->frame_count || !src->frame_poses)
        return iqi_set_error_code(err, IQ_ERROR_INVALID_ARGUMENT, "the source has no animation frames to attach");
    if ((uint64_t)m->frame_count + src->frame_count > UINT32_MAX ||
        (uint64_t)m->animation_count + src->animation_count > UINT32_MAX)
        return iqi_set_error_code(err, IQ_ERROR_LIMIT, "too many frames or animations together");

    iqi_arena *arena = m->internal;
    iqi_ctx ctx;
    iqi_model_ctx(&ctx, m, err);
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
        return iqi_set_error_code(err, IQ_ERROR_LIMIT, "the attached animations need %llu more bytes than this platform can address",
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
            iqi_set_error_code(err, IQ_ERROR_SKELETON_MISMATCH,
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
    if (m->frame_poses && m->frame_count && nj) {
        memcpy(frames, m->frame_poses, (size_t)m->frame_count * nj * sizeof(iq_transform));
    } else {
        /* Frames without poses hold the bind pose, as the animator reads them (found by fuzz_anim). */
        for (size_t f = 0; f < m->frame_count; f++)
            for (uint32_t j = 0; j < nj; j++) frames[f * nj + j] = m->joints[j].bind;
    }
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
    return IQ_ERROR_NONE;
fail:
    arena->budget = arena->used > old_budget ? arena->used : old_budget;
    if (err->code == IQ_ERROR_NONE) iqi_set_error_code(err, IQ_ERROR_OUT_OF_MEMORY, "attaching animations failed");
    return err->code;
}
