/* IQE (Inter-Quake Export, text). Spec: shared/specs/iqe.txt; how it differs
 * from the IQM SDK's converter: docs/API-iqe.md.
 *
 * One pass over the lines collects every command into growable scratch arrays
 * (counted against the model's memory budget, freed at the end): this file
 * holds the line loop and the vertex, mesh, face and smoothing commands;
 * iq_iqe_skeleton.c the joints, poses and animations. A second step
 * (iq_iqe_build.c) checks that everything fits together, generates normals
 * when the file has none (iq_iqe_normals.c, which may split vertices), and
 * copies the result into the arena at its exact size. Every error carries the
 * line and column of the token at fault and quotes it (iq_text.c). Nothing is
 * quadratic in the input: positions are hashed for smoothing, and
 * pathological pile-ups are refused with 'limit'. */
#include "formats/iqe/iq_iqe_internal.h"
#include <math.h>
#include <stdio.h>

// -- Vertex attributes

static int push_floats(iqe_parser *p, int attr, const double *v, int count) {
    float *out = iqi_grow_push(&p->tx, &p->attr[attr], (size_t)count * sizeof(float), iqi_iqe_attr_names[attr]);
    if (!out) return 0;
    for (int k = 0; k < count; k++) out[k] = (float)v[k];
    for (int k = 0; k < count; k++)
        if (!iqi_finite(out[k])) /* a double that overflows float */
            return iqi_fail_at_line(p->ctx, IQ_ERROR_BAD_VALUE, p->tx.line, 1, "%s: value %g does not fit a float",
                                    iqi_iqe_attr_names[attr], v[k]);
    return 1;
}

/* Optional vertex data: a value that is not a number the model can use
 * (NaN, infinite, beyond the magnitude limit) repairs the whole vector
 * (iq_numbers.c). */
static int push_optional(iqe_parser *p, int attr, const double *v, int count, int nonfinite, iqi_vector_kind kind) {
    float f[4];
    for (int k = 0; k < count; k++) f[k] = nonfinite ? NAN : (float)v[k];
    iqi_repair_vector(p->ctx, kind, f, count);
    float *out = iqi_grow_push(&p->tx, &p->attr[attr], (size_t)count * sizeof(float), iqi_iqe_attr_names[attr]);
    if (!out) return 0;
    memcpy(out, f, (size_t)count * sizeof(float));
    return 1;
}

static int parse_vertex_attr(iqe_parser *p, int attr) {
    if (!p->attr_first_line[attr]) p->attr_first_line[attr] = p->tx.line;
    const char *what = iqi_iqe_attr_names[attr];
    double v[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int nonfinite = 0, n;
    switch (attr) {
    case ATTR_VP:
        if (iqi_read_floats(&p->tx, what, v, 4, NULL) < 0) return 0; /* W is allowed and ignored (spec) */
        for (int k = 0; k < 3; k++)
            if (!iqi_usable(p->ctx, v[k])) return iqi_fail_value(p->ctx, -1, p->tx.line, v[k], "vp: value %d", k + 1);
        return push_floats(p, attr, v, 3);
    case ATTR_VT:
        if (iqi_read_floats(&p->tx, what, v, 2, &nonfinite) < 0) return 0;
        return push_optional(p, attr, v, 2, nonfinite, IQI_TEXCOORD);
    case ATTR_VN:
        if (iqi_read_floats(&p->tx, what, v, 3, &nonfinite) < 0) return 0;
        return push_optional(p, attr, v, 3, nonfinite, IQI_NORMAL);
    case ATTR_VC:
        v[3] = 1;
        if (iqi_read_floats(&p->tx, what, v, 4, &nonfinite) < 0) return 0;
        return push_optional(p, attr, v, 4, nonfinite, IQI_COLOR);
    case ATTR_VX: {
        v[3] = 1;
        if ((n = iqi_read_floats(&p->tx, what, v, 6, &nonfinite)) < 0) return 0;
        if (n == 5)
            return iqi_fail_at_line(p->ctx, IQ_ERROR_SYNTAX, p->tx.line, 1,
                                    "vx: 5 values; it takes X Y Z [W] or X Y Z followed by a bitangent A B C");
        tangent_in *t = iqi_grow_push(&p->tx, &p->attr[attr], sizeof *t, what);
        if (!t) return 0;
        int usable = !nonfinite; /* the Unvanquished exporter has written NaN tangents */
        for (int k = 0; k < n; k++) usable &= iqi_usable(p->ctx, v[k]) && iqi_finite((float)v[k]);
        if (!usable) { /* repaired like every optional vector (iq_numbers.c) */
            float nan4[4] = {NAN, 0, 0, 0};
            iqi_repair_vector(p->ctx, IQI_TANGENT, nan4, 4);
            memcpy(t->t, nan4, sizeof t->t);
            return 1;
        }
        for (int k = 0; k < 3; k++) t->t[k] = (float)v[k];
        if (n == 6) {
            for (int k = 0; k < 3; k++) t->b[k] = (float)v[3 + k];
            t->has_bitangent = 1;
            t->t[3] = 1;
        } else {
            t->t[3] = v[3] < 0 ? -1.0f : 1.0f;
        }
        return 1;
    }
    case ATTR_VS: {
        iqi_token t;
        int64_t value = 0;
        int r = iqi_next_token(&p->tx, &t);
        if (r < 0) return 0;
        if (r == 0) return iqi_fail_at_line(p->ctx, IQ_ERROR_SYNTAX, p->tx.line, 1, "vs: the smoothing index is missing");
        if (!iqi_tok_int(&t, &value)) return iqi_fail_tok(&p->tx, IQ_ERROR_SYNTAX, &t, what, "is not an integer");
        int64_t *out = iqi_grow_push(&p->tx, &p->attr[attr], sizeof *out, what);
        if (!out) return 0;
        *out = value;
        return iqi_expect_end(&p->tx, what);
    }
    case ATTR_VB: {
        /* Any number of (joint, weight) pairs: duplicates merge, weights <= 0
         * are unused, the four largest are kept (the spec allows that). */
        iqi_token t;
        int r;
        p->pairs.len = 0;
        while ((r = iqi_next_token(&p->tx, &t)) == 1) {
            int64_t index;
            if (!iqi_tok_int(&t, &index) || index < 0)
                return iqi_fail_tok(&p->tx, IQ_ERROR_SYNTAX, &t, what, "is not a joint index (an integer >= 0)");
            iqi_token wt;
            if ((r = iqi_next_token(&p->tx, &wt)) != 1) {
                if (r == 0) return iqi_fail_tok(&p->tx, IQ_ERROR_SYNTAX, &t, what, "is a joint index without a weight");
                return 0;
            }
            double w;
            int status = iqi_tok_double(&wt, &w);
            if (status == IQI_NUM_BAD) return iqi_fail_tok(&p->tx, IQ_ERROR_SYNTAX, &wt, what, "is not a number");
            if (status == IQI_NUM_NONFINITE || fabs(w) > 3.0e38) return iqi_fail_tok(&p->tx, IQ_ERROR_BAD_VALUE, &wt, what, "is not a finite float weight");
            if (!p->max_blend_index.set || index > p->max_blend_index.value)
                p->max_blend_index = (where){p->tx.line, t.column, index, 1};
            double *pair = iqi_grow_push(&p->tx, &p->pairs, 2 * sizeof(double), what);
            if (!pair) return 0;
            pair[0] = (double)index;
            pair[1] = w;
        }
        if (r < 0) return 0;
        blend_in *b = iqi_grow_push(&p->tx, &p->attr[attr], sizeof *b, what);
        if (!b) return 0;
        uint32_t count = IQI_GROW_COUNT(p->pairs, double) / 2;
        double *pairs = (double *)p->pairs.data;
        /* merge duplicates in place (counts are tiny; big ones are sorted) */
        uint32_t kept = 0;
        for (uint32_t i = 0; i < count; i++) {
            double index = pairs[2 * i], w = pairs[2 * i + 1];
            if (w < 0) { p->negative_weights++; continue; }
            if (w == 0) continue;
            uint32_t j = 0;
            if (kept <= 16)
                for (; j < kept; j++)
                    if (pairs[2 * j] == index) break;
            if (kept > 16) j = kept; /* long lists: duplicates stay separate (skinning adds them up all the same) */
            if (j < kept) pairs[2 * j + 1] += w;
            else { pairs[2 * kept] = index; pairs[2 * kept + 1] = w; kept++; }
        }
        if (kept > 4) p->extra_influences++;
        /* the four largest, largest first */
        for (uint32_t i = 0; i < kept; i++) {
            float w = (float)fmin(pairs[2 * i + 1], 3.0e38); /* merged duplicates may add up past float */
            uint32_t idx = pairs[2 * i] > UINT32_MAX ? UINT32_MAX : (uint32_t)pairs[2 * i]; /* too large: refused at the end */
            uint32_t slot = b->count;
            while (slot > 0 && b->weight[slot - 1] < w) slot--;
            if (slot >= 4) continue;
            uint32_t last = b->count < 4 ? b->count : 3;
            for (uint32_t s = last; s > slot; s--) { b->weight[s] = b->weight[s - 1]; b->index[s] = b->index[s - 1]; }
            b->weight[slot] = w;
            b->index[slot] = idx;
            if (b->count < 4) b->count++;
        }
        return 1;
    }
    default: { /* v0..v9 */
        if (iqi_read_floats(&p->tx, what, v, 4, &nonfinite) < 0) return 0;
        return push_optional(p, attr, v, 4, nonfinite, IQI_CUSTOM);
    }
    }
}

static const char *va_name(int type) {
    static const char *const custom[10] = {"custom0", "custom1", "custom2", "custom3", "custom4",
                                           "custom5", "custom6", "custom7", "custom8", "custom9"};
    return type < VA_CUSTOM0 ? iqi_iqm_type_names[type] : custom[type - VA_CUSTOM0];
}

static int parse_vertexarray(iqe_parser *p) {
    iqi_token t;
    int r = iqi_next_token(&p->tx, &t);
    if (r < 0) return 0;
    if (r == 0) return iqi_fail_at_line(p->ctx, IQ_ERROR_SYNTAX, p->tx.line, 1, "vertexarray: no TYPE given");
    int type = -1;
    for (int i = 0; i < VA_COUNT; i++)
        if (iqi_tok_is_nocase(&t, va_name(i))) type = i;
    if (type < 0) { /* spec: any other TYPE is ignored */
        iqi_warn(p->ctx, IQ_WARNING_IGNORED_DATA, "line %u: vertexarray of unknown type '%.*s' ignored", p->tx.line,
                 (int)(t.len > 40 ? 40 : t.len), t.s);
        p->tx.cursor = p->tx.line_end;
        return 1;
    }
    va_decl d = {1, IQ_FLOAT, iqi_iqe_default_size[type], NULL};
    if (type == IQM_BLENDINDEXES || type == IQM_BLENDWEIGHTS || type == IQM_COLOR) d.format = IQ_UBYTE;
    if ((r = iqi_next_token(&p->tx, &t)) == 1) {
        int format = -1;
        for (int i = 0; i < IQM_COMPONENT_FORMATS; i++)
            if (iqi_tok_is_nocase(&t, iqi_component_names[i])) format = i;
        if (format >= 0) d.format = (iq_component)format; /* spec: any other COMPONENT is ignored */
        if ((r = iqi_next_token(&p->tx, &t)) == 1) {
            int64_t size;
            if (iqi_tok_int(&t, &size) && size >= 1 && size <= 4) d.size = (uint32_t)size; /* other SIZEs ignored */
            if ((r = iqi_next_token(&p->tx, &t)) == 1 && type >= VA_CUSTOM0) {
                if (memchr(t.s, 0, t.len)) return iqi_fail_tok(&p->tx, IQ_ERROR_SYNTAX, &t, "vertexarray", "contains a NUL byte");
                d.name = iqi_strdup_n(p->ctx, t.s, t.len);
                if (!d.name) return 0;
            }
        }
    }
    if (r < 0) return 0;
    if (!d.name) d.name = va_name(type);
    p->decl[type] = d;
    p->tx.cursor = p->tx.line_end;
    return 1;
}

// -- Meshes and faces

static mesh_block *current_mesh(iqe_parser *p) {
    uint32_t n = IQI_GROW_COUNT(p->meshes, mesh_block);
    return n ? IQI_GROW_AT(p->meshes, mesh_block, n - 1) : NULL;
}

static mesh_block *start_mesh(iqe_parser *p, const char *name, const char *material, uint32_t fm_base, int declared) {
    mesh_block *m = iqi_grow_push(&p->tx, &p->meshes, sizeof *m, "meshes");
    if (!m) return NULL;
    m->name = name;
    m->material = material;
    m->first_triangle = IQI_GROW_COUNT(p->triangles, uint32_t) / 3;
    m->first_vertex = m->end_vertex = iqi_iqe_vertex_count(p);
    m->fm_base = fm_base;
    m->declared = declared;
    return m;
}

static int parse_mesh(iqe_parser *p) {
    const char *name = iqi_read_name(&p->tx, "mesh", NULL);
    if (!name || !iqi_expect_end(&p->tx, "mesh")) return 0;
    return start_mesh(p, name, "", iqi_iqe_vertex_count(p), 1) != NULL;
}

static int parse_material(iqe_parser *p) {
    const char *material = iqi_read_name(&p->tx, "material", NULL);
    if (!material || !iqi_expect_end(&p->tx, "material")) return 0;
    mesh_block *m = current_mesh(p);
    /* A material change after the block has content starts a new block of the
     * same mesh; before that it names the current one. */
    if (!m || m->triangle_count || iqi_iqe_vertex_count(p) > m->first_vertex) {
        m = start_mesh(p, m ? m->name : "", material, m ? m->fm_base : 0, 1);
        return m != NULL;
    }
    m->material = material;
    m->declared = 1;
    return 1;
}

static uint32_t current_state(iqe_parser *p) {
    p->state_used = 1;
    return IQI_GROW_COUNT(p->states, smooth_state) - 1;
}

/* fa (absolute) and fm (relative to the mesh): a convex polygon, fanned. */
static int parse_face(iqe_parser *p, int relative) {
    const char *what = relative ? "fm" : "fa";
    mesh_block *m = current_mesh(p);
    if (!m && !(m = start_mesh(p, "", "", 0, 0))) return 0;
    uint32_t defined = iqi_iqe_vertex_count(p);
    uint32_t first = 0, prev = 0, count = 0;
    uint32_t first_tri = IQI_GROW_COUNT(p->triangles, uint32_t) / 3, state = current_state(p);
    iqi_token t;
    int r;
    while ((r = iqi_next_token(&p->tx, &t)) == 1) {
        int64_t i;
        if (!iqi_tok_int(&t, &i)) return iqi_fail_tok(&p->tx, IQ_ERROR_SYNTAX, &t, what, "is not a vertex index");
        int64_t v;
        if (i < 0) { /* relative to the last vertex defined so far: -1 is that vertex */
            v = (int64_t)defined + i;
            if (v < 0) {
                char why[96];
                snprintf(why, sizeof why, "reaches before the first vertex (%u vertices are defined so far)", defined);
                return iqi_fail_tok(&p->tx, IQ_ERROR_BAD_INDEX, &t, what, why);
            }
        } else {
            v = (relative ? (int64_t)m->fm_base : 0) + i;
            if (v > UINT32_MAX - 1) return iqi_fail_tok(&p->tx, IQ_ERROR_BAD_INDEX, &t, what, "is too large");
            if (!p->max_vertex_ref.set || v > p->max_vertex_ref.value) p->max_vertex_ref = (where){p->tx.line, t.column, v, 1};
        }
        if (count == 0) first = (uint32_t)v;
        else if (count >= 2) {
            uint32_t *tri = iqi_grow_push(&p->tx, &p->triangles, 3 * sizeof(uint32_t), "triangles");
            uint32_t *st = iqi_grow_push(&p->tx, &p->tri_state, sizeof(uint32_t), "triangles");
            uint8_t *edges = iqi_grow_push(&p->tx, &p->tri_edges, 1, "triangles");
            if (!tri || !st || !edges) return 0;
            tri[0] = first; tri[1] = prev; tri[2] = (uint32_t)v;
            *st = state;
            *edges = 7;
        }
        prev = (uint32_t)v;
        count++;
    }
    if (r < 0) return 0;
    if (count < 3)
        return iqi_fail_at_line(p->ctx, IQ_ERROR_SYNTAX, p->tx.line, 1,
                                "%s: a face needs at least 3 vertex indices, this one has %u", what, count);
    face_rec *f = iqi_grow_push(&p->tx, &p->faces, sizeof *f, "faces");
    if (!f) return 0;
    f->first_triangle = first_tri;
    f->vertex_count = count;
    m->triangle_count += count - 2;
    p->have_faces = 1;
    return 1;
}

static int parse_fs(iqe_parser *p) {
    fs_rec *rec = iqi_grow_push(&p->tx, &p->fs, sizeof *rec, "fs");
    if (!rec) return 0;
    rec->line = p->tx.line;
    rec->first_flag = (uint32_t)p->fs_flags.len;
    iqi_token t;
    int r;
    while ((r = iqi_next_token(&p->tx, &t)) == 1) {
        if (!iqi_tok_is(&t, "0") && !iqi_tok_is(&t, "1")) return iqi_fail_tok(&p->tx, IQ_ERROR_SYNTAX, &t, "fs", "is not 0 or 1");
        uint8_t *flag = iqi_grow_push(&p->tx, &p->fs_flags, 1, "fs");
        if (!flag) return 0;
        *flag = t.s[0] == '1';
        rec->count++;
    }
    return r == 0;
}

static smooth_state *new_state(iqe_parser *p) {
    smooth_state *last = IQI_GROW_AT(p->states, smooth_state, IQI_GROW_COUNT(p->states, smooth_state) - 1);
    /* settings already given to faces or vertices stay as they were: change a copy */
    if (!p->state_used && last->first_vertex == iqi_iqe_vertex_count(p)) return last;
    smooth_state copy = *last;
    smooth_state *s = iqi_grow_push(&p->tx, &p->states, sizeof *s, "smoothing");
    if (!s) return NULL;
    *s = copy;
    s->first_vertex = iqi_iqe_vertex_count(p);
    p->state_used = 0;
    return s;
}

static int parse_smoothing(iqe_parser *p, const char *what) {
    iqi_token t;
    int r = iqi_next_token(&p->tx, &t);
    if (r < 0) return 0;
    if (r == 0) return iqi_fail_at_line(p->ctx, IQ_ERROR_SYNTAX, p->tx.line, 1, "%s: the value is missing", what);
    smooth_state *s = new_state(p);
    if (!s) return 0;
    if (what[6] == 'a') { /* smoothangle: degrees, "in any direction" */
        double a;
        int status = iqi_tok_double(&t, &a);
        if (status != IQI_NUM_OK) return iqi_fail_tok(&p->tx, status == IQI_NUM_BAD ? IQ_ERROR_SYNTAX : IQ_ERROR_BAD_VALUE, &t, what, "is not a finite angle");
        a = fabs(a);
        s->angle = a > 180 ? 180 : a;
    } else {
        int64_t v;
        if (!iqi_tok_int(&t, &v)) return iqi_fail_tok(&p->tx, IQ_ERROR_SYNTAX, &t, what, "is not an integer");
        if (what[6] == 'g') s->key = v;
        else s->uv = v > 0;
    }
    return iqi_expect_end(&p->tx, what);
}

// -- The line loop

static int parse_line(iqe_parser *p) {
    iqi_token cmd;
    int r = iqi_next_token(&p->tx, &cmd);
    if (r <= 0) return r == 0;
    const char *c = cmd.s;
    size_t n = cmd.quoted ? 0 : cmd.len;
    if (n == 2) {
        if (c[0] == 'v') {
            switch (c[1]) {
            case 'p': return parse_vertex_attr(p, ATTR_VP);
            case 't': return parse_vertex_attr(p, ATTR_VT);
            case 'n': return parse_vertex_attr(p, ATTR_VN);
            case 'x': return parse_vertex_attr(p, ATTR_VX);
            case 'b': return parse_vertex_attr(p, ATTR_VB);
            case 'c': return parse_vertex_attr(p, ATTR_VC);
            case 's': return parse_vertex_attr(p, ATTR_VS);
            default:
                if (c[1] >= '0' && c[1] <= '9') return parse_vertex_attr(p, ATTR_V0 + (c[1] - '0'));
            }
        } else if (c[0] == 'f') {
            if (c[1] == 'a') return parse_face(p, 0);
            if (c[1] == 'm') return parse_face(p, 1);
            if (c[1] == 's') return parse_fs(p);
        } else if (c[0] == 'p') {
            if (c[1] == 'q' || c[1] == 'm' || c[1] == 'a') return iqi_iqe_pose(p, c[1]);
        }
    }
    if (iqi_tok_is(&cmd, "mesh")) return parse_mesh(p);
    if (iqi_tok_is(&cmd, "material")) return parse_material(p);
    if (iqi_tok_is(&cmd, "joint")) return iqi_iqe_joint(p);
    if (iqi_tok_is(&cmd, "frame")) return iqi_iqe_frame(p);
    if (iqi_tok_is(&cmd, "animation")) return iqi_iqe_animation(p);
    if (iqi_tok_is(&cmd, "framerate")) return iqi_iqe_anim_setting(p, 0);
    if (iqi_tok_is(&cmd, "loop")) return iqi_iqe_anim_setting(p, 1);
    if (iqi_tok_is(&cmd, "vertexarray")) return parse_vertexarray(p);
    if (iqi_tok_is(&cmd, "smoothgroup")) return parse_smoothing(p, "smoothgroup");
    if (iqi_tok_is(&cmd, "smoothangle")) return parse_smoothing(p, "smoothangle");
    if (iqi_tok_is(&cmd, "smoothuv")) return parse_smoothing(p, "smoothuv");
    if (iqi_tok_is(&cmd, "comment")) {
        /* The rest of the file after this line, verbatim. */
        const char *start = p->tx.line_end < p->tx.end ? p->tx.line_end + 1 : p->tx.end;
        p->comment = start;
        p->comment_size = (size_t)(p->tx.end - start);
        return 2;
    }
    if (!p->unknown_commands++) {
        p->unknown_line = p->tx.line;
        snprintf(p->unknown_name, sizeof p->unknown_name, "%.*s", (int)(cmd.len > 20 ? 20 : cmd.len), cmd.s);
    }
    p->tx.cursor = p->tx.line_end;
    return 1;
}

static int parse_lines(iqe_parser *p) {
    const char *c = p->tx.text;
    p->tx.line = 0;
    while (c < p->tx.end) {
        const char *nl = memchr(c, '\n', (size_t)(p->tx.end - c));
        const char *e = nl ? nl : p->tx.end;
        p->tx.line = p->tx.line == UINT32_MAX ? UINT32_MAX : p->tx.line + 1;
        p->tx.line_start = c;
        p->tx.line_end = e;
        p->tx.cursor = c;
        if (p->tx.line == 1) {
            static const char header[] = "# Inter-Quake Export";
            if ((size_t)(e - c) < sizeof header - 1 || memcmp(c, header, sizeof header - 1) != 0)
                return iqi_fail_at_line(p->ctx, IQ_ERROR_SYNTAX, 1, 1,
                                        "the first line must start with \"# Inter-Quake Export\"");
        } else {
            int r = parse_line(p);
            if (!r) return 0;
            if (r == 2) break; /* comment: the rest of the file is taken */
        }
        c = nl ? nl + 1 : p->tx.end;
    }
    if (p->tx.line == 0)
        return iqi_fail_at_line(p->ctx, IQ_ERROR_SYNTAX, 1, 1, "the file is empty; it must start with \"# Inter-Quake Export\"");
    return 1;
}

static void free_scratch(iqe_parser *p) {
    for (int a = 0; a < ATTR_COUNT; a++) iqi_grow_release(&p->tx, &p->attr[a]);
    iqi_grow *all[] = {&p->triangles, &p->tri_state, &p->tri_edges, &p->faces, &p->fs, &p->fs_flags, &p->states, &p->meshes,
                   &p->joints, &p->base_poses, &p->poses, &p->frames, &p->anims, &p->pairs};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) iqi_grow_release(&p->tx, all[i]);
}
int iqi_parse_iqe(iqi_ctx *ctx) {
    iqe_parser p;
    memset(&p, 0, sizeof p);
    p.ctx = ctx;
    p.tx.ctx = ctx;
    p.tx.text = (const char *)ctx->data;
    p.tx.end = p.tx.text + ctx->size;
    smooth_state *initial = iqi_grow_push(&p.tx, &p.states, sizeof *initial, "smoothing");
    int ok = 0;
    if (initial) {
        initial->key = -1;
        initial->angle = 180;
        ok = parse_lines(&p) && iqi_iqe_build_model(&p);
    }
    free_scratch(&p);
    return ok;
}
