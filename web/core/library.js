// The library object init() resolves to: loading, writing, images, and the Quake 3 entry points.

import { InterquakeError, toBytes, instantiate } from './wasm.js';
import { Model } from './model.js';
import { openArchive } from '../quake3/archive.js';
import { mountArchives } from '../quake3/filesystem.js';
import { loadPlayer } from '../quake3/player.js';
import { parseAnimationConfig, parseSkin } from '../quake3/text.js';

export class Interquake {
  /**
   * wasm: the instantiated core (web/core/wasm.js); options.shaders: where the shader WASM is when
   * the core has no shader scripts; options.readers: where the WASM with the readers this core
   * leaves out is (the one-file element's: interquake-readers.wasm).
   */
  constructor(wasm, options = {}) {
    this._wasm = wasm;
    this._readerSource = options.readers ?? null;
    this._readers = null; // a library over the readers' WASM, once loadReaders() has fetched it
    this._readersLoading = null;
    // Shader scripts run in the core when it has them (interquake.wasm); the one-file element's
    // smaller core leaves them to interquake-shaders.wasm, instantiated by loadShaderSupport().
    this._shaders = wasm.has('iq_wasm_shader_parse') ? wasm : null;
    this._shaderSource = options.shaders ?? null;
    this._shadersLoading = null;
    /** Frames per second used when neither the options nor the file give a framerate (from the C). */
    this.defaultFramerate = wasm.constants.default.framerate;
    /** The clip rate MD3 models get: the file stores none (from the C). */
    this.md3Framerate = wasm.constants.default.md3Framerate;
    /** Every error code an InterquakeError can carry (the C's IQ_ERROR_LIST), 'none' left out. */
    this.errorCodes = Object.freeze([...wasm.errorCodes].filter((c) => c !== 'none'));
  }

  /** The formats load() reads now, by name (from the C: this build's readers, and the readers' WASM once loaded). */
  get formats() { return Object.keys(this._wasm.constants.format).filter((f) => f !== 'auto' && this.readsFormat(f)); }

  _reads(format) {
    const wasm = this._wasm;
    return format === 'framegroups' ? wasm.has('iq_wasm_apply_framegroups') : wasm.value('iq_wasm_format_readable', wasm.constants.format[format]) === 1;
  }

  /** The format the file's magic bytes name ('md2', 'mdl', ...; 'unknown' for none), whether or not this build reads it. */
  formatOf(bytes) {
    const input = toBytes(bytes, 'formatOf()');
    const wasm = this._wasm;
    const index = wasm.withBytes(input.subarray(0, 64), (ptr, n) => wasm.value('iq_wasm_detect_format', ptr, n));
    return index ? wasm.names.format[index] : 'unknown';
  }

  /**
   * Makes every format readable: resolves at once with interquake.wasm, which reads them all; with
   * the one-file element's smaller WASM, fetches and instantiates interquake-readers.wasm (once),
   * and load() hands the formats its own build leaves out (MD2, MDL, MDC...) to it.
   */
  loadReaders() {
    if (this._readers || !this._readerSource) return Promise.resolve();
    return (this._readersLoading ??= instantiate(this._readerSource).then((wasm) => { this._readers = new Interquake(wasm); },
      (err) => { this._readersLoading = null; throw err; })); // a later call may retry
  }

  /**
   * true when load() reads the format now (format 'framegroups': takes options.framegroups); false
   * when it needs loadReaders() first (or no build reads it).
   */
  readsFormat(format) { return this._reads(format) || Boolean(this._readers?._reads(format)); }

  /**
   * Loads a model (IQM, IQE, MD3, MD2, MDL...) from bytes. The format comes from the magic bytes;
   * options.name is only used in error messages, options.format forces a parser, and
   * options.framegroups (the text of a DarkPlaces `.framegroups` file, string or bytes) names its
   * animations.
   */
  load(bytes, options = {}) {
    const { name, format = 'auto', framegroups } = options;
    const input = toBytes(bytes, 'load()', name);
    const wasm = this._wasm;
    const formatIndex = wasm.constants.format[format];
    if (formatIndex === undefined) throw new InterquakeError('invalid_argument', `unknown format '${format}'`, { file: name });
    // The one-file element's WASM leaves some readers (and .framegroups) to interquake-readers.wasm.
    const wanted = format === 'auto' ? this.formatOf(input) : format;
    if (this._readerSource && ((wanted !== 'unknown' && !this._reads(wanted)) || (framegroups != null && !this._reads('framegroups')))) {
      if (!this._readers) throw new InterquakeError('unavailable', `${wanted}: needs await iq.loadReaders()`, { file: name });
      return this._readers.load(input, options);
    }
    const handle = wasm.makeWithBytes(input, 'iq_wasm_load', [formatIndex, wasm.errorPtr], name);
    const model = new Model(this, handle, name);
    if (framegroups != null) {
      try {
        const text = typeof framegroups === 'string' ? new TextEncoder().encode(framegroups) : toBytes(framegroups, 'load() framegroups', name);
        wasm.withBytes(text, (ptr, n) => wasm.call('iq_wasm_apply_framegroups', [handle, ptr, n, wasm.errorPtr], { file: name }), name);
        model._readRecords();
      } catch (err) {
        model.dispose();
        throw err;
      }
    }
    return model;
  }

  /**
   * Serialises a loaded model (IQM, IQE, or a one-frame MD3) to IQM v2 bytes: a new Uint8Array the
   * caller owns. Frames are quantised to 16 bits per channel (see docs/API-iqe.md for the error bound).
   */
  writeIQM(model) {
    if (!(model instanceof Model) || model._lib !== this) {
      throw new InterquakeError('invalid_argument', 'writeIQM() takes a model loaded by this library');
    }
    model._check();
    const wasm = this._wasm;
    wasm.need('iq_wasm_write_iqm', 'writeIQM()');
    const sizePtr = wasm.scratch;
    const ptr = wasm.make('iq_wasm_write_iqm', [model._handle, sizePtr, wasm.errorPtr], model.name);
    const bytes = wasm.copy(ptr, wasm.u32(sizePtr));
    wasm.free(ptr);
    return bytes;
  }

  /**
   * glTF 2.0 binary of a loaded model or of a player from loadPlayer() (docs/GLTF.md): resolves to
   * { glb, warnings, missingFiles }. A texture that is not found or not readable is a warning and
   * a plain material, never a failure. options.files (models): object/Map of path -> bytes, or
   * function(path) -> bytes | null | Promise, to read textures; options.skin and options.lod
   * (players); options.maxMorphTargets (1..255) per morph mesh.
   */
  async writeGLB(target, options = {}) {
    this._wasm.need('iq_wasm_write_glb', 'writeGLB()');
    // Loaded on first use: pages that only view models never download the glTF code.
    if (target instanceof Model) {
      if (target._lib !== this) throw new InterquakeError('invalid_argument', 'writeGLB() takes a model loaded by this library');
      const { writeModelGLB } = await import('./gltf.js');
      return writeModelGLB(this, target, options);
    }
    const { isPlayer, writePlayerGLB } = await import('../quake3/gltf.js');
    if (isPlayer(target)) return writePlayerGLB(this, target, options);
    throw new InterquakeError('invalid_argument', 'writeGLB() takes a model from load() or a player from loadPlayer()');
  }

  /**
   * Decodes a TGA image (uncompressed or RLE; colour-mapped, grey, 15/16/24/32-bit; either origin)
   * to RGBA8 with the top row first, ready for WebGL with UNPACK_FLIP_Y false.
   * Throws InterquakeError on bad input. options.name is only used in error messages.
   */
  decodeTGA(bytes, options = {}) {
    const { name } = options;
    const input = toBytes(bytes, 'decodeTGA()', name);
    const wasm = this._wasm;
    const image = wasm.makeWithBytes(input, 'iq_wasm_decode_tga', [wasm.errorPtr], name);
    try {
      const { width, height, data } = wasm.read('iq_image', image);
      return { width, height, data: wasm.copy(data, width * height * 4) };
    } finally {
      wasm.value('iq_wasm_image_free', image);
    }
  }

  /** true when shader scripts can be parsed and evaluated now (always with interquake.wasm). */
  get shaderSupport() { return this._shaders !== null; }

  /**
   * Makes shader scripts available: resolves at once with interquake.wasm, which has them; with the
   * one-file element's smaller WASM, fetches and instantiates interquake-shaders.wasm (once).
   */
  loadShaderSupport() {
    if (this._shaders) return Promise.resolve();
    if (!this._shaderSource) {
      return Promise.reject(this._wasm.fail('unsupported', 'shader scripts are not in this WASM build and no shader WASM is known'));
    }
    this._shadersLoading ??= instantiate(this._shaderSource).then((shaders) => {
      shaders.need('iq_wasm_shader_parse', 'shader scripts');
      this._shaders = shaders;
    }).catch((err) => {
      this._shadersLoading = null; // a later call may retry
      throw err;
    });
    return this._shadersLoading;
  }

  /** The WASM shader scripts run in (web/quake3/shaders.js), or an 'unsupported' error. */
  _shaderWasm() {
    if (this._shaders) return this._shaders;
    throw this._wasm.fail('unsupported', 'shader scripts are in interquake-shaders.wasm with this WASM build: await iq.loadShaderSupport() first');
  }

  /** Bytes held by live models in the WASM heap (for leak checks). */
  get liveBytes() { return this._wasm.value('iq_wasm_live_bytes'); }

  /** Current size of the WASM memory in bytes. */
  get memoryBytes() { return this._wasm.heap.byteLength; }

  // -- Quake 3 players and archives (web/quake3/; docs/API-q3.md)

  /** Opens a .pk3/.zip: resolves to an Archive with files, players, models and read(path). */
  openArchive(bytes, options) { return openArchive(this, bytes, options); }

  /**
   * Joins archives (openArchive) and loose file sets into one Quake 3 file system, the one that
   * wins for a path chosen as ioquake3 does (options.order); a FileSystem reads like an Archive.
   */
  mountArchives(sources, options) { return mountArchives(sources, options); }

  /** Assembles a Quake 3 player from an Archive, a FileSystem or an object of path -> bytes. */
  loadPlayer(files, options) { return loadPlayer(this, files, options); }

  /** Parses animation.cfg text or bytes with Quake 3's rules. */
  parseAnimationConfig(input, options) { return parseAnimationConfig(this, input, options); }

  /** Parses a .skin file: { surfaces: [{ name, shader, line }], warnings }. */
  parseSkin(input, options) { return parseSkin(this, input, options); }
}
