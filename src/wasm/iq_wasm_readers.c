/* Exports of what the one-file element's smaller WASM leaves to
 * interquake-readers.wasm besides the readers themselves: DarkPlaces'
 * .framegroups (iq_apply_framegroups). In interquake.wasm and
 * interquake-readers.wasm, not in interquake-viewer.wasm (build.sh); JS asks
 * for it with wasm.has('iq_wasm_apply_framegroups'). */
#include "wasm/iq_wasm_internal.h"
#include "base/iq_internal.h"

/* A .framegroups text names a loaded model's animations: 0 or an error code with *err filled. */
IQ_EXPORT uint32_t iq_wasm_apply_framegroups(uint32_t model_handle, const char *text, uint32_t size, iq_error *err) {
    iq_model *m = iqi_wasm_model(model_handle);
    if (!m) {
        iqi_set_error(err, IQ_ERROR_DISPOSED, "the model was disposed");
        return IQ_ERROR_DISPOSED;
    }
    return (uint32_t)iq_apply_framegroups(m, text, size, err);
}
