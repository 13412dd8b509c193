/* glTF 2.0 (GLB) writer: one or more loaded models as one scene (docs/GLTF.md).
 *
 * Axes: the data is written in the library's own Z-up space, bit for bit, and
 * one root node turns it to glTF's Y-up (-90 degrees about X). Poses, inverse
 * binds and tags then compare directly with iq_sample_frame / iq_tag_matrix,
 * and parts hang from tags with no conversion. Skinned mesh nodes sit at the
 * scene root (the spec ignores their parents; the validator warns otherwise):
 * their joints are under the root, so the turn reaches them through the skin.
 * Winding: Quake's clockwise front faces become counter-clockwise by swapping
 * the 2nd and 3rd index of every triangle.
 *
 * Buffers: every accessor has its own 4-aligned bufferView, no strides. The
 * BIN chunk is grown with realloc and capped below 4 GiB (GLB sizes are 32-bit).
 *
 * This file: the entry points, the scene checks and the clips; the other
 * iq_gltf_*.c files are listed in iq_gltf_internal.h. */
#include "write/iq_gltf_internal.h"
#include <stdio.h>

/* -- Scene checks and defaults */
static int check_scene(gw *w) {
    const iq_gltf_scene *s = w->scene;
    if (!s->parts || !s->part_count) return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "a glTF scene needs at least one part");
    if (s->material_count && !s->materials) return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "material_count without materials");
    if (s->clip_count && !s->clips) return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "clip_count without clips");
    if (s->max_morph_targets > IQ_GLTF_MAX_TARGETS)
        return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "max_morph_targets %u is over %u", s->max_morph_targets, IQ_GLTF_MAX_TARGETS);
    for (uint32_t i = 0; i < s->material_count; i++) {
        const iq_gltf_material *mt = &s->materials[i];
        if (mt->image && (!mt->image_size || !mt->image_mime ||
                          (strcmp(mt->image_mime, "image/png") && strcmp(mt->image_mime, "image/jpeg"))))
            return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "material %u: an image needs a size and the mime type image/png or image/jpeg", i);
        if ((unsigned)mt->alpha_mode > IQ_GLTF_BLEND) return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "material %u: bad alpha mode", i);
        if (!(mt->alpha_cutoff >= 0 && mt->alpha_cutoff <= 1e30f)) return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "material %u: bad alpha cutoff", i);
        for (int k = 0; k < 4; k++)
            if (!(mt->base_color[k] >= 0 && mt->base_color[k] <= 1)) return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "material %u: base colour outside 0..1", i);
    }
    for (uint32_t p = 0; p < s->part_count; p++) {
        const iq_gltf_part *pt = &s->parts[p];
        if (!pt->model) return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "part %u has no model", p);
        if (pt->attached) {
            if (pt->parent >= p) return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "part %u: parent %u is not an earlier part", p, pt->parent);
            const iq_model *pm = s->parts[pt->parent].model;
            uint32_t n = pm->tag_count ? pm->tag_count : pm->joint_count;
            if (pt->attach_index >= n)
                return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "part %u: attach index %u, but the parent has %u %s", p, pt->attach_index, n,
                            pm->tag_count ? "tags" : "joints");
        }
        for (uint32_t i = 0; pt->mesh_materials && i < pt->model->mesh_count; i++)
            if (pt->mesh_materials[i] >= s->material_count)
                return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "part %u mesh %u: material %u of %u", p, i, pt->mesh_materials[i], s->material_count);
    }
    for (uint32_t c = 0; c < s->clip_count; c++) {
        const iq_gltf_clip *cl = &s->clips[c];
        if (!cl->ranges) return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "clip %u has no ranges", c);
        if (!(cl->framerate >= 0 && cl->framerate <= 1e6f)) return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "clip %u: framerate %g", c, (double)cl->framerate);
        for (uint32_t p = 0; p < s->part_count; p++) {
            const iq_gltf_range *r = &cl->ranges[p];
            if ((uint64_t)r->first_frame + r->frame_count > s->parts[p].model->frame_count)
                return iqi_gltf_fail(w, IQ_ERROR_INVALID_ARGUMENT, "clip %u part %u: frames %u+%u of %u", c, p, r->first_frame, r->frame_count,
                            s->parts[p].model->frame_count);
        }
    }
    return 1;
}

static float default_fps(const iq_model *m) { return iqi_gltf_is_md3(m) ? IQ_MD3_DEFAULT_FRAMERATE : (float)IQ_DEFAULT_FRAMERATE; }

/* The slowest clip glTF can hold: key times are floats of frame / fps, so a file's framerate of,
 * say, 1e-40 (finite and positive, so loaded) would put them past FLT_MAX. One frame per 1000 s
 * keeps a million frames within 1e9 s. */
#define MIN_CLIP_FRAMERATE 1e-3f

static int add_clip(gw *w, const char *name, float fps, int loop) {
    if (!(fps >= MIN_CLIP_FRAMERATE))
        return iqi_gltf_fail(w, IQ_ERROR_LIMIT, "animation '%s' plays at %g frames per second: below %g, glTF's float key times cannot hold it",
                             name, (double)fps, (double)MIN_CLIP_FRAMERATE);
    clip *c = &w->clips[w->n_clips];
    memset(c, 0, sizeof *c);
    c->name = iqi_gltf_dup_printf(w, "%s", name);
    c->fps = fps;
    c->loop = loop;
    c->ranges = calloc(w->scene->part_count, sizeof *c->ranges);
    w->n_clips++;
    if (!c->ranges) return iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for clips");
    return !w->failed;
}

static int make_clips(gw *w) {
    const iq_gltf_scene *s = w->scene;
    uint64_t n = s->clip_count;
    if (!n)
        for (uint32_t p = 0; p < s->part_count; p++) {
            const iq_model *m = s->parts[p].model;
            n += m->animation_count ? m->animation_count : m->frame_count > 0;
        }
    if (!n) return 1;
    if (n > 1000000) return iqi_gltf_fail(w, IQ_ERROR_LIMIT, "%llu clips", (unsigned long long)n);
    w->clips = calloc((size_t)n, sizeof *w->clips);
    if (!w->clips) return iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for clips");
    for (uint32_t c = 0; c < s->clip_count; c++) {
        const iq_gltf_clip *cl = &s->clips[c];
        float fps = cl->framerate;
        for (uint32_t p = 0; p < s->part_count && fps == 0; p++)
            if (cl->ranges[p].frame_count) fps = default_fps(s->parts[p].model);
        char fallback[32];
        snprintf(fallback, sizeof fallback, "clip%u", c);
        if (!add_clip(w, cl->name ? cl->name : fallback, fps ? fps : (float)IQ_DEFAULT_FRAMERATE, cl->loop != 0)) return 0;
        memcpy(w->clips[c].ranges, cl->ranges, s->part_count * sizeof *cl->ranges);
    }
    if (s->clip_count) return 1;
    for (uint32_t p = 0; p < s->part_count; p++) {
        const iq_model *m = s->parts[p].model;
        for (uint32_t a = 0; a < m->animation_count; a++) {
            const iq_animation *an = &m->animations[a];
            float fps = an->framerate > 0 && isfinite(an->framerate) ? an->framerate : default_fps(m);
            if (!add_clip(w, an->name ? an->name : "", fps, (an->flags & IQ_ANIMATION_LOOP) != 0)) return 0;
            uint64_t first = an->first_frame, count = an->frame_count;
            if (first > m->frame_count) first = m->frame_count;
            if (first + count > m->frame_count) count = m->frame_count - first;
            w->clips[w->n_clips - 1].ranges[p] = (iq_gltf_range){(uint32_t)first, (uint32_t)count};
        }
        if (!m->animation_count && m->frame_count) {
            if (!add_clip(w, "all", default_fps(m), 1)) return 0;
            w->clips[w->n_clips - 1].ranges[p] = (iq_gltf_range){0, m->frame_count};
        }
    }
    return 1;
}

/* Keys a clip gives a part: one per frame and, when the clip loops and has two
 * frames or more, one more at frame_count / fps holding the first frame again:
 * the library's repeat mode blends the last frame back into the first, and so
 * do glTF players when the key is there (docs/GLTF.md, "Loop seam"). As in
 * iq_clip_playhead, a skeletal clip of 3+ frames whose last pose is its first
 * (Blender's loops) is already closed: no key is added. */
uint32_t iqi_gltf_range_keys(const clip *cl, iq_gltf_range r, const iq_model *m) {
    if (!cl->loop || r.frame_count < 2) return r.frame_count;
    if (r.frame_count > 2 && m->frame_poses && m->joint_count &&
        memcmp(m->frame_poses + (size_t)r.first_frame * m->joint_count,
               m->frame_poses + ((size_t)r.first_frame + r.frame_count - 1) * m->joint_count,
               m->joint_count * sizeof(iq_transform)) == 0)
        return r.frame_count;
    return r.frame_count + 1;
}

static void cleanup(gw *w) {
    free(w->bin);
    free(w->tmp);
    sbuf *bufs[] = {&w->acc, &w->views, &w->meshes, &w->mats, &w->texs, &w->imgs, &w->skins, &w->anims};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) free(bufs[i]->p);
    for (uint32_t i = 0; i < w->n_nodes; i++) { free(w->nodes[i].name); free(w->nodes[i].extras); }
    free(w->nodes);
    for (uint32_t i = 0; i < w->n_clips; i++) { free(w->clips[i].name); free(w->clips[i].ranges); }
    free(w->clips);
    free(w->chunks);
    free(w->pinfo);
    for (uint32_t p = 0; w->part_mats && p < w->scene->part_count; p++) free(w->part_mats[p]);
    free(w->part_mats);
}

uint8_t *iq_write_glb(const iq_gltf_scene *scene, size_t *size, iq_error *error) {
    iq_error local;
    error = iqi_error_reset(error, &local);
    if (!scene || !size) { iqi_set_error(error, IQ_ERROR_INVALID_ARGUMENT, "iq_write_glb needs a scene and a size pointer"); return NULL; }
    *size = 0;
    gw w;
    memset(&w, 0, sizeof w);
    w.scene = scene;
    w.error = error;
    uint8_t *out = NULL;
    if (check_scene(&w) && make_clips(&w) && iqi_gltf_write_materials(&w)) {
        w.pinfo = calloc(scene->part_count, sizeof *w.pinfo);
        if (!w.pinfo) iqi_gltf_fail(&w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for parts");
        static const float turn[4] = {-0.70710678f, 0, 0, 0.70710678f}; /* Z up -> Y up: -90 degrees about X */
        int32_t root = iqi_gltf_add_node(&w, -1, iqi_gltf_dup_printf(&w, "interquake_z_up"));
        if (root >= 0) iqi_gltf_node_trs(&w.nodes[root], NULL, turn, NULL);
        for (uint32_t p = 0; p < scene->part_count && !w.failed; p++) iqi_gltf_write_part(&w, p, root);
        for (uint32_t c = 0; c < w.n_clips && !w.failed; c++) iqi_gltf_write_animation(&w, c);
        if (!w.failed) out = iqi_gltf_assemble(&w, size);
    }
    cleanup(&w);
    return out;
}

uint8_t *iq_write_glb_model(const iq_model *model, size_t *size, iq_error *error) {
    iq_gltf_part part;
    memset(&part, 0, sizeof part);
    part.model = model;
    iq_gltf_scene scene;
    memset(&scene, 0, sizeof scene);
    scene.parts = &part;
    scene.part_count = 1;
    if (!model) {
        iq_error local;
        iqi_set_error(iqi_error_reset(error, &local), IQ_ERROR_INVALID_ARGUMENT, "iq_write_glb_model needs a model");
        return NULL;
    }
    return iq_write_glb(&scene, size, error);
}
