/* What the IQE reader's files share (not part of the public API): the
 * records the parser collects in scratch arrays, and the steps after parsing.
 * iq_iqe.c parses the lines (iq_iqe_skeleton.c the joints, poses and
 * animations), iq_iqe_normals.c generates normals, iq_iqe_build.c builds the
 * model; the tokenizer and scratch arrays are the text reader's (iq_text.h). */
#ifndef IQ_IQE_INTERNAL_H
#define IQ_IQE_INTERNAL_H

#include "base/iq_internal.h"
#include "formats/iq_formats.h"
#include "formats/iq_iqm_format.h"
#include "base/iq_text.h"

/* Vertex attribute commands: vp vt vn vx vb vc vs, then v0..v9. */
enum { ATTR_VP, ATTR_VT, ATTR_VN, ATTR_VX, ATTR_VB, ATTR_VC, ATTR_VS, ATTR_V0, ATTR_COUNT = ATTR_V0 + 10 };
extern const char *const iqi_iqe_attr_names[ATTR_COUNT];

/* `vertexarray` declarations: the IQM standard types (IQM_POSITION ...,
 * iq_iqm_format.h), then custom0..custom9. */
enum { VA_CUSTOM0 = IQM_STANDARD_TYPES, VA_COUNT = VA_CUSTOM0 + 10 };
/* The IQM spec's recommended sizes, used when a type is not declared. */
extern const uint8_t iqi_iqe_default_size[VA_COUNT];

typedef struct va_decl {
    int declared;
    iq_component format;
    uint32_t size;
    const char *name; /* arena string */
} va_decl;

typedef struct tangent_in { float t[4], b[3]; uint32_t has_bitangent; } tangent_in;
typedef struct blend_in { uint32_t index[4]; float weight[4]; uint32_t count; } blend_in;

typedef struct mesh_block {
    const char *name, *material;
    uint32_t first_triangle, triangle_count;
    uint32_t first_vertex, end_vertex; /* vertices (vp) defined inside the block */
    uint32_t fm_base;                  /* `fm` index 0: the first vertex after the `mesh` command */
    int declared;         /* made by a `mesh`/`material` command, not implicitly */
} mesh_block;

typedef struct smooth_state {
    int64_t key;       /* smoothgroup */
    double angle;      /* smoothangle in degrees, 0..180 */
    int uv;               /* smoothuv */
    uint32_t first_vertex; /* vertices defined before these settings (for face-less files) */
} smooth_state;

typedef struct face_rec { uint32_t first_triangle, vertex_count; } face_rec;
typedef struct fs_rec { uint32_t line, first_flag, count; } fs_rec;
typedef struct frame_rec { uint32_t line, first_pose, pose_count; } frame_rec;
typedef struct anim_rec {
    const char *name; /* NULL: give it a dummy name */
    uint32_t first_frame_rec, frame_rec_count;
    float framerate;
    uint32_t flags, line;
} anim_rec;
typedef struct joint_rec { const char *name; int32_t parent; } joint_rec;

/* A location remembered for a check that can only be made at the end. */
typedef struct where { uint32_t line, column; int64_t value; int set; } where;

/* Everything one pass over the lines collects (iq_iqe.c, iq_iqe_skeleton.c),
 * for normal generation (iq_iqe_normals.c) and the model (iq_iqe_build.c). */
typedef struct iqe_parser {
    iqi_ctx *ctx;
    iqi_text tx;          /* the text, the current line, the scratch count */

    iqi_grow attr[ATTR_COUNT];
    uint32_t attr_first_line[ATTR_COUNT];
    va_decl decl[VA_COUNT];

    iqi_grow triangles;   /* uint32[3] */
    iqi_grow tri_state;   /* uint32 smoothing state per triangle */
    iqi_grow tri_edges;   /* uint8 per triangle: fs edge flags (bits 0..2) | 8 when given */
    iqi_grow faces;       /* face_rec per fa/fm command */
    iqi_grow fs;          /* fs_rec */
    iqi_grow fs_flags;    /* uint8 */
    iqi_grow states;      /* smooth_state */
    int state_used;       /* the last state has triangles: the next change makes a new one */

    iqi_grow meshes;      /* mesh_block */
    int have_faces;

    iqi_grow joints;      /* joint_rec */
    iqi_grow base_poses;  /* iq_transform */
    iqi_grow poses;       /* iq_transform, animation poses */
    iqi_grow frames;      /* frame_rec */
    iqi_grow anims;       /* anim_rec */
    int frame_open;       /* the current animation has an open keyframe */
    uint32_t first_pose_line;

    iqi_grow pairs;       /* per vb line: (index, weight) scratch */

    const char *comment;
    size_t comment_size;

    where max_vertex_ref, max_blend_index;
    uint32_t unknown_commands, unknown_line;
    char unknown_name[24];
    uint32_t dropped_weights, negative_weights, extra_influences, empty_frames, ignored_frames,
        ignored_loops, unused_customs;
} iqe_parser;

static inline uint32_t iqi_iqe_vertex_count(const iqe_parser *p) { return IQI_GROW_COUNT(p->attr[ATTR_VP], float) / 3; }

/* Output vertices after normal generation. */
typedef struct vertex_map {
    uint32_t count;        /* output vertices */
    uint32_t *source;      /* per output vertex: its IQE vertex */
    float *normals;        /* per output vertex */
    uint32_t *first;       /* per IQE vertex (+1): first output vertex */
} vertex_map;

// -- Skeleton commands (iq_iqe_skeleton.c); each reads the rest of its line

int iqi_iqe_joint(iqe_parser *p);
/* pq, pm, pa: kind 'q', 'm' or 'a' */
int iqi_iqe_pose(iqe_parser *p, char kind);
int iqi_iqe_animation(iqe_parser *p);
int iqi_iqe_frame(iqe_parser *p);
/* loop (is_loop 1) and framerate */
int iqi_iqe_anim_setting(iqe_parser *p, int is_loop);

// -- After parsing

/* The spec's smoothing rules: per-corner normals by welding the corners of
 * equal positions, splitting vertices whose corners land in different groups
 * (rewrites p->triangles to output vertices). Arrays in the arena. */
int iqi_iqe_generate_normals(iqe_parser *p, vertex_map *map);
/* Checks that everything fits together and fills ctx->model. */
int iqi_iqe_build_model(iqe_parser *p);

#endif
