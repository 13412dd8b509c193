// interquake: the JS API over the WASM core (the npm entry point).
//
// The WASM module is a standalone reactor with one import, so web/core/wasm.js is its whole
// loader: no Emscripten glue. Model data stays in the WASM heap; getters hand out typed-array
// views and rebuild them whenever the heap has grown (growth detaches every old view), so
// `model.positions` is always live. Keep a `.slice()` if you need a copy that outlives the model.
//
// Layers (web/): core/ (the WASM boundary, models, the library), quake3/ (archives, players),
// viewer/ (the <interquake-viewer> element).

import { instantiate, simdSupported, InterquakeError } from './core/wasm.js';
import { Interquake } from './core/library.js';
import { Model, Instance } from './core/model.js';

let initPromise = null;

/**
 * Frames per second used when neither the options nor the file give a framerate (IQM framerate 0).
 * The C owns the number (IQ_DEFAULT_FRAMERATE); it is set by the first init().
 */
export let DEFAULT_FRAMERATE; // eslint-disable-line import/no-mutable-exports

/**
 * Compiles and instantiates the WASM once; later calls resolve to the same library.
 * options.wasm: bytes (ArrayBuffer / typed array), a WebAssembly.Module, a Response, or a URL.
 * options.simd: false loads the baseline build even where WASM SIMD works (the default picks
 * interquake.wasm, built with SIMD, when the engine supports it, else interquake-baseline.wasm).
 */
export function init(options = {}) {
  if (!initPromise) {
    const simd = options.simd !== false && simdSupported();
    // A URL string is taken relative to this file, as the default is.
    const given = typeof options.wasm === 'string' ? new URL(options.wasm, import.meta.url) : options.wasm;
    const wasm = given ?? new URL(simd ? './interquake.wasm' : './interquake-baseline.wasm', import.meta.url);
    initPromise = instantiate(wasm).then((w) => {
      const library = new Interquake(w);
      /** true: the SIMD build; false: the baseline build; undefined: a WASM passed to init(). */
      library.simd = options.wasm ? undefined : simd;
      DEFAULT_FRAMERATE = library.defaultFramerate;
      return library;
    }).catch((err) => {
      initPromise = null; // let a later call retry (for example with options.wasm)
      throw err;
    });
  }
  return initPromise;
}

export { InterquakeError, simdSupported, Interquake, Model, Instance };
