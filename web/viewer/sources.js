// What load() was given, turned into files and the thing to open: a URL, a File or Blob, a list of
// files (a dropped folder), { path: bytes }, or archives (.pk3/.zip; several, with loose files, are
// joined into one Quake 3 file system). The result is
// { files: FileSet, main: { path, bytes, kind } | null, player?: folder, archive?, warnings? }.

import { findPlayers } from '../quake3/archive.js';
import { pathKey } from '../core/paths.js';
import { FileSet, sniff, extensionOf, rerootPlayerFiles, MODEL_EXTENSIONS, ARCHIVE_EXTENSIONS } from './assets.js';
import { ViewerError } from './errors.js';

export const MAX_DROPPED_BYTES = 512 << 20; // dropped files read into memory whole (a player's, loose files beside pk3s)

/**
 * Resolves `source` (see load()) with the library `iq`; `onProgress(0..1)` while downloading.
 * URLs are fetched through `hold` (fetches.js): once per page while the content holds them.
 */
export async function resolveInput(viewer, iq, source, options, onProgress, hold) {
  if (typeof source === 'string' || source instanceof URL) {
    const url = new URL(String(source), document.baseURI);
    // `archives`: more .pk3 URLs joined with an archive src (a mod's player with the game's pak0.pk3).
    const others = (viewer.getAttribute('archives') || '').split(/\s+/).filter(Boolean).map((u) => new URL(u, document.baseURI));
    const share = 1 / (1 + others.length);
    const bytes = await hold.get(url.href, (p) => onProgress(p * share));
    const path = decodeURIComponent(url.pathname.split('/').pop() || 'model');
    const kind = options.format && options.format !== 'auto' ? options.format : sniff(bytes, path, iq);
    if (kind === 'archive' && others.length) return mountFetched(viewer, iq, { url, bytes, path }, others, (i, p) => onProgress((i + 1 + p) * share), options, hold);
    if (kind === 'archive') return chooseInArchive(iq, await openArchive(viewer, iq, bytes, path), path, options);
    const files = FileSet.fromUrl(url.href, (u) => hold.get(u), viewer.getAttribute('base-url'));
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
  return pickMain(viewer, iq, files, options);
}

// Among several files: a Quake 3 player (the library's findPlayers), a model, or archives (then
// every archive and the loose files beside them, as one file system).
// options.model picks one of availableModels (a player folder or a model path); otherwise the
// first player, else the folder's character (choose; never an animation-only file: those are
// attached to it).
async function pickMain(viewer, iq, files, options) {
  const paths = files.list();
  if (!paths.length) throw new ViewerError('missing_main_file', 'no files were given');
  const archives = paths.filter((p) => ARCHIVE_EXTENSIONS.includes(extensionOf(p)));
  if (archives.length) return mountDropped(viewer, iq, files, archives, options);
  const players = findPlayers(paths).map((p) => p.path);
  const modelPaths = paths.filter((p) => MODEL_EXTENSIONS.includes(extensionOf(p)))
    .sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
  if (players.length || modelPaths.length) {
    const read = async (path) => files.entries.get(path).read();
    return choose(iq, { files, players, modelPaths, read, name: (p) => files.entries.get(p).name }, options);
  }
  throw new ViewerError('missing_main_file', `none of these files is a model (.iqm, .iqe, .md3, .md5mesh) or archive (.pk3, .zip): ${paths.slice(0, 8).join(', ')}`);
}

// Sorts the models into meshes and animation-only files and picks what to open: the library's
// rule for a folder (iq.chooseFolderModel: the model its .cfg loads, else one named as its folder,
// else the most joints and vertices; the cfg's textures and animation files go with it). `models`
// is what a picker offers: players' folders and the meshes.
async function choose(iq, { files, archive, players, modelPaths, read, name }, options) {
  const folderOf = (p) => p.slice(0, Math.max(p.lastIndexOf('/'), 0)).toLowerCase();
  const playerFolders = new Set(players.map((p) => p.toLowerCase()));
  const entries = [];
  for (const path of modelPaths.filter((p) => !playerFolders.has(folderOf(p)))) entries.push({ path, bytes: await read(path) });
  // Every path of the folder, with the bytes of its .cfg files (small; a model cfg may exec another).
  const folder = new Map();
  for (const path of files.list()) folder.set(path, /\.cfg$/i.test(path) ? await read(path) : null);
  const picked = await iq.chooseFolderModel(entries, folder);
  const openable = new Set([...picked.meshes, ...picked.unreadable].map((m) => m.path));
  const meshes = entries.filter((e) => openable.has(e.path));
  const models = [...players, ...meshes.map((m) => name(m.path))];
  const wanted = options.model ? String(options.model).toLowerCase().replace(/\/$/, '') : null;
  if (wanted && !models.some((m) => m.toLowerCase() === wanted)) {
    throw new ViewerError('invalid_argument', `no model '${options.model}' here (there are: ${models.join(', ') || 'none'})`);
  }
  const player = wanted ? players.find((p) => p.toLowerCase() === wanted) : players[0];
  // An archive's player is named by its folder; dropped files by the prefix of their paths.
  if (player !== undefined) return { files, archive, main: null, player: archive || !player ? player : `${player}/`, models, choice: player };
  const mainPath = picked.main?.path;
  const mesh = wanted ? meshes.find((m) => name(m.path).toLowerCase() === wanted) : meshes.find((m) => m.path === mainPath);
  if (!mesh) {
    const only = picked.main;
    if (!only) throw new ViewerError('missing_main_file', 'no model to open');
    return { files, main: { path: name(only.path), bytes: only.bytes, kind: sniff(only.bytes, only.path, iq) }, models: [name(only.path)], animationFiles: [], choice: name(only.path) };
  }
  const isPicked = mesh.path === mainPath;
  const animationOnly = entries.filter((e) => !meshes.includes(e));
  return {
    files, main: { path: name(mesh.path), bytes: mesh.bytes, kind: sniff(mesh.bytes, mesh.path, iq) }, models,
    animationFiles: isPicked ? picked.animationFiles.map((f) => ({ path: f.path, bytes: f.bytes })) : animationOnly,
    config: isPicked ? picked.config : null, warnings: isPicked ? picked.warnings : [], choice: name(mesh.path),
  };
}

async function openArchive(viewer, iq, bytes, path) {
  if (typeof iq.openArchive !== 'function') {
    throw new ViewerError('unsupported', `${path}: this build of interquake cannot open .pk3/.zip archives`, path);
  }
  return openWithInflater(viewer, iq, bytes, path);
}

// Dropped archives and the files beside them as Quake 3 sees a game folder (iq.mountArchives:
// later pk3 names win, loose files win over pk3s). Loose paths are taken from the archives' folder
// (a dropped baseoa/ gives baseoa/models/... -> models/...); a loose player folder dropped from
// below the game root is re-rooted as for loose files alone. An archive that fails to open is a
// warning; when none opens and no loose file is a model, the first failure is the error.
async function mountDropped(viewer, iq, files, archives, options) {
  const opened = [];
  const warnings = [];
  let firstError = null;
  for (const path of archives) {
    try {
      opened.push(await openArchive(viewer, iq, await files.entries.get(path).read(), files.entries.get(path).name));
    } catch (err) {
      firstError ??= err;
      warnings.push({ code: err.code || 'unknown_format', message: `${err.message}; the other files are used without it`, file: files.entries.get(path).name });
    }
  }
  // Loose files by their names as dropped ('/'-separated), from the archives' folder on.
  const first = files.entries.get(archives[0]).name.replace(/\\/g, '/');
  const gameDir = first.slice(0, first.lastIndexOf('/') + 1).toLowerCase();
  const looseFiles = [...files.entries].filter(([key]) => !archives.includes(key)).map(([, entry]) => {
    const name = entry.name.replace(/\\/g, '/');
    return { entry, path: name.toLowerCase().startsWith(gameDir) ? name.slice(gameDir.length) : name };
  });
  const loosePlayer = findPlayers(looseFiles.map((f) => f.path)).find((p) => !/(^|\/)models\/players\//i.test(`${p.path}/`));
  const reroot = loosePlayer ? rerootPlayerFiles(loosePlayer.path ? `${loosePlayer.path}/` : '') : (path) => path;
  const loose = new Map();
  let total = 0;
  for (const { entry, path } of looseFiles) {
    const bytes = await entry.read();
    total += bytes.length;
    if (total > MAX_DROPPED_BYTES) throw new ViewerError('limit', `the dropped files beside the archives exceed ${MAX_DROPPED_BYTES >> 20} MiB`);
    loose.set(reroot(path), bytes);
  }
  if (!opened.length && (!loose.size || firstError?.code === 'unavailable')) throw firstError;
  let source;
  if (opened.length === 1 && !loose.size) source = opened[0];
  else if (typeof iq.mountArchives !== 'function') throw new ViewerError('unsupported', 'this build of interquake cannot join several archives');
  else source = iq.mountArchives(loose.size ? [...opened, loose] : opened);
  const chosen = await chooseInArchive(iq, source, source.name || archives.join(' + '), options);
  if (warnings.length) chosen.warnings = [...warnings, ...(chosen.warnings ?? [])];
  return chosen;
}

// An archive src and the `archives` URLs, joined as dropped archives are (mountDropped): one that
// cannot be fetched or opened is a warning, src's own failure the error.
async function mountFetched(viewer, iq, main, others, onProgress, options, hold) {
  const opened = [await openArchive(viewer, iq, main.bytes, main.path)];
  const warnings = [];
  for (const [i, url] of others.entries()) {
    const path = decodeURIComponent(url.pathname.split('/').pop() || 'archive');
    try {
      opened.push(await openArchive(viewer, iq, await hold.get(url.href, (p) => onProgress(i, p)), path));
    } catch (err) {
      warnings.push({ code: err.code || 'fetch_failed', message: `${err.message}; ${main.path} is used without it`, file: url.href });
    }
  }
  const source = opened.length === 1 ? opened[0] : iq.mountArchives(opened);
  const chosen = await chooseInArchive(iq, source, opened.map((a) => a.name ?? main.path).join(' + '), options);
  if (warnings.length) chosen.warnings = [...warnings, ...(chosen.warnings ?? [])];
  return chosen;
}

// A player or model inside an archive or a joined file system.
async function chooseInArchive(iq, archive, path, options) {
  const entries = new Map();
  for (const name of archive.files) entries.set(pathKey(name), { name, read: async () => archive.read(name) });
  const files = new FileSet(entries);
  const players = typeof iq.loadPlayer === 'function' ? (archive.players ?? []).map((p) => p.path) : [];
  const modelPaths = archive.models ?? [];
  if (!players.length && !modelPaths.length) {
    throw new ViewerError('missing_main_file', `${path} holds no model (.iqm, .iqe, .md3, .md5mesh) and no player`, path);
  }
  return choose(iq, { files, archive, players, modelPaths, read: async (p) => archive.read(p), name: (p) => p }, options);
}

// The package's web/ folder (set by web/interquake-viewer.js, the entry, whether bundled or not):
// fflate is looked for beside the package.
let webFolder = null;
export function setWebFolder(url) { webFolder = url; }

// Deflated archives need an inflater. The `fflate` attribute, when set, is the page's choice and
// is used first (fflate's ESM or UMD build, found by trying). Otherwise the library finds one: a
// <script> global, 'fflate' through an import map or a bundler, or interquake-inflate.min.js
// shipped beside the element; failing that, the viewer tries fflate beside the package
// (node_modules/fflate/ next to node_modules/interquake/) or where the dev server maps it.
async function openWithInflater(viewer, iq, bytes, path) {
  const given = viewer.getAttribute('fflate');
  if (given) {
    const fflate = await loadFflate(new URL(given, document.baseURI).href);
    if (!fflate) {
      throw new ViewerError('unavailable', `${path}: deflated entries need an inflater: the fflate attribute's ${given} gave none `
        + "(set it to fflate's esm/browser.js or umd/index.js, or remove it to use interquake-inflate.min.js beside the element)", path);
    }
    return iq.openArchive(bytes, { name: path, fflate });
  }
  try {
    return await iq.openArchive(bytes, { name: path });
  } catch (err) {
    if (err?.code !== 'unavailable') throw err;
    // Not new URL('../', import.meta.url): bundlers take that literal form for an asset (Parcel fails on a folder).
    const here = import.meta.url;
    const base = webFolder ?? new URL('../', here);
    const urls = [new URL('../../fflate/umd/index.js', base).href, new URL('/node_modules/fflate/umd/index.js', base).href];
    for (const url of new Set(urls)) {
      const fflate = await loadFflate(url);
      if (fflate) return iq.openArchive(bytes, { name: path, fflate });
    }
    throw new ViewerError('unavailable', `${path}: deflated entries need an inflater: set the fflate attribute to fflate's build `
      + '(its esm/browser.js or umd/index.js), or serve interquake-inflate.min.js beside the element', path);
  }
}

// fflate from `url`, whichever build it is, found by trying rather than by the file name:
// import() first (the ESM build exports Inflate; the UMD build, run as a module, sets
// self.fflate), then a classic <script> (a UMD build that only runs as one). null: neither worked.
async function loadFflate(url) {
  const module = await import(/* webpackIgnore: true */ /* @vite-ignore */ url).catch(() => null);
  if (module?.Inflate) return module;
  if (module?.default?.Inflate) return module.default;
  if (globalThis.fflate?.Inflate) return globalThis.fflate;
  if (!module && await loadScript(url) && globalThis.fflate?.Inflate) return globalThis.fflate;
  return null;
}

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
