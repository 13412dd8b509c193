/* libFuzzer harness for the IQE reader and the IQM writer. Inputs that start
 * with the IQM magic are read as IQM, everything else as IQE whatever its
 * first line (so mutations reach past the header). A successful load must keep
 * every invariant and survive evaluation, and its IQM serialisation must load
 * again with the same counts.
 *   npm run fuzz -- --minutes N --only NAME */
// seeds: tests/fixtures/iqe tests/c/seeds/fuzz_iqe
// campaign seeds: ../shared/corpus/iqe ../shared/corpus/iqm
#include "check_model.h"
#include "glb_check.h"
#include "interquake.h"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    iq_load_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.format = size >= 16 && !memcmp(data, "INTERQUAKEMODEL", 16) ? IQ_FORMAT_IQM : IQ_FORMAT_IQE;
    iq_error err;
    iq_model *m = iq_load_memory(data, size, &opts, &err);
    if (!m) {
        if (err.code == IQ_ERROR_NONE) abort();
        return 0;
    }
    if (check_model(m) || check_evaluate(m) || iqt_check_glb(m)) abort(); /* the GLB writer too */
    size_t out_size;
    uint8_t *bytes = iq_write_iqm(m, &out_size, &err);
    if (!bytes) abort();
    iq_model *back = iq_load_memory(bytes, out_size, NULL, &err);
    if (!back || check_model(back) || check_evaluate(back) || back->vertex_count != m->vertex_count || back->triangle_count != m->triangle_count ||
        back->frame_count != m->frame_count || back->joint_count != m->joint_count ||
        back->custom_array_count != m->custom_array_count || back->extension_count != m->extension_count)
        abort();
    iq_free(back);
    iq_free_bytes(bytes);
    iq_free(m);
    return 0;
}
