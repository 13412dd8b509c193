// What a command-line path names: a model file, a folder (a Quake 3 player), a .pk3/.zip, or
// ARCHIVE:PATH (an entry or a player folder inside one); and the files a player or model needs.
import { readFile, readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { InputError } from './errors.mjs';

export const MODEL_EXT = /\.(iqm|iqe|md3|md2|mdl|mdc)$/i;
export const ARCHIVE_EXT = /\.(pk3|zip)$/i;
const PART_FILE = /^(lower|upper|head)\.(md3|iqm)$/i;

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

export async function openArchiveFile(iq, path, bytes) {
  return iq.openArchive(bytes || (await readBytes(path)), { name: path });
}

/** The files of a player folder on disk, keyed by game path when the folder sits under models/players/. */
export async function loadPlayerFolder(iq, dir, options = {}) {
  const abs = resolve(dir).split(sep).join('/');
  const game = /^(.*\/)(models\/players\/[^/]+)$/i.exec(abs);
  const root = game ? game[1] : null;
  const prefix = game ? game[2] : '';
  const files = {};
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isFile()) files[prefix ? `${prefix}/${entry.name}` : entry.name] = await readBytes(join(dir, entry.name));
  }
  const load = () => iq.loadPlayer(files, { player: prefix || undefined, skin: options.skin, lod: options.lod });
  let player = load();
  // Textures often live in other folders of the game tree (sarge's in models/players/grism):
  // read the files each skin's missing references could be, then assemble again.
  if (root && (await addTextures(root, missingOverSkins(player), files))) {
    player.dispose();
    player = load();
  }
  return { player, files };
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
  let added = 0;
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
        files[key] = await readBytes(join(root, folder, entry.name));
        added++;
      }
    }
  }
  return added;
}

export async function isPlayerFolder(dir) {
  const names = await readdir(dir).catch(() => []);
  const parts = new Set(names.filter((n) => PART_FILE.test(n)).map((n) => n.toLowerCase().replace(/\.\w+$/, '')));
  return parts.has('lower') && parts.has('upper') && parts.has('head');
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
    if (!(await isPlayerFolder(path))) {
      throw new InputError(`${path}: not a Quake 3 player folder (no lower, upper and head models); 'interquake validate ${path}' checks every model in it`, 'not_a_player');
    }
    const { player } = await loadPlayerFolder(iq, path, options);
    return { kind: 'player', path, player, source: 'folder' };
  }
  const bytes = await readBytes(path);
  if (inner === null && (ARCHIVE_EXT.test(path) || (isZip(bytes) && !MODEL_EXT.test(path)))) {
    return { kind: 'archive', path, bytes: bytes.length, archive: await withOtherArchives(iq, await openArchiveFile(iq, path, bytes), options.pk3) };
  }
  if (inner !== null) {
    const archive = await withOtherArchives(iq, await openArchiveFile(iq, path, bytes), options.pk3);
    const name = `${path}:${inner}`;
    const folder = inner.replace(/\\/g, '/').replace(/\/+$/, '');
    const player = archive.players.find((p) => p.path.toLowerCase() === folder.toLowerCase());
    if (player) {
      return { kind: 'player', path: name, player: iq.loadPlayer(archive, { player: player.path, skin: options.skin, lod: options.lod }), source: 'archive' };
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
    return { kind: 'model', path: name, bytes: entryBytes.length, model: iq.load(entryBytes, { name, format: options.format, framegroups }), textures };
  }
  if (options.pk3?.length) throw new InputError(`${path}: --pk3 joins archives: TARGET must be a .pk3/.zip or ARCHIVE:PATH`, 'invalid_argument');
  const framegroups = await framegroupsBeside(path);
  return { kind: 'model', path, bytes: bytes.length, model: iq.load(bytes, { name: path, format: options.format, framegroups }), textures: diskTextures(path) };
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
      try {
        return await readFile(file);
      } catch {
        // next
      }
    }
    return null;
  };
}
