// interquake over the smaller WASM builds: what the one-file element (interquake-viewer.min.js)
// uses in place of web/interquake.js (tools/build-viewer.mjs swaps them), so that a page showing a
// plain model downloads less. interquake-viewer.wasm has no IQM or glTF writer (writeIQM and
// writeGLB say 'unsupported') and no shader scripts: those come from interquake-shaders.wasm,
// fetched by iq.loadShaderSupport() the first time a model has scripts beside it. Its load-time
// code is built for size and its per-frame code (posing, skinning, morphs, tags) for speed
// (build.sh, docs/BENCHMARKS.md). Everything else is the same API over the same C.

import { makeInit } from './entry.js';

export const init = makeInit(
  (simd) => (simd
    ? new URL('./interquake-viewer.wasm', import.meta.url)
    : new URL('./interquake-viewer-baseline.wasm', import.meta.url)),
  () => new URL('./interquake-shaders.wasm', import.meta.url));

export { InterquakeError, simdSupported, Interquake, Model, Instance, DEFAULT_FRAMERATE, paths } from './entry.js';
