/* libFuzzer harness for attaching animations: a fuzzed model is attached to a
 * small skinned model and an animation-only file of the same skeleton is
 * attached to the fuzzed model (both from the committed seeds, read once);
 * both ways must either succeed and keep every invariant, or refuse and leave
 * the model as it was. Also poses every animation (check_evaluate). Small
 * partners keep it at thousands of runs a second; the campaign seeds (raylib's
 * guy) reach the refusal paths for another skeleton.
 *   npm run fuzz -- --minutes N --only NAME */
// seeds: tests/c/seeds/fuzz_anim tests/fixtures/regress
// campaign seeds: ../shared/corpus/iqm/raylib
#include "check_model.h"
#include <stdio.h>
#include "interquake.h"
#include <stdlib.h>

/* The two raylib files, read once. */
static unsigned char *read_once(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) abort();
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *d = malloc((size_t)n);
    if (!d || fread(d, 1, (size_t)n, f) != (size_t)n) abort();
    fclose(f);
    *size = (size_t)n;
    return d;
}

static iq_model *load_path(const char *path) {
    static struct { const char *path; unsigned char *data; size_t size; } cache[2];
    int i = 0;
    while (i < 2 && cache[i].path && strcmp(cache[i].path, path) != 0) i++;
    if (i == 2) abort();
    if (!cache[i].path) {
        cache[i].data = read_once(path, &cache[i].size);
        cache[i].path = path;
    }
    iq_model *m = iq_load_memory(cache[i].data, cache[i].size, NULL, NULL);
    if (!m) abort();
    return m;
}

static void attach_and_check(iq_model *target, const iq_model *source) {
    uint32_t frames = target->frame_count, anims = target->animation_count;
    iq_error err;
    if (iq_attach_animations(target, source, &err) == 0) {
        if (target->frame_count != frames + source->frame_count) abort();
        if (check_model(target) || check_evaluate(target)) abort();
    } else if (err.code == IQ_ERROR_NONE || target->frame_count != frames || target->animation_count != anims) {
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    iq_model *fuzzed = iq_load_memory(data, size, NULL, NULL);
    if (!fuzzed) return 0;
    iq_model *target = load_path("tests/c/seeds/fuzz_anim/skinned.iqm");
    iq_model *anim = load_path("tests/c/seeds/fuzz_anim/animation-only.iqm");
    attach_and_check(target, fuzzed);
    attach_and_check(fuzzed, anim);
    iq_free(target);
    iq_free(anim);
    iq_free(fuzzed);
    return 0;
}
