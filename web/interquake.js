// interquake: the JS API over the WASM core (the npm entry point for browsers and bundlers).
//
// The WASM module is a standalone reactor with one import, so web/core/wasm.js is its whole
// loader: no Emscripten glue. Model data stays in the WASM heap; getters hand out typed-array
// views and rebuild them whenever the heap has grown (growth detaches every old view), so
// `model.positions` is always live. Keep a `.slice()` if you need a copy that outlives the model.
//
// Layers (web/): core/ (the WASM boundary, models, the library's core, the path rules; it imports
// nothing above it), quake3/ (archives, players, the library class with its Quake 3 entry points),
// viewer/ (the <interquake-viewer> element). Node takes web/interquake.node.js (the `node`
// export condition), which adds file reading; web/interquake-embedded.js carries the WASM inside.

import { makeInit } from './entry.js';

/**
 * Compiles and instantiates the WASM; later calls resolve to the same library (docs: init()).
 * options.wasm: bytes (ArrayBuffer / typed array), a WebAssembly.Module, a Response, or a URL.
 * options.simd: false loads the baseline build even where WASM SIMD works (the default picks
 * interquake.wasm, built with SIMD, when the engine supports it, else interquake-baseline.wasm).
 * Both URLs are literal `new URL(..., import.meta.url)`: bundlers copy both files and rewrite them.
 */
export const init = makeInit((simd) => (simd
  ? new URL('./interquake.wasm', import.meta.url)
  : new URL('./interquake-baseline.wasm', import.meta.url)));

export { InterquakeError, simdSupported, Interquake, Model, Instance, DEFAULT_FRAMERATE, paths } from './entry.js';
