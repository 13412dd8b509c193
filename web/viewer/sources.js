// What load() was given, turned into files and the thing to open: a URL, a File or Blob, a list of
// files (a dropped folder), { path: bytes }, or an archive (.pk3/.zip). The result is
// { files: FileSet, main: { path, bytes, kind } | null, player?: folder, archive? }.

import { findPlayers, pathKey } from '../archive.js';
import { FileSet, sniff, fetchBytes, extensionOf, MODEL_EXTENSIONS, ARCHIVE_EXTENSIONS } from './assets.js';
import { ViewerError } from './errors.js';

/** Resolves `source` (see load()) with the library `iq`; `onProgress(0..1)` while downloading. */
export async function resolveInput(viewer, iq, source, options, onProgress) {
  if (typeof source === 'string' || source instanceof URL) {
    const url = new URL(String(source), document.baseURI);
    const bytes = await fetchBytes(url.href, onProgress);
    const path = decodeURIComponent(url.pathname.split('/').pop() || 'model');
    const kind = options.format && options.format !== 'auto' ? options.format : sniff(bytes, path);
    if (kind === 'archive') return openArchive(viewer, iq, bytes, path);
    const files = FileSet.fromUrl(url.href, (u) => fetchBytes(u), viewer.getAttribute('base-url'));
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
  return pickMain(viewer, iq, files);
}

// Among several files: a Quake 3 player (the library's findPlayers), the first model, or an archive.
async function pickMain(viewer, iq, files) {
  const paths = files.list();
  if (!paths.length) throw new ViewerError('missing_main_file', 'no files were given');
  const player = findPlayers(paths)[0];
  if (player) return { files, main: null, player: player.path ? `${player.path}/` : '' };
  const models = paths.filter((p) => MODEL_EXTENSIONS.includes(extensionOf(p)));
  if (models.length) {
    const preferred = models.sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b))[0];
    const entry = files.entries.get(preferred);
    const bytes = await entry.read();
    return { files, main: { path: entry.name, bytes, kind: sniff(bytes, preferred) } };
  }
  const archive = paths.find((p) => ARCHIVE_EXTENSIONS.includes(extensionOf(p)));
  if (archive) return openArchive(viewer, iq, await files.entries.get(archive).read(), archive);
  throw new ViewerError('missing_main_file', `none of these files is a model (.iqm, .iqe, .md3) or archive (.pk3, .zip): ${paths.slice(0, 8).join(', ')}`);
}

async function openArchive(viewer, iq, bytes, path) {
  if (typeof iq.openArchive !== 'function') {
    throw new ViewerError('unsupported', `${path}: this build of interquake cannot open .pk3/.zip archives`, path);
  }
  const archive = await openWithInflater(viewer, iq, bytes, path);
  const entries = new Map();
  for (const name of archive.files) entries.set(pathKey(name), { name, read: async () => archive.read(name) });
  const files = new FileSet(entries);
  if (archive.players?.length && typeof iq.loadPlayer === 'function') {
    return { files, archive, main: null, player: archive.players[0].path };
  }
  const model = archive.models?.[0];
  if (!model) throw new ViewerError('missing_main_file', `${path} holds no model (.iqm, .iqe, .md3) and no player`, path);
  const modelBytes = archive.read(model);
  return { files, main: { path: model, bytes: modelBytes, kind: sniff(modelBytes, model) } };
}

// The package's web/ folder (set by web/interquake-viewer.js, the entry, whether bundled or not):
// fflate is looked for beside the package.
let webFolder = null;
export function setWebFolder(url) { webFolder = url; }

// Deflated archives need the fflate package. The library finds it as a <script> global or through
// an import map or bundler ('fflate'); when it cannot, the viewer loads fflate from the `fflate`
// attribute's URL (a module when it ends in .mjs or lies in an esm/ folder), or its small UMD
// build with a classic <script> beside this package (node_modules/fflate/ next to
// node_modules/interquake/) or where the dev server maps it, and opens the archive again.
async function openWithInflater(viewer, iq, bytes, path) {
  try {
    return await iq.openArchive(bytes, { name: path });
  } catch (err) {
    if (err?.code !== 'unavailable') throw err;
    const base = webFolder ?? new URL('../', import.meta.url);
    const urls = [viewer.getAttribute('fflate'), new URL('../../fflate/umd/index.js', base).href,
      new URL('/node_modules/fflate/umd/index.js', base).href].filter(Boolean);
    for (const url of urls) {
      if (url.endsWith('.mjs') || url.includes('/esm/')) {
        const module = await import(/* webpackIgnore: true */ url).catch(() => null);
        if (module?.Inflate) return iq.openArchive(bytes, { name: path, fflate: module });
      } else if (await loadScript(url) && globalThis.fflate?.Inflate) {
        return iq.openArchive(bytes, { name: path });
      }
    }
    throw err;
  }
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
