// interquake: the JS API over the WASM core (the npm entry point).
//
// The WASM module is a standalone reactor with one import, so this file is its
// whole loader: no Emscripten glue. Model data stays in the WASM heap; the
// getters below hand out typed-array views and rebuild them whenever the heap
// has grown (growth detaches every old view), so `model.positions` is always
// live. Keep a `.slice()` if you need a copy that outlives the model.

// The uint32 words iq_wasm_model_info writes, in order (IQ_INFO_FIELDS in src/iq_wasm.c).
const INFO_FIELDS = [
  'format', 'vertexCount', 'triangleCount', 'meshCount', 'jointCount', 'frameCount',
  'animationCount', 'customArrayCount', 'extensionCount', 'warningCount',
  'positions', 'normals', 'texcoords', 'tangents', 'colors', 'blendIndices', 'blendWeights',
  'indices', 'adjacency', 'meshes', 'joints', 'inverseBind', 'framePoses', 'animations',
  'frameBounds', 'customArrays', 'extensions', 'comment', 'commentSize', 'warnings',
  'skinnedPositions', 'skinnedNormals', 'skinnedTangents', 'skinMatrices', 'worldMatrices',
  'localPoses', 'bounds',
];
// The uint32 words iq_wasm_morph_info writes, in order (IQ_MORPH_INFO_FIELDS in src/iq_wasm.c).
const MORPH_INFO_FIELDS = [
  'framePositions', 'frameNormals', 'frameInfo', 'tagCount', 'tagNames', 'tagTransforms',
  'shaderCount', 'shaders',
];
const FORMATS = ['auto', 'iqm', 'iqe', 'md3'];
// iq_component order: the typed array that holds each IQM component format.
const COMPONENT_TYPES = [
  ['byte', Int8Array], ['ubyte', Uint8Array], ['short', Int16Array], ['ushort', Uint16Array],
  ['int', Int32Array], ['uint', Uint32Array], ['half', Uint16Array], ['float', Float32Array],
  ['double', Float64Array],
];

/** Every failure is one of these: `code` is stable, `message` says what and where. */
export class InterquakeError extends Error {
  constructor(code, message, { offset = -1, line = 0, column = 0, file } = {}) {
    super(message);
    this.name = 'InterquakeError';
    this.code = code;
    this.offset = offset;
    this.line = line;
    this.column = column;
    if (file !== undefined) this.file = file;
  }
}

const utf8 = new TextDecoder('utf-8');
const utf8Encoder = new TextEncoder();

// Quake 3 players and archives live in their own modules; they only use this
// module's exports at call time, so the import cycle is harmless.
import { openArchive } from './archive.js';
import { loadPlayer, parseAnimationConfig, parseSkin } from './quake3.js';

let initPromise = null;

// The smallest module that uses a SIMD instruction (i32.const 0; i32x4.splat): engines
// without WASM SIMD reject it, and then the baseline build is loaded instead.
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0,
  10, 8, 1, 6, 0, 65, 0, 253, 17, 11]);
export const simdSupported = () => {
  try { return WebAssembly.validate(SIMD_PROBE); } catch { return false; }
};

/**
 * Compiles and instantiates the WASM once; later calls resolve to the same library.
 * options.wasm: bytes (ArrayBuffer / typed array), a WebAssembly.Module, a Response, or a URL.
 * options.simd: false loads the baseline build even where WASM SIMD works (the default picks
 * interquake.wasm, built with SIMD, when the engine supports it, else interquake-baseline.wasm).
 */
export function init(options = {}) {
  if (!initPromise) {
    const simd = options.simd !== false && simdSupported();
    const wasm = options.wasm ?? (simd ? './interquake.wasm' : './interquake-baseline.wasm');
    initPromise = instantiate(wasm, options.wasm ? undefined : simd).catch((err) => {
      initPromise = null; // let a later call retry (for example with options.wasm)
      throw err;
    });
  }
  return initPromise;
}

async function wasmSource(wasm) {
  if (wasm instanceof WebAssembly.Module || wasm instanceof ArrayBuffer || ArrayBuffer.isView(wasm)) return wasm;
  if (typeof Response !== 'undefined' && wasm instanceof Response) return new Uint8Array(await wasm.arrayBuffer());
  const url = new URL(String(wasm), import.meta.url);
  if (url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    return readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new InterquakeError('wasm_unavailable', `could not fetch ${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function instantiate(wasm, simd) {
  const source = await wasmSource(wasm);
  const imports = {
    // The heap grew: views are rebuilt lazily on the next access.
    env: { emscripten_notify_memory_growth() {} },
  };
  const result = await WebAssembly.instantiate(source, imports);
  const instance = result.instance || result;
  const exports = instance.exports;
  exports._initialize();
  if (exports.iq_wasm_info_field_count() !== INFO_FIELDS.length ||
      exports.iq_wasm_morph_info_field_count() !== MORPH_INFO_FIELDS.length) {
    throw new InterquakeError('wasm_mismatch', 'interquake.wasm does not match interquake.js; rebuild both');
  }
  const library = new Interquake(exports);
  /** true: the SIMD build; false: the baseline build; undefined: a WASM passed to init(). */
  library.simd = simd;
  return library;
}

class Interquake {
  constructor(exports) {
    this._exports = exports;
    this._info = exports.iq_wasm_alloc(INFO_FIELDS.length * 4);
    this._morphInfo = exports.iq_wasm_alloc(MORPH_INFO_FIELDS.length * 4);
    this._matrixOut = exports.iq_wasm_alloc(16 * 4);
  }

  get _heap() {
    return this._exports.memory.buffer;
  }

  _string(ptr) {
    if (!ptr) return '';
    const bytes = new Uint8Array(this._heap);
    let end = ptr;
    while (bytes[end] !== 0) end++;
    return utf8.decode(bytes.subarray(ptr, end));
  }

  /**
   * Loads an IQM or IQE (later MD3) model from bytes. The format comes from the magic bytes;
   * options.name is only used in error messages, options.format forces a parser.
   */
  load(bytes, options = {}) {
    const { name, format = 'auto' } = options;
    let input;
    if (bytes instanceof Uint8Array) input = bytes;
    else if (bytes instanceof ArrayBuffer) input = new Uint8Array(bytes);
    else if (ArrayBuffer.isView(bytes)) input = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    else throw new InterquakeError('invalid_argument', 'load() takes a Uint8Array or an ArrayBuffer', { file: name });
    const formatIndex = FORMATS.indexOf(format);
    if (formatIndex < 0) throw new InterquakeError('invalid_argument', `unknown format '${format}'`, { file: name });

    const e = this._exports;
    const ptr = e.iq_wasm_alloc(input.length);
    if (!ptr) throw new InterquakeError('out_of_memory', `no memory to copy ${input.length} bytes`, { file: name });
    let handle;
    try {
      new Uint8Array(this._heap, ptr, input.length).set(input);
      handle = e.iq_wasm_load(ptr, input.length, formatIndex);
    } finally {
      e.iq_wasm_free(ptr);
    }
    if (!handle) throw this._lastError(name);
    return new Model(this, handle, name);
  }

  /**
   * Serialises a loaded model (IQM or IQE) to IQM v2 bytes: a new Uint8Array the caller owns.
   * Frames are quantised to 16 bits per channel (see docs/API-iqe.md for the error bound).
   */
  writeIQM(model) {
    if (!(model instanceof Model) || model._lib !== this) {
      throw new InterquakeError('invalid_argument', 'writeIQM() takes a model loaded by this library');
    }
    model._check();
    const e = this._exports;
    const sizePtr = e.iq_wasm_alloc(4);
    if (!sizePtr) throw new InterquakeError('out_of_memory', 'no memory for writeIQM');
    try {
      const ptr = e.iq_wasm_write_iqm(model._handle, sizePtr);
      if (!ptr) throw this._lastError(model.name);
      const size = new Uint32Array(this._heap, sizePtr, 1)[0];
      const bytes = new Uint8Array(this._heap, ptr, size).slice();
      e.iq_wasm_free(ptr);
      return bytes;
    } finally {
      e.iq_wasm_free(sizePtr);
    }
  }

  _lastError(file) {
    const e = this._exports;
    const code = this._string(e.iq_wasm_error_name(e.iq_wasm_error_code()));
    const detail = this._string(e.iq_wasm_error_message());
    const offset = e.iq_wasm_error_offset();
    const line = e.iq_wasm_error_line();
    const column = e.iq_wasm_error_column();
    const where = line ? ` (line ${line}, column ${column})` : offset >= 0 ? ` (byte ${offset})` : '';
    const prefix = file ? `${file}: ` : '';
    return new InterquakeError(code, `${prefix}${code}${where}: ${detail}`, { offset, line, column, file });
  }

  // Heap addresses of the animator's result slots (playhead, joint matrix), fetched once.
  _animScratch() {
    if (!this._anim) {
      const at = this._exports.iq_wasm_alloc(8);
      this._exports.iq_wasm_anim_scratch(at);
      const words = new Uint32Array(this._heap, at, 2);
      this._anim = { head: words[0], matrix: words[1] };
      this._exports.iq_wasm_free(at);
    }
    return this._anim;
  }

  /**
   * Decodes a TGA image (uncompressed or RLE; colour-mapped, grey, 15/16/24/32-bit; either origin)
   * to RGBA8 with the top row first, ready for WebGL with UNPACK_FLIP_Y false.
   * Throws InterquakeError on bad input. options.name is only used in error messages.
   */
  decodeTGA(bytes, options = {}) {
    const { name } = options;
    const input = toBytes(bytes, 'decodeTGA', name);
    const e = this._exports;
    const ptr = e.iq_wasm_alloc(input.length);
    if (!ptr) throw new InterquakeError('out_of_memory', `no memory to copy ${input.length} bytes`, { file: name });
    let image;
    try {
      new Uint8Array(this._heap, ptr, input.length).set(input);
      image = e.iq_wasm_decode_tga(ptr, input.length);
    } finally {
      e.iq_wasm_free(ptr);
    }
    if (!image) throw this._lastError(name);
    try {
      const words = new Uint32Array(this._heap, image, 3);
      const [width, height, data] = words;
      return { width, height, data: new Uint8Array(this._heap, data, width * height * 4).slice() };
    } finally {
      e.iq_wasm_image_free(image);
    }
  }

  /** Bytes held by live models in the WASM heap (for leak checks). */
  get liveBytes() {
    return this._exports.iq_wasm_live_bytes();
  }

  /** Current size of the WASM memory in bytes. */
  get memoryBytes() {
    return this._heap.byteLength;
  }

  // -- Quake 3 players and archives (web/quake3.js, web/archive.js; docs/API-q3.md)

  /** Opens a .pk3/.zip: resolves to an Archive with files, players, models and read(path). */
  openArchive(bytes, options) { return openArchive(this, bytes, options); }

  /** Assembles a Quake 3 player from an Archive or an object of path -> bytes. */
  loadPlayer(files, options) { return loadPlayer(this, files, options); }

  /** Parses animation.cfg text or bytes with Quake 3's rules. */
  parseAnimationConfig(input, options) { return parseAnimationConfig(this, input, options); }

  /** Parses a .skin file: { surfaces: [{ name, shader, line }], warnings }. */
  parseSkin(input, options) { return parseSkin(this, input, options); }
}

function toBytes(bytes, what, file) {
  if (bytes instanceof Uint8Array) return bytes;
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  if (ArrayBuffer.isView(bytes)) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  throw new InterquakeError('invalid_argument', `${what}() takes a Uint8Array or an ArrayBuffer`, { file });
}

class Model {
  constructor(library, handle, name) {
    this._lib = library;
    this._handle = handle;
    this._disposed = false;
    this._views = new Map();
    this._viewBuffer = null;
    this.name = name;
    const e = library._exports;
    e.iq_wasm_model_info(handle, library._info);
    const words = new Uint32Array(library._heap, library._info, INFO_FIELDS.length);
    const info = {};
    INFO_FIELDS.forEach((field, i) => { info[field] = words[i]; });
    this._p = info;
    this.format = FORMATS[info.format];
    this.vertexCount = info.vertexCount;
    this.triangleCount = info.triangleCount;
    this.frameCount = info.frameCount;
    this._readRecords();
    this._readMorphRecords();
  }

  // Metadata is small: copy it into plain JS objects once.
  _readRecords() {
    const p = this._p;
    const lib = this._lib;
    const heap = lib._heap;
    const u32 = new Uint32Array(heap);
    const i32 = new Int32Array(heap);
    const f32 = new Float32Array(heap);
    const str = (ptr) => lib._string(ptr);

    this.meshes = [];
    for (let i = 0; i < p.meshCount; i++) {
      const w = (p.meshes + 24 * i) >> 2;
      this.meshes.push({
        name: str(u32[w]), material: str(u32[w + 1]),
        firstVertex: u32[w + 2], vertexCount: u32[w + 3],
        firstTriangle: u32[w + 4], triangleCount: u32[w + 5],
      });
    }
    const transform = (w) => ({
      translate: [f32[w], f32[w + 1], f32[w + 2]],
      rotate: [f32[w + 3], f32[w + 4], f32[w + 5], f32[w + 6]],
      scale: [f32[w + 7], f32[w + 8], f32[w + 9]],
    });
    this.joints = [];
    for (let i = 0; i < p.jointCount; i++) {
      const w = (p.joints + 48 * i) >> 2;
      this.joints.push({ name: str(u32[w]), parent: i32[w + 1], ...transform(w + 2) });
    }
    this.animations = [];
    for (let i = 0; i < p.animationCount; i++) {
      const w = (p.animations + 20 * i) >> 2;
      this.animations.push({
        name: str(u32[w]), firstFrame: u32[w + 1], frameCount: u32[w + 2],
        framerate: f32[w + 3], loop: (u32[w + 4] & 1) !== 0,
      });
    }
    const bw = p.bounds >> 2;
    this.bounds = p.vertexCount
      ? { min: [f32[bw], f32[bw + 1], f32[bw + 2]], max: [f32[bw + 3], f32[bw + 4], f32[bw + 5]],
          xyRadius: f32[bw + 6], radius: f32[bw + 7] }
      : null;
    this.warnings = [];
    for (let i = 0; i < p.warningCount; i++) {
      const at = p.warnings + 164 * i;
      this.warnings.push({ code: str(lib._exports.iq_wasm_warning_name(u32[at >> 2])), message: str(at + 4) });
    }
    this._customs = [];
    for (let i = 0; i < p.customArrayCount; i++) {
      const w = (p.customArrays + 20 * i) >> 2;
      this._customs.push({ name: str(u32[w]), type: u32[w + 1], format: u32[w + 2], size: u32[w + 3], ptr: u32[w + 4] });
    }
    this.extensions = [];
    for (let i = 0; i < p.extensionCount; i++) {
      const w = (p.extensions + 12 * i) >> 2;
      const size = u32[w + 1];
      const data = size ? new Uint8Array(heap, u32[w + 2], size).slice() : new Uint8Array(0);
      this.extensions.push({ name: str(u32[w]), data });
    }
    this.comment = p.commentSize ? utf8.decode(new Uint8Array(heap, p.comment, p.commentSize)) : '';
  }

  _check() {
    if (this._disposed) throw new InterquakeError('disposed', `model${this.name ? ` ${this.name}` : ''} was disposed`);
  }

  // A typed-array view into the heap, rebuilt after memory growth.
  _view(key, Type, ptr, length) {
    this._check();
    if (!ptr) return null;
    const buffer = this._lib._heap;
    if (buffer !== this._viewBuffer) {
      this._views.clear();
      this._viewBuffer = buffer;
    }
    let view = this._views.get(key);
    // Pointers and lengths can change (attachAnimations moves frames): rebuild only what moved.
    if (!view || view.byteOffset !== ptr || view.length !== length) {
      view = new Type(buffer, ptr, length);
      this._views.set(key, view);
    }
    return view;
  }

  get positions() { return this._view('positions', Float32Array, this._p.positions, this.vertexCount * 3); }
  get normals() { return this._view('normals', Float32Array, this._p.normals, this.vertexCount * 3); }
  get texcoords() { return this._view('texcoords', Float32Array, this._p.texcoords, this.vertexCount * 2); }
  get tangents() { return this._view('tangents', Float32Array, this._p.tangents, this.vertexCount * 4); }
  get colors() { return this._view('colors', Float32Array, this._p.colors, this.vertexCount * 4); }
  get blendIndices() { return this._view('blendIndices', Uint16Array, this._p.blendIndices, this.vertexCount * 4); }
  get blendWeights() { return this._view('blendWeights', Float32Array, this._p.blendWeights, this.vertexCount * 4); }
  get indices() { return this._view('indices', Uint32Array, this._p.indices, this.triangleCount * 3); }
  get adjacency() { return this._view('adjacency', Uint32Array, this._p.adjacency, this.triangleCount * 3); }
  /** Per joint, the row-major 3x4 inverse of its bind-pose model-space matrix. */
  get inverseBindMatrices() {
    return this._view('inverseBind', Float32Array, this._p.inverseBind, this.joints.length * 12);
  }
  /** frameCount * joints.length local poses, 10 floats each: translate xyz, rotate xyzw, scale xyz. */
  get framePoses() {
    return this._view('framePoses', Float32Array, this._p.framePoses, this.frameCount * this.joints.length * 10);
  }
  /**
   * Per joint, the row-major 3x4 skin matrix (world * inverse bind) of the last evaluate(),
   * 12 floats each: rows of [r0 r1 r2 t]. The bind pose (identity) before the first call.
   */
  get skinMatrices() { return this._view('skinMatrices', Float32Array, this._p.skinMatrices, this.joints.length * 12); }
  /** Per joint, the row-major 3x4 model-space matrix of the last evaluate(). */
  get worldMatrices() { return this._view('worldMatrices', Float32Array, this._p.worldMatrices, this.joints.length * 12); }
  /** Per frame: min xyz, max xyz, xy radius, radius (8 floats), or null when the file has none. */
  get frameBounds() { return this._view('frameBounds', Float32Array, this._p.frameBounds, this.frameCount * 8); }

  /** Vertex arrays of custom types, in the component format the file stored them in. */
  get customArrays() {
    this._check();
    return this._customs.map((c, i) => {
      const [format, Type] = COMPONENT_TYPES[c.format];
      return { name: c.name, format, size: c.size, data: this._view(`custom${i}`, Type, c.ptr, this.vertexCount * c.size) };
    });
  }

  /**
   * The mesh skinned to global frame `frame` (0..frameCount-1; fractions interpolate toward the
   * next frame, values outside are clamped). With no frames, the bind pose. The returned arrays
   * are views of buffers the model owns: the next evaluate() overwrites them.
   */
  evaluate(frame = 0) {
    this._check();
    if (typeof frame !== 'number' || !Number.isFinite(frame)) {
      throw new InterquakeError('invalid_argument', `evaluate() needs a finite frame number, got ${frame}`);
    }
    this._lib._exports.iq_wasm_evaluate(this._handle, frame);
    const p = this._p;
    return {
      positions: this._view('skinnedPositions', Float32Array, p.skinnedPositions, this.vertexCount * 3),
      normals: this._view('skinnedNormals', Float32Array, p.skinnedNormals, this.vertexCount * 3),
      tangents: this._view('skinnedTangents', Float32Array, p.skinnedTangents, this.vertexCount * 4),
    };
  }

  // -- Animator: playback in time, crossfades, GPU/CPU skinning, joint queries (docs/API-anim.md)

  /** Index of the animation with this name, or -1. */
  findAnimation(name) {
    this._check();
    return this.animations.findIndex((a) => a.name === name);
  }

  /** Index of the joint with this name, or -1. */
  findJoint(name) {
    this._check();
    return this.joints.findIndex((j) => j.name === name);
  }

  /**
   * Where `animation` (index or name) is at `time` seconds: the two global frames to blend, the blend
   * factor, and what a viewer needs for events (`loops` completed, `finished`). Poses nothing.
   */
  frameAt(animation, time, options = {}) {
    this._check();
    const index = this._animationIndex(animation);
    const a = playArgs(time, options, 'frameAt');
    const code = this._lib._exports.iq_wasm_playhead(this._handle, index, a.time, a.loop, a.framerate, a.speed, a.flags);
    if (code) throw this._animError(code, 'frameAt', animation, time);
    return this._readPlayhead(index);
  }

  /**
   * Poses the skeleton at `animation` and `time` (optionally crossfaded, see options.crossfade) for GPU
   * skinning: fills skinMatrices / skinMatrices4x4 / worldMatrices and returns the playhead plus views of
   * the skin matrices in options.layout ('3x4' row-major, default, or '4x4' column-major) and world matrices.
   */
  pose(animation, time, options = {}) {
    return this._pose(animation, time, options, false, 'pose');
  }

  /** As pose(), then skins the mesh on the CPU (the same path as evaluate()): adds positions, normals, tangents. */
  sample(animation, time, options = {}) {
    return this._pose(animation, time, options, true, 'sample');
  }

  /** Per joint, the column-major 4x4 skin matrix of the last pose (16 floats each, for uniformMatrix4fv). */
  get skinMatrices4x4() {
    this._check();
    if (this._p.skinMatrices4x4 === undefined) {
      this._p.skinMatrices4x4 = this._lib._exports.iq_wasm_skin_matrices_4x4(this._handle);
    }
    return this._view('skinMatrices4x4', Float32Array, this._p.skinMatrices4x4, this.joints.length * 16);
  }

  /**
   * A joint's (index or name) model-space matrix as a new column-major 4x4 Float32Array. With an animation,
   * at that time (same options as pose(), crossfade included) without changing the model's pose;
   * without one, in the last pose (evaluate / pose / sample).
   */
  jointMatrix(joint, animation, time = 0, options = {}) {
    this._check();
    const index = this._jointIndex(joint);
    const e = this._lib._exports;
    let code;
    if (animation === undefined || animation === null) {
      code = e.iq_wasm_joint_matrix(this._handle, index, -1, 0, 0, 0, 1, 0, -1, 0, 0, 0, 1, 0, 0);
    } else {
      const ai = this._animationIndex(animation);
      const a = playArgs(time, options, 'jointMatrix');
      const x = this._crossfadeArgs(options.crossfade);
      code = e.iq_wasm_joint_matrix(this._handle, index, ai, a.time, a.loop, a.framerate, a.speed, a.flags,
        x.index, x.time, x.loop, x.framerate, x.speed, x.flags, x.weight);
    }
    if (code) throw this._animError(code, 'jointMatrix', animation, time);
    return new Float32Array(this._lib._heap, this._lib._animScratch().matrix, 16).slice();
  }

  /**
   * Appends the animations of `source` (a loaded model, typically an animation-only IQM) to this model.
   * Joints match by name, or by order when either side has unnamed or repeated names; skeletons that do not
   * fit throw InterquakeError 'skeleton_mismatch'. Returns the added animations; `source` stays usable.
   */
  attachAnimations(source) {
    this._check();
    if (!(source instanceof Model) || source._lib !== this._lib) {
      throw new InterquakeError('invalid_argument', 'attachAnimations() takes a model loaded by the same library');
    }
    source._check();
    const before = this.animations.length;
    const code = this._lib._exports.iq_wasm_attach_animations(this._handle, source._handle);
    if (code) throw this._lib._lastError(this.name);
    this._refresh();
    return this.animations.slice(before);
  }

  // Frames, animations and bounds moved in the heap: read every pointer and record again.
  _refresh() {
    const lib = this._lib;
    lib._exports.iq_wasm_model_info(this._handle, lib._info);
    const words = new Uint32Array(lib._heap, lib._info, INFO_FIELDS.length);
    const info = {};
    INFO_FIELDS.forEach((field, i) => { info[field] = words[i]; });
    this._p = info;
    this.frameCount = info.frameCount;
    this._readRecords();
    this._readMorphRecords();
  }

  _pose(animation, time, options, skin, what) {
    this._check();
    const index = this._animationIndex(animation);
    const a = playArgs(time, options, what);
    const x = this._crossfadeArgs(options.crossfade);
    const layout = options.layout ?? '3x4';
    if (layout !== '3x4' && layout !== '4x4') {
      throw new InterquakeError('invalid_argument', `${what}(): layout must be '3x4' or '4x4', got '${layout}'`);
    }
    const code = this._lib._exports.iq_wasm_pose(this._handle, index, a.time, a.loop, a.framerate, a.speed, a.flags,
      x.index, x.time, x.loop, x.framerate, x.speed, x.flags, x.weight, skin ? 1 : 0);
    if (code) throw this._animError(code, what, animation, time);
    const result = this._readPlayhead(index);
    result.skinMatrices = layout === '4x4' ? this.skinMatrices4x4 : this.skinMatrices;
    result.worldMatrices = this.worldMatrices;
    if (skin) {
      const p = this._p;
      result.positions = this._view('skinnedPositions', Float32Array, p.skinnedPositions, this.vertexCount * 3);
      result.normals = this._view('skinnedNormals', Float32Array, p.skinnedNormals, this.vertexCount * 3);
      result.tangents = this._view('skinnedTangents', Float32Array, p.skinnedTangents, this.vertexCount * 4);
    }
    return result;
  }

  _crossfadeArgs(crossfade) {
    if (crossfade === undefined || crossfade === null) {
      return { index: -1, time: 0, loop: 0, framerate: 0, speed: 1, flags: 0, weight: 0 };
    }
    if (typeof crossfade !== 'object') {
      throw new InterquakeError('invalid_argument', 'crossfade must be { animation, time, weight, ... }');
    }
    const { weight } = crossfade;
    if (typeof weight !== 'number' || !Number.isFinite(weight)) {
      throw new InterquakeError('invalid_argument', `crossfade.weight must be a finite number, got ${weight}`);
    }
    const a = playArgs(crossfade.time ?? 0, crossfade, 'crossfade');
    return { index: this._animationIndex(crossfade.animation), ...a, weight };
  }

  _animationIndex(animation) {
    if (typeof animation === 'string') {
      const i = this.findAnimation(animation);
      if (i < 0) {
        const names = this.animations.map((a) => `'${a.name}'`).join(', ') || 'none';
        throw new InterquakeError('invalid_argument', `no animation named '${animation}' (the model has ${names})`);
      }
      return i;
    }
    if (!Number.isInteger(animation) || animation < 0 || animation >= this.animations.length) {
      throw new InterquakeError('invalid_argument',
        `animation ${animation} is not an index below ${this.animations.length} or a name`);
    }
    return animation;
  }

  _jointIndex(joint) {
    if (typeof joint === 'string') {
      const i = this.findJoint(joint);
      if (i < 0) throw new InterquakeError('invalid_argument', `no joint named '${joint}'`);
      return i;
    }
    if (!Number.isInteger(joint) || joint < 0 || joint >= this.joints.length) {
      throw new InterquakeError('invalid_argument', `joint ${joint} is not an index below ${this.joints.length} or a name`);
    }
    return joint;
  }

  _readPlayhead(index) {
    const at = this._lib._animScratch().head;
    const heap = this._lib._heap;
    const u32 = new Uint32Array(heap, at, 10);
    const f32 = new Float32Array(heap, at, 4);
    const frameCount = u32[8];
    return {
      animation: index,
      frameA: u32[0],
      frameB: u32[1],
      blend: f32[2],
      position: f32[3],
      duration: new Float64Array(heap, at + 16, 1)[0],
      loops: new Int32Array(heap, at + 24, 1)[0],
      finished: u32[7] !== 0,
      frameCount,
    };
  }

  _animError(code, what, animation, time) {
    const name = this._lib._string(this._lib._exports.iq_wasm_error_name(code));
    return new InterquakeError(name, `${what}(${JSON.stringify(animation)}, ${time}): invalid time or options`);
  }

  // MD3 data: shaders per surface, tag names, frame metadata (small: copied once).
  _readMorphRecords() {
    const lib = this._lib;
    lib._exports.iq_wasm_morph_info(this._handle, lib._morphInfo);
    const words = new Uint32Array(lib._heap, lib._morphInfo, MORPH_INFO_FIELDS.length);
    const q = {};
    MORPH_INFO_FIELDS.forEach((field, i) => { q[field] = words[i]; });
    this._q = q;
    const heap = lib._heap;
    const u32 = new Uint32Array(heap);
    const f32 = new Float32Array(heap);
    const str = (ptr) => lib._string(ptr);
    if (this.format === 'md3') {
      for (const mesh of this.meshes) {
        mesh.shaders = [];
        // What Quake 3 matches .skin lines against: lower case, a trailing "_<char>" cut (R_LoadMD3).
        const lower = mesh.name.toLowerCase();
        mesh.skinName = lower.length > 2 && lower[lower.length - 2] === '_' ? lower.slice(0, -2) : lower;
      }
      for (let i = 0; i < q.shaderCount; i++) {
        const w = (q.shaders + 12 * i) >> 2;
        this.meshes[u32[w + 2]].shaders.push(str(u32[w]));
      }
    }
    this.tags = [];
    for (let i = 0; i < q.tagCount; i++) this.tags.push(str(u32[(q.tagNames >> 2) + i]));
    this.frames = [];
    if (q.frameInfo) {
      for (let f = 0; f < this.frameCount; f++) {
        const w = (q.frameInfo + 16 * f) >> 2;
        const b = (this._p.frameBounds + 32 * f) >> 2;
        this.frames.push({
          name: str(u32[w]),
          min: [f32[b], f32[b + 1], f32[b + 2]],
          max: [f32[b + 3], f32[b + 4], f32[b + 5]],
          localOrigin: [f32[w + 1], f32[w + 2], f32[w + 3]],
          radius: f32[b + 7],
        });
      }
    }
  }

  /** MD3: every frame's positions, frameCount * vertexCount * 3 (frame f starts at f * vertexCount * 3). */
  get framePositions() {
    return this._view('framePositions', Float32Array, this._q.framePositions, this.frameCount * this.vertexCount * 3);
  }
  /** MD3: every frame's unit normals, laid out like framePositions. */
  get frameNormals() {
    return this._view('frameNormals', Float32Array, this._q.frameNormals, this.frameCount * this.vertexCount * 3);
  }

  /**
   * Where tag (MD3) or joint (IQM/IQE) `name` is at global frame `frame` (fractions interpolate,
   * values outside 0..frameCount-1 clamp), as a column-major 4x4 Float32Array(16) in model space:
   * [0..2] x axis, [4..6] y axis, [8..10] z axis, [12..14] origin. MD3 tag axes are orthonormalised;
   * a joint's matrix is its world matrix (scale included). null when there is no such name.
   * Does not disturb the results of the last evaluate().
   */
  tagMatrix(name, frame = 0) {
    this._check();
    if (typeof name !== 'string') throw new InterquakeError('invalid_argument', 'tagMatrix() needs a tag or joint name');
    if (typeof frame !== 'number' || !Number.isFinite(frame)) {
      throw new InterquakeError('invalid_argument', `tagMatrix() needs a finite frame number, got ${frame}`);
    }
    const lib = this._lib;
    const e = lib._exports;
    const encoded = utf8Encoder.encode(name);
    if (encoded.includes(0)) return null;
    const ptr = e.iq_wasm_alloc(encoded.length + 1);
    if (!ptr) throw new InterquakeError('out_of_memory', 'no memory for a tag name');
    try {
      const bytes = new Uint8Array(lib._heap, ptr, encoded.length + 1);
      bytes.set(encoded);
      bytes[encoded.length] = 0;
      if (e.iq_wasm_tag_matrix(this._handle, ptr, frame, lib._matrixOut) !== 1) return null;
      return new Float32Array(lib._heap, lib._matrixOut, 16).slice();
    } finally {
      e.iq_wasm_free(ptr);
    }
  }

  /** Frees the WASM memory. Calling it twice is fine; anything else afterwards throws. */
  dispose() {
    if (this._disposed) return;
    this._disposed = true;
    this._views.clear();
    this._lib._exports.iq_wasm_dispose(this._handle);
  }
}

/** Frames per second used when neither the options nor the file give a framerate (IQM framerate 0). */
export const DEFAULT_FRAMERATE = 24;

const LOOP_MODES = { repeat: 1, once: 2, pingpong: 3 };
const PLAY_STEPPED = 1;
const PLAY_SLERP = 2;
const PLAY_NLERP = 4;

// Validates the playback options shared by frameAt, pose, sample, jointMatrix and crossfade.
function playArgs(time, options, what) {
  if (typeof time !== 'number' || !Number.isFinite(time)) {
    throw new InterquakeError('invalid_argument', `${what}(): time must be a finite number of seconds, got ${time}`);
  }
  const { loop, framerate = 0, speed = 1, interpolate = true, rotation = 'auto' } = options ?? {};
  let loopMode = 0;
  if (loop !== undefined) {
    loopMode = LOOP_MODES[loop];
    if (!loopMode) throw new InterquakeError('invalid_argument', `${what}(): loop must be 'repeat', 'once' or 'pingpong', got '${loop}'`);
  }
  if (typeof framerate !== 'number' || !(framerate >= 0) || !Number.isFinite(framerate)) {
    throw new InterquakeError('invalid_argument', `${what}(): framerate must be a finite number >= 0, got ${framerate}`);
  }
  if (typeof speed !== 'number' || !Number.isFinite(speed)) {
    throw new InterquakeError('invalid_argument', `${what}(): speed must be a finite number, got ${speed}`);
  }
  if (rotation !== 'auto' && rotation !== 'nlerp' && rotation !== 'slerp') {
    throw new InterquakeError('invalid_argument', `${what}(): rotation must be 'auto', 'nlerp' or 'slerp', got '${rotation}'`);
  }
  const flags = (interpolate ? 0 : PLAY_STEPPED) | (rotation === 'slerp' ? PLAY_SLERP : 0) | (rotation === 'nlerp' ? PLAY_NLERP : 0);
  // Speed 0 freezes playback at its start (the C side reads 0 as "default speed 1").
  return { time: speed === 0 ? 0 : time, loop: loopMode, framerate, speed: speed === 0 ? 1 : speed, flags };
}

export { Interquake, Model };
