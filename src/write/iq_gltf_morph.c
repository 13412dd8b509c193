/* Vertex (MD3) animation in glTF: each clip's frames as chunks of morph
 * targets, one mesh node per chunk, and the channels that show one chunk at a
 * time and step its weights (docs/GLTF.md). */
#include "write/iq_gltf_internal.h"

static int add_chunk(gw *w, chunk c) {
    if (w->n_chunks == w->chunks_cap) {
        uint32_t cap = w->chunks_cap ? w->chunks_cap * 2 : 16;
        chunk *p = realloc(w->chunks, (size_t)cap * sizeof *p);
        if (!p) return iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for morph chunks");
        w->chunks = p;
        w->chunks_cap = cap;
    }
    w->chunks[w->n_chunks++] = c;
    return 1;
}

/* Vertex animation: every clip that plays this part gets its own meshes, each
 * holding a chunk of that clip's frames as morph targets (see docs/GLTF.md):
 * base = the chunk's first frame, target k = frame first+k+1 minus the base.
 * Chunks share their boundary frame so LINEAR weights interpolate across every
 * step of the clip within one mesh. */
int iqi_gltf_write_morph_part(gw *w, uint32_t p, const vattrs *va) {
    const iq_model *m = w->scene->parts[p].model;
    uint32_t nv = m->vertex_count;
    size_t stride = 3 * (size_t)nv;
    uint32_t max = w->scene->max_morph_targets ? w->scene->max_morph_targets : IQ_GLTF_MAX_TARGETS;
    int32_t *targets = malloc(2 * sizeof(int32_t) * (IQ_GLTF_MAX_TARGETS + 1));
    if (!targets) return iqi_gltf_fail(w, IQ_ERROR_OUT_OF_MEMORY, "out of memory for morph targets");
    for (uint32_t c = 0; c < w->n_clips && !w->failed; c++) {
        iq_gltf_range r = w->clips[c].ranges[p];
        if (!r.frame_count) continue;
        uint32_t nk = iqi_gltf_range_keys(&w->clips[c], r, m);
        for (uint32_t first = 0;;) {
            uint32_t last = nk - 1 - first > max ? first + max : nk - 1;
            uint32_t base = iqi_gltf_key_frame(r, first), nt = last - first;
            const float *bp = m->frame_positions + base * stride, *bn = m->frame_normals + base * stride;
            int32_t pos = iqi_gltf_acc_floats(w, bp, nv, 3, TARGET_ARRAY, 1);
            int32_t nrm = m->normals ? iqi_gltf_unit_vectors(w, bn, nv, 3) : -1;
            for (uint32_t t = 0; t < nt && !w->failed; t++) {
                uint32_t frame = iqi_gltf_key_frame(r, first + 1 + t);
                const float *fp = m->frame_positions + frame * stride, *fn = m->frame_normals + frame * stride;
                float *d = iqi_gltf_scratch(w, stride);
                if (!d) break;
                for (size_t k = 0; k < stride; k++) d[k] = fp[k] - bp[k];
                targets[2 * t] = iqi_gltf_acc_floats(w, d, nv, 3, TARGET_ARRAY, 1);
                if (m->normals) {
                    d = iqi_gltf_scratch(w, stride);
                    if (!d) break;
                    for (size_t k = 0; k < stride; k++) d[k] = fn[k] - bn[k];
                    targets[2 * t + 1] = iqi_gltf_acc_floats(w, d, nv, 3, TARGET_ARRAY, 0);
                }
            }
            char *name = iqi_gltf_dup_printf(w, "%s/%s/%u", w->nodes[w->pinfo[p].node].name, w->clips[c].name, first);
            int32_t mesh = name ? iqi_gltf_write_mesh(w, p, va, name, pos, nrm, targets, nt, m->normals != NULL) : -1;
            int32_t node = iqi_gltf_add_node(w, w->pinfo[p].node, name);
            if (node < 0) break;
            static const float hidden[3] = {0, 0, 0};
            iqi_gltf_node_trs(&w->nodes[node], NULL, NULL, hidden);
            w->nodes[node].mesh = mesh;
            if (!add_chunk(w, (chunk){c, p, (uint32_t)node, first, last})) break;
            if (last == nk - 1) break;
            first = last;
        }
    }
    free(targets);
    return !w->failed;
}

/* Morph chunks: the chunk's node is visible (scale 1) from its first frame to
 * its last (STEP), its weights pick one target per frame time (LINEAR), and
 * the part's rest mesh is hidden while the clip plays. */
int iqi_gltf_morph_channels(gw *w, anim_builder *ab, uint32_t c, uint32_t p, float fps) {
    uint32_t keys = iqi_gltf_range_keys(&w->clips[c], w->clips[c].ranges[p], w->scene->parts[p].model);
    for (uint32_t i = 0; i < w->n_chunks && !w->failed; i++) {
        const chunk *ch = &w->chunks[i];
        if (ch->clip != c || ch->part != p) continue;
        float key[3], val[9];
        uint32_t n = 0;
        if (ch->first) { key[n] = 0; val[3 * n] = val[3 * n + 1] = val[3 * n + 2] = 0; n++; }
        key[n] = (float)((double)ch->first / fps); val[3 * n] = val[3 * n + 1] = val[3 * n + 2] = 1; n++;
        if (ch->last != keys - 1) {
            key[n] = (float)((double)ch->last / fps); val[3 * n] = val[3 * n + 1] = val[3 * n + 2] = 0; n++;
        }
        int32_t in = iqi_gltf_acc_floats(w, key, n, 1, 0, 1);
        int32_t out = iqi_gltf_acc_floats(w, val, n, 3, 0, 0);
        iqi_gltf_channel(w, ab, in, out, (int32_t)ch->node, "scale", "STEP");
        uint32_t nt = ch->last - ch->first, nk = nt + 1;
        if (!nt || w->nodes[ch->node].mesh < 0) continue;
        float *tk = iqi_gltf_scratch(w, (uint64_t)nk * nt + nk);
        if (!tk) return 0;
        float *wt = tk + nk;
        for (uint32_t k = 0; k < nk; k++) {
            tk[k] = (float)((double)(ch->first + k) / fps);
            for (uint32_t t = 0; t < nt; t++) wt[(size_t)k * nt + t] = k == t + 1 ? 1.0f : 0.0f;
        }
        in = iqi_gltf_acc_floats(w, tk, nk, 1, 0, 1);
        out = iqi_gltf_acc_floats(w, wt, nk * nt, 1, 0, 0);
        iqi_gltf_channel(w, ab, in, out, (int32_t)ch->node, "weights", "LINEAR");
    }
    int32_t rest = w->pinfo[p].rest_node;
    if (rest >= 0 && !w->failed) {
        static const float zero[3] = {0, 0, 0};
        float t0 = 0;
        int32_t in = iqi_gltf_acc_floats(w, &t0, 1, 1, 0, 1), out = iqi_gltf_acc_floats(w, zero, 1, 3, 0, 0);
        iqi_gltf_channel(w, ab, in, out, rest, "scale", "STEP");
    }
    return !w->failed;
}
