/* What the WebAssembly builds export for models: loading, handles, posing,
 * images, Quake 3's companion files and archives. The writers' exports are in
 * iq_wasm_write.c, the shader scripts' in iq_wasm_shader.c, the heap and the
 * tables in iq_wasm_tables.c; build.sh links each WASM from the files it needs
 * (interquake.wasm: all; the viewer's: no writers, no shaders; the shaders':
 * only shaders).
 *
 * JS (web/core/wasm.js) is the one module that talks to these exports. It
 * learns every record layout, enum value, error name and constant from the
 * tables in iq_wasm_tables.c at init, so no JS file knows a number that C
 * defines. Models and instances are reached through 32-bit handles (slot +
 * generation), so a disposed or made-up handle is detected instead of touching
 * freed memory. Results go to memory the caller passes in (never process-wide
 * statics), and every call that can fail fills the caller's iq_error. */
#include "wasm/iq_wasm_internal.h"
#include "base/iq_internal.h"
#include "quake3/iq_quake3.h"
#include <stdlib.h>

// -- Handles: models and their instances

#define MAX_SLOTS 65535
enum { SLOT_FREE = 0, SLOT_MODEL, SLOT_INSTANCE };
typedef struct slot {
    void *object;
    uint32_t generation, kind;
    uint32_t owner; /* an instance's model handle */
} slot;
static slot *slots;
static uint32_t slot_count;

static slot *lookup(uint32_t handle, uint32_t kind) {
    uint32_t index = (handle & 0xFFFF) - 1, generation = handle >> 16;
    if (index >= slot_count || slots[index].kind != kind || slots[index].generation != generation) return NULL;
    return &slots[index];
}
static iq_model *model_of(uint32_t handle) {
    slot *s = lookup(handle, SLOT_MODEL);
    return s ? s->object : NULL;
}
iq_model *iqi_wasm_model(uint32_t handle) { return model_of(handle); }
static iq_instance *instance_of(uint32_t handle) {
    slot *s = lookup(handle, SLOT_INSTANCE);
    return s ? s->object : NULL;
}

/* A handle for a new object, or 0 with *err filled. */
static uint32_t add_slot(void *object, uint32_t kind, uint32_t owner, iq_error *err) {
    uint32_t index = 0;
    while (index < slot_count && slots[index].kind != SLOT_FREE) index++;
    if (index == slot_count) {
        if (slot_count == MAX_SLOTS) {
            iqi_set_error(err, IQ_ERROR_LIMIT, "65535 models and instances are open; dispose some first");
            return 0;
        }
        uint32_t grown = slot_count ? slot_count * 2 : 16;
        if (grown > MAX_SLOTS) grown = MAX_SLOTS;
        slot *s = iqi_realloc(slots, grown * sizeof *s);
        if (!s) {
            iqi_set_error(err, IQ_ERROR_OUT_OF_MEMORY, "out of memory for the handle table");
            return 0;
        }
        memset(s + slot_count, 0, (grown - slot_count) * sizeof *s);
        slots = s;
        slot_count = grown;
    }
    slot *s = &slots[index];
    s->object = object;
    s->kind = kind;
    s->owner = owner;
    s->generation = (s->generation + 1) & 0x7FFF;
    if (s->generation == 0) s->generation = 1;
    return (s->generation << 16) | (index + 1);
}

static void free_slot(slot *s) {
    if (s->kind == SLOT_MODEL) iq_free(s->object);
    else iq_instance_free(s->object);
    s->object = NULL;
    s->kind = SLOT_FREE;
}

/* Loads a model: its handle, or 0 with *err filled. format is an iq_format. */
IQ_EXPORT uint32_t iq_wasm_load(const void *data, uint32_t size, uint32_t format, const char *name, iq_error *err) {
    iq_load_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.format = (iq_format)format;
    opts.name = name; /* may be NULL */
    iq_model *m = iq_load_memory(data, size, &opts, err);
    if (!m) return 0;
    uint32_t handle = add_slot(m, SLOT_MODEL, 0, err);
    if (!handle) iq_free(m);
    return handle;
}

/* The format the first bytes name (0: none), and whether this build reads a format. */
IQ_EXPORT uint32_t iq_wasm_detect_format(const void *data, uint32_t size) { return (uint32_t)iq_detect_format(data, size); }
IQ_EXPORT uint32_t iq_wasm_format_readable(uint32_t format) { return (uint32_t)iq_format_readable((iq_format)format); }

/* A new evaluation state for a model: its handle, or 0 with *err filled. */
IQ_EXPORT uint32_t iq_wasm_instance_create(uint32_t model_handle, iq_error *err) {
    iq_model *m = model_of(model_handle);
    if (!m) {
        iqi_set_error(err, IQ_ERROR_DISPOSED, "the model was disposed");
        return 0;
    }
    iq_instance *inst = iq_instance_create(m, err);
    if (!inst) return 0;
    uint32_t handle = add_slot(inst, SLOT_INSTANCE, model_handle, err);
    if (!handle) iq_instance_free(inst);
    return handle;
}

/* Frees a model (with every instance made from it) or an instance. Returns
 * IQ_ERROR_NONE, or IQ_ERROR_DISPOSED when the handle is not live. */
IQ_EXPORT iq_error_code iq_wasm_dispose(uint32_t handle) {
    slot *s = lookup(handle, SLOT_MODEL);
    if (s) {
        for (uint32_t i = 0; i < slot_count; i++)
            if (slots[i].kind == SLOT_INSTANCE && slots[i].owner == handle) free_slot(&slots[i]);
        free_slot(s);
        return IQ_ERROR_NONE;
    }
    s = lookup(handle, SLOT_INSTANCE);
    if (!s) return IQ_ERROR_DISPOSED;
    free_slot(s);
    return IQ_ERROR_NONE;
}

/* The records behind a handle, for JS to read by layout; 0 when not live. The
 * model's own instance is model->instance (read through the iq_model layout is
 * not possible: JS asks here). */
IQ_EXPORT const iq_model *iq_wasm_model(uint32_t handle) { return model_of(handle); }
IQ_EXPORT const iq_instance *iq_wasm_instance(uint32_t handle) {
    iq_model *m = model_of(handle);
    return m ? m->instance : instance_of(handle);
}

/* Bytes held by live models (their arenas), for leak tests. */
IQ_EXPORT double iq_wasm_live_bytes(void) {
    double total = 0;
    for (uint32_t i = 0; i < slot_count; i++)
        if (slots[i].kind == SLOT_MODEL) total += (double)((iqi_arena *)((iq_model *)slots[i].object)->internal)->used;
    return total;
}

// -- Posing (iq_anim.c). `handle` is a model (its own instance) or an instance.

static iq_instance *pose_target(uint32_t handle) {
    iq_model *m = model_of(handle);
    return m ? m->instance : instance_of(handle);
}

/* Skins at a fractional global frame. Returns 0 or an error code. */
IQ_EXPORT iq_error_code iq_wasm_evaluate(uint32_t handle, float frame) {
    iq_instance *inst = pose_target(handle);
    return inst ? iq_instance_evaluate(inst, frame) : IQ_ERROR_DISPOSED;
}

/* MD3: morphs between any two frames (iq_instance_morph). Returns 0 or an error code. */
IQ_EXPORT iq_error_code iq_wasm_morph(uint32_t handle, uint32_t frame_a, uint32_t frame_b, float t) {
    iq_instance *inst = pose_target(handle);
    return inst ? iq_instance_morph(inst, frame_a, frame_b, t) : IQ_ERROR_DISPOSED;
}

/* Poses at args (see iq_wasm_pose_args); the playhead of args->play goes to *head. */
IQ_EXPORT iq_error_code iq_wasm_pose(uint32_t handle, const iq_wasm_pose_args *args, iq_playhead *head) {
    iq_instance *inst = pose_target(handle);
    if (!inst) return IQ_ERROR_DISPOSED;
    return iq_pose_instance(inst, &args->play, args->has_blend ? &args->blend : NULL, args->weight,
                                      args->skin != 0, head);
}

/* CPU skinning alone with the current skin matrices (the benchmark, and callers who pose once and skin later). */
IQ_EXPORT iq_error_code iq_wasm_skin(uint32_t handle) {
    iq_instance *inst = pose_target(handle);
    if (!inst) return IQ_ERROR_DISPOSED;
    iq_skin_vertices(inst);
    return IQ_ERROR_NONE;
}

/* Where play->animation of a model is at play->time. */
IQ_EXPORT iq_error_code iq_wasm_playhead(uint32_t handle, const iq_play *play, iq_playhead *out) {
    iq_model *m = model_of(handle);
    if (!m) return IQ_ERROR_DISPOSED;
    return iq_playhead_at(m, play->animation, play->time, &play->opts, out);
}

/* Where any clip is at play->time (play->animation is not read); handle 0: no model. */
IQ_EXPORT iq_error_code iq_wasm_clip_playhead(uint32_t handle, const iq_animation *clip, const iq_play *play,
                                         iq_playhead *out) {
    iq_model *m = NULL;
    if (handle && !(m = model_of(handle))) return IQ_ERROR_DISPOSED;
    return iq_clip_playhead(m, clip, play->time, &play->opts, out);
}

/* A joint's column-major model-space matrix into out[16]: at args when args is
 * not 0 (the instance untouched), else in the handle's last pose. */
IQ_EXPORT iq_error_code iq_wasm_joint_matrix(uint32_t handle, uint32_t joint, const iq_wasm_pose_args *args, float *out) {
    iq_instance *inst = pose_target(handle);
    if (!inst) return IQ_ERROR_DISPOSED;
    if (!args) return iq_instance_joint_matrix(inst, joint, out);
    return iq_joint_matrix(inst->model, joint, &args->play, args->has_blend ? &args->blend : NULL,
                                     args->weight, out);
}

/* Tag (index < tag_count) or joint (tag_count + j) between two global frames
 * into out[16]. IQ_ERROR_INVALID_ARGUMENT for an index out of range. */
IQ_EXPORT iq_error_code iq_wasm_tag_matrix(uint32_t handle, uint32_t index, uint32_t frame_a, uint32_t frame_b, float blend,
                                      float *out) {
    iq_model *m = model_of(handle);
    if (!m) return IQ_ERROR_DISPOSED;
    return iq_tag_matrix_frames(m, index, frame_a, frame_b, blend, out);
}

/* The same at a fractional global frame (clamped), split into frames by the C. */
IQ_EXPORT iq_error_code iq_wasm_tag_matrix_at(uint32_t handle, uint32_t index, float frame, float *out) {
    iq_model *m = model_of(handle);
    if (!m) return IQ_ERROR_DISPOSED;
    return iq_tag_matrix_at(m, index, frame, out);
}

/* Appends the animations of `source` to `handle`'s model. Returns 0 or an error code with *err filled. */
IQ_EXPORT iq_error_code iq_wasm_attach_animations(uint32_t handle, uint32_t source, iq_error *err) {
    iq_model *m = model_of(handle), *src = model_of(source);
    if (!m || !src) {
        iqi_set_error(err, IQ_ERROR_DISPOSED, "the model or the animation source was disposed");
        return IQ_ERROR_DISPOSED;
    }
    return iq_attach_animations(m, src, err);
}

// -- Images

/* A decoded TGA (free with iq_wasm_image_free), or 0 with *err filled. */
IQ_EXPORT iq_image *iq_wasm_decode_tga(const void *data, uint32_t size, iq_error *err) {
    return iq_decode_tga(data, size, NULL, err);
}
IQ_EXPORT void iq_wasm_image_free(iq_image *image) { iq_image_free(image); }

// -- Quake 3 companion files, the Quake 3 clock, zip archives (quake3/iq_quake3.h)

/* Parse into *out (JS owns it). An error code, with *err filled. */
IQ_EXPORT iq_error_code iq_wasm_parse_animation_cfg(const void *text, uint32_t size, iq_q3_config *out, iq_error *err) {
    return iq_q3_parse_animation_cfg(text, size, out, err);
}
IQ_EXPORT iq_error_code iq_wasm_parse_skin(const void *text, uint32_t size, iq_skin *out, iq_error *err) {
    return iq_q3_parse_skin(text, size, out, err);
}

IQ_EXPORT iq_error_code iq_wasm_q3_playhead(const iq_q3_animation *anim, double time, uint32_t part_frames, iq_playhead *out) {
    return iq_q3_playhead(anim, time, part_frames, out);
}

/* The three steps of iq_quake3.h, so that only the archive's end, directory
 * and local headers are copied into the heap. */
IQ_EXPORT iq_error_code iq_wasm_zip_find_directory(const void *tail, uint32_t tail_size, double archive_size,
                                              const iq_zip_limits *limits, iq_zip_directory *out, iq_error *err) {
    if (!(archive_size >= 0 && archive_size < 1.8e19)) archive_size = 0;
    return iq_zip_find_directory(tail, tail_size, (uint64_t)archive_size, limits, out, err);
}
IQ_EXPORT iq_zip *iq_wasm_zip_read_directory(const void *directory, const iq_zip_directory *dir,
                                             const iq_zip_limits *limits, iq_error *err) {
    return iq_zip_read_directory(directory, dir, limits, err);
}
IQ_EXPORT iq_error_code iq_wasm_zip_check_local_headers(iq_zip *zip, const void *headers, uint32_t size, iq_error *err) {
    return iq_zip_check_local_headers(zip, headers, size, err);
}
IQ_EXPORT void iq_wasm_zip_free(iq_zip *zip) { iq_zip_free(zip); }
