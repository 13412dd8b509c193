/* Native tests of the animator under ASan/UBSan: time to frames on paper and
 * over a sweep of odd inputs, CPU skinning against a plain double-precision
 * linear blend written here, joint queries against the posed hierarchy,
 * attaching animation files, and bad arguments. Run from the repository root. */
#include "check.h"
#include "check_model.h"
#include "load_helpers.h"
#include "sweeps.h"
#include "interquake.h"
#include <math.h>
#include <string.h>

#define CORPUS "../shared/corpus/iqm/"

static iq_model *load_file(const char *path) {
    size_t n;
    unsigned char *d = iqt_read_file(path, &n);
    if (!d) { CHECK(0, "cannot read %s", path); return NULL; }
    iq_error err;
    iq_model *m = iq_load_memory(d, n, NULL, &err);
    CHECK(m != NULL, "%s: %s", path, err.message);
    free(d);
    return m;
}

static iq_play_opts opts_of(iq_loop_mode loop, double framerate, double speed, uint32_t flags) {
    iq_play_opts o;
    memset(&o, 0, sizeof o);
    o.loop = loop;
    o.framerate = framerate;
    o.speed = speed;
    o.flags = flags;
    return o;
}

/* A model with animations but no frame data: the playhead only reads the animation records. */
static void test_playhead_on_paper(void) {
    iq_animation anims[3] = {
        {"walk", 10, 4, 2.0f, 0},                  /* frames 10..13 at 2 fps, no loop flag */
        {"one", 0, 1, 0.0f, IQ_ANIMATION_LOOP},    /* a single frame, framerate unspecified */
        {"none", 0, 0, 30.0f, 0},                  /* empty */
    };
    iq_model m;
    memset(&m, 0, sizeof m);
    m.animations = anims;
    m.animation_count = 3;
    m.frame_count = 14;
    iq_playhead h;
    struct { iq_loop_mode loop; double speed, time; uint32_t a, b; float blend; int32_t loops; uint32_t finished; } cases[] = {
        {IQ_LOOP_AUTO, 1, 0.25, 10, 11, 0.5f, 0, 0},     /* no loop flag: once */
        {IQ_LOOP_ONCE, 1, 1.5, 13, 13, 0, 0, 1},         /* the end: finished, held */
        {IQ_LOOP_ONCE, 1, 99, 13, 13, 0, 0, 1},
        {IQ_LOOP_ONCE, 1, -3, 10, 11, 0, 0, 0},          /* before the start: the first frame (blend 0) */
        {IQ_LOOP_ONCE, -1, 0, 13, 13, 0, 0, 0},          /* reversed starts at the end */
        {IQ_LOOP_ONCE, -1, 0.75, 11, 12, 0.5f, 0, 0},
        {IQ_LOOP_ONCE, -1, 1.5, 10, 11, 0, 0, 1},
        {IQ_LOOP_REPEAT, 1, 1.75, 13, 10, 0.5f, 0, 0},   /* the last frame blends into the first */
        {IQ_LOOP_REPEAT, 1, 2.25, 10, 11, 0.5f, 1, 0},
        {IQ_LOOP_REPEAT, 1, -0.25, 13, 10, 0.5f, -1, 0}, /* before time 0: the previous period */
        {IQ_LOOP_REPEAT, -1, 0.25, 13, 10, 0.5f, 0, 0},
        {IQ_LOOP_PINGPONG, 1, 2.0, 12, 13, 0, 0, 0},     /* 0..3..0 in 3 s: at 2 s on frame 2 going back */
        {IQ_LOOP_PINGPONG, 1, 3.25, 10, 11, 0.5f, 1, 0},
        {IQ_LOOP_PINGPONG, -1, 0.25, 12, 13, 0.5f, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        iq_play_opts o = opts_of(cases[i].loop, 0, cases[i].speed, 0);
        int r = iq_playhead_at(&m, 0, cases[i].time, &o, &h);
        CHECK(r == 0 && h.frame_a == cases[i].a && h.frame_b == cases[i].b && fabs(h.blend - cases[i].blend) < 1e-6f &&
                  h.loops == cases[i].loops && h.finished == cases[i].finished,
              "case %zu: got %u %u %g loops %d finished %u", i, h.frame_a, h.frame_b, h.blend, h.loops, h.finished);
    }
    iq_play_opts stepped = opts_of(IQ_LOOP_ONCE, 0, 1, IQ_PLAY_STEPPED);
    CHECK(iq_playhead_at(&m, 0, 0.74, &stepped, &h) == 0 && h.frame_a == 11 && h.frame_b == 11 && h.blend == 0, "stepped");
    iq_play_opts faster = opts_of(IQ_LOOP_ONCE, 4, 1, 0);
    CHECK(iq_playhead_at(&m, 0, 0.5, &faster, &h) == 0 && h.frame_a == 12 && h.duration == 0.75, "framerate override");
    CHECK(iq_playhead_at(&m, 0, 0.5, NULL, &h) == 0 && h.frame_a == 11 && h.duration == 1.5, "NULL options");
    /* Framerate 0 in the file: IQ_DEFAULT_FRAMERATE; one frame loops on itself. */
    CHECK(iq_playhead_at(&m, 1, 5.0, NULL, &h) == 0 && h.frame_a == 0 && h.frame_b == 0 && h.duration == 1 / IQ_DEFAULT_FRAMERATE,
          "one frame, default framerate: %g", h.duration);
    iq_play_opts pp = opts_of(IQ_LOOP_PINGPONG, 0, 1, 0);
    CHECK(iq_playhead_at(&m, 1, 5.0, &pp, &h) == 0 && h.frame_a == 0 && h.loops == 0, "one-frame pingpong");
    CHECK(iq_playhead_at(&m, 2, 1.0, NULL, &h) == 0 && h.frame_count == 0 && h.finished == 1, "empty animation");
    /* Bad arguments. */
    iq_play_opts bad_loop = opts_of((iq_loop_mode)9, 0, 1, 0), bad_rate = opts_of(IQ_LOOP_AUTO, -1, 1, 0);
    iq_play_opts bad_speed = opts_of(IQ_LOOP_AUTO, 0, INFINITY, 0), huge = opts_of(IQ_LOOP_AUTO, 1e308, 1e308, 0);
    CHECK(iq_playhead_at(&m, 3, 0, NULL, &h) == IQ_ERROR_INVALID_ARGUMENT, "animation out of range");
    CHECK(iq_playhead_at(&m, 0, NAN, NULL, &h) == IQ_ERROR_INVALID_ARGUMENT, "NaN time");
    CHECK(iq_playhead_at(&m, 0, 0, &bad_loop, &h) == IQ_ERROR_INVALID_ARGUMENT, "loop mode");
    CHECK(iq_playhead_at(&m, 0, 0, &bad_rate, &h) == IQ_ERROR_INVALID_ARGUMENT, "negative framerate");
    CHECK(iq_playhead_at(&m, 0, 0, &bad_speed, &h) == IQ_ERROR_INVALID_ARGUMENT, "infinite speed");
    CHECK(iq_playhead_at(&m, 0, 1e300, &huge, &h) == IQ_ERROR_INVALID_ARGUMENT, "time * rate overflows");
    CHECK(iq_playhead_at(NULL, 0, 0, NULL, &h) == IQ_ERROR_INVALID_ARGUMENT, "NULL model");
}

/* Whatever the inputs, the frames stay inside the animation and the blend in [0, 1). */
static void test_playhead_sweep(void) {
    iq_animation anim = {"a", 5, 7, 30.0f, 0};
    iq_model m;
    memset(&m, 0, sizeof m);
    m.animations = &anim;
    m.animation_count = 1;
    m.frame_count = 12;
    double times[] = {0, 1e-12, 0.1, 0.2333, 1, 7.0 / 30, 6.0 / 30, -0.0001, -7, 12345.678, 1e9, -1e9, 1e15};
    double speeds[] = {1, -1, 0.5, -2.5, 1e-9, 1000, 0};
    int bad = 0;
    for (int loop = 0; loop <= IQ_LOOP_PINGPONG; loop++)
        for (size_t s = 0; s < sizeof speeds / sizeof speeds[0]; s++)
            for (size_t t = 0; t < sizeof times / sizeof times[0]; t++)
                for (uint32_t flags = 0; flags < 2; flags++) {
                    iq_play_opts o = opts_of((iq_loop_mode)loop, 0, speeds[s], flags);
                    iq_playhead h;
                    if (iq_playhead_at(&m, 0, times[t], &o, &h) != 0 || h.frame_a < 5 || h.frame_a > 11 || h.frame_b < 5 ||
                        h.frame_b > 11 || !(h.blend >= 0 && h.blend < 1) || !(h.position >= 0 && h.position <= 7)) {
                        if (bad++ < 5)
                            fprintf(stderr, "loop %d speed %g time %g: %u %u %g %g\n", loop, speeds[s], times[t], h.frame_a,
                                    h.frame_b, h.blend, h.position);
                    }
                }
    CHECK(bad == 0, "%d playheads out of range", bad);
}

/* Linear blend skinning in doubles, straight from the definition: no influence sets. */
static void test_skinning_against_plain_blend(const char *path) {
    iq_model *m = load_file(path);
    if (!m) return;
    double worst_p = 0, worst_n = 0, size = 0;
    for (int k = 0; k < 3; k++) size = fmax(size, m->bounds.max[k] - m->bounds.min[k]);
    for (uint32_t a = 0; a < m->animation_count; a++) {
        for (double time = 0; time < 1.0; time += 0.23) {
            iq_play play;
            memset(&play, 0, sizeof play);
            play.animation = a;
            play.time = time;
            play.opts.loop = IQ_LOOP_REPEAT;
            CHECK(iq_pose_model(m, &play, NULL, 0, 1, NULL) == 0, "pose");
            for (uint32_t v = 0; v < m->vertex_count; v++) {
                double mat[12] = {0};
                for (int k = 0; k < 4; k++) {
                    double w = m->blend_weights[4 * v + k];
                    const float *s = m->instance->skin_matrices + 12 * m->blend_indices[4 * v + k];
                    for (int i = 0; i < 12; i++) mat[i] += w * s[i];
                }
                const float *p = m->positions + 3 * v;
                for (int r = 0; r < 3; r++) {
                    double want = mat[4 * r] * p[0] + mat[4 * r + 1] * p[1] + mat[4 * r + 2] * p[2] + mat[4 * r + 3];
                    worst_p = fmax(worst_p, fabs(m->instance->skinned_positions[3 * v + r] - want) / size);
                }
                if (m->normals) { /* inverse transpose by cofactors, normalised */
                    const float *n = m->normals + 3 * v;
                    double c[3][3];
                    for (int r = 0; r < 3; r++)
                        for (int col = 0; col < 3; col++) {
                            int r1 = (r + 1) % 3, r2 = (r + 2) % 3, c1 = (col + 1) % 3, c2 = (col + 2) % 3;
                            c[r][col] = mat[4 * r1 + c1] * mat[4 * r2 + c2] - mat[4 * r1 + c2] * mat[4 * r2 + c1];
                        }
                    double out[3], len = 0;
                    for (int r = 0; r < 3; r++) { out[r] = c[r][0] * n[0] + c[r][1] * n[1] + c[r][2] * n[2]; len += out[r] * out[r]; }
                    len = sqrt(len);
                    for (int r = 0; r < 3; r++) worst_n = fmax(worst_n, fabs(m->instance->skinned_normals[3 * v + r] - out[r] / len));
                }
            }
        }
    }
    printf("test_anim: %s: worst skinned position %.2e of model size, worst normal %.2e\n", path, worst_p, worst_n);
    CHECK(worst_p < 1e-6 && worst_n < 1e-5, "%s: %g %g", path, worst_p, worst_n);
    iq_free(m);
}

/* jointMatrix with a time equals the posed hierarchy at that time; without one, the last pose exactly. */
static void test_joint_matrix(void) {
    iq_model *m = load_file(CORPUS "mrfixit/mrfixit.iqm");
    if (!m) return;
    iq_play play, fade;
    memset(&play, 0, sizeof play);
    memset(&fade, 0, sizeof fade);
    play.time = 1.37;
    play.opts.loop = IQ_LOOP_PINGPONG;
    fade.time = 0.4;
    CHECK(iq_pose_model(m, &play, &fade, 0.3f, 0, NULL) == 0, "pose");
    double worst = 0;
    int exact = 1;
    for (uint32_t j = 0; j < m->joint_count; j++) {
        float at_time[16], last[16];
        CHECK(iq_joint_matrix(m, j, &play, &fade, 0.3f, at_time) == 0, "joint %u", j);
        CHECK(iq_joint_matrix(m, j, NULL, NULL, 0, last) == 0, "joint %u", j);
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 4; c++) {
                float w = m->instance->world_matrices[12 * j + 4 * r + c];
                worst = fmax(worst, fabs(at_time[4 * c + r] - w));
                if (last[4 * c + r] != w) exact = 0;
            }
        CHECK(last[3] == 0 && last[7] == 0 && last[11] == 0 && last[15] == 1, "bottom row");
        /* the 4x4 skin matrices are the 3x4 ones, transposed into columns */
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 4; c++)
                if (m->instance->skin_matrices_4x4[16 * j + 4 * c + r] != m->instance->skin_matrices[12 * j + 4 * r + c]) exact = 0;
    }
    printf("test_anim: mrfixit joint matrices at a time vs the posed hierarchy: worst %.2e\n", worst);
    CHECK(worst < 1e-3 && exact, "worst %g exact %d", worst, exact);
    float out[16];
    CHECK(iq_joint_matrix(m, m->joint_count, NULL, NULL, 0, out) == IQ_ERROR_INVALID_ARGUMENT, "joint out of range");
    CHECK(iq_joint_matrix(m, 0, &play, &fade, NAN, out) == IQ_ERROR_INVALID_ARGUMENT, "NaN weight");
    CHECK(iq_pose_model(m, &play, &fade, INFINITY, 0, NULL) == IQ_ERROR_INVALID_ARGUMENT, "infinite weight");
    CHECK(iq_find_joint(m, "Head") >= 0 && iq_find_joint(m, "no such joint") == -1, "find_joint");
    CHECK(iq_find_animation(m, "idle") == 0 && iq_find_animation(m, NULL) == -1, "find_animation");
    iq_free(m);
}

static void test_attach(void) {
    iq_model *guy = load_file(CORPUS "raylib/guy.iqm");
    iq_model *anim = load_file(CORPUS "raylib/guyanim.iqm");
    iq_model *fixit = load_file(CORPUS "mrfixit/mrfixit.iqm");
    iq_model *door = load_file(CORPUS "extension/door2.iqm");
    if (!guy || !anim || !fixit || !door) return;
    iq_error err;
    CHECK(iq_attach_animations(guy, anim, &err) == 0, "attach: %s", err.message);
    CHECK(guy->frame_count == 244 && guy->animation_count == 4 && guy->animations[2].first_frame == 122 &&
              strcmp(guy->animations[3].name, "dance") == 0 && guy->animations[3].first_frame == 183,
          "counts %u %u", guy->frame_count, guy->animation_count);
    CHECK(check_model(guy) == 0 && check_evaluate(guy) == 0, "invariants after attach");
    /* guyanim holds the same motion as guy's own animations */
    int same = memcmp(guy->frame_poses, guy->frame_poses + 122 * guy->joint_count, 122 * guy->joint_count * sizeof(iq_transform)) == 0;
    CHECK(same, "attached frames equal the built-in ones");
    /* Attach to itself: doubles the frames; the source is read before anything moves. */
    CHECK(iq_attach_animations(door, door, &err) == 0 && door->frame_count == 36 && door->animation_count == 6 &&
              door->animations[5].first_frame == 30 && check_model(door) == 0,
          "self attach: %s", err.message);
    uint32_t frames = guy->frame_count, anims = guy->animation_count;
    const iq_transform *poses = guy->frame_poses;
    CHECK(iq_attach_animations(guy, fixit, &err) == IQ_ERROR_SKELETON_MISMATCH && strstr(err.message, "14 joints"),
          "joint count: %s", err.message);
    CHECK(iq_attach_animations(fixit, guy, &err) == IQ_ERROR_SKELETON_MISMATCH, "joint count the other way");
    CHECK(iq_attach_animations(door, guy, &err) == IQ_ERROR_SKELETON_MISMATCH, "door");
    CHECK(guy->frame_count == frames && guy->animation_count == anims && guy->frame_poses == poses, "unchanged after refusal");
    CHECK(iq_attach_animations(guy, NULL, &err) == IQ_ERROR_INVALID_ARGUMENT, "NULL source");
    CHECK(iq_attach_animations(NULL, guy, NULL) == IQ_ERROR_INVALID_ARGUMENT, "NULL model, NULL error");
    iq_free(guy);
    iq_free(anim);
    iq_free(fixit);
    iq_free(door);
}


/* Evaluation state apart from the model: two instances and the model's own
 * posed at different times hold different poses, each equal to what posing
 * alone gives, and freeing an instance leaves the model usable. */
static void test_instances(const char *path) {
    iq_model *m = load_file(path);
    if (!m || !m->animation_count) { iq_free(m); return; }
    iq_error err;
    iq_instance *a = iq_instance_create(m, &err), *b = iq_instance_create(m, &err);
    CHECK(a && b, "iq_instance_create: %s", err.message);
    if (!a || !b) { iq_instance_free(a); iq_instance_free(b); iq_free(m); return; }
    size_t nv = (size_t)m->vertex_count * 3;
    /* fresh instances are in the bind pose, like a freshly loaded model */
    CHECK(memcmp(a->skinned_positions, m->positions, nv * sizeof(float)) == 0, "%s: a new instance is in the bind pose", path);
    iq_play p1, p2;
    memset(&p1, 0, sizeof p1);
    p2 = p1;
    p1.time = 0.5;
    p2.time = 1.25;
    CHECK(iq_pose_instance(a, &p1, NULL, 0, 1, NULL) == 0 && iq_pose_instance(b, &p2, NULL, 0, 1, NULL) == 0, "pose instances");
    CHECK(iq_pose_model(m, &p1, NULL, 0, 1, NULL) == 0, "pose the model");
    CHECK(memcmp(a->skinned_positions, m->instance->skinned_positions, nv * sizeof(float)) == 0,
          "%s: instance a and the model posed at the same time agree exactly", path);
    CHECK(memcmp(a->skinned_positions, b->skinned_positions, nv * sizeof(float)) != 0,
          "%s: instances posed at different times differ", path);
    /* posing b did not touch a: pose a again and compare */
    float *copy = malloc(nv * sizeof(float));
    memcpy(copy, a->skinned_positions, nv * sizeof(float));
    CHECK(iq_pose_instance(b, &p1, NULL, 0, 1, NULL) == 0, "pose b again");
    CHECK(memcmp(copy, a->skinned_positions, nv * sizeof(float)) == 0, "%s: posing b leaves a alone", path);
    CHECK(memcmp(b->skinned_positions, a->skinned_positions, nv * sizeof(float)) == 0, "%s: same time, same result", path);
    float ja[16], jb[16];
    CHECK(iq_instance_joint_matrix(a, m->joint_count - 1, ja) == 0 && iq_joint_matrix(m, m->joint_count - 1, NULL, NULL, 0, jb) == 0 &&
              memcmp(ja, jb, sizeof ja) == 0, "%s: the last-pose joint matrix of a equals the model's", path);
    free(copy);
    iq_instance_free(a);
    iq_instance_free(m->instance); /* the model's own: ignored */
    CHECK(iq_evaluate(m, 1.5f) == 0, "the model still evaluates after an instance is freed");
    iq_instance_free(b);
    iq_free(m);
}

/* A clip over raw frames without a model, and the bounds check with one. */
static void test_clip_playhead(void) {
    iq_animation clip = {"", 5, 4, 10.0f, IQ_ANIMATION_LOOP};
    iq_playhead h;
    CHECK(iq_clip_playhead(NULL, &clip, 0.35, NULL, &h) == 0 && h.frame_a == 8 && h.frame_b == 5 && fabs(h.blend - 0.5) < 1e-9 &&
              h.duration == 0.4, "clip: 0.35 s at 10 fps is half way from the last frame back to the first (%u %u %g)",
          h.frame_a, h.frame_b, h.blend);
    CHECK(iq_clip_playhead(NULL, &clip, 0.85, NULL, &h) == 0 && h.loops == 2 && h.frame_a == 5, "clip: two loops after 0.85 s");
    iq_model m;
    memset(&m, 0, sizeof m);
    m.frame_count = 8;
    CHECK(iq_clip_playhead(&m, &clip, 0, NULL, &h) == IQ_ERROR_INVALID_ARGUMENT, "a clip past the model's frames is refused");
    m.frame_count = 9;
    CHECK(iq_clip_playhead(&m, &clip, 0, NULL, &h) == 0, "a clip inside the model's frames");
}

static iq_model *load_text(const char *text) {
    iq_error err;
    iq_model *m = iq_load_memory(text, strlen(text), NULL, &err);
    CHECK(m != NULL, "%s", err.message);
    return m;
}

/* Red Eclipse's rocket_idle.iqm and friends: unnamed joints (matched by
 * order) whose parents differ from the player mesh's for three joints.
 * Engines pose them with the mesh's hierarchy; so must we. */
static void test_attach_other_parents(void) {
    iq_model *m = load_text("# Inter-Quake Export\njoint root\njoint b 0\njoint c 1\njoint d 2\njoint e 0\n"
                            "pq 0 0 0 0 0 0 1\npq 0 0 0 0 0 0 1\npq 0 0 0 0 0 0 1\npq 0 0 0 0 0 0 1\npq 0 0 0 0 0 0 1\n");
    /* parents -1 0 0 1 1: c, d and e differ from the mesh's -1 0 1 2 0 */
    iq_model *anim = load_text("# Inter-Quake Export\njoint \"\"\njoint \"\" 0\njoint \"\" 0\njoint \"\" 1\njoint \"\" 1\n"
                               "animation idle\nframe\npq 1 0 0 0 0 0 1\npq 0 1 0 0 0 0.70710678 0.70710678\n"
                               "pq 0 0 1 0 0 0 1\npq 2 0 0 0 0 0 1\npq 0 0 3 0 0 0 1\n");
    if (!m || !anim) { iq_free(m); iq_free(anim); return; }
    iq_error err;
    uint32_t warnings = m->warning_count;
    CHECK(iq_attach_animations(m, anim, &err) == 0, "attach: %s", err.message);
    CHECK(m->animation_count == 1 && m->frame_count == 1, "attached");
    CHECK(m->warning_count == warnings + 1 && iqt_has_warning(m, IQ_WARNING_NONSTANDARD, "3 joint(s) have other parents") &&
              iqt_has_warning(m, IQ_WARNING_NONSTANDARD, "'c', 'd', 'e'"),
          "one warning naming the three joints: %s", m->warning_count ? m->warnings[m->warning_count - 1].message : "");
    CHECK(m->joints[3].parent == 2 && m->joints[4].parent == 0, "the mesh's hierarchy is kept");
    /* d in the mesh's hierarchy: root (1,0,0) * b (0,1,0) turned 90 degrees
     * about z * c (0,0,1) * d (2,0,0): d's origin (2,0,0) -> c (2,0,1) ->
     * b turns it to (0,2,1) and adds (0,1,0) -> root adds (1,0,0): (1,3,1);
     * its x axis turned by b: (0,1,0). (With the animation's parents it
     * would be (1,3,0).) */
    iq_play play;
    memset(&play, 0, sizeof play);
    float out[16], tag[16];
    CHECK(iq_joint_matrix(m, 3, &play, NULL, 0, out) == 0, "joint matrix");
    CHECK(fabsf(out[12] - 1) < 1e-5f && fabsf(out[13] - 3) < 1e-5f && fabsf(out[14] - 1) < 1e-5f, "d at (%g, %g, %g)", out[12],
          out[13], out[14]);
    CHECK(fabsf(out[0]) < 1e-5f && fabsf(out[1] - 1) < 1e-5f && fabsf(out[2]) < 1e-5f, "d's x axis (%g, %g, %g)", out[0], out[1], out[2]);
    CHECK(iq_tag_matrix(m, "d", 0, tag) == IQ_ERROR_NONE && fabsf(tag[14] - 1) < 1e-5f, "the tag query agrees");
    CHECK(iq_pose_model(m, &play, NULL, 0, 1, NULL) == 0 && fabsf(m->instance->world_matrices[12 * 3 + 11] - 1) < 1e-5f, "posed world matrix");
    CHECK(check_model(m) == 0 && check_evaluate(m) == 0, "invariants");

    /* By name: the animations move a subset of the model's joints; the rest keep their bind pose. */
    iq_model *part = load_text("# Inter-Quake Export\njoint root\njoint c 0\nanimation bend\nframe\npq 0 0 5 0 0 0 1\npq 0 0 7 0 0 0 1\n");
    if (part) {
        CHECK(iq_attach_animations(m, part, &err) == 0, "subset by name: %s", err.message);
        CHECK(iqt_has_warning(m, IQ_WARNING_IGNORED_DATA, "3 of the model's 5 joints are not in the animations"), "bind-pose warning");
        CHECK(iqt_has_warning(m, IQ_WARNING_NONSTANDARD, "'c'"), "c's parent differs too");
        const iq_transform *f = m->frame_poses + 1 * 5;
        CHECK(f[0].translate[2] == 5 && f[2].translate[2] == 7 && f[1].translate[2] == 0 && f[3].translate[0] == 0, "mapped by name");
        CHECK(check_model(m) == 0 && check_evaluate(m) == 0, "invariants");
    }
    /* What cannot be mapped is refused, saying why; the model is unchanged. */
    iq_model *two = load_text("# Inter-Quake Export\njoint \"\"\njoint \"\" 0\nanimation x\nframe\npq 0 0 0 0 0 0 1\npq 0 0 0 0 0 0 1\n");
    iq_model *stranger = load_text("# Inter-Quake Export\njoint root\njoint zz 0\nanimation y\nframe\npq 0 0 0 0 0 0 1\npq 0 0 0 0 0 0 1\n");
    uint32_t frames = m->frame_count;
    if (two)
        CHECK(iq_attach_animations(m, two, &err) == IQ_ERROR_SKELETON_MISMATCH && strstr(err.message, "5 joints") &&
                  strstr(err.message, "cannot be matched by name"),
              "unnamed, other count: %s", err.message);
    if (stranger)
        CHECK(iq_attach_animations(m, stranger, &err) == IQ_ERROR_SKELETON_MISMATCH && strstr(err.message, "'zz'"),
              "unknown joint: %s", err.message);
    CHECK(m->frame_count == frames, "unchanged after refusals");
    iq_free(two);
    iq_free(stranger);
    iq_free(part);
    iq_free(anim);
    iq_free(m);
}

/* A model whose frames carry no poses (4096 frames, 2 joints, no pose data:
 * found by fuzz_anim) takes an animation file: its own frames become the bind
 * pose, as the animator reads them, and the attached ones follow. */
static void test_attach_to_frames_without_poses(void) {
    iq_model *m = load_file("tests/fixtures/regress/attach-frames-without-poses.iqm");
    iq_model *anim = load_file("tests/c/seeds/fuzz_anim/animation-only.iqm");
    if (!m || !anim) return;
    CHECK(m->frame_count == 4096 && m->joint_count == 2 && !m->frame_poses, "the fixture's shape");
    iq_error err;
    CHECK(iq_attach_animations(m, anim, &err) == 0, "attach: %s", err.message);
    CHECK(m->frame_count == 4096 + anim->frame_count && m->frame_poses, "frames %u", m->frame_count);
    CHECK(memcmp(&m->frame_poses[0], &m->joints[0].bind, sizeof(iq_transform)) == 0 &&
              memcmp(&m->frame_poses[4095 * 2 + 1], &m->joints[1].bind, sizeof(iq_transform)) == 0,
          "the old frames hold the bind pose");
    CHECK(memcmp(&m->frame_poses[4096 * 2], &anim->frame_poses[0], 2 * sizeof(iq_transform)) == 0, "the attached frames follow");
    CHECK(check_model(m) == 0 && check_evaluate(m) == 0, "invariants after attach");
    iq_free(m);
    iq_free(anim);
}

/* Instances and attached animations come from the library's heap too: each
 * allocation failing in turn gives out_of_memory and leaves nothing. */
static int instance_attempt(const void *arg, iq_error *err) {
    iq_instance *inst = iq_instance_create(arg, err);
    int ok = inst && iq_instance_evaluate(inst, 0.5f) == IQ_ERROR_NONE;
    iq_instance_free(inst);
    return ok;
}

static void test_allocation_failures(void) {
    size_t n;
    unsigned char *d = iqt_read_file(CORPUS "mrfixit/mrfixit.iqm", &n);
    iq_error err;
    iq_model *m = d ? iq_load_memory(d, n, NULL, &err) : NULL;
    CHECK(m != NULL, "mrfixit.iqm");
    if (m) iqt_allocation_sweep("iq_instance_create (mrfixit.iqm)", instance_attempt, m);
    iq_free(m);
    free(d);
}

int main(void) {
    test_attach_to_frames_without_poses();
    test_allocation_failures();
    test_attach_other_parents();
    test_playhead_on_paper();
    test_playhead_sweep();
    test_skinning_against_plain_blend(CORPUS "mrfixit/mrfixit.iqm");
    test_skinning_against_plain_blend(CORPUS "raylib/guy.iqm");
    test_joint_matrix();
    test_attach();
    test_instances(CORPUS "mrfixit/mrfixit.iqm");
    test_instances(CORPUS "raylib/guy.iqm");
    test_clip_playhead();
    return iqt_finish("test_anim");
}
