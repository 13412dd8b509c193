// Several .pk3 archives and loose files as one Quake 3 file system, with the engine's precedence
// (ioquake3 code/qcommon/files.c): FS_AddGameDirectory sorts a folder's pk3s by name (paksort,
// FS_PathCmp) and puts each in front of the search path, so a later name wins (pak1 over pak0);
// ioquake3 then puts the folder's loose files in front of them all (Quake 3 1.32 as released put
// them behind). A path is read from the first source on the search path that holds it, and
// FS_ListFiles lists the sources in that order, each path once (where it is first met). That order
// is what parseShaders reads scripts/*.shader in. Paths match as in an Archive (pathKey).

import { InterquakeError, textBytes } from '../core/wasm.js';
import { disposeSymbol } from '../core/model.js';
import { Archive, checkUse, findPlayers, useLimits } from './archive.js';
import { crc32 } from '../core/crc32.js';
import { MODEL_EXTENSIONS, extensionOf, normalizePath, pathKey } from '../core/paths.js';

/** How mountArchives orders its sources (later in a load order wins). */
export const MOUNT_ORDERS = ['ioquake3', 'retail', 'given'];

/**
 * FS_PathCmp: a-z compared as A-Z, '\' and ':' as '/', otherwise by character code. Its use of
 * upper case matters: '_' sorts after letters ('zz.pk3' before 'z_mod.pk3').
 */
export function comparePakNames(a, b) {
  const code = (s, i) => {
    let c = i < s.length ? s.charCodeAt(i) : 0;
    if (c >= 0x61 && c <= 0x7a) c -= 0x20;
    if (c === 0x5c || c === 0x3a) c = 0x2f;
    return c;
  };
  for (let i = 0; i <= Math.max(a.length, b.length); i++) {
    const d = code(a, i) - code(b, i);
    if (d) return d < 0 ? -1 : 1;
  }
  return 0;
}

// One loose file set (a game folder's files): path key -> { path, bytes }, in the order given.
function looseSource(files, index) {
  const map = new Map();
  const entries = files instanceof Map ? [...files.entries()] : Object.entries(files);
  const name = `loose files ${index + 1}`;
  for (const [path, data] of entries) {
    if (data == null) continue;
    const p = normalizePath(path);
    if (!p || p.endsWith('/')) continue;
    map.set(p.toLowerCase(), { path: p, bytes: textBytes(data, `mountArchives() file ${path}`) });
  }
  return { name, kind: 'files', loose: map, files: [...map.values()].map((f) => f.path), warnings: [] };
}

/**
 * Joins archives (from openArchive) and loose file sets (Map or object of path -> bytes or text)
 * into one FileSystem. options.order: 'ioquake3' (default: archives by name, later names win;
 * loose files win over every archive), 'retail' (archives by name; loose files lose to every
 * archive, as Quake 3 1.32 shipped), 'given' (the list as given, later entries win).
 * options.limits: caps by use over USE_LIMITS, applied to every read (the archives' own are not used).
 */
export function mountArchives(sources, options = {}) {
  if (!Array.isArray(sources) && !(sources && typeof sources[Symbol.iterator] === 'function')) {
    throw new InterquakeError('invalid_argument', 'mountArchives() takes a list of archives (openArchive) and file sets (path -> bytes)');
  }
  const order = options.order ?? 'ioquake3';
  if (!MOUNT_ORDERS.includes(order)) {
    throw new InterquakeError('invalid_argument', `mountArchives(): order must be ${MOUNT_ORDERS.map((o) => `'${o}'`).join(', ')}, got ${JSON.stringify(order)}`);
  }
  const list = [...sources].map((source, i) => {
    if (source instanceof Archive) {
      return { name: source.name ?? `archive ${i + 1}`, sortName: source.name ?? '', kind: 'archive', archive: source, files: source.files, warnings: source.warnings };
    }
    if (source instanceof FileSystem) {
      throw new InterquakeError('invalid_argument', 'mountArchives(): a FileSystem cannot be mounted again; pass its archives');
    }
    if (source && typeof source === 'object' && !ArrayBuffer.isView(source) && !(source instanceof ArrayBuffer)) return looseSource(source, i);
    throw new InterquakeError('invalid_argument', `mountArchives(): source ${i + 1} is neither an archive from openArchive() nor a Map or object of path -> bytes (open bytes with openArchive first)`);
  });
  let loadOrder = list;
  if (order !== 'given') {
    // Array.prototype.sort is stable: archives of one name keep the order given.
    const archives = list.filter((s) => s.kind === 'archive').sort((a, b) => comparePakNames(a.sortName, b.sortName));
    const loose = list.filter((s) => s.kind === 'files');
    loadOrder = order === 'ioquake3' ? [...archives, ...loose] : [...loose, ...archives];
  }
  return new FileSystem([...loadOrder].reverse(), useLimits(options.limits));
}

export class FileSystem {
  /** searchPath: the sources, the one that wins first (as fs_searchpaths). Made by mountArchives. */
  constructor(searchPath, limits = useLimits()) {
    this._search = searchPath;
    /** The caps read(path, { use }) applies to a file from any source. */
    this.limits = limits;
    /** The sources, the one that wins first: [{ name, kind: 'archive' | 'files', files (count) }]. */
    this.sources = searchPath.map((s) => ({ name: s.name, kind: s.kind, files: s.files.length }));
    this.name = this.sources.map((s) => s.name).join(' + ');
    /** Each source's warnings, its name in front. */
    this.warnings = [];
    for (const s of searchPath) for (const w of s.warnings) this.warnings.push({ ...w, message: `${s.name}: ${w.message}` });
    // key -> { source, path }: the first source of the search path that holds the path.
    this._index = new Map();
    for (const source of searchPath) {
      for (const path of source.files) {
        const key = pathKey(path);
        if (!this._index.has(key)) this._index.set(key, { source, path });
      }
    }
    /** Every path once, as FS_ListFiles lists them: source by source, the winning one first. */
    this.files = [...this._index.values()].map((e) => e.path);
    /** Every model file (MODEL_EXTENSIONS). */
    this.models = this.files.filter((path) => MODEL_EXTENSIONS.includes(extensionOf(path)));
    /** Quake 3 players across every source. */
    this.players = findPlayers(this.files);
  }

  /** True when some source holds path (case-insensitive, '\' or '/'). */
  has(path) {
    return this._index.has(pathKey(path));
  }

  /** Directory information for path from the source that wins, with that source's name; or null. */
  entry(path) {
    const hit = this._index.get(pathKey(path));
    if (!hit) return null;
    if (hit.source.kind === 'archive') return { ...hit.source.archive.entry(hit.path), source: hit.source.name };
    const file = hit.source.loose.get(pathKey(hit.path));
    const out = { path: file.path, size: file.bytes.length, compressedSize: file.bytes.length, method: 0, source: hit.source.name };
    // computed when read, once: loadPlayer locates files by entry() and never needs it
    Object.defineProperty(out, 'crc32', { enumerable: true, get: () => (file.crc32 ??= crc32(file.bytes)) });
    return out;
  }

  /** The name of the source path is read from, or null. */
  sourceOf(path) {
    return this._index.get(pathKey(path))?.source.name ?? null;
  }

  /**
   * The bytes of path (a fresh copy) from the source that wins, or null when none holds it.
   * options.use caps it by this.limits[use] (options.maxSize / maxRatio for this read) before
   * anything is inflated or copied; errors as Archive.read.
   */
  read(path, options = {}) {
    const hit = this._readable(path, options, 'read()');
    if (!hit) return null;
    if (hit.archive) return hit.archive.read(hit.path, hit.caps);
    return hit.file.bytes.slice();
  }

  /** The first n bytes of path (see Archive.peek), or null when no source holds it. */
  peek(path, n, options = {}) {
    if (!Number.isSafeInteger(n) || n < 0) {
      throw new InterquakeError('invalid_argument', `peek(): n must be a whole number of bytes, not ${n}`, { file: String(path) });
    }
    const hit = this._readable(path, options, 'peek()');
    if (!hit) return null;
    if (hit.archive) return hit.archive.peek(hit.path, n, hit.caps);
    return hit.file.bytes.slice(0, n);
  }

  /** Lets go of the sources (the archives themselves stay usable: they are the caller's). */
  dispose() {
    this._index.clear();
    this._search = [];
  }

  // Where path is read from and the caps that apply: { archive, path, caps } or { file } after a
  // loose file passed its caps; null when absent.
  _readable(path, options, what) {
    const hit = this._index.get(pathKey(path));
    if (!hit) return null;
    const { use } = options;
    let caps = null;
    if (use !== undefined || options.maxSize !== undefined || options.maxRatio !== undefined) {
      if (use !== undefined && !this.limits[use]) {
        throw new InterquakeError('invalid_argument', `${what}: no use '${use}' (${Object.keys(this.limits).join(', ')})`, { file: hit.path });
      }
      caps = { maxSize: Infinity, maxRatio: Infinity, ...this.limits[use] };
      if (options.maxSize !== undefined) caps.maxSize = options.maxSize;
      if (options.maxRatio !== undefined) caps.maxRatio = options.maxRatio;
    }
    if (hit.source.kind === 'archive') {
      // The archive checks the caps against its directory (size and ratio) before inflating.
      return { archive: hit.source.archive, path: hit.path, caps: caps ? { use, ...caps } : {} };
    }
    const file = hit.source.loose.get(pathKey(hit.path));
    if (caps) checkUse(file.path, use ?? 'requested', caps, file.bytes.length);
    return { file };
  }
}

if (disposeSymbol) FileSystem.prototype[disposeSymbol] = function dispose() { this.dispose(); };
