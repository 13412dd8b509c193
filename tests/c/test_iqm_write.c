/* Native tests of the IQM writer (iq_iqm_write.c) under ASan/UBSan: IQE, IQM
 * -> IQM -> load equals the model loaded directly, at every frame, within
 * the documented quantisation; adjacency computed on paper; bad arguments;
 * every working allocation failing in turn. Run from the repository root. */
#include "check.h"
#include "check_model.h"
#include "load_helpers.h"
#include "sweeps.h"
#include "interquake.h"
#include <math.h>
#include <string.h>

#define CORPUS "../shared/corpus/iqe/unvanquished/"
#define FIXTURES "tests/fixtures/iqe/"

/* IQE -> IQM -> load equals IQE -> load, within the documented quantisation. */
static float channel(const iq_transform *t, int k) { return k < 3 ? t->translate[k] : k < 7 ? t->rotate[k - 3] : t->scale[k - 7]; }

static void test_round_trip(const char *path) {
    iq_error err;
    iq_model *a = iqt_load_file(path, &err);
    if (!a) return;
    size_t size;
    uint8_t *bytes = iq_write_iqm(a, &size, &err);
    CHECK(bytes != NULL, "%s: write failed: %s", path, err.message);
    iq_model *b = bytes ? iq_load_memory(bytes, size, NULL, &err) : NULL;
    CHECK(b != NULL, "%s: written IQM does not load: %s", path, err.message);
    if (b) {
        CHECK(b->format == IQ_FORMAT_IQM && check_model(b) == 0, "%s: reloaded invariants", path);
        CHECK(a->vertex_count == b->vertex_count && a->triangle_count == b->triangle_count && a->mesh_count == b->mesh_count &&
                  a->joint_count == b->joint_count && a->frame_count == b->frame_count && a->animation_count == b->animation_count &&
                  a->custom_array_count == b->custom_array_count && a->comment_size == b->comment_size,
              "%s: counts differ", path);
        CHECK(b->adjacency != NULL || !b->triangle_count, "%s: adjacency written", path);
        CHECK(b->frame_bounds != NULL || !b->frame_count || !b->vertex_count, "%s: bounds written", path);
        if (a->triangle_count == b->triangle_count && a->vertex_count == b->vertex_count && a->triangle_count) {
            CHECK(!memcmp(a->indices, b->indices, (size_t)a->triangle_count * 12), "%s: indices", path);
            CHECK(!memcmp(a->positions, b->positions, (size_t)a->vertex_count * 12), "%s: positions exact", path);
            if (a->normals) CHECK(b->normals && !memcmp(a->normals, b->normals, (size_t)a->vertex_count * 12), "%s: normals", path);
            if (a->blend_weights && b->blend_weights)
                for (uint64_t i = 0; i < (uint64_t)a->vertex_count * 4; i++)
                    if (!iqt_near(a->blend_weights[i], b->blend_weights[i], 1.0f / 255)) { CHECK(0, "%s: weight %llu", path, (unsigned long long)i); break; }
        }
        for (uint32_t i = 0; i < a->mesh_count && i < b->mesh_count; i++)
            CHECK(!strcmp(a->meshes[i].name, b->meshes[i].name) && !strcmp(a->meshes[i].material, b->meshes[i].material), "%s mesh names", path);
        for (uint32_t i = 0; i < a->animation_count && i < b->animation_count; i++)
            CHECK(!strcmp(a->animations[i].name, b->animations[i].name) && a->animations[i].framerate == b->animations[i].framerate &&
                      a->animations[i].first_frame == b->animations[i].first_frame && a->animations[i].flags == b->animations[i].flags,
                  "%s animation %u", path, i);
        if (a->comment_size && a->comment_size == b->comment_size) CHECK(!memcmp(a->comment, b->comment, a->comment_size), "%s comment", path);
        /* Every frame: each channel within range/131070 (+ float slack), rotations compared up to sign. */
        uint32_t nj = a->joint_count;
        if (a->frame_count == b->frame_count && nj == b->joint_count && a->frame_poses) {
            int worst_ok = 1;
            for (uint32_t j = 0; j < nj; j++)
                for (int k = 0; k < 10; k++) {
                    float lo = 1e30f, hi = -1e30f;
                    for (uint32_t f = 0; f < a->frame_count; f++) {
                        float v = channel(&a->frame_poses[(size_t)f * nj + j], k);
                        if (v < lo) lo = v;
                        if (v > hi) hi = v;
                    }
                    /* half a quantisation step of the channel's range, plus float rounding; quaternion
                     * components span at most [-1, 1] in the writer and are renormalised after decoding */
                    float tolerance = (hi - lo) / 131070.0f * 1.01f + 1e-6f * (1 + fabsf(hi) + fabsf(lo));
                    if (k >= 3 && k < 7) tolerance = 4.0f / 65535.0f + 2e-6f;
                    for (uint32_t f = 0; f < a->frame_count; f++) {
                        const iq_transform *x = &a->frame_poses[(size_t)f * nj + j], *y = &b->frame_poses[(size_t)f * nj + j];
                        float sign = (x->rotate[0] * y->rotate[0] + x->rotate[1] * y->rotate[1] + x->rotate[2] * y->rotate[2] + x->rotate[3] * y->rotate[3]) < 0 ? -1.0f : 1.0f;
                        float va = channel(x, k), vb = channel(y, k) * (k >= 3 && k < 7 ? sign : 1.0f);
                        if (!iqt_near(va, vb, tolerance)) {
                            if (worst_ok) CHECK(0, "%s: frame %u joint %u channel %d: %g vs %g (tolerance %g)", path, f, j, k, va, vb, tolerance);
                            worst_ok = 0;
                        }
                    }
                }
            /* and the skinned mesh at every frame */
            float span = a->bounds.radius > 1 ? a->bounds.radius : 1;
            for (uint32_t f = 0; f < a->frame_count && worst_ok; f++) {
                iq_evaluate(a, (float)f);
                iq_evaluate(b, (float)f);
                for (uint64_t i = 0; i < (uint64_t)a->vertex_count * 3; i++)
                    if (!iqt_near(a->instance->skinned_positions[i], b->instance->skinned_positions[i], 2e-3f * span)) {
                        CHECK(0, "%s: frame %u skinned value %llu: %g vs %g", path, f, (unsigned long long)i, a->instance->skinned_positions[i], b->instance->skinned_positions[i]);
                        worst_ok = 0;
                        break;
                    }
                /* the written bounds contain the skinned positions */
                if (b->frame_bounds && a->vertex_count) {
                    const iq_bounds *bb = &b->frame_bounds[f];
                    for (uint32_t v = 0; v < a->vertex_count; v++)
                        for (int k = 0; k < 3; k++)
                            if (a->instance->skinned_positions[3 * v + k] < bb->min[k] - 1e-3f * span || a->instance->skinned_positions[3 * v + k] > bb->max[k] + 1e-3f * span) {
                                CHECK(0, "%s: frame %u vertex %u outside the written bounds", path, f, v);
                                v = a->vertex_count;
                                worst_ok = 0;
                                break;
                            }
                }
            }
        }
        /* writing the reloaded model again works and is no larger (a channel whose range was
         * barely over 1e-10 can collapse to constant once quantised) */
        size_t size2;
        uint8_t *again = iq_write_iqm(b, &size2, &err);
        CHECK(again && size2 <= size, "%s: second write %zu vs %zu bytes", path, size2, size);
        iq_free_bytes(again);
        iq_free(b);
    }
    iq_free_bytes(bytes);
    iq_free(a);
}

/* Adjacency computed on paper: two triangles sharing one edge. */
static void test_adjacency(void) {
    iq_error err;
    iq_model *m = iqt_load_text("# Inter-Quake Export\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nvp 1 1 0\nvn 0 0 1\nvn 0 0 1\nvn 0 0 1\nvn 0 0 1\n"
                            "fa 0 1 2\nfa 2 1 3\n", &err);
    if (!m) { CHECK(0, "adjacency model: %s", err.message); return; }
    size_t size;
    uint8_t *bytes = iq_write_iqm(m, &size, &err);
    iq_model *b = bytes ? iq_load_memory(bytes, size, NULL, &err) : NULL;
    /* triangle 0 = (0,1,2): edge 1 runs 1 -> 2, shared with triangle 1's edge 0 (2 -> 1) */
    static const uint32_t expected[] = {~0u, 1, ~0u, 0, ~0u, ~0u};
    CHECK(b && b->adjacency && !memcmp(b->adjacency, expected, sizeof expected), "computed adjacency");
    iq_free(b);
    iq_free_bytes(bytes);
    iq_free(m);
    size_t dummy;
    CHECK(iq_write_iqm(NULL, &dummy, &err) == NULL && err.code == IQ_ERROR_INVALID_ARGUMENT, "write NULL model");
}

static int write_attempt(const void *model, iq_error *err) {
    size_t size;
    uint8_t *bytes = iq_write_iqm(model, &size, err);
    iq_free_bytes(bytes);
    return bytes != NULL;
}

/* Each allocation of a write (the arena's blocks, the output) fails in turn:
 * 'out_of_memory', and the arena and output are freed. */
static void test_write_allocations(const char *path) {
    iq_error err;
    iq_model *m = iqt_load_file(path, &err);
    if (!m) return;
    iqt_allocation_sweep(path, write_attempt, m);
    iq_free(m);
}


/* An IQM whose frames hold no channels (no joints, no vertex frames: IQM allows it) is written
 * as it is, frames of zero channels, and reads back with its frame count (fuzz_iqe found that
 * the writer took such frames for vertex animation and refused them). */
static void test_frames_without_channels(void) {
    uint8_t h[124];
    memset(h, 0, sizeof h);
    memcpy(h, "INTERQUAKEMODEL", 16);
    h[16] = 2;   /* version */
    h[20] = 124; /* filesize */
    h[92] = 3;   /* num_frames */
    iq_error err;
    iq_model *m = iq_load_memory(h, sizeof h, NULL, &err);
    CHECK(m && m->frame_count == 3 && m->joint_count == 0, "an IQM of 3 frames and no joints loads: %s", m ? "" : err.message);
    if (!m) return;
    size_t size = 0;
    uint8_t *bytes = iq_write_iqm(m, &size, &err);
    CHECK(bytes != NULL, "written: %s", bytes ? "" : err.message);
    iq_model *back = bytes ? iq_load_memory(bytes, size, NULL, &err) : NULL;
    CHECK(back && back->frame_count == 3 && back->joint_count == 0, "read back with its 3 frames");
    iq_free(back);
    iq_free_bytes(bytes);
    iq_free(m);
}

int main(void) {
    test_adjacency();
    test_frames_without_channels();
    test_write_allocations(FIXTURES "anim.iqe");
    test_write_allocations("../shared/corpus/iqm/mrfixit/mrfixit.iqm");
    const char *trips[] = {CORPUS "jetpack.iqe", CORPUS "weapons/level1/vwep_view.iqe", CORPUS "missiles/rocket/rocket.iqe",
                           CORPUS "missiles/spike/spike.iqe", FIXTURES "anim.iqe", FIXTURES "poses.iqe", FIXTURES "custom.iqe",
                           FIXTURES "faces.iqe", FIXTURES "smooth_split.iqe", "../shared/corpus/iqm/mrfixit/mrfixit.iqm",
                           "../shared/corpus/iqm/extension/door2.iqm", "../shared/corpus/iqm/raylib/guy.iqm"};
    for (size_t i = 0; i < sizeof trips / sizeof trips[0]; i++) test_round_trip(trips[i]);
    return iqt_finish("test_iqm_write");
}
