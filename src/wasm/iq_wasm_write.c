/* The writers' exports (IQM v2, glTF binary): in interquake.wasm, not in the
 * viewer's smaller build (build.sh). Models are reached through iq_wasm.c's handles. */
#include "wasm/iq_wasm_internal.h"
#include "base/iq_internal.h"
#include "write/iq_gltf.h"
#include <stdlib.h>

// -- Writing

/* IQM v2 bytes: a heap buffer (free with iq_wasm_free) and its size in *size_out, or 0 with *err filled. */
IQ_EXPORT uint8_t *iq_wasm_write_iqm(uint32_t handle, uint32_t *size_out, iq_error *err) {
    iq_model *m = iqi_wasm_model(handle);
    *size_out = 0;
    if (!m) {
        iqi_set_error(err, IQ_ERROR_DISPOSED, "the model was disposed");
        return NULL;
    }
    size_t size = 0;
    uint8_t *bytes = iq_write_iqm(m, &size, err);
    if (bytes && size > UINT32_MAX) {
        iqi_free(bytes);
        iqi_set_error(err, IQ_ERROR_LIMIT, "the IQM file would not fit in 32-bit memory");
        return NULL;
    }
    *size_out = (uint32_t)size;
    return bytes;
}

/* GLB bytes of a scene JS built in the heap: a heap buffer (free with iq_wasm_free)
 * and its size in *size_out, or 0 with *err filled. Each part's `model` field
 * holds a model handle, not a pointer: it is looked up here (a disposed model
 * is an error, never a dangling pointer) on a copy of the parts. */
IQ_EXPORT uint8_t *iq_wasm_write_glb(const iq_gltf_scene *scene, uint32_t *size_out, iq_error *err) {
    *size_out = 0;
    if (!scene->part_count || !scene->parts) {
        iqi_set_error(err, IQ_ERROR_INVALID_ARGUMENT, "a glTF scene needs at least one part");
        return NULL;
    }
    iq_gltf_part *parts = iqi_malloc(scene->part_count * sizeof *parts);
    if (!parts) {
        iqi_set_error(err, IQ_ERROR_OUT_OF_MEMORY, "out of memory for %u glTF parts", scene->part_count);
        return NULL;
    }
    uint8_t *bytes = NULL;
    for (uint32_t p = 0; p < scene->part_count; p++) {
        parts[p] = scene->parts[p];
        parts[p].model = iqi_wasm_model((uint32_t)(uintptr_t)scene->parts[p].model);
        if (!parts[p].model) {
            iqi_set_error(err, IQ_ERROR_DISPOSED, "part %u: the model was disposed", p);
            goto done;
        }
    }
    iq_gltf_scene copy = *scene;
    copy.parts = parts;
    size_t size = 0;
    bytes = iq_write_glb(&copy, &size, err);
    if (bytes && size > UINT32_MAX) {
        iq_free_bytes(bytes);
        bytes = NULL;
        iqi_set_error(err, IQ_ERROR_LIMIT, "the GLB would not fit in 32-bit memory");
    }
    if (bytes) *size_out = (uint32_t)size;
done:
    iqi_free(parts);
    return bytes;
}
