/* What the skeletal readers of the Doom 3 / DarkPlaces / ioquake3 family
 * (MD5, DPM, ZYM, MDR) share: normals made from the triangles, the
 * engines' 3x4 bone matrices turned into the model's transforms, and what
 * DPM and MDR both do with their weighted vertices (the arrays, the four
 * largest weights, the normal). Not part of the public API. */
#ifndef IQ_SKELETAL_H
#define IQ_SKELETAL_H

#include "base/iq_internal.h"

/* model->normals from model->positions and indices: each vertex the sum of
 * its triangles' face normals weighted by area (clockwise fronts: (v2 - v0) x
 * (v1 - v0)), normalised. With `weld`, every vertex at the same position
 * gets the sum over all of them (Doom 3's "dup verts": texture seams stay
 * smooth); without, each vertex its own (DarkPlaces' Mod_BuildNormals).
 * A vertex no triangle uses, or whose sum is zero, gets (0, 0, 1). */
int iqi_normals_from_triangles(iqi_ctx *ctx, int weld);

/* A 3x4 row-major matrix (rotation and scale in columns 0..2, translation in
 * column 3) as a transform: each column's length its scale (negative x
 * scale for a mirror; 0 for a zero column), the rotation from the rest.
 * Returns 0 when a column is not finite or the axes cannot make a rotation
 * (two parallel, the third zero); *shear gets how far the transform's
 * matrix ends up from the original (largest element difference), which is
 * not 0 only for matrices with shear. */
int iqi_transform_from_matrix(const float m[12], iq_transform *out, float *shear);

/* The joints (already in m->joints, names and parents) posed by `frames`
 * sets of 3x4 matrices relative to their parents, each read by `matrix`
 * (0 after an error): m->frame_poses, the binds from set 0 (an axis scaled
 * to 0 there gets bind scale 1, so the bind stays invertible: warned), and
 * set 0's world matrices into `world` (joint_count * 12) for building the
 * mesh as DarkPlaces and ioquake3 do. Shear is kept as the nearest rotation
 * and scale, warned. */
typedef int (*iqi_matrix_reader)(iqi_ctx *ctx, const void *arg, uint32_t frame, uint32_t joint, float m[12]);
int iqi_poses_from_matrices(iqi_ctx *ctx, iqi_matrix_reader matrix, const void *arg, uint32_t frames, float *world);

/* A fixed-size name field up to its first NUL (the whole field when it has
 * none), copied into the arena; NULL after an error. */
const char *iqi_field_name(iqi_ctx *ctx, const uint8_t *field, size_t size);

/* The arrays of a skinned model of `meshes` meshes (named `meshes_what` in
 * an allocation error), `vertices` vertices and `triangles` triangles:
 * m->meshes, positions, normals, texcoords, blend_indices, blend_weights and
 * indices, each at least one element long. Counts past UINT32_MAX / 4 fail
 * ('limit' at byte `field`). Counts are the caller's to set. */
int iqi_alloc_skinned(iqi_ctx *ctx, uint32_t meshes, const char *meshes_what, uint64_t vertices, uint64_t triangles,
                      int64_t field);

/* The four largest weights of a vertex, largest first (an equal weight after
 * the ones kept), as DarkPlaces and ioquake3 keep them for skinning; zeroed
 * before the first iqi_top_weights_add. */
typedef struct iqi_top_weights {
    double weight[4];
    uint32_t bone[4];
} iqi_top_weights;
void iqi_top_weights_add(iqi_top_weights *t, uint32_t bone, double weight);
/* The vertex's 4 blend indices and weights: the kept weights over their sum.
 * Returns 0, writing nothing, when no weight is positive (the caller binds
 * the vertex as its format's engine does). */
int iqi_top_weights_store(const iqi_top_weights *t, uint16_t indices[4], float weights[4]);

/* `n` normalised into `out`, or (0, 0, 1) when its length is 0 or not finite. */
void iqi_unit_normal(const double n[3], float out[3]);

#endif
