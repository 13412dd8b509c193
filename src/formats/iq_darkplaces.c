/* DarkPlaces' skeletal formats (docs/DARKPLACES.md), both big-endian and
 * both posing bones with 3x4 matrices relative to their parents:
 * - DPM ("DARKPLACESMODEL", type 2): bones, meshes whose vertices carry one
 *   or more (point, influence, normal, bone) weights, the point and normal
 *   already multiplied by the influence, and frames of bone matrices, frame
 *   0 being the pose the mesh was built in;
 * - ZYM ("ZYMOTICMODEL", type 1): bones, pose matrices, scenes (named frame
 *   ranges with a rate and a no-loop flag), vertices on exactly one bone, a
 *   render list of triangles per shader.
 * Both store counter-clockwise triangles, turned here to Quake's clockwise,
 * as DarkPlaces turns them; ZYM's t texture coordinate counts up from the
 * bottom and is flipped (DarkPlaces flips it too). The bind pose is pose 0,
 * as DarkPlaces builds the base mesh from it. */
#include "formats/iq_skeletal.h"
#include "base/iq_math.h"
#include <stdio.h>

#define DP_NAME 32
#define DPM_HEADER 80
#define DPM_BONE 40
#define DPM_MESH 56
#define DPM_FRAME 68
#define DPM_BONEVERT 32
#define ZYM_HEADER 140
#define ZYM_SCENE 76
#define ZYM_BONE 40
#define DP_MATRIX 48
/* DarkPlaces plays a DPM frame (and a ZYM scene without a rate) at 10 fps. */
#define DP_FRAMERATE 10.0f

static uint32_t be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
static int32_t bei32(const uint8_t *p) { uint32_t u = be32(p); int32_t i; memcpy(&i, &u, 4); return i; }
static float bef32(const uint8_t *p) { uint32_t u = be32(p); float f; memcpy(&f, &u, 4); return f; }

/* A fixed-size name: up to the first NUL (all 32 bytes when there is none). */
static const char *fixed_name(iqi_ctx *ctx, const uint8_t *p) { return iqi_field_name(ctx, p, DP_NAME); }

static int section_ok(iqi_ctx *ctx, uint64_t offset, uint64_t count, uint64_t size, int64_t field_at, const char *what) {
    if (!iqi_range_ok(ctx->size, offset, count, size))
        return iqi_fail(ctx, IQ_ERROR_OUT_OF_RANGE, field_at, "%s: %llu x %llu bytes at offset %llu run past the end of the %zu-byte file",
                        what, (unsigned long long)count, (unsigned long long)size, (unsigned long long)offset, ctx->size);
    return 1;
}

/* 12 big-endian floats as a matrix, each usable (README "Numbers"). */
static int read_matrix(iqi_ctx *ctx, size_t at, float m[12], const char *what, uint32_t index) {
    for (int k = 0; k < 12; k++) {
        m[k] = bef32(ctx->data + at + 4 * (size_t)k);
        if (!iqi_usable(ctx, m[k])) return iqi_fail_value(ctx, (int64_t)at + 4 * k, 0, m[k], "%s %u", what, index);
    }
    return 1;
}

/* Bones: name[32] and parent and flags (DPM) or flags and parent (ZYM). A
 * parent must come before its bone (DarkPlaces refuses the others too). */
static int read_bones(iqi_ctx *ctx, size_t offset, uint32_t count, int parent_first) {
    iq_model *m = ctx->model;
    m->joints = iqi_alloc(ctx, count, sizeof(iq_joint), "bones");
    if (!m->joints) return 0;
    m->joint_count = count;
    uint32_t below = 0;
    for (uint32_t j = 0; j < count; j++) {
        const uint8_t *b = ctx->data + offset + (size_t)j * DPM_BONE;
        int32_t parent = bei32(b + DP_NAME + (parent_first ? 0 : 4));
        if (!(m->joints[j].name = fixed_name(ctx, b))) return 0;
        if (parent >= (int32_t)j)
            return iqi_fail(ctx, IQ_ERROR_BAD_HIERARCHY, (int64_t)(offset + (size_t)j * DPM_BONE + DP_NAME + (parent_first ? 0 : 4)),
                            "bone %u ('%s') has parent %d; a parent must come before its bone", j, m->joints[j].name, parent);
        if (parent < -1) below++;
        m->joints[j].parent = parent < 0 ? -1 : parent;
    }
    if (below) iqi_warn(ctx, IQ_WARNING_REPAIRED, "%u bone parent(s) below -1 were read as roots", below);
    return 1;
}

static void bounds_from(iq_bounds *b, const uint8_t *p, int with_xy) {
    for (int k = 0; k < 3; k++) {
        b->min[k] = bef32(p + 4 * k);
        b->max[k] = bef32(p + 12 + 4 * k);
    }
    b->xy_radius = bef32(p + 24);
    b->radius = with_xy ? bef32(p + 28) : b->xy_radius;
}

// -- DPM

/* Frame f's matrix of bone j: 12 big-endian floats at the frame's bone positions. */
static int dpm_matrix(iqi_ctx *ctx, const void *arg, uint32_t f, uint32_t j, float m[12]) {
    size_t frames = *(const size_t *)arg;
    size_t at = be32(ctx->data + frames + (size_t)f * DPM_FRAME + 64) + (size_t)j * DP_MATRIX;
    return read_matrix(ctx, at, m, "bone matrix of frame", f);
}

/* Frames named "<name>_0", "<name>_1", ... (as DarkPlaces' dpmodel tool
 * names them) make one animation "<name>"; any other frame is its own. */
static int dpm_animations(iqi_ctx *ctx, const char **names) {
    iq_model *m = ctx->model;
    uint32_t nf = m->frame_count, count = 0;
    m->animations = iqi_alloc(ctx, nf, sizeof(iq_animation), "animations");
    if (!m->animations) return 0;
    for (uint32_t f = 0; f < nf;) {
        const char *name = names[f], *us = strrchr(name, '_');
        size_t stem = us ? (size_t)(us - name) : strlen(name);
        uint32_t e = f + 1;
        if (us && !strcmp(us, "_0"))
            for (char want[24]; e < nf; e++) {
                snprintf(want, sizeof want, "_%u", e - f);
                if (strncmp(names[e], name, stem) || strcmp(names[e] + stem, want)) break;
            }
        else stem = strlen(name);
        iq_animation *a = &m->animations[count++];
        if (!(a->name = iqi_strdup_n(ctx, name, stem))) return 0;
        a->first_frame = f;
        a->frame_count = e - f;
        a->framerate = DP_FRAMERATE;
        a->flags = IQ_ANIMATION_LOOP;
        f = e;
    }
    m->animation_count = count;
    return 1;
}

int iqi_parse_dpm(iqi_ctx *ctx) {
    iq_model *m = ctx->model;
    const uint8_t *d = ctx->data;
    if (ctx->size < DPM_HEADER) return iqi_fail(ctx, IQ_ERROR_TRUNCATED, 0, "%zu bytes is shorter than the 80-byte DPM header", ctx->size);
    if (memcmp(d, "DARKPLACESMODEL", 16)) return iqi_fail(ctx, IQ_ERROR_BAD_MAGIC, 0, "not a DPM file (no DARKPLACESMODEL magic)");
    if (be32(d + 16) != 2) return iqi_fail(ctx, IQ_ERROR_BAD_VERSION, 16, "DPM type %u; type 2 (hierarchical skeletal pose) is read", be32(d + 16));
    uint32_t nb = be32(d + 56), nm = be32(d + 60), nf = be32(d + 64);
    size_t ob = be32(d + 68), om = be32(d + 72), of = be32(d + 76);
    if (!nb) return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, 56, "no bones (DarkPlaces needs at least one)");
    if (!nf) return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, 64, "no frames (frame 0 is the pose the mesh was built in)");
    if (nb > ctx->limits.max_joints) return iqi_fail(ctx, IQ_ERROR_LIMIT, 56, "%u bones; the limit is %u", nb, ctx->limits.max_joints);
    if (nf > ctx->limits.max_frames) return iqi_fail(ctx, IQ_ERROR_LIMIT, 64, "%u frames; the limit is %u", nf, ctx->limits.max_frames);
    if (be32(d + 20) > ctx->size) return iqi_fail(ctx, IQ_ERROR_TRUNCATED, 20, "the header says %u bytes, the file has %zu", be32(d + 20), ctx->size);
    if (!section_ok(ctx, ob, nb, DPM_BONE, 68, "bones") || !section_ok(ctx, om, nm, DPM_MESH, 72, "meshes") ||
        !section_ok(ctx, of, nf, DPM_FRAME, 76, "frames"))
        return 0;
    for (uint32_t f = 0; f < nf; f++) {
        size_t at = of + (size_t)f * DPM_FRAME + 64;
        if (!section_ok(ctx, be32(d + at), nb, DP_MATRIX, (int64_t)at, "a frame's bone matrices")) return 0;
    }
    if (!read_bones(ctx, ob, nb, 1)) return 0;
    float *world = iqi_alloc(ctx, nb, 12 * sizeof(float), "bone matrices");
    const char **names = iqi_alloc(ctx, nf, sizeof(char *), "frame names");
    m->frame_bounds = iqi_alloc(ctx, nf, sizeof(iq_bounds), "frame bounds");
    if (!world || !names || !m->frame_bounds || !iqi_poses_from_matrices(ctx, dpm_matrix, &of, nf, world)) return 0;
    for (uint32_t f = 0; f < nf; f++) {
        const uint8_t *fr = d + of + (size_t)f * DPM_FRAME;
        if (!(names[f] = fixed_name(ctx, fr))) return 0;
        bounds_from(&m->frame_bounds[f], fr + DP_NAME, 1);
        if (!(m->frame_bounds[f].min[0] <= m->frame_bounds[f].max[0])) iqi_mark_bounds_unusable(&m->frame_bounds[f]);
    }
    if (!dpm_animations(ctx, names)) return 0;

    /* Meshes: count, then read each into the model-wide arrays. */
    uint64_t total_v = 0, total_t = 0;
    for (uint32_t i = 0; i < nm; i++) {
        const uint8_t *mh = d + om + (size_t)i * DPM_MESH;
        uint32_t v = be32(mh + 32), t = be32(mh + 36);
        int64_t here = (int64_t)(om + (size_t)i * DPM_MESH);
        if (!section_ok(ctx, be32(mh + 44), v, 8, here + 44, "texture coordinates") ||
            !section_ok(ctx, be32(mh + 48), t, 12, here + 48, "triangles") ||
            !section_ok(ctx, be32(mh + 40), v, 4 + DPM_BONEVERT, here + 40, "vertices"))
            return 0;
        total_v += v;
        total_t += t;
    }
    if (!iqi_alloc_skinned(ctx, nm, "meshes", total_v, total_t, 60)) return 0;
    uint32_t first_v = 0, first_t = 0, many = 0, unweighted = 0;
    for (uint32_t i = 0; i < nm; i++) {
        const uint8_t *mh = d + om + (size_t)i * DPM_MESH;
        uint32_t nv = be32(mh + 32), nt = be32(mh + 36);
        size_t ov = be32(mh + 40), ot = be32(mh + 44), oi = be32(mh + 48);
        iq_mesh *mesh = &m->meshes[i];
        if (!(mesh->name = fixed_name(ctx, mh))) return 0;
        mesh->material = mesh->name; /* DarkPlaces names the surface after its shader */
        mesh->first_vertex = first_v;
        mesh->vertex_count = nv;
        mesh->first_triangle = first_t;
        mesh->triangle_count = nt;
        for (uint32_t t = 0; t < nt; t++)
            for (int k = 0; k < 3; k++) {
                size_t at = oi + 12 * (size_t)t + 4 * (size_t)(2 - k); /* counter-clockwise to clockwise */
                uint32_t v = be32(d + at);
                if (v >= nv)
                    return iqi_fail(ctx, IQ_ERROR_BAD_INDEX, (int64_t)at, "mesh %u ('%s'), triangle %u: vertex %u, but the mesh has %u", i,
                                    mesh->name, t, v, nv);
                m->indices[3 * ((size_t)first_t + t) + k] = first_v + v;
            }
        size_t at = ov;
        for (uint32_t v = 0; v < nv; v++) {
            size_t o = (size_t)first_v + v;
            if (!section_ok(ctx, at, 1, 4, (int64_t)at, "a vertex")) return 0;
            uint32_t weights = be32(d + at);
            if (!section_ok(ctx, at + 4, weights, DPM_BONEVERT, (int64_t)at, "a vertex's weights")) return 0;
            at += 4;
            double p[3] = {0, 0, 0}, n[3] = {0, 0, 0};
            iqi_top_weights top = {{0, 0, 0, 0}, {0, 0, 0, 0}}; /* the 4 largest influences, as DarkPlaces keeps them */
            if (weights > 4) many++;
            for (uint32_t w = 0; w < weights; w++, at += DPM_BONEVERT) {
                float origin[3], normal[3], influence = bef32(d + at + 12);
                uint32_t b = be32(d + at + 28);
                for (int k = 0; k < 3; k++) {
                    origin[k] = bef32(d + at + 4 * k);
                    normal[k] = bef32(d + at + 16 + 4 * k);
                    if (!iqi_usable(ctx, origin[k]) || !iqi_usable(ctx, normal[k]))
                        return iqi_fail_value(ctx, (int64_t)at, 0, iqi_usable(ctx, origin[k]) ? normal[k] : origin[k],
                                              "mesh %u vertex %u weight %u", i, v, w);
                }
                if (!iqi_usable(ctx, influence)) return iqi_fail_value(ctx, (int64_t)at + 12, 0, influence, "mesh %u vertex %u influence", i, v);
                if (b >= nb) return iqi_fail(ctx, IQ_ERROR_BAD_INDEX, (int64_t)at + 28, "mesh %u vertex %u: bone %u, but the model has %u", i, v, b, nb);
                const float *mw = world + 12 * (size_t)b;
                for (int r = 0; r < 3; r++) {
                    p[r] += (double)mw[4 * r] * origin[0] + (double)mw[4 * r + 1] * origin[1] + (double)mw[4 * r + 2] * origin[2] +
                            (double)influence * mw[4 * r + 3];
                    n[r] += (double)mw[4 * r] * normal[0] + (double)mw[4 * r + 1] * normal[1] + (double)mw[4 * r + 2] * normal[2];
                }
                iqi_top_weights_add(&top, b, influence);
            }
            for (int k = 0; k < 3; k++) {
                if (!iqi_usable(ctx, p[k])) return iqi_fail_value(ctx, (int64_t)ov, 0, p[k], "mesh %u vertex %u position", i, v);
                m->positions[3 * o + k] = (float)p[k];
            }
            iqi_unit_normal(n, m->normals + 3 * o);
            if (!iqi_top_weights_store(&top, m->blend_indices + 4 * o, m->blend_weights + 4 * o)) {
                m->blend_indices[4 * o] = (uint16_t)(weights ? be32(d + at - DPM_BONEVERT * (size_t)weights + 28) : 0);
                m->blend_weights[4 * o] = 1;
                unweighted++;
            }
            for (int k = 0; k < 2; k++) m->texcoords[2 * o + k] = bef32(d + ot + 8 * (size_t)v + 4 * (size_t)k);
            iqi_repair_vector(ctx, IQI_TEXCOORD, m->texcoords + 2 * o, 2);
        }
        first_v += nv;
        first_t += nt;
    }
    m->vertex_count = first_v;
    m->triangle_count = first_t;
    m->mesh_count = nm;
    if (many) iqi_warn(ctx, IQ_WARNING_IGNORED_DATA, "%u vertices have more than 4 weights; the 4 largest drive the skinning (the bind pose uses all)", many);
    if (unweighted) iqi_warn(ctx, IQ_WARNING_REPAIRED, "%u vertices have no positive influence; bound to their first bone", unweighted);
    return 1;
}

// -- ZYM

static int zym_matrix(iqi_ctx *ctx, const void *arg, uint32_t f, uint32_t j, float m[12]) {
    size_t at = *(const size_t *)arg + ((size_t)f * ctx->model->joint_count + j) * DP_MATRIX;
    return read_matrix(ctx, at, m, "bone matrix of pose", f);
}

int iqi_parse_zym(iqi_ctx *ctx) {
    iq_model *m = ctx->model;
    const uint8_t *d = ctx->data;
    if (ctx->size < ZYM_HEADER) return iqi_fail(ctx, IQ_ERROR_TRUNCATED, 0, "%zu bytes is shorter than the 140-byte ZYM header", ctx->size);
    if (memcmp(d, "ZYMOTICMODEL", 12)) return iqi_fail(ctx, IQ_ERROR_BAD_MAGIC, 0, "not a ZYM file (no ZYMOTICMODEL magic)");
    if (be32(d + 12) != 1) return iqi_fail(ctx, IQ_ERROR_BAD_VERSION, 12, "ZYM type %u; type 1 (skeletal pose) is read, as DarkPlaces reads only it", be32(d + 12));
    if (be32(d + 16) > ctx->size) return iqi_fail(ctx, IQ_ERROR_TRUNCATED, 16, "the header says %u bytes, the file has %zu", be32(d + 16), ctx->size);
    uint32_t nv = be32(d + 48), nt = be32(d + 52), ns = be32(d + 56), nb = be32(d + 60), nsc = be32(d + 64);
    size_t lump[9][2];
    for (int i = 0; i < 9; i++) {
        lump[i][0] = be32(d + 68 + 8 * i);
        lump[i][1] = be32(d + 72 + 8 * i);
        static const char *const names[9] = {"scenes", "poses", "bones", "vertex bone counts", "vertices", "texture coordinates",
                                             "render list", "shaders", "triangle zones"};
        if (!section_ok(ctx, lump[i][0], lump[i][1], 1, 68 + 8 * i, names[i])) return 0;
    }
    enum { SCENES, POSES, BONES, COUNTS, VERTS, TEXCOORDS, RENDER, SHADERS };
    if (!nb) return iqi_fail(ctx, IQ_ERROR_BAD_VALUE, 60, "no bones");
    if (nb > ctx->limits.max_joints) return iqi_fail(ctx, IQ_ERROR_LIMIT, 60, "%u bones; the limit is %u", nb, ctx->limits.max_joints);
    uint64_t pose_size = (uint64_t)nb * DP_MATRIX, poses = lump[POSES][1] / pose_size;
    if (!poses) return iqi_fail(ctx, IQ_ERROR_BAD_ANIMATION, 76, "the poses lump (%zu bytes) holds no whole pose of %u bones", lump[POSES][1], nb);
    if (poses > ctx->limits.max_frames) return iqi_fail(ctx, IQ_ERROR_LIMIT, 76, "%llu poses; the limit is %u", (unsigned long long)poses, ctx->limits.max_frames);
    if (!section_ok(ctx, lump[SCENES][0], nsc, ZYM_SCENE, 64, "scenes") || !section_ok(ctx, lump[BONES][0], nb, ZYM_BONE, 60, "bones") ||
        !section_ok(ctx, lump[COUNTS][0], nv, 4, 48, "vertex bone counts") || !section_ok(ctx, lump[TEXCOORDS][0], nv, 8, 48, "texture coordinates") ||
        !section_ok(ctx, lump[SHADERS][0], ns, DP_NAME, 56, "shaders"))
        return 0;
    for (uint32_t v = 0; v < nv; v++)
        if (bei32(d + lump[COUNTS][0] + 4 * (size_t)v) != 1)
            return iqi_fail(ctx, IQ_ERROR_UNSUPPORTED, (int64_t)(lump[COUNTS][0] + 4 * (size_t)v),
                            "vertex %u has %d bones; ZYM vertices have exactly one (DarkPlaces refuses others too)", v,
                            bei32(d + lump[COUNTS][0] + 4 * (size_t)v));
    if (!section_ok(ctx, lump[VERTS][0], nv, 16, 48, "vertices")) return 0;
    if (lump[RENDER][1] != (uint64_t)ns * 4 + (uint64_t)nt * 12)
        return iqi_fail(ctx, IQ_ERROR_BAD_MESH, 120, "the render list has %zu bytes; %u shaders and %u triangles need %llu", lump[RENDER][1], ns, nt,
                        (unsigned long long)ns * 4 + (unsigned long long)nt * 12);
    if (!read_bones(ctx, lump[BONES][0], nb, 0)) return 0;
    float *world = iqi_alloc(ctx, nb, 12 * sizeof(float), "bone matrices");
    if (!world || !iqi_poses_from_matrices(ctx, zym_matrix, &lump[POSES][0], (uint32_t)poses, world)) return 0;

    /* scenes: the animations */
    m->animations = iqi_alloc(ctx, nsc ? nsc : 1, sizeof(iq_animation), "scenes");
    if (!m->animations) return 0;
    m->animation_count = nsc;
    for (uint32_t s = 0; s < nsc; s++) {
        const uint8_t *sc = d + lump[SCENES][0] + (size_t)s * ZYM_SCENE;
        iq_animation *a = &m->animations[s];
        float rate = bef32(sc + 60);
        uint32_t start = be32(sc + 68), length = be32(sc + 72);
        if (!(a->name = fixed_name(ctx, sc))) return 0;
        if (!(rate >= 0) || !iqi_usable(ctx, rate))
            return iqi_fail_value(ctx, (int64_t)(sc - d) + 60, 0, rate, "scene %u ('%s') framerate (0 or more)", s, a->name);
        if ((uint64_t)start + length > poses)
            return iqi_fail(ctx, IQ_ERROR_BAD_ANIMATION, (int64_t)(sc - d) + 68, "scene %u ('%s') covers poses %u to %llu; the file has %llu", s,
                            a->name, start, (unsigned long long)start + length - 1, (unsigned long long)poses);
        a->first_frame = start;
        a->frame_count = length;
        a->framerate = rate;
        a->flags = be32(sc + 64) & 1 ? 0 : IQ_ANIMATION_LOOP; /* ZYMSCENEFLAG_NOLOOP */
    }

    /* vertices: one bone each, the point in that bone's space at pose 0 */
    m->vertex_count = nv;
    m->positions = iqi_alloc(ctx, nv ? nv : 1, 12, "positions");
    m->texcoords = iqi_alloc(ctx, nv ? nv : 1, 8, "texture coordinates");
    m->blend_indices = iqi_alloc(ctx, nv ? nv : 1, 8, "blend indices");
    m->blend_weights = iqi_alloc(ctx, nv ? nv : 1, 16, "blend weights");
    if (!m->positions || !m->texcoords || !m->blend_indices || !m->blend_weights) return 0;
    for (uint32_t v = 0; v < nv; v++) {
        const uint8_t *vp = d + lump[VERTS][0] + 16 * (size_t)v;
        uint32_t b = be32(vp);
        if (b >= nb) return iqi_fail(ctx, IQ_ERROR_BAD_INDEX, vp - d, "vertex %u: bone %u, but the model has %u", v, b, nb);
        float o[3];
        for (int k = 0; k < 3; k++) {
            o[k] = bef32(vp + 4 + 4 * k);
            if (!iqi_usable(ctx, o[k])) return iqi_fail_value(ctx, vp - d + 4 + 4 * k, 0, o[k], "vertex %u", v);
        }
        const float *mw = world + 12 * (size_t)b;
        for (int r = 0; r < 3; r++) {
            double p = (double)mw[4 * r] * o[0] + (double)mw[4 * r + 1] * o[1] + (double)mw[4 * r + 2] * o[2] + mw[4 * r + 3];
            if (!iqi_usable(ctx, p)) return iqi_fail_value(ctx, vp - d, 0, p, "vertex %u position", v);
            m->positions[3 * (size_t)v + r] = (float)p;
        }
        m->blend_indices[4 * (size_t)v] = (uint16_t)b;
        m->blend_weights[4 * (size_t)v] = 1;
        const uint8_t *tc = d + lump[TEXCOORDS][0] + 8 * (size_t)v;
        m->texcoords[2 * (size_t)v] = bef32(tc);
        m->texcoords[2 * (size_t)v + 1] = 1 - bef32(tc + 4); /* stored from the bottom */
        iqi_repair_vector(ctx, IQI_TEXCOORD, m->texcoords + 2 * (size_t)v, 2);
    }

    /* the render list: per shader a triangle count, then its triangles */
    m->meshes = iqi_alloc(ctx, ns ? ns : 1, sizeof(iq_mesh), "meshes");
    m->indices = iqi_alloc(ctx, nt ? nt : 1, 12, "triangles");
    if (!m->meshes || !m->indices) return 0;
    size_t at = lump[RENDER][0], end = at + lump[RENDER][1];
    uint32_t tri = 0;
    for (uint32_t s = 0; s < ns; s++) {
        uint32_t count = be32(d + at);
        if ((uint64_t)count * 12 > end - at - 4 || (uint64_t)tri + count > nt)
            return iqi_fail(ctx, IQ_ERROR_BAD_MESH, (int64_t)at, "shader %u: %u triangles run past the render list", s, count);
        at += 4;
        iq_mesh *mesh = &m->meshes[s];
        if (!(mesh->name = fixed_name(ctx, d + lump[SHADERS][0] + (size_t)s * DP_NAME))) return 0;
        mesh->material = mesh->name;
        mesh->first_triangle = tri;
        mesh->triangle_count = count;
        uint32_t lo = UINT32_MAX, hi = 0;
        for (uint32_t t = 0; t < count; t++, tri++)
            for (int k = 0; k < 3; k++) {
                size_t from = at + 12 * (size_t)t + 4 * (size_t)(2 - k); /* counter-clockwise to clockwise */
                uint32_t v = be32(d + from);
                if (v >= nv) return iqi_fail(ctx, IQ_ERROR_BAD_INDEX, (int64_t)from, "shader %u, triangle %u: vertex %u, but the model has %u", s, t, v, nv);
                m->indices[3 * (size_t)tri + k] = v;
                if (v < lo) lo = v;
                if (v > hi) hi = v;
            }
        at += 12 * (size_t)count;
        mesh->first_vertex = count ? lo : 0;
        mesh->vertex_count = count ? hi + 1 - lo : 0;
    }
    m->triangle_count = tri;
    m->mesh_count = ns;
    return iqi_normals_from_triangles(ctx, 0); /* DarkPlaces builds them so, vertex by vertex */
}
