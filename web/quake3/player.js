// Quake 3 players: lower/upper/head MD3s assembled through their tags, animation.cfg,
// .skin files and the Quake 3 texture lookup. The text files are parsed by the C core
// (src/quake3/iq_q3text.c); this module puts the pieces together and steps frames the way
// cgame's CG_RunLerpFrame does (docs/formats.md section 2).

import { InterquakeError, textBytes } from '../core/wasm.js';
import { Archive, checkUse, findPlayers, playerFolders, playerKey, sortSkins, useLimits } from './archive.js';
import { normalizePath, pathKey, textureCandidates } from '../core/paths.js';
import { FileSystem } from './filesystem.js';
import { skinSurfaceName, disposeSymbol } from '../core/model.js';
import { parseAnimationConfig, parseSkin } from './text.js';
import { isShaderScript, shaderLookup } from './shaders.js';
import { IDENTITY, multiply } from '../core/mat4.js';
import { TEAMS, findTeamSkins, findWeapons, headFolders, skinAttempts, skinCandidates, splitSkin, weaponFiles } from './resolve.js';
import { q3Playhead } from './playhead.js';

export { weaponFiles, q3Playhead };

const PARTS = ['lower', 'upper', 'head'];
// What the lookup appends or swaps in, in Quake 3's order (.jpeg is only recognised).

// -- Where files come from: an opened archive, a FileSystem (mountArchives), a Map or a plain
// object of path -> bytes

// find(path) answers where a file is without reading it ({ path } or null); read(path, use)
// also returns its bytes, so textures are located without inflating them. A use caps the
// file's size (and an archive entry's ratio) before it is inflated or copied anywhere.
function fileSource(files, player, overrides) {
  let locate;
  let load;
  let head;
  let paths;
  let limits;
  if (files instanceof Archive || files instanceof FileSystem) {
    limits = overrides ? Object.fromEntries(Object.entries(useLimits(overrides)).map(([use]) =>
      [use, { ...files.limits[use], ...overrides[use] }])) : files.limits;
    locate = (path) => {
      const entry = files.entry(path);
      return entry ? entry.path : null;
    };
    load = (path, use) => files.read(path, use ? { use, ...limits[use] } : {});
    head = (path, n, use) => files.peek(path, n, { use, ...limits[use] });
    paths = files.files;
  } else if (files && typeof files === 'object') {
    const index = new Map();
    const entries = files instanceof Map ? [...files.entries()] : Object.entries(files);
    for (const [path, bytes] of entries) {
      if (bytes == null) continue;
      index.set(pathKey(path), { path: normalizePath(path), bytes: textBytes(bytes, `loadPlayer() file ${path}`) });
    }
    limits = useLimits(overrides);
    locate = (path) => index.get(pathKey(path))?.path ?? null;
    load = (path, use) => {
      const file = index.get(pathKey(path));
      if (use) checkUse(file.path, use, limits[use], file.bytes.length);
      return file.bytes;
    };
    head = (path, n, use) => load(path, use).subarray(0, n);
    paths = [...index.values()].map((f) => f.path);
  } else {
    throw new InterquakeError('invalid_argument', 'loadPlayer() takes an archive from openArchive(), a file system from mountArchives() or an object of path -> bytes');
  }
  const players = findPlayers(paths);
  let folder;
  if (player !== undefined) folder = normalizePath(player).replace(/\/$/, '');
  else if (players.length) folder = players[0].path;
  else throw new InterquakeError('missing_file', 'no Quake 3 player here: no folder holds lower.md3 and upper.md3');
  // models/players/<name> and models/players/characters/<name> name the same player
  const info = players.find((p) => playerKey(p.path) === playerKey(folder)) || { path: folder, skins: [], lods: [0] };
  const prefix = folder ? `${folder}/` : '';
  // A game path, or one relative to the player's folder.
  const find = (path) => {
    const p = normalizePath(path);
    const found = p.toLowerCase().startsWith(prefix.toLowerCase())
      ? locate(p) || (prefix ? locate(p.slice(prefix.length)) : null)
      : locate(p) || locate(prefix + p);
    return found ? { path: found } : null;
  };
  const read = (path, use) => {
    const file = find(path);
    return file ? { path: file.path, bytes: load(file.path, use) } : null;
  };
  // A model's file, refused by its magic before it is read whole (or copied anywhere).
  const readModel = (path) => {
    const file = find(path);
    if (!file) return null;
    checkPartMagic(file.path, head(file.path, 16, 'model')); // 16: the longest magic, IQM's
    return { path: file.path, bytes: load(file.path, 'model') };
  };
  // scripts/*.shader in the file system's order (an archive's directory order, a file set's order),
  // read with the shader caps; parsed by the caller only when a surface needs them.
  const scripts = () => paths.filter(isShaderScript).map((p) => ({ name: p, bytes: load(p, 'shader') }));
  // Archives and file systems do not change: their scripts' parse is kept (with the default caps).
  const cacheKey = (files instanceof Archive || files instanceof FileSystem) && !overrides ? files : null;
  return { find, read, readModel, folder, info, limits, scripts, cacheKey, paths, others: players.length > 1 ? players.map((p) => p.path) : [], weapons: findWeapons(paths) };
}

// What a part file must start with to be read and handed to lib.load (which copies it into the
// heap); checked on the file's first bytes (Archive.peek), before the rest is read.
const PART_MAGIC = { '.md3': 'IDP3', '.iqm': 'INTERQUAKEMODEL\0' };

/** Throws 'unknown_format' unless bytes start with the magic their extension promises. */
function checkPartMagic(path, bytes) {
  const magic = PART_MAGIC[path.slice(path.lastIndexOf('.')).toLowerCase()];
  if (!magic) return;
  const head = String.fromCharCode(...bytes.subarray(0, magic.length));
  if (head !== magic) {
    const shown = JSON.stringify(String.fromCharCode(...bytes.subarray(0, 4)));
    throw new InterquakeError('unknown_format',
      `${path}: starts with ${shown}, not ${JSON.stringify(magic.replace('\0', ''))}; not loaded`, { file: path });
  }
}

const identity = () => IDENTITY.slice(); // a fresh matrix the caller may keep

// -- The Quake 3 clock: the C answers (src/anim/iq_q3play.c, cgame's CG_RunLerpFrame; q3Playhead in playhead.js)

// One number for evaluate(): exact when the two frames are neighbours, else the nearer one.
function fractionalFrame({ from, to, lerp }) {
  if (to === from + 1) return from + lerp;
  if (to === from - 1) return from - lerp;
  return lerp < 0.5 ? from : to;
}

// -- The player

/** Assembles a Quake 3 player. See Interquake.loadPlayer. */
export function loadPlayer(lib, files, options = {}) {
  return new Player(lib, files, options);
}

/**
 * A Quake 3 player (loadPlayer): its parts on their tags, animation.cfg, skins and textures, and
 * the C's Quake 3 clock. After dispose() every method throws 'disposed' (as a Model's do); the
 * data read at load (path, name, skins, surfaces, ...) stays readable.
 */
export class Player {
  constructor(lib, files, options = {}) {
    const source = fileSource(files, options.player, options.limits);
    const { folder, info } = source;
    const warnings = [];
    const missing = new Set();
    if (source.others.length && options.player === undefined) {
      warnings.push({ code: 'ignored_data', message: `several players (${source.others.join(', ')}); loaded ${folder}` });
    }
    const lod = options.lod || 0;
    const team = options.team ?? null;
    if (team !== null && !TEAMS.includes(team)) {
      throw new InterquakeError('invalid_argument', `team must be 'red', 'blue' or null, got ${JSON.stringify(team)}`);
    }
    // cgame's model name and its two folders: models/players/<name>/, models/players/characters/<name>/
    const { name, root, body } = playerFolders(folder);
    const { parts, loaded, headDirs, weaponHand } = loadParts(lib, source, options, { lod, name, root, body }, warnings, missing);
    let config;
    try {
      config = readConfig(lib, source, body, warnings, missing);
    } catch (err) {
      for (const model of loaded) model.dispose();
      throw err;
    }
    const animations = config ? config.animations : [];
    checkFrames(animations, parts, warnings);
    const tags = new TagCache();
    checkTags(parts, tags, warnings);

    const skins = skinResolver(lib, source, parts, { body, headDirs, team }, warnings);
    // undefined: the default skin (or the first there is); null: no skin, the MD3 shader names
    const skinAsked = options.skin !== undefined ? options.skin : skins.names.includes('default') ? 'default' : skins.names[0] ?? null;
    const chosen = skins.resolve(skinAsked);
    warnings.push(...chosen.warnings);
    for (const f of chosen.missingFiles) missing.add(f);

    this._lib = lib;
    this._files = files;
    this._options = options;
    this._read = source.read;
    this._loaded = loaded;
    this._resolveSkin = skins.resolve;
    this._byName = new Map(animations.map((a) => [a.name, a]));
    this._tags = tags;
    this._disposed = false;
    this.path = folder;
    this.name = name;
    this.lod = lod;
    this.lods = info.lods || [0];
    /** The skin in use: the one asked, or what cgame's fallbacks settled on. */
    this.skin = chosen.used;
    /** 'red', 'blue' or null: the team whose skins were looked for (cgame's team game). */
    this.team = team;
    /** The team folders holding skins ('cyborgs' for <folder>/cyborgs/lower_red.skin). */
    this.teams = skins.teams;
    /** The .skin file each part uses (null: none, the MD3 shader names). */
    this.skinFiles = chosen.files;
    /** Skin names: '<skin>' for <part>_<skin>.skin, '<team folder>/<skin>' for team folders. */
    this.skins = skins.names;
    this.parts = parts;
    this.animations = animations;
    this.config = config && {
      sex: config.sex, footsteps: config.footsteps, headOffset: config.headOffset,
      fixedLegs: config.fixedLegs, fixedTorso: config.fixedTorso, legsSkip: config.legsSkip, tableEntries: config.tableEntries,
    };
    this.surfaces = chosen.surfaces;
    /** The weapons these files hold (models/weapons2/<name>/<name>.md3): [{ name, path }]. */
    this.weapons = source.weapons;
    /** The weapon attached ({ path, barrel, flash, hand } paths, null for absent ones), or null. */
    this.weapon = parts.weapon ? {
      path: parts.weapon.path, barrel: parts.barrel?.path ?? null, flash: parts.flash?.path ?? null, hand: weaponHand,
    } : null;
    this.missingFiles = oncePerFile(missing);
    this.warnings = warnings;
    /** The caps by use this player's files were read with. */
    this.limits = source.limits;
  }

  /**
   * The same player loaded again from the same files with some of loadPlayer's options changed
   * ({ weapon, skin, team, lod }: a weapon of null takes it away). A new Player, the caller's to
   * dispose; this one is unchanged.
   */
  withOptions(changes = {}) {
    this._check();
    return new Player(this._lib, this._files, { ...this._options, ...changes });
  }

  _check() {
    if (this._disposed) throw new InterquakeError('disposed', `player${this.path ? ` ${this.path}` : ''} was disposed`);
  }

  /** The animation called name (e.g. 'LEGS_RUN'), or undefined. */
  animation(name) {
    this._check();
    return this._byName.get(name);
  }

  /** Surfaces and textures for any skin name (or null for the MD3 shader names), with cgame's fallbacks. */
  resolveSkin(skin, options = {}) {
    this._check();
    return this._resolveSkin(skin, options);
  }

  /**
   * A file's bytes, by game path or path relative to the player's folder; null when absent.
   * use ('texture', 'shader', ...) applies that use's caps before inflating.
   */
  readFile(path, use) {
    this._check();
    const f = this._read(path, use);
    return f ? f.bytes : null;
  }

  /**
   * Frames and placements at a moment: state.legs / state.torso are { animation, time }
   * (seconds since the animation started), { frame }, or { from, to, lerp } (any two frames of
   * the part: tags are placed between them by the C); state.both sets both at once.
   */
  pose(state = {}) {
    this._check();
    const { parts } = this;
    const tagAt = (model, tag, f) => (this._tags.has(model, tag) ? model.tagMatrixBetween(tag, f.from, f.to, f.lerp) : identity());
    const lower = this._partFrames(parts.lower.model, state.legs ?? state.both, ['legs', 'both'], 'LEGS_IDLE');
    const upper = this._partFrames(parts.upper.model, state.torso ?? state.both, ['torso', 'both'], 'TORSO_STAND');
    lower.matrix = identity();
    upper.matrix = tagAt(parts.lower.model, 'tag_torso', lower);
    const head = { from: 0, to: 0, lerp: 0, frame: 0, matrix: multiply(upper.matrix, tagAt(parts.upper.model, 'tag_head', upper)) };
    const result = { lower, upper, head };
    if (parts.weapon) {
      // CG_AddPlayerWeapon: the gun on the torso's tag_weapon, the barrel on the gun's tag_barrel,
      // the flash on its tag_flash (the barrel's spin and the flash's random roll are left at 0).
      const still = { from: 0, to: 0, lerp: 0, frame: 0 };
      result.weapon = { ...still, matrix: multiply(upper.matrix, tagAt(parts.upper.model, 'tag_weapon', upper)) };
      if (parts.barrel) result.barrel = { ...still, matrix: multiply(result.weapon.matrix, tagAt(parts.weapon.model, 'tag_barrel', still)) };
      if (parts.flash) result.flash = { ...still, matrix: multiply(result.weapon.matrix, tagAt(parts.weapon.model, 'tag_flash', still)) };
    }
    return result;
  }

  // A part's frames for one pose() spec (see pose); the default animation `fallback`, else frame 0.
  _partFrames(model, spec, allowed, fallback) {
    if (!spec) spec = this._byName.has(fallback) ? { animation: fallback, time: 0 } : { frame: 0 };
    let frames;
    if (spec.animation !== undefined) {
      const anim = this._byName.get(spec.animation);
      if (!anim) throw new InterquakeError('invalid_argument', `no animation '${spec.animation}'`);
      if (!allowed.includes(anim.part)) {
        throw new InterquakeError('invalid_argument', `${anim.name} animates ${anim.part === 'both' ? 'both parts' : `the ${anim.part}`}, not ${allowed[0]}`);
      }
      const time = Number(spec.time ?? 0);
      if (!Number.isFinite(time)) throw new InterquakeError('invalid_argument', `time must be a finite number, got ${spec.time}`);
      const h = q3Playhead(this._lib, anim, time, model.frameCount);
      frames = { from: h.from, to: h.to, lerp: h.lerp };
    } else if (spec.from !== undefined) {
      // Any two frames and a blend (a loop seam, a change of animation), as a clock computed them.
      const last = Math.max(0, model.frameCount - 1);
      const frame = (v, what) => {
        if (!Number.isInteger(v)) throw new InterquakeError('invalid_argument', `${what} must be a whole frame number, got ${v}`);
        return Math.min(Math.max(v, 0), last);
      };
      const lerp = Number(spec.lerp ?? 0);
      if (!Number.isFinite(lerp)) throw new InterquakeError('invalid_argument', `lerp must be a finite number, got ${spec.lerp}`);
      frames = { from: frame(spec.from, 'from'), to: frame(spec.to ?? spec.from, 'to'), lerp: Math.min(Math.max(lerp, 0), 1) };
    } else {
      const f = Number(spec.frame ?? 0);
      if (!Number.isFinite(f)) throw new InterquakeError('invalid_argument', `frame must be a finite number, got ${spec.frame}`);
      const last = Math.max(0, model.frameCount - 1);
      const from = Math.min(Math.max(Math.floor(f), 0), last);
      const to = Math.min(Math.max(Math.floor(f) + 1, 0), last);
      frames = { from, to, lerp: from === to ? 0 : f - Math.floor(f) };
    }
    const out = { from: frames.from, to: frames.to, lerp: frames.lerp };
    out.frame = fractionalFrame(out);
    return out;
  }

  /** Frees the part models loadPlayer loaded (a weapon model passed in is the caller's); twice is fine. */
  dispose() {
    if (this._disposed) return;
    this._disposed = true;
    for (const model of this._loaded) model.dispose();
  }
}
if (disposeSymbol) Player.prototype[disposeSymbol] = function dispose() { this.dispose(); };

// -- Assembly: the parts, animation.cfg, frames and tags

// The three parts (and a weapon with its barrel and flash), loaded; on failure every model this
// loaded is freed before the error is thrown.
function loadParts(lib, source, options, { lod, name, root, body }, warnings, missing) {
  const { find, readModel, folder } = source;
  const where = (file) => (folder ? `${folder}/${file}` : file);
  const inFolder = (dir, file) => `${dir ? `${dir}/` : ''}${file}`;
  // The head model: options.head (a player or heads/ name, '*' for heads/ only) or the player's
  // own; cgame's hmodel. Where cgame looks, then (a viewer's last resort, with a warning) the
  // characters/ folder, where cgame never looks for a head.
  const head = options.head !== undefined && options.head !== null && String(options.head) !== '' ? String(options.head) : name; // '' as cgame: the body's
  const headPlaces = headFolders(root, head);
  const cgameHeadDirs = headPlaces.map((h) => h.dir);
  if (head && !head.startsWith('*')) headPlaces.push({ dir: `${root}characters/${head}`, stem: `${root}characters/${head}/head`, outside: true });
  const parts = {};
  // Where the head's skins are looked for: the head's folders (CG_FindClientHeadFile), and the
  // characters/ folder when the head model came from there.
  const headDirs = [...cgameHeadDirs];
  let weaponHand = null;
  const loaded = [];
  try {
    for (const part of PARTS) {
      let file = null;
      // The LOD asked for, then LOD 0, then any other LOD the part exists in (a player shipped
      // with upper_1.md3 only is still a player). The head: its player folder, then heads/.
      const levels = [...new Set([lod, 0, 1, 2, 3, 4])];
      const places = part === 'head' ? headPlaces : body.map((dir) => ({ dir, stem: inFolder(dir, part) }));
      let place = null;
      for (const { stem, ...at } of places) {
        for (const level of levels) {
          const suffix = level ? `_${level}` : '';
          file = readModel(`${stem}${suffix}.md3`) || readModel(`${stem}${suffix}.iqm`);
          if (file) {
            if (level !== lod) {
              warnings.push({ code: 'repaired', message: `${stem.slice(stem.lastIndexOf('/') + 1)}${lod ? `_${lod}` : ''}.md3 is missing; using ${file.path.slice(file.path.lastIndexOf('/') + 1)}` });
              if (lod) missing.add(where(`${part}_${lod}.md3`));
            }
            break;
          }
        }
        if (file) {
          place = at;
          break;
        }
      }
      if (!file) {
        const looked = places.map((at) => `${at.stem}.md3`).filter((p) => p !== where(`${part}.md3`));
        throw new InterquakeError('missing_file', `${where(`${part}.md3`)} is missing${looked.length ? ` (also looked for ${looked.join(', ')})` : ''}`, { file: where(`${part}.md3`) });
      }
      if (place.outside) {
        warnings.push({ code: 'repaired', message: `${file.path}: cgame looks for the head and its skins only in ${cgameHeadDirs.map((d) => `${d}/`).join(' and ')}; loaded from the characters folder` });
        headDirs.push(place.dir);
      }
      const model = lib.load(file.bytes, { name: file.path });
      loaded.push(model);
      parts[part] = { path: file.path, model };
    }
    if (options.weapon !== undefined && options.weapon !== null) {
      let model = options.weapon;
      let path = options.weaponPath;
      if (typeof model === 'string') {
        const names = weaponFiles(model);
        const file = readModel(names.main) || readModel(model);
        if (!file) throw new InterquakeError('missing_file', `weapon ${names.main} is missing`, { file: names.main });
        path = file.path;
        model = lib.load(file.bytes, { name: path });
        loaded.push(model);
        // The spinning barrel (tag_barrel) and the muzzle flash (tag_flash), where shipped; the
        // hand model is only drawn in the first-person view (CG_AddViewWeapon): its path is kept.
        const more = weaponFiles(path);
        for (const extra of ['barrel', 'flash']) {
          const f = readModel(more[extra]);
          if (!f) continue;
          const m = lib.load(f.bytes, { name: f.path });
          loaded.push(m);
          parts[extra] = { path: f.path, model: m };
        }
        weaponHand = find(more.hand)?.path ?? null;
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
  return { parts, loaded, headDirs, weaponHand };
}

// animation.cfg from the body's folders, parsed (null, a warning and a missing file when absent).
function readConfig(lib, { find, read, folder }, body, warnings, missing) {
  const where = (file) => (folder ? `${folder}/${file}` : file);
  const inFolder = (dir, file) => `${dir ? `${dir}/` : ''}${file}`;
  let config = null;
  const cfgFile = body.map((dir) => find(inFolder(dir, 'animation.cfg'))).find(Boolean);
  if (cfgFile) {
    config = parseAnimationConfig(lib, read(cfgFile.path, 'animation').bytes, { name: cfgFile.path });
    for (const w of config.warnings) warnings.push({ code: w.code, message: `${cfgFile.path}: ${w.message}` });
  } else {
    missing.add(where('animation.cfg'));
    warnings.push({ code: 'empty', message: 'no animation.cfg: poses take frame numbers only' });
  }
  return config;
}

// Whether each animation's frames lie inside its part's MD3s (fits; a warning when not).
function checkFrames(animations, parts, warnings) {
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
}

// MD3 tags and IQM/IQE joints alike: tagMatrix() answers null for a name the model lacks.
class TagCache {
  constructor() { this._known = new Map(); }

  has(model, tag) {
    if (!this._known.has(model)) this._known.set(model, new Map());
    const known = this._known.get(model);
    if (!known.has(tag)) known.set(tag, model.tagMatrix(tag, 0) !== null);
    return known.get(tag);
  }
}

// The tags the assembly needs: a missing one leaves the child at its parent's origin, as in Quake 3.
function checkTags(parts, tags, warnings) {
  const needed = [['lower', 'tag_torso', 'upper'], ['upper', 'tag_head', 'head']];
  if (parts.weapon) needed.push(['upper', 'tag_weapon', 'weapon']);
  if (parts.barrel) needed.push(['weapon', 'tag_barrel', 'barrel']);
  if (parts.flash) needed.push(['weapon', 'tag_flash', 'flash']);
  for (const [part, tag, child] of needed) {
    if (!tags.has(parts[part].model, tag)) {
      warnings.push({ code: 'repaired', message: `${parts[part].path} has no ${tag}: ${child} sits at its origin, as in Quake 3` });
    }
  }
}

// -- Skins and textures

/**
 * The player's skins: { names, teams, resolve(skin, { team }) } where resolve gives the surfaces,
 * files, missing files and fallback warning of any skin, as cgame settles them.
 */
function skinResolver(lib, source, parts, { body, headDirs, team }, warnings) {
  const { find, read, info } = source;
  // Where each part's .skin is, as cgame looks (web/quake3/resolve.js): the body's folders for
  // lower and upper, the head's folders for the head.
  const skinDirs = { lower: body, upper: body, head: headDirs };
  const teamSkins = findTeamSkins(source.paths, [...body, ...headDirs]);
  const skinNames = sortSkins([...(info.skins || []), ...teamSkins.skins]);
  const firstFile = (part, skin, forTeam) => {
    for (const c of skinCandidates(part, skin, forTeam, skinDirs[part]).candidates) {
      const f = find(c);
      if (f) return f.path;
    }
    return null;
  };
  // The .skin each part uses for `skin` on `forTeam`, as cgame settles it: the first of
  // skinAttempts() with a file for all three parts (CG_RegisterClientSkin needs all three). When
  // none has one (cgame would load its default model there), each part takes the first file found
  // in that order, then the default skin without team colour, else none (its MD3 shader names).
  const skinPaths = (skin, forTeam) => {
    const tries = skinAttempts(skin, forTeam).map((s) => ({ skin: s, team: forTeam }));
    for (const t of tries) t.files = Object.fromEntries(PARTS.map((part) => [part, firstFile(part, t.skin, forTeam)]));
    const asked = tries[0];
    const wanted = Object.fromEntries(PARTS.map((part) => [part, skinCandidates(part, skin, forTeam, skinDirs[part]).wanted]));
    const lacking = PARTS.filter((part) => !asked.files[part]);
    const complete = tries.find((t) => PARTS.every((part) => t.files[part]));
    if (complete) return { files: complete.files, wanted, lacking, used: complete.skin, complete: true, step: tries.indexOf(complete) };
    if (forTeam) tries.push({ skin: 'default', team: null, files: Object.fromEntries(PARTS.map((part) => [part, firstFile(part, 'default', null)])) });
    const files = {};
    const from = new Set();
    for (const part of PARTS) {
      const t = tries.find((x) => x.files[part]);
      files[part] = t ? t.files[part] : null;
      if (t) from.add(t);
    }
    // The name a picker shows: the first skin that gave any part its file.
    const used = tries.find((t) => from.has(t))?.skin ?? null;
    return { files, wanted, lacking, used, complete: false };
  };
  // A warning naming the skin asked and what is used instead (none when the skin is complete).
  const skinWarning = (skin, forTeam, found) => {
    if (!found.lacking.length && found.complete && found.step === 0) return null;
    const asked = `skin '${skin}'${forTeam ? ` for the ${forTeam} team` : ''}`;
    const none = found.lacking.length === PARTS.length;
    let what = none ? `no ${asked} (available: ${skinNames.join(', ') || 'none'})` : `${asked}: no ${found.lacking.map((part) => found.wanted[part]).join(', ')}`;
    if (found.complete) {
      const { teamFolder } = splitSkin(found.used);
      const why = teamFolder ? ` (cgame's default ${forTeam === 'blue' ? 'blue' : 'red'} team folder)` : none ? '' : ' for every part (cgame uses a skin only when all three parts have one)';
      return `${what}; using '${found.used}'${why}`;
    }
    const each = PARTS.map((part) => `${part} ${found.files[part] ?? 'none (its MD3 shader names)'}`).join(', ');
    what += none ? '' : ', and no skin has all three parts';
    return `${what}; each part uses the first skin file found: ${each}`;
  };
  const parsedSkins = new Map(); // .skin path -> parsed, or null when unreadable
  const parseSkinFile = (path) => {
    if (parsedSkins.has(path)) return parsedSkins.get(path);
    let parsed = null;
    try { // an unreadable or bad skin is a warning: the surfaces fall back to their shader names
      parsed = parseSkin(lib, read(path, 'skin').bytes, { name: path });
      for (const w of parsed.warnings) warnings.push({ code: w.code, message: `${path}: ${w.message}` });
    } catch (err) {
      warnings.push({ code: err.code || 'syntax', message: err.message });
    }
    parsedSkins.set(path, parsed);
    return parsed;
  };

  const textureCache = new Map();
  const resolveTexture = (reference) => {
    const key = pathKey(reference);
    if (!textureCache.has(key)) {
      let found = null;
      for (const candidate of textureCandidates(reference)) { // the one rule (core/paths.js)
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

  // Quake 3's R_FindShader looks for a script block first, then for an image of that name.
  const scriptBlocks = shaderLookup(lib, () => source.scripts(), resolveTexture, warnings, source.cacheKey);

  const resolveSkin = (skin, { team: forTeam = team } = {}) => {
    const found = skin ? skinPaths(skin, forTeam) : { files: {}, wanted: {}, lacking: [], used: null };
    const warning = skin ? skinWarning(skin, forTeam, found) : null;
    const surfaces = {};
    const missingFiles = new Set();
    const files = {};
    for (const part of Object.keys(parts)) {
      const skinned = PARTS.includes(part); // a weapon has no player skin: its MD3 shader names
      const at = skinned ? found.files[part] : null;
      const skinFile = at ? parseSkinFile(at) : null;
      if (skinned && skin) files[part] = at;
      // The file asked for is missing even when the part uses another skin's.
      if (skinned && found.lacking.includes(part)) missingFiles.add(found.wanted[part]);
      surfaces[part] = parts[part].model.meshes.map((mesh, index) => {
        const key = skinSurfaceName(mesh.name || '');
        const entry = skinFile && skinned ? skinFile.surfaces.find((s) => s.name === key) : null;
        const shaders = Array.isArray(mesh.shaders) ? mesh.shaders : mesh.material ? [mesh.material] : [];
        const fromSkin = entry && entry.shader !== '';
        const shader = fromSkin ? entry.shader : shaders[0] || '';
        const script = shader ? scriptBlocks.find(shader) : null;
        const images = script ? scriptBlocks.images(script) : null;
        const texture = script ? scriptBlocks.texture(images) : shader ? resolveTexture(shader) : null;
        // A surface without triangles is never drawn: its texture is not missing. A name a script
        // defines is not missing either; the images its stages name may be.
        if (mesh.triangleCount > 0) {
          if (script) for (const [image, path] of Object.entries(images)) { if (!path) missingFiles.add(normalizePath(image)); }
          else if (shader && !texture) missingFiles.add(normalizePath(shader));
        }
        return { mesh: index, name: mesh.name, shader, source: fromSkin ? 'skin' : 'shader', texture, script, images };
      });
    }
    return {
      skin, used: found.used, team: forTeam, files, surfaces, missingFiles: oncePerFile(missingFiles),
      warnings: warning ? [{ code: 'repaired', message: warning }] : [],
    };
  };
  return { names: skinNames, teams: teamSkins.teams, resolve: resolveSkin };
}

// Paths as the game matches them (pathKey: case, backslashes): each missing file listed once.
function oncePerFile(paths) {
  const byKey = new Map();
  for (const path of paths) if (!byKey.has(pathKey(path))) byKey.set(pathKey(path), path);
  return [...byKey.values()];
}
