// Quake 3 players: lower/upper/head MD3s assembled through their tags, animation.cfg,
// .skin files and the Quake 3 texture lookup. The text files are parsed by the C core
// (src/iq_q3text.c); this module puts the pieces together and steps frames the way
// cgame's CG_RunLerpFrame does (docs/formats.md section 2).

import { InterquakeError } from './interquake.js';
import { Archive, findPlayers, normalizePath, pathKey, sortSkins } from './archive.js';

const PARTS = ['lower', 'upper', 'head'];
const FOOTSTEPS = ['normal', 'boot', 'flesh', 'mech', 'energy'];
const SEX = { 109: 'm', 102: 'f', 110: 'n' };
const IMAGE_EXTENSIONS = ['.tga', '.jpg', '.png'];
const CONFIG_ANIMATIONS_OFFSET = 0; // iq_q3_config layout, fixed by static asserts in src/iq_wasm.c
const ANIMATION_SIZE = 32;
const SKIN_SURFACES_OFFSET = 168;
const SKIN_SURFACE_SIZE = 324;

const utf8 = new TextEncoder();

function textBytes(input, what) {
  if (typeof input === 'string') return utf8.encode(input);
  if (input instanceof Uint8Array) return input;
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  throw new InterquakeError('invalid_argument', `${what} takes a string, a Uint8Array or an ArrayBuffer`);
}

// Runs a C text parser on bytes copied into the heap; returns its result address.
function runParser(lib, fn, bytes, file) {
  const e = lib._exports;
  const ptr = e.iq_wasm_alloc(bytes.length);
  if (!ptr) throw new InterquakeError('out_of_memory', `no memory for ${bytes.length} bytes`, { file });
  try {
    new Uint8Array(lib._heap, ptr, bytes.length).set(bytes);
    const result = fn(ptr, bytes.length);
    if (!result) throw lib._lastError(file);
    return result;
  } finally {
    e.iq_wasm_free(ptr);
  }
}

function partOf(name) {
  return name.startsWith('BOTH_') ? 'both' : name.startsWith('TORSO_') ? 'torso' : 'legs';
}

/** Parses animation.cfg (text or bytes). See Interquake.parseAnimationConfig. */
export function parseAnimationConfig(lib, input, options = {}) {
  const file = options.name;
  const e = lib._exports;
  const at = runParser(lib, (p, n) => e.iq_wasm_parse_animation_cfg(p, n), textBytes(input, 'parseAnimationConfig()'), file);
  const count = e.iq_wasm_q3_animation_count();
  const view = new DataView(lib._heap);
  const animations = [];
  for (let i = 0; i < count; i++) {
    const w = at + CONFIG_ANIMATIONS_OFFSET + i * ANIMATION_SIZE;
    const name = lib._string(e.iq_wasm_q3_animation_name(i));
    const frameCount = view.getUint32(w + 4, true);
    const loopFrames = view.getUint32(w + 8, true);
    const frameLerp = view.getUint32(w + 16, true);
    animations.push({
      name, index: i, part: partOf(name),
      firstFrame: view.getInt32(w, true), frameCount, loopFrames,
      fps: view.getFloat32(w + 12, true), frameLerp,
      reversed: view.getUint32(w + 20, true) !== 0,
      fromFile: view.getUint32(w + 24, true) !== 0,
      line: view.getUint32(w + 28, true),
      loop: loopFrames > 0,
      duration: (frameCount * frameLerp) / 1000,
    });
  }
  const c = at + count * ANIMATION_SIZE;
  const warnings = view.getUint32(c + 36, true) ? [{ code: 'ignored_data', message: lib._string(c + 40) }] : [];
  return {
    animations,
    tableEntries: view.getUint32(c, true),
    legsSkip: view.getInt32(c + 4, true),
    sex: SEX[view.getUint32(c + 8, true)] || 'm',
    footsteps: FOOTSTEPS[view.getUint32(c + 12, true)] || 'normal',
    headOffset: [view.getFloat32(c + 16, true), view.getFloat32(c + 20, true), view.getFloat32(c + 24, true)],
    fixedLegs: view.getUint32(c + 28, true) !== 0,
    fixedTorso: view.getUint32(c + 32, true) !== 0,
    warnings,
  };
}

/** Parses a .skin file (text or bytes). See Interquake.parseSkin. */
export function parseSkin(lib, input, options = {}) {
  const e = lib._exports;
  const at = runParser(lib, (p, n) => e.iq_wasm_parse_skin(p, n), textBytes(input, 'parseSkin()'), options.name);
  const view = new DataView(lib._heap);
  const count = view.getUint32(at, true);
  const surfaces = [];
  for (let i = 0; i < count; i++) {
    const s = at + SKIN_SURFACES_OFFSET + i * SKIN_SURFACE_SIZE;
    surfaces.push({ name: lib._string(s), shader: lib._string(s + 64), line: view.getUint32(s + 320, true) });
  }
  const warnings = view.getUint32(at + 4, true) ? [{ code: 'ignored_data', message: lib._string(at + 8) }] : [];
  return { surfaces, warnings };
}

// -- Where files come from: an opened archive, a Map or a plain object of path -> bytes

// find(path) answers where a file is without reading it ({ path } or null); read(path)
// also returns its bytes, so textures are located without inflating them.
function fileSource(files, player) {
  let locate;
  let load;
  let paths;
  if (files instanceof Archive) {
    locate = (path) => {
      const entry = files.entry(path);
      return entry ? entry.path : null;
    };
    load = (path) => files.read(path);
    paths = files.files;
  } else if (files && typeof files === 'object') {
    const index = new Map();
    const entries = files instanceof Map ? [...files.entries()] : Object.entries(files);
    for (const [path, bytes] of entries) {
      if (bytes == null) continue;
      index.set(pathKey(path), { path: normalizePath(path), bytes: textBytes(bytes, `loadPlayer() file ${path}`) });
    }
    locate = (path) => index.get(pathKey(path))?.path ?? null;
    load = (path) => index.get(pathKey(path)).bytes;
    paths = [...index.values()].map((f) => f.path);
  } else {
    throw new InterquakeError('invalid_argument', 'loadPlayer() takes an archive from openArchive() or an object of path -> bytes');
  }
  const players = findPlayers(paths);
  let folder;
  if (player !== undefined) folder = normalizePath(player).replace(/\/$/, '');
  else if (players.length) folder = players[0].path;
  else throw new InterquakeError('missing_file', 'no Quake 3 player here: no folder holds lower.md3 and upper.md3');
  const info = players.find((p) => p.path.toLowerCase() === folder.toLowerCase()) || { path: folder, skins: [], lods: [0] };
  const prefix = folder ? `${folder}/` : '';
  // A game path, or one relative to the player's folder.
  const find = (path) => {
    const p = normalizePath(path);
    const found = p.toLowerCase().startsWith(prefix.toLowerCase())
      ? locate(p) || (prefix ? locate(p.slice(prefix.length)) : null)
      : locate(p) || locate(prefix + p);
    return found ? { path: found } : null;
  };
  const read = (path) => {
    const file = find(path);
    return file ? { path: file.path, bytes: load(file.path) } : null;
  };
  return { find, read, folder, info, others: players.length > 1 ? players.map((p) => p.path) : [] };
}

/**
 * The paths a shader name or skin path may be found at, in Quake 3's order: as written,
 * the other image extensions in place of a missing one, then each extension appended.
 * An absolute path from the artist's disk ("E:\\q3\\baseq3\\models\\...") is also tried
 * from its models/ or textures/ folder on.
 */
function textureCandidates(reference) {
  const list = pathCandidates(normalizePath(reference));
  const inGame = /(^|\/)(models|textures)\//i.exec(normalizePath(reference));
  if (inGame && inGame.index > 0) list.push(...pathCandidates(normalizePath(reference).slice(inGame.index + 1)));
  return list;
}

function pathCandidates(ref) {
  const dot = ref.lastIndexOf('.');
  const ext = dot > ref.lastIndexOf('/') ? ref.slice(dot).toLowerCase() : '';
  const list = [ref];
  // A known image extension that is missing: the same name with the other ones.
  if (IMAGE_EXTENSIONS.includes(ext) || ext === '.jpeg') {
    const stem = ref.slice(0, dot);
    for (const e of IMAGE_EXTENSIONS) if (e !== ext) list.push(stem + e);
  }
  // No or another extension ("clothes.001"), and names like "glass.tga.tga": append each one.
  for (const e of IMAGE_EXTENSIONS) list.push(ref + e);
  return list;
}

// The surface name a skin matches: lower case without the "_1"/"_2" LOD suffix (R_LoadMD3).
function surfaceKey(name) {
  const n = name.toLowerCase();
  return n.length > 2 && n[n.length - 2] === '_' ? n.slice(0, -2) : n;
}

// -- 4x4 column-major matrices

const identity = () => new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);

function multiply(a, b) {
  const out = new Float32Array(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      out[c * 4 + r] = a[r] * b[c * 4] + a[4 + r] * b[c * 4 + 1] + a[8 + r] * b[c * 4 + 2] + a[12 + r] * b[c * 4 + 3];
    }
  }
  return out;
}

// Blends two tag matrices (origin and axes linearly), then makes the axes orthonormal again.
function blendTags(a, b, t) {
  const m = new Float32Array(16);
  for (let i = 0; i < 16; i++) m[i] = a[i] + (b[i] - a[i]) * t;
  for (let c = 0; c < 3; c++) {
    for (let p = 0; p < c; p++) {
      const d = m[c * 4] * m[p * 4] + m[c * 4 + 1] * m[p * 4 + 1] + m[c * 4 + 2] * m[p * 4 + 2];
      for (let k = 0; k < 3; k++) m[c * 4 + k] -= d * m[p * 4 + k];
    }
    const len = Math.hypot(m[c * 4], m[c * 4 + 1], m[c * 4 + 2]) || 1;
    for (let k = 0; k < 3; k++) m[c * 4 + k] /= len;
  }
  return m;
}

// -- Frame stepping

/**
 * The frames cgame's CG_RunLerpFrame shows `ms` milliseconds after an animation started:
 * frame k is reached at k * frameLerp; past the end a looping animation repeats its last
 * loopFrames frames and any other holds its last frame; reversed ones run backwards.
 */
export function stepFrames(anim, ms) {
  const n = anim.frameCount;
  const lerp = anim.frameLerp;
  // whole microseconds, so that seconds * 1000 lands on frame boundaries exactly; at most
  // about 30 000 years, so that every step below stays exact
  const t = Math.min(Math.max(0, Math.round(ms * 1000) / 1000), 1e15);
  const k = Math.floor(t / lerp);
  const frameFor = (f) => {
    if (n === 0) return anim.firstFrame;
    if (f >= n) {
      f -= n;
      f = anim.loopFrames ? (f % anim.loopFrames) + n - anim.loopFrames : n - 1;
    }
    return anim.reversed ? anim.firstFrame + n - 1 - f : anim.firstFrame + f;
  };
  const from = frameFor(k);
  const to = frameFor(k + 1);
  return { from, to, lerp: from === to ? 0 : (t - k * lerp) / lerp };
}

// One number for evaluate(): exact when the two frames are neighbours, else the nearer one.
function fractionalFrame({ from, to, lerp }) {
  if (to === from + 1) return from + lerp;
  if (to === from - 1) return from - lerp;
  return lerp < 0.5 ? from : to;
}

// -- The player

/** Assembles a Quake 3 player. See Interquake.loadPlayer. */
export function loadPlayer(lib, files, options = {}) {
  const source = fileSource(files, options.player);
  const { find, read, folder, info } = source;
  const warnings = [];
  const missing = new Set();
  const where = (name) => (folder ? `${folder}/${name}` : name);
  if (source.others.length && options.player === undefined) {
    warnings.push({ code: 'ignored_data', message: `several players (${source.others.join(', ')}); loaded ${folder}` });
  }

  const lod = options.lod || 0;
  const parts = {};
  const loaded = [];
  try {
    for (const part of PARTS) {
      let file = null;
      for (const level of lod ? [lod, 0] : [0]) {
        const suffix = level ? `_${level}` : '';
        file = read(`${part}${suffix}.md3`) || read(`${part}${suffix}.iqm`);
        if (file) break;
        if (level) {
          missing.add(where(`${part}_${level}.md3`));
          warnings.push({ code: 'repaired', message: `${part}_${level}.md3 is missing; using LOD 0` });
        }
      }
      if (!file) throw new InterquakeError('missing_file', `${where(`${part}.md3`)} is missing`, { file: where(`${part}.md3`) });
      const model = lib.load(file.bytes, { name: file.path });
      loaded.push(model);
      parts[part] = { path: file.path, model };
    }
    if (options.weapon !== undefined) {
      let model = options.weapon;
      let path = options.weaponPath;
      if (typeof model === 'string') {
        const file = read(model);
        if (!file) throw new InterquakeError('missing_file', `weapon ${model} is missing`, { file: model });
        path = file.path;
        model = lib.load(file.bytes, { name: path });
        loaded.push(model);
      } else if (model instanceof Uint8Array || model instanceof ArrayBuffer) {
        model = lib.load(model, { name: path || 'weapon' });
        loaded.push(model);
      }
      if (!model || typeof model.tagMatrix !== 'function') {
        throw new InterquakeError('invalid_argument', 'options.weapon must be a model, its bytes or a path in files');
      }
      parts.weapon = { path: path || model.name || 'weapon', model };
    }
  } catch (err) {
    for (const model of loaded) model.dispose();
    throw err;
  }

  // animation.cfg
  let config = null;
  const cfgFile = find('animation.cfg');
  if (cfgFile) {
    try {
      config = parseAnimationConfig(lib, read(cfgFile.path).bytes, { name: cfgFile.path });
    } catch (err) {
      for (const model of loaded) model.dispose();
      throw err;
    }
    for (const w of config.warnings) warnings.push({ code: w.code, message: `${cfgFile.path}: ${w.message}` });
  } else {
    missing.add(where('animation.cfg'));
    warnings.push({ code: 'empty', message: 'no animation.cfg: poses take frame numbers only' });
  }
  const animations = config ? config.animations : [];
  const frameCounts = { legs: [parts.lower.model.frameCount], torso: [parts.upper.model.frameCount] };
  frameCounts.both = [...frameCounts.legs, ...frameCounts.torso];
  for (const a of animations) {
    const limit = Math.min(...frameCounts[a.part]);
    a.fits = a.firstFrame >= 0 && a.firstFrame + Math.max(a.frameCount, 1) <= limit;
    if (!a.fits) {
      warnings.push({
        code: 'repaired',
        message: `${a.name} uses frames ${a.firstFrame}..${a.firstFrame + a.frameCount - 1}, outside the ${limit} frames of ${a.part === 'torso' ? 'upper' : a.part === 'legs' ? 'lower' : 'lower/upper'}; they are clamped`,
      });
    }
  }

  // Tags the assembly needs
  // MD3 tags and IQM/IQE joints alike: tagMatrix() answers null for a name the model lacks.
  const tagCache = new Map();
  const hasTag = (model, tag) => {
    if (!tagCache.has(model)) tagCache.set(model, new Map());
    const known = tagCache.get(model);
    if (!known.has(tag)) known.set(tag, model.tagMatrix(tag, 0) !== null);
    return known.get(tag);
  };
  const needed = [['lower', 'tag_torso', 'upper'], ['upper', 'tag_head', 'head']];
  if (parts.weapon) needed.push(['upper', 'tag_weapon', 'weapon']);
  for (const [part, tag, child] of needed) {
    if (!hasTag(parts[part].model, tag)) {
      warnings.push({ code: 'repaired', message: `${parts[part].path} has no ${tag}: ${child} sits at its origin, as in Quake 3` });
    }
  }

  // Skins
  const skinFiles = new Map(); // skin name -> { lower, upper, head } parsed or null
  const skinNames = sortSkins(info.skins || []);
  const parseSkinFor = (skin) => {
    if (skinFiles.has(skin)) return skinFiles.get(skin);
    const byPart = {};
    for (const part of PARTS) {
      const file = find(`${part}_${skin}.skin`);
      if (!file) {
        byPart[part] = null;
        continue;
      }
      try { // an unreadable or bad skin is a warning: the surfaces fall back to their shader names
        byPart[part] = parseSkin(lib, read(file.path).bytes, { name: file.path });
        for (const w of byPart[part].warnings) warnings.push({ code: w.code, message: `${file.path}: ${w.message}` });
      } catch (err) {
        warnings.push({ code: err.code || 'syntax', message: err.message });
        byPart[part] = null;
      }
    }
    skinFiles.set(skin, byPart);
    return byPart;
  };

  const textureCache = new Map();
  const resolveTexture = (reference) => {
    const key = pathKey(reference);
    if (!textureCache.has(key)) {
      let found = null;
      for (const candidate of textureCandidates(reference)) {
        const file = find(candidate);
        if (file) {
          found = file.path;
          break;
        }
      }
      textureCache.set(key, found);
    }
    return textureCache.get(key);
  };

  const resolveSkin = (skin) => {
    const byPart = skin ? parseSkinFor(skin) : {};
    const surfaces = {};
    const missingFiles = new Set();
    for (const part of Object.keys(parts)) {
      const skinFile = byPart[part];
      if (skin && part !== 'weapon' && !skinFile) missingFiles.add(where(`${part}_${skin}.skin`));
      surfaces[part] = parts[part].model.meshes.map((mesh, index) => {
        const key = surfaceKey(mesh.name || '');
        const entry = skinFile && part !== 'weapon' ? skinFile.surfaces.find((s) => s.name === key) : null;
        const shaders = Array.isArray(mesh.shaders) ? mesh.shaders : mesh.material ? [mesh.material] : [];
        const fromSkin = entry && entry.shader !== '';
        const shader = fromSkin ? entry.shader : shaders[0] || '';
        const texture = shader ? resolveTexture(shader) : null;
        if (shader && !texture) missingFiles.add(normalizePath(shader));
        return { mesh: index, name: mesh.name, shader, source: fromSkin ? 'skin' : 'shader', texture };
      });
    }
    return { skin, surfaces, missingFiles: [...missingFiles] };
  };

  // undefined: the default skin (or the first there is); null: no skin, the MD3 shader names
  let skin = options.skin !== undefined ? options.skin : skinNames.includes('default') ? 'default' : skinNames[0] ?? null;
  if (skin !== null && !skinNames.includes(skin)) {
    warnings.push({ code: 'repaired', message: `no skin '${skin}' (available: ${skinNames.join(', ') || 'none'}); using ${skinNames.includes('default') ? 'default' : 'the shader names'}` });
    skin = skinNames.includes('default') ? 'default' : null;
  }
  const chosen = resolveSkin(skin);
  for (const f of chosen.missingFiles) missing.add(f);

  const byName = new Map(animations.map((a) => [a.name, a]));
  const partFrames = (model, spec, allowed, fallback) => {
    if (!spec) spec = byName.has(fallback) ? { animation: fallback, time: 0 } : { frame: 0 };
    let frames;
    if (spec.animation !== undefined) {
      const anim = byName.get(spec.animation);
      if (!anim) throw new InterquakeError('invalid_argument', `no animation '${spec.animation}'`);
      if (!allowed.includes(anim.part)) {
        throw new InterquakeError('invalid_argument', `${anim.name} animates ${anim.part === 'both' ? 'both parts' : `the ${anim.part}`}, not ${allowed[0]}`);
      }
      const time = Number(spec.time ?? 0);
      if (!Number.isFinite(time)) throw new InterquakeError('invalid_argument', `time must be a finite number, got ${spec.time}`);
      frames = stepFrames(anim, time * 1000);
    } else {
      const f = Number(spec.frame ?? 0);
      if (!Number.isFinite(f)) throw new InterquakeError('invalid_argument', `frame must be a finite number, got ${spec.frame}`);
      frames = { from: Math.floor(f), to: Math.floor(f) + 1, lerp: f - Math.floor(f) };
    }
    const last = Math.max(0, model.frameCount - 1);
    const clamp = (x) => Math.min(Math.max(x, 0), last);
    const from = clamp(frames.from);
    const to = clamp(frames.to);
    const out = { from, to, lerp: from === to ? 0 : frames.lerp };
    out.frame = fractionalFrame(out);
    return out;
  };
  const tagAt = (model, tag, f) => {
    if (!hasTag(model, tag)) return identity();
    if (f.lerp === 0 || f.from === f.to) return model.tagMatrix(tag, f.from);
    if (Math.abs(f.to - f.from) === 1) return model.tagMatrix(tag, f.frame);
    return blendTags(model.tagMatrix(tag, f.from), model.tagMatrix(tag, f.to), f.lerp);
  };

  const player = {
    path: folder,
    name: folder.slice(folder.lastIndexOf('/') + 1),
    lod,
    lods: info.lods || [0],
    skin,
    skins: skinNames,
    parts,
    animations,
    config: config && {
      sex: config.sex, footsteps: config.footsteps, headOffset: config.headOffset,
      fixedLegs: config.fixedLegs, fixedTorso: config.fixedTorso, legsSkip: config.legsSkip, tableEntries: config.tableEntries,
    },
    surfaces: chosen.surfaces,
    missingFiles: [...missing],
    warnings,
    /** The animation called name (e.g. 'LEGS_RUN'), or undefined. */
    animation: (name) => byName.get(name),
    /** Surfaces and textures for any skin name (or null for the MD3 shader names). */
    resolveSkin,
    /** A file's bytes, by game path or path relative to the player's folder; null when absent. */
    readFile: (path) => {
      const f = read(path);
      return f ? f.bytes : null;
    },
    /**
     * Frames and placements at a moment: state.legs / state.torso are { animation, time }
     * (seconds since the animation started) or { frame }; state.both sets both at once.
     */
    pose(state = {}) {
      const legsSpec = state.legs ?? state.both;
      const torsoSpec = state.torso ?? state.both;
      const lower = partFrames(parts.lower.model, legsSpec, ['legs', 'both'], 'LEGS_IDLE');
      const upper = partFrames(parts.upper.model, torsoSpec, ['torso', 'both'], 'TORSO_STAND');
      lower.matrix = identity();
      upper.matrix = tagAt(parts.lower.model, 'tag_torso', lower);
      const head = { from: 0, to: 0, lerp: 0, frame: 0, matrix: multiply(upper.matrix, tagAt(parts.upper.model, 'tag_head', upper)) };
      const result = { lower, upper, head };
      if (parts.weapon) {
        result.weapon = { from: 0, to: 0, lerp: 0, frame: 0, matrix: multiply(upper.matrix, tagAt(parts.upper.model, 'tag_weapon', upper)) };
      }
      return result;
    },
    /** Frees the part models this call loaded (a weapon model passed in is the caller's). */
    dispose() {
      for (const model of loaded) model.dispose();
    },
  };
  return player;
}
