// The core of the library object: loading, writing, images, shader support. init() resolves to
// web/quake3/library.js's Interquake, which adds the Quake 3 entry points (archives, players) on
// top of this, so core/ imports nothing from quake3/.

import { InterquakeError, toBytes, instantiate } from './wasm.js';
import { Model } from './model.js';
import { configTextures } from './paths.js';

// The model .cfg code is loaded the first time it is needed: a page that shows one model never
// downloads it (bundlers split it; the one-file element fetches interquake-modelcfg.min.js).
let modelConfigCode = null;
const loadModelConfig = () => (modelConfigCode ??= import('./modelcfg.js').catch((err) => { modelConfigCode = null; throw err; }));
const MODEL_CFG = /(^|[\\/])(iqm|md5|md3|md2|obj|smd)\.cfg$/i;

export class CoreLibrary {
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

  /**
   * The model formats load() reads now, by name, as the C lists them (this build's readers, and the
   * readers' WASM once loaded): what "can read" means to a caller that sorts files (interquake validate).
   */
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
   * and load() hands the formats its own build leaves out (MD5, DPM, ZYM, MDR, MD2, MDL, MDC) to it.
   */
  loadReaders() {
    if (this._readers || !this._readerSource) return Promise.resolve();
    return (this._readersLoading ??= instantiate(this._readerSource).then((wasm) => { this._readers = new CoreLibrary(wasm); },
      (err) => { this._readersLoading = null; throw err; })); // a later call may retry
  }

  /**
   * true when load() reads the format now (format 'framegroups': takes options.framegroups); false
   * when it needs loadReaders() first (or no build reads it).
   */
  readsFormat(format) { return this._reads(format) || Boolean(this._readers?._reads(format)); }

  /**
   * Loads a model (IQM, IQE, MD3, MD5, DPM, ZYM, MDR, MD2, MDL, MDC) from bytes. The format comes
   * from the magic bytes; options.name is used in error messages and by formats that name things
   * after their file (an .md5anim's animation), options.format forces a parser, and
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
    // The file's name, for formats that name something after their file (an .md5anim's animation).
    const heap = wasm.arena(name);
    let handle;
    try {
      handle = wasm.makeWithBytes(input, 'iq_wasm_load', [formatIndex, name == null ? 0 : heap.string(name), wasm.errorPtr], name);
    } finally {
      heap.free();
    }
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
   * (players); options.maxMorphTargets (1..255) per morph mesh; options.front ('x' | 'z'),
   * options.ground (true | a height) and options.scale (a number | 'metres') place the scene on its
   * root node (docs/GLTF.md, "Placement").
   */
  async writeGLB(target, options = {}) {
    this._wasm.need('iq_wasm_write_glb', 'writeGLB()');
    // Loaded on first use: pages that only view models never download the glTF code.
    if (target instanceof Model) {
      if (target._lib !== this) throw new InterquakeError('invalid_argument', 'writeGLB() takes a model loaded by this library');
      const { writeModelGLB } = await import('./gltf.js');
      return writeModelGLB(this, target, options);
    }
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

  // -- Cube 2 / Tesseract / Red Eclipse model .cfg files (web/core/modelcfg.js; docs/MODELCFG.md)

  /** Splits a model .cfg into commands and words (the C's syntax): resolves to { commands, warnings }. */
  async parseModelConfig(input, options) { return (await this._modelConfig(true)).parseModelConfigText(this, input, options); }

  /**
   * What a model .cfg says about its model, exec and if followed: the model file, the skins per
   * mesh, the animations, the transform. files: Map or object of path -> bytes (the .cfg files' bytes).
   */
  async readModelConfig(files, cfgPath) { return (await this._modelConfig(true)).readModelConfig(this, files, cfgPath); }

  /** The texture each mesh of `model` takes from a readModelConfig() result (null: its own). */
  configTextures(config, model) { return configTextures(config, model); }

  /**
   * The model a folder shows as its character: by its .cfg, its name, or the most joints and
   * vertices; with the animation files to attach and the cfg. models: [{ path, bytes }].
   */
  async chooseFolderModel(models, files) {
    const cfg = (files instanceof Map ? [...files.keys()] : Object.keys(files ?? {})).some((p) => MODEL_CFG.test(p));
    // One model and no cfg: that model (a single dropped file loads no more code).
    if (models.length === 1 && !cfg) return { main: models[0], config: null, animationFiles: [], meshes: [...models], unreadable: [], reason: 'the only model', warnings: [] };
    return (await this._modelConfig(cfg)).chooseFolderModel(this, models, files);
  }

  // The model .cfg code, and (parser: a cfg is to be read) the WASM its parser is in: with the
  // one-file element's smaller WASM, interquake-shaders.wasm. When that cannot load, reading a cfg
  // says 'unsupported' (chooseFolderModel: a warning, and the folder opens by its other rules).
  async _modelConfig(parser) {
    const code = await loadModelConfig();
    if (parser && !this.shaderSupport) await this.loadShaderSupport().catch(() => {});
    return code;
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
}
