#define _POSIX_C_SOURCE 199309L
/* The native half of `npm run bench` (tools/bench.mjs runs it next to the WASM
 * build): for each file, load time, pose evaluation (sample + hierarchy + skin
 * matrices, no vertices) and CPU skinning per frame, as one JSON line each.
 * Built uninstrumented at -O2 by build.sh. Usage: bench_native FILE... */
#include "interquake.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The fastest and the median of `batches` means of `reps` calls; each call gets
 * a new index. The machine is shared, so the fastest batch is the figure least
 * disturbed by other processes; the median is printed next to it. */
#define MEASURE(result, batches, reps, body)                                   \
    do {                                                                       \
        double samples_[64];                                                   \
        unsigned call_ = 0;                                                    \
        for (int b_ = 0; b_ < (batches); b_++) {                               \
            double t0_ = now_us();                                             \
            for (int r_ = 0; r_ < (reps); r_++, call_++) { unsigned i = call_; body; } \
            samples_[b_] = (now_us() - t0_) / (reps);                          \
        }                                                                      \
        qsort(samples_, (batches), sizeof(double), compare_double);            \
        (result)[0] = samples_[0];                                             \
        (result)[1] = samples_[(batches) / 2];                                 \
    } while (0)

int main(int argc, char **argv) {
    for (int f = 1; f < argc; f++) {
        FILE *fp = fopen(argv[f], "rb");
        if (!fp) { fprintf(stderr, "cannot open %s\n", argv[f]); return 1; }
        fseek(fp, 0, SEEK_END);
        long size = ftell(fp);
        fseek(fp, 0, SEEK_SET);
        unsigned char *data = malloc((size_t)size);
        if (!data || fread(data, 1, (size_t)size, fp) != (size_t)size) { fprintf(stderr, "cannot read %s\n", argv[f]); return 1; }
        fclose(fp);
        iq_error err;
        iq_model *m = iq_load_memory(data, (size_t)size, NULL, &err);
        if (!m) { fprintf(stderr, "%s: %s\n", argv[f], err.message); return 1; }
        double load_us[2], pose_us[2], skin_us[2], evaluate_us[2];
        int load_reps = size > 4000000 ? 2 : 20;
        MEASURE(load_us, 9, load_reps, { (void)i; iq_free(iq_load_memory(data, (size_t)size, NULL, &err)); });
        iq_play play;
        memset(&play, 0, sizeof play);
        play.opts.loop = IQ_LOOP_REPEAT;
        int has_anim = m->animation_count > 0;
        /* Times between frames, so every call interpolates. */
        MEASURE(pose_us, 31, 2000, {
            play.time = (i % 997) * 0.0173;
            if (has_anim) iq_pose_model(m, &play, NULL, 0, 0, NULL);
            else iq_evaluate(m, 0);
        });
        MEASURE(skin_us, 31, 200, { (void)i; iq_skin_vertices(m->instance); });
        MEASURE(evaluate_us, 31, 200, { iq_evaluate(m, (float)((i % 97) * 0.37)); });
        printf("{\"file\":\"%s\",\"bytes\":%ld,\"vertices\":%u,\"joints\":%u,\"frames\":%u,"
               "\"load_us\":[%.3f,%.3f],\"pose_us\":[%.4f,%.4f],\"skin_us\":[%.4f,%.4f],\"evaluate_us\":[%.4f,%.4f]}\n",
               argv[f], size, m->vertex_count, m->joint_count, m->frame_count, load_us[0], load_us[1], pose_us[0],
               pose_us[1], skin_us[0], skin_us[1], evaluate_us[0], evaluate_us[1]);
        iq_free(m);
        free(data);
    }
    return 0;
}
