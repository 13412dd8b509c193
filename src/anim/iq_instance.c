/* Evaluation state (iq_instance): the buffers posing writes, apart from the
 * loaded model, so one model can be posed several ways at once. The model's
 * own instance lives in its arena (made at load, counted in its budget); more
 * come from iq_instance_create, one malloc block each. */
#include "base/iq_internal.h"
#include "anim/iq_anim_internal.h"
#include "base/iq_math.h"
#include <stdlib.h>

/* Byte offsets of each buffer inside one block; 16-byte aligned pieces. */
typedef struct instance_layout {
    size_t positions, normals, tangents, skin, skin44, world, locals, fade, sets, total;
} instance_layout;

static int add_piece(size_t *cursor, uint64_t count, uint64_t elem, size_t *at) {
    uint64_t bytes = count * elem; /* count < 2^32 and elem < 2^8: no wrap */
    uint64_t start = ((uint64_t)*cursor + 15) & ~(uint64_t)15;
    if (start + bytes > SIZE_MAX / 2) return 0;
    *at = (size_t)start;
    *cursor = (size_t)(start + bytes);
    return 1;
}

static int layout_of(const iq_model *m, instance_layout *l) {
    size_t c = sizeof(iq_instance);
    uint64_t nv = m->positions ? m->vertex_count : 0, nj = m->joint_count;
    memset(l, 0, sizeof *l);
    return add_piece(&c, nv, 3 * sizeof(float), &l->positions) &&
           add_piece(&c, m->normals ? nv : 0, 3 * sizeof(float), &l->normals) &&
           add_piece(&c, m->tangents ? nv : 0, 4 * sizeof(float), &l->tangents) &&
           add_piece(&c, nj, 12 * sizeof(float), &l->skin) && add_piece(&c, nj, 16 * sizeof(float), &l->skin44) &&
           add_piece(&c, nj, 12 * sizeof(float), &l->world) && add_piece(&c, nj, sizeof(iq_transform), &l->locals) &&
           add_piece(&c, nj, sizeof(iq_transform), &l->fade) &&
           add_piece(&c, iqi_anim_set_count(m), IQI_SET_STRIDE * sizeof(float), &l->sets) && ((l->total = c), 1);
}

/* Points the instance's buffers into its block and puts it in the bind pose
 * (an MD3 in its first frame: m->positions is frame 0). */
static void setup(iq_instance *inst, const iq_model *m, const instance_layout *l, uint8_t *block) {
    memset(inst, 0, sizeof *inst);
    inst->model = m;
    uint32_t nv = m->positions ? m->vertex_count : 0, nj = m->joint_count;
#define PIECE(field, type, at, present) inst->field = (present) ? (type *)(block + l->at) : NULL
    PIECE(skinned_positions, float, positions, nv);
    PIECE(skinned_normals, float, normals, nv && m->normals);
    PIECE(skinned_tangents, float, tangents, nv && m->tangents);
    PIECE(skin_matrices, float, skin, nj);
    PIECE(skin_matrices_4x4, float, skin44, nj);
    PIECE(world_matrices, float, world, nj);
    PIECE(local_poses, iq_transform, locals, nj);
    PIECE(fade_pose, iq_transform, fade, nj);
    PIECE(set_matrices, float, sets, iqi_anim_set_count(m));
#undef PIECE
    iqi_instance_reset(inst);
}

void iqi_instance_reset(iq_instance *inst) {
    const iq_model *m = inst->model;
    uint32_t nv = m->positions ? m->vertex_count : 0, nj = m->joint_count;
    if (nv) memcpy(inst->skinned_positions, m->positions, (size_t)nv * 3 * sizeof(float));
    if (inst->skinned_normals) memcpy(inst->skinned_normals, m->normals, (size_t)nv * 3 * sizeof(float));
    if (inst->skinned_tangents) memcpy(inst->skinned_tangents, m->tangents, (size_t)nv * 4 * sizeof(float));
    for (uint32_t j = 0; j < nj; j++) inst->local_poses[j] = m->joints[j].bind;
    if (!nj) return;
    iq_compute_skin_matrices(inst, inst->local_poses); /* the bind world matrices */
    for (uint32_t j = 0; j < nj; j++) /* world * inverse bind is the identity: exactly, not to rounding */
        for (int k = 0; k < 16; k++) {
            if (k < 12) inst->skin_matrices[12 * j + k] = k % 5 == 0 ? 1.0f : 0.0f;
            inst->skin_matrices_4x4[16 * j + k] = k % 5 == 0 ? 1.0f : 0.0f;
        }
}

int iqi_instance_prepare(iqi_ctx *ctx) {
    iq_model *m = ctx->model;
    instance_layout l;
    if (!layout_of(m, &l)) return iqi_fail(ctx, IQ_ERROR_LIMIT, -1, "the model's evaluation buffers do not fit in memory");
    uint8_t *block = iqi_alloc(ctx, 1, l.total, "evaluation buffers");
    if (!block) return 0;
    m->instance = (iq_instance *)block;
    setup(m->instance, m, &l, block);
    return 1;
}

iq_instance *iq_instance_create(const iq_model *m, iq_error *error) {
    iq_error local_error;
    iq_error *err = iqi_error_reset(error, &local_error);
    if (!m) {
        iqi_set_error(err, IQ_ERROR_INVALID_ARGUMENT, "iq_instance_create needs a model");
        return NULL;
    }
    instance_layout l;
    uint8_t *block = layout_of(m, &l) ? iqi_malloc(l.total) : NULL;
    if (!block) {
        iqi_set_error(err, IQ_ERROR_OUT_OF_MEMORY, "no memory for an instance of %u vertices and %u joints",
                      m->vertex_count, m->joint_count);
        return NULL;
    }
    iq_instance *inst = (iq_instance *)block;
    setup(inst, m, &l, block);
    inst->owned = 1;
    return inst;
}

void iq_instance_free(iq_instance *inst) {
    if (inst && inst->owned) iqi_free(inst);
}
