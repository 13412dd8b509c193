// Where the viewer's files come from and how a path inside a model finds one.
//
// A FileSet answers "give me the bytes of this path" for every kind of input: a URL (companions are
// fetched next to the model), dropped files and folders, a { path: bytes } object, or an archive.
// Quake paths are matched the way the game matches them: case-insensitive, backslashes as slashes,
// and, because people drop a folder from anywhere inside their game tree, by the longest tail that
// matches (models/players/sarge/band.tga finds sarge/band.tga or band.tga). Textures also try the
// files the one texture rule names (core/paths.js: the other extensions a game would try, .tga,
// .jpg, .png, and the file name alone beside the model); over the network a missing texture costs
// one request, never one per guess.

import { ViewerError } from './errors.js';
import { imageKind } from '../core/images.js';
import { pathKey, extensionOf, textureCandidates, IMAGE_EXTENSIONS, MODEL_EXTENSIONS, ARCHIVE_EXTENSIONS } from '../core/paths.js';

export { extensionOf, MODEL_EXTENSIONS, ARCHIVE_EXTENSIONS };
const dirOf = (path) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '');

/** Bytes as a Uint8Array from anything file-like. */
export async function toBytes(value) {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (typeof Blob !== 'undefined' && value instanceof Blob) return new Uint8Array(await value.arrayBuffer());
  throw new TypeError('expected bytes (Uint8Array, ArrayBuffer) or a Blob');
}

export class FileSet {
  /** entries: Map of normalized path -> { name (as given), read(): Promise<Uint8Array> }. */
  constructor(entries = new Map(), { baseUrl = null, fetcher = null } = {}) {
    this.entries = entries;
    this.baseUrl = baseUrl;       // URL mode: unknown paths are fetched relative to this
    this._fetcher = fetcher;
    this._cache = new Map();
    this.requested = [];          // URLs asked for (URL mode), in order: what a missing texture tried
  }

  /** Files from a picker or a drop (File objects; webkitRelativePath or a relativePath property keeps folders). */
  static fromFiles(files) {
    const entries = new Map();
    for (const file of files) {
      const name = file.relativePath || file.webkitRelativePath || file.name;
      entries.set(pathKey(name), { name, read: async () => new Uint8Array(await file.arrayBuffer()) });
    }
    return new FileSet(entries);
  }

  /** { 'models/players/sarge/lower.md3': bytes, ... } */
  static fromObject(object) {
    const entries = new Map();
    for (const [name, value] of Object.entries(object)) {
      entries.set(pathKey(name), { name, read: () => toBytes(value) });
    }
    return new FileSet(entries);
  }

  /**
   * Companion files fetched next to `url` (one request per path, remembered). Game paths
   * (models/..., textures/...) are fetched from `gameRoot`: given, or the part of the URL before
   * its models/ folder, as a game's data folder is laid out; other paths beside the model.
   */
  static fromUrl(url, fetcher, gameRoot = null) {
    const set = new FileSet(new Map(), { baseUrl: new URL('.', url).href, fetcher });
    const at = set.baseUrl.toLowerCase().lastIndexOf('/models/');
    set.gameRoot = gameRoot ? new URL(gameRoot, url).href : at >= 0 ? set.baseUrl.slice(0, at + 1) : null;
    return set;
  }

  /** Every known path (not those a URL set could still fetch). */
  list() {
    return [...this.entries.keys()];
  }

  /** The entry for `path` by exact or longest-tail match, or null. */
  find(path) {
    const wanted = pathKey(path);
    if (this.entries.has(wanted)) return wanted;
    const parts = wanted.split('/');
    for (let skip = 0; skip < parts.length; skip++) {
      const tail = parts.slice(skip).join('/');
      for (const key of this.entries.keys()) {
        if (key === tail || key.endsWith(`/${tail}`)) return key;
      }
    }
    return null;
  }

  /** The key of `path` among the files, by exact or longest-tail match, or beside the model (`relativeTo`). */
  _key(path, relativeTo) {
    return this.find(path) ?? (relativeTo ? this.find(dirOf(pathKey(relativeTo)) + pathKey(path)) : null);
  }

  /**
   * The one URL a path is asked for on the network (URL mode): a game path (with folders) from
   * the game's root when there is one, else its file name beside the model.
   */
  urlOf(path) {
    const clean = path.replace(/\\/g, '/').replace(/^\/+/, '');
    if (this.gameRoot && clean.includes('/')) return new URL(clean, this.gameRoot).href;
    return new URL(clean.split('/').pop(), this.baseUrl).href;
  }

  /** Bytes of `path`, or null when it cannot be found. `relativeTo`: the model's own path. */
  async read(path, relativeTo = '') {
    const key = this._key(path, relativeTo);
    if (key) return this.entries.get(key).read();
    return this.baseUrl ? this._fetch(this.urlOf(path)) : null;
  }

  // One request per URL, answers (null for a failure) remembered.
  _fetch(url) {
    this.requested.push(url);
    if (!this._cache.has(url)) this._cache.set(url, this._fetcher(url).catch(() => null));
    return this._cache.get(url);
  }

  /**
   * An image for a material or shader name: the files it may be (core/paths.js textureCandidates,
   * the rule the glTF export and the command line use), looked for among the files first; then,
   * for a model opened by URL, one request for the first of them. Returns { path, bytes } or null.
   */
  async readImage(name, relativeTo = '') {
    if (!name) return null;
    const tried = textureCandidates(name, { loose: true });
    for (const path of tried) {
      const key = this._key(path, relativeTo);
      if (key) return { path, bytes: await this.entries.get(key).read() };
    }
    // Over the network, one request: the first candidate that names an image file.
    const first = tried.find((p) => IMAGE_EXTENSIONS.includes(extensionOf(p)));
    if (!this.baseUrl || !first) return null;
    const bytes = await this._fetch(this.urlOf(first));
    return bytes ? { path: first, bytes } : null;
  }
}

/**
 * A function mapping dropped paths to game paths, for a player found at `playerDir`:
 * 'base/models/players/sarge/' strips 'base/'; 'players/sarge/' and 'sarge/' gain 'models/players/'
 * in place of their parent; loose files ('' ) go to models/players/player/.
 */
export function rerootPlayerFiles(playerDir) {
  const at = playerDir.lastIndexOf('models/players/');
  if (at >= 0) {
    const prefix = playerDir.slice(0, at);
    return (key) => (key.startsWith(prefix) ? key.slice(prefix.length) : key);
  }
  if (!playerDir) return (key) => `models/players/player/${key}`;
  const parent = playerDir.replace(/[^/]*\/$/, ''); // the folder that holds the player's folder
  return (key) => (key.startsWith(parent) ? `models/players/${key.slice(parent.length)}` : key);
}

/**
 * Adds `path` to a missing-files list unless the same file is there already: paths are compared
 * as the game compares them (pathKey: case, backslashes), so a/b.tga and A\b.TGA count once.
 */
export function addMissing(list, path) {
  const key = pathKey(path);
  if (!list.some((p) => pathKey(p) === key)) list.push(path);
  return list;
}

/** A list of paths with each file once (see addMissing). */
export const uniquePaths = (paths) => paths.reduce(addMissing, []);

/** What kind of file these bytes are, by magic number first (the library's, with `iq`) and then by name. */
export function sniff(bytes, name = '', iq = null) {
  if (bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 3 && bytes[3] === 4) return 'archive';
  const format = iq ? iq.formatOf(bytes) : 'unknown';
  if (format !== 'unknown') return format;
  const ext = extensionOf(name);
  if (ARCHIVE_EXTENSIONS.includes(ext)) return 'archive';
  if (MODEL_EXTENSIONS.includes(ext)) return ext;
  return 'unknown';
}

/** Decodes an image file to something WebGL takes: { width, height, data } or an ImageBitmap. */
export async function decodeImage(iq, bytes, path) {
  const kind = imageKind(bytes); // by content, as the software renderer decodes (web/core/images.js)
  if (kind === 'tga') {
    if (typeof iq.decodeTGA !== 'function') throw new Error(`${path}: TGA decoding is not available in this build`);
    return iq.decodeTGA(bytes, { name: path });
  }
  const blob = new Blob([bytes], { type: `image/${kind}` });
  return createImageBitmap(blob, { imageOrientation: 'none', premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
}


/** fetch() with progress reports (0..1) and an error that names the URL. */
export async function fetchBytes(url, onProgress = () => {}, init = {}) {
  let response;
  try {
    response = await fetch(url, init);
  } catch (err) {
    throw new ViewerError('fetch_failed', `could not fetch ${url}: ${err.message}`, String(url));
  }
  if (!response.ok) {
    throw new ViewerError('fetch_failed', `could not fetch ${url}: HTTP ${response.status}`, String(url));
  }
  const total = Number(response.headers.get('content-length')) || 0;
  if (!response.body || !total) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    onProgress(1);
    return bytes;
  }
  const reader = response.body.getReader();
  const chunks = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.length;
    onProgress(Math.min(received / total, 1));
  }
  const bytes = new Uint8Array(received);
  let at = 0;
  for (const chunk of chunks) { bytes.set(chunk, at); at += chunk.length; }
  onProgress(1);
  return bytes;
}

/** Files of a drop, folders included (webkitGetAsEntry), with their relative paths. */
export async function filesFromDataTransfer(dataTransfer) {
  const entries = [...dataTransfer.items || []].map((item) => item.webkitGetAsEntry?.()).filter(Boolean);
  if (!entries.length) return [...dataTransfer.files];
  const files = [];
  const walk = async (entry, prefix) => {
    if (entry.isFile) {
      const file = await new Promise((done, fail) => entry.file(done, fail));
      files.push(Object.assign(file, { relativePath: prefix + file.name }));
    } else if (entry.isDirectory) {
      const reader = entry.createReader();
      for (;;) {
        const batch = await new Promise((done, fail) => reader.readEntries(done, fail));
        if (!batch.length) break;
        for (const child of batch) await walk(child, `${prefix}${entry.name}/`);
      }
    }
  };
  for (const entry of entries) await walk(entry, '');
  return files;
}
