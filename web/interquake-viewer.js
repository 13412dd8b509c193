// <interquake-viewer>: a web component that shows an IQM, IQE or MD3 model (or a Quake 3 player
// from a .pk3) with one tag, in the manner of <model-viewer>. See docs/VIEWER.md.
//
//   <script type="module" src="interquake-viewer.js"></script>
//   <interquake-viewer src="mrfixit.iqm" autoplay camera-controls></interquake-viewer>
//
// The element owns: loading (URL, files, objects, archives) through the interquake WASM library,
// a playback clock per animated part (viewer-playback.js), an orbit camera, overlays, and the
// built-in controls (viewer-ui.js). Drawing is renderer.js. Nothing is drawn unless something
// changed, and nothing at all while the element is off screen.

import { init } from './interquake.js';
import { Renderer, placeholderImage, multiply, perspective, lookAt, transformPoint, IDENTITY } from './renderer.js';
import { Track, LOOP_MODES, framesOf } from './viewer-playback.js';
import {
  FileSet, sniff, decodeImage, fetchBytes, extensionOf, normalizePath, rerootPlayerFiles, MODEL_EXTENSIONS,
} from './viewer-assets.js';
import { buildControls } from './viewer-ui.js';

export const SHOW_FLAGS = ['wireframe', 'skeleton', 'tags', 'bounds', 'normals', 'grid'];
const DEFAULT_FRAMERATE = 24;   // IQM/IQE animations that give none (the IQM SDK's default)
const MD3_FRAMERATE = 15;       // MD3 files without animation.cfg: a lively default
const DEFAULT_CROSSFADE_MS = 300;
const OFFSCREEN_TICK_MS = 250;
const PLAYER_DEFAULT_ANIMATIONS = { legs: 'LEGS_IDLE', torso: 'TORSO_STAND' }; // what the game shows at rest
const MAX_DROPPED_BYTES = 512 << 20; // a player assembled from dropped files is read into memory whole  // off screen, the clock still runs (for loop/finished), drawing does not
const PLACEHOLDER = placeholderImage();
const DEG = Math.PI / 180;
const AUTO_ROTATE_DELAY_MS = 3000; // after the user moved the camera
const AUTO_ROTATE_PER_SECOND = 30 * DEG;

/** The error every failure of the element becomes: a stable code and a readable message. */
export class ViewerError extends Error {
  constructor(code, message, file) {
    super(message);
    this.name = 'ViewerError';
    this.code = code;
    if (file) this.file = file;
  }
}

const asError = (err) => (err && err.code ? err : new ViewerError('error', String(err?.message || err)));

const template = document.createElement('template');
template.innerHTML = `<style>
:host { display: block; position: relative; width: 300px; height: 300px; overflow: hidden; contain: strict;
  --accent-color: #e0a030; --controls-background: rgba(20, 22, 26, 0.82); --progress-bar-color: var(--accent-color);
  --progress-bar-height: 3px; font: 13px/1.3 system-ui, sans-serif; color-scheme: dark; }
:host([hidden]) { display: none; }
.stage { position: absolute; inset: 0; display: flex; flex-direction: column; }
.view { position: relative; flex: 1; min-height: 0; }
canvas { display: block; width: 100%; height: 100%; touch-action: none; outline: none; }
.progress { position: absolute; left: 0; top: 0; height: var(--progress-bar-height); background: var(--progress-bar-color);
  width: 0; transition: width 0.1s, opacity 0.4s; opacity: 0; pointer-events: none; }
.progress.active { opacity: 1; }
.message { position: absolute; inset: 0; display: none; align-items: center; justify-content: center; padding: 1em;
  text-align: center; color: #f3d0c8; background: rgba(30, 12, 10, 0.85); white-space: pre-wrap; overflow: auto; }
.message.shown { display: flex; }
.message b { display: block; color: #ff8a70; margin-bottom: 0.4em; }
</style>
<div class="stage">
  <div class="view" part="view">
    <canvas part="canvas" tabindex="0" aria-label="3D model"></canvas>
    <div class="progress" part="progress-bar"><slot name="progress-bar"></slot></div>
    <div class="message" part="error" role="alert"><slot name="error"></slot><div class="text"></div></div>
  </div>
  <slot name="controls"></slot>
</div>`;

export class InterquakeViewerElement extends HTMLElement {
  static get observedAttributes() {
    return ['src', 'skin', 'lod', 'animation-name', 'legs-animation', 'torso-animation', 'autoplay', 'time-scale',
      'loop', 'frame', 'interpolate', 'camera-controls', 'auto-rotate', 'background', 'show', 'controls',
      'animation-crossfade-duration', 'field-of-view', 'camera-orbit', 'context'];
  }

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.appendChild(template.content.cloneNode(true));
    this._canvas = root.querySelector('canvas');
    this._stage = root.querySelector('.stage');
    this._progressBar = root.querySelector('.progress');
    this._message = root.querySelector('.message');
    this._renderer = null;
    this._content = null;         // what is loaded (see _build)
    this._tracks = [];            // playback clocks: one ('both') or two ('legs', 'torso')
    this._paused = true;
    this._loadTicket = 0;
    this._loading = null;
    this._visible = true;
    this._raf = 0;
    this._offscreenTimer = 0;
    this._lastTick = 0;
    this._camera = { yaw: 35 * DEG, pitch: 12 * DEG, distance: 10, target: [0, 0, 0], fitRadius: 1 };
    this._autoRotateHold = 0;     // time of the last user interaction: auto-rotate waits after it
    this._frameHook = null;       // set by renderFrame(): a pinned frame for reproducible pictures
    this._ui = null;
    this._drawCount = 0;          // pictures drawn (tests check that off-screen elements draw none)
  }

  // ---- lifecycle

  connectedCallback() {
    if (!this._renderer && !this._rendererError) this._createRenderer();
    this._observeVisibility();
    this._resizeObserver = new ResizeObserver(() => this._invalidate());
    this._resizeObserver.observe(this);
    this._setupCameraControls();
    this._applyControls();
    if (this.src && !this._content && !this._loading) this._loadFromAttribute();
    this._invalidate();
  }

  disconnectedCallback() {
    this._resizeObserver?.disconnect();
    this._intersection?.disconnect();
    this._intersection = null; // observed again if the element is put back
    document.removeEventListener('visibilitychange', this._onPageVisibility);
    clearInterval(this._offscreenTimer);
    this._offscreenTimer = 0;
    this._visible = true;
    this._stopClock();
  }

  attributeChangedCallback(name, oldValue, value) {
    if (oldValue === value) return;
    switch (name) {
      case 'src':
        if (this.isConnected) this._loadFromAttribute();
        break;
      case 'skin':
        if (this._content?.player && value && value !== this._skinRequested) this.setSkin(value).catch(() => {});
        break;
      case 'lod':
        if (this._content?.player) this._reloadPlayer().catch(() => {});
        break;
      case 'animation-name':
      case 'legs-animation':
      case 'torso-animation':
        if (this._content && value) {
          const part = name === 'legs-animation' ? 'legs' : name === 'torso-animation' ? 'torso' : 'both';
          this._setAnimationQuiet(value, part);
        }
        break;
      case 'autoplay':
        if (this._content && value !== null) this.play();
        break;
      case 'loop':
        for (const track of this._tracks) track.loop = this._loopFor(track.animation);
        this._invalidate();
        break;
      case 'frame':
        if (this._content && value !== null) this.seekFrame(Number(value));
        break;
      case 'controls':
        this._applyControls();
        break;
      default:
        this._invalidate();
    }
    this._ui?.update();
  }

  // ---- attributes as properties (model-viewer style: camelCase mirrors the attribute)

  get src() { return this.getAttribute('src'); }
  set src(v) { setOrRemove(this, 'src', v); }
  get skin() { return this._content?.player ? this._content.skin : this.getAttribute('skin'); }
  set skin(v) { setOrRemove(this, 'skin', v); }
  get lod() { return Number(this.getAttribute('lod')) || 0; }
  set lod(v) { setOrRemove(this, 'lod', v); }
  get animationName() { return this._trackFor('both')?.animation?.name ?? null; }
  set animationName(v) { setOrRemove(this, 'animation-name', v); }
  get autoplay() { return this.hasAttribute('autoplay'); }
  set autoplay(v) { this.toggleAttribute('autoplay', Boolean(v)); }
  get timeScale() {
    const v = Number(this.getAttribute('time-scale') ?? 1);
    return Number.isFinite(v) ? v : 1;
  }
  set timeScale(v) { this.setAttribute('time-scale', String(v)); }
  get loop() {
    const v = this.getAttribute('loop');
    return LOOP_MODES.includes(v) ? v : null;
  }
  set loop(v) { setOrRemove(this, 'loop', v); }
  get interpolate() { return this.getAttribute('interpolate') !== 'false'; }
  set interpolate(v) { this.setAttribute('interpolate', v ? 'true' : 'false'); }
  get cameraControls() { return this.hasAttribute('camera-controls'); }
  set cameraControls(v) { this.toggleAttribute('camera-controls', Boolean(v)); }
  get autoRotate() { return this.hasAttribute('auto-rotate'); }
  set autoRotate(v) { this.toggleAttribute('auto-rotate', Boolean(v)); }
  get background() { return this.getAttribute('background'); }
  set background(v) { setOrRemove(this, 'background', v); }
  /** The overlays shown, a subset of wireframe skeleton tags bounds normals grid. */
  get show() { return new Set((this.getAttribute('show') || '').split(/[\s,]+/).filter((f) => SHOW_FLAGS.includes(f))); }
  set show(v) { this.setAttribute('show', [...(typeof v === 'string' ? v.split(/[\s,]+/) : v)].join(' ')); }
  get controls() {
    const v = this.getAttribute('controls');
    return v === 'minimal' || v === 'full' ? v : 'none';
  }
  set controls(v) { this.setAttribute('controls', v); }

  // ---- read-only state

  get loaded() { return Boolean(this._content); }
  get format() { return this._content?.format ?? null; }
  get info() { return this._content?.info ?? null; }
  get availableAnimations() { return this._content ? this._content.animations.map(publicAnimation) : []; }
  get availableSkins() { return this._content?.skins ?? []; }
  get availableLods() { return this._content?.lods ?? []; }
  get tags() { return this._content?.tags ?? []; }
  get missingFiles() { return this._content?.missingFiles ?? []; }
  get warnings() { return this._content?.warnings ?? []; }
  get paused() { return this._paused; }
  /** Seconds of the current animation (the legs' for a player). */
  get duration() { return this._mainTrack()?.duration ?? 0; }
  get frameCount() { return this._mainTrack()?.animation?.frameCount ?? 0; }
  get currentTime() { return this._mainTrack()?.time ?? 0; }
  set currentTime(v) { this.seek(v); }
  /** Fractional frame inside the current animation (0-based). */
  get currentFrame() { return this._mainTrack()?.frame ?? 0; }
  set currentFrame(v) { this.seekFrame(v); }

  // ---- methods

  /**
   * Loads a model: a URL (IQM, IQE, MD3, .pk3/.zip), a File or Blob, a FileList or File[] (a dropped
   * folder: the model and its textures, or a whole player), or { path: bytes }. Resolves when the
   * first frame can be drawn; rejects (after an `error` event) when it cannot be loaded.
   */
  load(source, options = {}) {
    const ticket = ++this._loadTicket;
    const job = this._load(source, options, ticket);
    this._loading = job;
    job.finally(() => { if (this._loading === job) this._loading = null; }).catch(() => {});
    return job;
  }

  play(options = {}) {
    if (!this._content) return;
    if (options.repetitions === 1) this.loop = 'once';
    if (options.pingpong) this.loop = 'pingpong';
    const speed = this.timeScale;
    for (const track of this._tracks) if (track.finished) track.rewind(speed);
    if (!this._paused) return;
    this._paused = false;
    this._lastTick = 0;
    this._emit('play');
    this._invalidate();
    this._ui?.update();
  }

  pause() {
    if (this._paused) return;
    this._paused = true;
    this._stopClock();
    this._emit('pause');
    this._invalidate();
    this._ui?.update();
  }

  /** Puts every part's play head at `seconds` from its animation's start. */
  seek(seconds) {
    for (const track of this._tracks) track.seek(Number(seconds) || 0);
    this._timeChanged();
  }

  /** Puts the play head on frame `n` of the current animation (0-based, fractions allowed). */
  seekFrame(n, { part } = {}) {
    for (const track of this._tracks) if (!part || part === track.part) track.seekFrame(Number(n) || 0);
    this._timeChanged();
  }

  /** Pauses and moves `n` whole frames (negative: back), wrapping in repeat mode. */
  step(n = 1) {
    this.pause();
    for (const track of this._tracks) {
      const a = track.animation;
      if (!a) continue;
      let frame = Math.round(track.frame) + n;
      if (track.loop === 'repeat') frame = ((frame % a.frameCount) + a.frameCount) % a.frameCount;
      track.seekFrame(frame);
    }
    this._timeChanged();
  }

  /**
   * Plays animation `name` (from availableAnimations) on `part` ('both', 'legs' or 'torso'; Quake 3
   * names pick their part themselves), crossfading for `crossfade` ms.
   */
  setAnimation(name, { part, crossfade } = {}) {
    const c = this._content;
    if (!c) throw new ViewerError('not_loaded', 'setAnimation(): no model is loaded');
    const animation = this._findAnimation(name, part);
    if (!animation) {
      const names = c.animations.map((a) => a.name).join(', ') || 'none';
      throw new ViewerError('invalid_argument', `no animation named '${name}' (this model has: ${names})`);
    }
    const fadeMs = crossfade ?? Number(this.getAttribute('animation-crossfade-duration') ?? DEFAULT_CROSSFADE_MS);
    const targets = this._tracksFor(animation);
    for (const track of targets) {
      const previous = track.animation?.name ?? null;
      track.start(animation, { speed: this.timeScale, loop: this._loopFor(animation), crossfade: Math.max(0, fadeMs) / 1000 });
      this._emit('animation-change', { animation: animation.name, part: track.part, previous });
    }
    this._invalidate();
    this._ui?.update(true);
  }

  /** Switches a Quake 3 player's skin (one of availableSkins). */
  async setSkin(name) {
    const c = this._content;
    if (!c?.player) throw new ViewerError('invalid_argument', 'setSkin() needs a Quake 3 player');
    if (!c.skins.includes(name)) throw new ViewerError('invalid_argument', `no skin '${name}' (this player has: ${c.skins.join(', ')})`);
    this._skinRequested = name; // the attribute change below must not switch again
    if (this.getAttribute('skin') !== name) this.setAttribute('skin', name);
    await this._applySkin(name);
    this._emit('skin-change', { skin: name });
  }

  /** A screenshot of the current view (options.frame: pin that frame first, as renderFrame does). */
  async toBlob({ mimeType = 'image/png', qualityArgument, frame } = {}) {
    if (frame !== undefined) this.seekFrame(frame);
    this._renderNow();
    return new Promise((done, fail) => this._canvas.toBlob(
      (blob) => (blob ? done(blob) : fail(new ViewerError('screenshot_failed', 'the canvas gave no image'))), mimeType, qualityArgument));
  }

  toDataURL(mimeType = 'image/png', quality) {
    this._renderNow();
    return this._canvas.toDataURL(mimeType, quality);
  }

  /**
   * Test and thumbnail hook: pauses, puts every part on `frame` (of `options.animation` when given)
   * and draws synchronously, so the picture depends on nothing but the arguments.
   */
  renderFrame(frame, { animation, part } = {}) {
    this.pause();
    if (animation !== undefined) this.setAnimation(animation, { part, crossfade: 0 });
    for (const track of this._tracks) track.fade = null;
    this.seekFrame(frame, { part });
    this._camera.autoRotateFrozen = true;
    this._renderNow();
  }

  /** Re-fits the camera to the model. */
  updateFraming() {
    if (this._content) this._fitCamera(this._content.bounds);
    this._invalidate();
  }

  /** Frees the model and the GPU context; the element can load again afterwards. */
  dispose() {
    this._loadTicket++;
    this._stopClock();
    this._disposeContent();
    if (this._bitmap) shared?.users.delete(this);
    else if (this._renderer) {
      this._renderer.dispose();
      ownContexts--;
    }
    this._renderer = null;
    this._ui?.update(true);
  }

  // ---- loading

  _loadFromAttribute() {
    const src = this.src;
    if (!src) return;
    this.load(src).catch(() => {}); // reported through the error event and the message
  }

  async _library() {
    if (!this._iqPromise) {
      const wasm = this.getAttribute('wasm') || undefined;
      this._iqPromise = init(wasm ? { wasm: new URL(wasm, document.baseURI) } : {});
    }
    return this._iqPromise;
  }

  async _load(source, options, ticket) {
    this._showMessage(null);
    this._progress(0);
    try {
      if (!this._renderer) this._createRenderer();
      if (this._rendererError) throw this._rendererError;
      const iq = await this._library();
      const input = await this._resolveInput(iq, source, options);
      if (ticket !== this._loadTicket) return;
      const content = await this._build(iq, input, options);
      if (ticket !== this._loadTicket) { disposeContent(content, this._renderer); return; }
      this._setContent(content);
      this._progress(1);
      this._emit('progress', { totalProgress: 1 });
      this._emit('load', {
        format: content.format, info: content.info, summary: content.info,
        missingFiles: content.missingFiles, warnings: content.warnings,
      });
    } catch (err) {
      if (ticket !== this._loadTicket) return;
      const error = asError(err);
      this._progress(1);
      this._disposeContent();
      this._showMessage(error);
      this._emit('error', { code: error.code, message: error.message, file: error.file });
      this._ui?.update(true);
      throw error;
    }
  }

  // Turns any accepted source into { files: FileSet, main: { path, bytes, kind } | null }.
  async _resolveInput(iq, source, options) {
    const onProgress = (p) => { this._progress(p * 0.9); this._emit('progress', { totalProgress: p * 0.9 }); };
    if (typeof source === 'string' || source instanceof URL) {
      const url = new URL(String(source), document.baseURI);
      const bytes = await fetchBytes(url.href, onProgress);
      const path = decodeURIComponent(url.pathname.split('/').pop() || 'model');
      const kind = options.format && options.format !== 'auto' ? options.format : sniff(bytes, path);
      if (kind === 'archive') return this._openArchive(iq, bytes, path);
      const files = FileSet.fromUrl(url.href, (u) => fetchBytes(u), this.getAttribute('base-url'));
      return { files, main: { path, bytes, kind } };
    }
    let files;
    if (typeof Blob !== 'undefined' && source instanceof Blob) {
      files = FileSet.fromFiles([source.name ? source : Object.assign(source, { relativePath: options.name || 'model' })]);
    } else if (source && typeof source.length === 'number' && typeof source !== 'string') {
      files = FileSet.fromFiles([...source]);
    } else if (source && typeof source === 'object') {
      files = FileSet.fromObject(source);
    } else {
      throw new ViewerError('invalid_argument', 'load() takes a URL, a File or Blob, a list of files, or { path: bytes }');
    }
    return this._pickMain(iq, files);
  }

  // Among several files: an archive, a Quake 3 player (lower/upper/head.md3), or the first model.
  async _pickMain(iq, files) {
    const paths = files.list();
    if (!paths.length) throw new ViewerError('missing_main_file', 'no files were given');
    const models = paths.filter((p) => MODEL_EXTENSIONS.includes(extensionOf(p)));
    const lower = models.find((p) => /(^|\/)lower\.md3$/.test(p));
    if (lower) return { files, main: null, player: lower.slice(0, lower.length - 'lower.md3'.length) };
    if (models.length) {
      const preferred = models.sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b))[0];
      const entry = files.entries.get(preferred);
      const bytes = await entry.read();
      return { files, main: { path: entry.name, bytes, kind: sniff(bytes, preferred) } };
    }
    const archive = paths.find((p) => ['pk3', 'zip'].includes(extensionOf(p)));
    if (archive) return this._openArchive(iq, await files.entries.get(archive).read(), archive);
    throw new ViewerError('missing_main_file', `none of these files is a model (.iqm, .iqe, .md3) or archive (.pk3, .zip): ${paths.slice(0, 8).join(', ')}`);
  }

  async _openArchive(iq, bytes, path) {
    if (typeof iq.openArchive !== 'function') {
      throw new ViewerError('unsupported', `${path}: this build of interquake cannot open .pk3/.zip archives`, path);
    }
    const archive = await iq.openArchive(bytes, { name: path, fflate: await this._inflater() });
    const entries = new Map();
    for (const name of archive.files) entries.set(normalizePath(name), { name, read: async () => archive.read(name) });
    const files = new FileSet(entries);
    if (archive.players?.length && typeof iq.loadPlayer === 'function') {
      return { files, archive, main: null, player: archive.players[0].path };
    }
    const model = archive.models?.[0];
    if (!model) throw new ViewerError('missing_main_file', `${path} holds no model (.iqm, .iqe, .md3) and no player`, path);
    const modelBytes = archive.read(model);
    return { files, main: { path: model, bytes: modelBytes, kind: sniff(modelBytes, model) } };
  }

  // Archives are deflated: the library inflates with the fflate package. Found as a <script> global,
  // through an import map or bundler ('fflate'), at the `fflate` attribute's URL, or as its small
  // UMD build beside this package (node_modules/fflate/ next to node_modules/interquake/) or where
  // the dev server maps it (/node_modules/fflate/), loaded with a classic <script>.
  async _inflater() {
    if (globalThis.fflate?.Inflate) return globalThis.fflate;
    try {
      const module = await import('fflate');
      if (module?.Inflate) return module;
    } catch { /* no import map or bundler: look further */ }
    const urls = [this.getAttribute('fflate'), new URL('../../fflate/umd/index.js', import.meta.url).href,
      new URL('/node_modules/fflate/umd/index.js', import.meta.url).href].filter(Boolean);
    for (const url of urls) {
      if (url.endsWith('.mjs') || url.includes('/esm/')) {
        try {
          const module = await import(/* webpackIgnore: true */ url);
          if (module?.Inflate) return module;
        } catch { /* next */ }
      } else if (await loadScript(url) && globalThis.fflate?.Inflate) {
        return globalThis.fflate;
      }
    }
    return undefined; // stored-only archives still open; deflated entries report 'unavailable'
  }

  // Parses the model(s) and prepares everything drawing needs: geometry copies, textures, animations.
  async _build(iq, input, options) {
    if (input.player) return this._buildPlayer(iq, input, options);
    const { main, files } = input;
    if (main.kind === 'unknown') {
      throw new ViewerError('unknown_format', `${main.path}: not an IQM, IQE or MD3 model (unrecognised first bytes)`, main.path);
    }
    const model = iq.load(main.bytes, { name: main.path, format: options.format || 'auto' });
    try {
      const missingFiles = [];
      const warnings = model.warnings.map((w) => ({ ...w, file: main.path }));
      const textures = await this._loadTextures(iq, files, model.meshes, main.path, missingFiles, warnings);
      const part = {
        name: main.path, model, geometry: geometryOf(model), textures, matrix: IDENTITY, track: 'both',
        skin: null, morph: null,
      };
      let animations = model.animations.map((a, index) => ({
        name: a.name, part: 'both', index, firstFrame: a.firstFrame, frameCount: a.frameCount,
        framerate: a.framerate > 0 ? a.framerate : DEFAULT_FRAMERATE, loop: a.loop, model,
      })).filter((a) => a.frameCount > 0);
      if (!animations.length && model.frameCount > 1) {
        // Frames without named animations (most single MD3s): one animation over all of them.
        animations = [{ name: 'all frames', part: 'both', index: -1, firstFrame: 0, frameCount: model.frameCount,
          framerate: model.format === 'md3' ? MD3_FRAMERATE : DEFAULT_FRAMERATE, loop: true, model }];
      }
      const content = {
        format: model.format, name: main.path, player: null, models: [model], parts: [part], animations,
        skins: [], lods: [], tags: model.tags ? [...model.tags] : [], missingFiles, warnings,
        bounds: model.bounds ?? { min: [-1, -1, -1], max: [1, 1, 1] },
      };
      content.info = summarize(content);
      return content;
    } catch (err) {
      model.dispose();
      throw err;
    }
  }

  // A Quake 3 player: lower, upper and head MD3s placed by their tags every frame (iq.loadPlayer),
  // legs and torso animated separately, textures from the chosen skin.
  async _buildPlayer(iq, input) {
    if (typeof iq.loadPlayer !== 'function') {
      throw new ViewerError('unsupported', 'this build of interquake cannot assemble Quake 3 players (lower/upper/head.md3)');
    }
    // loadPlayer reads synchronously: give it the archive, or every dropped file's bytes.
    let source = input.archive;
    if (!source) {
      source = new Map();
      let total = 0;
      // Skins name game paths (models/players/grism/red.tga): a folder dropped from below the game's
      // root (players/sarge/..., or sarge/...) is re-rooted so those paths resolve.
      const reroot = rerootPlayerFiles(input.player);
      for (const [key, entry] of input.files.entries) {
        const bytes = await entry.read();
        total += bytes.length;
        if (total > MAX_DROPPED_BYTES) throw new ViewerError('limit', `the dropped files exceed ${MAX_DROPPED_BYTES >> 20} MiB`);
        source.set(reroot(key), bytes);
      }
      input = { ...input, player: reroot(input.player) };
    }
    const folder = input.player.replace(/\/$/, '');
    const skin = this.getAttribute('skin') || 'default';
    let player;
    try {
      player = iq.loadPlayer(source, { player: folder || undefined, skin, lod: this.lod });
    } catch (err) {
      if (err.code === 'invalid_argument' && /skin/.test(err.message)) player = iq.loadPlayer(source, { player: folder || undefined, lod: this.lod });
      else throw err;
    }
    try {
      const content = {
        format: 'md3', name: folder.split('/').pop() || 'player', player, playerSource: source, playerFolder: folder,
        models: [], parts: [], animations: [], skins: [...player.skins], lods: [...player.lods], tags: [],
        missingFiles: [...player.missingFiles], warnings: [...player.warnings], skin: player.skin ?? skin,
      };
      for (const [name, part] of Object.entries(player.parts)) {
        content.parts.push({
          name: part.path ?? name, partName: name, model: part.model, geometry: geometryOf(part.model), textures: [],
          matrix: IDENTITY, track: name === 'lower' ? 'legs' : name === 'upper' || name === 'weapon' ? 'torso' : 'none',
          skin: null, morph: { a: 0, b: 0, t: 0 }, frames: { a: 0, b: 0, t: 0 },
        });
        for (const tag of part.model.tags ?? []) if (!content.tags.includes(tag)) content.tags.push(tag);
      }
      content.animations = player.animations.map((a) => ({
        name: a.name, part: a.part, index: a.index ?? -1, firstFrame: a.firstFrame, frameCount: Math.max(a.frameCount, 1),
        framerate: a.fps > 0 ? a.fps : MD3_FRAMERATE, loop: a.loop, playsOnce: !a.loop, reversed: Boolean(a.reversed),
        model: null,
      }));
      await this._playerTextures(iq, content, player.surfaces, content.missingFiles, content.warnings);
      content.bounds = this._playerBounds(content);
      content.info = summarize(content);
      return content;
    } catch (err) {
      player.dispose();
      throw err;
    }
  }

  // Textures of every player surface for the current skin (decoded once per path).
  async _playerTextures(iq, content, surfaces, missingFiles, warnings) {
    const decoded = new Map();
    const image = (path) => {
      if (!decoded.has(path)) {
        decoded.set(path, (async () => {
          const bytes = content.player.readFile(path);
          if (!bytes) return PLACEHOLDER;
          try { return await decodeImage(iq, bytes, path); } catch (err) {
            warnings.push({ code: 'bad_texture', message: `${path}: ${err.message}`, file: path });
            return PLACEHOLDER;
          }
        })());
      }
      return decoded.get(path);
    };
    for (const part of content.parts) {
      const list = surfaces[part.partName] ?? [];
      const old = part.textures;
      // What the info panel names as each surface's material: the skin's choice, not the MD3's leftover.
      part.materials = part.model.meshes.map((mesh, i) => {
        const surface = list.find((s) => s.mesh === i);
        return surface?.texture || surface?.shader || mesh.material;
      });
      part.textures = await Promise.all(part.model.meshes.map(async (mesh, i) => {
        const surface = list.find((s) => s.mesh === i);
        if (!surface?.texture) {
          const name = surface?.shader || mesh.material;
          if (name && !missingFiles.includes(name)) missingFiles.push(name);
          return PLACEHOLDER;
        }
        return image(surface.texture);
      }));
      for (const texture of old) if (texture && texture !== PLACEHOLDER && !part.textures.includes(texture)) this._renderer?.release(texture);
    }
  }

  // The assembled player's box at its first pose, for framing.
  _playerBounds(content) {
    this._posePlayer(content, null);
    const min = [Infinity, Infinity, Infinity];
    const max = [-Infinity, -Infinity, -Infinity];
    for (const part of content.parts) {
      const b = part.model.bounds;
      if (!b) continue;
      for (let i = 0; i < 8; i++) {
        const p = transformPoint(part.matrix, [i & 1 ? b.max[0] : b.min[0], i & 2 ? b.max[1] : b.min[1], i & 4 ? b.max[2] : b.min[2]]);
        for (let k = 0; k < 3; k++) { min[k] = Math.min(min[k], p[k]); max[k] = Math.max(max[k], p[k]); }
      }
    }
    return Number.isFinite(min[0]) ? { min, max } : { min: [-1, -1, -1], max: [1, 1, 1] };
  }

  // Places and morphs the player's parts for the legs and torso play heads.
  _posePlayer(content, tracks) {
    const interpolate = this.interpolate;
    const frameFor = (part) => {
      const track = tracks?.find((t) => t.part === part);
      if (!track?.animation) return null;
      const frames = track.frames(interpolate);
      if (track.fade) {
        // Quake 3 changes animation by lerping from the old frame into the new one.
        const from = framesOf(track.fade.from.animation, track.fade.from.frame, false);
        return { a: from.a, b: frames.a, t: 1 - track.fadeWeight };
      }
      return frames;
    };
    const legs = frameFor('legs');
    const torso = frameFor('torso');
    // pose() places each part by its parent's tag at a fractional frame; a blend across a loop seam
    // or a crossfade is not a fractional frame, so the tag follows the nearer of the two frames.
    const at = (f) => (!f ? undefined : f.b === f.a + 1 ? f.a + f.t : f.t < 0.5 ? f.a : f.b);
    const state = {};
    if (legs) state.legs = { frame: at(legs) };
    if (torso) state.torso = { frame: at(torso) };
    const pose = content.player.pose(state);
    for (const part of content.parts) {
      const placed = pose[part.partName];
      if (placed?.matrix) part.matrix = placed.matrix;
      const f = part.track === 'legs' ? legs : part.track === 'torso' && part.partName === 'upper' ? torso : null;
      part.frames = f ?? { a: placed?.from ?? 0, b: placed?.to ?? 0, t: placed?.lerp ?? 0 };
      part.morph = part.frames;
    }
  }

  async _reloadPlayer() {
    const c = this._content;
    if (!c?.player) return;
    const iq = await this._library();
    const state = this._tracks.map((t) => ({ part: t.part, animation: t.animation?.name, time: t.time }));
    const content = await this._buildPlayer(iq, { archive: c.playerSource, player: c.playerFolder, files: null });
    this._setContent(content);
    for (const s of state) {
      const track = this._trackFor(s.part);
      const animation = s.animation && this._findAnimation(s.animation, s.part);
      if (track && animation) { track.start(animation, { loop: this._loopFor(animation) }); track.time = s.time; }
    }
    this._invalidate();
  }

  async _applySkin(name) {
    const c = this._content;
    if (!c?.player) return;
    const iq = await this._library();
    const resolved = c.player.resolveSkin(name);
    const missing = [...resolved.missingFiles];
    const warnings = [...c.player.warnings];
    await this._playerTextures(iq, c, resolved.surfaces, missing, warnings);
    c.skin = name;
    c.missingFiles = missing;
    c.warnings = warnings;
    c.info = summarize(c);
    this._invalidate();
    this._ui?.update(true);
  }

  // One texture per mesh: the mesh's material (IQM/IQE) or its first shader (MD3). Missing or
  // undecodable images become the placeholder and are reported.
  async _loadTextures(iq, files, meshes, modelPath, missingFiles, warnings) {
    return Promise.all(meshes.map(async (mesh) => {
      const name = mesh.shaders?.[0] ?? mesh.material;
      if (!name) return null; // no material at all: vertex colours on white
      const found = await files.readImage(name, modelPath);
      if (!found) {
        if (!missingFiles.includes(name)) missingFiles.push(name);
        return PLACEHOLDER;
      }
      try {
        return await decodeImage(iq, found.bytes, found.path);
      } catch (err) {
        warnings.push({ code: 'bad_texture', message: `${found.path}: ${err.message}`, file: found.path });
        return PLACEHOLDER;
      }
    }));
  }

  _setContent(content) {
    this._disposeContent();
    this._content = content;
    this._tracks = content.player ? [new Track('legs'), new Track('torso')] : [new Track('both')];
    const speed = this.timeScale;
    for (const track of this._tracks) {
      const wanted = track.part === 'legs' ? this.getAttribute('legs-animation')
        : track.part === 'torso' ? this.getAttribute('torso-animation') : this.getAttribute('animation-name');
      const standard = PLAYER_DEFAULT_ANIMATIONS[track.part];
      const animation = (wanted && this._findAnimation(wanted, track.part))
        || (standard && content.animations.find((a) => a.name === standard))
        || content.animations.find((a) => a.part === track.part)
        || content.animations.find((a) => a.part === 'both' || track.part === 'both') || null;
      if (animation) track.start(animation, { speed, loop: this._loopFor(animation) });
    }
    const frame = this.getAttribute('frame');
    if (frame !== null) for (const track of this._tracks) track.seekFrame(Number(frame) || 0);
    content.bounds = this._animatedBounds(content) ?? content.bounds;
    this._fitCamera(content.bounds);
    this._paused = true;
    this._ui?.update(true);
    if (this.autoplay && this._tracks.some((t) => t.animation)) this.play();
    this._invalidate();
  }

  // The box the model sweeps through in the animations it starts with (each part placed where the
  // pose puts it), so the camera frames a running player's feet, not only its first frame's.
  _animatedBounds(content) {
    const saved = this._content;
    this._content = content;
    try { this._pose(); } finally { this._content = saved; }
    const min = [Infinity, Infinity, Infinity];
    const max = [-Infinity, -Infinity, -Infinity];
    const add = (m, lo, hi) => {
      for (let i = 0; i < 8; i++) {
        const p = transformPoint(m, [i & 1 ? hi[0] : lo[0], i & 2 ? hi[1] : lo[1], i & 4 ? hi[2] : lo[2]]);
        for (let k = 0; k < 3; k++) { min[k] = Math.min(min[k], p[k]); max[k] = Math.max(max[k], p[k]); }
      }
    };
    for (const part of content.parts) {
      const model = part.model;
      const track = this._trackFor(part.track) ?? (content.player ? null : this._mainTrack());
      const animation = track?.animation;
      const fb = model.frameBounds;
      if (fb && animation && (!animation.model || animation.model === model)) {
        const last = Math.min(animation.firstFrame + animation.frameCount, model.frameCount);
        for (let f = Math.max(animation.firstFrame, 0); f < last; f++) add(part.matrix, fb.subarray(f * 8, f * 8 + 3), fb.subarray(f * 8 + 3, f * 8 + 6));
      }
      if (model.bounds) add(part.matrix, model.bounds.min, model.bounds.max);
    }
    return Number.isFinite(min[0]) ? { min, max } : null;
  }

  _disposeContent() {
    if (!this._content) return;
    disposeContent(this._content, this._renderer);
    this._content = null;
    this._tracks = [];
  }

  // ---- animation helpers

  _findAnimation(name, part) {
    const list = this._content?.animations ?? [];
    const lower = String(name).toLowerCase();
    return list.find((a) => a.name === name && (!part || part === 'both' || a.part === part || a.part === 'both'))
      || list.find((a) => a.name.toLowerCase() === lower) || null;
  }

  // The tracks an animation plays on: its own part, or all of them for 'both' (BOTH_* on a player).
  _tracksFor(animation) {
    return this._tracks.filter((t) => animation.part === 'both' || t.part === animation.part || t.part === 'both');
  }

  _trackFor(part) {
    return this._tracks.find((t) => t.part === part) ?? null;
  }

  _mainTrack() {
    return this._tracks[0] ?? null;
  }

  // The loop attribute wins; otherwise repeat, except animations the data marks as playing once
  // (animation.cfg's looping count of 0 on Quake 3 players: deaths, gestures).
  _loopFor(animation) {
    return this.loop ?? (animation?.playsOnce ? 'once' : 'repeat');
  }

  _setAnimationQuiet(name, part) {
    try { this.setAnimation(name, { part }); } catch (err) { this._emit('error', { code: err.code, message: err.message }); }
  }

  _timeChanged() {
    this._invalidate();
    this._ui?.update();
  }

  // ---- the clock

  _tick(now) {
    this._raf = 0;
    const dt = this._lastTick ? Math.min((now - this._lastTick) / 1000, 0.25) : 0;
    this._lastTick = now;
    try {
      this._advance(dt);
      if (this.autoRotate && !this._camera.autoRotateFrozen && now - this._autoRotateHold > AUTO_ROTATE_DELAY_MS) {
        this._camera.yaw += dt * AUTO_ROTATE_PER_SECOND;
      }
      this._renderNow();
    } catch (err) {
      // A failure while drawing (a driver refusing a shader, say) is shown once, not thrown every frame.
      const error = asError(err);
      this._paused = true;
      this._showMessage(error);
      this._emit('error', { code: error.code, message: error.message });
      return;
    }
    if (this._animating()) this._schedule();
  }

  // Moves every track; fires loop/finished; pauses when every part has finished.
  _advance(dt) {
    if (this._paused || !dt) {
      if (this._tracks.some((t) => t.fade)) for (const t of this._tracks) t.advance(dt, 0);
      return;
    }
    const speed = this.timeScale;
    let finished = 0;
    for (const track of this._tracks) {
      for (const event of track.advance(dt, speed)) this._emit(event.type, event.detail);
      if (track.finished || !track.animation) finished++;
    }
    if (finished === this._tracks.length) {
      this._paused = true;
      this._emit('pause');
      this._ui?.update();
    } else if (this._visible) {
      this._emit('timeupdate', { time: this.currentTime, frame: this.currentFrame, part: this._mainTrack()?.part });
    }
    this._ui?.update();
  }

  _animating() {
    if (!this._visible || !this._content) return false;
    return !this._paused || (this.autoRotate && !this._camera.autoRotateFrozen) || this._tracks.some((t) => t.fade);
  }

  _invalidate() {
    this._dirty = true;
    this._schedule();
  }

  _schedule() {
    if (this._raf || !this._visible || !this.isConnected) return;
    this._raf = requestAnimationFrame((t) => this._tick(t));
  }

  _stopClock() {
    if (this._raf) cancelAnimationFrame(this._raf);
    this._raf = 0;
    this._lastTick = 0;
  }

  // Drawing happens only while the element is on screen and its tab is shown. Otherwise the clock
  // keeps running on a coarse timer (browsers throttle it in hidden tabs, but it runs), so loop and
  // finished still fire on time.
  _observeVisibility() {
    if (this._intersection || typeof IntersectionObserver === 'undefined') return;
    this._intersecting = true;
    this._intersection = new IntersectionObserver((entries) => {
      this._intersecting = entries[entries.length - 1].isIntersecting;
      this._updateVisibility();
    });
    this._intersection.observe(this);
    this._onPageVisibility ??= () => this._updateVisibility();
    document.addEventListener('visibilitychange', this._onPageVisibility);
  }

  _updateVisibility() {
    const visible = this._intersecting !== false && !document.hidden;
    if (visible === this._visible) return;
    this._visible = visible;
    if (visible) {
      clearInterval(this._offscreenTimer);
      this._offscreenTimer = 0;
      this._lastTick = 0;
      this._invalidate();
    } else {
      this._stopClock();
      let last = performance.now();
      this._offscreenTimer = setInterval(() => {
        const now = performance.now();
        this._advance((now - last) / 1000);
        last = now;
      }, OFFSCREEN_TICK_MS);
    }
  }

  // ---- drawing

  _createRenderer() {
    try {
      const mode = this.getAttribute('context');
      if (this._bitmap || mode === 'shared' || (mode !== 'own' && ownContexts >= OWN_CONTEXT_LIMIT)) {
        // Past the limit, draw with the page's one shared context and show the picture as a bitmap.
        this._renderer = sharedRenderer(this);
        this._bitmap ??= this._canvas.getContext('bitmaprenderer');
        this._rendererError = null;
        return;
      }
      this._renderer = new Renderer(this._canvas, { preserveDrawingBuffer: false });
      ownContexts++;
      this._rendererError = null;
    } catch (err) {
      this._rendererError = new ViewerError(err.code || 'webgl2_unavailable', err.message);
      this._showMessage(this._rendererError);
      return;
    }
    if (!this._contextListeners) {
      this._contextListeners = true;
      this._canvas.addEventListener('webglcontextlost', (event) => {
        event.preventDefault(); // we want it back
        if (this._renderer) this._renderer.lost = true;
        this._emit('context-lost');
      });
      this._canvas.addEventListener('webglcontextrestored', () => {
        this._renderer?.restore();
        this._emit('context-restored');
        this._invalidate();
      });
    }
  }

  _renderNow() {
    const r = this._renderer;
    this._dirty = false;
    if (!r || r.lost) return;
    const rect = this.shadowRoot.querySelector('.view').getBoundingClientRect();
    r.resize(rect.width || this.clientWidth || 300, rect.height || this.clientHeight || 150, window.devicePixelRatio || 1);
    const background = parseColor(this.background) ?? [0.13, 0.145, 0.17, 1];
    const c = this._content;
    if (!c) {
      r.render({ parts: [], background, camera: this._cameraMatrices(r), lines: null });
      this._present(r);
      return;
    }
    this._pose();
    this._drawCount++;
    const camera = this._cameraMatrices(r);
    const show = this.show;
    const overlays = this._overlays(show);
    // _hiddenParts: a test hook (draw one Quake 3 part at a time to find where it is on screen).
    const parts = this._hiddenParts ? c.parts.filter((p) => !this._hiddenParts.has(p.partName)) : c.parts;
    r.render({ parts, background, camera, wireframe: show.has('wireframe'), lines: overlays.top, depthLines: overlays.depth });
    this._present(r);
  }

  // Shared context: the picture was drawn on the shared offscreen canvas; move it into this element.
  _present(r) {
    if (!this._bitmap) return;
    if (this._canvas.width !== r.canvas.width || this._canvas.height !== r.canvas.height) {
      this._canvas.width = r.canvas.width;
      this._canvas.height = r.canvas.height;
    }
    this._bitmap.transferFromImageBitmap(r.canvas.transferToImageBitmap());
  }

  // Poses every part for the tracks' current play heads.
  _pose() {
    const c = this._content;
    if (c.player) {
      this._posePlayer(c, this._tracks);
      return;
    }
    const interpolate = this.interpolate;
    for (const part of c.parts) {
      const track = this._trackFor(part.track) ?? this._mainTrack();
      const model = part.model;
      const animation = track?.animation;
      if (!animation || animation.model !== model) {
        part.skin = null;
        part.morph = null;
        part.frames = { a: 0, b: 0, t: 0 };
        if (model.format === 'md3' && model.frameCount) part.morph = part.frames;
        continue;
      }
      const frames = track.frames(interpolate);
      part.frames = frames;
      if (model.format === 'md3') {
        part.morph = frames;
        if (track.fade) {
          // Quake's own way to change animation: lerp from where the old one was to the new frame.
          const from = framesOf(track.fade.from.animation, track.fade.from.frame, false);
          part.morph = { a: from.a, b: frames.a, t: 1 - track.fadeWeight };
        }
      } else if (model.joints.length) {
        part.skin = poseSkin(model, frames, track, interpolate, part.skin);
      }
    }
  }

  _cameraMatrices(r) {
    const cam = this._camera;
    const aspect = r.canvas.width / r.canvas.height;
    const fov = (Number(this.getAttribute('field-of-view')) || 35) * DEG;
    const cp = Math.cos(cam.pitch);
    const eye = [
      cam.target[0] + cam.distance * cp * Math.cos(cam.yaw),
      cam.target[1] + cam.distance * cp * Math.sin(cam.yaw),
      cam.target[2] + cam.distance * Math.sin(cam.pitch),
    ];
    const near = Math.max(cam.distance - cam.fitRadius * 4, cam.distance * 0.01);
    const far = cam.distance + cam.fitRadius * 4;
    const view = lookAt(eye, cam.target, [0, 0, 1]); // Quake: Z up
    const projection = perspective(fov, aspect, near, far);
    // A key light from over the viewer's shoulder, so the side facing the camera is lit.
    const light = normalizeVec([
      Math.cos(cam.yaw + 0.6) * Math.cos(0.7), Math.sin(cam.yaw + 0.6) * Math.cos(0.7), Math.sin(0.7),
    ]);
    return { viewProjection: multiply(projection, view), eye, light };
  }

  _fitCamera(bounds) {
    const min = bounds.min;
    const max = bounds.max;
    const center = [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2];
    const radius = Math.max(Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 2, 1e-3);
    const fov = (Number(this.getAttribute('field-of-view')) || 35) * DEG;
    const cam = this._camera;
    cam.target = center;
    cam.fitRadius = radius;
    cam.distance = (radius / Math.sin(fov / 2)) * 0.9; // the box's sphere is loose: frame a little tighter
    cam.yaw = 35 * DEG;
    cam.pitch = 12 * DEG;
    const orbit = (this.getAttribute('camera-orbit') || '').trim().split(/\s+/);
    if (orbit.length >= 2) {
      const angle = (s, d) => (s && s !== 'auto' ? parseFloat(s) * (s.endsWith('rad') ? 1 : DEG) : d);
      cam.yaw = angle(orbit[0], cam.yaw);
      cam.pitch = Math.PI / 2 - angle(orbit[1], Math.PI / 2 - cam.pitch); // model-viewer's phi is from the pole
    }
  }

  // Overlay line segments (x y z r g b per end): 'depth' ones are hidden by the model, 'top' ones are not.
  _overlays(show) {
    const depth = [];
    const top = [];
    const c = this._content;
    const seg = (out, p, q, color) => out.push(p[0], p[1], p[2], ...color, q[0], q[1], q[2], ...color);
    if (show.has('grid')) {
      const b = c.bounds;
      const size = this._camera.fitRadius * 1.5;
      const step = niceStep(size / 5);
      const cx = Math.round((b.min[0] + b.max[0]) / 2 / step) * step;
      const cy = Math.round((b.min[1] + b.max[1]) / 2 / step) * step;
      const z = Math.min(b.min[2], 0);
      const n = Math.ceil(size / step);
      for (let i = -n; i <= n; i++) {
        const color = i === 0 ? [0.45, 0.45, 0.5] : [0.3, 0.3, 0.34];
        seg(depth, [cx + i * step, cy - n * step, z], [cx + i * step, cy + n * step, z], color);
        seg(depth, [cx - n * step, cy + i * step, z], [cx + n * step, cy + i * step, z], color);
      }
    }
    for (const part of c.parts) {
      const m = part.matrix;
      const model = part.model;
      const frame = part.frames ? part.frames.a + part.frames.t : 0;
      if (show.has('bounds')) {
        const fb = model.frameBounds;
        const f = part.frames?.a ?? 0;
        const box = fb && f < model.frameCount ? { min: fb.subarray(f * 8, f * 8 + 3), max: fb.subarray(f * 8 + 3, f * 8 + 6) } : model.bounds;
        if (box) boxLines(box, m, (p, q) => seg(top, p, q, [0.95, 0.8, 0.2]));
      }
      if (show.has('skeleton') && model.joints.length) {
        const world = part.skin ? model.worldMatrices : null;
        const positions = jointPositions(model, world);
        model.joints.forEach((joint, i) => {
          const p = transformPoint(m, positions[i]);
          if (joint.parent >= 0) seg(top, transformPoint(m, positions[joint.parent]), p, [1, 0.55, 0.1]);
          const s = this._camera.fitRadius * 0.02;
          seg(top, [p[0] - s, p[1], p[2]], [p[0] + s, p[1], p[2]], [1, 1, 1]);
          seg(top, [p[0], p[1], p[2] - s], [p[0], p[1], p[2] + s], [1, 1, 1]);
        });
      }
      if (show.has('tags') && model.tags?.length && typeof model.tagMatrix === 'function') {
        const length = this._camera.fitRadius * 0.12;
        for (const name of model.tags) {
          const t = model.tagMatrix(name, frame);
          if (!t) continue;
          const tm = multiply(m, t);
          const o = transformPoint(tm, [0, 0, 0]);
          seg(top, o, transformPoint(tm, [length, 0, 0]), [1, 0.2, 0.2]);
          seg(top, o, transformPoint(tm, [0, length, 0]), [0.2, 1, 0.2]);
          seg(top, o, transformPoint(tm, [0, 0, length]), [0.3, 0.5, 1]);
        }
      }
      if (show.has('normals')) normalLines(part, this._camera.fitRadius * 0.03, (p, q) => seg(depth, p, q, [0.4, 0.7, 1]));
    }
    return { depth: depth.length ? new Float32Array(depth) : null, top: top.length ? new Float32Array(top) : null };
  }

  // ---- camera controls (orbit: drag; zoom: wheel or pinch; pan: right drag or shift drag)

  _setupCameraControls() {
    if (this._cameraSetup) return;
    this._cameraSetup = true;
    const canvas = this._canvas;
    const pointers = new Map();
    let pinch = 0;
    canvas.addEventListener('pointerdown', (e) => {
      if (!this.cameraControls) return;
      canvas.setPointerCapture(e.pointerId);
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, pan: e.button === 2 || e.shiftKey });
      this._autoRotateHold = performance.now();
    });
    canvas.addEventListener('pointermove', (e) => {
      const p = pointers.get(e.pointerId);
      if (!p) return;
      const dx = e.clientX - p.x;
      const dy = e.clientY - p.y;
      p.x = e.clientX;
      p.y = e.clientY;
      const cam = this._camera;
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a.x - b.x, a.y - b.y);
        if (pinch) this._zoom(pinch / d);
        pinch = d;
      } else if (p.pan) {
        const scale = cam.distance / (this.clientHeight || 300);
        const right = [-Math.sin(cam.yaw), Math.cos(cam.yaw), 0];
        const up = [-Math.sin(cam.pitch) * Math.cos(cam.yaw), -Math.sin(cam.pitch) * Math.sin(cam.yaw), Math.cos(cam.pitch)];
        for (let k = 0; k < 3; k++) cam.target[k] += (-dx * right[k] + dy * up[k]) * scale;
      } else {
        cam.yaw -= dx * 0.008;
        cam.pitch = Math.max(-1.5, Math.min(1.5, cam.pitch + dy * 0.008));
      }
      this._autoRotateHold = performance.now();
      this._emit('camera-change', { source: 'user-interaction' });
      this._invalidate();
    });
    const up = (e) => { pointers.delete(e.pointerId); pinch = 0; };
    canvas.addEventListener('pointerup', up);
    canvas.addEventListener('pointercancel', up);
    canvas.addEventListener('contextmenu', (e) => { if (this.cameraControls) e.preventDefault(); });
    canvas.addEventListener('wheel', (e) => {
      if (!this.cameraControls) return;
      e.preventDefault();
      this._zoom(Math.exp(e.deltaY * 0.001));
    }, { passive: false });
    canvas.addEventListener('dblclick', () => { if (this.cameraControls) this.updateFraming(); });
  }

  _zoom(factor) {
    const cam = this._camera;
    cam.distance = Math.min(Math.max(cam.distance * factor, cam.fitRadius * 0.2), cam.fitRadius * 40);
    this._autoRotateHold = performance.now();
    this._emit('camera-change', { source: 'user-interaction' });
    this._invalidate();
  }

  // ---- UI

  _applyControls() {
    const mode = this.controls;
    if (this._ui && this._ui.mode === mode) return;
    this._ui?.remove();
    this._ui = mode === 'none' ? null : buildControls(this, mode, this._stage);
    this._ui?.update(true);
  }

  _progress(value) {
    this._progressBar.style.width = `${Math.round(value * 100)}%`;
    this._progressBar.classList.toggle('active', value < 1);
  }

  _showMessage(error) {
    const text = this._message.querySelector('.text');
    this._message.classList.toggle('shown', Boolean(error));
    text.replaceChildren();
    if (!error) return;
    const title = document.createElement('b');
    title.textContent = `Could not show this model (${error.code})`;
    text.append(title, error.message);
  }

  _emit(type, detail = {}) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}

// ---- the shared context: browsers keep about 16 live WebGL contexts per page and silently drop the
// oldest beyond that, so the first elements get their own context and later ones (or those with
// context="shared") draw in one shared offscreen context and show the result as a bitmap.

const OWN_CONTEXT_LIMIT = 8;
let ownContexts = 0;
let shared = null; // { renderer, users: Set of elements }

function sharedRenderer(element) {
  if (!shared) {
    const canvas = new OffscreenCanvas(1, 1);
    const renderer = new Renderer(canvas);
    const users = new Set();
    canvas.addEventListener('webglcontextlost', (event) => {
      event.preventDefault();
      renderer.lost = true;
      for (const user of users) user._emit('context-lost');
    });
    canvas.addEventListener('webglcontextrestored', () => {
      renderer.restore();
      for (const user of users) { user._emit('context-restored'); user._invalidate(); }
    });
    shared = { renderer, users };
  }
  shared.users.add(element);
  return shared.renderer;
}

// ---- helpers (no element state)

/** Loads a classic script once; resolves true when it ran. */
const scripts = new Map();
function loadScript(url) {
  if (!scripts.has(url)) {
    scripts.set(url, new Promise((done) => {
      const script = document.createElement('script');
      script.src = url;
      script.onload = () => done(true);
      script.onerror = () => { script.remove(); done(false); };
      document.head.appendChild(script);
    }));
  }
  return scripts.get(url);
}

function setOrRemove(element, name, value) {
  if (value === null || value === undefined || value === false) element.removeAttribute(name);
  else element.setAttribute(name, String(value));
}

function publicAnimation(a) {
  return {
    name: a.name, part: a.part, firstFrame: a.firstFrame, frameCount: a.frameCount, fps: a.framerate,
    loop: !a.playsOnce, duration: a.frameCount / a.framerate,
  };
}

/** CPU copies of what the renderer uploads (kept so a lost context can be refilled). */
export function geometryOf(model) {
  const copy = (a) => (a ? a.slice() : null);
  const skinned = model.joints.length > 0 && model.blendIndices && model.format !== 'md3';
  const morph = model.format === 'md3' && model.frameCount > 0 && model.framePositions;
  return {
    vertexCount: model.vertexCount,
    positions: copy(model.positions),
    normals: copy(model.normals),
    texcoords: copy(model.texcoords),
    colors: copy(model.colors),
    joints: skinned ? copy(model.blendIndices) : null,
    weights: skinned ? copy(model.blendWeights) : null,
    jointCount: model.joints.length,
    indices: copy(model.indices) ?? new Uint32Array(0),
    meshes: model.meshes.map((m) => ({ firstTriangle: m.firstTriangle, triangleCount: m.triangleCount })),
    frames: morph ? { positions: copy(model.framePositions), normals: copy(model.frameNormals) } : null,
  };
}

// The skin matrices (row-major 3x4 per joint) for a play head, through the animator (model.pose):
// the track is the clock (the same for every format), the animator poses the frames it names.
// A play head between the last and the first frame of a repeating animation, and a crossfade
// from the previous animation, are both blends of two stepped poses.
function poseSkin(model, frames, track, interpolate, previous) {
  const count = model.joints.length * 12;
  const out = previous && previous.length === count ? previous : new Float32Array(count);
  const animation = track.animation;
  if (animation.index < 0 || typeof model.pose !== 'function') {
    model.evaluate(frames.b === frames.a + 1 ? frames.a + frames.t : frames.a);
    out.set(model.skinMatrices);
    return out;
  }
  const fps = animation.framerate;
  const local = (f) => (f - animation.firstFrame) / fps;
  const held = { loop: 'once', framerate: fps, interpolate: false };
  let options;
  let time;
  if (track.fade) {
    const from = track.fade.from;
    time = frames.b === frames.a + 1 ? local(frames.a + frames.t) : local(frames.a);
    options = {
      loop: 'once', framerate: fps, interpolate,
      crossfade: { animation: from.animation.index, time: from.frame / from.animation.framerate, loop: 'once',
        framerate: from.animation.framerate, interpolate: false, weight: track.fadeWeight },
    };
  } else if (frames.t > 0 && frames.b !== frames.a + 1) {
    time = local(frames.a);
    options = { ...held, crossfade: { animation: animation.index, time: local(frames.b), ...held, weight: frames.t } };
  } else {
    time = local(frames.a + frames.t);
    options = { loop: 'once', framerate: fps, interpolate };
  }
  out.set(model.pose(animation.index, time, options).skinMatrices);
  return out;
}

function jointPositions(model, world) {
  return model.joints.map((joint, i) => {
    if (world) return [world[i * 12 + 3], world[i * 12 + 7], world[i * 12 + 11]];
    return null;
  }).map((p, i, all) => p ?? bindPosition(model, i, all));
}

// Bind-pose joint position from the inverse bind matrix (its inverse's translation).
function bindPosition(model, i) {
  const m = model.inverseBindMatrices;
  if (!m) return [0, 0, 0];
  const r = m.subarray(i * 12, i * 12 + 12);
  // inverse of [R|t] is [R^T | -R^T t]
  const t = [r[3], r[7], r[11]];
  return [
    -(r[0] * t[0] + r[4] * t[1] + r[8] * t[2]),
    -(r[1] * t[0] + r[5] * t[1] + r[9] * t[2]),
    -(r[2] * t[0] + r[6] * t[1] + r[10] * t[2]),
  ];
}

function boxLines(box, m, line) {
  const { min, max } = box;
  const corner = (i) => transformPoint(m, [i & 1 ? max[0] : min[0], i & 2 ? max[1] : min[1], i & 4 ? max[2] : min[2]]);
  const edges = [[0, 1], [2, 3], [4, 5], [6, 7], [0, 2], [1, 3], [4, 6], [5, 7], [0, 4], [1, 5], [2, 6], [3, 7]];
  for (const [a, b] of edges) line(corner(a), corner(b));
}

// Vertex normals of the posed mesh, skinned or morphed on the CPU (only while the overlay is on).
function normalLines(part, length, line) {
  const g = part.geometry;
  const m = part.matrix;
  const n = Math.min(g.vertexCount, 20000);
  for (let i = 0; i < n; i++) {
    let p;
    let nv;
    if (part.morph && g.frames) {
      const { a, b, t } = part.morph;
      const at = (arr, f) => [0, 1, 2].map((k) => arr[(f * g.vertexCount + i) * 3 + k]);
      const pa = at(g.frames.positions, a);
      const pb = at(g.frames.positions, b);
      const na = at(g.frames.normals, a);
      const nb = at(g.frames.normals, b);
      p = pa.map((v, k) => v + (pb[k] - v) * t);
      nv = na.map((v, k) => v + (nb[k] - v) * t);
    } else {
      p = [g.positions[i * 3], g.positions[i * 3 + 1], g.positions[i * 3 + 2]];
      nv = g.normals ? [g.normals[i * 3], g.normals[i * 3 + 1], g.normals[i * 3 + 2]] : [0, 0, 1];
      if (part.skin && g.joints) {
        const s = part.skin;
        const pp = [0, 0, 0];
        const nn = [0, 0, 0];
        for (let k = 0; k < 4; k++) {
          const w = g.weights[i * 4 + k];
          if (!w) continue;
          const j = g.joints[i * 4 + k] * 12;
          for (let r = 0; r < 3; r++) {
            pp[r] += w * (s[j + r * 4] * p[0] + s[j + r * 4 + 1] * p[1] + s[j + r * 4 + 2] * p[2] + s[j + r * 4 + 3]);
            nn[r] += w * (s[j + r * 4] * nv[0] + s[j + r * 4 + 1] * nv[1] + s[j + r * 4 + 2] * nv[2]);
          }
        }
        p = pp;
        nv = nn;
      }
    }
    const l = Math.hypot(nv[0], nv[1], nv[2]) || 1;
    line(transformPoint(m, p), transformPoint(m, [p[0] + (nv[0] / l) * length, p[1] + (nv[1] / l) * length, p[2] + (nv[2] / l) * length]));
  }
}

function niceStep(x) {
  const p = 10 ** Math.floor(Math.log10(x));
  const f = x / p;
  return (f < 2 ? 1 : f < 5 ? 2 : 5) * p;
}

function normalizeVec(v) {
  const l = Math.hypot(v[0], v[1], v[2]) || 1;
  return [v[0] / l, v[1] / l, v[2] / l];
}

let colorContext = null;
// Any CSS colour to [r, g, b, a] in 0..1; null for none.
function parseColor(value) {
  if (!value) return null;
  if (value === 'transparent') return [0, 0, 0, 0];
  colorContext ??= new OffscreenCanvas(1, 1).getContext('2d', { willReadFrequently: true });
  colorContext.clearRect(0, 0, 1, 1);
  colorContext.fillStyle = '#000';
  colorContext.fillStyle = value;
  colorContext.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = colorContext.getImageData(0, 0, 1, 1).data;
  return a ? [r / a, g / a, b / a, a / 255] : [0, 0, 0, 0];
}

function disposeContent(content, renderer) {
  for (const part of content.parts) {
    renderer?.release(part.geometry);
    for (const texture of part.textures || []) if (texture && texture !== PLACEHOLDER) renderer?.release(texture);
  }
  for (const model of content.models) model.dispose();
  content.player?.dispose();
}

/** The report the `load` event and the info panel show. */
export function summarize(content) {
  const models = content.parts.map((p) => p.model);
  const sum = (f) => models.reduce((s, m) => s + f(m), 0);
  return {
    format: content.format,
    name: content.name,
    vertices: sum((m) => m.vertexCount),
    triangles: sum((m) => m.triangleCount),
    meshes: content.parts.flatMap((p) => p.model.meshes.map((m, i) => ({
      name: p.partName ? `${p.partName}: ${m.name}` : m.name, material: p.materials?.[i] ?? m.shaders?.[0] ?? m.material, part: p.name,
      texture: p.textures[i] === PLACEHOLDER ? 'missing' : p.textures[i] ? 'loaded' : 'none',
    }))),
    joints: sum((m) => m.joints.length),
    jointNames: models.flatMap((m) => m.joints.map((j) => j.name)),
    frames: sum((m) => m.frameCount),
    animations: content.animations.map(publicAnimation),
    tags: content.tags,
    skins: content.skins,
    missingFiles: content.missingFiles,
    warnings: content.warnings,
  };
}

if (!customElements.get('interquake-viewer')) customElements.define('interquake-viewer', InterquakeViewerElement);
