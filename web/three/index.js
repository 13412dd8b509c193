// interquake/three: three.js loaders for every model format the library reads (IQM, IQE, MD3...)
// and for whole Quake 3 players, in three's conventions (Loader subclasses, a GLTFLoader-shaped
// result, an MD2Character-style player, DRACOLoader-style WASM handling). three is a peer
// dependency: this module imports 'three' and bundles none of it. docs/THREE.md.
//
// The library does the work: it parses (format from the magic bytes), decodes TGA, assembles
// players, resolves skins and textures, and answers every time-to-frame question; the clips'
// keys are its frames and placements, and Q3Player.update runs the element's own clock
// (web/scene/clock.js: Quake 3's stepping and change of animation, from the C).

import { FileLoader, Group, Loader, Matrix4, Mesh, AnimationClip } from 'three';
import { init, InterquakeError } from '../interquake.js';
import { Track, playerAnimations } from '../scene/clock.js';
import { decodeImage } from '../viewer/assets.js';
import { q3Playhead } from '../quake3/playhead.js';
import { textureFinder, playerFolderFiles } from './paths.js';
import {
  zUpGroup, nodeName, sharedAttributes, modelGeometry, isSkinned, isMorphed, buildSkeleton, skinnedMeshes, skeletalClip,
  morphChunks, morphTracks, hideTrack, placementTracks, tagObjects, place, textureOf, materialFor, applyShaderBlock,
  disposeObject, matrixOf,
} from './build.js';

export { MAX_MORPH_TARGETS, TAG_STEPS } from './build.js';

// -- The library, as DRACOLoader handles its decoder: set it, or a path to the WASM, preload, dispose.

const LibraryMixin = {
  /** Uses this library (from interquake's init()) instead of the default one. */
  setLibrary(iq) { this._iq = Promise.resolve(iq); return this; },
  /** Where interquake.wasm lives (a folder URL), as DRACOLoader.setDecoderPath. */
  setWasmPath(path) { this._wasmPath = path; this._iq = null; return this; },
  /** Compiles the WASM now, so the first load does not wait for it. Resolves to the library. */
  preload() { return this._library(); },
  /** Lets go of the library (its WASM memory goes once nothing else holds it). */
  dispose() { this._iq = null; },
  _library() {
    if (!this._iq) {
      const base = typeof document !== 'undefined' ? document.baseURI : undefined;
      this._iq = this._wasmPath ? init({ wasm: new URL('interquake.wasm', new URL(this._wasmPath, base)) }) : init();
    }
    return this._iq;
  },
};

// Companion files (textures, player files) through the manager: setURLModifier, progress and the
// loader's headers and credentials apply; a miss is not an error (the lookup tries candidates).
function companionFetcher(loader) {
  return async (url) => {
    const manager = loader.manager;
    const resolved = manager.resolveURL(url);
    manager.itemStart(resolved);
    try {
      const response = await fetch(resolved, {
        headers: new Headers(loader.requestHeader), credentials: loader.withCredentials ? 'include' : 'same-origin',
      });
      return response.ok ? new Uint8Array(await response.arrayBuffer()) : null;
    } catch {
      return null;
    } finally {
      manager.itemEnd(resolved);
    }
  };
}

function fileLoader(loader) {
  const files = new FileLoader(loader.manager);
  files.setPath(loader.path);
  files.setResponseType('arraybuffer');
  files.setRequestHeader(loader.requestHeader);
  files.setWithCredentials(loader.withCredentials);
  return files;
}

const fetchMain = (loader, url, onProgress) => new Promise((resolve, reject) => fileLoader(loader).load(url, resolve, onProgress, reject));

function absolute(url) {
  const base = typeof document !== 'undefined' ? document.baseURI : undefined;
  try { return new URL(url, base).href; } catch { return null; }
}

const fileName = (url) => String(url).split(/[?#]/)[0].split('/').pop();

function toUint8(data) {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw new InterquakeError('invalid_argument', 'expected an ArrayBuffer or a Uint8Array');
}

// -- Materials: one per library mesh, its texture found as the element finds it

async function decodeTexture(iq, found, warnings) {
  try {
    const image = await decodeImage(iq, found.bytes, found.path);
    return { texture: textureOf(image, found.path), image };
  } catch (err) {
    warnings.push({ code: err.code || 'bad_value', message: `${found.path}: ${err.message}`, file: found.path });
    return null;
  }
}

async function modelMaterials(iq, model, find, modelPath, warnings, missingFiles) {
  const vertexColors = Boolean(model.colors);
  return Promise.all(model.meshes.map(async (mesh) => {
    const name = mesh.shaders?.[0] ?? mesh.material;
    if (!name || !mesh.triangleCount) return materialFor(name, null, null, { vertexColors });
    const found = await find(name, modelPath);
    if (!found) {
      missingFiles.push(name);
      warnings.push({ code: 'missing_file', message: `${modelPath || 'model'}: texture '${name}' not found; drawn plain`, file: name });
      return materialFor(name, null, null, { vertexColors });
    }
    const decoded = await decodeTexture(iq, found, warnings);
    return materialFor(name, decoded?.texture ?? null, decoded?.image ?? null, { vertexColors });
  }));
}

// -- Models

/** A loaded model as three objects: { scene, animations, model, skeleton, tags, warnings, missingFiles, dispose }. */
export async function modelToThree(iq, model, { find = async () => null, name = model.name ?? '' } = {}) {
  const warnings = model.warnings.map((w) => ({ ...w }));
  const missingFiles = [];
  const materials = await modelMaterials(iq, model, find, name, warnings, missingFiles);
  const names = new Set();
  const scene = new Group();
  scene.name = name ? fileName(name) : 'interquake';
  const holder = zUpGroup();
  scene.add(holder);
  const result = { scene, animations: [], model, skeleton: null, tags: {}, warnings, missingFiles };
  if (isSkinned(model)) {
    const shared = sharedAttributes(model, { skinned: true });
    const skeleton = buildSkeleton(model, holder, names);
    holder.updateMatrixWorld(true);
    for (const mesh of skinnedMeshes(model, shared, skeleton, materials, names)) holder.add(mesh);
    result.skeleton = skeleton;
    model.animations.forEach((a, i) => { if (a.frameCount > 0) result.animations.push(skeletalClip(iq, model, i, skeleton.bones)); });
  } else if (model.vertexCount > 0) {
    const shared = sharedAttributes(model);
    const rest = new Mesh(modelGeometry(model, shared), materials);
    rest.name = nodeName(scene.name.replace(/\.[^.]*$/, '') || 'mesh', names);
    holder.add(rest);
    result.tags = tagObjects(model, holder);
    for (const tag of Object.values(result.tags)) names.add(tag.name);
    if (isMorphed(model)) {
      model.animations.forEach((a, i) => {
        if (a.frameCount < 1) return;
        const fps = a.framerate > 0 ? a.framerate : iq.md3Framerate;
        const loop = a.loop ? 'repeat' : 'once';
        const sequence = Array.from({ length: a.frameCount }, (_, k) => a.firstFrame + k);
        const times = sequence.map((_, k) => k / fps);
        const duration = model.frameAt(i, 0, { loop }).duration;
        if (loop === 'repeat' && a.frameCount > 1 && duration > (a.frameCount - 1) / fps * (1 + 1e-6)) {
          sequence.push(a.firstFrame);
          times.push(duration);
        }
        const chunks = morphChunks(model, shared, materials, sequence, `${rest.name}_${a.name}`, names);
        for (const c of chunks) holder.add(c.mesh);
        const tracks = [...morphTracks(chunks, times), hideTrack(rest)];
        for (const tag of Object.keys(result.tags)) {
          tracks.push(...placementTracks(tag, sequence, times, (fa, fb, t) => model.tagMatrixBetween(tag, fa, fb, t)));
        }
        const clip = new AnimationClip(a.name, times[times.length - 1], tracks);
        clip.userData = { loop, framerate: fps, firstFrame: a.firstFrame, frameCount: a.frameCount };
        result.animations.push(clip);
      });
    }
  }
  result.dispose = () => {
    disposeObject(scene);
    model.dispose();
  };
  return result;
}

/**
 * Loads any model the library reads (IQM, IQE, MD3, and whatever formats it gains), the format
 * from the magic bytes. load/loadAsync/parse give { scene, animations, model, ... }.
 */
export class InterquakeLoader extends Loader {
  constructor(manager) {
    super(manager);
    this._iq = null;
    this._wasmPath = '';
  }

  load(url, onLoad, onProgress, onError) {
    const fail = (err) => {
      if (onError) onError(err); else console.error(err);
      this.manager.itemError(url);
    };
    const base = this.resourcePath || absolute(this.path + url);
    // The manager counts the whole load (the model, then its textures) as one item too, so its
    // onLoad does not fire between the model's bytes and the texture requests.
    this.manager.itemStart(url);
    fetchMain(this, url, onProgress)
      .then((buffer) => this.parseAsync(buffer, base ?? '', { name: fileName(url) }))
      .then(onLoad, fail)
      .finally(() => this.manager.itemEnd(url));
  }

  /** three's callback form: parse(data, path, onLoad, onError). `path`: where textures are looked for. */
  parse(data, path, onLoad, onError) {
    this.parseAsync(data, path).then(onLoad, onError ?? ((err) => console.error(err)));
  }

  /**
   * Parses bytes; resolves to { scene, animations, model, skeleton, tags, warnings, missingFiles, dispose }.
   * options.files: a { path: bytes } map (or Map) to find textures in instead of URLs beside `path`.
   */
  async parseAsync(data, path = '', options = {}) {
    const iq = await this._library();
    const name = options.name ?? (path ? fileName(path) : '');
    const model = iq.load(toUint8(data), { name: name || undefined });
    try {
      const url = path ? absolute(path) : null;
      const find = textureFinder({ url, files: options.files ?? null, fetchBytes: companionFetcher(this) });
      return await modelToThree(iq, model, { find, name });
    } catch (err) {
      model.dispose();
      throw err;
    }
  }

  /**
   * Animations from another file (an animation-only IQM such as guyanim.iqm) joined to a result
   * of this loader: the library attaches them to the model (joints matched by name), and the new
   * clips are added to result.animations and returned.
   */
  async loadAnimations(url, result, onProgress) {
    const buffer = await fetchMain(this, url, onProgress);
    return this.parseAnimations(buffer, result, fileName(url));
  }

  async parseAnimations(data, result, name = undefined) {
    if (!result?.skeleton) throw new InterquakeError('invalid_argument', 'loadAnimations() needs a skinned result (one with a skeleton)');
    const iq = await this._library();
    const source = iq.load(toUint8(data), { name });
    let added;
    try {
      added = result.model.attachAnimations(source);
    } finally {
      source.dispose();
    }
    const first = result.model.animations.length - added.length;
    const clips = added.map((a, k) => skeletalClip(iq, result.model, first + k, result.skeleton.bones));
    result.animations.push(...clips);
    return clips;
  }
}
Object.assign(InterquakeLoader.prototype, LibraryMixin);

// -- Quake 3 players

const PARTS = ['lower', 'upper', 'head', 'weapon', 'barrel'];
const DEFAULT_ANIMATIONS = { legs: 'LEGS_IDLE', torso: 'TORSO_STAND' }; // what the game (and the element) shows at rest

/**
 * A Quake 3 player in three, in the style of MD2Character: `root` (a Group: lower -> upper -> head
 * on their tags, the weapon on tag_weapon), played by update(delta) on the element's clock, or by
 * an AnimationMixer with `animations` (clips named as animation.cfg names them).
 */
export class Q3Player {
  constructor(iq, source, player, options, loadWarnings = []) {
    this.iq = iq;
    this.source = source;
    this.options = { ...options };
    this.root = new Group();
    this.root.name = player.name || 'player';
    this.playbackRate = 1;
    /** Quake 3's change of animation (cgame's initialLerp), as the element's q3-transition; false: cut. */
    this.transition = true;
    this.legs = new Track('legs');
    this.torso = new Track('torso');
    this.warnings = [];
    this.missingFiles = [];
    this._clips = null;
    this._setPlayer(player, loadWarnings);
  }

  /** The library's player (iq.loadPlayer): skins, animations, surfaces, pose(). */
  get player() { return this._player; }
  get skins() { return this._player.skins; }
  get skin() { return this._player.skin; }
  get weapons() { return this._player.weapons.map((w) => w.name); }
  get animationNames() { return this._list.map((a) => a.name); }

  _setPlayer(player, loadWarnings = []) {
    this._player = player;
    this._list = playerAnimations(this.iq, player);
    this._loadWarnings = loadWarnings;
    this.warnings = [...player.warnings.map((w) => ({ ...w })), ...loadWarnings];
    this.missingFiles = [...player.missingFiles];
    // What the user hung on tags (a weapon of their own) moves to the same tags of the new player.
    const hung = [];
    const ours = new Set(Object.values(this.parts ?? {}).map((p) => p.group));
    for (const [part, tags] of Object.entries(this.tags ?? {})) {
      for (const [tag, object] of Object.entries(tags)) for (const child of object.children) if (!ours.has(child)) hung.push({ part, tag, child });
    }
    for (const { child } of hung) child.removeFromParent();
    for (const child of [...this.root.children]) { this.root.remove(child); disposeObject(child); }
    this._clips = null;
    const names = new Set();
    this.holder = zUpGroup();
    this.root.add(this.holder);
    this.parts = {};
    /** Tag objects by part: tags.upper.tag_weapon is where a weapon goes (add yours there). */
    this.tags = {};
    const parentOf = { lower: this.holder, upper: 'lower.tag_torso', head: 'upper.tag_head', weapon: 'upper.tag_weapon', barrel: 'weapon.tag_barrel' };
    for (const name of PARTS) {
      const part = player.parts[name];
      if (!part) continue;
      const model = part.model;
      const group = new Group();
      group.name = nodeName(name, names);
      const parent = parentOf[name];
      const [owner, tag] = typeof parent === 'string' ? parent.split('.') : [];
      (typeof parent === 'string' ? (this.tags[owner]?.[tag] ?? this.parts[owner].group) : parent).add(group);
      const shared = sharedAttributes(model);
      const materials = model.meshes.map((m) => materialFor(m.name, null, null));
      const live = new Mesh(modelGeometry(model, shared), materials);
      live.name = nodeName(`${name}_mesh`, names);
      live.frustumCulled = false;
      group.add(live);
      const tags = tagObjects(model, group);
      for (const [t, object] of Object.entries(tags)) object.name = nodeName(`${name}_${t}`, names);
      this.tags[name] = tags;
      this.parts[name] = { name, model, group, live, shared, materials, path: part.path };
    }
    this._names = names;
    for (const { part, tag, child } of hung) (this.tags[part]?.[tag] ?? this.holder).add(child);
    this.ready = this.setSkin(player.skin ?? this.options.skin ?? null, { resolve: false });
    // The element's tracks: the animations it starts on, restarted on the new player's list.
    for (const track of [this.legs, this.torso]) {
      const wanted = track.animation?.name ?? DEFAULT_ANIMATIONS[track.part];
      const animation = this._find(wanted, track.part) ?? this._list.find((a) => a.part === track.part) ?? null;
      const time = track.time;
      track.start(animation, { speed: this.playbackRate >= 0 ? 1 : -1, loop: animation ? (animation.loop ? 'repeat' : 'once') : 'repeat' });
      track.time = time;
    }
    this._apply();
  }

  _find(name, part) {
    const lower = String(name).toLowerCase();
    return this._list.find((a) => a.name === name && (a.part === part || a.part === 'both'))
      ?? this._list.find((a) => a.name.toLowerCase() === lower && (a.part === part || a.part === 'both')) ?? null;
  }

  _start(names, tracks, { gesture = false } = {}) {
    for (const track of tracks) {
      const animation = this._find(names, track.part);
      if (!animation) {
        const list = this._list.filter((a) => a.part === track.part || a.part === 'both').map((a) => a.name).join(', ');
        throw new InterquakeError('invalid_argument', `no ${track.part} animation '${names}' (this player has ${list || 'none'})`);
      }
      track.returnTo = null;
      track.start(animation, {
        speed: this.playbackRate, loop: gesture ? 'once' : animation.loop ? 'repeat' : 'once', q3Transition: this.transition,
      });
    }
    this._apply();
  }

  /** Plays a LEGS_* or BOTH_* animation on the legs. */
  setLegsAnimation(name) { this._start(name, [this.legs]); }
  /** Plays a TORSO_* or BOTH_* animation on the torso. */
  setTorsoAnimation(name) { this._start(name, [this.torso]); }
  /** Plays a BOTH_* animation (or any name either part has) on legs and torso. */
  setAnimation(name) {
    const tracks = [this.legs, this.torso].filter((t) => this._find(name, t.part));
    if (!tracks.length) this._start(name, [this.legs]);
    else this._start(name, tracks);
  }

  /** Plays a torso animation once (TORSO_GESTURE by default), then goes back to TORSO_STAND, as the element's playGesture. */
  playGesture(name = 'TORSO_GESTURE') {
    const animation = this._find(name, 'torso');
    if (!animation || animation.part !== 'torso') throw new InterquakeError('invalid_argument', `no torso animation '${name}'`);
    this._start(name, [this.torso], { gesture: true });
    const stand = this._find(DEFAULT_ANIMATIONS.torso, 'torso');
    this.torso.returnTo = stand && stand !== animation ? stand.name : null;
  }

  /** Time scale of update() (negative plays backwards), as MD2Character's setPlaybackRate. */
  setPlaybackRate(rate) { this.playbackRate = Number(rate) || 0; }

  /** Advances both parts by delta seconds on the element's clock (Quake 3's stepping, from the C) and poses the player. */
  update(delta) {
    for (const track of [this.legs, this.torso]) {
      track.advance(delta, this.playbackRate);
      if (track.finished && track.returnTo) {
        const next = track.returnTo;
        track.returnTo = null;
        track.start(this._find(next, track.part), { speed: this.playbackRate, loop: 'repeat', q3Transition: this.transition });
      }
    }
    this._apply();
  }

  /** The frames each part shows now, as the element computes them: { legs: { a, b, t }, torso: { a, b, t } }. */
  frames() {
    const out = {};
    for (const track of [this.legs, this.torso]) {
      if (!track.animation) continue;
      const f = track.frames(true);
      const from = track.fadeHead();
      out[track.part] = from ? { a: from.frameA, b: f.a, t: 1 - track.fadeWeight } : f;
    }
    return out;
  }

  /** The library's pose for the current frames (player.pose): what update() just drew. */
  pose() {
    const f = this.frames();
    const state = {};
    if (f.legs) state.legs = { from: f.legs.a, to: f.legs.b, lerp: f.legs.t };
    if (f.torso) state.torso = { from: f.torso.a, to: f.torso.b, lerp: f.torso.t };
    return this._player.pose(state);
  }

  // Morphs each part on the CPU by the library and places every tag between the part's frames.
  _apply() {
    const pose = this.pose();
    for (const part of Object.values(this.parts)) {
      const p = pose[part.name] ?? { from: 0, to: 0, lerp: 0 };
      const model = part.model;
      if (model.frameCount > 1) {
        const { positions, normals } = model.morph(p.from, p.to, p.lerp);
        const attributes = part.live.geometry.attributes;
        attributes.position.array.set(positions);
        attributes.position.needsUpdate = true;
        if (normals && attributes.normal) {
          attributes.normal.array.set(normals);
          attributes.normal.needsUpdate = true;
        }
      }
      for (const [tag, object] of Object.entries(this.tags[part.name] ?? {})) place(object, model.tagMatrixBetween(tag, p.from, p.to, p.lerp));
    }
    this.root.updateMatrixWorld(true);
  }

  /** Switches skin (a name from `skins`): the library resolves it (cgame's fallbacks), textures are decoded again. */
  async setSkin(name, { resolve = true } = {}) {
    const resolved = resolve ? this._player.resolveSkin(name) : { surfaces: this._player.surfaces, missingFiles: this._player.missingFiles, warnings: [] };
    const decoded = new Map();
    const warnings = [];
    const texture = (path) => {
      if (!decoded.has(path)) {
        decoded.set(path, (async () => {
          const bytes = this._player.readFile(path, 'texture');
          return bytes ? decodeTexture(this.iq, { path, bytes }, warnings) : null;
        })());
      }
      return decoded.get(path);
    };
    for (const part of Object.values(this.parts)) {
      const surfaces = resolved.surfaces[part.name] ?? [];
      await Promise.all(part.model.meshes.map(async (mesh, i) => {
        const surface = surfaces.find((s) => s.mesh === i);
        const name = surface?.texture || surface?.shader || mesh.material || mesh.name;
        const found = surface?.texture ? await texture(surface.texture) : null;
        const material = materialFor(name, found?.texture ?? null, found?.image ?? null);
        applyShaderBlock(material, surface?.script ?? null);
        const old = part.materials[i];
        part.materials[i] = material; // the array every mesh of the part draws with
        old?.map?.dispose();
        old?.dispose();
      }));
    }
    if (resolve) {
      this.missingFiles = [...resolved.missingFiles];
      this.warnings = [...this._player.warnings, ...this._loadWarnings, ...(resolved.warnings ?? [])];
    }
    this.warnings.push(...warnings);
    this._skin = name;
  }

  /**
   * Puts a weapon in the player's hand (a name from `weapons`, e.g. 'machinegun'; null: none),
   * as the element does: the library loads the player again with it (cgame's placement).
   */
  async setWeapon(name) {
    const old = this._player;
    const warnings = [];
    const player = loadPlayerAsTheElement(this.iq, this.source, { ...this.options, skin: old.skin ?? this.options.skin, weapon: name ?? undefined }, warnings);
    this.options.weapon = name ?? undefined;
    this._setPlayer(player, warnings);
    old.dispose();
    await this.ready;
  }

  /**
   * Clips for an AnimationMixer on `root`, one per animation.cfg entry (LEGS_* drive the legs,
   * TORSO_* the torso, BOTH_* both; a legs and a torso clip play together), keyed on Quake 3's
   * clock: frame k at k x frameLerp ms (from the C), a seam key back to the first frame for
   * animations that loop whole. Built on first use (their morph meshes are added to the root).
   */
  get animations() {
    if (!this._clips) this._clips = this._buildClips();
    return this._clips;
  }

  _buildClips() {
    const clips = [];
    const partOf = { legs: ['lower'], torso: ['upper'], both: ['lower', 'upper'] };
    for (const a of this._list) {
      const tracks = [];
      let duration = 0;
      for (const name of partOf[a.part] ?? []) {
        const part = this.parts[name];
        const { sequence, times } = this._q3Sequence(a, part.model);
        duration = Math.max(duration, times[times.length - 1]);
        const chunks = morphChunks(part.model, part.shared, part.materials, sequence, `${name}_${a.name}`, this._names);
        for (const c of chunks) part.group.add(c.mesh);
        tracks.push(...morphTracks(chunks, times), hideTrack(part.live));
        for (const [tag, object] of Object.entries(this.tags[name])) {
          tracks.push(...placementTracks(object.name, sequence, times, (fa, fb, t) => part.model.tagMatrixBetween(tag, fa, fb, t)));
        }
      }
      const clip = new AnimationClip(a.name, duration, tracks);
      clip.userData = { part: a.part, loop: a.loop ? 'repeat' : 'once', framerate: a.framerate, firstFrame: a.firstFrame, frameCount: a.frameCount };
      clips.push(clip);
    }
    return clips;
  }

  // The frames Quake 3 shows at each frameLerp step of `a` on `model` (the C's q3Playhead), and a
  // seam key when the whole animation loops.
  _q3Sequence(a, model) {
    const count = Math.max(a.frameCount, 1);
    if (a.kind !== 'q3') {
      const sequence = Array.from({ length: count }, (_, k) => a.firstFrame + k);
      const times = sequence.map((_, k) => k / a.framerate);
      if (a.loop && count > 1) { sequence.push(a.firstFrame); times.push(count / a.framerate); }
      return { sequence, times };
    }
    const step = a.q3.frameLerp / 1000;
    const at = (k) => {
      const h = q3Playhead(this.iq, a.q3, k * step, model.frameCount);
      return h.lerp > 0.5 ? h.to : h.from;
    };
    const keys = a.q3.loopFrames === a.q3.frameCount && count > 1 ? count + 1 : count;
    const sequence = Array.from({ length: keys }, (_, k) => at(k));
    const times = sequence.map((_, k) => k * step);
    return { sequence, times };
  }

  /** Frees the library's player and three's GPU resources. */
  dispose() {
    disposeObject(this.root);
    this._player.dispose();
  }
}

/**
 * iq.loadPlayer with the element's fallbacks (web/viewer/content.js): a skin name the library
 * refuses loads the default skin; a weapon that is not there leaves the hands empty, with a warning.
 */
function loadPlayerAsTheElement(iq, source, options, warnings) {
  const load = (opts) => iq.loadPlayer(source, { ...options, ...opts });
  try {
    return load({});
  } catch (err) {
    if (err.code === 'invalid_argument' && /skin/.test(err.message)) {
      warnings.push({ code: err.code, message: err.message });
      return load({ skin: undefined });
    }
    if (options.weapon && (err.code === 'missing_file' || err.code === 'unknown_format') && /weapon/.test(`${err.message} ${err.file ?? ''}`)) {
      warnings.push({ code: err.code, message: err.message, file: err.file });
      return load({ weapon: undefined });
    }
    throw err;
  }
}

/**
 * Loads Quake 3 players: a .pk3 (or several, joined as the game joins them), a player folder
 * URL ('models/players/sarge/'), or (parse) an Archive, a FileSystem or a { path: bytes } map.
 * Resolves to a Q3Player. Options (setOptions or parse's): player, skin, weapon, lod, team.
 */
export class Q3PlayerLoader extends Loader {
  constructor(manager) {
    super(manager);
    this._iq = null;
    this._wasmPath = '';
    this.playerOptions = {};
  }

  /** Defaults for load(): { player, skin, weapon, lod, team } as iq.loadPlayer takes them. */
  setOptions(options) { this.playerOptions = { ...options }; return this; }

  load(url, onLoad, onProgress, onError) {
    const urls = [].concat(url);
    const fail = (err) => {
      if (onError) onError(err); else console.error(err);
      for (const u of urls) this.manager.itemError(u);
    };
    for (const u of urls) this.manager.itemStart(u);
    this._loadFiles(urls, onProgress).then((files) => this.parseAsync(files, this.playerOptions)).then(onLoad, fail)
      .finally(() => { for (const u of urls) this.manager.itemEnd(u); });
  }

  async _loadFiles(urls, onProgress) {
    const iq = await this._library();
    const archives = urls.filter((u) => /\.(pk3|zip)([?#].*)?$/i.test(u));
    if (archives.length === urls.length) {
      const opened = await Promise.all(archives.map(async (u) => iq.openArchive(new Uint8Array(await fetchMain(this, u, onProgress)), { name: fileName(u) })));
      return opened.length === 1 ? opened[0] : iq.mountArchives(opened);
    }
    if (urls.length !== 1) throw new InterquakeError('invalid_argument', 'Q3PlayerLoader.load() takes one player folder URL, or .pk3 URLs');
    const folder = absolute(this.path + urls[0].replace(/\/?$/, '/'));
    return playerFolderFiles(iq, folder, companionFetcher(this), this.playerOptions);
  }

  parse(files, options, onLoad, onError) {
    this.parseAsync(files, options).then(onLoad, onError ?? ((err) => console.error(err)));
  }

  /**
   * files: an Archive or FileSystem (iq.openArchive / mountArchives), a { path: bytes } map or
   * Map, or .pk3 bytes (ArrayBuffer, Uint8Array, or an array of them). Resolves to a Q3Player
   * whose textures are decoded.
   */
  async parseAsync(files, options = {}) {
    const iq = await this._library();
    let source = files;
    if (files instanceof ArrayBuffer || ArrayBuffer.isView(files)) source = await iq.openArchive(toUint8(files));
    else if (Array.isArray(files)) source = iq.mountArchives(await Promise.all(files.map((f) => iq.openArchive(toUint8(f)))));
    else if (!(files instanceof Map) && typeof files?.read !== 'function' && files && typeof files === 'object') source = new Map(Object.entries(files));
    const opts = { ...this.playerOptions, ...options };
    const warnings = [];
    const player = loadPlayerAsTheElement(iq, source, opts, warnings);
    const q3 = new Q3Player(iq, source, player, opts, warnings);
    await q3.ready;
    return q3;
  }
}
Object.assign(Q3PlayerLoader.prototype, LibraryMixin);

export { InterquakeError, matrixOf };
/** The matrix three draws a library placement (column-major 4x4, Z up) with, under a root at the identity. */
export function yUpMatrix(m) {
  return new Matrix4().makeRotationX(-Math.PI / 2).multiply(matrixOf(m));
}
