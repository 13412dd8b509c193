// interquake over the smaller WASM builds: what the one-file element (interquake-viewer.min.js)
// uses in place of web/interquake.js (tools/build-viewer.mjs swaps them), so that a page showing a
// plain model downloads less. interquake-viewer.wasm has no IQM or glTF writer (writeIQM and
// writeGLB say 'unsupported') and no shader scripts: those come from interquake-shaders.wasm,
// fetched by iq.loadShaderSupport() the first time a model has scripts beside it. Its load-time
// code is built for size and its per-frame code (posing, skinning, morphs, tags) for speed
// (build.sh, docs/BENCHMARKS.md). The readers a plain page does not need (MD5, DPM, ZYM, MDR, MD2, MDL, MDC: build.sh's
// ON_DEMAND_SOURCES) are in interquake-readers.wasm, the same build with them added, fetched by
// iq.loadReaders() the first time a file needs one. Everything else is the same API over the same C.

import { makeInit } from './entry.js';

export const init = makeInit(
  (simd) => (simd
    ? new URL('./interquake-viewer.wasm', import.meta.url)
    : new URL('./interquake-viewer-baseline.wasm', import.meta.url)),
  () => new URL('./interquake-shaders.wasm', import.meta.url),
  (simd) => (simd
    ? new URL('./interquake-readers.wasm', import.meta.url)
    : new URL('./interquake-readers-baseline.wasm', import.meta.url)));

export { InterquakeError, simdSupported, Interquake, Model, Instance, DEFAULT_FRAMERATE, paths } from './entry.js';
