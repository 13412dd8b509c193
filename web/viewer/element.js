// <interquake-viewer>: the element itself. Attributes and properties (one list: attributes.js),
// public methods, events and lifecycle; the work is done by its neighbours: reactions.js (what an
// attribute change does), sources.js and content.js (loading), playback.js and clock.js (playback),
// ticker.js (when to advance and draw), camera.js, overlays.js, context.js and renderer.js
// (drawing), ui.js (built-in controls). See docs/VIEWER.md.

import { init } from '../interquake.js';
import { ATTRIBUTE_NAMES, SHOW_FLAGS, defineAttributeProperties, setOrRemove } from './attributes.js';
import { poseContent } from './clock.js';
import { findAnimation, framesOf, gesturesOf, loopFor, pause, play, playGesture, seek, seekFrame, setAnimation, startTracks, step, trackFor } from './playback.js';
import { resolveInput } from './sources.js';
import { buildContent, applySkin, disposeContent, publicAnimation, summarize, geometryOf, prepareShaders } from './content.js';
import { OrbitCamera, attachCameraControls } from './camera.js';
import { reactToAttribute } from './reactions.js';
import { overlayLines, placeLabels } from './overlays.js';
import { drawnBounds, sane } from './framing.js';
import { acquireRenderer, releaseRenderer, present } from './context.js';
import { parseLightDirection } from './renderer.js';
import { Ticker } from './ticker.js';
import { buildControls } from './ui.js';
import { ViewerError, asError } from './errors.js';
import { Stage, parseColor } from './stage.js';

export { ViewerError, geometryOf, summarize, SHOW_FLAGS };
const DEFAULT_BACKGROUND = [0.13, 0.145, 0.17, 1];
const DEFAULT_LABEL = '3D model';

// Importing this file (in Node, a test runner, server-side rendering) touches no DOM: the base
// class is looked up, not named, and only the entry registers the element where customElements exists.
export class InterquakeViewerElement extends (globalThis.HTMLElement ?? class {}) {
  static get observedAttributes() { return ATTRIBUTE_NAMES; }

  constructor() {
    super();
    this._view = new Stage(this.attachShadow({ mode: 'open' }));
    this._canvas = this._view.canvas;
    this._renderer = null;
    this._bitmap = null;          // set when the page's shared context draws for this element
    this._content = null;         // what is loaded (content.js)
    this._tracks = [];            // playback clocks: one ('both') or two ('legs', 'torso')
    this._paused = true;
    this._loadTicket = 0;
    this._loading = null;
    this._camera = new OrbitCamera();
    this._ticker = new Ticker(this);
    this._ui = null;
    this._drawCount = 0;          // pictures drawn (tests check that off-screen elements draw none)
    this._shaderClock = 0;        // seconds of shader time since the content loaded (the ticker runs it)
    this._shaderPin = null;       // the shader time renderFrame() holds until play()
  }

  // ---- lifecycle

  connectedCallback() {
    if (!this._renderer && !this._rendererError) this._createRenderer();
    this._ticker.observe();
    this._resizeObserver = new ResizeObserver(() => this._invalidate());
    this._resizeObserver.observe(this);
    this._detachCamera ??= attachCameraControls(this, this._canvas);
    if (!this.hasAttribute('role')) this.setAttribute('role', 'img'); // as model-viewer: one picture, named by alt
    this._applyAlt();
    this._applyControls();
    if (this.src && !this._content && !this._loading) this._loadFromAttribute();
    this._invalidate();
  }

  // Leaving the page releases everything: the model (WASM memory), its GPU buffers and textures,
  // and the WebGL context (an own one is freed, the shared one forgets this element). A load still
  // under way is dropped. Put back, the element loads `src` again.
  disconnectedCallback() {
    this._resizeObserver?.disconnect();
    this._ticker.disconnect();
    this._loadTicket++;
    this._loading = null;
    this._paused = true;
    this._disposeContent();
    releaseRenderer(this, this._renderer, this._bitmap);
    this._renderer = null;
  }

  attributeChangedCallback(name, oldValue, value) {
    if (oldValue === value) return;
    reactToAttribute(this, name, value);
    this._ui?.update();
  }

  // ---- properties whose value means more than the attribute's text (the rest: attributes.js)

  get skin() { return this._content?.player ? this._content.skin : this.getAttribute('skin'); }
  set skin(v) { setOrRemove(this, 'skin', v); }
  /** The animation playing (of a non-player model); before load, the attribute. */
  get animationName() { return this._trackFor('both')?.animation?.name ?? this.getAttribute('animation-name'); }
  set animationName(v) { setOrRemove(this, 'animation-name', v); }

  // ---- read-only state

  get loaded() { return Boolean(this._content); }
  get format() { return this._content?.format ?? null; }
  get info() { return this._content?.info ?? null; }
  /** The animations' names, as model-viewer's availableAnimations. */
  get availableAnimations() { return this._content ? this._content.animations.map((a) => a.name) : []; }
  /** The animations with their part, frames, fps, loop and duration. */
  get animations() { return this._content ? this._content.animations.map(publicAnimation) : []; }
  /** What `model` (or load()'s options.model) can pick among: players' folders and meshes. */
  get availableModels() { return this._content?.choices ?? []; }
  get availableSkins() { return this._content?.skins ?? []; }
  get availableLods() { return this._content?.lods ?? []; }
  /** The weapons a player's files hold (models/weapons2/<name>/<name>.md3), by name. */
  get availableWeapons() { return this._content?.weapons ?? []; }
  get tags() { return this._content?.tags ?? []; }
  get missingFiles() { return this._content?.missingFiles ?? []; }
  get warnings() { return this._content?.warnings ?? []; }
  get paused() { return this._paused; }
  /** Seconds of one pass or period of the current animation in its loop mode (the legs' for a player), from the C. */
  get duration() { return this._mainTrack()?.duration ?? 0; }
  get frameCount() { return this._mainTrack()?.frameCount ?? 0; }
  get currentTime() { return this._mainTrack()?.time ?? 0; }
  set currentTime(v) { this.seek(v); }
  /** Fractional frame inside the current animation (0-based). */
  get currentFrame() { return this._mainTrack()?.frame ?? 0; }
  set currentFrame(v) { this.seekFrame(v); }
  /**
   * Each part's play head, keyed by part ('both', or 'legs' and 'torso' for a player):
   * { animation, frame (fractional, inside the animation), globalFrame (the model's frame shown),
   * frameCount, time, duration, loop, finished }, all as the C answers them.
   */
  get frames() { return framesOf(this); }

  // ---- methods

  /**
   * Loads a model: a URL (IQM, IQE, MD3, .pk3/.zip), a File or Blob, a FileList or File[] (a dropped
   * folder: the model and its textures, or a whole player), or { path: bytes }. Resolves when the
   * first frame can be drawn; rejects (after an `error` event) when it cannot be loaded.
   */
  load(source, options = {}) {
    const ticket = ++this._loadTicket;
    this._source = source; // the `model` attribute picks again from the same source
    this._sourceOptions = options;
    const job = this._load(source, options, ticket);
    this._loading = job;
    job.finally(() => { if (this._loading === job) this._loading = null; }).catch(() => {});
    return job;
  }

  play(options = {}) {
    this._shaderPin = null; // renderFrame() held the shader clock; playing lets it run again
    play(this, options);
  }

  pause() { pause(this); }

  /** Puts every part's play head at `seconds` from its animation's start. */
  seek(seconds) { seek(this, seconds); }

  /** Puts the play head on frame `n` of the current animation (0-based, fractions allowed); `part`: one part only. */
  seekFrame(n, options) { seekFrame(this, n, options); }

  /** Pauses and moves `n` whole frames (negative: back), wrapping in repeat mode; `part`: one part only. */
  step(n, options) { step(this, n, options); }

  /**
   * Plays animation `name` (from availableAnimations) on `part` ('both', 'legs' or 'torso'; Quake 3
   * names pick their part themselves), crossfading for `crossfade` ms.
   */
  setAnimation(name, options) { setAnimation(this, name, options); }

  /** The torso animations a player can play once as a gesture (TORSO_GESTURE, TORSO_ATTACK, ...). */
  get availableGestures() { return gesturesOf(this); }

  /**
   * Plays a torso animation once (default TORSO_GESTURE), then returns the torso to TORSO_STAND, as
   * the game does after a gesture or an attack. Starts playback if paused.
   */
  playGesture(name) { playGesture(this, name); }

  /** Switches a Quake 3 player's skin, or a model's DarkPlaces skin (one of availableSkins). */
  async setSkin(name) {
    const c = this._content;
    if (!c?.player && !c?.modelSkins) throw new ViewerError('invalid_argument', 'setSkin() needs a Quake 3 player or a model with skins');
    if (!c.skins.includes(name)) throw new ViewerError('invalid_argument', `no skin '${name}' (this player has: ${c.skins.join(', ')})`);
    this._skinRequested = name; // the attribute change below must not switch again
    if (this.getAttribute('skin') !== name) this.setAttribute('skin', name);
    const iq = await this._library();
    await applySkin(iq, c, name, (texture) => this._renderer?.release(texture));
    await prepareShaders(iq, c, this._renderer);
    this._invalidate();
    this._ui?.update(true);
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
  renderFrame(frame, { animation, part, shaderTime } = {}) {
    this.pause();
    if (animation !== undefined) this.setAnimation(animation, { part, crossfade: 0 });
    for (const track of this._tracks) track.fade = null;
    this.seekFrame(frame, { part });
    // The shader clock is held too (default: the frame's time), so the picture is reproducible.
    this._shaderPin = Number.isFinite(shaderTime) ? shaderTime : this.currentTime;
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
    this._ticker.stop();
    this._disposeContent();
    releaseRenderer(this, this._renderer, this._bitmap);
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
      const onProgress = (p) => { this._progress(p * 0.9); this._emit('progress', { totalProgress: p * 0.9 }); };
      const model = options.model ?? this.getAttribute('model');
      const input = await resolveInput(this, iq, source, { ...options, model }, onProgress);
      if (ticket !== this._loadTicket) return;
      const content = await buildContent(iq, input, this._buildOptions(options));
      await prepareShaders(iq, content, this._renderer);
      if (ticket !== this._loadTicket) { disposeContent(content, this._renderer); return; }
      content.choice = input.choice ?? null; // which of availableModels this is (the model picker shows it)
      this._setContent(content);
      this._progress(1);
      this._emit('progress', { totalProgress: 1 });
      this._emit('load', {
        format: content.format, info: content.info, summary: content.info,
        missingFiles: content.missingFiles, warnings: content.warnings,
      });
      this._autoplay(); // after load: `play` never comes before `load`
    } catch (err) {
      if (ticket !== this._loadTicket) return;
      const error = asError(err);
      this._progress(1);
      this._disposeContent();
      this._fail(error);
      this._ui?.update(true);
      throw error;
    }
  }

  _buildOptions(options = {}) {
    return {
      format: options.format, skin: this.getAttribute('skin'), lod: this.lod, weapon: this.getAttribute('weapon'), team: this.team,
      release: (texture) => this._renderer?.release(texture),
    };
  }

  async _reloadPlayer() {
    const c = this._content;
    if (!c?.player) return;
    const iq = await this._library();
    const state = this._tracks.map((t) => ({ part: t.part, animation: t.animation?.name, time: t.time }));
    const input = { archive: c.playerSource, player: c.playerFolder, files: null, models: c.choices, warnings: c.sourceWarnings };
    const content = await buildContent(iq, input, this._buildOptions());
    await prepareShaders(iq, content, this._renderer);
    content.choice = c.choice;
    this._setContent(content);
    for (const s of state) {
      const track = this._trackFor(s.part);
      const animation = s.animation && this._findAnimation(s.animation, s.part);
      if (track && animation) {
        track.start(animation, { speed: this.timeScale, loop: this._loopFor(animation) });
        track.seek(s.time);
      }
    }
    this._autoplay();
    this._invalidate();
  }

  _setContent(content) {
    this._disposeContent();
    this._content = content;
    this._shaderClock = 0;
    this._shaderPin = null;
    startTracks(this, content);
    const frame = this.getAttribute('frame');
    if (frame !== null) for (const track of this._tracks) track.seekFrame(Number(frame) || 0);
    content.bounds = sane(drawnBounds(content, this._tracks));
    this._fitCamera(content.bounds);
    this._paused = true;
    this._ui?.update(true);
    this._invalidate();
  }

  _autoplay() {
    if (this._content && this.autoplay && this._tracks.some((t) => t.animation)) this.play();
  }

  _disposeContent() {
    if (!this._content) return;
    disposeContent(this._content, this._renderer);
    this._content = null;
    this._tracks = [];
  }

  // ---- animation helpers

  // Track helpers (playback.js); ui.js reads _mainTrack and _trackFor.
  _findAnimation(name, part) { return findAnimation(this, name, part); }
  _trackFor(part) { return trackFor(this, part); }
  _mainTrack() { return this._tracks[0] ?? null; }
  _loopFor(animation) { return loopFor(this, animation); }

  _setAnimationQuiet(name, part) {
    try { this.setAnimation(name, { part }); } catch (err) { this._emit('error', { type: 'invalidattribute', code: err.code, message: err.message }); }
  }

  _timeChanged() {
    this._invalidate();
    this._ui?.update();
  }

  _invalidate() {
    this._ticker.schedule();
  }

  // ---- the shader clock: Quake 3's shader time runs with the game, not with the animation, so
  // a paused model's shaders keep moving. The ticker adds each drawn frame's step while the clock
  // runs (not while the page is hidden or the element off screen: it resumes where it stopped).

  /** The shader time drawn now: the _shaderTime test hook, else renderFrame's pin, else the clock. */
  _shaderNow() {
    return this._shaderTime ?? this._shaderPin ?? this._shaderClock;
  }

  /** Whether the shader clock runs: nothing pins it and a drawn block changes with time. */
  _shaderClockRuns() {
    const c = this._content;
    const drawer = this._renderer?.shaders;
    if (!c || !drawer?.movesWithTime || this._shaderTime != null || this._shaderPin !== null) return false;
    return c.parts.some((p) => p.shaders?.some((s) => s && drawer.movesWithTime(s.block)));
  }

  // ---- drawing

  _createRenderer() {
    try {
      ({ renderer: this._renderer, bitmap: this._bitmap } = acquireRenderer(this, this._canvas, this._bitmap));
      this._rendererError = null;
    } catch (err) {
      this._rendererError = new ViewerError(err.code || 'webgl2_unavailable', err.message);
      this._showMessage(this._rendererError);
      return;
    }
    if (!this._bitmap && !this._contextListeners) {
      this._contextListeners = true;
      this._canvas.addEventListener('webglcontextlost', (event) => {
        event.preventDefault(); // we want it back
        if (this._renderer) this._renderer.lost = true;
        this._contextLost();
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
    if (!r || r.lost) return;
    const rect = this._view.view.getBoundingClientRect();
    r.resize(rect.width || this.clientWidth || 300, rect.height || this.clientHeight || 150, window.devicePixelRatio || 1);
    const background = parseColor(this.background) ?? DEFAULT_BACKGROUND;
    const camera = () => this._camera.matrices(r.canvas.width / r.canvas.height);
    const c = this._content;
    if (!c) {
      r.render({ parts: [], background, camera: camera(), lines: null });
      present(r, this._canvas, this._bitmap);
      this._tagLabels?.replaceChildren();
      return;
    }
    poseContent(c, this._tracks, this.interpolate);
    this._drawCount++;
    const show = this.show;
    const overlays = overlayLines(c, show, this._camera);
    // _hiddenParts: a test hook (draw one Quake 3 part at a time to find where it is on screen).
    const parts = this._hiddenParts ? c.parts.filter((p) => !this._hiddenParts.has(p.partName)) : c.parts;
    const light = { direction: parseLightDirection(this.lightDirection), intensity: Math.max(0, this.lightIntensity), ambient: Math.max(0, this.lightAmbient) };
    const view = camera();
    r.render({ parts, background, camera: view, light, wireframe: show.has('wireframe'), lines: overlays.top, depthLines: overlays.depth,
      shaderTime: this._shaderNow() });
    present(r, this._canvas, this._bitmap);
    this._placeTagLabels(overlays.labels, view.viewProjection);
  }

  // show="tags": each tag's name in HTML over the canvas, at its projected origin (overlays.js).
  _placeTagLabels(labels, viewProjection) {
    if (!labels.length && !this._tagLabels) return;
    if (!this._tagLabels) {
      this._tagLabels = document.createElement('div');
      this._tagLabels.setAttribute('part', 'tag-labels');
      this._tagLabels.style.cssText = 'position:absolute;inset:0;overflow:hidden;pointer-events:none;';
      this._view.view.insertBefore(this._tagLabels, this._canvas.nextSibling);
    }
    const rect = this._canvas.getBoundingClientRect();
    placeLabels(this._tagLabels, labels, viewProjection, rect.width, rect.height);
  }

  _fitCamera(bounds) {
    this._camera.fit(bounds);
  }

  _cameraChanged() {
    this._emit('camera-change', { source: 'none' });
    this._invalidate();
  }

  // alt names the picture for assistive technology: on the host (role="img") and its canvas.
  _applyAlt() {
    const alt = this.getAttribute('alt');
    this._canvas.setAttribute('aria-label', alt || DEFAULT_LABEL);
    if (!this.isConnected) return;
    if (alt) {
      this.setAttribute('aria-label', alt);
      this._altLabel = alt;
    } else if (this._altLabel !== undefined && this.getAttribute('aria-label') === this._altLabel) {
      this.removeAttribute('aria-label'); // ours, not the page's
      this._altLabel = undefined;
    }
  }

  // ---- UI

  _applyControls() {
    const mode = this.controls;
    if (this._ui && this._ui.mode === mode) return;
    this._ui?.remove();
    this._ui = mode === 'none' ? null : buildControls(this, mode, this._view.stage);
    this._ui?.update(true);
  }

  _progress(value) { this._view.progress(value); }

  _showMessage(error) { this._view.showMessage(error); }

  // Shows a failure and reports it as an `error` event; `type` is model-viewer's ('loadfailure', ...).
  _fail(error, type = 'loadfailure') {
    this._showMessage(error);
    this._emit('error', { type, code: error.code, message: error.message, file: error.file });
  }

  // The browser took the WebGL context away: model-viewer reports it as an error of this type.
  _contextLost() {
    this._emit('context-lost');
    this._emit('error', {
      type: 'webglcontextlost', code: 'webgl2_unavailable',
      message: 'the WebGL context was lost; the picture comes back when the browser restores it',
    });
  }

  _emit(type, detail = {}) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}

defineAttributeProperties(InterquakeViewerElement);
