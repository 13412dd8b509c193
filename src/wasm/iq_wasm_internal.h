/* What the WebAssembly files share (Emscripten builds only; build.sh leaves
 * all of src/wasm/ out of the native builds): the export marker and the
 * call records JS writes, which the layout table (iq_wasm_tables.c) describes
 * and the exports (iq_wasm.c) take. */
#ifndef IQ_WASM_INTERNAL_H
#define IQ_WASM_INTERNAL_H

#include "interquake.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#define IQ_EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define IQ_EXPORT
#endif

// -- Call records: what JS writes for calls with many parameters

/* Pose an instance (or sample a joint) at `play`, crossfaded toward `blend` by
 * `weight` when has_blend; skin != 0 also skins (or morphs) the vertices. */
typedef struct iq_wasm_pose_args {
    iq_play play, blend;
    float weight;
    uint32_t has_blend, skin;
} iq_wasm_pose_args;

/* The model behind a handle (iq_wasm.c), or NULL when it is not live. */
iq_model *iqi_wasm_model(uint32_t handle);

#endif
