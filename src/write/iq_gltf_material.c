/* glTF materials and images: the scene's materials (embedded PNG/JPEG in the
 * BIN chunk), and one plain material per mesh for parts without a list. */
#include "write/iq_gltf_internal.h"
#include <stdio.h>

static void material_json(gw *w, const char *name, const float *color, int texture, iq_gltf_alpha alpha, float cutoff, int double_sided) {
    static const float white[4] = {1, 1, 1, 1};
    iqi_json_sep(w, &w->mats);
    iqi_json_lit(w, &w->mats, "{\"name\":");
    iqi_json_str(w, &w->mats, name);
    iqi_json_lit(w, &w->mats, ",\"pbrMetallicRoughness\":{\"baseColorFactor\":");
    iqi_json_floats(w, &w->mats, color ? color : white, 4);
    if (texture >= 0) iqi_json_printf(w, &w->mats, ",\"baseColorTexture\":{\"index\":%d}", texture);
    iqi_json_lit(w, &w->mats, ",\"metallicFactor\":0,\"roughnessFactor\":1}");
    if (alpha == IQ_GLTF_MASK) iqi_json_printf(w, &w->mats, ",\"alphaMode\":\"MASK\",\"alphaCutoff\":%.9g", (double)(cutoff > 0 ? cutoff : 0.5f));
    if (alpha == IQ_GLTF_BLEND) iqi_json_lit(w, &w->mats, ",\"alphaMode\":\"BLEND\"");
    if (double_sided) iqi_json_lit(w, &w->mats, ",\"doubleSided\":true");
    iqi_json_lit(w, &w->mats, "}");
    w->n_mats++;
}

int iqi_gltf_write_materials(gw *w) {
    const iq_gltf_scene *s = w->scene;
    for (uint32_t i = 0; i < s->material_count && !w->failed; i++) {
        const iq_gltf_material *mt = &s->materials[i];
        int tex = -1;
        if (mt->image) {
            size_t ofs;
            uint8_t *p = iqi_gltf_bin_alloc(w, mt->image_size, &ofs);
            if (!p) return 0;
            memcpy(p, mt->image, mt->image_size);
            int32_t view = iqi_gltf_add_view(w, ofs, mt->image_size, 0);
            iqi_json_sep(w, &w->imgs);
            iqi_json_printf(w, &w->imgs, "{\"bufferView\":%d,\"mimeType\":\"%s\"}", view, mt->image_mime);
            iqi_json_sep(w, &w->texs);
            iqi_json_printf(w, &w->texs, "{\"sampler\":0,\"source\":%u}", w->n_imgs++);
            tex = (int)w->n_texs++;
        }
        int zero = !mt->base_color[0] && !mt->base_color[1] && !mt->base_color[2] && !mt->base_color[3];
        char fallback[32];
        snprintf(fallback, sizeof fallback, "material%u", i);
        material_json(w, mt->name ? mt->name : fallback, zero ? NULL : mt->base_color, tex, mt->alpha_mode, mt->alpha_cutoff, mt->double_sided != 0);
    }
    /* Parts without a material list: one plain material per mesh. */
    w->part_mats = calloc(s->part_count, sizeof *w->part_mats);
    if (!w->part_mats) return iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for materials");
    for (uint32_t p = 0; p < s->part_count && !w->failed; p++) {
        const iq_model *m = s->parts[p].model;
        w->part_mats[p] = malloc((size_t)m->mesh_count * 4 + 4);
        if (!w->part_mats[p]) return iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for materials");
        for (uint32_t i = 0; i < m->mesh_count; i++) {
            if (s->parts[p].mesh_materials) { w->part_mats[p][i] = s->parts[p].mesh_materials[i]; continue; }
            w->part_mats[p][i] = w->n_mats;
            const char *name = m->meshes[i].material && *m->meshes[i].material ? m->meshes[i].material : m->meshes[i].name;
            material_json(w, name, NULL, -1, IQ_GLTF_OPAQUE, 0, 0);
        }
    }
    return !w->failed;
}
