// The element's software drawer (docs/VIEWER.md, "Software drawing"): where WebGL 2 is not there
// (the browser gives no context, or it was lost and not given back within 3 s: element.js's
// _contextLost) or the `renderer` attribute says "software", the element draws every frame with
// the C's software renderer (src/render/) through web/render/render.js's Scene — the same drawing
// as iq.render() — into a 2D canvas, with the element's own camera, clock, posed parts, textures
// and attributes.
//
// The renderer is in interquake.wasm only, so the content must live there: an element that draws
// in software takes the full library (the one-file element fetches interquake.wasm beside this
// file, which it fetches as interquake-software.min.js); content already shown from another WASM
// is loaded again in it (its bytes from the page's download table), keeping the play heads and the
// camera. Going back to WebGL keeps that library. Which drawer draws is decided here once software
// drawing has been asked for; element.js only asks (its _createRenderer).

import { Scene } from '../render/render.js';
import { movesWithTime } from './shaderdraw.js';
import { simdSupported } from '../core/wasm.js';
import { prepareShaders } from './content.js';
import { ViewerError } from './errors.js';

/** Samples per pixel along each axis when still, and while playing or moved by the user. */
export const STILL_SUPERSAMPLE = 2;
export const MOVING_SUPERSAMPLE = 1;
const SETTLE_MS = 150; // after the last moving frame, the still picture is drawn at STILL_SUPERSAMPLE

const ONE_FILE = /interquake-software\.min\.js(\?|#|$)/.test(import.meta.url);
let full = null; // the library over interquake.wasm this file found, for every element of the page
const states = new WeakMap(); // element -> { failed: reason WebGL cannot draw, queue: the choices in order }

/**
 * Decides which drawer `element` draws with, from its `renderer` attribute and what happened to
 * WebGL (reason: 'webgl2_unavailable' or 'context_lost', remembered for the element), and installs
 * it. Choices run one after another; the promise settles when this one is in place.
 */
export function chooseDrawer(element, init, reason) {
  let state = states.get(element);
  if (!state) states.set(element, state = { failed: null, queue: Promise.resolve() });
  if (reason) state.failed = reason;
  state.queue = state.queue.then(() => choose(element, init, state)).catch((err) => {
    element._rendererError = new ViewerError(err.code || 'unavailable', `the software drawer is not available: ${err.message}`);
    element._fail(element._rendererError, 'renderfailure');
  });
  return state.queue;
}

async function choose(element, init, state) {
  const mode = element.renderer;
  const software = mode === 'software' || (mode !== 'webgl' && state.failed !== null);
  const previous = element.drawer ?? null;
  if (software) {
    if (previous === 'software') return;
    const iq = await fullLibrary(element, init);
    element._releaseRenderer();
    const failed = element._rendererError; // renderer="webgl" without WebGL 2: its load failed for that
    element._rendererError = null;
    element._renderer = new SoftwareDrawer(element, freshCanvas(element), iq);
    element._showMessage(null);
    const c = element._content;
    if (c ? !c.parts.every((p) => p.model._wasm === iq._wasm) : failed && element._source != null) reload(element);
    element._emit('drawer-change', { drawer: 'software', previous, reason: mode === 'software' ? 'attribute' : state.failed });
  } else {
    if (previous === 'webgl') return;
    element._releaseRenderer();
    freshCanvas(element);
    element._webgl(); // WebGL 2, or today's error under renderer="webgl" when there is none
    if (element.drawer === 'webgl') {
      state.failed = null;
      // The content's shader-script surfaces need the WebGL drawer's stage programs.
      if (element._content) await prepareShaders(await element._iqPromise, element._content, element._renderer);
      element._emit('drawer-change', { drawer: 'webgl', previous, reason: 'attribute' });
    }
  }
  element._invalidate();
}

// The library over interquake.wasm: the element's own when it is that one (the element as modules),
// else the full WASM beside this file (the one-file element's is interquake-viewer.wasm).
async function fullLibrary(element, init) {
  if (!element._iqPromise && !ONE_FILE) {
    const wasm = element.getAttribute('wasm');
    element._iqPromise = init(wasm ? { wasm: new URL(wasm, document.baseURI) } : {});
  }
  const own = await element._iqPromise?.catch(() => null);
  if (own?._wasm.has('iq_wasm_render_draw')) return own;
  const name = simdSupported() ? 'interquake.wasm' : 'interquake-baseline.wasm';
  full ??= init({ wasm: new URL(ONE_FILE ? `./${name}` : `../${name}`, import.meta.url) }).catch((err) => { full = null; throw err; });
  element._iqPromise = full;
  return full;
}

// The content shown was built in another WASM: load it again in the full library (load() waits for
// this choice to finish first), with the play heads and the camera as they were.
function reload(element) {
  const heads = element._playback.snapshot();
  const paused = element._playback.paused;
  const cam = element._camera;
  const view = { yaw: cam.yaw, pitch: cam.pitch, distance: cam.distance, target: [...cam.target], fitted: cam.fitted, userMoved: cam.userMoved };
  element.load(element._source, element._sourceOptions).then(() => {
    element._playback.restore(heads);
    if (paused) element.pause();
    else element.play();
    Object.assign(cam, view);
    element._invalidate();
  }, () => {}); // a failure is the element's error event
}

// A canvas holds one kind of context for good: each drawer gets a new one in the old one's place.
function freshCanvas(element) {
  const canvas = element._canvas.cloneNode(false);
  element._canvas.replaceWith(canvas);
  element._canvas = element._view.canvas = canvas;
  element._bitmap = null;
  element._contextListeners = false;
  return canvas;
}

// 2D canvases give an image's pixels; decoded once per image (the element's PNG and JPEG textures
// are ImageBitmaps: the browser's decoder, JPEG included).
const pixelsOf = new WeakMap();
function rgba(image) {
  if (image.data) return image;
  let out = pixelsOf.get(image);
  if (!out) {
    const g = new OffscreenCanvas(image.width, image.height).getContext('2d', { willReadFrequently: true });
    g.drawImage(image, 0, 0);
    out = { width: image.width, height: image.height, data: new Uint8Array(g.getImageData(0, 0, image.width, image.height).data.buffer) };
    pixelsOf.set(image, out);
  }
  return out;
}

/**
 * The element's drawer with the software renderer, in the shape of the WebGL Renderer
 * (renderer.js) the element calls: resize, render(frame), release, dispose, lost, shaders.
 */
export class SoftwareDrawer {
  constructor(element, canvas, iq) {
    this.drawer = 'software';
    this.element = element;
    this.canvas = canvas;
    this.iq = iq;
    this.lost = false;
    this.context = canvas.getContext('2d');
    this.scene = null;
    this.shaders = { movesWithTime }; // prepareShaders needs no stage programs here
    this.settle = 0;
    /** A fixed supersampling (tools/bench-software.mjs), or null: STILL_ and MOVING_SUPERSAMPLE. */
    this.supersample = null;
    /** Milliseconds the last picture took, and its supersampling (docs/VIEWER.md, measured). */
    this.lastDraw = { ms: 0, supersample: 0 };
  }

  resize(cssWidth, cssHeight, pixelRatio = 1) {
    const max = this.iq._wasm.constants.limit.renderMaxDimension;
    const width = Math.min(max, Math.max(1, Math.round(cssWidth * pixelRatio)));
    const height = Math.min(max, Math.max(1, Math.round(cssHeight * pixelRatio)));
    if (this.canvas.width === width && this.canvas.height === height) return false;
    this.canvas.width = width;
    this.canvas.height = height;
    return true;
  }

  /** Draws frame ({ parts, camera, background, light, shaderTime }: what the element gives its WebGL renderer). */
  render(frame) {
    const { canvas, context, element, iq } = this;
    const { width, height } = canvas;
    const content = element._content;
    if (this.scene && this.scene.content !== content) this._forget();
    if (!content || !content.parts.every((p) => p.model._wasm === iq._wasm)) {
      // Nothing to draw yet (or content of another WASM, about to be loaded again here).
      const [r, g, b, a] = frame.background;
      context.clearRect(0, 0, width, height);
      context.fillStyle = `rgba(${r * 255},${g * 255},${b * 255},${a})`;
      context.fillRect(0, 0, width, height);
      return;
    }
    this.scene ??= Scene.over(iq, content, { rgba, what: '<interquake-viewer> software drawer' });
    // Moving (playing, auto-rotate, the user's hand on the camera): fewer samples, then the still
    // picture once it stops. renderFrame() (which holds the shader clock) always draws still.
    const moving = element._shaderPin === null && (element._ticker.animating() || performance.now() - element._camera.autoRotateHold < SETTLE_MS);
    const limit = iq._wasm.constants.limit.renderMaxSamples;
    let supersample = this.supersample ?? (moving ? MOVING_SUPERSAMPLE : STILL_SUPERSAMPLE);
    while (supersample > 1 && width * height * supersample ** 2 > limit) supersample--;
    const start = performance.now();
    const image = this.scene.drawPosed({
      camera: frame.camera, shaderTime: frame.shaderTime, parts: frame.parts, width, height, supersample,
      background: frame.background, light: frame.light, lines: frame.lines, depthLines: frame.depthLines, wireframe: frame.wireframe,
    });
    context.putImageData(new ImageData(new Uint8ClampedArray(image.pixels.buffer, image.pixels.byteOffset, image.pixels.length), width, height), 0, 0);
    this.lastDraw = { ms: performance.now() - start, supersample };
    clearTimeout(this.settle);
    if (supersample < STILL_SUPERSAMPLE && moving) this.settle = setTimeout(() => element._invalidate(), SETTLE_MS);
  }

  release() {} // textures live in the scene's heap arena, freed with it

  restore() {}

  _forget() {
    this.scene?.dispose();
    this.scene = null;
  }

  dispose() {
    clearTimeout(this.settle);
    this._forget();
    this.lost = true;
  }
}
