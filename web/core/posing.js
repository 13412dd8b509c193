// Posing and playback shared by a model (its own instance) and every Instance: the playback
// options as the C's iq_play record, the playhead as the API returns it, typed-array views that
// survive heap growth, and the lifetime hooks (FinalizationRegistry, Symbol.dispose).

import { InterquakeError } from './wasm.js';

// Typed-array views of the heap that survive its growth: rebuilt when the buffer changed or
// when a pointer or length moved (attachAnimations moves frames).
export class Views {
  constructor(wasm) {
    this._wasm = wasm;
    this._buffer = null;
    this._views = new Map();
  }

  get(key, Type, ptr, length) {
    if (!ptr) return null;
    const buffer = this._wasm.heap;
    if (buffer !== this._buffer) {
      this._views.clear();
      this._buffer = buffer;
    }
    let view = this._views.get(key);
    if (!view || view.byteOffset !== ptr || view.length !== length) {
      view = new Type(buffer, ptr, length);
      this._views.set(key, view);
    }
    return view;
  }

  clear() { this._views.clear(); }
}

/** Validates the playback options shared by frameAt, pose, sample, jointMatrix and crossfade: an iq_play record. */
export function playRecord(wasm, animation, time, options, what) {
  if (typeof time !== 'number' || !Number.isFinite(time)) {
    throw new InterquakeError('invalid_argument', `${what}(): time must be a finite number of seconds, got ${time}`);
  }
  const { loop, framerate = 0, speed = 1, interpolate = true, rotation = 'auto' } = options ?? {};
  const loops = wasm.constants.loop;
  let loopMode = loops.auto;
  if (loop !== undefined) {
    loopMode = loop === 'auto' ? undefined : loops[loop];
    if (loopMode === undefined) throw new InterquakeError('invalid_argument', `${what}(): loop must be 'repeat', 'once' or 'pingpong', got '${loop}'`);
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
  const play = wasm.constants.play;
  const flags = (interpolate ? 0 : play.stepped) | (rotation === 'slerp' ? play.slerp : 0) | (rotation === 'nlerp' ? play.nlerp : 0);
  // Speed 0 freezes playback at its start (the C reads speed 0 as "default speed 1").
  return { animation, time: speed === 0 ? 0 : time, loop: loopMode, framerate, speed: speed === 0 ? 1 : speed, flags };
}

/** A playhead record as the API returns it. */
export function playheadResult(head, animation) {
  return {
    animation,
    frameA: head.frameA,
    frameB: head.frameB,
    blend: head.blend,
    position: head.position,
    duration: head.duration,
    loops: head.loops,
    finished: head.finished !== 0,
    frameCount: head.frameCount,
  };
}

// Posing, shared by a model (its own instance) and by every instance: `owner` has _handle,
// _wasm, _model, _views and the instance record `_inst` (buffer addresses).
export const Posing = {
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
    this._wasm.call('iq_wasm_evaluate', [this._handle, frame], { message: `evaluate(${frame})`, file: this._model.name });
    return this._skinned();
  },

  /**
   * MD3: the mesh morphed from frame `frameA` toward `frameB` by `t` (0..1, clamped), normals
   * renormalised, for any two frames (a loop seam, a crossfade); the same views as evaluate().
   */
  morph(frameA, frameB, t) {
    this._check();
    const count = this._model.frameCount;
    if (!Number.isInteger(frameA) || !Number.isInteger(frameB) || frameA < 0 || frameB < 0 || frameA >= count || frameB >= count || !Number.isFinite(t)) {
      throw new InterquakeError('invalid_argument', `morph(${frameA}, ${frameB}, ${t}): frames must be whole numbers below ${count} (an MD3's frames) and t finite`);
    }
    this._wasm.call('iq_wasm_morph', [this._handle, frameA, frameB, t],
      { message: `morph(${frameA}, ${frameB}, ${t}): the model has no morph frames`, file: this._model.name });
    return this._skinned();
  },

  /** CPU skinning with the skin matrices of the last pose() (GPU posing), into the same views as evaluate(). */
  skin() {
    this._check();
    this._wasm.call('iq_wasm_skin', [this._handle], { message: 'skin()', file: this._model.name });
    return this._skinned();
  },

  /**
   * Poses the skeleton at `animation` and `time` (optionally crossfaded, see options.crossfade) for GPU
   * skinning: fills skinMatrices / skinMatrices4x4 / worldMatrices and returns the playhead plus views of
   * the skin matrices in options.layout ('3x4' row-major, default, or '4x4' column-major) and world matrices.
   */
  pose(animation, time, options = {}) {
    return this._pose(animation, time, options, false, 'pose');
  },

  /** As pose(), then skins the mesh on the CPU (the same path as evaluate()): adds positions, normals, tangents. */
  sample(animation, time, options = {}) {
    return this._pose(animation, time, options, true, 'sample');
  },

  _pose(animation, time, options, skin, what) {
    this._check();
    const model = this._model;
    const index = model._animationIndex(animation);
    const layout = options.layout ?? '3x4';
    if (layout !== '3x4' && layout !== '4x4') {
      throw new InterquakeError('invalid_argument', `${what}(): layout must be '3x4' or '4x4', got '${layout}'`);
    }
    const wasm = this._wasm;
    model._writePoseArgs(index, time, options, what, skin);
    wasm.call('iq_wasm_pose', [this._handle, wasm.argsPtr, wasm.headPtr],
      { message: `${what}(${JSON.stringify(animation)}, ${time}): invalid time or options`, file: model.name });
    const result = playheadResult(wasm.read('iq_playhead', wasm.headPtr), index);
    result.skinMatrices = layout === '4x4' ? this.skinMatrices4x4 : this.skinMatrices;
    result.worldMatrices = this.worldMatrices;
    if (skin) Object.assign(result, this._skinned());
    return result;
  },

  _skinned() {
    const model = this._model;
    const p = this._inst;
    const n = model.vertexCount;
    return {
      positions: this._views.get('skinnedPositions', Float32Array, p.skinnedPositions, n * 3),
      normals: this._views.get('skinnedNormals', Float32Array, p.skinnedNormals, n * 3),
      tangents: this._views.get('skinnedTangents', Float32Array, p.skinnedTangents, n * 4),
    };
  },

  /**
   * Per joint, the row-major 3x4 skin matrix (world * inverse bind) of the last evaluate(),
   * 12 floats each: rows of [r0 r1 r2 t]. The bind pose (identity) before the first call.
   */
  get skinMatrices() {
    this._check();
    return this._views.get('skinMatrices', Float32Array, this._inst.skinMatrices, this._model.joints.length * 12);
  },
  /** Per joint, the column-major 4x4 skin matrix of the last pose (16 floats each, for uniformMatrix4fv). */
  get skinMatrices4x4() {
    this._check();
    return this._views.get('skinMatrices4x4', Float32Array, this._inst.skinMatrices4x4, this._model.joints.length * 16);
  },
  /** Per joint, the row-major 3x4 model-space matrix of the last evaluate(). */
  get worldMatrices() {
    this._check();
    return this._views.get('worldMatrices', Float32Array, this._inst.worldMatrices, this._model.joints.length * 12);
  },

  /**
   * A joint's (index or name) model-space matrix as a new column-major 4x4 Float32Array. With an animation,
   * at that time (same options as pose(), crossfade included) without changing any pose;
   * without one, in the last pose (evaluate / pose / sample).
   */
  jointMatrix(joint, animation, time = 0, options = {}) {
    this._check();
    const model = this._model;
    const index = model._jointIndex(joint);
    const wasm = this._wasm;
    let args = 0;
    if (animation !== undefined && animation !== null) {
      model._writePoseArgs(model._animationIndex(animation), time, options, 'jointMatrix', false);
      args = wasm.argsPtr;
    }
    wasm.call('iq_wasm_joint_matrix', [this._handle, index, args, wasm.scratch],
      { message: `jointMatrix(${JSON.stringify(joint)}, ${JSON.stringify(animation)}, ${time}): invalid time or options`, file: model.name });
    return wasm.array(Float32Array, wasm.scratch, 16).slice();
  },
};

// Models and instances that are collected without dispose() give their WASM memory back: the
// registry holds only the handle (and the library's Wasm), never the object.
export const collected = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry(({ wasm, handle }) => wasm.call('iq_wasm_dispose', [handle], { allow: ['disposed'] }))
  : null;

/** `using model = iq.load(...)` (explicit resource management) calls dispose() at the end of the block. */
export const disposeSymbol = typeof Symbol.dispose === 'symbol' ? Symbol.dispose : null;

export function definePosing(Class) {
  for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(Posing))) {
    Object.defineProperty(Class.prototype, key, descriptor);
  }
}

/** The playhead of a clip of raw frames (see Model.clipAt); handle 0 for no model. */
export function clipPlayhead(wasm, handle, clip, time, options, file) {
  const { firstFrame = 0, frameCount, framerate = 0, loop = true } = clip ?? {};
  if (!Number.isInteger(firstFrame) || firstFrame < 0 || !Number.isInteger(frameCount) || frameCount < 0) {
    throw new InterquakeError('invalid_argument', 'a clip needs whole firstFrame >= 0 and frameCount >= 0');
  }
  const clipPtr = wasm.scratch + 128;
  wasm.fill('iq_animation', clipPtr, {
    firstFrame, frameCount, framerate: framerate > 0 ? framerate : 0, flags: loop ? wasm.constants.animation.loop : 0,
  });
  wasm.fill('iq_play', wasm.scratch, playRecord(wasm, 0, time, options, 'clipAt'));
  wasm.call('iq_wasm_clip_playhead', [handle, clipPtr, wasm.scratch, wasm.headPtr],
    { message: `clipAt(${time}): the clip lies outside the frames, or the time or options are invalid`, file });
  return playheadResult(wasm.read('iq_playhead', wasm.headPtr), -1);
}
