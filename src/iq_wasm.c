/* Everything the WebAssembly build exports, and nothing else. JS (web/
 * interquake.js) reaches models through 32-bit handles (slot + generation), so
 * a disposed or made-up handle is detected instead of touching freed memory.
 * Model data stays in the WASM heap; JS reads it through typed-array views,
 * with the record layouts fixed by the static asserts below. */
#include "iq_internal.h"
#include <stdlib.h>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#define IQ_EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define IQ_EXPORT
#endif

// -- Record layouts that JS reads (wasm32: 4-byte pointers)

#if defined(__wasm32__)
_Static_assert(sizeof(iq_mesh) == 24, "JS reads iq_mesh as 6 uint32");
_Static_assert(sizeof(iq_joint) == 48 && offsetof(iq_joint, bind) == 8, "JS reads iq_joint as name, parent, 10 floats");
_Static_assert(sizeof(iq_transform) == 40, "JS reads iq_transform as 10 floats");
_Static_assert(sizeof(iq_animation) == 20 && offsetof(iq_animation, framerate) == 12, "JS reads iq_animation");
_Static_assert(sizeof(iq_bounds) == 32, "JS reads iq_bounds as 8 floats");
_Static_assert(sizeof(iq_custom_array) == 20 && offsetof(iq_custom_array, data) == 16, "JS reads iq_custom_array");
_Static_assert(sizeof(iq_extension) == 12, "JS reads iq_extension");
_Static_assert(sizeof(iq_warning) == 164 && offsetof(iq_warning, message) == 4, "JS reads iq_warning");
#endif

/* The order of the uint32 words iq_wasm_model_info writes. JS has the same
 * list (INFO_FIELDS in web/interquake.js) and checks the count at init. */
#define IQ_INFO_FIELDS(X) \
    X(format) X(vertex_count) X(triangle_count) X(mesh_count) X(joint_count) X(frame_count) \
    X(animation_count) X(custom_array_count) X(extension_count) X(warning_count) \
    X(positions) X(normals) X(texcoords) X(tangents) X(colors) X(blend_indices) X(blend_weights) \
    X(indices) X(adjacency) X(meshes) X(joints) X(inverse_bind) X(frame_poses) X(animations) \
    X(frame_bounds) X(custom_arrays) X(extensions) X(comment) X(comment_size) X(warnings) \
    X(skinned_positions) X(skinned_normals) X(skinned_tangents) X(skin_matrices) X(world_matrices) \
    X(local_poses) X(bounds)

enum {
#define IQ_X(name) INFO_##name,
    IQ_INFO_FIELDS(IQ_X)
#undef IQ_X
    INFO_COUNT
};

// -- Handles

#define MAX_SLOTS 65535
typedef struct slot {
    iq_model *model;
    uint32_t generation;
} slot;
static slot *slots;
static uint32_t slot_count;
static iq_error last_error;

static iq_model *lookup(uint32_t handle) {
    uint32_t index = (handle & 0xFFFF) - 1, generation = handle >> 16;
    if (index >= slot_count || !slots[index].model || slots[index].generation != generation) return NULL;
    return slots[index].model;
}

static uint32_t fail(iq_error_code code, const char *message) {
    return (uint32_t)iqi_set_error(&last_error, code, "%s", message);
}

IQ_EXPORT uint32_t iq_wasm_info_field_count(void) { return INFO_COUNT; }

IQ_EXPORT void *iq_wasm_alloc(uint32_t size) { return malloc(size ? size : 1); }
IQ_EXPORT void iq_wasm_free(void *p) { free(p); }

/* Loads a model; returns its handle, or 0 with the error kept for the
 * iq_wasm_error_* calls. `format` is an iq_format (0 = from the magic). */
IQ_EXPORT uint32_t iq_wasm_load(const void *data, uint32_t size, uint32_t format) {
    iq_load_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.format = (iq_format)format;
    iq_model *m = iq_load_memory(data, size, &opts, &last_error);
    if (!m) return 0;
    uint32_t index = 0;
    while (index < slot_count && slots[index].model) index++;
    if (index == slot_count) {
        if (slot_count == MAX_SLOTS) {
            iq_free(m);
            return fail(IQ_ERROR_LIMIT, "65535 models are open; dispose some first");
        }
        uint32_t grown = slot_count ? slot_count * 2 : 16;
        if (grown > MAX_SLOTS) grown = MAX_SLOTS;
        slot *s = realloc(slots, grown * sizeof *s);
        if (!s) {
            iq_free(m);
            return fail(IQ_ERROR_OUT_OF_MEMORY, "out of memory for the model table");
        }
        memset(s + slot_count, 0, (grown - slot_count) * sizeof *s);
        slots = s;
        slot_count = grown;
    }
    slots[index].model = m;
    slots[index].generation = (slots[index].generation + 1) & 0x7FFF;
    if (slots[index].generation == 0) slots[index].generation = 1;
    return (slots[index].generation << 16) | (index + 1);
}

IQ_EXPORT uint32_t iq_wasm_error_code(void) { return last_error.code; }
IQ_EXPORT double iq_wasm_error_offset(void) { return (double)last_error.offset; }
IQ_EXPORT uint32_t iq_wasm_error_line(void) { return last_error.line; }
IQ_EXPORT uint32_t iq_wasm_error_column(void) { return last_error.column; }
IQ_EXPORT const char *iq_wasm_error_message(void) { return last_error.message; }
IQ_EXPORT const char *iq_wasm_error_name(uint32_t code) { return iq_error_name((iq_error_code)code); }
IQ_EXPORT const char *iq_wasm_warning_name(uint32_t code) { return iq_warning_name((iq_warning_code)code); }

/* Returns 0, or 1 when the handle is not a live model. */
IQ_EXPORT uint32_t iq_wasm_dispose(uint32_t handle) {
    iq_model *m = lookup(handle);
    if (!m) return 1;
    iq_free(m);
    slots[(handle & 0xFFFF) - 1].model = NULL;
    return 0;
}

/* Fills out[INFO_COUNT] with counts and heap addresses. Returns 0 or 1 (bad handle). */
IQ_EXPORT uint32_t iq_wasm_model_info(uint32_t handle, uint32_t *out) {
    iq_model *m = lookup(handle);
    if (!m) return 1;
#define PTR(p) (uint32_t)(uintptr_t)(p)
    out[INFO_format] = m->format;
    out[INFO_vertex_count] = m->vertex_count;
    out[INFO_triangle_count] = m->triangle_count;
    out[INFO_mesh_count] = m->mesh_count;
    out[INFO_joint_count] = m->joint_count;
    out[INFO_frame_count] = m->frame_count;
    out[INFO_animation_count] = m->animation_count;
    out[INFO_custom_array_count] = m->custom_array_count;
    out[INFO_extension_count] = m->extension_count;
    out[INFO_warning_count] = m->warning_count < IQ_MAX_WARNINGS ? m->warning_count : IQ_MAX_WARNINGS;
    out[INFO_positions] = PTR(m->positions);
    out[INFO_normals] = PTR(m->normals);
    out[INFO_texcoords] = PTR(m->texcoords);
    out[INFO_tangents] = PTR(m->tangents);
    out[INFO_colors] = PTR(m->colors);
    out[INFO_blend_indices] = PTR(m->blend_indices);
    out[INFO_blend_weights] = PTR(m->blend_weights);
    out[INFO_indices] = PTR(m->indices);
    out[INFO_adjacency] = PTR(m->adjacency);
    out[INFO_meshes] = PTR(m->meshes);
    out[INFO_joints] = PTR(m->joints);
    out[INFO_inverse_bind] = PTR(m->inverse_bind);
    out[INFO_frame_poses] = PTR(m->frame_poses);
    out[INFO_animations] = PTR(m->animations);
    out[INFO_frame_bounds] = PTR(m->frame_bounds);
    out[INFO_custom_arrays] = PTR(m->custom_arrays);
    out[INFO_extensions] = PTR(m->extensions);
    out[INFO_comment] = PTR(m->comment);
    out[INFO_comment_size] = m->comment_size;
    out[INFO_warnings] = PTR(m->warnings);
    out[INFO_skinned_positions] = PTR(m->skinned_positions);
    out[INFO_skinned_normals] = PTR(m->skinned_normals);
    out[INFO_skinned_tangents] = PTR(m->skinned_tangents);
    out[INFO_skin_matrices] = PTR(m->skin_matrices);
    out[INFO_world_matrices] = PTR(m->world_matrices);
    out[INFO_local_poses] = PTR(m->local_poses);
    out[INFO_bounds] = PTR(&m->bounds);
#undef PTR
    return 0;
}

/* Skins the model at a fractional global frame into its skinned_* buffers. */
IQ_EXPORT uint32_t iq_wasm_evaluate(uint32_t handle, float frame) {
    iq_model *m = lookup(handle);
    if (!m) return IQ_ERROR_INVALID_ARGUMENT;
    return (uint32_t)iq_evaluate(m, frame);
}

/* Bytes held by live models (their arenas), for leak tests. */
IQ_EXPORT double iq_wasm_live_bytes(void) {
    double total = 0;
    for (uint32_t i = 0; i < slot_count; i++)
        if (slots[i].model) total += (double)((iqi_arena *)slots[i].model->internal)->used;
    return total;
}

// -- Animator (issue 3): playback in time, crossfades, joint queries, attaching animations

/* Results JS reads after a call: the playhead of the last iq_wasm_pose /
 * iq_wasm_playhead and the matrix of the last iq_wasm_joint_matrix. */
static iq_playhead anim_head;
static float anim_matrix[16];

#if defined(__wasm32__)
_Static_assert(sizeof(iq_playhead) == 40 && offsetof(iq_playhead, duration) == 16 && offsetof(iq_playhead, loops) == 24,
               "JS reads iq_playhead as u32 a, u32 b, f32 blend, f32 position, f64 duration, i32 loops, u32 finished, u32 frames");
#endif

/* Heap addresses JS reads the animator's results from: [playhead, joint matrix]. */
IQ_EXPORT void iq_wasm_anim_scratch(uint32_t *out) {
    out[0] = (uint32_t)(uintptr_t)&anim_head;
    out[1] = (uint32_t)(uintptr_t)anim_matrix;
}

/* Heap address of the column-major 4x4 skin matrices (0 without joints). */
IQ_EXPORT uint32_t iq_wasm_skin_matrices_4x4(uint32_t handle) {
    iq_model *m = lookup(handle);
    return m ? (uint32_t)(uintptr_t)m->skin_matrices_4x4 : 0;
}

static iq_play make_play(uint32_t animation, double time, uint32_t loop, double framerate, double speed, uint32_t flags) {
    iq_play p;
    memset(&p, 0, sizeof p);
    p.animation = animation;
    p.time = time;
    p.opts.loop = (iq_loop_mode)loop;
    p.opts.framerate = framerate;
    p.opts.speed = speed;
    p.opts.flags = flags;
    return p;
}

IQ_EXPORT uint32_t iq_wasm_playhead(uint32_t handle, uint32_t animation, double time, uint32_t loop, double framerate,
                                    double speed, uint32_t flags) {
    iq_model *m = lookup(handle);
    if (!m) return IQ_ERROR_INVALID_ARGUMENT;
    iq_play p = make_play(animation, time, loop, framerate, speed, flags);
    return (uint32_t)iq_playhead_at(m, animation, time, &p.opts, &anim_head);
}

/* Poses the model at an animation and time, crossfaded toward a second one
 * when animation2 >= 0; skins the vertices when skin != 0. */
IQ_EXPORT uint32_t iq_wasm_pose(uint32_t handle, uint32_t animation, double time, uint32_t loop, double framerate,
                                double speed, uint32_t flags, int32_t animation2, double time2, uint32_t loop2,
                                double framerate2, double speed2, uint32_t flags2, float weight, uint32_t skin) {
    iq_model *m = lookup(handle);
    if (!m) return IQ_ERROR_INVALID_ARGUMENT;
    iq_play a = make_play(animation, time, loop, framerate, speed, flags);
    iq_play b = make_play((uint32_t)animation2, time2, loop2, framerate2, speed2, flags2);
    return (uint32_t)iq_pose_model(m, &a, animation2 >= 0 ? &b : NULL, weight, skin != 0, &anim_head);
}

/* A joint's column-major model-space matrix into the scratch matrix; with
 * animation < 0, the joint in the last pose. */
IQ_EXPORT uint32_t iq_wasm_joint_matrix(uint32_t handle, uint32_t joint, int32_t animation, double time, uint32_t loop,
                                        double framerate, double speed, uint32_t flags, int32_t animation2, double time2,
                                        uint32_t loop2, double framerate2, double speed2, uint32_t flags2, float weight) {
    iq_model *m = lookup(handle);
    if (!m) return IQ_ERROR_INVALID_ARGUMENT;
    iq_play a = make_play((uint32_t)animation, time, loop, framerate, speed, flags);
    iq_play b = make_play((uint32_t)animation2, time2, loop2, framerate2, speed2, flags2);
    return (uint32_t)iq_joint_matrix(m, joint, animation >= 0 ? &a : NULL, animation2 >= 0 ? &b : NULL, weight,
                                     anim_matrix);
}

/* Appends the animations of `source` to `handle`'s model; on failure the
 * error is kept for the iq_wasm_error_* calls. */
IQ_EXPORT uint32_t iq_wasm_attach_animations(uint32_t handle, uint32_t source) {
    iq_model *m = lookup(handle), *src = lookup(source);
    if (!m || !src) {
        fail(IQ_ERROR_INVALID_ARGUMENT, "the model or the animation source is not a live model");
        return IQ_ERROR_INVALID_ARGUMENT;
    }
    return (uint32_t)iq_attach_animations(m, src, &last_error);
}

/* CPU skinning alone with the current skin matrices (for the benchmark and
 * for callers who pose once and skin later). */
IQ_EXPORT uint32_t iq_wasm_skin(uint32_t handle) {
    iq_model *m = lookup(handle);
    if (!m) return IQ_ERROR_INVALID_ARGUMENT;
    iq_skin_vertices(m);
    return 0;
}

// -- IQM writer (issue 4)

/* Writes a model as IQM v2 bytes: returns a heap buffer (free it with
 * iq_wasm_free) and its size in *size_out, or 0 with the error kept for the
 * iq_wasm_error_* calls. */
IQ_EXPORT uint8_t *iq_wasm_write_iqm(uint32_t handle, uint32_t *size_out) {
    iq_model *m = lookup(handle);
    *size_out = 0;
    if (!m) {
        fail(IQ_ERROR_INVALID_ARGUMENT, "not a live model");
        return NULL;
    }
    size_t size = 0;
    uint8_t *bytes = iq_write_iqm(m, &size, &last_error);
    if (bytes && size > UINT32_MAX) {
        free(bytes);
        fail(IQ_ERROR_LIMIT, "the IQM file would not fit in 32-bit memory");
        return NULL;
    }
    *size_out = (uint32_t)size;
    return bytes;
}

// -- Vertex animation, tags and shaders (MD3), and images (TGA)

#if defined(__wasm32__)
_Static_assert(sizeof(iq_frame_info) == 16 && offsetof(iq_frame_info, local_origin) == 4, "JS reads iq_frame_info");
_Static_assert(sizeof(iq_shader) == 12 && offsetof(iq_shader, mesh) == 8, "JS reads iq_shader");
_Static_assert(sizeof(iq_image) == 16 && offsetof(iq_image, data) == 8, "JS reads iq_image");
#endif

/* The uint32 words iq_wasm_morph_info writes (MORPH_INFO_FIELDS in web/interquake.js). */
#define IQ_MORPH_INFO_FIELDS(X) \
    X(frame_positions) X(frame_normals) X(frame_info) X(tag_count) X(tag_names) X(tag_transforms) \
    X(shader_count) X(shaders)

enum {
#define IQ_X(name) MORPH_INFO_##name,
    IQ_MORPH_INFO_FIELDS(IQ_X)
#undef IQ_X
    MORPH_INFO_COUNT
};

IQ_EXPORT uint32_t iq_wasm_morph_info_field_count(void) { return MORPH_INFO_COUNT; }

/* Fills out[MORPH_INFO_COUNT]. Returns 0 or 1 (bad handle). */
IQ_EXPORT uint32_t iq_wasm_morph_info(uint32_t handle, uint32_t *out) {
    iq_model *m = lookup(handle);
    if (!m) return 1;
#define IQ_X(name) out[MORPH_INFO_##name] = (uint32_t)(uintptr_t)(m->name);
    IQ_MORPH_INFO_FIELDS(IQ_X)
#undef IQ_X
    return 0;
}

/* Writes the column-major 4x4 placement of tag or joint `name` at `frame`
 * into out[16]. Returns 1 when found, 0 when not, 2 for a bad handle. */
IQ_EXPORT uint32_t iq_wasm_tag_matrix(uint32_t handle, const char *name, float frame, float *out) {
    iq_model *m = lookup(handle);
    if (!m) return 2;
    return (uint32_t)iq_tag_matrix(m, name, frame, out);
}

/* Decodes a TGA; returns the image (free with iq_wasm_image_free), or 0 with
 * the error kept for the iq_wasm_error_* calls. */
IQ_EXPORT iq_image *iq_wasm_decode_tga(const void *data, uint32_t size) {
    return iq_decode_tga(data, size, NULL, &last_error);
}

IQ_EXPORT void iq_wasm_image_free(iq_image *image) { iq_image_free(image); }

// -- Quake 3 companion files and zip archives (src/iq_quake3.h)

#include "iq_quake3.h"

#if defined(__wasm32__)
_Static_assert(sizeof(iq_q3_animation) == 32, "JS reads iq_q3_animation as 8 words");
_Static_assert(offsetof(iq_q3_config, table_entries) == 32 * IQ_Q3_ANIMATION_COUNT &&
               offsetof(iq_q3_config, warning) == 32 * IQ_Q3_ANIMATION_COUNT + 40, "JS reads iq_q3_config");
_Static_assert(offsetof(iq_skin, surfaces) == 168 && sizeof(iq_skin_surface) == 324, "JS reads iq_skin");
_Static_assert(sizeof(iq_zip_entry) == 32 && offsetof(iq_zip_entry, method) == 24 && offsetof(iq_zip_entry, local_offset) == 28,
               "JS reads iq_zip_entry");
_Static_assert(offsetof(iq_zip, entries) == 4 && offsetof(iq_zip, total_size) == 8 && offsetof(iq_zip, warning) == 20,
               "JS reads iq_zip");
_Static_assert(offsetof(iq_zip_directory, offset) == 8 && offsetof(iq_zip_directory, size) == 16 &&
               offsetof(iq_zip_directory, entry_count) == 32, "JS reads iq_zip_directory");
#endif

static iq_q3_config q3_config_result;
static iq_skin q3_skin_result;

IQ_EXPORT uint32_t iq_wasm_q3_animation_count(void) { return IQ_Q3_ANIMATION_COUNT; }
IQ_EXPORT const char *iq_wasm_q3_animation_name(uint32_t id) { return iq_q3_animation_name(id); }

/* Parses animation.cfg into a result that stays valid until the next call;
 * returns its address, or 0 with the error kept for iq_wasm_error_*. */
IQ_EXPORT iq_q3_config *iq_wasm_parse_animation_cfg(const void *text, uint32_t size) {
    return iq_q3_parse_animation_cfg(text, size, &q3_config_result, &last_error) ? &q3_config_result : NULL;
}

/* Parses a .skin file; same contract as iq_wasm_parse_animation_cfg. */
IQ_EXPORT iq_skin *iq_wasm_parse_skin(const void *text, uint32_t size) {
    return iq_q3_parse_skin(text, size, &q3_skin_result, &last_error) ? &q3_skin_result : NULL;
}

/* A zip archive is read in the three steps of iq_quake3.h, so that only its
 * end, its directory and its local headers are copied into the heap. Zero
 * limits take the defaults of iq_zip_limits. */
static iq_zip_directory zip_directory_result;

static iq_zip_limits zip_limits(double max_total_size, uint32_t max_entries, uint32_t max_name_length, uint32_t max_ratio) {
    iq_zip_limits limits;
    limits.max_entries = max_entries;
    limits.max_name_length = max_name_length;
    limits.max_total_size = max_total_size > 0 && max_total_size < 1.8e19 ? (uint64_t)max_total_size : 0;
    limits.max_ratio = max_ratio;
    return limits;
}

/* Step 1: returns the directory's description (valid until the next call), or 0. */
IQ_EXPORT iq_zip_directory *iq_wasm_zip_find_directory(const void *tail, uint32_t tail_size, double archive_size,
                                                       double max_total_size, uint32_t max_entries,
                                                       uint32_t max_name_length, uint32_t max_ratio) {
    iq_zip_limits limits = zip_limits(max_total_size, max_entries, max_name_length, max_ratio);
    if (!(archive_size >= 0 && archive_size < 1.8e19)) archive_size = 0;
    return iq_zip_find_directory(tail, tail_size, (uint64_t)archive_size, &limits, &zip_directory_result, &last_error)
               ? &zip_directory_result : NULL;
}

/* Step 2: the entries (free with iq_wasm_zip_free), or 0. */
IQ_EXPORT iq_zip *iq_wasm_zip_read_directory(const void *directory, const iq_zip_directory *dir, double max_total_size,
                                             uint32_t max_entries, uint32_t max_name_length, uint32_t max_ratio) {
    iq_zip_limits limits = zip_limits(max_total_size, max_entries, max_name_length, max_ratio);
    return iq_zip_read_directory(directory, dir, &limits, &last_error);
}

/* Step 3: 1 when every local header checks out (data offsets set), else 0. */
IQ_EXPORT uint32_t iq_wasm_zip_check_local_headers(iq_zip *zip, const void *headers, uint32_t size) {
    return (uint32_t)iq_zip_check_local_headers(zip, headers, size, &last_error);
}
IQ_EXPORT void iq_wasm_zip_free(iq_zip *zip) { iq_zip_free(zip); }
/* iq_tag_matrix by index (tags, then joints): JS decodes names itself and looks them up. 1 found, 0 not, 2 bad handle. */
IQ_EXPORT uint32_t iq_wasm_tag_matrix_at(uint32_t handle, uint32_t index, float frame, float *out) { iq_model *m = lookup(handle); return m ? (uint32_t)iq_tag_matrix_at(m, index, frame, out) : 2; }
