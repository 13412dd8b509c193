/* MDR ("RDM5", version 2): ioquake3's skeletal format (Raven's MD4 layout;
 * Elite Force, World of Padman), little-endian (docs/MDR.md). Bones have no
 * names and no parents: each frame places every bone with a model-space 3x4
 * matrix, stored whole or compressed to 24 bytes (ofsFrames negative). A
 * vertex is the sum over its weights of weight * (matrix * offset +
 * translation) in the frame drawn; levels of detail are whole sets of
 * surfaces; tags name a bone. The model: one joint per bone (roots named
 * "bone N"), frame 0 as the bind pose (ioquake3 builds nothing else),
 * LOD 0's surfaces as meshes, tags placed by their bone at every frame, and
 * one animation over all frames at 15 fps, as for MD3 (the file names
 * none; a Quake 3 player's animation.cfg does). */
#include "formats/iq_skeletal.h"
#include "formats/iq_vertex_formats.h"
#include "base/iq_math.h"
#include <stdio.h>

#define MDR_HEADER 104
#define MDR_VERSION 2
#define MDR_MAX_BONES 128 /* ioquake3's MDR_MAX_BONES */
#define MDR_FRAME_HEAD 40 /* bounds, local origin, radius */
#define MDR_NAME 16       /* an uncompressed frame's name */
#define MDR_BONE 48
#define MDR_COMP_BONE 24
#define MDR_SURFACE 168
#define MDR_LOD 12
#define MDR_WEIGHT 20
#define MDR_TAG 36
#define MDR_QPATH 64
/* The compressed bone's scales (ioquake3's matcomp: 16-bit fields) */
#define MDR_COMP_SCALE_T (1.0f / 64)
#define MDR_COMP_SCALE_R (1.0f / 32766)

typedef struct mdr_frames {
    size_t at;   /* the first frame */
    size_t size; /* bytes per frame */
    int compressed;
} mdr_frames;

static int mdr_matrix(iqi_ctx *ctx, const void *arg, uint32_t f, uint32_t j, float m[12]) {
    const mdr_frames *fr = arg;
    size_t at = fr->at + (size_t)f * fr->size + MDR_FRAME_HEAD;
    if (fr->compressed) {
        /* 12 unsigned shorts: the translation, then the rotation's rows, each biased by 32768 */
        const uint8_t *c = ctx->data + at + (size_t)j * MDR_COMP_BONE;
        for (int k = 0; k < 3; k++) m[4 * k + 3] = (float)((int)iqi_u16(c + 2 * k) - 32768) * MDR_COMP_SCALE_T;
        for (int r = 0; r < 3; r++)
            for (int k = 0; k < 3; k++) m[4 * r + k] = (float)((int)iqi_u16(c + 6 + 2 * (3 * r + k)) - 32768) * MDR_COMP_SCALE_R;
        return 1;
    }
    at += MDR_NAME + (size_t)j * MDR_BONE;
    for (int k = 0; k < 12; k++) {
        m[k] = iqi_f32(ctx->data + at + 4 * (size_t)k);
        if (!iqi_usable(ctx, m[k])) return iqi_fail_value(ctx, (int64_t)(at + 4 * (size_t)k), 0, m[k], "frame %u bone %u matrix", f, j);
    }
    return 1;
}

static int range(iqi_ctx *ctx, uint64_t at, uint64_t count, uint64_t size, int64_t field, const char *what) {
    if (!iqi_range_ok(ctx->size, at, count, size))
        return iqi_fail(ctx, IQ_ERROR_OUT_OF_RANGE, field, "%s: %llu x %llu bytes at offset %llu run past the end of the %zu-byte file",
                        what, (unsigned long long)count, (unsigned long long)size, (unsigned long long)at, ctx->size);
    return 1;
}

/* LOD 0's surfaces: vertices (with their weights), triangles, shaders. */
static int read_surfaces(iqi_ctx *ctx, size_t lod, const float *world) {
    iq_model *m = ctx->model;
    const uint8_t *d = ctx->data;
    uint32_t ns = iqi_u32(d + lod);
    size_t first = lod + iqi_u32(d + lod + 4);
    /* count first, so every array is allocated once */
    uint64_t total_v = 0, total_t = 0;
    size_t at = first;
    for (uint32_t s = 0; s < ns; s++) {
        if (!range(ctx, at, 1, MDR_SURFACE, (int64_t)lod + 4, "a surface")) return 0;
        uint32_t nv = iqi_u32(d + at + 140), nt = iqi_u32(d + at + 148), end = iqi_u32(d + at + 164);
        if (!range(ctx, at + iqi_u32(d + at + 152), nt, 12, (int64_t)at + 152, "triangles") ||
            !range(ctx, at + iqi_u32(d + at + 144), nv, 24 + MDR_WEIGHT, (int64_t)at + 144, "vertices"))
            return 0;
        total_v += nv;
        total_t += nt;
        if (end < MDR_SURFACE && s + 1 < ns)
            return iqi_fail(ctx, IQ_ERROR_OUT_OF_RANGE, (int64_t)at + 164, "surface %u ends %u bytes after its start, inside its own header", s, end);
        at += end;
    }
    if (!iqi_alloc_skinned(ctx, ns, "surfaces", total_v, total_t, (int64_t)lod)) return 0;
    uint32_t fv = 0, ft = 0, many = 0, unweighted = 0, nb = m->joint_count;
    at = first;
    for (uint32_t s = 0; s < ns; s++) {
        const uint8_t *sh = d + at;
        uint32_t nv = iqi_u32(sh + 140), nt = iqi_u32(sh + 148);
        iq_mesh *mesh = &m->meshes[s];
        if (!(mesh->name = iqi_field_name(ctx, sh + 4, MDR_QPATH)) || !(mesh->material = iqi_field_name(ctx, sh + 68, MDR_QPATH))) return 0;
        *mesh = (iq_mesh){mesh->name, mesh->material, fv, nv, ft, nt};
        size_t tri = at + iqi_u32(sh + 152);
        for (uint32_t t = 0; t < nt; t++)
            for (int k = 0; k < 3; k++) {
                size_t here = tri + 12 * (size_t)t + 4 * (size_t)k;
                uint32_t v = iqi_u32(d + here);
                if (v >= nv) return iqi_fail(ctx, IQ_ERROR_BAD_INDEX, (int64_t)here, "surface %u ('%s'), triangle %u: vertex %u, but it has %u", s, mesh->name, t, v, nv);
                m->indices[3 * ((size_t)ft + t) + k] = fv + v;
            }
        size_t v_at = at + iqi_u32(sh + 144);
        for (uint32_t v = 0; v < nv; v++) {
            size_t o = (size_t)fv + v;
            if (!range(ctx, v_at, 1, 24, (int64_t)v_at, "a vertex")) return 0;
            uint32_t nw = iqi_u32(d + v_at + 20);
            if (!range(ctx, v_at + 24, nw, MDR_WEIGHT, (int64_t)v_at + 20, "a vertex's weights")) return 0;
            float normal[3];
            for (int k = 0; k < 3; k++) normal[k] = iqi_f32(d + v_at + 4 * (size_t)k);
            for (int k = 0; k < 2; k++) m->texcoords[2 * o + k] = iqi_f32(d + v_at + 12 + 4 * (size_t)k);
            iqi_repair_vector(ctx, IQI_TEXCOORD, m->texcoords + 2 * o, 2);
            if (iqi_repair_vector(ctx, IQI_NORMAL, normal, 3)) normal[0] = normal[1] = 0, normal[2] = 1;
            double p[3] = {0, 0, 0}, n[3] = {0, 0, 0};
            iqi_top_weights top = {{0, 0, 0, 0}, {0, 0, 0, 0}};
            if (nw > 4) many++;
            size_t w_at = v_at + 24;
            for (uint32_t w = 0; w < nw; w++, w_at += MDR_WEIGHT) {
                uint32_t b = iqi_u32(d + w_at);
                float weight = iqi_f32(d + w_at + 4), off[3];
                if (b >= nb) return iqi_fail(ctx, IQ_ERROR_BAD_INDEX, (int64_t)w_at, "surface %u vertex %u: bone %u, but the model has %u", s, v, b, nb);
                if (!iqi_usable(ctx, weight)) return iqi_fail_value(ctx, (int64_t)w_at + 4, 0, weight, "surface %u vertex %u weight", s, v);
                for (int k = 0; k < 3; k++) {
                    off[k] = iqi_f32(d + w_at + 8 + 4 * (size_t)k);
                    if (!iqi_usable(ctx, off[k])) return iqi_fail_value(ctx, (int64_t)w_at + 8 + 4 * k, 0, off[k], "surface %u vertex %u offset", s, v);
                }
                const float *mw = world + 12 * (size_t)b;
                for (int r = 0; r < 3; r++) {
                    p[r] += weight * ((double)mw[4 * r] * off[0] + (double)mw[4 * r + 1] * off[1] + (double)mw[4 * r + 2] * off[2] + mw[4 * r + 3]);
                    n[r] += weight * ((double)mw[4 * r] * normal[0] + (double)mw[4 * r + 1] * normal[1] + (double)mw[4 * r + 2] * normal[2]);
                }
                iqi_top_weights_add(&top, b, weight);
            }
            v_at = w_at;
            for (int k = 0; k < 3; k++) {
                if (!iqi_usable(ctx, p[k])) return iqi_fail_value(ctx, (int64_t)v_at, 0, p[k], "surface %u vertex %u position", s, v);
                m->positions[3 * o + k] = (float)p[k];
            }
            iqi_unit_normal(n, m->normals + 3 * o);
            if (!iqi_top_weights_store(&top, m->blend_indices + 4 * o, m->blend_weights + 4 * o)) {
                m->blend_weights[4 * o] = 1; /* bone 0 */
                unweighted++;
            }
        }
        fv += nv;
        ft += nt;
        at += iqi_u32(sh + 164);
    }
    m->vertex_count = fv;
    m->triangle_count = ft;
    m->mesh_count = ns;
    if (many) iqi_warn(ctx, IQ_WARNING_IGNORED_DATA, "%u vertices have more than 4 weights; the 4 largest drive the skinning (the bind pose uses all)", many);
    if (unweighted) iqi_warn(ctx, IQ_WARNING_REPAIRED, "%u vertices have no positive weight; bound to bone 0", unweighted);
    return 1;
}

int iqi_parse_mdr(iqi_ctx *ctx) {
    iq_model *m = ctx->model;
    const uint8_t *d = ctx->data;
    if (ctx->size < MDR_HEADER) return iqi_fail(ctx, IQ_ERROR_TRUNCATED, 0, "%zu bytes is shorter than the 104-byte MDR header", ctx->size);
    if (memcmp(d, "RDM5", 4)) return iqi_fail(ctx, IQ_ERROR_BAD_MAGIC, 0, "not an MDR file (no RDM5 magic)");
    if (iqi_u32(d + 4) != MDR_VERSION) return iqi_fail(ctx, IQ_ERROR_BAD_VERSION, 4, "MDR version %u; version 2 is read", iqi_u32(d + 4));
    int32_t nf = iqi_i32(d + 72), nb = iqi_i32(d + 76), ofs_frames = iqi_i32(d + 80), nl = iqi_i32(d + 84), nt = iqi_i32(d + 92);
    size_t ofs_lods = iqi_u32(d + 88), ofs_tags = iqi_u32(d + 96);
    if (iqi_u32(d + 100) > ctx->size) return iqi_fail(ctx, IQ_ERROR_TRUNCATED, 100, "the header says %u bytes, the file has %zu", iqi_u32(d + 100), ctx->size);
    if (nb < 1 || nb > MDR_MAX_BONES) return iqi_fail(ctx, nb < 1 ? IQ_ERROR_BAD_VALUE : IQ_ERROR_LIMIT, 76, "%d bones; ioquake3 takes 1 to %d", nb, MDR_MAX_BONES);
    if (nf < 1) return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, 72, "%d frames; at least one is needed", nf);
    if ((uint32_t)nf > ctx->limits.max_frames) return iqi_fail(ctx, IQ_ERROR_LIMIT, 72, "%d frames; the limit is %u", nf, ctx->limits.max_frames);
    if (nl < 1) return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, 84, "%d levels of detail; at least one is needed", nl);
    if (nt < 0) return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, 92, "%d tags", nt);
    mdr_frames fr;
    fr.compressed = ofs_frames < 0; /* ioquake3: a negative offset marks compressed bones */
    fr.at = fr.compressed ? (size_t)(-(int64_t)ofs_frames) : (size_t)ofs_frames;
    fr.size = MDR_FRAME_HEAD + (fr.compressed ? 0 : MDR_NAME) + (size_t)nb * (fr.compressed ? MDR_COMP_BONE : MDR_BONE);
    if (!range(ctx, fr.at, (uint64_t)nf, fr.size, 80, "frames") || !range(ctx, ofs_lods, 1, MDR_LOD, 88, "the first level of detail") ||
        !range(ctx, ofs_tags, (uint64_t)nt, MDR_TAG, 96, "tags"))
        return 0;
    m->joints = iqi_alloc(ctx, (uint64_t)nb, sizeof(iq_joint), "bones");
    float *world = iqi_alloc(ctx, (uint64_t)nb, 12 * sizeof(float), "bone matrices");
    m->frame_bounds = iqi_alloc(ctx, (uint64_t)nf, sizeof(iq_bounds), "frame bounds");
    if (!m->joints || !world || !m->frame_bounds) return 0;
    m->joint_count = (uint32_t)nb;
    for (int32_t j = 0; j < nb; j++) {
        char name[24];
        snprintf(name, sizeof name, "bone %d", j);
        if (!(m->joints[j].name = iqi_strdup_n(ctx, name, strlen(name)))) return 0;
        m->joints[j].parent = -1; /* bones are placed in model space */
    }
    if (!iqi_poses_from_matrices(ctx, mdr_matrix, &fr, (uint32_t)nf, world)) return 0;
    for (int32_t f = 0; f < nf; f++) {
        const uint8_t *h = d + fr.at + (size_t)f * fr.size;
        iq_bounds *b = &m->frame_bounds[f];
        for (int k = 0; k < 3; k++) {
            b->min[k] = iqi_f32(h + 4 * k);
            b->max[k] = iqi_f32(h + 12 + 4 * k);
        }
        double xy = 0, all = 0; /* radii from the origin to the box's farthest corner */
        for (int k = 0; k < 3; k++) {
            double far = fmax(fabs(b->min[k]), fabs(b->max[k]));
            all += far * far;
            if (k < 2) xy += far * far;
        }
        b->xy_radius = (float)sqrt(xy);
        b->radius = (float)sqrt(all);
        if (!(b->min[0] <= b->max[0] && b->min[1] <= b->max[1] && b->min[2] <= b->max[2])) iqi_mark_bounds_unusable(b);
    }
    if (!read_surfaces(ctx, ofs_lods, world)) return 0;
    if (nl > 1) iqi_warn(ctx, IQ_WARNING_IGNORED_DATA, "%d more level(s) of detail after the first were not read", nl - 1);
    if (nt) { /* tags: a name and the bone that places it */
        m->tag_names = iqi_alloc(ctx, (uint64_t)nt, sizeof(char *), "tag names");
        m->tag_transforms = iqi_alloc(ctx, (uint64_t)nf * (uint64_t)nt, 12 * sizeof(float), "tag transforms");
        if (!m->tag_names || !m->tag_transforms) return 0;
        m->tag_count = (uint32_t)nt;
        for (int32_t t = 0; t < nt; t++) {
            const uint8_t *tg = d + ofs_tags + (size_t)t * MDR_TAG;
            uint32_t b = iqi_u32(tg);
            if (b >= (uint32_t)nb) return iqi_fail(ctx, IQ_ERROR_BAD_INDEX, (int64_t)(ofs_tags + (size_t)t * MDR_TAG), "tag %d: bone %u, but the model has %d", t, b, nb);
            if (!(m->tag_names[t] = iqi_field_name(ctx, tg + 4, 32))) return 0;
            for (int32_t f = 0; f < nf; f++)
                if (!mdr_matrix(ctx, &fr, (uint32_t)f, b, m->tag_transforms + 12 * ((size_t)f * nt + t))) return 0;
        }
    }
    return iqi_clip_all_frames(ctx);
}
