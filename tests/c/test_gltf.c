/* Native tests of the glTF (GLB) writer under ASan/UBSan. Each GLB is read
 * back by a separate small reader (GLB chunks + a strict JSON parser) and
 * checked against the model: accessor counts and min/max against the data,
 * inverse binds against the joint nodes, the first clip against frame_poses,
 * morph targets against every frame, tags against iq_tag_matrix. Corpus
 * conversions are written to build/gltf/ for the Khronos validator
 * (docs/GLTF.md). Run from the repository root. */
#include "check.h"
#include "check_model.h"
#include "load_helpers.h"
#include "interquake.h"
#include "write/iq_gltf.h"
#include "glb_check.h"
#include "sweeps.h"
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#define CORPUS "../shared/corpus/"
#define SARGE CORPUS "md3/openarena/models/players/sarge/"

/* -- GLB reading */
typedef struct glb { jdoc j; const uint8_t *bin; uint32_t bin_len; int root; } glb;


/* Checks the container; returns 1 with g filled. */
static int glb_open(glb *g, const uint8_t *b, size_t n, const char *what) {
    memset(g, 0, sizeof *g);
    CHECK(n >= 20 && !memcmp(b, "glTF", 4) && u32le(b + 4) == 2 && u32le(b + 8) == n, "%s: GLB header", what);
    if (n < 20) return 0;
    uint32_t jl = u32le(b + 12);
    CHECK(jl % 4 == 0 && !memcmp(b + 16, "JSON", 4) && 20ull + jl <= n, "%s: JSON chunk", what);
    if (jl % 4 || 20ull + jl > n) return 0;
    size_t rest = n - 20 - jl;
    if (rest) {
        const uint8_t *c = b + 20 + jl;
        CHECK(rest >= 8 && u32le(c) % 4 == 0 && !memcmp(c + 4, "BIN\0", 4) && 8ull + u32le(c) == rest, "%s: BIN chunk", what);
        if (rest < 8 || 8ull + u32le(c) != rest) return 0;
        g->bin = c + 8;
        g->bin_len = u32le(c);
    }
    g->j.s = (const char *)b + 20;
    g->j.n = jl;
    g->root = jvalue(&g->j, 0);
    jws(&g->j);
    CHECK(g->root >= 0 && g->j.at == jl, "%s: JSON well-formed (stopped at %zu of %u)", what, g->j.at, jl);
    if (g->root < 0 || g->j.at != jl) return 0;
    int buf = jat(&g->j, jget(&g->j, g->root, "buffers"), 0);
    CHECK(!g->bin || (uint32_t)jnum(&g->j, jget(&g->j, buf, "byteLength"), -1) == g->bin_len, "%s: buffer length", what);
    return 1;
}
static void glb_close(glb *g) { free(g->j.nodes); }

static int gsec(glb *g, const char *name, int i) { return jat(&g->j, jget(&g->j, g->root, name), i); }
static int gint(glb *g, int obj, const char *key) { return (int)jnum(&g->j, jget(&g->j, obj, key), -1); }

static int comps_of(glb *g, int acc) {
    int t = jget(&g->j, acc, "type");
    return jis(&g->j, t, "SCALAR") ? 1 : jis(&g->j, t, "VEC2") ? 2 : jis(&g->j, t, "VEC3") ? 3 : jis(&g->j, t, "VEC4") ? 4 : jis(&g->j, t, "MAT4") ? 16 : 0;
}

/* An accessor's values as doubles (malloc'd); *count elements of *comps. */
static double *read_acc(glb *g, int index, uint32_t *count, int *comps) {
    int acc = gsec(g, "accessors", index);
    int view = gsec(g, "bufferViews", gint(g, acc, "bufferView"));
    if (acc < 0 || view < 0) return NULL;
    int ct = gint(g, acc, "componentType"), nc = comps_of(g, acc);
    uint32_t n = (uint32_t)gint(g, acc, "count");
    size_t size = ct == 5126 || ct == 5125 ? 4 : ct == 5123 ? 2 : 1;
    size_t ofs = (size_t)jnum(&g->j, jget(&g->j, view, "byteOffset"), 0), len = (size_t)gint(g, view, "byteLength");
    if (ofs % 4 || ofs + len > g->bin_len || (uint64_t)n * nc * size > len) return NULL;
    double *out = malloc((size_t)n * nc * sizeof(double) + 8);
    const uint8_t *p = g->bin + ofs;
    for (size_t i = 0; i < (size_t)n * nc; i++) {
        if (ct == 5126) { uint32_t u = u32le(p + 4 * i); float f; memcpy(&f, &u, 4); out[i] = f; }
        else if (ct == 5125) out[i] = u32le(p + 4 * i);
        else if (ct == 5123) out[i] = p[2 * i] | p[2 * i + 1] << 8;
        else out[i] = p[i];
    }
    *count = n;
    *comps = nc;
    return out;
}

/* Every accessor: fits its view; min/max, when given, equal the data exactly. */
static void check_accessors(glb *g, const char *what) {
    int arr = jget(&g->j, g->root, "accessors"), bad = 0;
    for (int i = 0; i < (arr >= 0 ? g->j.nodes[arr].count : 0); i++) {
        uint32_t n;
        int nc;
        double *v = read_acc(g, i, &n, &nc);
        if (!v || !n || !nc) { if (bad++ < 3) CHECK(0, "%s: accessor %d unreadable or empty", what, i); free(v); continue; }
        int acc = gsec(g, "accessors", i), mn = jget(&g->j, acc, "min"), mx = jget(&g->j, acc, "max");
        if (mn >= 0 || mx >= 0) {
            for (int c = 0; c < nc; c++) {
                double lo = INFINITY, hi = -INFINITY;
                for (uint32_t k = 0; k < n; k++) { lo = fmin(lo, v[(size_t)k * nc + c]); hi = fmax(hi, v[(size_t)k * nc + c]); }
                double jl = jnum(&g->j, jat(&g->j, mn, c), NAN), jh = jnum(&g->j, jat(&g->j, mx, c), NAN);
                if ((float)jl != (float)lo || (float)jh != (float)hi) {
                    if (bad++ < 3) CHECK(0, "%s: accessor %d min/max %g..%g vs data %g..%g", what, i, jl, jh, lo, hi);
                }
            }
        }
        free(v);
    }
    CHECK(bad == 0, "%s: %d accessor problems", what, bad);
}

/* The column-major 4x4 of a node's TRS. */
static void node_matrix(glb *g, int node, double out[16]) {
    double t[3] = {0, 0, 0}, q[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1};
    int a = jget(&g->j, node, "translation"), r = jget(&g->j, node, "rotation"), sc = jget(&g->j, node, "scale");
    for (int k = 0; k < 3; k++) { t[k] = jnum(&g->j, jat(&g->j, a, k), t[k]); s[k] = jnum(&g->j, jat(&g->j, sc, k), s[k]); }
    for (int k = 0; k < 4; k++) q[k] = jnum(&g->j, jat(&g->j, r, k), q[k]);
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double R[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
                   2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                   2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)};
    memset(out, 0, 16 * sizeof(double));
    for (int c = 0; c < 3; c++)
        for (int r2 = 0; r2 < 3; r2++) out[4 * c + r2] = R[3 * r2 + c] * s[c];
    for (int k = 0; k < 3; k++) out[12 + k] = t[k];
    out[15] = 1;
}
static void mul4(double out[16], const double a[16], const double b[16]) {
    double r[16];
    for (int c = 0; c < 4; c++)
        for (int rr = 0; rr < 4; rr++) {
            double s = 0;
            for (int k = 0; k < 4; k++) s += a[4 * k + rr] * b[4 * c + k];
            r[4 * c + rr] = s;
        }
    memcpy(out, r, sizeof r);
}
/* The parent of every node (from children lists). */
static int *parents(glb *g) {
    int arr = jget(&g->j, g->root, "nodes"), n = arr >= 0 ? g->j.nodes[arr].count : 0;
    int *p = malloc((size_t)n * sizeof(int) + 4);
    for (int i = 0; i < n; i++) p[i] = -1;
    for (int i = 0; i < n; i++) {
        int ch = jget(&g->j, gsec(g, "nodes", i), "children");
        for (int c = 0; c < (ch >= 0 ? g->j.nodes[ch].count : 0); c++) p[(int)jnum(&g->j, jat(&g->j, ch, c), 0)] = i;
    }
    return p;
}
/* World matrix of a node, without the root's Z-up turn (node 0). */
static void world_below_root(glb *g, const int *par, int node, double out[16]) {
    double m[16];
    node_matrix(g, gsec(g, "nodes", node), out);
    for (int p = par[node]; p > 0; p = par[p]) {
        node_matrix(g, gsec(g, "nodes", p), m);
        mul4(out, m, out);
    }
}

static int find_channel(glb *g, int anim, int node, const char *path, int *sampler) {
    int ch = jget(&g->j, anim, "channels");
    for (int c = 0; c < (ch >= 0 ? g->j.nodes[ch].count : 0); c++) {
        int chan = jat(&g->j, ch, c), t = jget(&g->j, chan, "target");
        if (gint(g, t, "node") == node && jis(&g->j, jget(&g->j, t, "path"), path)) {
            *sampler = jat(&g->j, jget(&g->j, anim, "samplers"), gint(g, chan, "sampler"));
            return 1;
        }
    }
    return 0;
}

static int find_node(glb *g, const char *name) {
    int arr = jget(&g->j, g->root, "nodes");
    for (int i = 0; i < (arr >= 0 ? g->j.nodes[arr].count : 0); i++)
        if (jis(&g->j, jget(&g->j, gsec(g, "nodes", i), "name"), name)) return i;
    return -1;
}

static void save(const char *name, const uint8_t *b, size_t n) {
    mkdir("build", 0755);
    mkdir("build/gltf", 0755);
    char path[256];
    snprintf(path, sizeof path, "build/gltf/%s", name);
    FILE *f = fopen(path, "wb");
    if (f) { fwrite(b, 1, n, f); fclose(f); }
}

/* -- Skeletal checks: mesh attributes, skin, first clip */
static void check_skeletal(glb *g, const iq_model *m, const char *what) {
    int mesh = gsec(g, "meshes", 0), prim = jat(&g->j, jget(&g->j, mesh, "primitives"), 0);
    int attrs = jget(&g->j, prim, "attributes");
    uint32_t n;
    int nc;
    double *pos = read_acc(g, gint(g, attrs, "POSITION"), &n, &nc);
    CHECK(pos && n == m->vertex_count && nc == 3, "%s: POSITION count %u", what, pos ? n : 0);
    int same = 1;
    for (uint32_t k = 0; pos && k < 3 * n; k++) same &= (float)pos[k] == m->positions[k];
    CHECK(same, "%s: positions bit-identical (axes by the root node)", what);
    free(pos);
    if (m->blend_weights) {
        double *wt = read_acc(g, gint(g, attrs, "WEIGHTS_0"), &n, &nc);
        double *jt = read_acc(g, gint(g, attrs, "JOINTS_0"), &n, &nc);
        int ok = wt && jt, worst = 0;
        for (uint32_t v = 0; ok && v < n; v++) {
            float sum = 0;
            for (int k = 0; k < 4; k++) sum += (float)wt[4 * v + k];
            if (fabsf(sum - 1) > 2e-7f) worst++;
            /* the same blend as the model: sum of weight per joint */
            for (int k = 0; k < 4; k++) {
                float want = 0, got = 0;
                uint32_t joint = (uint32_t)jt[4 * v + k];
                for (int q = 0; q < 4; q++) {
                    if (m->blend_indices[4 * v + q] == joint) want += m->blend_weights[4 * v + q];
                    if ((uint32_t)jt[4 * v + q] == joint) got += (float)wt[4 * v + q];
                }
                if (got > 0 && fabsf(got - want) > 1e-5f) worst++;
            }
        }
        CHECK(ok && worst == 0, "%s: %d weight problems", what, worst);
        free(wt);
        free(jt);
    }
    /* winding: every triangle with its 2nd and 3rd index swapped */
    double *idx = read_acc(g, gint(g, prim, "indices"), &n, &nc);
    const iq_mesh *mm = &m->meshes[0];
    int wound = idx && n == 3 * mm->triangle_count;
    for (uint32_t t = 0; wound && t < mm->triangle_count; t++) {
        const uint32_t *src = m->indices + 3 * (mm->first_triangle + t);
        wound = idx[3 * t] == src[0] && idx[3 * t + 1] == src[2] && idx[3 * t + 2] == src[1];
    }
    CHECK(wound, "%s: indices with swapped winding", what);
    free(idx);

    /* skin: IBM x bind world = identity */
    int skin = gsec(g, "skins", 0);
    double *ibm = read_acc(g, gint(g, skin, "inverseBindMatrices"), &n, &nc);
    CHECK(ibm && n == m->joint_count && nc == 16, "%s: IBM count", what);
    int *par = parents(g);
    double worst = 0;
    for (uint32_t j = 0; ibm && j < m->joint_count; j++) {
        int node = (int)jnum(&g->j, jat(&g->j, jget(&g->j, skin, "joints"), (int)j), -1);
        double world[16], prod[16];
        world_below_root(g, par, node, world);
        mul4(prod, world, ibm + 16 * j);
        for (int k = 0; k < 16; k++) worst = fmax(worst, fabs(prod[k] - (k % 5 == 0)));
    }
    CHECK(ibm && worst < 1e-4 * fmax(1, m->bounds.radius), "%s: IBM x bind world off identity by %g", what, worst);
    free(ibm);

    /* first clip: rotation keys equal frame_poses (up to sign), times frame / fps */
    int anim = gsec(g, "animations", 0);
    if (m->animation_count && m->frame_poses) {
        const iq_animation *an = &m->animations[0];
        double fps = an->framerate > 0 ? an->framerate : IQ_DEFAULT_FRAMERATE;
        double err = 0, terr = 0;
        int found = 0;
        for (uint32_t j = 0; j < m->joint_count; j++) {
            int node = (int)jnum(&g->j, jat(&g->j, jget(&g->j, skin, "joints"), (int)j), -1), s;
            if (!find_channel(g, anim, node, "rotation", &s)) continue;
            found++;
            uint32_t nk, nt;
            int c1, c2;
            double *tk = read_acc(g, gint(g, s, "input"), &nt, &c1), *q = read_acc(g, gint(g, s, "output"), &nk, &c2);
            /* a looping clip ends with a key at frame_count / fps holding its first frame (the seam) */
            /* (not when the last pose already is the first, as iq_clip_playhead wraps there) */
            uint32_t seam = (an->flags & IQ_ANIMATION_LOOP) && an->frame_count > 1 &&
                            !(an->frame_count > 2 && !memcmp(m->frame_poses + (size_t)an->first_frame * m->joint_count,
                                                             m->frame_poses + ((size_t)an->first_frame + an->frame_count - 1) * m->joint_count,
                                                             m->joint_count * sizeof(iq_transform)));
            if (!tk || !q || nk != an->frame_count + seam || nt != nk) { err = 1e9; free(tk); free(q); continue; }
            for (uint32_t f = 0; f < nk; f++) {
                const float *r = m->frame_poses[(size_t)(an->first_frame + (f < an->frame_count ? f : 0)) * m->joint_count + j].rotate;
                double dot = 0, len = 0;
                for (int k = 0; k < 4; k++) { dot += q[4 * f + k] * r[k]; len += (double)r[k] * r[k]; }
                err = fmax(err, 1 - fabs(dot) / sqrt(len));
                terr = fmax(terr, fabs(tk[f] - f / fps));
                if (f) err = fmax(err, (q[4 * f] * q[4 * f - 4] + q[4 * f + 1] * q[4 * f - 3] + q[4 * f + 2] * q[4 * f - 2] + q[4 * f + 3] * q[4 * f - 1]) < 0 ? 1 : 0);
            }
            free(tk);
            free(q);
        }
        CHECK(found > 0 && err < 1e-6 && terr < 1e-6, "%s: clip 0 rotations off by %g, times by %g (%d channels)", what, err, terr, found);
        CHECK(g->j.nodes[jget(&g->j, g->root, "animations")].count == (int)m->animation_count, "%s: one animation per clip", what);
    }
    free(par);
}

static uint8_t *convert(const iq_model *m, const char *name, size_t *n) {
    iq_error err;
    uint8_t *b = iq_write_glb_model(m, n, &err);
    CHECK(b != NULL, "%s: %s", name, err.message);
    if (b) save(name, b, *n);
    CHECK(!b || iqt_glb_wellformed(b, *n) == 0, "%s: the fuzzers' GLB check", name);
    return b;
}

// A corpus file, loaded and checked as every test loads files (load_helpers.h).
static iq_model *load_path(const char *path) {
    iq_error err;
    return iqt_load_file(path, &err);
}

/* Corpus files (path, GLB name) converted one by one: each GLB's accessors
 * checked, then `check`, the format's own checks. */
typedef void (*converted_check)(glb *g, const iq_model *m, const char *name);
static void convert_files(const char *const files[][2], size_t count, converted_check check) {
    for (size_t i = 0; i < count; i++) {
        iq_model *m = load_path(files[i][0]);
        if (!m) continue;
        size_t n;
        uint8_t *b = convert(m, files[i][1], &n);
        glb g;
        if (b && glb_open(&g, b, n, files[i][1])) {
            check_accessors(&g, files[i][1]);
            check(&g, m, files[i][1]);
            glb_close(&g);
        }
        free(b);
        iq_free(m);
    }
}

static void check_skinned(glb *g, const iq_model *m, const char *name) {
    if (m->joint_count && m->blend_indices) check_skeletal(g, m, name);
}

static void test_skeletal_corpus(void) {
    const char *const files[][2] = {{CORPUS "iqm/mrfixit/mrfixit.iqm", "mrfixit.glb"},
                                    {CORPUS "iqm/extension/door2.iqm", "door2.glb"},
                                    {CORPUS "iqe/unvanquished/weapons/level1/vwep_view.iqe", "vwep_view.glb"}};
    convert_files(files, sizeof files / sizeof files[0], check_skinned);
}

/* guy.iqm + guyanim.iqm, with its texture as a material image. */
static void test_guy(void) {
    iq_model *m = load_path(CORPUS "iqm/raylib/guy.iqm"), *a = load_path(CORPUS "iqm/raylib/guyanim.iqm");
    size_t png_size;
    unsigned char *png = iqt_read_file(CORPUS "iqm/raylib/guytex.png", &png_size);
    if (m && a && png) {
        iq_error err;
        CHECK(iq_attach_animations(m, a, &err) == 0, "attach: %s", err.message);
        iq_gltf_material mat = {0};
        mat.name = "guytex";
        mat.image = png;
        mat.image_size = (uint32_t)png_size;
        mat.image_mime = "image/png";
        uint32_t *mats = calloc(m->mesh_count + 1, 4);
        iq_gltf_part part = {0};
        part.model = m;
        part.mesh_materials = mats;
        iq_gltf_scene scene = {0};
        scene.parts = &part;
        scene.part_count = 1;
        scene.materials = &mat;
        scene.material_count = 1;
        size_t n;
        uint8_t *b = iq_write_glb(&scene, &n, &err);
        CHECK(b != NULL, "guy: %s", err.message);
        glb g;
        if (b && glb_open(&g, b, n, "guy")) {
            save("guy.glb", b, n);
            check_accessors(&g, "guy");
            check_skeletal(&g, m, "guy");
            int img = gsec(&g, "images", 0), view = gsec(&g, "bufferViews", gint(&g, img, "bufferView"));
            size_t ofs = (size_t)jnum(&g.j, jget(&g.j, view, "byteOffset"), 0);
            CHECK(img >= 0 && (size_t)gint(&g, view, "byteLength") == png_size && !memcmp(g.bin + ofs, png, png_size), "guy: image bytes");
            int mt = gsec(&g, "materials", 0), pbr = jget(&g.j, mt, "pbrMetallicRoughness");
            CHECK(gint(&g, jget(&g.j, pbr, "baseColorTexture"), "index") == 0 && jis(&g.j, jget(&g.j, mt, "name"), "guytex"), "guy: textured material");
            glb_close(&g);
        }
        free(b);
        /* a bad material index is an argument error, not a crash */
        mats[0] = 5;
        CHECK(iq_write_glb(&scene, &n, &err) == NULL && err.code == IQ_ERROR_INVALID_ARGUMENT, "bad material index");
        free(mats);
    }
    free(png);
    iq_free(m);
    iq_free(a);
}

/* A hand-made IQE: two joints, a custom array, a rotating clip; names with
 * a backslash and a stray byte reach the JSON escaped. */
static void test_hand_built(void) {
    const char *text =
        "# Inter-Quake Export\n"
        "joint \"root\" -1\npq 0 0 0 0 0 0 1\n"
        "joint \"a\\rm\xff\" 0\npq 1 0 0 0 0 0 1 1 2 1\n"
        "vertexarray custom0 ubyte 3 \"my attr\"\n"
        "mesh body\nmaterial skin\n"
        "vp 0 0 0\nvn 0 0 2\nvt 0 0\nvb 0 1\nv0 1 2 3\n"
        "vp 1 0 0\nvn 0 0 1\nvt 1 0\nvb 1 0.25 0 0.75\nv0 4 5 6\n"
        "vp 0 1 0\nvn 0 0 1\nvt 0 1\nvb 1 1\nv0 7 8 9\n"
        "fm 0 1 2\n"
        "animation spin\nframerate 0\nloop\n"
        "frame\npq 0 0 0 0 0 0 1\npq 1 0 0 0 0 0 1 1 2 1\n"
        "frame\npq 0 0 0 0 0 0.7071068 0.7071068\npq 1 0 0 0 0 0 1 1 2 1\n"
        "frame\npq 0 0 0 0 0 1 0\npq 1 0 0 0 0 0 1 1 2 1\n"
        "frame\npq 0 0 0 0 0 -0.7071068 0.7071068\npq 1 0 0 0 0 0 1 1 2 1\n";
    iq_error err;
    iq_model *m = iq_load_memory(text, strlen(text), NULL, &err);
    CHECK(m != NULL, "hand-built IQE: %s", err.message);
    if (!m) return;
    size_t n;
    uint8_t *b = convert(m, "hand.glb", &n);
    glb g;
    if (b && glb_open(&g, b, n, "hand")) {
        check_accessors(&g, "hand");
        check_skeletal(&g, m, "hand");
        CHECK(find_node(&g, "a\\\\rm\xEF\xBF\xBD") == 3, "names are escaped JSON with valid UTF-8");
        int anim = gsec(&g, "animations", 0), s;
        CHECK(jnum(&g.j, jget(&g.j, jget(&g.j, anim, "extras"), "framerate"), 0) == IQ_DEFAULT_FRAMERATE, "framerate 0 -> 24 fps");
        CHECK(jget(&g.j, jget(&g.j, anim, "extras"), "loop") >= 0 && g.j.nodes[jget(&g.j, jget(&g.j, anim, "extras"), "loop")].num == 1, "loop flag");
        /* the arm never moves: its channels are left out; the root's rotation is there */
        CHECK(!find_channel(&g, anim, 3, "rotation", &s) && !find_channel(&g, anim, 3, "scale", &s), "constant channels skipped");
        CHECK(find_channel(&g, anim, 2, "rotation", &s), "root rotation channel");
        int attrs = jget(&g.j, jat(&g.j, jget(&g.j, gsec(&g, "meshes", 0), "primitives"), 0), "attributes");
        uint32_t cnt;
        int nc;
        double *custom = read_acc(&g, gint(&g, attrs, "_MY_ATTR"), &cnt, &nc);
        const uint8_t *raw = m->custom_array_count ? m->custom_arrays[0].data : NULL;
        int same = custom && raw && cnt == 3 && nc == 3;
        for (int k = 0; same && k < 9; k++) same = custom[k] == raw[k];
        CHECK(same, "custom array as _MY_ATTR floats with the stored values");
        free(custom);
        double *nrm = read_acc(&g, gint(&g, attrs, "NORMAL"), &cnt, &nc);
        CHECK(nrm && fabs(nrm[2] - 1) < 1e-7, "normals written unit length");
        free(nrm);
        int node0 = gsec(&g, "nodes", 0), rot = jget(&g.j, node0, "rotation");
        CHECK(fabs(jnum(&g.j, jat(&g.j, rot, 0), 0) + 0.70710678) < 1e-6 && fabs(jnum(&g.j, jat(&g.j, rot, 3), 0) - 0.70710678) < 1e-6,
              "root node turns Z up to Y up");
        glb_close(&g);
    }
    free(b);
    iq_free(m);
}

/* -- MD3: morph chunks reproduce every frame, tags match iq_tag_matrix.
 * Checks animation `anim` playing frames first..first+count-1 at fps on the
 * part whose node is part_node (its children: tags in order, then meshes). */
static void check_md3(glb *g, const iq_model *m, int anim_index, uint32_t first, uint32_t count, int loop, double fps,
                      int part_node, int max_allowed, const char *what) {
    uint32_t seam = loop && count > 1; /* the loop seam: one more key, the first frame again */
    int anim = gsec(g, "animations", anim_index), s;
    int meshes = jget(&g->j, g->root, "meshes"), nodes = jget(&g->j, g->root, "nodes");
    int *par = parents(g);
    int max_targets = 0;
    for (int i = 0; i < (meshes >= 0 ? g->j.nodes[meshes].count : 0); i++) {
        int tg = jget(&g->j, jat(&g->j, jget(&g->j, gsec(g, "meshes", i), "primitives"), 0), "targets");
        if (tg >= 0 && g->j.nodes[tg].count > max_targets) max_targets = g->j.nodes[tg].count;
    }
    CHECK(max_targets <= max_allowed, "%s: %d targets in one mesh", what, max_targets);
    /* every frame of the clip, from whichever chunk shows it */
    uint32_t covered = 0, chunks = 0;
    double worst = 0;
    for (int i = 0; i < (nodes >= 0 ? g->j.nodes[nodes].count : 0); i++) {
        int node = gsec(g, "nodes", i), mesh = gint(g, node, "mesh");
        if (par[i] != part_node || mesh < 0 || !find_channel(g, anim, i, "scale", &s)) continue;
        int prim = jat(&g->j, jget(&g->j, gsec(g, "meshes", mesh), "primitives"), 0), tg = jget(&g->j, prim, "targets");
        if (tg < 0 || !find_channel(g, anim, i, "weights", &s)) continue;
        chunks++;
        uint32_t nk, nw, nb, nt = (uint32_t)g->j.nodes[tg].count;
        int c1, c2, c3;
        double *tk = read_acc(g, gint(g, s, "input"), &nk, &c1), *wt = read_acc(g, gint(g, s, "output"), &nw, &c2);
        double *base = read_acc(g, gint(g, jget(&g->j, prim, "attributes"), "POSITION"), &nb, &c3);
        CHECK(tk && wt && base && nw == nk * nt && nb == m->vertex_count, "%s: chunk %d accessors", what, i);
        if (tk && wt && base && nw == nk * nt) {
            double *p = malloc(3 * sizeof(double) * nb);
            for (uint32_t k = 0; k < nk; k++) {
                uint32_t f = first + (uint32_t)lround(tk[k] * fps); /* the key's frame */
                if (seam && f == first + count) f = first;
                memcpy(p, base, 3 * sizeof(double) * nb);
                int ones = 0;
                for (uint32_t t = 0; t < nt; t++) {
                    double wv = wt[(size_t)k * nt + t];
                    if (!wv) continue;
                    ones += wv == 1;
                    uint32_t cnt;
                    int cc;
                    double *d = read_acc(g, gint(g, jat(&g->j, tg, (int)t), "POSITION"), &cnt, &cc);
                    for (uint32_t v = 0; d && v < 3 * nb; v++) p[v] += wv * d[v];
                    free(d);
                }
                if (ones > 1 || f >= first + count) worst = INFINITY;
                for (uint32_t v = 0; v < 3 * nb && f < m->frame_count; v++)
                    worst = fmax(worst, fabs(p[v] - m->frame_positions[(size_t)f * 3 * nb + v]));
                covered++;
            }
            free(p);
        }
        free(tk);
        free(wt);
        free(base);
    }
    CHECK(covered >= count + seam && worst < 1e-4 * fmax(1, m->bounds.radius), "%s: %u frame keys in %u chunks, morph error %g", what, covered,
          chunks, worst);
    /* tags: frame 0 in the node, every frame of the clip in its tracks */
    for (uint32_t t = 0; t < m->tag_count; t++) {
        int node = (int)jnum(&g->j, jat(&g->j, jget(&g->j, gsec(g, "nodes", part_node), "children"), (int)t), -1);
        double mat[16];
        float want[16];
        node_matrix(g, gsec(g, "nodes", node), mat);
        iq_tag_matrix(m, m->tag_names[t], 0, want);
        double e = 0;
        for (int k = 0; k < 16; k++) e = fmax(e, fabs(mat[k] - want[k]));
        CHECK(node >= 0 && jis(&g->j, jget(&g->j, gsec(g, "nodes", node), "name"), m->tag_names[t]) && e < 1e-4 * fmax(1, m->bounds.radius),
              "%s: tag %s frame 0 off by %g", what, m->tag_names[t], e);
        int rs, ts;
        CHECK(find_channel(g, anim, node, "rotation", &rs) && find_channel(g, anim, node, "translation", &ts), "%s: tag %s tracks", what,
              m->tag_names[t]);
        if (find_channel(g, anim, node, "rotation", &rs) && find_channel(g, anim, node, "translation", &ts)) {
            uint32_t n1, n2;
            int c1, c2;
            double *q = read_acc(g, gint(g, rs, "output"), &n1, &c1), *tr = read_acc(g, gint(g, ts, "output"), &n2, &c2);
            double qe = 0;
            for (uint32_t k = 0; q && tr && k < n1 && k < n2; k++) {
                /* IQ_GLTF_TAG_STEPS keys per frame step, each where iq_tag_matrix_frames puts the tag */
                uint32_t step = k / IQ_GLTF_TAG_STEPS, fa = first + (step < count ? step : 0), fb = first + (step + 1 < count ? step + 1 : 0);
                if (step + 1 >= count + seam) fb = fa;
                iq_tag_matrix_frames(m, t, fa, fb, (float)(k % IQ_GLTF_TAG_STEPS) / IQ_GLTF_TAG_STEPS, want);
                double x = q[4 * k], y = q[4 * k + 1], z = q[4 * k + 2], w = q[4 * k + 3];
                double xaxis[3] = {1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)};
                double zaxis[3] = {2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)};
                for (int c = 0; c < 3; c++)
                    qe = fmax(qe, fmax(fmax(fabs(xaxis[c] - want[c]), fabs(zaxis[c] - want[8 + c])), fabs(tr[3 * k + c] - want[12 + c]) / fmax(1, m->bounds.radius)));
                if (k) qe = fmax(qe, q[4 * k] * q[4 * k - 4] + q[4 * k + 1] * q[4 * k - 3] + q[4 * k + 2] * q[4 * k - 2] + q[4 * k + 3] * q[4 * k - 1] < 0);
            }
            CHECK(q && tr && n1 == (count + seam - 1) * IQ_GLTF_TAG_STEPS + 1 && qe < 1e-4, "%s: tag %s track off by %g", what, m->tag_names[t], qe);
            free(q);
            free(tr);
        }
    }
    free(par);
}

/* The first clip's morph targets, for a model with more than one frame. */
static void check_first_clip(glb *g, const iq_model *m, const char *name) {
    if (m->frame_count > 1)
        check_md3(g, m, 0, m->animations[0].first_frame, m->animations[0].frame_count,
                  (m->animations[0].flags & IQ_ANIMATION_LOOP) != 0, m->animations[0].framerate, 1, IQ_GLTF_MAX_TARGETS, name);
}

static void test_md3_corpus(void) {
    const char *const files[][2] = {{CORPUS "md3/assimp/watercan.md3", "watercan.glb"}, {SARGE "lower.md3", "sarge_lower.glb"},
                                    {SARGE "upper.md3", "sarge_upper.glb"}, {SARGE "head.md3", "sarge_head.glb"}};
    convert_files(files, sizeof files / sizeof files[0], check_first_clip);
}

static uint32_t tag_index(const iq_model *m, const char *name) {
    for (uint32_t t = 0; t < m->tag_count; t++)
        if (!strcmp(m->tag_names[t], name)) return t;
    return UINT32_MAX;
}

/* A Quake 3 player: lower -> tag_torso -> upper -> tag_head -> head, a legs
 * clip, a torso clip and a both clip, morph meshes cut to 40 targets. */
static void test_player(void) {
    iq_model *lower = load_path(SARGE "lower.md3"), *upper = load_path(SARGE "upper.md3"), *head = load_path(SARGE "head.md3");
    if (lower && upper && head && lower->frame_count > 120 && upper->frame_count > 100) {
        iq_gltf_part parts[3] = {{0}};
        parts[0].model = lower;
        parts[0].name = "lower";
        parts[1].model = upper;
        parts[1].name = "upper";
        parts[1].attached = 1;
        parts[1].parent = 0;
        parts[1].attach_index = tag_index(lower, "tag_torso");
        parts[2].model = head;
        parts[2].name = "head";
        parts[2].attached = 1;
        parts[2].parent = 1;
        parts[2].attach_index = tag_index(upper, "tag_head");
        iq_gltf_range legs[3] = {{0, 0}, {0, 0}, {0, 0}}, torso[3] = {{0, 0}, {0, 0}, {0, 0}}, both[3] = {{0, 30}, {0, 30}, {0, 0}};
        legs[0] = (iq_gltf_range){lower->frame_count - 120, 120};
        torso[1] = (iq_gltf_range){upper->frame_count - 100, 100};
        iq_gltf_clip clips[3] = {{"LEGS_RUN", 20, 1, legs}, {"TORSO_STAND", 0, 1, torso}, {"BOTH_DEATH1", 25, 0, both}};
        iq_gltf_scene scene = {0};
        scene.parts = parts;
        scene.part_count = 3;
        scene.clips = clips;
        scene.clip_count = 3;
        scene.max_morph_targets = 40;
        size_t n;
        iq_error err;
        uint8_t *b = iq_write_glb(&scene, &n, &err);
        CHECK(b != NULL, "player: %s", err.message);
        glb g;
        if (b && glb_open(&g, b, n, "player")) {
            save("sarge_player.glb", b, n);
            check_accessors(&g, "player");
            int lower_node = find_node(&g, "lower"), upper_node = find_node(&g, "upper"), head_node = find_node(&g, "head");
            int *par = parents(&g);
            CHECK(lower_node > 0 && par[lower_node] == 0, "lower hangs from the root");
            CHECK(upper_node > 0 && par[upper_node] >= 0 && jis(&g.j, jget(&g.j, gsec(&g, "nodes", par[upper_node]), "name"), "tag_torso") &&
                      par[par[upper_node]] == lower_node, "upper hangs from lower's tag_torso");
            CHECK(head_node > 0 && par[head_node] >= 0 && jis(&g.j, jget(&g.j, gsec(&g, "nodes", par[head_node]), "name"), "tag_head") &&
                      par[par[head_node]] == upper_node, "head hangs from upper's tag_head");
            check_md3(&g, lower, 0, legs[0].first_frame, legs[0].frame_count, 1, 20, lower_node, 40, "player LEGS_RUN lower");
            check_md3(&g, upper, 1, torso[1].first_frame, torso[1].frame_count, 1, IQ_MD3_DEFAULT_FRAMERATE, upper_node, 40, "player TORSO_STAND upper");
            check_md3(&g, lower, 2, 0, 30, 0, 25, lower_node, 40, "player BOTH_DEATH1 lower");
            check_md3(&g, upper, 2, 0, 30, 0, 25, upper_node, 40, "player BOTH_DEATH1 upper");
            /* a legs clip drives nothing above the legs */
            int anim = gsec(&g, "animations", 0), ch = jget(&g.j, anim, "channels"), strays = 0;
            for (int c = 0; c < g.j.nodes[ch].count; c++) {
                int node = gint(&g, jget(&g.j, jat(&g.j, ch, c), "target"), "node");
                while (node > 0 && node != lower_node && node != upper_node) node = par[node];
                strays += node != lower_node;
            }
            CHECK(strays == 0, "LEGS_RUN: %d channels outside lower", strays);
            free(par);
            glb_close(&g);
        }
        free(b);
        /* an attachment to a tag the parent does not have */
        parts[2].attach_index = upper->tag_count;
        CHECK(iq_write_glb(&scene, &n, &err) == NULL && err.code == IQ_ERROR_INVALID_ARGUMENT, "attach index out of range");
        parts[2].attach_index = 0;
        both[1].frame_count = upper->frame_count + 1;
        CHECK(iq_write_glb(&scene, &n, &err) == NULL && err.code == IQ_ERROR_INVALID_ARGUMENT, "clip range out of range");
    }
    iq_free(lower);
    iq_free(upper);
    iq_free(head);
}

static void test_arguments(void) {
    iq_error err;
    size_t n;
    CHECK(iq_write_glb(NULL, &n, &err) == NULL && err.code == IQ_ERROR_INVALID_ARGUMENT, "NULL scene");
    CHECK(iq_write_glb_model(NULL, &n, &err) == NULL && err.code == IQ_ERROR_INVALID_ARGUMENT, "NULL model");
    iq_gltf_scene scene = {0};
    CHECK(iq_write_glb(&scene, &n, &err) == NULL && err.code == IQ_ERROR_INVALID_ARGUMENT, "no parts");
}

/* Placement (iq_gltf_scene front, scale, floor): on the root node only; bad values refused. */
static void test_placement(void) {
    static const char text[] = "# Inter-Quake Export\nmesh m\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfm 0 1 2\n";
    iq_error err;
    iq_model *m = iq_load_memory((const uint8_t *)text, sizeof text - 1, NULL, &err);
    CHECK(m != NULL, "placement model: %s", err.message);
    if (!m) return;
    iq_gltf_part part = {0};
    part.model = m;
    iq_gltf_scene scene = {0};
    scene.parts = &part;
    scene.part_count = 1;
    scene.front = IQ_GLTF_FRONT_Z;
    scene.scale = 2;
    scene.floor = 5;
    size_t n;
    uint8_t *b = iq_write_glb(&scene, &n, &err);
    CHECK(b != NULL, "placed GLB: %s", err.message);
    glb g;
    if (b && glb_open(&g, b, n, "placed")) {
        int root = find_node(&g, "interquake_z_up");
        CHECK(root >= 0, "the root node");
        double mat[16];
        node_matrix(&g, gsec(&g, "nodes", root), mat);
        /* Quake's +X (front) to +Z, +Y (left) to +X, +Z (up) to +Y; times 2; the height 5 at y = 0 */
        static const double in[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, want[3][3] = {{0, -10, 2}, {2, -10, 0}, {0, -8, 0}};
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++) {
                double v = mat[12 + k];
                for (int c = 0; c < 3; c++) v += mat[4 * c + k] * in[i][c];
                CHECK(fabs(v - want[i][k]) < 1e-5, "point %d axis %d: %g, want %g", i, k, v, want[i][k]);
            }
        glb_close(&g);
    }
    iq_free_bytes(b);
    const struct { iq_gltf_front front; float scale, floor; const char *what; } bad[] = {
        {(iq_gltf_front)2, 1, 0, "front 2"}, {IQ_GLTF_FRONT_X, -1, 0, "scale -1"}, {IQ_GLTF_FRONT_X, NAN, 0, "scale NaN"},
        {IQ_GLTF_FRONT_X, 1, INFINITY, "floor infinite"}, {IQ_GLTF_FRONT_X, 1e7f, 0, "scale 1e7"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        scene.front = bad[i].front;
        scene.scale = bad[i].scale;
        scene.floor = bad[i].floor;
        CHECK(iq_write_glb(&scene, &n, &err) == NULL && err.code == IQ_ERROR_INVALID_ARGUMENT, "%s refused", bad[i].what);
    }
    iq_free(m);
}

// -- Every heap allocation of a write failing in turn (sweeps.h): a clean out_of_memory, nothing left

static int glb_attempt(const void *arg, iq_error *err) {
    size_t n;
    uint8_t *b = iq_write_glb(arg, &n, err);
    iq_free_bytes(b);
    return b != NULL && n > 0;
}

static void test_allocation_failures(void) {
    iq_error err;
    /* skeletal: joints, a skin, a custom array, one looping clip */
    const char *text = "# Inter-Quake Export\njoint \"root\" -1\npq 0 0 0 0 0 0 1\njoint \"arm\" 0\npq 1 0 0 0 0 0 1\n"
                       "vertexarray custom0 ubyte 3 \"attr\"\nmesh body\nmaterial skin\n"
                       "vp 0 0 0\nvn 0 0 1\nvt 0 0\nvb 0 1\nv0 1 2 3\nvp 1 0 0\nvn 0 0 1\nvt 1 0\nvb 1 1\nv0 4 5 6\n"
                       "vp 0 1 0\nvn 0 0 1\nvt 0 1\nvb 1 0.5 0 0.5\nv0 7 8 9\nfm 0 1 2\n"
                       "animation spin\nloop\nframe\npq 0 0 0 0 0 0 1\npq 1 0 0 0 0 0 1\n"
                       "frame\npq 0 0 0 0 0 0.7071068 0.7071068\npq 1 0 0 0 0 0 1\n";
    iq_model *skel = iqt_load_text(text, &err);
    /* MD3: morph frames and tags; two parts on a tag, a textured material, two clips */
    iq_model *upper = load_path(SARGE "upper.md3"), *head = load_path(SARGE "head.md3");
    if (!skel || !upper || !head) { iq_free(skel); iq_free(upper); iq_free(head); return; }
    iq_gltf_part one = {0};
    one.model = skel;
    iq_gltf_scene scene = {0};
    scene.parts = &one;
    scene.part_count = 1;
    iqt_allocation_sweep("GLB of a skeletal IQE", glb_attempt, &scene);

    static const uint8_t png[] = {0x89, 'P', 'N', 'G', 13, 10, 26, 10, 0, 0, 0, 0};
    iq_gltf_material mat = {0};
    mat.name = "skin";
    mat.image = png;
    mat.image_size = sizeof png;
    mat.image_mime = "image/png";
    uint32_t *mesh_mats = calloc(upper->mesh_count + 1, sizeof *mesh_mats);
    iq_gltf_part parts[2] = {{0}};
    parts[0].model = upper;
    parts[0].name = "upper";
    parts[0].mesh_materials = mesh_mats;
    parts[1].model = head;
    parts[1].name = "head";
    parts[1].attached = 1;
    parts[1].parent = 0;
    parts[1].attach_index = tag_index(upper, "tag_head");
    iq_gltf_range first[2] = {{0, 4}, {0, 1}}, second[2] = {{4, 3}, {0, 0}};
    iq_gltf_clip clips[2] = {{"first", 10, 1, first}, {"second", 0, 0, second}};
    iq_gltf_scene md3 = {0};
    md3.parts = parts;
    md3.part_count = 2;
    md3.materials = &mat;
    md3.material_count = 1;
    md3.clips = clips;
    md3.clip_count = 2;
    md3.max_morph_targets = 2; /* several morph chunks per clip */
    CHECK(parts[1].attach_index < upper->tag_count && upper->frame_count >= 7, "sarge's upper.md3 has tag_head and 7 frames");
    iqt_allocation_sweep("GLB of two MD3 parts on a tag, a texture, two clips", glb_attempt, &md3);
    free(mesh_mats);
    iq_free(skel);
    iq_free(upper);
    iq_free(head);
}

int main(void) {
    test_arguments();
    test_placement();
    test_allocation_failures();
    test_hand_built();
    test_skeletal_corpus();
    test_guy();
    test_md3_corpus();
    test_player();
    return iqt_finish("test_gltf");
}
