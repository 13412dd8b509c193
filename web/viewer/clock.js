// The viewer's playback clock: one Track per independently animated part ('both', or Quake 3's
// 'legs' and 'torso'), and the posing of a loaded content's parts for the tracks' play heads
// (poseContent). This module is the one to swap for the C animator: the element only uses
// Track, framesOf, LOOP_MODES and poseContent.
// A track turns wall-clock time, speed (negative plays backwards) and a loop
// mode into a play head (a fractional frame inside the animation) and reports loop and finished
// transitions from the time itself, never from which frames happened to be drawn, so `finished`
// fires exactly once even when the tab was hidden or the element was off screen.

export const LOOP_MODES = ['repeat', 'once', 'pingpong'];

export class Track {
  constructor(part = 'both') {
    this.part = part;
    this.animation = null; // { name, index, firstFrame, frameCount, framerate, loop }
    this.time = 0;          // seconds of play head from the animation's start
    this.loop = 'repeat';
    this.finished = false;
    this._loops = 0;
    this.fade = null;       // { from: {animation, frame}, elapsed, duration } while crossfading
  }

  /** Seconds the play head spends in the animation before it wraps or stops. */
  get duration() {
    const a = this.animation;
    if (!a) return 0;
    const frames = this.loop === 'repeat' ? a.frameCount : a.frameCount - 1;
    return Math.max(frames, 1) / a.framerate;
  }

  /** Starts `animation` from its beginning (its end when playing backwards in once/pingpong). */
  start(animation, { speed = 1, loop = this.loop, crossfade = 0 } = {}) {
    if (crossfade > 0 && this.animation && animation && this.animation !== animation) {
      this.fade = { from: { animation: this.animation, frame: this.frame }, elapsed: 0, duration: crossfade };
    } else {
      this.fade = null;
    }
    this.animation = animation;
    this.loop = loop;
    this.rewind(speed);
  }

  rewind(speed = 1) {
    this.time = speed < 0 && this.loop === 'once' ? this.duration : 0;
    this.finished = false;
    this._loops = 0;
  }

  /** Fractional frame inside the animation: 0 .. frameCount (repeat) or 0 .. frameCount-1. */
  get frame() {
    const a = this.animation;
    if (!a) return 0;
    const d = this.duration;
    let position;
    if (this.loop === 'repeat') position = mod(this.time, d);
    else if (this.loop === 'once') position = Math.min(Math.max(this.time, 0), d);
    else {
      const u = mod(this.time, 2 * d);
      position = u <= d ? u : 2 * d - u;
    }
    return Math.min(position * a.framerate, this.loop === 'repeat' ? a.frameCount : a.frameCount - 1);
  }

  /**
   * Global frames to blend for drawing: { a, b, t } with a, b absolute frame numbers.
   * interpolate false holds each frame (stepped playback).
   */
  frames(interpolate = true) {
    return framesOf(this.animation, this.frame, interpolate);
  }

  /** Moves the play head by dt seconds at `speed`; returns the events this caused. */
  advance(dt, speed) {
    const events = [];
    if (this.fade) {
      this.fade.elapsed += dt;
      if (this.fade.elapsed >= this.fade.duration) this.fade = null;
    }
    if (!this.animation || this.finished || dt === 0 || speed === 0) return events;
    const d = this.duration;
    this.time += dt * speed;
    if (this.loop === 'once') {
      if ((speed > 0 && this.time >= d) || (speed < 0 && this.time <= 0)) {
        this.time = speed > 0 ? d : 0;
        this.finished = true;
        events.push({ type: 'finished', detail: { animation: this.animation.name, part: this.part } });
      }
      return events;
    }
    // Loop count: whole passes completed in either direction (pingpong counts each bounce).
    const loops = Math.floor(Math.abs(this.time) / d);
    if (loops !== this._loops) {
      this._loops = loops;
      events.push({ type: 'loop', detail: { animation: this.animation.name, part: this.part, count: loops } });
    }
    return events;
  }

  /** Puts the play head on a frame of the animation (fractions allowed). */
  seekFrame(frame) {
    const a = this.animation;
    if (!a) return;
    const last = this.loop === 'repeat' ? a.frameCount : a.frameCount - 1;
    this.time = Math.min(Math.max(frame, 0), Math.max(last, 0)) / a.framerate;
    this.finished = false;
    this._loops = 0;
  }

  seek(seconds) {
    this.time = Math.max(0, seconds);
    if (this.loop === 'once') this.time = Math.min(this.time, this.duration);
    this.finished = false;
    this._loops = Math.floor(this.time / (this.duration || 1));
  }

  /** 0..1: how much of the previous animation still shows (crossfade), 0 when none. */
  get fadeWeight() {
    return this.fade ? 1 - this.fade.elapsed / this.fade.duration : 0;
  }
}

/** Global frames { a, b, t } for a fractional frame inside `animation`. */
export function framesOf(animation, frame, interpolate = true) {
  if (!animation) return { a: 0, b: 0, t: 0 };
  const n = animation.frameCount;
  let whole = Math.floor(frame);
  let t = frame - whole;
  if (!interpolate) t = 0;
  whole = Math.min(Math.max(whole, 0), n - 1);
  const next = whole + 1 < n ? whole + 1 : 0; // the last frame of a repeating animation blends into the first
  // Reversed animations (Quake 3's LEGS_BACKWALK) run from their last stored frame down.
  const stored = (k) => animation.firstFrame + (animation.reversed ? n - 1 - k : k);
  return { a: stored(whole), b: stored(next), t };
}

function mod(x, m) {
  return m > 0 ? ((x % m) + m) % m : 0;
}

/**
 * Poses every part of `content` (see content.js) for the tracks' play heads: skin matrices for
 * skinned models, { a, b, t } morph frames for MD3, and for a Quake 3 player each part's placement.
 */
export function poseContent(content, tracks, interpolate) {
  if (content.player) {
    posePlayer(content, tracks, interpolate);
    return;
  }
  const trackFor = (part) => tracks.find((t) => t.part === part) ?? tracks[0] ?? null;
  for (const part of content.parts) {
    const track = trackFor(part.track);
    const model = part.model;
    const animation = track?.animation;
    if (!animation || animation.model !== model) {
      part.skin = null;
      part.morph = null;
      part.frames = { a: 0, b: 0, t: 0 };
      if (model.format === 'md3' && model.frameCount) part.morph = part.frames;
      continue;
    }
    const frames = track.frames(interpolate);
    part.frames = frames;
    if (model.format === 'md3') {
      part.morph = frames;
      if (track.fade) {
        // Quake's own way to change animation: lerp from where the old one was to the new frame.
        const from = framesOf(track.fade.from.animation, track.fade.from.frame, false);
        part.morph = { a: from.a, b: frames.a, t: 1 - track.fadeWeight };
      }
    } else if (model.joints.length) {
      part.skin = poseSkin(model, frames, track, interpolate, part.skin);
    }
  }
}

// Places and morphs the player's parts for the legs and torso play heads (tracks null: first frames).
function posePlayer(content, tracks, interpolate) {
  const frameFor = (part) => {
    const track = tracks?.find((t) => t.part === part);
    if (!track?.animation) return null;
    const frames = track.frames(interpolate);
    if (track.fade) {
      // Quake 3 changes animation by lerping from the old frame into the new one.
      const from = framesOf(track.fade.from.animation, track.fade.from.frame, false);
      return { a: from.a, b: frames.a, t: 1 - track.fadeWeight };
    }
    return frames;
  };
  const legs = frameFor('legs');
  const torso = frameFor('torso');
  // pose() places each part by its parent's tag at a fractional frame; a blend across a loop seam
  // or a crossfade is not a fractional frame, so the tag follows the nearer of the two frames.
  const at = (f) => (!f ? undefined : f.b === f.a + 1 ? f.a + f.t : f.t < 0.5 ? f.a : f.b);
  const state = {};
  if (legs) state.legs = { frame: at(legs) };
  if (torso) state.torso = { frame: at(torso) };
  const pose = content.player.pose(state);
  for (const part of content.parts) {
    const placed = pose[part.partName];
    if (placed?.matrix) part.matrix = placed.matrix;
    const f = part.track === 'legs' ? legs : part.track === 'torso' && part.partName === 'upper' ? torso : null;
    part.frames = f ?? { a: placed?.from ?? 0, b: placed?.to ?? 0, t: placed?.lerp ?? 0 };
    part.morph = part.frames;
  }
}

// The skin matrices (row-major 3x4 per joint) for a play head, through the animator (model.pose):
// the track is the clock (the same for every format), the animator poses the frames it names.
// A play head between the last and the first frame of a repeating animation, and a crossfade
// from the previous animation, are both blends of two stepped poses.
function poseSkin(model, frames, track, interpolate, previous) {
  const count = model.joints.length * 12;
  const out = previous && previous.length === count ? previous : new Float32Array(count);
  const animation = track.animation;
  if (animation.index < 0 || typeof model.pose !== 'function') {
    model.evaluate(frames.b === frames.a + 1 ? frames.a + frames.t : frames.a);
    out.set(model.skinMatrices);
    return out;
  }
  const fps = animation.framerate;
  const local = (f) => (f - animation.firstFrame) / fps;
  const held = { loop: 'once', framerate: fps, interpolate: false };
  let options;
  let time;
  if (track.fade) {
    const from = track.fade.from;
    time = frames.b === frames.a + 1 ? local(frames.a + frames.t) : local(frames.a);
    options = {
      loop: 'once', framerate: fps, interpolate,
      crossfade: { animation: from.animation.index, time: from.frame / from.animation.framerate, loop: 'once',
        framerate: from.animation.framerate, interpolate: false, weight: track.fadeWeight },
    };
  } else if (frames.t > 0 && frames.b !== frames.a + 1) {
    time = local(frames.a);
    options = { ...held, crossfade: { animation: animation.index, time: local(frames.b), ...held, weight: frames.t } };
  } else {
    time = local(frames.a + frames.t);
    options = { loop: 'once', framerate: fps, interpolate };
  }
  out.set(model.pose(animation.index, time, options).skinMatrices);
  return out;
}
