/* A part of a glTF scene: its nodes (part, joints, tags), its vertex data
 * (attributes shared by every mesh of the part, indices per mesh), meshes and skin. */
#include "write/iq_gltf_internal.h"
#include "formats/iq_iqm_format.h"
#include <stddef.h>
#include <stdio.h>

static void free_vattrs(vattrs *va, uint32_t ncustom) {
    for (uint32_t i = 0; va->custom_names && i < ncustom; i++) free(va->custom_names[i]);
    free(va->custom_names);
    free(va->custom);
    free(va->indices);
}

/* Unit vectors as the spec wants (the validator checks); w of tangents +-1. */
int32_t iqi_gltf_unit_vectors(gw *w, const float *src, uint32_t nv, int ncomp) {
    float *t = iqi_gltf_scratch(w, (uint64_t)nv * ncomp);
    if (!t) return -1;
    for (uint32_t v = 0; v < nv; v++) {
        const float *a = src + (size_t)ncomp * v;
        float *o = t + (size_t)ncomp * v;
        double len = sqrt((double)a[0] * a[0] + (double)a[1] * a[1] + (double)a[2] * a[2]);
        if (len > 1e-20 && isfinite(len))
            for (int k = 0; k < 3; k++) o[k] = (float)(a[k] / len);
        else { o[0] = 0; o[1] = 0; o[2] = 1; }
        if (ncomp == 4) o[3] = a[3] < 0 ? -1.0f : 1.0f;
    }
    return iqi_gltf_acc_floats(w, t, nv, ncomp, TARGET_ARRAY, 0);
}

/* Custom arrays as `_NAME` FLOAT attributes holding the stored values as they
 * are (not normalised): FLOAT is the one component type every size and
 * alignment allows. Non-finite values (a custom array is raw bytes) become 0. */
static int write_custom(gw *w, const iq_model *m, vattrs *va) {
    uint32_t nc = m->custom_array_count, nv = m->vertex_count;
    va->custom = malloc((size_t)nc * sizeof *va->custom + 1);
    va->custom_names = calloc((size_t)nc + 1, sizeof *va->custom_names);
    if (!va->custom || !va->custom_names) return iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for custom arrays");
    for (uint32_t i = 0; i < nc; i++) {
        const iq_custom_array *ca = &m->custom_arrays[i];
        va->custom[i] = -1;
        if (ca->size < 1 || ca->size > 4 || (unsigned)ca->format > IQ_DOUBLE || !ca->data || !nv) continue;
        char name[80];
        size_t n = 0;
        name[n++] = '_';
        for (const char *c = ca->name ? ca->name : ""; *c && n < 60; c++)
            name[n++] = (*c >= 'a' && *c <= 'z') ? (char)(*c - 32) : ((*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')) ? *c : '_';
        name[n] = 0;
        for (uint32_t j = 0; j < i; j++) /* attribute names must be unique */
            if (va->custom_names[j] && !strcmp(va->custom_names[j], name)) { snprintf(name + n, sizeof name - n, "_%u", i); break; }
        va->custom_names[i] = iqi_gltf_dup_printf(w, "%s", name);
        float *t = iqi_gltf_scratch(w, (uint64_t)nv * ca->size);
        if (!t || !va->custom_names[i]) return 0;
        const uint8_t *d = ca->data;
        for (uint64_t k = 0; k < (uint64_t)nv * ca->size; k++) {
            float v = (float)iqi_component_read_plain(d + k * iqi_component_size[ca->format], ca->format);
            t[k] = isfinite(v) ? v : 0.0f;
        }
        va->custom[i] = iqi_gltf_acc_floats(w, t, nv, (int)ca->size, TARGET_ARRAY, 0);
    }
    return !w->failed;
}

/* JOINTS_0 / WEIGHTS_0: a joint listed twice is merged into one slot, unused
 * slots point at joint 0 with weight 0, and weights are renormalised in float
 * with the rounding left over put on the largest, so they sum to 1 as the
 * validator measures. */
static int write_skin_attrs(gw *w, const iq_model *m, vattrs *va) {
    uint32_t nv = m->vertex_count;
    uint32_t *j = malloc((size_t)nv * 16 + 16);
    float *wt = iqi_gltf_scratch(w, (uint64_t)nv * 4);
    if (!j || !wt) { free(j); return j ? 0 : iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for joints"); }
    for (uint32_t v = 0; v < nv; v++) {
        uint32_t *jo = j + 4 * (size_t)v;
        float *wo = wt + 4 * (size_t)v;
        int n = 0;
        for (int k = 0; k < 4; k++) {
            uint32_t idx = m->blend_indices[4 * (size_t)v + k];
            float x = m->blend_weights[4 * (size_t)v + k];
            if (!(x > 0)) continue;
            int s = 0;
            while (s < n && jo[s] != idx) s++;
            if (s == n) { jo[n] = idx; wo[n] = 0; n++; }
            wo[s] += x;
        }
        double sum = 0;
        for (int k = 0; k < n; k++) sum += wo[k];
        if (!n || !(sum > 0)) { n = 1; jo[0] = 0; wo[0] = 1; sum = 1; }
        int big = 0;
        for (int k = 0; k < n; k++) {
            wo[k] = (float)(wo[k] / sum);
            if (wo[k] > wo[big]) big = k;
        }
        for (int k = n; k < 4; k++) { jo[k] = 0; wo[k] = 0; }
        float rest = 0;
        for (int k = 0; k < 4; k++)
            if (k != big) rest += wo[k];
        wo[big] = 1.0f - rest;
    }
    va->weights = iqi_gltf_acc_floats(w, wt, nv, 4, TARGET_ARRAY, 0);
    va->joints = iqi_gltf_acc_ints(w, j, (uint64_t)nv * 4, nv, 4, m->joint_count <= 256 ? CT_UBYTE : CT_USHORT, TARGET_ARRAY);
    free(j);
    return !w->failed;
}

static int write_vertex_data(gw *w, const iq_model *m, vattrs *va) {
    uint32_t nv = m->vertex_count;
    memset(va, 0xFF, offsetof(vattrs, custom));
    va->custom = NULL;
    va->custom_names = NULL;
    va->indices = malloc((size_t)m->mesh_count * sizeof *va->indices + 1);
    if (!va->indices) return iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for meshes");
    if (!nv) {
        for (uint32_t i = 0; i < m->mesh_count; i++) va->indices[i] = -1;
        return 1;
    }
    va->position = iqi_gltf_acc_floats(w, m->positions, nv, 3, TARGET_ARRAY, 1);
    if (m->normals) va->normal = iqi_gltf_unit_vectors(w, m->normals, nv, 3);
    if (m->tangents) va->tangent = iqi_gltf_unit_vectors(w, m->tangents, nv, 4);
    if (m->texcoords) va->texcoord = iqi_gltf_acc_floats(w, m->texcoords, nv, 2, TARGET_ARRAY, 0);
    if (m->colors) {
        float *t = iqi_gltf_scratch(w, (uint64_t)nv * 4);
        if (!t) return 0;
        for (uint64_t k = 0; k < (uint64_t)nv * 4; k++) t[k] = m->colors[k] < 0 ? 0 : m->colors[k] > 1 ? 1 : m->colors[k];
        va->color = iqi_gltf_acc_floats(w, t, nv, 4, TARGET_ARRAY, 0);
    }
    if (iqi_gltf_skinned(m) && !write_skin_attrs(w, m, va)) return 0;
    if (!write_custom(w, m, va)) return 0;
    /* Indices: one accessor per mesh, winding swapped for counter-clockwise front faces. */
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        const iq_mesh *mesh = &m->meshes[i];
        va->indices[i] = -1;
        if (!mesh->triangle_count || (uint64_t)mesh->first_triangle + mesh->triangle_count > m->triangle_count) continue;
        uint64_t n = 3ull * mesh->triangle_count;
        uint32_t *idx = malloc((size_t)n * 4);
        if (!idx) return iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for indices");
        const uint32_t *src = m->indices + 3ull * mesh->first_triangle;
        for (uint64_t t = 0; t < n; t += 3) {
            idx[t] = src[t];
            idx[t + 1] = src[t + 2];
            idx[t + 2] = src[t + 1];
        }
        /* 0xFFFF would be a restart value for UNSIGNED_SHORT; vertex_count <= 65535 keeps indices below it */
        va->indices[i] = iqi_gltf_acc_ints(w, idx, n, (uint32_t)n, 1, nv <= 65535 ? CT_USHORT : CT_UINT, TARGET_ELEMENTS);
        free(idx);
        if (w->failed) return 0;
    }
    return !w->failed;
}

/* A glTF mesh: one primitive per non-empty model mesh. positions/normals
 * override the part's (MD3 base frames); targets: count morph targets, each
 * with POSITION (and NORMAL when normal_targets) accessors. */
int32_t iqi_gltf_write_mesh(gw *w, uint32_t part, const vattrs *va, const char *name, int32_t position, int32_t normal,
                            const int32_t *targets, uint32_t target_count, int normal_targets) {
    const iq_model *m = w->scene->parts[part].model;
    uint32_t prims = 0;
    for (uint32_t i = 0; i < m->mesh_count; i++) prims += va->indices[i] >= 0;
    if (!prims) return -1;
    sbuf *b = &w->meshes;
    iqi_json_sep(w, b);
    iqi_json_lit(w, b, "{\"name\":");
    iqi_json_str(w, b, name);
    iqi_json_lit(w, b, ",\"primitives\":[");
    int first = 1;
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        if (va->indices[i] < 0) continue;
        iqi_json_printf(w, b, "%s{\"attributes\":{\"POSITION\":%d", first ? "" : ",", position);
        first = 0;
        if (normal >= 0) iqi_json_printf(w, b, ",\"NORMAL\":%d", normal);
        if (va->tangent >= 0 && normal >= 0) iqi_json_printf(w, b, ",\"TANGENT\":%d", va->tangent);
        if (va->texcoord >= 0) iqi_json_printf(w, b, ",\"TEXCOORD_0\":%d", va->texcoord);
        if (va->color >= 0) iqi_json_printf(w, b, ",\"COLOR_0\":%d", va->color);
        if (va->joints >= 0) iqi_json_printf(w, b, ",\"JOINTS_0\":%d,\"WEIGHTS_0\":%d", va->joints, va->weights);
        for (uint32_t c = 0; c < m->custom_array_count; c++)
            if (va->custom[c] >= 0) {
                iqi_json_lit(w, b, ",");
                iqi_json_str(w, b, va->custom_names[c]);
                iqi_json_printf(w, b, ":%d", va->custom[c]);
            }
        iqi_json_printf(w, b, "},\"indices\":%d,\"material\":%u", va->indices[i], w->part_mats[part][i]);
        if (target_count) {
            iqi_json_lit(w, b, ",\"targets\":[");
            for (uint32_t t = 0; t < target_count; t++) {
                const int32_t *tg = targets + 2 * (size_t)t;
                iqi_json_printf(w, b, "%s{\"POSITION\":%d", t ? "," : "", tg[0]);
                if (normal_targets) iqi_json_printf(w, b, ",\"NORMAL\":%d", tg[1]);
                iqi_json_lit(w, b, "}");
            }
            iqi_json_lit(w, b, "]");
        }
        iqi_json_lit(w, b, "}");
    }
    iqi_json_lit(w, b, "],\"extras\":{\"meshes\":[");
    first = 1;
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        if (va->indices[i] < 0) continue;
        if (!first) iqi_json_lit(w, b, ",");
        first = 0;
        iqi_json_str(w, b, m->meshes[i].name);
    }
    iqi_json_lit(w, b, "]}}");
    return w->failed ? -1 : (int32_t)w->n_meshes++;
}

/* -- Parts: nodes, meshes, skins */
static int32_t write_skin(gw *w, const iq_model *m, int32_t joint_node) {
    float *t = iqi_gltf_scratch(w, 16ull * m->joint_count);
    if (!t) return -1;
    for (uint32_t j = 0; j < m->joint_count; j++) { /* row-major 3x4 -> column-major 4x4 */
        const float *ib = m->inverse_bind + 12 * (size_t)j;
        float *o = t + 16 * (size_t)j;
        for (int c = 0; c < 4; c++) {
            for (int r = 0; r < 3; r++) o[4 * c + r] = ib[4 * r + c];
            o[4 * c + 3] = c == 3 ? 1.0f : 0.0f;
        }
    }
    int32_t ibm = iqi_gltf_acc_floats(w, t, m->joint_count, 16, 0, 0);
    iqi_json_sep(w, &w->skins);
    iqi_json_printf(w, &w->skins, "{\"inverseBindMatrices\":%d,\"joints\":[", ibm);
    for (uint32_t j = 0; j < m->joint_count; j++) iqi_json_printf(w, &w->skins, "%s%d", j ? "," : "", joint_node + (int32_t)j);
    iqi_json_lit(w, &w->skins, "]}");
    return w->failed ? -1 : (int32_t)w->n_skins++;
}

int iqi_gltf_write_part(gw *w, uint32_t p, int32_t root) {
    const iq_gltf_scene *s = w->scene;
    const iq_gltf_part *pt = &s->parts[p];
    const iq_model *m = pt->model;
    part_info *pi = &w->pinfo[p];
    int32_t parent = root;
    if (pt->attached) {
        const part_info *pp = &w->pinfo[pt->parent];
        parent = (s->parts[pt->parent].model->tag_count ? pp->tag_node : pp->joint_node) + (int32_t)pt->attach_index;
    }
    char *pname = pt->name ? iqi_gltf_dup_printf(w, "%s", pt->name) : iqi_gltf_dup_printf(w, "part%u", p);
    pi->node = iqi_gltf_add_node(w, parent, pname);
    if (pi->node < 0) return 0;
    {
        static const char *formats[] = {"auto", "iqm", "iqe", "md3"};
        sbuf e = {0};
        iqi_json_printf(w, &e, "{\"format\":\"%s\"", (unsigned)m->format <= IQ_FORMAT_MD3 ? formats[m->format] : "unknown");
        if (m->comment_size) {
            iqi_json_lit(w, &e, ",\"comment\":");
            size_t n = 0;
            while (n < m->comment_size && m->comment[n]) n++; /* IQM comments are NUL-terminated text */
            iqi_json_str_n(w, &e, (const char *)m->comment, n);
        }
        iqi_json_lit(w, &e, "}");
        w->nodes[pi->node].extras = e.p;
    }
    /* joints, parent-first (parent < index is guaranteed) */
    pi->joint_node = (int32_t)w->n_nodes;
    for (uint32_t j = 0; j < m->joint_count; j++) {
        const iq_joint *jt = &m->joints[j];
        int32_t node = iqi_gltf_add_node(w, jt->parent < 0 ? pi->node : pi->joint_node + jt->parent, iqi_gltf_dup_printf(w, "%s", jt->name ? jt->name : ""));
        if (node < 0) return 0;
        iqi_gltf_node_trs(&w->nodes[node], jt->bind.translate, jt->bind.rotate, jt->bind.scale);
    }
    /* tags at frame 0 */
    pi->tag_node = (int32_t)w->n_nodes;
    for (uint32_t t = 0; t < m->tag_count; t++) {
        int32_t node = iqi_gltf_add_node(w, pi->node, iqi_gltf_dup_printf(w, "%s", m->tag_names[t]));
        if (node < 0) return 0;
        if (!m->frame_count) continue;
        float tr[3], rq[4], sc[3];
        iqi_gltf_tag_trs(m, t, 0, 0, 0, tr, rq, sc);
        iqi_gltf_node_trs(&w->nodes[node], tr, rq, sc[0] < 0 ? sc : NULL);
    }
    vattrs va;
    int ok = write_vertex_data(w, m, &va);
    pi->rest_node = pi->mesh_node = -1;
    if (ok && m->vertex_count) {
        char *name = iqi_gltf_dup_printf(w, "%s/mesh", w->nodes[pi->node].name);
        int32_t mesh = name ? iqi_gltf_write_mesh(w, p, &va, name, va.position, va.normal, NULL, 0, 0) : -1;
        if (mesh >= 0 && iqi_gltf_skinned(m)) {
            int32_t skin = write_skin(w, m, pi->joint_node);
            pi->mesh_node = iqi_gltf_add_node(w, -1, name); /* a scene root: see iq_gltf.c's top comment */
            if (pi->mesh_node >= 0) { w->nodes[pi->mesh_node].mesh = mesh; w->nodes[pi->mesh_node].skin = skin; }
        } else if (mesh >= 0) {
            pi->rest_node = iqi_gltf_add_node(w, pi->node, name);
            if (pi->rest_node >= 0) w->nodes[pi->rest_node].mesh = mesh;
        } else {
            free(name);
        }
        if (!w->failed && iqi_gltf_is_md3(m)) iqi_gltf_write_morph_part(w, p, &va);
    }
    free_vattrs(&va, m->custom_array_count);
    return !w->failed;
}
