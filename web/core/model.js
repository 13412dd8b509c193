// A loaded model (immutable data, read from the C's iq_model by layout) and its evaluation
// states (instances: what posing writes). The model's own methods (evaluate, pose, sample,
// jointMatrix, skinMatrices...) use its own instance; `createInstance()` gives more, so one
// model can be posed several ways at once. Every time-to-frame answer comes from the C.

import { InterquakeError, decodeText } from './wasm.js';
import { skinSurfaceName } from './paths.js';

export { skinSurfaceName }; // the rule lives in paths.js
import { Views, collected, definePosing, disposeSymbol, playRecord, playheadResult, clipPlayhead } from './posing.js';
import { Instance } from './instance.js';

// The typed array that holds each IQM component format (iq_component's names come from the C).
const COMPONENT_ARRAYS = {
  byte: Int8Array, ubyte: Uint8Array, short: Int16Array, ushort: Uint16Array, int: Int32Array,
  uint: Uint32Array, half: Uint16Array, float: Float32Array, double: Float64Array,
};


export class Model {
  constructor(library, handle, name) {
    this._lib = library;
    this._wasm = library._wasm;
    this._handle = handle;
    this._disposed = false;
    this._views = new Views(this._wasm);
    this._model = this;
    this._instances = new Set();
    this._d = {}; // the model's records, read through getters that throw once it is disposed
    /** The name given to load() (kept after dispose(), unlike everything else). */
    this.name = name;
    this._inst = this._wasm.read('iq_instance', this._wasm.value('iq_wasm_instance', handle));
    this._readRecords();
    collected?.register(this, { wasm: this._wasm, handle }, this);
  }

  // Metadata is small: copied into plain JS objects once (again after attachAnimations).
  _readRecords() {
    const wasm = this._wasm;
    const p = wasm.read('iq_model', wasm.value('iq_wasm_model', this._handle));
    this._p = p;
    const d = this._d;
    d.format = wasm.names.format[p.format];
    d.vertexCount = p.vertexCount;
    d.triangleCount = p.triangleCount;
    d.frameCount = p.frameCount;
    const dv = wasm.view();
    d.meshes = wasm.readArray('iq_mesh', p.meshes, p.meshCount, dv);
    d.joints = wasm.readArray('iq_joint', p.joints, p.jointCount, dv);
    const loopFlag = wasm.constants.animation.loop;
    d.animations = wasm.readArray('iq_animation', p.animations, p.animationCount, dv).map((a) => ({
      name: a.name, firstFrame: a.firstFrame, frameCount: a.frameCount, framerate: a.framerate, loop: (a.flags & loopFlag) !== 0,
    }));
    d.bounds = p.vertexCount ? p.bounds : null;
    const kept = Math.min(p.warningCount, wasm.constants.limit.maxWarnings);
    d.warnings = wasm.readArray('iq_warning', p.warnings, kept, dv)
      .map((w) => ({ code: wasm.names.warning[w.code], message: w.message }));
    this._customs = wasm.readArray('iq_custom_array', p.customArrays, p.customArrayCount, dv);
    d.extensions = wasm.readArray('iq_extension', p.extensions, p.extensionCount, dv)
      .map((x) => ({ name: x.name, data: x.size ? wasm.copy(x.data, x.size) : new Uint8Array(0) }));
    d.comment = p.commentSize ? decodeText(wasm.copy(p.comment, p.commentSize)) : '';
    this._readMorphRecords(dv);
  }

  // Vertex-animated data (MD3, MD2, MDL): shaders or skins per surface, tag names, frame metadata,
  // and the pictures a file embeds (MDL skins).
  _readMorphRecords(dv) {
    const wasm = this._wasm;
    const p = this._p;
    const d = this._d;
    if (p.shaderCount || d.format === 'md3') {
      for (const mesh of d.meshes) mesh.shaders = [];
      if (d.format === 'md3' || d.format === 'mdc') for (const mesh of d.meshes) mesh.skinName = skinSurfaceName(mesh.name);
      for (const shader of wasm.readArray('iq_shader', p.shaders, p.shaderCount, dv)) d.meshes[shader.mesh].shaders.push(shader.name);
    }
    d.tags = wasm.strings(p.tagNames, p.tagCount);
    d.frames = [];
    if (p.frameInfo) {
      const info = wasm.readArray('iq_frame_info', p.frameInfo, d.frameCount, dv);
      const bounds = wasm.readArray('iq_bounds', p.frameBounds, d.frameCount, dv);
      d.frames = info.map((f, i) => ({ ...f, min: bounds[i].min, max: bounds[i].max, radius: bounds[i].radius })); // name, localOrigin, interval
    }
    // Copies: the pictures are small (MDL skins) and outlive dispose() as plain data.
    d.images = wasm.readArray('iq_model_image', p.images, p.imageCount, dv).map((img) => ({ ...img, data: wasm.copy(img.data, img.width * img.height * 4) }));
  }

  _check() {
    if (this._disposed) throw new InterquakeError('disposed', `model${this.name ? ` ${this.name}` : ''} was disposed`);
  }

  _view(key, Type, ptr, length) {
    this._check();
    return this._views.get(key, Type, ptr, length);
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
  get inverseBindMatrices() { return this._view('inverseBind', Float32Array, this._p.inverseBind, this.joints.length * 12); }
  /** frameCount * joints.length local poses, 10 floats each: translate xyz, rotate xyzw, scale xyz. */
  get framePoses() {
    return this._view('framePoses', Float32Array, this._p.framePoses, this.frameCount * this.joints.length * 10);
  }
  /** Per frame: min xyz, max xyz, xy radius, radius (8 floats), or null when the file has none. */
  get frameBounds() { return this._view('frameBounds', Float32Array, this._p.frameBounds, this.frameCount * 8); }
  /** MD3: every frame's positions, frameCount * vertexCount * 3 (frame f starts at f * vertexCount * 3). */
  get framePositions() {
    return this._view('framePositions', Float32Array, this._p.framePositions, this.frameCount * this.vertexCount * 3);
  }
  /** MD3: every frame's unit normals, laid out like framePositions. */
  get frameNormals() {
    return this._view('frameNormals', Float32Array, this._p.frameNormals, this.frameCount * this.vertexCount * 3);
  }

  /** Vertex arrays of custom types, in the component format the file stored them in. */
  get customArrays() {
    this._check();
    return this._customs.map((c, i) => {
      const format = this._wasm.names.component[c.format];
      return { name: c.name, format, size: c.size, data: this._view(`custom${i}`, COMPONENT_ARRAYS[format], c.data, this.vertexCount * c.size) };
    });
  }

  // -- Animator: playback in time (docs/API-anim.md)

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
    const wasm = this._wasm;
    const playPtr = wasm.scratchRecord('iq_play');
    wasm.fill('iq_play', playPtr, playRecord(wasm, index, time, options, 'frameAt'));
    wasm.call('iq_wasm_playhead', [this._handle, playPtr, wasm.headPtr],
      { message: `frameAt(${JSON.stringify(animation)}, ${time}): invalid time or options`, file: this.name });
    return playheadResult(wasm.read('iq_playhead', wasm.headPtr), index);
  }

  /**
   * Where a clip of raw frames is at `time` seconds: `clip` is { firstFrame, frameCount, framerate, loop }
   * (for frames no animation names, e.g. an MD3 player part without animation.cfg); options as frameAt.
   */
  clipAt(clip, time, options = {}) {
    this._check();
    return clipPlayhead(this._wasm, this._handle, clip, time, options, this.name);
  }

  // The pose arguments record (iq_wasm_pose_args) for pose, sample and jointMatrix.
  _writePoseArgs(index, time, options, what, skin) {
    const wasm = this._wasm;
    const args = { play: playRecord(wasm, index, time, options, what), skin: skin ? 1 : 0, hasBlend: 0, weight: 0 };
    const crossfade = options.crossfade;
    if (crossfade !== undefined && crossfade !== null) {
      if (typeof crossfade !== 'object') {
        throw new InterquakeError('invalid_argument', 'crossfade must be { animation, time, weight, ... }');
      }
      const { weight } = crossfade;
      if (typeof weight !== 'number' || !Number.isFinite(weight)) {
        throw new InterquakeError('invalid_argument', `crossfade.weight must be a finite number, got ${weight}`);
      }
      args.blend = playRecord(wasm, this._animationIndex(crossfade.animation), crossfade.time ?? 0, crossfade, 'crossfade');
      args.hasBlend = 1;
      args.weight = weight;
    }
    wasm.fill('iq_wasm_pose_args', wasm.argsPtr, args);
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
    const wasm = this._wasm;
    wasm.call('iq_wasm_attach_animations', [this._handle, source._handle, wasm.errorPtr], { file: this.name });
    this._readRecords();
    return this.animations.slice(before);
  }

  // -- Tags (MD3) and joints (IQM/IQE): anything attaches to anything

  /** Index for iq_wasm_tag_matrix: tags first, then joints; -1 when there is no such name or index. */
  _tagIndex(tag) {
    if (typeof tag === 'number') {
      return Number.isInteger(tag) && tag >= 0 && tag < this.tags.length + this.joints.length ? tag : -1;
    }
    if (typeof tag !== 'string') throw new InterquakeError('invalid_argument', 'tagMatrix() needs a tag or joint name, or an index');
    const t = this.tags.indexOf(tag);
    if (t >= 0) return t;
    const j = this.joints.findIndex((joint) => joint.name === tag);
    return j >= 0 ? this.tags.length + j : -1;
  }

  /**
   * Where tag (MD3) or joint (IQM/IQE) `name` is at global frame `frame` (fractions interpolate,
   * values outside 0..frameCount-1 clamp), as a column-major 4x4 Float32Array(16) in model space:
   * [0..2] x axis, [4..6] y axis, [8..10] z axis, [12..14] origin. MD3 tag axes are orthonormalised;
   * a joint's matrix is its world matrix (scale included). null when there is no such name.
   * `name` may be an index: tags first (0..tags.length-1), then joints. Disturbs no pose.
   */
  tagMatrix(name, frame = 0) {
    this._check();
    if (typeof frame !== 'number' || !Number.isFinite(frame)) {
      throw new InterquakeError('invalid_argument', `tagMatrix() needs a finite frame number, got ${frame}`);
    }
    const index = this._tagIndex(name);
    if (index < 0) return null;
    const wasm = this._wasm;
    if (wasm.call('iq_wasm_tag_matrix_at', [this._handle, index, frame, wasm.scratch], { file: this.name, allow: ['invalid_argument'] })) return null;
    return wasm.array(Float32Array, wasm.scratch, 16).slice();
  }

  /** As tagMatrix, between any two global frames (a loop seam, a change of animation): blend 0..1 from a to b. */
  tagMatrixBetween(name, frameA, frameB, blend) {
    this._check();
    const index = this._tagIndex(name);
    if (index < 0) return null;
    const wasm = this._wasm;
    if (wasm.call('iq_wasm_tag_matrix', [this._handle, index, frameA, frameB, blend, wasm.scratch], { file: this.name, allow: ['invalid_argument'] })) return null;
    return wasm.array(Float32Array, wasm.scratch, 16).slice();
  }

  // -- Instances and lifetime

  /** A new evaluation state: pose it independently of the model's own pose and of other instances. */
  createInstance() {
    this._check();
    return new Instance(this);
  }

  /** Frees the WASM memory (and every instance). Calling it twice is fine; anything else afterwards throws. */
  dispose() {
    if (this._disposed) return;
    this._disposed = true;
    this._views.clear();
    for (const ref of this._instances) ref.deref()?._markDisposed();
    this._instances.clear();
    collected?.unregister(this);
    this._wasm.call('iq_wasm_dispose', [this._handle], { allow: ['disposed'] });
    this._lib._forget?.(this);
  }
}
definePosing(Model);
if (disposeSymbol) Model.prototype[disposeSymbol] = function dispose() { this.dispose(); };
for (const key of ['format', 'vertexCount', 'triangleCount', 'frameCount', 'meshes', 'joints', 'animations', 'bounds',
  'warnings', 'extensions', 'comment', 'tags', 'frames', 'images']) {
  Object.defineProperty(Model.prototype, key, {
    get() {
      this._check();
      return this._d[key];
    },
    enumerable: true,
    configurable: true,
  });
}

export { Instance, disposeSymbol, playRecord, playheadResult, clipPlayhead };
