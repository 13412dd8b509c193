// What every entry point (web/interquake.js, .node.js, -embedded.js) shares: init() over a
// way to find the WASM, and the exports of the API.

import { instantiate, simdSupported, InterquakeError } from './wasm.js';
import { Interquake } from './library.js';

/**
 * An init() whose default WASM comes from defaultWasm(simd) (a URL, bytes or a Module).
 * The first call compiles and instantiates; later calls with the same options (or none) resolve
 * to the same library; other options (another wasm or simd) make a separate library.
 */
/**
 * Frames per second used when neither the options nor the file give a framerate (IQM framerate 0).
 * The C owns the number (IQ_DEFAULT_FRAMERATE); it is set when the first library is made.
 */
export let DEFAULT_FRAMERATE; // eslint-disable-line import/no-mutable-exports

export function makeInit(defaultWasm) {
  const libraries = new Map(); // what the options ask for -> Promise<Interquake>
  let firstKey = null;
  return function init(options = {}) {
    const chosen = options.wasm !== undefined || options.simd !== undefined;
    if (!chosen && firstKey !== null) return libraries.get(firstKey);
    const simd = options.simd !== false && simdSupported();
    const key = options.wasm ?? `default-${simd ? 'simd' : 'baseline'}`;
    if (!libraries.has(key)) {
      const promise = instantiate(options.wasm ?? defaultWasm(simd)).then((wasm) => {
        const library = new Interquake(wasm);
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
export { Interquake } from './library.js';
export { Model, Instance } from './model.js';
