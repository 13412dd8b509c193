/* glTF 2.0 binary (GLB) export of loaded models and multi-part scenes
 * (a Quake 3 player: lower -> tag_torso -> upper -> tag_head -> head).
 * Layout, axes and the morph-target limits are described in docs/GLTF.md.
 *
 * Every struct here is zero-init = defaults, like iq_load_opts:
 *     iq_gltf_part part = {0};
 *     part.model = model;
 *     iq_gltf_scene scene = {0};
 *     scene.parts = &part; scene.part_count = 1;
 *     uint8_t *glb = iq_write_glb(&scene, &size, &err);   // one clip per animation
 *     ... iq_free_bytes(glb);
 */
#ifndef IQ_GLTF_H
#define IQ_GLTF_H

#include "interquake.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum iq_gltf_alpha { IQ_GLTF_OPAQUE = 0, IQ_GLTF_MASK, IQ_GLTF_BLEND } iq_gltf_alpha;

/* A material. Without an image it is a plain colour (base_color), never an error. */
typedef struct iq_gltf_material {
    const char *name;          /* NULL: "material<i>" */
    const uint8_t *image;      /* already encoded PNG or JPEG bytes; NULL = no texture */
    uint32_t image_size;
    const char *image_mime;    /* "image/png" or "image/jpeg" (required with an image) */
    iq_gltf_alpha alpha_mode;
    float alpha_cutoff;        /* IQ_GLTF_MASK only; 0 = 0.5 */
    float base_color[4];       /* RGBA; all zero = opaque white */
    uint32_t double_sided;     /* nonzero: doubleSided */
} iq_gltf_material;

/* One model of the scene, optionally hanging from a tag (MD3) or joint of an
 * earlier part. */
typedef struct iq_gltf_part {
    const iq_model *model;     /* required; not modified */
    const char *name;          /* node name; NULL: "part<i>" */
    uint32_t attached;         /* 0: a root part; nonzero: hangs from `parent` at `attach_index` */
    uint32_t parent;           /* index of the parent part, < this part's index */
    uint32_t attach_index;     /* tag index when the parent has tags (MD3), else joint index */
    /* model->mesh_count indices into iq_gltf_scene.materials; NULL: one plain
     * material per mesh, named after the mesh's material. */
    const uint32_t *mesh_materials;
} iq_gltf_part;

/* Which global frames of a part a clip plays (frame_count 0: the clip leaves the part alone). */
typedef struct iq_gltf_range {
    uint32_t first_frame, frame_count;
} iq_gltf_range;

/* One glTF animation: frame k of each range plays at time k / framerate. */
typedef struct iq_gltf_clip {
    const char *name;          /* NULL: "clip<i>" */
    float framerate;           /* 0: IQ_DEFAULT_FRAMERATE, or IQ_MD3_DEFAULT_FRAMERATE when the first driven part is MD3 */
    uint32_t loop;             /* nonzero: extras.loop = true (glTF itself has no loop flag) */
    const iq_gltf_range *ranges; /* part_count entries */
} iq_gltf_clip;

typedef struct iq_gltf_scene {
    const iq_gltf_part *parts;
    uint32_t part_count;       /* at least 1 */
    const iq_gltf_material *materials;
    uint32_t material_count;
    /* clip_count 0: the default clips, one per iq_animation of each part
     * driving that part only (its framerate, or the format's default when the
     * file says 0); a part with frames and no animations gets one clip over all frames. */
    const iq_gltf_clip *clips;
    uint32_t clip_count;
    uint32_t max_morph_targets; /* targets per morph mesh, 1..IQ_GLTF_MAX_TARGETS; 0 = IQ_GLTF_MAX_TARGETS */
} iq_gltf_scene;

/* The most morph targets one glTF mesh gets (three.js keeps all targets of a
 * mesh in one texture array; WebGL2 promises 256 layers). */
#define IQ_GLTF_MAX_TARGETS 255

/* Keys per frame step in tag tracks: glTF slerps between keys where the
 * library lerps and re-orthonormalises, so tags get in-between keys. */
#define IQ_GLTF_TAG_STEPS 4

/* Writes the scene as GLB bytes (JSON + BIN chunks). Returns a buffer of *size
 * bytes freed with iq_free_bytes, or NULL with *error filled
 * (invalid_argument for a bad scene, limit when it would not fit GLB's 32-bit
 * sizes, out_of_memory). */
uint8_t *iq_write_glb(const iq_gltf_scene *scene, size_t *size, iq_error *error);

/* One model with its default clips and plain materials. */
uint8_t *iq_write_glb_model(const iq_model *model, size_t *size, iq_error *error);

#ifdef __cplusplus
}
#endif
#endif
