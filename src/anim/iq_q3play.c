/* Quake 3's animation clock: where a player part is `time` seconds after an
 * animation.cfg animation started, stepped as cgame's CG_RunLerpFrame steps it
 * (docs/formats.md section 2). This is the only copy of that rule: the JS
 * player and the viewer both ask it. */
#include "base/iq_internal.h"
#include "quake3/iq_quake3.h"
#include <math.h>

/* The stored frame shown `step` frames after the start: past the end a
 * looping animation repeats its last loop_frames frames and any other holds
 * its last frame; reversed animations count down from their last frame. */
static int64_t stored_frame(const iq_q3_animation *a, uint64_t step) {
    uint64_t n = a->frame_count;
    if (n == 0) return a->first_frame;
    if (step >= n) {
        step -= n;
        uint64_t loop = a->loop_frames < n ? a->loop_frames : n;
        step = loop ? step % loop + n - loop : n - 1;
    }
    return a->reversed ? (int64_t)a->first_frame + (int64_t)(n - 1 - step) : (int64_t)a->first_frame + (int64_t)step;
}

static uint32_t clamp_frame(int64_t f, uint32_t part_frames) {
    int64_t last = part_frames ? (int64_t)part_frames - 1 : 0;
    return (uint32_t)(f < 0 ? 0 : f > last ? last : f);
}

iq_error_code iq_q3_playhead(const iq_q3_animation *a, double time, uint32_t part_frames, iq_playhead *out) {
    if (!a || !out || !isfinite(time)) return IQ_ERROR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    /* Whole microseconds, so that seconds * 1000 lands on frame boundaries
     * exactly; at most about 30 000 years, so every step below stays exact. */
    double us = floor(time * 1e6 + 0.5);
    if (us < 0) us = 0;
    if (us > 1e18) us = 1e18;
    double lerp_us = (a->frame_lerp ? a->frame_lerp : 1) * 1000.0;
    uint64_t k = (uint64_t)floor(us / lerp_us);
    int64_t from = stored_frame(a, k), to = stored_frame(a, k + 1);
    double blend = from == to ? 0 : (us - (double)k * lerp_us) / lerp_us;
    uint64_t n = a->frame_count;
    out->frame_count = a->frame_count;
    out->frame_a = clamp_frame(from, part_frames);
    out->frame_b = clamp_frame(to, part_frames);
    out->blend = out->frame_a == out->frame_b ? 0 : blend;
    out->duration = (double)n * lerp_us / 1e6;
    uint64_t loop = a->loop_frames < n ? a->loop_frames : n;
    uint64_t step = k < n ? k : loop ? n - loop + (k - n) % loop : (n ? n - 1 : 0);
    out->position = (float)((double)step + (from == to ? 0 : blend));
    if (loop) {
        uint64_t loops = k >= n ? (k - n) / loop + 1 : 0;
        out->loops = loops > INT32_MAX ? INT32_MAX : (int32_t)loops;
    } else {
        out->finished = n == 0 || k + 1 >= n;
    }
    return IQ_ERROR_NONE;
}
