// What every entry point (web/interquake.js, .node.js, -embedded.js) shares: init() over a
// way to find the WASM, and the exports of the API.

import { instantiate, simdSupported, InterquakeError } from './core/wasm.js';
import { Interquake } from './render/library.js';

/**
 * Frames per second used when neither the options nor the file give a framerate (IQM framerate 0).
 * The C owns the number (IQ_DEFAULT_FRAMERATE); it is set when the first library is made.
 */
export let DEFAULT_FRAMERATE; // eslint-disable-line import/no-mutable-exports

// The libraries of every entry in the page: an app's init() and the element's (which imports
// web/interquake.js) share one library, compiled once. What the options ask for -> Promise<Interquake>.
const libraries = new Map();
let firstKey = null;
// Set when interquake/embedded is imported: every entry's default WASM then comes from its base64,
// so the element in an esbuild or Rollup bundle needs no .wasm file beside the bundle.
let embeddedWasm = null;

/** Makes `wasmFor(simd)` (bytes) the default WASM of every init() in the page (interquake/embedded). */
export function embedWasm(wasmFor) { embeddedWasm = wasmFor; }

/**
 * An init() whose default WASM comes from defaultWasm(simd) (a URL, bytes or a Module), whose
 * shader scripts, when that WASM leaves them out, come from shaderWasm() (loadShaderSupport()), and
 * whose readers it leaves out from readersWasm(simd) (loadReaders()).
 * The first call compiles and instantiates; later calls with the same options (or none) resolve
 * to the same library, whichever entry made it; other options (another wasm or simd) make a
 * separate library.
 */
export function makeInit(defaultWasm, shaderWasm = null, readersWasm = null) {
  // This init's own defaults (another entry's defaults, say the smaller viewer builds, are other keys).
  const defaults = { simd: Symbol('default simd build'), baseline: Symbol('default baseline build') };
  return function init(options = {}) {
    const chosen = options.wasm !== undefined || options.simd !== undefined;
    if (!chosen && firstKey !== null) return libraries.get(firstKey);
    const simd = options.simd !== false && simdSupported();
    const key = options.wasm ?? defaults[simd ? 'simd' : 'baseline'];
    if (!libraries.has(key)) {
      const promise = instantiate(options.wasm ?? (embeddedWasm ?? defaultWasm)(simd)).then((wasm) => {
        const library = new Interquake(wasm, { shaders: shaderWasm?.(), readers: options.wasm === undefined ? readersWasm?.(simd) : undefined });
        /** true: the SIMD build; false: the baseline build; undefined: a WASM passed to init(). */
        library.simd = options.wasm === undefined ? simd : undefined;
        DEFAULT_FRAMERATE = library.defaultFramerate;
        return library;
      }, (err) => {
        libraries.delete(key); // a later call may retry (for example with options.wasm)
        if (firstKey === key) firstKey = null;
        throw err;
      });
      libraries.set(key, promise);
      firstKey ??= key;
    }
    return libraries.get(key);
  };
}

export { InterquakeError, simdSupported };
export { Interquake } from './render/library.js';
/** The path rules (web/core/paths.js): extensions, player parts and LODs, texture candidates. */
export * as paths from './core/paths.js';
export { Model, Instance } from './core/model.js';
