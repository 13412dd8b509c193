/* interquake: loads and animates IQM v2, IQE and MD3 models.
 *
 * Quick start
 *     iq_error err;
 *     iq_model *m = iq_load_memory(bytes, size, NULL, &err);   // NULL opts = defaults
 *     if (!m) { char msg[320]; iq_format_error(msg, sizeof msg, &err); ... }
 *     ... read m->positions, m->indices, m->joints ...          // plain data
 *     iq_free(m);                                               // one call frees everything
 *
 * Trust: every loader is written for untrusted input. It never reads outside
 * the buffer it is given, never allocates more than iq_limits allows, and
 * either returns a complete, validated model or NULL with an error. Every
 * index in a returned model is in range (indices < vertex_count, blend indices
 * < joint_count, parent < own index), every float array is finite, and
 * every number the API computes from an accepted model (evaluated vertices,
 * poses, joint, skin and tag matrices, bounds) is finite too: values beyond
 * iq_limits.max_magnitude are refused at load, and so is a skeleton whose
 * composed transforms could pass IQ_MAX_REACH (src/base/iq_numbers.c).
 *
 * Results: every call that can fail returns an iq_error_code (IQ_ERROR_NONE,
 * 0, on success), as cgltf_result; calls that make something (a model, an
 * instance, an image, bytes) return it, or NULL with *error filled. Calls
 * that take an iq_error * fill it too (NULL is fine).
 *
 * Conventions (see README): Z up, clockwise front faces, UV origin top-left,
 * row-vector transform order output = (input*scale)*rotation + translation,
 * quaternions x,y,z,w.
 */
#ifndef INTERQUAKE_H
#define INTERQUAKE_H

#include <stddef.h>
#include <stdint.h>
#include "base/iq_errors.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IQ_VERSION_MAJOR 0
#define IQ_VERSION_MINOR 1
#define IQ_VERSION_PATCH 0

typedef enum iq_error_code {
#define IQ_X(name, code, text) IQ_ERROR_##name,
    IQ_ERROR_LIST(IQ_X)
#undef IQ_X
    IQ_ERROR_COUNT
} iq_error_code;

typedef enum iq_warning_code {
#define IQ_X(name, code, text) IQ_WARNING_##name,
    IQ_WARNING_LIST(IQ_X)
#undef IQ_X
    IQ_WARNING_COUNT
} iq_warning_code;

typedef enum iq_format {
    IQ_FORMAT_AUTO = 0, IQ_FORMAT_IQM, IQ_FORMAT_IQE, IQ_FORMAT_MD3,
    IQ_FORMAT_MD5, /* Doom 3's .md5mesh and .md5anim (docs/MD5.md) */
    IQ_FORMAT_DPM, /* DarkPlaces (docs/DARKPLACES.md) */
    IQ_FORMAT_ZYM, /* DarkPlaces (docs/DARKPLACES.md) */
    IQ_FORMAT_MDR, /* ioquake3's skeletal format (docs/MDR.md) */
    IQ_FORMAT_MD2, /* Quake 2 */
    IQ_FORMAT_MDL, /* Quake 1 */
    IQ_FORMAT_MDC, /* Return to Castle Wolfenstein, Enemy Territory */
    IQ_FORMAT_COUNT
} iq_format;

/* What went wrong, where. offset is a byte offset into the input (-1 when it
 * does not apply); line/column are 1-based for text formats (0 otherwise). */
typedef struct iq_error {
    iq_error_code code;
    int64_t offset;
    uint32_t line, column;
    char message[256];
} iq_error;

/* Limits on what one load may produce. A zero field means "the default". */
typedef struct iq_limits {
    size_t max_memory;        /* bytes the model may occupy; default 512 MiB */
    size_t memory_per_input_byte; /* the model may use at most fixed_allowance + this * input size; default 64 */
    size_t fixed_allowance;   /* default 16 MiB: what even a tiny file may decode to */
    uint32_t max_joints;      /* default 4096 */
    uint32_t max_frames;      /* default 1,000,000 */
    /* The largest magnitude a position, joint or frame translate/scale, MD3
     * tag or bound may have; default IQ_DEFAULT_MAX_MAGNITUDE (1e6), at most
     * IQ_MAX_REACH. Beyond it a load fails with 'bad_value'; optional vertex
     * data beyond it (or not finite) is repaired with a warning (README). */
    double max_magnitude;
} iq_limits;

/* 1e6: Quake-unit models span hundreds of units (MD3 vertices cannot pass
 * 512), the largest corpus IQM/IQE values are in the hundreds, and a whole
 * Quake map (+-65536) in centimetres still fits. */
#define IQ_DEFAULT_MAX_MAGNITUDE 1e6
/* What any composed quantity (a joint's world or skin matrix over every
 * frame, a skinned position) may reach: far from real files, far enough
 * below FLT_MAX (3.4e38) that the products skinning takes stay finite. */
#define IQ_MAX_REACH 1e30

typedef struct iq_load_opts {
    iq_format format;         /* IQ_FORMAT_AUTO: from the magic bytes */
    iq_limits limits;
    /* The file's name or path (NULL: none), for what a format names after its
     * file: an .md5anim's one animation takes the base name without extension. */
    const char *name;
} iq_load_opts;

typedef struct iq_mesh {
    const char *name, *material;
    uint32_t first_vertex, vertex_count;
    uint32_t first_triangle, triangle_count;
} iq_mesh;

/* A local transform: p' = rotate(scale * p) + translate. */
typedef struct iq_transform {
    float translate[3];
    float rotate[4];          /* unit quaternion x, y, z, w */
    float scale[3];
} iq_transform;

typedef struct iq_joint {
    const char *name;
    int32_t parent;           /* -1 for roots, otherwise < this joint's index */
    iq_transform bind;        /* bind pose, relative to the parent */
} iq_joint;

#define IQ_ANIMATION_LOOP 1u
typedef struct iq_animation {
    const char *name;
    uint32_t first_frame, frame_count;
    float framerate;          /* frames per second; 0 = the file does not say */
    uint32_t flags;           /* IQ_ANIMATION_LOOP */
} iq_animation;

typedef struct iq_bounds {
    float min[3], max[3];
    float xy_radius, radius;
} iq_bounds;

/* IQM vertex array component formats, as numbered by the spec. */
typedef enum iq_component {
    IQ_BYTE = 0, IQ_UBYTE, IQ_SHORT, IQ_USHORT, IQ_INT, IQ_UINT, IQ_HALF, IQ_FLOAT, IQ_DOUBLE
} iq_component;

/* A vertex array the loader keeps as it is in the file (custom types). */
typedef struct iq_custom_array {
    const char *name;
    uint32_t type;            /* the raw IQM type value */
    iq_component format;
    uint32_t size;            /* components per vertex, 1..4 */
    const void *data;         /* vertex_count * size values of `format`, little-endian */
} iq_custom_array;

typedef struct iq_extension {
    const char *name;
    uint32_t size;
    const uint8_t *data;
} iq_extension;

typedef struct iq_warning {
    iq_warning_code code;
    char message[160];
} iq_warning;

/* Per-frame metadata of vertex-animated (MD3) models; the frame's box and
 * radius are in iq_model.frame_bounds. */
typedef struct iq_frame_info {
    const char *name;
    float local_origin[3];
    float interval;           /* MDL frame groups: when this frame ends, in seconds from the group's start (as stored); else 0 */
} iq_frame_info;

/* A picture the model file embeds (Quake 1 MDL skins), decoded to RGBA8. */
typedef struct iq_model_image {
    const char *name;         /* "skin0"; "skin1_2" for picture 2 of skin group 1 */
    uint32_t width, height;
    const uint8_t *data;      /* width * height * 4 bytes, RGBA, top row first */
    uint32_t skin;            /* the skin it belongs to (a group's pictures share one) */
    float interval;           /* skin groups: when the picture ends, in seconds from the group's start (as stored); else 0 */
} iq_model_image;

/* One shader name of an MD3 surface (a surface may list several). */
typedef struct iq_shader {
    const char *name;         /* as in the file: case, backslashes and extension kept */
    int32_t index;            /* the file's shader index field */
    uint32_t mesh;            /* the mesh (surface) it belongs to */
} iq_shader;

typedef struct iq_model {
    iq_format format;
    uint32_t vertex_count, triangle_count, mesh_count, joint_count;
    uint32_t frame_count, animation_count, custom_array_count, extension_count;
    uint32_t warning_count;

    /* Canonical vertex arrays, whatever the file stored; NULL when absent. */
    float *positions;          /* vertex_count * 3 */
    float *normals;            /* vertex_count * 3 */
    float *texcoords;          /* vertex_count * 2 */
    float *tangents;           /* vertex_count * 4, w = bitangent sign */
    float *colors;             /* vertex_count * 4, RGBA in 0..1 */
    uint16_t *blend_indices;   /* vertex_count * 4, each < joint_count */
    float *blend_weights;      /* vertex_count * 4, each >= 0, summing to 1 */
    uint32_t *indices;         /* triangle_count * 3, each < vertex_count */
    uint32_t *adjacency;       /* triangle_count * 3, triangle index or 0xFFFFFFFF; NULL when absent */

    iq_mesh *meshes;
    iq_joint *joints;
    float *inverse_bind;       /* joint_count * 12: row-major 3x4 inverse of each joint's bind world matrix */
    iq_transform *frame_poses; /* frame_count * joint_count local poses, decoded at load */
    iq_animation *animations;
    iq_bounds *frame_bounds;   /* frame_count entries, or NULL */
    iq_bounds bounds;          /* of the bind-pose positions */
    iq_custom_array *custom_arrays;
    iq_extension *extensions;
    const uint8_t *comment;    /* comment_size bytes, not NUL-terminated */
    uint32_t comment_size;
    iq_warning *warnings;      /* at most IQ_MAX_WARNINGS kept; warning_count may be larger */

    void *internal;            /* owned memory; do not touch */
    struct iqi_animator *animator; /* the animator's load-time tables (influence sets); do not touch */
    /* The model's own evaluation state, used by iq_evaluate / iq_pose_model;
     * more can be made with iq_instance_create. Allocated at load, so JS views
     * of it never see an allocation on the animation path. */
    struct iq_instance *instance;

    /* Vertex (morph) animation, MD3: every frame's vertices, decoded once at
     * load. positions/normals point at frame 0 of these. NULL otherwise. */
    float *frame_positions;    /* frame_count * vertex_count * 3 */
    float *frame_normals;      /* frame_count * vertex_count * 3, unit length */
    iq_frame_info *frame_info; /* frame_count entries */
    /* Tags: named attachment points placed per frame (MD3). */
    uint32_t tag_count;
    const char **tag_names;    /* tag_count names in file order; names may repeat */
    float *tag_transforms;     /* frame_count * tag_count row-major 3x4 as in the file:
                                * columns 0..2 = the tag's x, y, z axes, column 3 = origin */
    uint32_t shader_count;
    iq_shader *shaders;        /* every surface's shaders (MD2, MDL: the skins), grouped by mesh in file order */
    /* Pictures the file embeds (MDL skins), decoded; each skin's first picture names a mesh shader. */
    uint32_t image_count;
    iq_model_image *images;
} iq_model;

/* Evaluation state: what posing a model writes. The model itself is not
 * changed by posing, so one model can be posed several ways at once, one
 * instance each. Every buffer is allocated when the instance is made. */
typedef struct iq_instance {
    const iq_model *model;
    float *skinned_positions;  /* vertex_count * 3 (NULL without vertices) */
    float *skinned_normals;    /* vertex_count * 3, NULL when the model has no normals */
    float *skinned_tangents;   /* vertex_count * 4, NULL when the model has no tangents */
    float *skin_matrices;      /* joint_count * 12, row-major 3x4 world * inverse bind */
    float *skin_matrices_4x4;  /* joint_count * 16: the same as column-major 4x4 */
    float *world_matrices;     /* joint_count * 12, row-major 3x4 model-space joint matrices */
    iq_transform *local_poses; /* joint_count local poses of the last pose */
    /* private scratch */
    iq_transform *fade_pose;   /* joint_count: the second pose of a crossfade */
    float *set_matrices;       /* the influence sets' blended matrices */
    uint32_t owned;            /* 1: made by iq_instance_create (iq_instance_free frees it) */
} iq_instance;

/* An image decoded to RGBA8. */
typedef struct iq_image {
    uint32_t width, height;
    uint8_t *data;             /* width * height * 4 bytes, RGBA, top row first */
    void *internal;            /* owned memory; do not touch */
} iq_image;

/* The largest width or height iq_decode_tga accepts. */
#define IQ_TGA_MAX_DIMENSION 16384
/* The clip rate MD3 models get: the file stores none. */
#define IQ_MD3_DEFAULT_FRAMERATE 15.0f

#define IQ_MAX_WARNINGS 32

/* Loads a model from memory. Returns NULL on failure and fills *error when
 * error is not NULL. The input buffer is not referenced after the call. */
iq_model *iq_load_memory(const void *data, size_t size, const iq_load_opts *opts, iq_error *error);

/* The format the first bytes name (IQ_FORMAT_AUTO for none), whether or not this build reads it. */
iq_format iq_detect_format(const void *data, size_t size);
/* 1 when this build reads the format. A build may leave readers out: the one-file element's WASM
 * reads IQM, IQE and MD3, and interquake-readers.wasm the rest (build.sh, ON_DEMAND_SOURCES). */
int iq_format_readable(iq_format format);
/* The format's lower-case name ("md2"), or "unknown". */
const char *iq_format_name(iq_format format);

/* Names a model's animations from DarkPlaces' .framegroups text ("first count [fps [loop
 * [name]]]" per line; docs/API-md2.md): they replace the model's own. Returns IQ_ERROR_NONE or a code
 * (a model without frames: IQ_ERROR_BAD_ANIMATION); lines it skips or clamps are warnings on the
 * model. Text with no group leaves the animations as they are, with an 'empty' warning. */
iq_error_code iq_apply_framegroups(iq_model *model, const char *text, size_t size, iq_error *error);

/* Frees a model and everything it owns. NULL is fine. */
void iq_free(iq_model *model);

/* Poses the mesh at a (fractional) global frame: frame 2.25 is a quarter of
 * the way from frame 2 to frame 3. Frames outside 0..frame_count-1 are
 * clamped (looping is the animator's business). With no frames, the bind pose.
 * Fills the instance's skin matrices and skinned_* arrays (normals and
 * tangents only when the model has them). iq_evaluate uses the model's own
 * instance (model->instance). Returns 0, or an error code for a bad argument. */
iq_error_code iq_evaluate(iq_model *model, float frame);
iq_error_code iq_instance_evaluate(iq_instance *instance, float frame);

/* Morph (MD3) between any two frames: positions and normals lerped from
 * frame_a toward frame_b by t (clamped to 0..1), normals renormalised, into the skinned_*
 * arrays, as iq_instance_evaluate does between neighbours (for what a renderer
 * draws across a loop seam or a crossfade). Returns IQ_ERROR_INVALID_ARGUMENT
 * for a model without frames, a frame out of range or t not finite. */
iq_error_code iq_instance_morph(iq_instance *instance, uint32_t frame_a, uint32_t frame_b, float t);

/* Makes a new evaluation state for `model`, in the bind pose (an MD3 in its
 * first frame). It refers to the model, which must outlive it; attaching
 * animations to the model later is fine. NULL with *error filled when memory
 * runs out. Free with iq_instance_free. */
iq_instance *iq_instance_create(const iq_model *model, iq_error *error);
/* Frees an instance made by iq_instance_create; NULL and model->instance are ignored. */
void iq_instance_free(iq_instance *instance);

/* Computes the local poses at a fractional frame into out (joint_count entries). */
void iq_sample_frame(const iq_model *model, float frame, iq_transform *out);

/* From local poses to the instance's world matrices and skin matrices (world
 * * inverse bind, 3x4 and 4x4). locals may be instance->local_poses. */
void iq_compute_skin_matrices(iq_instance *instance, const iq_transform *locals);

/* Skins positions/normals/tangents with the instance's skin matrices into its skinned_*. */
void iq_skin_vertices(iq_instance *instance);

/* -- Playback in time (see docs/API-anim.md)
 *
 * An animation plays its frames first_frame .. first_frame+frame_count-1 at a
 * framerate. Time is in seconds from the start of playback. */

typedef enum iq_loop_mode {
    IQ_LOOP_AUTO = 0,  /* IQ_LOOP_REPEAT when the animation has IQ_ANIMATION_LOOP, else IQ_LOOP_ONCE */
    IQ_LOOP_REPEAT,    /* period frame_count / fps: the last frame blends back into the first (when the
                        * last frame equals the first, as Blender exports loops, (frame_count-1) / fps) */
    IQ_LOOP_ONCE,      /* (frame_count-1) / fps long, then holds the last frame */
    IQ_LOOP_PINGPONG   /* forward then backward, period 2 * (frame_count-1) / fps */
} iq_loop_mode;

/* The framerate used when neither the caller nor the file gives one (IQM
 * framerate 0): 24 fps, the rate of the IQM SDK's own demo model and of
 * Blender's film preset that most IQM exports come from. */
#define IQ_DEFAULT_FRAMERATE 24.0

#define IQ_PLAY_STEPPED 1u  /* no interpolation: show whole frames only */
/* Rotations: by default shortest-path nlerp between rotations up to 10 degrees
 * apart (indistinguishable from slerp there, and faster) and slerp beyond. */
#define IQ_PLAY_SLERP 2u    /* always slerp */
#define IQ_PLAY_NLERP 4u    /* always nlerp (fastest; up to ~1 degree off for 90-degree steps) */

/* An all-zero iq_play_opts means the defaults. */
typedef struct iq_play_opts {
    iq_loop_mode loop;
    double framerate;  /* frames per second; 0 = the animation's own, or IQ_DEFAULT_FRAMERATE */
    double speed;      /* time multiplier; negative plays backwards starting from the end; 0 = 1 */
    uint32_t flags;    /* IQ_PLAY_* */
} iq_play_opts;

/* Where an animation is at a time: blend frame_a toward frame_b by `blend`. */
typedef struct iq_playhead {
    uint32_t frame_a, frame_b; /* global frame indices (first_frame + local) */
    double blend;              /* 0..1; always 0 when stepped (double: exact for Quake 3's millisecond steps) */
    float position;            /* fractional frame within the animation, 0..frame_count */
    double duration;           /* seconds of one pass (once) or one period (repeat, pingpong) at this speed */
    int32_t loops;             /* completed periods (repeat, pingpong); negative before time 0; 0 for once */
    uint32_t finished;         /* once: the end has been reached and is held (1), else 0 */
    uint32_t frame_count;      /* frames of the animation; 0 means it is empty (bind pose) */
} iq_playhead;

/* Time to frames. Returns 0 or IQ_ERROR_INVALID_ARGUMENT (bad index, time not finite). */
iq_error_code iq_playhead_at(const iq_model *model, uint32_t animation, double time, const iq_play_opts *opts, iq_playhead *out);

/* The same for any clip: `clip` names frames first_frame .. +frame_count-1,
 * a framerate (0 = IQ_DEFAULT_FRAMERATE) and IQ_ANIMATION_LOOP; its name is
 * not read. With a model, the clip must lie inside its frames, and a repeating
 * clip whose last pose equals its first wraps past the duplicate (as
 * iq_playhead_at does); model may be NULL (raw frame ranges, e.g. an MD3
 * part without animation.cfg). */
iq_error_code iq_clip_playhead(const iq_model *model, const iq_animation *clip, double time, const iq_play_opts *opts,
                               iq_playhead *out);

/* The local poses (joint_count entries) of an animation at a time; head may be NULL. */
iq_error_code iq_sample_animation(const iq_model *model, uint32_t animation, double time, const iq_play_opts *opts,
                                  iq_transform *out, iq_playhead *head);

/* out = a blended toward b by weight (0 = a, 1 = b): translate/scale linearly,
 * rotation along the shorter arc as the IQ_PLAY_SLERP / IQ_PLAY_NLERP flags say. out may alias a. */
void iq_blend_poses(iq_transform *out, const iq_transform *a, const iq_transform *b, uint32_t count, float weight,
                    uint32_t flags);

/* One animation, optionally crossfaded with a second one. */
typedef struct iq_play {
    uint32_t animation;
    double time;
    iq_play_opts opts;
} iq_play;

/* Poses the model: samples `play` (crossfaded toward `blend` by `weight` when
 * blend is not NULL), then fills the instance's local_poses, world_matrices,
 * skin_matrices and skin_matrices_4x4; with skin_vertices != 0 also the
 * skinned_* arrays, exactly as iq_evaluate does (MD3: morphs between the
 * playheads' frames). head (may be NULL) gets the playhead of `play`.
 * iq_pose_model poses the model's own instance. */
iq_error_code iq_pose_model(iq_model *model, const iq_play *play, const iq_play *blend, float weight, int skin_vertices,
                            iq_playhead *head);
iq_error_code iq_pose_instance(iq_instance *instance, const iq_play *play, const iq_play *blend, float weight,
                               int skin_vertices, iq_playhead *head);

/* A joint's model-space matrix (column-major 4x4) at `play` (crossfaded as in
 * iq_pose_model), without touching any instance. play == NULL: the joint in
 * the last pose of the model's own instance (iq_instance_joint_matrix: of that
 * instance). Returns 0 or IQ_ERROR_INVALID_ARGUMENT. */
iq_error_code iq_joint_matrix(const iq_model *model, uint32_t joint, const iq_play *play, const iq_play *blend,
                              float weight, float out[16]);
iq_error_code iq_instance_joint_matrix(const iq_instance *instance, uint32_t joint, float out[16]);

/* Index of the joint / animation with this name, or -1. */
int32_t iq_find_joint(const iq_model *model, const char *name);
int32_t iq_find_animation(const iq_model *model, const char *name);

/* Appends the frames and animations of `source` (typically an animation-only
 * file) to `model`. Joints are matched by name when both skeletons name every
 * joint uniquely (every source joint must then exist in the model; model
 * joints the source does not move keep their bind pose, with a warning), else
 * by order (the joint counts must then be equal); otherwise
 * IQ_ERROR_SKELETON_MISMATCH. Joints whose parents differ are accepted, as
 * engines accept them: the poses are local, and the model's hierarchy poses
 * them (a 'nonstandard' warning on the model names them). The source's
 * animations get their first_frame shifted past the model's frames. Pointers
 * into model (frame_poses, animations, frame_bounds) change; source is not
 * modified. On error the model is unchanged. Returns 0 or an error code. */
iq_error_code iq_attach_animations(iq_model *model, const iq_model *source, iq_error *error);

/* The model-space placement of a tag (MD3) or joint (IQM/IQE) called `name`
 * at a fractional global frame (clamped like iq_evaluate), as a column-major
 * 4x4 matrix: out[0..2] x axis, out[4..6] y axis, out[8..10] z axis,
 * out[12..14] origin. MD3 tags are interpolated linearly and their axes
 * orthonormalised (keeping the file's handedness); a joint's matrix is its
 * world matrix, scale included. Reads nothing iq_evaluate writes and writes
 * nothing but out. Returns IQ_ERROR_NONE (0), or IQ_ERROR_INVALID_ARGUMENT
 * (out untouched) when there is no such tag or joint. With repeated names the
 * first one wins. */
iq_error_code iq_tag_matrix(const iq_model *model, const char *name, float frame, float out[16]);
/* The same by index, for callers that look names up themselves: indices
 * 0..tag_count-1 are the MD3 tags, tag_count..tag_count+joint_count-1 the
 * joints (the order iq_tag_matrix searches). iq_tag_matrix_frames places it
 * between any two global frames (clamped), blend 0..1 from frame_a to frame_b,
 * which need not be neighbours (a loop seam, a Quake 3 animation change).
 * Return IQ_ERROR_NONE, or IQ_ERROR_INVALID_ARGUMENT (out untouched) for an
 * index out of range. */
iq_error_code iq_tag_matrix_at(const iq_model *model, uint32_t index, float frame, float out[16]);
iq_error_code iq_tag_matrix_frames(const iq_model *model, uint32_t index, uint32_t frame_a, uint32_t frame_b,
                                   float blend, float out[16]);

/* Decodes a TGA (uncompressed or RLE; colour-mapped, grey, 15/16/24/32-bit
 * true colour; either origin). NULL limits = defaults (max_memory applies).
 * Returns NULL with *error filled on bad input. Free with iq_image_free. */
iq_image *iq_decode_tga(const void *data, size_t size, const iq_limits *limits, iq_error *error);
void iq_image_free(iq_image *image);

const char *iq_error_name(iq_error_code code);     /* the stable lowercase code */
const char *iq_warning_name(iq_warning_code code);
size_t iq_format_error(char *dst, size_t dst_size, const iq_error *error);

/* Serialises a model (loaded from any format) to IQM v2 bytes. Returns a
 * buffer of *size bytes that the caller frees with iq_free_bytes, or NULL
 * with *error filled. Frames are quantised to 16 bits per channel: each
 * decoded channel is within (its range over all frames) / 131070 of the
 * model's value, plus float rounding. Vertex (morph) frames are refused
 * (IQ_ERROR_UNSUPPORTED) unless they all equal frame 0: such a model (a
 * one-frame MD3) is written static, without frames or animations. See
 * docs/API-iqe.md. */
uint8_t *iq_write_iqm(const iq_model *model, size_t *size, iq_error *error);
void iq_free_bytes(void *bytes);

#ifdef __cplusplus
}
#endif
#endif
