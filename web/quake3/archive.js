// .pk3 / .zip archives: the central directory is read and checked by the C core
// (src/quake3/iq_zip.c: bounds, overlaps, ZIP64/multi-disk refusal, zip-bomb limits); entries
// are inflated here with fflate (loaded on first need, so stored-only archives and
// pages that never open an archive do not pay for it) and checked against their
// CRC-32. Paths match case-insensitively with '\' read as '/', as Quake 3 does.
// read(path, { use }) caps an entry by what it is for (USE_LIMITS) before inflating; peek(path, n)
// gives its first bytes (a magic number) without reading it whole.

import { InterquakeError, decodeLatin1 } from '../core/wasm.js';
import { disposeSymbol } from '../core/model.js';

const LOCAL_HEADER_SIZE = 30;
const END_SEARCH = 22 + 65535; // the end record and the longest comment
const METHOD_NAMES = {
  1: 'shrink', 6: 'implode', 9: 'deflate64', 12: 'bzip2', 14: 'lzma', 93: 'zstd', 95: 'xz', 98: 'ppmd', 99: 'AES',
};
// Compressed bytes per fflate push: one push outputs at most ~1032 times its input, so the
// step follows the declared size (a liar is stopped within a few MiB of it), within these bounds.
const INFLATE_STEP_MIN = 4096;
const INFLATE_STEP_MAX = 65536;
const MiB = 1 << 20;
// Compressed bytes per push when only the start of an entry is wanted (peek).
const PEEK_STEP = 1024;

/**
 * What read(path, { use }) accepts for each use: the largest declared size and the highest
 * declared deflate ratio, both checked on the central directory before anything is inflated.
 * Chosen from OpenArena 0.8.8's pk3s (4405 entries; docs/API-q3.md, "Limits by use"):
 * largest real model 4.5 MB, texture 1.8 MB, shader script 88 KB, skin 231 B, animation.cfg
 * 1.2 KB; highest ratios: models 67:1, text 38:1, textures 894:1 (a flat sky).
 */
export const USE_LIMITS = Object.freeze({
  model: Object.freeze({ maxSize: 64 * MiB, maxRatio: 256 }),
  animation: Object.freeze({ maxSize: 19998, maxRatio: 256 }), // cgame refuses animation.cfg of 19999 bytes or more
  skin: Object.freeze({ maxSize: 64 * 1024, maxRatio: 256 }), // 256 surfaces of 64-byte names and paths fit in 33 KB
  shader: Object.freeze({ maxSize: 4 * MiB, maxRatio: 256 }),
  texture: Object.freeze({ maxSize: 64 * MiB + 64 * 1024, maxRatio: 1000 }), // a 4096x4096 32-bit TGA and its headers
});

/** USE_LIMITS with an options.limits override ({ model: { maxSize }, ... }) merged in. */
export function useLimits(overrides) {
  const out = {};
  for (const [use, caps] of Object.entries(USE_LIMITS)) out[use] = { ...caps, ...(overrides && overrides[use]) };
  if (overrides) {
    for (const use of Object.keys(overrides)) {
      if (!out[use]) throw new InterquakeError('invalid_argument', `limits: no use '${use}' (${Object.keys(USE_LIMITS).join(', ')})`);
    }
  }
  return out;
}

/** Throws 'limit' when a file of `size` declared bytes (`compressedSize` packed, deflated) exceeds `caps` for `use`. */
export function checkUse(file, use, caps, size, compressedSize = null) {
  if (size > caps.maxSize) {
    throw new InterquakeError('limit', `${file}: ${size} bytes; ${use} files may have at most ${caps.maxSize} (limits.${use}.maxSize)`, { file });
  }
  if (compressedSize !== null && size > Math.max(compressedSize, 1) * caps.maxRatio) {
    throw new InterquakeError('limit',
      `${file}: ${size} bytes from ${compressedSize} compressed, a ratio over ${caps.maxRatio}:1 for ${use} files (limits.${use}.maxRatio; a zip bomb?)`,
      { file });
  }
}
/** File extensions, lower case without the dot: the one list of each (the viewer reads these too). */
export const MODEL_EXTENSIONS = [
  'iqm', 'iqe', 'md3',
  'md2', 'mdl', // Quake 2, Quake 1 (in the one-file element: interquake-readers.wasm)
  'mdc', // Return to Castle Wolfenstein, Enemy Territory
];
export const ARCHIVE_EXTENSIONS = ['pk3', 'zip'];
/** Images in the order Quake 3's texture lookup tries other extensions (then what OpenArena adds). */
export const IMAGE_EXTENSIONS = ['tga', 'jpg', 'png', 'jpeg'];
/** A path's extension, lower case, without the dot ('' when none). */
export function extensionOf(path) {
  const base = String(path).slice(String(path).replace(/\\/g, '/').lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}
const PLAYER_PART = /^(lower|upper|head)(?:_(\d+))?\.(md3|iqm)$/i;
const PLAYER_SKIN = /^(lower|upper|head)_(.+)\.skin$/i;

/** A game path for matching: '\' -> '/', no leading './' or '/', no doubled slashes. */
export function normalizePath(path) {
  return String(path).replace(/\\/g, '/').replace(/\/{2,}/g, '/').replace(/^(\.\/|\/)+/, '');
}
/** The key a path is matched by (case-insensitive). */
export const pathKey = (path) => normalizePath(path).toLowerCase();

let crcTables = null;
/** CRC-32 (IEEE 802.3, the zip one) of bytes; four bytes a step ("slicing by 4"). */
export function crc32(bytes) {
  if (!crcTables) {
    crcTables = [0, 1, 2, 3].map(() => new Uint32Array(256));
    const [t0, t1, t2, t3] = crcTables;
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      t0[n] = c >>> 0;
    }
    for (let n = 0; n < 256; n++) {
      t1[n] = (t0[t0[n] & 0xff] ^ (t0[n] >>> 8)) >>> 0;
      t2[n] = (t0[t1[n] & 0xff] ^ (t1[n] >>> 8)) >>> 0;
      t3[n] = (t0[t2[n] & 0xff] ^ (t2[n] >>> 8)) >>> 0;
    }
  }
  const [t0, t1, t2, t3] = crcTables;
  let c = 0xffffffff;
  const n = bytes.length;
  const whole = n - (n & 3);
  let i = 0;
  for (; i < whole; i += 4) {
    c ^= bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24);
    c = t3[c & 0xff] ^ t2[(c >>> 8) & 0xff] ^ t1[(c >>> 16) & 0xff] ^ t0[c >>> 24];
  }
  for (; i < n; i++) c = t0[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function asBytes(bytes, what, file) {
  if (bytes instanceof Uint8Array) return bytes;
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  if (ArrayBuffer.isView(bytes)) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  throw new InterquakeError('invalid_argument', `${what} takes a Uint8Array, an ArrayBuffer or a Blob`, { file });
}

// Where the shipped inflater (web/interquake-inflate.min.js, fflate's Inflate bundled by build.sh)
// sits relative to this module: one folder up when this is web/quake3/archive.js as shipped, else
// beside the bundle this was built into (the one-file element). One URL, so a page logs no 404.
// The name is not a literal, so bundlers (which find 'fflate' itself) leave it alone.
const SHIPPED_INFLATER = [/\/quake3\/archive\.js(\?|#|$)/.test(import.meta.url) ? '../interquake-inflate.min.js' : './interquake-inflate.min.js'];

async function loadInflater(given) {
  if (given) {
    if (typeof given.Inflate === 'function') return given;
    throw new InterquakeError('invalid_argument', 'options.fflate must be fflate (an object with Inflate)');
  }
  if (globalThis.fflate && globalThis.fflate.Inflate) return globalThis.fflate; // fflate's UMD build in a <script>
  const tried = [];
  try {
    return await import('fflate'); // Node, bundlers, import maps
  } catch (err) {
    tried.push(`'fflate' (${err.message})`);
  }
  if (typeof document !== 'undefined') {
    for (const name of SHIPPED_INFLATER) {
      const url = new URL(name, import.meta.url).href;
      try {
        const module = await import(/* webpackIgnore: true */ /* @vite-ignore */ url);
        if (module?.Inflate) return module;
      } catch {
        tried.push(url);
      }
    }
  }
  throw new InterquakeError('unavailable',
    `deflated archive entries need an inflater: install fflate (npm install fflate), map 'fflate' in an import map, pass options.fflate, or serve interquake-inflate.min.js beside the element (tried ${tried.join(', ')})`);
}

/** Opens a zip/pk3. See Interquake.openArchive. */
export async function openArchive(lib, bytes, options = {}) {
  const name = options.name ?? (typeof File !== 'undefined' && bytes instanceof File ? bytes.name : undefined);
  // a Blob or File (a dropped .pk3) is read here: this call is async anyway
  if (typeof Blob !== 'undefined' && bytes instanceof Blob) bytes = new Uint8Array(await bytes.arrayBuffer());
  const input = asBytes(bytes, 'openArchive()', name);
  const wasm = lib._wasm;
  const err = wasm.errorPtr;
  const zipLimits = {
    maxTotalSize: options.maxTotalSize || 0, maxEntries: options.maxEntries || 0,
    maxNameLength: options.maxNameLength || 0, maxRatio: options.maxRatio || 0,
  };
  // Only the end record, the directory and the local headers go into the WASM heap, never
  // the whole archive: the heap never grows to an archive's size.
  const entries = [];
  const warnings = [];
  wasm.withRecord('iq_zip_limits', zipLimits, (limitsPtr) => wasm.withRecord('iq_zip_directory', null, (dirPtr) => {
    const tail = input.subarray(Math.max(0, input.length - END_SEARCH));
    wasm.callWithBytes(tail, 'iq_wasm_zip_find_directory', [input.length, limitsPtr, dirPtr, err], { file: name });
    const dir = wasm.read('iq_zip_directory', dirPtr);
    const dirBytes = input.subarray(dir.offset, dir.offset + dir.size);
    const zip = wasm.withBytes(dirBytes, (ptr) => wasm.make('iq_wasm_zip_read_directory', [ptr, dirPtr, limitsPtr, err], name), name);
    try {
      const { entryCount, entries: table } = wasm.read('iq_zip', zip);
      let list = wasm.readArray('iq_zip_entry', table, entryCount);
      // the first 30 bytes of every local header, in entry order (C checked they lie before the directory)
      const headers = new Uint8Array(entryCount * LOCAL_HEADER_SIZE);
      list.forEach((entry, i) => headers.set(input.subarray(entry.localOffset, entry.localOffset + LOCAL_HEADER_SIZE), i * LOCAL_HEADER_SIZE));
      wasm.withBytes(headers, (ptr, n) => wasm.call('iq_wasm_zip_check_local_headers', [zip, ptr, n, err], { file: name }), name);
      const zipInfo = wasm.read('iq_zip', zip);
      list = wasm.readArray('iq_zip_entry', table, entryCount);
      for (const entry of list) {
        entries.push({
          rawName: input.subarray(entry.nameOffset, entry.nameOffset + entry.nameLength),
          dataOffset: entry.dataOffset,
          compressedSize: entry.compressedSize,
          size: entry.uncompressedSize,
          crc32: entry.crc32,
          method: entry.method,
          flags: entry.flags,
        });
      }
      if (zipInfo.warningCount) warnings.push({ code: 'ignored_data', message: zipInfo.warning });
    } finally {
      wasm.value('iq_wasm_zip_free', zip);
    }
  }));
  const limits = useLimits(options.limits); // bad overrides fail here, not on a later read
  const needsInflate = entries.some((entry) => entry.method === 8);
  const inflater = needsInflate ? await loadInflater(options.fflate) : null;
  return new Archive(input, entries, warnings, inflater, name, limits);
}

const utf8 = new TextDecoder('utf-8');

export class Archive {
  constructor(bytes, entries, warnings, inflater, name, limits = useLimits()) {
    this.name = name;
    /** The caps read(path, { use }) applies: USE_LIMITS with openArchive's options.limits merged in. */
    this.limits = limits;
    this.warnings = warnings;
    this._bytes = bytes;
    this._inflater = inflater;
    this._index = new Map();
    const duplicates = [];
    for (const entry of entries) {
      // bit 11: the name is UTF-8; otherwise code page 437, read as Latin-1 byte for byte (exact for ASCII)
      const path = normalizePath(entry.flags & 0x800 ? utf8.decode(entry.rawName) : decodeLatin1(entry.rawName));
      delete entry.rawName;
      entry.path = path;
      if (path.endsWith('/')) continue; // a folder
      const key = path.toLowerCase();
      if (this._index.has(key)) duplicates.push(path);
      this._index.set(key, entry); // the last one wins, as in Quake 3's pk3 hash chains
    }
    if (duplicates.length) {
      this.warnings.push({
        code: 'repaired',
        message: `${duplicates.length} path(s) appear more than once (${duplicates.slice(0, 3).join(', ')}); the last copy is used`,
      });
    }
    /** Every file's path, '/'-separated, in directory order (folders left out). */
    this.files = [...this._index.values()].map((entry) => entry.path);
    /** Every .iqm, .iqe and .md3 inside. */
    this.models = this.files.filter((path) => MODEL_EXTENSIONS.includes(extensionOf(path)));
    /** Quake 3 players: folders holding lower and upper models. */
    this.players = findPlayers(this.files);
  }

  /** Lets go of the archive's bytes (they are JS memory: dropping the Archive does the same). */
  dispose() {
    this._bytes = new Uint8Array(0);
    this._index.clear();
  }

  /** True when the archive holds path (case-insensitive, '\' or '/'). */
  has(path) {
    return this._index.has(pathKey(path));
  }

  /** Directory information for path, or null. */
  entry(path) {
    const e = this._index.get(pathKey(path));
    return e ? { path: e.path, size: e.size, compressedSize: e.compressedSize, method: e.method, crc32: e.crc32 } : null;
  }

  /**
   * The bytes of path (a fresh copy), or null when the archive has no such file. options.use
   * ('model', 'animation', 'skin', 'shader', 'texture') caps the declared size and ratio before
   * anything is inflated (this.limits[use], or options.maxSize / options.maxRatio). Throws an
   * InterquakeError when the entry cannot be read: 'limit' (over a cap, or inflates past its
   * declared size), 'unsupported' (method or encryption), 'bad_deflate', 'bad_checksum'.
   */
  read(path, options = {}) {
    const e = this._readable(path, options, 'read()');
    if (!e) return null;
    const file = e.path;
    const data = this._bytes.subarray(e.dataOffset, e.dataOffset + e.compressedSize);
    const out = e.method === 0 ? data.slice() : inflateEntry(this._inflater, data, e.size, file);
    const crc = crc32(out);
    if (crc !== e.crc32) {
      throw new InterquakeError('bad_checksum',
        `${file}: CRC-32 0x${crc.toString(16).padStart(8, '0')} of the data, the directory says 0x${e.crc32.toString(16).padStart(8, '0')}`,
        { file });
    }
    return out;
  }

  /**
   * The first n bytes of path (all of it when shorter; a fresh copy), or null when the archive has
   * no such file: what a file is, told without reading it whole. A stored entry copies those bytes
   * only; a deflated one is inflated until n bytes came out. The same options and refusals as
   * read() apply first; the CRC-32 covers the whole entry, so only read() checks it.
   */
  peek(path, n, options = {}) {
    if (!Number.isSafeInteger(n) || n < 0) {
      throw new InterquakeError('invalid_argument', `peek(): n must be a whole number of bytes, not ${n}`, { file: String(path) });
    }
    const e = this._readable(path, options, 'peek()');
    if (!e) return null;
    const want = Math.min(n, e.size);
    if (e.method === 0) return this._bytes.slice(e.dataOffset, e.dataOffset + Math.min(want, e.compressedSize));
    return inflatePrefix(this._inflater, this._bytes.subarray(e.dataOffset, e.dataOffset + e.compressedSize), want, e.size, e.path);
  }

  // The entry of path once its caps, encryption and method allow reading it; null when absent.
  _readable(path, options, what) {
    const e = this._index.get(pathKey(path));
    if (!e) return null;
    const file = e.path;
    const { use } = options;
    if (use !== undefined || options.maxSize !== undefined || options.maxRatio !== undefined) {
      if (use !== undefined && !this.limits[use]) {
        throw new InterquakeError('invalid_argument', `${what}: no use '${use}' (${Object.keys(this.limits).join(', ')})`, { file });
      }
      const caps = { maxSize: Infinity, maxRatio: Infinity, ...this.limits[use] };
      if (options.maxSize !== undefined) caps.maxSize = options.maxSize;
      if (options.maxRatio !== undefined) caps.maxRatio = options.maxRatio;
      checkUse(file, use ?? 'requested', caps, e.size, e.method === 8 ? e.compressedSize : null);
    }
    if (e.flags & 1) throw new InterquakeError('unsupported', `${file}: the entry is encrypted`, { file });
    if (e.method !== 0 && e.method !== 8) {
      const method = METHOD_NAMES[e.method] ? ` (${METHOD_NAMES[e.method]})` : '';
      throw new InterquakeError('unsupported',
        `${file}: compression method ${e.method}${method}; only stored (0) and deflate (8) are read`, { file });
    }
    return e;
  }
}

// Inflates into a buffer of exactly the declared size, a slice at a time, and
// stops as soon as the stream produces more: a lying entry cannot make us
// allocate or work much more than its declared size allows (one step past it).
function inflateEntry(fflate, data, size, file) {
  const out = new Uint8Array(size);
  if (size === 0 && data.length === 0) return out;
  let at = 0;
  let done = false;
  const step = Math.min(INFLATE_STEP_MAX, Math.max(INFLATE_STEP_MIN, Math.ceil(size / 1024)));
  const inflater = new fflate.Inflate((chunk, final) => {
    if (at + chunk.length > size) {
      throw new InterquakeError('limit', `${file}: inflates past its declared ${size} bytes (a zip bomb?)`, { file });
    }
    out.set(chunk, at);
    at += chunk.length;
    if (final) done = true;
  });
  try {
    if (data.length === 0) inflater.push(data, true);
    for (let i = 0; i < data.length && !done; i += step) {
      inflater.push(data.subarray(i, i + step), i + step >= data.length);
    }
  } catch (err) {
    if (err instanceof InterquakeError) throw err;
    throw new InterquakeError('bad_deflate', `${file}: the deflate data is corrupt (${err.message})`, { file });
  }
  if (at !== size) {
    throw new InterquakeError('bad_deflate', `${file}: inflated to ${at} bytes, the directory says ${size}`, { file });
  }
  return out;
}

// Inflates until `want` bytes came out, PEEK_STEP compressed bytes a push (one push yields at
// most ~1 MiB), and stops there; like inflateEntry, a stream that outgrows its declared size stops.
function inflatePrefix(fflate, data, want, size, file) {
  const out = new Uint8Array(want);
  if (want === 0) return out;
  let at = 0;
  let produced = 0;
  let done = false;
  const inflater = new fflate.Inflate((chunk, final) => {
    produced += chunk.length;
    if (produced > size) {
      throw new InterquakeError('limit', `${file}: inflates past its declared ${size} bytes (a zip bomb?)`, { file });
    }
    const take = Math.min(chunk.length, want - at);
    if (take > 0) out.set(chunk.subarray(0, take), at);
    at += take;
    if (final) done = true;
  });
  try {
    for (let i = 0; i < data.length && at < want && !done; i += PEEK_STEP) {
      inflater.push(data.subarray(i, i + PEEK_STEP), i + PEEK_STEP >= data.length);
    }
  } catch (err) {
    if (err instanceof InterquakeError) throw err;
    throw new InterquakeError('bad_deflate', `${file}: the deflate data is corrupt (${err.message})`, { file });
  }
  if (at < want) {
    throw new InterquakeError('bad_deflate', `${file}: inflated to ${produced} bytes, the directory says ${size}`, { file });
  }
  return out;
}

const SKIN_ORDER = ['default', 'red', 'blue'];
/** Skin names in the order a picker shows them: default, red, blue, then the rest alphabetically. */
export function sortSkins(names) {
  const rank = (n) => (SKIN_ORDER.includes(n) ? SKIN_ORDER.indexOf(n) : SKIN_ORDER.length);
  return [...new Set(names)].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Where a player's files are, from its folder: cgame's model name is the folder's last name, and
 * it reads models/players/<name>/ then models/players/characters/<name>/ (the MISSIONPACK
 * folder; CG_RegisterClientModelname, CG_FindClientModelFile). A folder inside characters/ is the
 * same model. Returns { name, root (the players folder, '' or ending in '/'), body: [folders] }.
 * A file set keyed relative to the player (folder '') has one folder and no name.
 */
export function playerFolders(folder) {
  const f = normalizePath(folder).replace(/\/$/, '');
  if (!f) return { name: '', root: '', body: [''] };
  const slash = f.lastIndexOf('/');
  const name = f.slice(slash + 1);
  let root = slash < 0 ? '' : f.slice(0, slash + 1);
  if (/(^|\/)characters\/$/i.test(root)) root = root.slice(0, root.length - 'characters/'.length);
  return { name, root, body: [`${root}${name}`, `${root}characters/${name}`] };
}

/** A key for a player whichever of its two folders names it (lower-cased, as the game matches paths). */
export function playerKey(folder) {
  const { root, name } = playerFolders(folder);
  return `${root}${name}`.toLowerCase();
}

/**
 * Players among paths: { path, name, skins, lods } for each folder with lower and upper models.
 * models/players/<name>/ and models/players/characters/<name>/ are one player, as cgame reads
 * each file from the first and then the second: listed once, at the first when it holds a part.
 */
export function findPlayers(paths) {
  const players = new Map();
  for (const path of paths) {
    const slash = path.lastIndexOf('/');
    const folder = slash < 0 ? '' : path.slice(0, slash);
    const base = path.slice(slash + 1);
    const part = PLAYER_PART.exec(base);
    const skin = PLAYER_SKIN.exec(base);
    if (!part && !skin) continue;
    const key = playerKey(folder);
    let info = players.get(key);
    if (!info) players.set(key, (info = { path: null, characters: null, parts: new Map(), skins: [] }));
    const inCharacters = folder.toLowerCase() !== key;
    if (part) {
      if (inCharacters) info.characters ??= folder;
      else info.path ??= folder;
      const lod = part[2] ? Number(part[2]) : 0;
      if (!info.parts.has(lod)) info.parts.set(lod, new Set());
      info.parts.get(lod).add(part[1].toLowerCase());
    } else {
      info.skins.push(skin[2].toLowerCase());
    }
  }
  const list = [];
  for (const info of players.values()) {
    // lower and upper in some LOD each (a part shipped only as upper_1.md3 still makes a player)
    const any = new Set([...info.parts.values()].flatMap((parts) => [...parts]));
    if (!any.has('lower') || !any.has('upper')) continue;
    const lods = [...info.parts.keys()].filter((lod) => info.parts.get(lod).size === 3 || lod === 0).sort((a, b) => a - b);
    if (!lods.length) lods.push(0);
    const path = info.path ?? info.characters;
    list.push({
      path,
      name: path.slice(path.lastIndexOf('/') + 1),
      skins: sortSkins(info.skins),
      lods,
    });
  }
  return list.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

if (disposeSymbol) Archive.prototype[disposeSymbol] = function dispose() { this.dispose(); };
