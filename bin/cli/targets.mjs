// What a command-line path names: a model file, a folder (a Quake 3 player), a .pk3/.zip, or
// ARCHIVE:PATH (an entry or a player folder inside one); and the files a player or model needs.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { paths } from '../../web/interquake.node.js';
import { InputError } from './errors.mjs';

// The library's lists (web/core/paths.js), as tests on a file name.
const extensionTest = (list) => ({ test: (name) => list.includes(paths.extensionOf(name)) });
export const MODEL_EXT = extensionTest(paths.MODEL_EXTENSIONS);
export const ARCHIVE_EXT = extensionTest(paths.ARCHIVE_EXTENSIONS);

export async function readBytes(path) {
  try {
    return await readFile(path);
  } catch (err) {
    throw new InputError(`${path}: cannot read: ${err.code || err.message}`, err.code === 'EISDIR' ? 'cannot_read' : 'cannot_read');
  }
}

const isZip = (bytes) => bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5);

export async function kindOf(path) {
  let info;
  try {
    info = await stat(path);
  } catch (err) {
    return null;
  }
  return info.isDirectory() ? 'folder' : info.isFile() ? 'file' : null;
}

/** Splits "archive.pk3:path/in/archive" at the first ':' whose left side is a file (the whole path wins when it exists). */
async function splitArchivePath(target) {
  if (await kindOf(target)) return { path: target, inner: null };
  for (let at = target.indexOf(':'); at > 0; at = target.indexOf(':', at + 1)) {
    if ((await kindOf(target.slice(0, at))) === 'file') return { path: target.slice(0, at), inner: target.slice(at + 1) };
  }
  return { path: target, inner: null };
}

/**
 * Opens an archive: from bytes already read, or else from the file itself, read on demand (the
 * directory now, each entry when it is read), so no archive is held whole. The file is opened for
 * each read and closed again: a walk over thousands of archives holds no descriptors.
 */
export async function openArchiveFile(iq, path, bytes) {
  if (bytes) return iq.openArchive(bytes, { name: path });
  let size;
  try {
    size = statSync(path).size;
  } catch (err) {
    throw new InputError(`${path}: cannot read: ${err.code || err.message}`, 'cannot_read');
  }
  const reader = {
    size,
    read(offset, length) {
      const out = new Uint8Array(length);
      const fd = openSync(path, 'r');
      let got = 0;
      try {
        for (let n = 1; got < length && n > 0; got += n) n = readSync(fd, out, got, length - got, offset + got);
      } finally {
        closeSync(fd);
      }
      return got === length ? out : out.subarray(0, got); // short: the archive reports it, located
    },
  };
  return iq.openArchive(reader, { name: path });
}

/** The files of a player folder on disk, keyed by game path when the folder sits under models/players/. */
export async function loadPlayerFolder(iq, dir, options = {}) {
  const abs = resolve(dir).split(sep).join('/');
  const game = /^(.*\/)(models\/players\/[^/]+)$/i.exec(abs);
  const root = game ? game[1] : null;
  const prefix = game ? game[2] : '';
  const files = {};
  // The files of a folder, read side by side (a player folder is dozens of small files).
  const readFolder = async (path, gamePath) => {
    const entries = (await readdir(path, { withFileTypes: true }).catch(() => [])).filter((e) => e.isFile());
    const bytes = await Promise.all(entries.map((e) => readBytes(join(path, e.name))));
    entries.forEach((e, i) => { files[gamePath ? `${gamePath}/${e.name}` : e.name] = bytes[i]; });
  };
  await readFolder(dir, prefix);
  // A weapon (--weapon NAME) lives in the game tree: models/weapons2/NAME/ is read whole (the
  // models and the textures their shaders name).
  if (root && options.weapon) {
    const folder = weaponFolder(options.weapon);
    await readFolder(join(root, folder), folder);
  }
  const load = () => iq.loadPlayer(files, { player: prefix || undefined, skin: options.skin, lod: options.lod, weapon: options.weapon, team: options.team });
  let player = load();
  // Textures often live in other folders of the game tree (sarge's in models/players/grism):
  // read the files each skin's missing references could be, then assemble again.
  if (root && (await addTextures(root, missingOverSkins(player), files))) {
    player.dispose();
    player = load();
  }
  return { player, files };
}

// The folder of a weapon named as the viewer's weapon attribute names it: "machinegun" is
// models/weapons2/machinegun/, a path is its own folder.
function weaponFolder(name) {
  const path = String(name).replace(/\\/g, '/').replace(/\/$/, '');
  if (/\.(md3|iqm)$/i.test(path)) return path.slice(0, Math.max(path.lastIndexOf('/'), 0));
  return path.includes('/') ? path : `models/weapons2/${path}`;
}

export function missingOverSkins(player) {
  const missing = new Set(player.missingFiles);
  for (const skin of player.skins) for (const f of player.resolveSkin(skin).missingFiles) missing.add(f);
  return missing;
}

// A reference's folder is listed once and files whose name starts with its stem are read
// (the loader then picks among .tga/.jpg/.png as the game does).
async function addTextures(root, missing, files) {
  const listings = new Map();
  const added = [];
  for (const reference of missing) {
    const inGame = /(^|\/)(models|textures)\//i.exec(reference);
    const path = inGame ? reference.slice(inGame.index + inGame[1].length) : reference;
    if (path.startsWith('/') || path.split('/').includes('..')) continue;
    const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    const base = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
    const stem = base.includes('.') ? base.slice(0, base.indexOf('.')) : base;
    if (!listings.has(folder)) {
      listings.set(folder, await readdir(join(root, folder), { withFileTypes: true }).catch(() => []));
    }
    for (const entry of listings.get(folder)) {
      const key = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isFile() && entry.name.toLowerCase().startsWith(stem) && !(key in files)) {
        files[key] = readBytes(join(root, folder, entry.name)); // read side by side, awaited below
        added.push(key);
      }
    }
  }
  const bytes = await Promise.all(added.map((key) => files[key]));
  added.forEach((key, i) => { files[key] = bytes[i]; });
  return added.length;
}

export async function isPlayerFolder(dir) {
  const names = await readdir(dir).catch(() => []);
  // Each part in some LOD (lower.md3 or lower_1.md3...), as loadPlayer reads them.
  const parts = new Set(names.map((n) => paths.playerPartOf(n)?.part).filter(Boolean));
  return paths.PLAYER_PARTS.every((part) => parts.has(part));
}

// The archive TARGET names, joined with the --pk3 ones as the game joins a folder's pk3s
// (iq.mountArchives: sorted by the names given, a later name wins); the archive alone without them.
async function withOtherArchives(iq, archive, others) {
  if (!others?.length) return archive;
  const opened = [archive];
  for (const other of others) {
    if ((await kindOf(other)) !== 'file') throw new InputError(`${other}: cannot read: ENOENT (--pk3)`);
    opened.push(await openArchiveFile(iq, other));
  }
  return iq.mountArchives(opened);
}

/** Loads what TARGET names: { kind: 'model' | 'archive' | 'player', ... }. */
export async function openTarget(iq, target, options = {}) {
  const { path, inner } = await splitArchivePath(target);
  const kind = await kindOf(path);
  if (!kind) throw new InputError(`${path}: cannot read: ENOENT`);
  if (options.pk3?.length && kind === 'folder') throw new InputError(`${path}: --pk3 joins archives: TARGET must be a .pk3/.zip or ARCHIVE:PATH`, 'invalid_argument');
  if (kind === 'folder') {
    if (inner !== null) throw new InputError(`${path}: is a folder, not an archive`);
    if (await isPlayerFolder(path)) {
      const { player } = await loadPlayerFolder(iq, path, options);
      return { kind: 'player', path, player, source: 'folder' };
    }
    const folderModel = await openModelFolder(iq, path, options);
    if (folderModel) return folderModel;
    throw new InputError(`${path}: no model in it (and not a Quake 3 player folder: no lower, upper and head models); 'interquake validate ${path}' checks every model in it`, 'not_a_player');
  }
  const bytes = await readBytes(path);
  if (inner === null && (ARCHIVE_EXT.test(path) || (isZip(bytes) && !MODEL_EXT.test(path)))) {
    return { kind: 'archive', path, bytes: bytes.length, archive: await withOtherArchives(iq, await openArchiveFile(iq, path, bytes), options.pk3) };
  }
  if (inner !== null) {
    const archive = await withOtherArchives(iq, await openArchiveFile(iq, path, bytes), options.pk3);
    return openInArchive(iq, archive, path, inner, options);
  }
  if (options.pk3?.length) throw new InputError(`${path}: --pk3 joins archives: TARGET must be a .pk3/.zip or ARCHIVE:PATH`, 'invalid_argument');
  const model = iq.load(bytes, { name: path, format: options.format, framegroups: await framegroupsBeside(path) });
  let warnings = [];
  if (ANIMATED_BESIDE.test(path)) {
    const dir = dirname(path);
    const names = (await readdir(dir).catch(() => [])).sort().map((n) => join(dir, n));
    const read = new Map();
    for (const file of names.filter((n) => ANIMATION_BESIDE.test(n))) read.set(file, await readBytes(file));
    warnings = attachAnimationsBeside(iq, model, path, [...read.keys()], (file) => read.get(file), '');
  }
  return { kind: 'model', path, folder: dirname(path), bytes: bytes.length, model, textures: diskTextures(path), warnings };
}

// MD5 (docs/MD5.md): the .md5anim files in a .md5mesh's folder are its animations, attached in
// name order (each named after its file); one whose joints do not fit is left out with a warning.
const ANIMATED_BESIDE = /\.md5mesh$/i;
const ANIMATION_BESIDE = /\.md5anim$/i;

// A player (its folder) or a model at `inner` in an opened archive: what ARCHIVE:PATH names.
function openInArchive(iq, archive, path, inner, options) {
  const name = `${path}:${inner}`;
  const folder = inner.replace(/\\/g, '/').replace(/\/+$/, '');
  const player = archive.players.find((p) => p.path.toLowerCase() === folder.toLowerCase());
  if (player) {
    return { kind: 'player', path: name, player: iq.loadPlayer(archive, { player: player.path, skin: options.skin, lod: options.lod, weapon: options.weapon, team: options.team }), source: 'archive' };
  }
  const entryBytes = archive.has(inner) ? archive.read(inner) : null;
  if (!entryBytes) {
    const under = archive.models.filter((m) => m.toLowerCase().startsWith(`${folder.toLowerCase()}/`));
    throw new InputError(`${name}: no such entry${under.length ? `; models under it: ${under.slice(0, 5).join(', ')}${under.length > 5 ? ', ...' : ''}` : ''}`, 'missing_file');
  }
  // textures of a model inside an archive: by game path, or beside the model
  const dir = inner.includes('/') ? inner.slice(0, inner.lastIndexOf('/') + 1) : '';
  const textures = (path) => (archive.has(path) ? archive.read(path) : archive.has(dir + path) ? archive.read(dir + path) : null);
  const framegroups = archive.has(`${inner}.framegroups`) ? archive.read(`${inner}.framegroups`) : undefined;
  const model = iq.load(entryBytes, { name, format: options.format, framegroups });
  const warnings = attachAnimationsBeside(iq, model, inner, archive.files.filter((f) => f.toLowerCase().startsWith(dir.toLowerCase())),
    (path) => archive.read(path, { use: 'model' }), `${path}:`);
  return { kind: 'model', path: name, bytes: entryBytes.length, model, textures, warnings };
}

/**
 * What a whole archive opens as a picture, as the element opens `src="x.pk3"` without `model`: its
 * first player, else its main model by the library's folder rule (iq.chooseFolderModel: the one its
 * .cfg loads, one named as its folder, else the most joints and vertices). Returns openTarget's
 * { kind: 'player' | 'model', ... } with `choice`, the path picked; null when it holds no model.
 */
export async function openArchiveMain(iq, archive, path, options = {}) {
  const player = archive.players[0];
  if (player) return { ...openInArchive(iq, archive, path, player.path, options), choice: player.path };
  const models = archive.models.map((m) => ({ path: m, bytes: archive.read(m, { use: 'model' }) }));
  if (!models.length) return null;
  const files = new Map(archive.files.map((f) => [f, /\.(cfg|skin)$/i.test(f) ? archive.read(f) : null]));
  const picked = await iq.chooseFolderModel(models, files);
  if (!picked.main) return null;
  return { ...openInArchive(iq, archive, path, picked.main.path, options), choice: picked.main.path };
}

function attachAnimationsBeside(iq, model, path, siblings, read, prefix) {
  const warnings = [];
  if (!ANIMATED_BESIDE.test(path)) return warnings;
  const folder = (p) => p.replace(/\\/g, '/').replace(/[^/]*$/, '');
  for (const file of siblings.filter((f) => ANIMATION_BESIDE.test(f) && folder(f) === folder(path)).sort()) {
    let source = null;
    try {
      source = iq.load(read(file), { name: `${prefix}${file}` });
      model.attachAnimations(source);
    } catch (err) {
      warnings.push({ code: err.code || 'skeleton_mismatch', message: `${prefix}${file}: not attached (${err.message})` });
    } finally {
      source?.dispose();
    }
  }
  return warnings;
}

const FOLDER_FILES = 4096; // files of a model folder looked at (its cfgs and skins read, its models loaded once)
const FOLDER_DEPTH = 4;

/**
 * A folder of models (Cube 2's packages/models/frankie/, Red Eclipse's actors/player/): the model
 * the game would show as its character (iq.chooseFolderModel: by its .cfg, its name, or the most
 * joints and vertices), its cfg's animation files (or the folder's animation-only files)
 * attached, the texture per mesh from the cfg or the first DarkPlaces skin. null when it holds no model.
 */
async function openModelFolder(iq, dir, options) {
  // Keyed from the folder's own name on ('frankie/Frankie.iqm'), as a dropped folder is in the viewer.
  const top = basename(resolve(dir));
  const files = new Map();
  const walk = async (at, rel, depth) => {
    for (const entry of await readdir(at, { withFileTypes: true }).catch(() => [])) {
      if (files.size >= FOLDER_FILES) return;
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory() && depth < FOLDER_DEPTH) await walk(join(at, entry.name), path, depth + 1);
      else if (entry.isFile()) files.set(path, null);
    }
  };
  await walk(dir, top, 0);
  const onDisk = (key) => join(dir, key.slice(top.length + 1));
  const models = [];
  for (const path of files.keys()) {
    if (MODEL_EXT.test(path)) models.push({ path, bytes: await readBytes(onDisk(path)) });
    else if (/\.(cfg|skin)$/i.test(path)) files.set(path, await readBytes(onDisk(path)));
  }
  if (!models.length) return null;
  const picked = await iq.chooseFolderModel(models, files);
  if (!picked.main) return null;
  const mainPath = onDisk(picked.main.path);
  const model = iq.load(picked.main.bytes, { name: mainPath, format: options.format, framegroups: await framegroupsBeside(mainPath) });
  const warnings = [...picked.warnings];
  for (const file of picked.animationFiles) {
    let source = null;
    try {
      source = iq.load(file.bytes, { name: onDisk(file.path) });
      model.attachAnimations(source);
    } catch (err) {
      warnings.push({ code: err.code || 'skeleton_mismatch', message: `${file.path}: not attached (${err.message})` });
    } finally {
      source?.dispose();
    }
  }
  const skins = picked.config ? [] : await iq.modelSkins(model, files, picked.main.path);
  for (const s of skins) warnings.push(...s.warnings);
  const textureNames = picked.config ? iq.configTextures(picked.config, model) : skins[0]?.textures ?? model.meshes.map(() => null);
  // The cfg's and skins' names are paths in the folder; the model's own names are read as for a model file.
  const beside = diskTextures(mainPath);
  const textures = async (path) => {
    if (!path.startsWith('/') && !path.split('/').includes('..') && path.toLowerCase().startsWith(`${top.toLowerCase()}/`)) {
      const bytes = await readAnyCase(onDisk(path));
      if (bytes) return bytes;
    }
    return beside(path);
  };
  return {
    kind: 'model', path: mainPath, bytes: picked.main.bytes.length, model, textures, textureNames, folder: dir,
    choice: { reason: picked.reason, config: picked.config?.path ?? null, skins: skins.map((s) => s.name), models: picked.meshes.map((m) => m.path) },
    warnings,
  };
}

/** DarkPlaces' `<model>.framegroups` beside a model on disk (it names the model's animations), or undefined. */
export async function framegroupsBeside(modelPath) {
  try {
    return await readFile(`${modelPath}.framegroups`);
  } catch {
    return undefined;
  }
}

// Textures of a model on disk: the path as the model names it from the model's folder, from the
// game folder above a models/ or textures/ folder, or the file name beside the model.
function diskTextures(modelPath) {
  const dir = dirname(resolve(modelPath));
  const game = /^(.*?)[\\/](models|textures)[\\/]/i.exec(dir + sep);
  return async (path) => {
    if (path.startsWith('/') || path.split('/').includes('..')) return null;
    const tries = [join(dir, path), join(dir, basename(path))];
    if (game) tries.splice(1, 0, join(game[1], path));
    for (const file of tries) {
      const bytes = await readAnyCase(file);
      if (bytes) return bytes;
    }
    return null;
  };
}

// A file by its name in any case, as the viewer and archives match names (Body.TGA for body.tga);
// the folders above it as written. null when there is none.
async function readAnyCase(file) {
  try {
    return await readFile(file);
  } catch {
    const name = basename(file).toLowerCase();
    const entries = await readdir(dirname(file)).catch(() => []);
    const found = entries.find((e) => e.toLowerCase() === name);
    return found ? readFile(join(dirname(file), found)).catch(() => null) : null;
  }
}
