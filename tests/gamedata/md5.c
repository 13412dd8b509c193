/* Native checks of Debian's Cube 2 (cube2-data) and Red Eclipse (redeclipse-data)
 * MD5 files, under ASan/UBSan with the library counted and failable as in
 * tests/c/: every .md5mesh and .md5anim loads and keeps the model's invariants
 * (check_model.h), every mesh keeps Doom 3's bind-pose rule (every weight of a
 * vertex lands on the same point: no "units apart" warning), and each mesh posed
 * at the frames of the anims beside it is measured against the anims' stored
 * boxes. A missing folder is a failure naming its package. Built and run by
 * `bash build.sh gamedata` (npm run test:gamedata) as build/native/gamedata_md5;
 * the counts of files are asserted by md5.test.mjs beside it. */
#include "check.h"
#include "check_model.h"
#include "load_helpers.h"
#include "interquake.h"
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

static int near(float a, float b, float eps) { return fabsf(a - b) <= eps; }

typedef struct real_stats { uint32_t meshes, anims, failed, multi_weight_vertices; } real_stats;

/* The anims' stored boxes, checked apart from the reader: the mesh posed at
 * each frame of an anim beside it, against that frame's box. Red Eclipse's
 * exporters measured the whole scene (boxes larger than the mesh), wrote none
 * (all zero) or scrambled them (a minimum above the maximum, an axis shifted),
 * so the frames are counted: one that fits the box within 1% on every side
 * can only come from posing as the exporter did (a wrong rotation convention
 * fits none), and the test asserts that such frames exist. */
typedef struct box_stats { uint32_t tight, loose, outside, empty; } box_stats;

static void check_boxes(const char *anim_path, iq_model *mesh, box_stats *bs) {
    iq_error err;
    size_t n;
    unsigned char *d = iqt_read_file(anim_path, &n);
    if (!d) return;
    iq_model *a = iq_load_memory(d, n, NULL, &err);
    free(d);
    if (!a) return;
    uint32_t first = mesh->frame_count;
    if (iq_attach_animations(mesh, a, &err) == 0 && mesh->vertex_count) {
        for (uint32_t f = 0; f < a->frame_count; f++) {
            const iq_bounds *b = &a->frame_bounds[f];
            float size = 0;
            for (int k = 0; k < 3; k++) size = fmaxf(size, b->max[k] - b->min[k]);
            if (!(size > 0)) { bs->empty++; continue; }
            iq_evaluate(mesh, (float)(first + f));
            float lo[3] = {1e30f, 1e30f, 1e30f}, hi[3] = {-1e30f, -1e30f, -1e30f};
            for (uint32_t v = 0; v < mesh->vertex_count; v++)
                for (int k = 0; k < 3; k++) {
                    float p = mesh->instance->skinned_positions[3 * v + k];
                    if (p < lo[k]) lo[k] = p;
                    if (p > hi[k]) hi[k] = p;
                }
            float tol = 0.01f * size + 1e-4f;
            int inside = 1, tight = 1;
            for (int k = 0; k < 3; k++) {
                inside &= lo[k] >= b->min[k] - tol && hi[k] <= b->max[k] + tol;
                tight &= near(lo[k], b->min[k], tol) && near(hi[k], b->max[k], tol);
            }
            if (tight) bs->tight++;
            else if (inside) bs->loose++;
            else bs->outside++;
        }
    }
    iq_free(a);
}

static void walk(const char *dir, real_stats *st, box_stats *bs, int depth) {
    DIR *dh = opendir(dir);
    if (!dh || depth > 8) { if (dh) closedir(dh); return; }
    struct dirent *e;
    char path[1024];
    while ((e = readdir(dh))) {
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat sb;
        if (stat(path, &sb) != 0) continue;
        if (S_ISDIR(sb.st_mode)) { walk(path, st, bs, depth + 1); continue; }
        size_t len = strlen(path);
        int is_mesh = len > 8 && !strcmp(path + len - 8, ".md5mesh"), is_anim = len > 8 && !strcmp(path + len - 8, ".md5anim");
        if (!is_mesh && !is_anim) continue;
        iq_error err;
        iq_model *m = iqt_load_named(path, &err);
        if (!m) { st->failed++; continue; }
        if (is_anim) { st->anims++; iq_free(m); continue; }
        st->meshes++;
        /* every weight of a vertex on the same point: no spread warning */
        CHECK(!iqt_has_warning(m, IQ_WARNING_NONSTANDARD, "units apart"), "%s: weights disagree", path);
        /* the anims beside a mesh with the same joints: their boxes hold it */
        DIR *sib = opendir(dir);
        struct dirent *s;
        while (sib && (s = readdir(sib))) {
            size_t sl = strlen(s->d_name);
            if (sl <= 8 || strcmp(s->d_name + sl - 8, ".md5anim")) continue;
            char ap[1024];
            snprintf(ap, sizeof ap, "%s/%s", dir, s->d_name);
            check_boxes(ap, m, bs);
        }
        if (sib) closedir(sib);
        iq_free(m);
    }
    closedir(dh);
}

int main(void) {
    const char *roots[][2] = {{"/usr/share/games/cube2", "cube2-data"}, {"/usr/share/games/redeclipse", "redeclipse-data"}};
    box_stats all = {0};
    for (int i = 0; i < 2; i++) {
        struct stat sb;
        if (stat(roots[i][0], &sb) != 0 || !S_ISDIR(sb.st_mode)) {
            CHECK(0, "%s is missing: install Debian's %s (npm run test:gamedata installs it when run as root)", roots[i][0], roots[i][1]);
            continue;
        }
        real_stats st = {0};
        box_stats bs = {0};
        walk(roots[i][0], &st, &bs, 0);
        printf("gamedata_md5: %s: %u md5mesh and %u md5anim files loaded, %u failed; posed at the frames of the anims beside "
               "them: %u fit the file's box, %u inside a larger box, %u outside it, %u frames with no box\n",
               roots[i][0], st.meshes, st.anims, st.failed, bs.tight, bs.loose, bs.outside, bs.empty);
        CHECK(st.failed == 0, "%s: %u files failed", roots[i][0], st.failed);
        CHECK(st.meshes > 0 && st.anims > 0, "%s (%s): no .md5mesh or no .md5anim found", roots[i][0], roots[i][1]);
        all.tight += bs.tight;
        all.outside += bs.outside;
    }
    /* Cube 2's ffflag stores its boxes before its root's turn (all 120 frames
     * lie outside); most Red Eclipse frames fit, and only posing as the
     * exporter did makes a frame fit within 1%. */
    CHECK(all.tight > 100 && all.tight * 4 > all.outside, "%u frames fit their box, %u lie outside it", all.tight, all.outside);
    return iqt_finish("gamedata_md5");
}
