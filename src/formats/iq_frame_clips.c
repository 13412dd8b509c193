/* Clips from frame names (iq_vertex_formats.h). Quake 1 and Quake 2 store
 * no animation list: the modelling tools numbered the frames of each action
 * ("stand01".."stand40", "run1".."run6", "pain101".."pain104") and the game
 * code names the frame ranges. Tools and viewers recover the actions by
 * cutting the trailing number; so does this, keeping a run together only
 * while its number counts up by one, so two actions with one stem
 * ("pain101".., "pain201"..) stay apart.
 *
 * Work is linear in the frame count: runs are found in one pass, and the
 * runs that share a stem are counted through a hash table, so a file with a
 * million frames costs a million steps, not a million squared. */
#include "formats/iq_vertex_formats.h"
#include <stdio.h>

typedef struct clip_run {
    uint32_t first, count;
    float framerate;
    const char *stem;      /* the first frame's name */
    uint32_t stem_length;  /* its length without the trailing digits */
    uint32_t digits;       /* how many trailing digits it has */
    uint32_t same_stem;    /* runs with this stem (filled for the first run of each stem) */
    uint32_t ordinal;      /* 0-based position among the runs with this stem */
    uint32_t head;         /* index of the first run with this stem */
} clip_run;

/* The name's length without its trailing digits, and the number they make
 * (saturated: only equality with the previous number + 1 matters). */
static uint32_t split_name(const char *name, uint32_t *digits, uint64_t *number) {
    uint32_t n = (uint32_t)strlen(name), stem = n;
    while (stem > 0 && name[stem - 1] >= '0' && name[stem - 1] <= '9') stem--;
    *digits = n - stem;
    *number = 0;
    for (uint32_t i = stem; i < n; i++) *number = *number > UINT32_MAX ? *number : *number * 10 + (uint64_t)(name[i] - '0');
    return stem;
}

static uint32_t hash_stem(const char *s, uint32_t n) {
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

int iqi_clips_from_frame_names(iqi_ctx *ctx, float framerate, const uint8_t *group_part, const float *group_rate) {
    iq_model *m = ctx->model;
    uint32_t frames = m->frame_count;
    if (!frames) return 1;
    clip_run *runs = iqi_alloc(ctx, frames, sizeof(clip_run), "clip runs");
    if (!runs) return 0;
    uint32_t count = 0, prev_stem = 0, prev_digits = 0;
    uint64_t prev_number = 0;
    for (uint32_t f = 0; f < frames; f++) {
        const char *name = m->frame_info[f].name;
        uint32_t digits;
        uint64_t number;
        uint32_t stem = split_name(name, &digits, &number);
        uint8_t part = group_part ? group_part[f] : 0, prev_part = group_part && f ? group_part[f - 1] : 0;
        int joins = part == 2 || (f > 0 && part == 0 && prev_part == 0 && stem == prev_stem && memcmp(name, runs[count - 1].stem, stem) == 0 &&
                    (digits > 0) == (prev_digits > 0) && (!digits || number == prev_number + 1));
        if (joins) {
            runs[count - 1].count++;
        } else {
            runs[count] = (clip_run){f, 1, part == 1 ? group_rate[f] : framerate, name, stem, digits, 0, 0, count};
            count++;
        }
        prev_stem = stem;
        prev_digits = digits;
        prev_number = number;
    }

    /* Runs per stem: open addressing on the stem, slots hold run index + 1. */
    uint32_t slots = 2;
    while (slots < 2 * count) slots *= 2;
    uint32_t *table = iqi_alloc(ctx, slots, sizeof(uint32_t), "clip name table");
    if (!table) return 0;
    for (uint32_t r = 0; r < count; r++) {
        clip_run *run = &runs[r];
        uint32_t i = hash_stem(run->stem, run->stem_length) & (slots - 1);
        for (;; i = (i + 1) & (slots - 1)) {
            if (!table[i]) { table[i] = r + 1; run->head = r; break; }
            clip_run *head = &runs[table[i] - 1];
            if (head->stem_length == run->stem_length && memcmp(head->stem, run->stem, run->stem_length) == 0) {
                run->head = table[i] - 1;
                break;
            }
        }
        run->ordinal = runs[run->head].same_stem++;
    }

    m->animations = iqi_alloc(ctx, count, sizeof(iq_animation), "animations");
    if (!m->animations) return 0;
    for (uint32_t r = 0; r < count; r++) {
        const clip_run *run = &runs[r];
        uint32_t shared = runs[run->head].same_stem;
        /* Room for the stem, the kept digits or "_" and a 10-digit ordinal, and the NUL. */
        char *name = iqi_alloc(ctx, (uint64_t)run->stem_length + run->digits + 12, 1, "animation name");
        if (!name) return 0;
        memcpy(name, run->stem, run->stem_length);
        char *end = name + run->stem_length;
        if (shared > 1 && run->digits >= 3) /* "pain101" -> "pain1" */
            memcpy(end, run->stem + run->stem_length, run->digits - 2);
        else if (shared > 1)
            snprintf(end, 12, "_%u", run->ordinal + 1);
        else if (run->stem_length == 0) /* a name of digits only */
            memcpy(end, "frames", 7);
        m->animations[r] = (iq_animation){name, run->first, run->count, run->framerate, IQ_ANIMATION_LOOP};
    }
    m->animation_count = count;
    return 1;
}
