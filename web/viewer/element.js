// <interquake-viewer>: the element itself. Attributes and properties (one list: attributes.js),
// public methods, events and lifecycle; the work is done by its neighbours: reactions.js (what an
// attribute change does), sources.js and content.js (loading), playback.js and clock.js (playback),
// ticker.js (when to advance and draw), camera.js, overlays.js, context.js and renderer.js
// (drawing), ui.js (built-in controls). See docs/VIEWER.md.

import { init } from '../interquake.js';
import { ATTRIBUTE_NAMES, SHOW_FLAGS, defineAttributeProperties, setOrRemove } from './attributes.js';
import { poseContent } from '../scene/clock.js';
import { Playback } from './playback.js';
import { resolveInput } from './sources.js';
import { Hold } from './fetches.js';
import { buildContent, applySkin, disposeContent, publicAnimation, summarize, geometryOf, prepareShaders } from './content.js';
import { OrbitCamera } from '../scene/camera.js';
import { attachCameraControls } from './pointer.js';
import { reactToAttribute } from './reactions.js';
import { overlayLines } from '../scene/overlays.js';
import { placeLabels } from './labels.js';
import { drawnBounds, sane } from '../scene/framing.js';
import { acquireRenderer, releaseRenderer, present } from './context.js';
import { parseLightDirection, DEFAULT_BACKGROUND } from '../scene/light.js';
import { Ticker } from './ticker.js';

// The built-in controls (ui.js) load when an element first asks for them: a page without controls
// never downloads them (the one-file element fetches interquake-ui.min.js from beside itself:
// tools/build-viewer.mjs; bundlers split the literal import into a chunk).
let controlsModule = null;
const loadControls = () => (controlsModule ??= import('./ui.js').catch((err) => { controlsModule = null; throw err; }));
// The software drawer (software.js, with the renderer and interquake.wasm) loads when an element
// first needs it: `renderer="software"`, or no WebGL 2 (interquake-software.min.js in the one-file element).
let softwareModule = null;
const loadSoftware = () => (softwareModule ??= import('./software.js').catch((err) => { softwareModule = null; throw err; }));
import { ViewerError, asError } from './errors.js';
import { Stage, parseColor } from './stage.js';

export { ViewerError, geometryOf, summarize, SHOW_FLAGS };

// Attributes that describe a choice among what one content offers. Set by the built-in controls or
// by a method (setSkin), they belong to that content and are forgotten when other content opens;
// set by the page, they keep applying (docs/VIEWER.md, "State").
export const CONTENT_CHOICES = ['model', 'skin', 'team', 'weapon', 'lod'];
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
    // The play heads (one 'both', or a player's 'legs' and 'torso') and paused: playback.js.
    this._playback = new Playback(() => this._playSettings(), {
      emit: (type, detail) => this._emit(type, detail),
      changed: (rebuild) => { this._invalidate(); this._ui?.update(rebuild); },
      progressed: () => this._ui?.update(),
      animationChanged: () => this._refit(),
      stopped: () => this._ticker.stop(),
    });
    this._loadTicket = 0;
    this._loading = null;
    this._hold = null;            // the downloads the content was built from (fetches.js)
    this._choices = new Set();    // CONTENT_CHOICES set for the content shown (by the controls or a method)
    this._quiet = false;          // attribute changes the element makes itself that must not react
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
    this._detachCamera ??= attachCameraControls(this, this._view.view); // the view: its canvas is replaced when the drawer changes
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
    this._disposeContent();
    this._releaseDownloads();
    this._releaseRenderer();
  }

  attributeChangedCallback(name, oldValue, value) {
    if (oldValue === value || this._quiet) return;
    if (this._choosing) this._choices.add(name);
    else this._choices.delete(name); // the page set it: the page's from now on
    if (name === 'src' && value === null && this._source === oldValue) {
      // No src: the next one is new content, even at the same address (embed.html's new hash).
      this._forgetChoices();
      this._source = null;
    }
    reactToAttribute(this, name, value);
    this._ui?.update();
  }

  // ---- properties whose value means more than the attribute's text (the rest: attributes.js)

  get skin() { return this._content?.player ? this._content.skin : this.getAttribute('skin'); }
  set skin(v) { setOrRemove(this, 'skin', v); }
  /** The animation playing (of a non-player model); before load, the attribute. */
  get animationName() { return this._playback.trackFor('both')?.animation?.name ?? this.getAttribute('animation-name'); }
  set animationName(v) { setOrRemove(this, 'animation-name', v); }

  // ---- read-only state

  get loaded() { return Boolean(this._content); }
  /** What draws: 'webgl', 'software' (docs/VIEWER.md, "Software drawing"), or null (nothing can, or not yet). */
  get drawer() { return this._renderer?.drawer ?? null; }
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
  get paused() { return this._playback.paused; }
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
  get frames() { return this._playback.frames(); }

  // ---- methods

  /**
   * Loads a model: a URL (IQM, IQE, MD3, .pk3/.zip), a File or Blob, a FileList or File[] (a dropped
   * folder: the model and its textures, or a whole player), or { path: bytes }. Resolves when the
   * first frame can be drawn; rejects (after an `error` event) when it cannot be loaded.
   */
  load(source, options = {}) {
    const ticket = ++this._loadTicket;
    if (source !== this._source) this._forgetChoices(); // other content: what was chosen for the old one goes
    this._source = source; // the `model` attribute picks again from the same source
    this._sourceOptions = options;
    const job = this._load(source, options, ticket);
    this._loading = job;
    job.finally(() => { if (this._loading === job) this._loading = null; }).catch(() => {});
    return job;
  }

  play(options = {}) {
    this._shaderPin = null; // renderFrame() held the shader clock; playing lets it run again
    if (!this._content) return;
    if (options.repetitions === 1) this.loop = 'once';
    if (options.pingpong) this.loop = 'pingpong';
    if (this._playback.paused) this._ticker.lastTick = 0;
    this._playback.play();
  }

  pause() { this._playback.pause(); }

  /** Puts every part's play head at `seconds` from its animation's start. */
  seek(seconds) { this._playback.seek(seconds); }

  /** Puts the play head on frame `n` of the current animation (0-based, fractions allowed); `part`: one part only. */
  seekFrame(n, options) { this._playback.seekFrame(n, options); }

  /** Pauses and moves `n` whole frames (negative: back), wrapping in repeat mode; `part`: one part only. */
  step(n, options) { this._playback.step(n, options); }

  /**
   * Plays animation `name` (from availableAnimations) on `part` ('both', 'legs' or 'torso'; Quake 3
   * names pick their part themselves), crossfading for `crossfade` ms.
   */
  setAnimation(name, options) { this._playback.setAnimation(name, options); }

  /** The torso animations a player can play once as a gesture (TORSO_GESTURE, TORSO_ATTACK, ...). */
  get availableGestures() { return this._playback.gestures(); }

  /**
   * Plays a torso animation once (default TORSO_GESTURE), then returns the torso to TORSO_STAND, as
   * the game does after a gesture or an attack. Starts playback if paused.
   */
  playGesture(name) {
    if (this._playback.paused) this._ticker.lastTick = 0;
    this._playback.playGesture(name);
  }

  /** Switches a Quake 3 player's skin, or a model's DarkPlaces skin (one of availableSkins). */
  async setSkin(name) {
    const c = this._content;
    if (!c?.player && !c?.modelSkins) throw new ViewerError('invalid_argument', 'setSkin() needs a Quake 3 player or a model with skins');
    if (!c.skins.includes(name)) throw new ViewerError('invalid_argument', `no skin '${name}' (this player has: ${c.skins.join(', ')})`);
    this._skinRequested = name; // the attribute change below must not switch again
    if (this.getAttribute('skin') !== name) this._choose('skin', name);
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
    this._playback.settle();
    this.seekFrame(frame, { part });
    // The shader clock is held too (default: the frame's time), so the picture is reproducible.
    this._shaderPin = Number.isFinite(shaderTime) ? shaderTime : this.currentTime;
    this._camera.autoRotateFrozen = true;
    this._renderNow();
  }

  /**
   * Where the camera is, as model-viewer's getCameraOrbit(): { theta, phi (radians), radius (model
   * units), toString() } in camera-orbit's syntax ("35deg 78deg 120.5m"), so a page can put it back.
   */
  getCameraOrbit() {
    const c = this._camera;
    const orbit = { theta: c.yaw, phi: Math.PI / 2 - c.pitch, radius: c.distance };
    const deg = (r) => `${+((r * 180) / Math.PI).toFixed(2)}deg`;
    orbit.toString = () => `${deg(orbit.theta)} ${deg(orbit.phi)} ${+orbit.radius.toPrecision(5)}m`;
    return orbit;
  }

  /** The point the camera orbits, as model-viewer's getCameraTarget(): { x, y, z, toString() } ("0m 1.5m 24m"). */
  getCameraTarget() {
    const [x, y, z] = this._camera.target;
    return { x, y, z, toString: () => [x, y, z].map((v) => `${+v.toPrecision(5)}m`).join(' ') };
  }

  /** Whether the user moved the camera (orbit, pan, zoom) since the model was framed. */
  get cameraMoved() { return this._camera.userMoved; }

  /** Re-fits the camera to the model. */
  updateFraming() {
    this._refit(true);
    this._invalidate();
  }

  /** Frees the model and the GPU context; the element can load again afterwards. */
  dispose() {
    this._loadTicket++;
    this._ticker.stop();
    this._disposeContent();
    this._releaseDownloads();
    this._releaseRenderer();
    this._ui?.update(true);
  }

  // ---- loading

  // src, archives and model set together (in HTML, or one after another from script) make one
  // load: the load waits for the end of the current task's attribute changes.
  _loadFromAttribute() {
    if (this._attributeLoad) return;
    this._attributeLoad = true;
    queueMicrotask(() => {
      this._attributeLoad = false;
      const src = this.src;
      if (!src || !this.isConnected) return;
      this.load(src).catch(() => {}); // reported through the error event and the message
    });
  }

  // The `model` attribute changed: the same source, another of its models (the other choices made
  // for the old model are forgotten: a skin one player has, another may lack).
  _pickModel(value) {
    this._forgetChoices(['model']);
    if (this._attributeLoad || this._source == null || !this.isConnected) return; // a load on its way reads it
    if (this._source === this.src) this._loadFromAttribute();
    else this.load(this._source, { ...this._sourceOptions, model: value }).catch(() => {});
  }

  /** Sets attribute `name` as a choice for the content shown (the controls, setSkin): forgotten with it. */
  _choose(name, value) {
    this._choosing = true;
    try { setOrRemove(this, name, value); } finally { this._choosing = false; }
  }

  // Removes the choices made for the content shown (but those in `keep`), without reacting.
  _forgetChoices(keep = []) {
    const names = [...this._choices].filter((n) => !keep.includes(n));
    this._quiet = true;
    try { for (const name of names) { this.removeAttribute(name); this._choices.delete(name); } } finally { this._quiet = false; }
    this._skinRequested = undefined;
  }

  _releaseDownloads() {
    this._hold?.release();
    this._hold = null;
  }

  async _library() {
    await this._software; // a change of drawer picks the library first (software.js)
    if (!this._iqPromise) {
      const wasm = this.getAttribute('wasm') || undefined;
      this._iqPromise = init(wasm ? { wasm: new URL(wasm, document.baseURI) } : {});
    }
    return this._iqPromise;
  }

  async _load(source, options, ticket) {
    this._showMessage(null);
    this._progress(0);
    const hold = new Hold(); // what this load downloads, kept while its content is shown
    try {
      if (!this._renderer) this._createRenderer();
      const iq = await this._library();
      if (this._rendererError) throw this._rendererError;
      // Only the newest load moves the bar: a superseded one still downloading must not.
      const onProgress = (p) => {
        if (ticket !== this._loadTicket) return;
        this._progress(p * 0.9);
        this._emit('progress', { totalProgress: p * 0.9 });
      };
      const model = options.model ?? this.getAttribute('model');
      const input = await resolveInput(this, iq, source, { ...options, model }, onProgress, hold);
      if (ticket !== this._loadTicket) { hold.release(); return; }
      const content = await buildContent(iq, input, this._buildOptions(options));
      await prepareShaders(iq, content, this._renderer);
      await this._controlsReady;
      if (ticket !== this._loadTicket) { disposeContent(content, this._renderer); hold.release(); return; }
      content.choice = input.choice ?? null; // which of availableModels this is (the model picker shows it)
      this._setContent(content);
      this._hold?.release(); // after the new content holds what it shares with the old one
      this._hold = hold;
      this._progress(1);
      this._emit('progress', { totalProgress: 1 });
      this._emit('load', {
        format: content.format, info: content.info, summary: content.info,
        missingFiles: content.missingFiles, warnings: content.warnings, drawer: this.drawer,
      });
      this._autoplay(); // after load: `play` never comes before `load`
    } catch (err) {
      hold.release();
      if (ticket !== this._loadTicket) return;
      const error = asError(err);
      this._progress(1);
      this._disposeContent();
      this._releaseDownloads();
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
    const state = this._playback.snapshot();
    const input = { archive: c.playerSource, player: c.playerFolder, files: null, models: c.choices, warnings: c.sourceWarnings };
    const content = await buildContent(iq, input, this._buildOptions());
    await prepareShaders(iq, content, this._renderer);
    content.choice = c.choice;
    this._setContent(content);
    this._playback.restore(state);
    this._autoplay();
    this._invalidate();
  }

  _setContent(content) {
    this._disposeContent();
    this._content = content;
    this._shaderClock = 0;
    this._shaderPin = null;
    this._playback.start(content);
    const frame = this.getAttribute('frame');
    if (frame !== null) this._playback.seekFrame(Number(frame) || 0);
    content.bounds = sane(drawnBounds(content, this._playback.tracks));
    this._fitCamera(content.bounds);
    this._ui?.update(true);
    this._invalidate();
  }

  _autoplay() {
    if (this._content && this.autoplay && this._playback.hasAnimation) this.play();
  }

  _disposeContent() {
    if (!this._content) return;
    disposeContent(this._content, this._renderer);
    this._content = null;
    this._playback.clear();
  }

  // ---- animation helpers

  // What playback.js reads of the attributes.
  _playSettings() {
    return {
      timeScale: this.timeScale, loop: this.loop, crossfadeMs: this.animationCrossfadeDuration, q3Transition: this.q3Transition,
      wanted: (part) => this.getAttribute(part === 'legs' ? 'legs-animation' : part === 'torso' ? 'torso-animation' : 'animation-name'),
    };
  }

  // Track helpers; ui.js reads _mainTrack and _trackFor.
  _trackFor(part) { return this._playback.trackFor(part); }
  _mainTrack() { return this._playback.main; }

  _setAnimationQuiet(name, part) {
    try { this.setAnimation(name, { part }); } catch (err) { this._emit('error', { type: 'invalidattribute', code: err.code, message: err.message }); }
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

  // WebGL 2, unless the `renderer` attribute or a failure of WebGL (reason) asks for the software
  // drawer; once it has, software.js makes every choice of drawer.
  _createRenderer(reason) {
    if (reason || this._software || this.renderer == 'software') this._software = loadSoftware().then((m) => m.chooseDrawer(this, init, reason));
    else if (!this._renderer) this._webgl();
  }

  _releaseRenderer() {
    releaseRenderer(this, this._renderer, this._bitmap);
    this._renderer = null;
  }

  _webgl() {
    try {
      ({ renderer: this._renderer, bitmap: this._bitmap } = acquireRenderer(this, this._canvas, this._bitmap));
      this._rendererError = null;
    } catch (err) {
      if (this.renderer != 'webgl') return this._createRenderer('webgl2_unavailable');
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
    poseContent(c, this._playback.tracks, this.interpolate);
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

  // Frames what the animations now playing draw (framing.js: every part's vertices over their
  // frames, weapons on tags included); on a change of animation only while the user has not moved
  // the camera (`force`: updateFraming(), double-click).
  _refit(force = false) {
    const c = this._content;
    if (!c || (!force && this._camera.userMoved)) return;
    c.bounds = sane(drawnBounds(c, this._playback.tracks));
    this._fitCamera(c.bounds);
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

  // Builds the controls the attribute asks for; `_controlsReady` settles when they are there (a
  // load waits for it, so `load` fires with the controls showing the new model).
  _applyControls() {
    const mode = this.controls;
    if (this._ui?.mode === mode || (!this._ui && mode === 'none')) return this._controlsReady;
    this._ui?.remove();
    this._ui = null;
    if (mode === 'none') return (this._controlsReady = Promise.resolve());
    this._controlsReady = loadControls().then(({ buildControls }) => {
      if (this.controls !== mode || this._ui) return;
      this._ui = buildControls(this, mode, this._view.stage);
      this._ui.update(true);
    }, (err) => console.warn(`<interquake-viewer> the controls did not load: ${err.message}`));
    return this._controlsReady;
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
    // Not back in 3 s, or its rebuild failed (still lost): lost for good, drawn in software (software.js).
    setTimeout(() => this._renderer?.lost && this.renderer != 'webgl' && this._createRenderer('context_lost'), 3e3);
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
