/* What the glTF writer's files share (not part of the public API): the
 * writer's state, the JSON and BIN builders (iq_gltf_glb.c), and each file's
 * entry points. The entry, scene checks and clips are in iq_gltf.c; materials
 * in iq_gltf_material.c; parts, vertex data, meshes and skins in
 * iq_gltf_mesh.c; morph chunks in iq_gltf_morph.c; animations in iq_gltf_anim.c.
 * Every function here does nothing once the writer has failed (w->failed):
 * the first error wins and callers check w->failed when they need to. */
#ifndef IQ_GLTF_INTERNAL_H
#define IQ_GLTF_INTERNAL_H

#include "write/iq_gltf.h"
#include "base/iq_internal.h"

#define GLB_MAX ((uint64_t)UINT32_MAX - 64) /* room for the headers */

enum { CT_UBYTE = 5121, CT_USHORT = 5123, CT_UINT = 5125, CT_FLOAT = 5126 };
enum { TARGET_ARRAY = 34962, TARGET_ELEMENTS = 34963 };

typedef struct sbuf { char *p; size_t n, cap; } sbuf;

/* A node, emitted at the end once every child is known. */
typedef struct gnode {
    char *name;
    int32_t parent, mesh, skin;
    int32_t first_child, next_sibling, last_child;
    float t[3], r[4], s[3];
    int has_t, has_r, has_s;
    char *extras;             /* raw JSON object or NULL */
} gnode;

/* The internal form of a clip (defaults filled in). */
typedef struct clip {
    char *name;
    float fps;
    int loop;
    iq_gltf_range *ranges;    /* part_count */
} clip;

/* One morph-animated mesh node: a chunk of <= IQ_GLTF_MAX_TARGETS + 1 frames of one clip. */
typedef struct chunk {
    uint32_t clip, part, node;
    uint32_t first, last;     /* local frames of the clip range; first is the mesh's base */
} chunk;

typedef struct part_info {
    int32_t node;             /* the part's node */
    int32_t joint_node;       /* node of joint 0 (joints are consecutive) */
    int32_t tag_node;         /* node of tag 0 */
    int32_t rest_node;        /* MD3: the static mesh shown when no clip plays */
    int32_t mesh_node;        /* skeletal: the (root) skinned mesh node */
} part_info;

typedef struct gw {
    const iq_gltf_scene *scene;
    iq_error *error;
    int failed;
    uint8_t *bin;
    size_t blen, bcap;
    float *tmp;               /* scratch for accessor data */
    size_t tmp_cap;
    sbuf acc, views, meshes, mats, texs, imgs, skins, anims;
    uint32_t n_acc, n_views, n_meshes, n_mats, n_texs, n_imgs, n_skins, n_anims;
    gnode *nodes;
    uint32_t n_nodes, nodes_cap;
    clip *clips;
    uint32_t n_clips;
    chunk *chunks;
    uint32_t n_chunks, chunks_cap;
    part_info *pinfo;
    uint32_t **part_mats;     /* per part, per mesh: material index */
} gw;

/* Vertex data of one part, shared by every mesh of the part (accessor indices, -1 = none). */
typedef struct vattrs {
    int32_t position, normal, texcoord, tangent, color, joints, weights;
    int32_t *custom;          /* custom_array_count */
    char **custom_names;
    int32_t *indices;         /* per mesh; -1 for an empty mesh */
} vattrs;

/* One glTF animation's samplers and channels while its parts are written. */
typedef struct anim_builder { sbuf samplers, channels; uint32_t n_samplers; } anim_builder;

static inline int iqi_gltf_is_md3(const iq_model *m) { return m->frame_positions && m->frame_count && !m->joint_count; }
static inline int iqi_gltf_skinned(const iq_model *m) { return m->joint_count && m->blend_indices && m->blend_weights; }

/* -- iq_gltf_glb.c: errors, JSON text, BIN chunk, accessors, nodes, the GLB */
/* Records the first error; returns 0. */
int iqi_gltf_fail(gw *w, iq_error_code code, const char *fmt, ...) IQI_PRINTF(3, 4);
void iqi_json_put(gw *w, sbuf *b, const char *s, size_t n);
#define iqi_json_lit(w, b, s) iqi_json_put(w, b, s, sizeof(s) - 1)
void iqi_json_printf(gw *w, sbuf *b, const char *fmt, ...) IQI_PRINTF(3, 4);
void iqi_json_str_n(gw *w, sbuf *b, const char *str, size_t n);
void iqi_json_str(gw *w, sbuf *b, const char *s);
void iqi_json_floats(gw *w, sbuf *b, const float *v, int n);
void iqi_json_sep(gw *w, sbuf *b); /* a comma unless b is empty */
char *iqi_gltf_dup_printf(gw *w, const char *fmt, ...) IQI_PRINTF(2, 3);
uint8_t *iqi_gltf_bin_alloc(gw *w, uint64_t n, size_t *offset);
float *iqi_gltf_scratch(gw *w, uint64_t floats); /* reused: valid until the next call */
int32_t iqi_gltf_add_view(gw *w, size_t offset, size_t length, int target);
int32_t iqi_gltf_acc_floats(gw *w, const float *data, uint32_t count, int ncomp, int target, int minmax);
int32_t iqi_gltf_acc_ints(gw *w, const uint32_t *data, uint64_t n, uint32_t count, int ncomp, int ctype, int target);
int32_t iqi_gltf_add_node(gw *w, int32_t parent, char *name); /* takes name (freed on failure) */
void iqi_gltf_node_trs(gnode *n, const float *t, const float *r, const float *s);
uint8_t *iqi_gltf_assemble(gw *w, size_t *size_out);

/* -- iq_gltf.c: clips */
uint32_t iqi_gltf_range_keys(const clip *cl, iq_gltf_range r, const iq_model *m);
/* The global frame of key k of a range (the seam key is the first frame). */
static inline uint32_t iqi_gltf_key_frame(iq_gltf_range r, uint32_t k) { return r.first_frame + (k < r.frame_count ? k : 0); }

/* -- iq_gltf_material.c */
int iqi_gltf_write_materials(gw *w);

/* -- iq_gltf_mesh.c */
int iqi_gltf_write_part(gw *w, uint32_t p, int32_t root);
int32_t iqi_gltf_unit_vectors(gw *w, const float *src, uint32_t nv, int ncomp);
int32_t iqi_gltf_write_mesh(gw *w, uint32_t part, const vattrs *va, const char *name, int32_t position, int32_t normal,
                            const int32_t *targets, uint32_t target_count, int normal_targets);

/* -- iq_gltf_morph.c */
int iqi_gltf_write_morph_part(gw *w, uint32_t p, const vattrs *va);
int iqi_gltf_morph_channels(gw *w, anim_builder *ab, uint32_t c, uint32_t p, float fps);

/* -- iq_gltf_anim.c */
void iqi_gltf_tag_trs(const iq_model *m, uint32_t tag, uint32_t frame_a, uint32_t frame_b, float blend, float t[3], float r[4],
                      float s[3]);
void iqi_gltf_channel(gw *w, anim_builder *ab, int32_t input, int32_t output, int32_t node, const char *path, const char *interp);
int iqi_gltf_write_animation(gw *w, uint32_t c);

#endif
