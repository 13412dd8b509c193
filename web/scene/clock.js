// The viewer's playback clock. JS keeps wall-clock time per track ('both', or Quake 3's 'legs' and
// 'torso'), the direction of play, the loop mode chosen and crossfade timing; every frame, position,
// duration, loop count and finished state is the C animator's answer, asked through the library:
// model.frameAt for named animations, model.clipAt for raw frames, q3Playhead for animation.cfg.
// Events (loop, finished) are changes in the C's loops and finished, so they come from time itself,
// never from which frames happened to be drawn: `finished` fires exactly once even when the tab
// was hidden or the element off screen.

import { q3Playhead } from '../quake3/playhead.js';

export const LOOP_MODES = ['repeat', 'once', 'pingpong'];
export const PLAYER_DEFAULT_ANIMATIONS = { legs: 'LEGS_IDLE', torso: 'TORSO_STAND' }; // what the game shows at rest

// -- The animations as the clock plays them. Each entry: { name, part, kind, model, firstFrame,
// frameCount, framerate, loop, duration, ... }; kind 'animation' (a named animation: index),
// 'clip' (raw frames: clip) or 'q3' (animation.cfg: q3, lib, models by part). `loop` is what plays
// by default and what availableAnimations reports; `duration` is the C's for that mode.

/**
 * A model's animations: its named ones, each looping as the file's loop flag says (a file that
 * sets the flag on none of them repeats them all: most exporters leave it off), or, with none, a
 * clip over all its frames at the library's rate (iq.md3Framerate for MD3, iq.defaultFramerate else).
 */
export function modelAnimations(iq, model) {
  const named = model.animations.map((a, index) => ({ ...a, index })).filter((a) => a.frameCount > 0);
  const flagged = named.some((a) => a.loop);
  let list = named.map((a) => ({
    name: a.name, part: 'both', kind: 'animation', model, index: a.index, firstFrame: a.firstFrame,
    frameCount: a.frameCount, framerate: a.framerate > 0 ? a.framerate : iq.defaultFramerate, loop: flagged ? a.loop : true,
  }));
  if (!list.length && model.frameCount > 1) list = [rawFrames(iq, model, 'both')];
  for (const a of list) a.duration = playheadOf(a, a.part, 0, { loop: naturalLoop(a) }).duration;
  return list;
}

/** A clip over all of a model's frames (an MD3 without animations, a player part without animation.cfg). */
function rawFrames(iq, model, part) {
  const framerate = model.format === 'md3' ? iq.md3Framerate : iq.defaultFramerate;
  return {
    name: 'all frames', part, kind: 'clip', model, firstFrame: 0, frameCount: model.frameCount, framerate, loop: true,
    clip: { firstFrame: 0, frameCount: model.frameCount, framerate, loop: true },
  };
}

/**
 * A Quake 3 player's animations: its animation.cfg entries (Quake 3's stepping), or without one,
 * each part's raw frames as a clip ('all frames' on legs and on torso).
 */
export function playerAnimations(iq, player) {
  const models = { legs: player.parts.lower.model, torso: player.parts.upper.model };
  let list;
  if (player.animations.length) {
    list = player.animations.map((a) => ({
      name: a.name, part: a.part, kind: 'q3', lib: iq, q3: a, models, model: null, firstFrame: a.firstFrame,
      frameCount: Math.max(a.frameCount, 1), framerate: a.fps, loop: a.loop, reversed: Boolean(a.reversed),
    }));
  } else {
    list = ['legs', 'torso'].filter((part) => models[part].frameCount > 1).map((part) => rawFrames(iq, models[part], part));
  }
  for (const a of list) a.duration = playheadOf(a, a.part === 'torso' ? 'torso' : 'legs', 0, { loop: naturalLoop(a) }).duration;
  return list;
}

/** The loop mode an animation plays in unless the element's `loop` says otherwise. */
export function naturalLoop(animation) {
  return animation.loop ? 'repeat' : 'once';
}

/**
 * The C's playhead for `animation` on track `part` at `time` seconds of play in `direction`
 * (1 forward, -1 backward): { frameA, frameB, blend, position, duration, loops, finished, frameCount }.
 * A Quake 3 animation steps as CG_RunLerpFrame when it plays forward in its own loop mode; in
 * another mode or backwards its frames play as a clip at its fps (reversed ones from their end).
 */
export function playheadOf(animation, part, time, { loop = naturalLoop(animation), direction = 1, interpolate = true } = {}) {
  const a = animation;
  const options = { loop, speed: direction < 0 ? -1 : 1, interpolate };
  if (a.kind === 'animation') return a.model.frameAt(a.index, time, options);
  if (a.kind === 'clip') return a.model.clipAt(a.clip, time, options);
  const model = a.models[part] ?? a.models[a.part] ?? a.models.legs;
  if ((direction > 0 && loop === naturalLoop(a)) || !a.q3.fits) {
    const h = q3Playhead(a.lib, a.q3, time, model.frameCount);
    // Stepped playback: the frame Quake 3 is lerping from, held.
    return {
      frameA: h.from, frameB: interpolate ? h.to : h.from, blend: interpolate ? h.lerp : 0, position: h.position,
      duration: h.duration, loops: h.loops, finished: h.finished, frameCount: a.q3.frameCount,
    };
  }
  const clip = { firstFrame: a.firstFrame, frameCount: a.frameCount, framerate: a.framerate, loop: a.loop };
  return model.clipAt(clip, time, { ...options, speed: a.reversed ? -options.speed : options.speed });
}

// Forward play is monotonic over this many seconds of a pass: where seeking a frame searches.
function monotonicSpan(loop, duration) {
  return loop === 'pingpong' ? duration / 2 : duration;
}

export class Track {
  constructor(part = 'both') {
    this.part = part;
    this.animation = null; // an entry of modelAnimations / playerAnimations
    this.time = 0;         // seconds of play since the start, in `direction`
    this.direction = 1;    // 1 forward, -1 backward (the sign of the element's timeScale)
    this.loop = 'repeat';
    this.fade = null;      // { animation, time, loop, direction, elapsed, duration } while crossfading
    this.transition = null; // Quake 3's change of animation under way (q3Transition)
    this._loops = 0;       // the C's loop count when last looked at
    this._count = 0;       // loop events so far (each completed period or bounce)
    this._finished = false;
  }

  /** The C's playhead of this track at `time` (default: now). */
  head(time = this.time, interpolate = true) {
    if (!this.animation) return null;
    return playheadOf(this.animation, this.part, time, { loop: this.loop, direction: this.direction, interpolate });
  }

  /** Seconds of one pass (once) or one period (repeat, pingpong), as the C counts them. */
  get duration() { return this.head()?.duration ?? 0; }

  /** Fractional frame inside the animation (the C's position). */
  get frame() { return this.head()?.position ?? 0; }

  /** The global frame shown (the C's frame A). */
  get globalFrame() { return this.head()?.frameA ?? 0; }

  get frameCount() { return this.head()?.frameCount ?? 0; }

  /** true once a `once` animation reached its end (the C's finished). */
  get finished() { return this._finished; }

  /** Global frames to blend for drawing: { a, b, t }; interpolate false holds whole frames (stepped). */
  frames(interpolate = true) {
    if (this.transition) return transitionFrames(this.transition, interpolate);
    const h = this.head(this.time, interpolate);
    return h ? { a: h.frameA, b: h.frameB, t: h.blend } : { a: 0, b: 0, t: 0 };
  }

  /**
   * Starts `animation` from its beginning (its end when playing backwards), crossfading for
   * `crossfade` s; or, with `q3Transition` and an animation.cfg animation played forward, changing
   * animation as cgame does (see q3Transition below) and no crossfade.
   */
  start(animation, { speed = 1, loop = this.loop, crossfade = 0, q3Transition: asQuake3 = false } = {}) {
    const transition = asQuake3 && speed > 0 && this.animation && animation?.kind === 'q3'
      ? q3Transition(this.head(), this.animation, animation, this.part) : null;
    if (transition) {
      this.fade = null;
    } else if (crossfade > 0 && this.animation && animation && this.animation !== animation) {
      this.fade = { animation: this.animation, time: this.time, loop: this.loop, direction: this.direction, elapsed: 0, duration: crossfade };
    } else {
      this.fade = null;
    }
    this.animation = animation;
    this.loop = loop;
    this.rewind(speed);
    this.transition = transition;
  }

  rewind(speed = 1) {
    this.transition = null;
    this.direction = speed < 0 ? -1 : 1;
    this.time = 0;
    this._baseline(0);
  }

  // Takes the C's loop count at the current time as the reference for loop events; not finished
  // (the next step that the C answers `finished` for reports it, even for a one-frame animation).
  _baseline(count) {
    this._loops = this.head()?.loops ?? 0;
    this._finished = false;
    this._count = count;
  }

  /**
   * Plays the other way from where the play head is: the time at which the C, played the new way,
   * shows the same position (a pass mirrored: duration - t; pingpong: half a period - t).
   */
  setDirection(sign) {
    const direction = sign < 0 ? -1 : 1;
    if (direction === this.direction) return;
    this.direction = direction;
    if (!this.animation) return;
    const d = this.duration;
    const t = this.loop === 'once' ? Math.min(Math.max(this.time, 0), d) : this.time;
    this.time = Math.max(monotonicSpan(this.loop, d) - t, this.loop === 'once' ? 0 : -Infinity);
    this._baseline(this._count);
  }

  /** Moves the play head by dt seconds at `speed`; returns the events the C's answers changed into. */
  advance(dt, speed) {
    const events = [];
    if (this.fade) {
      this.fade.elapsed += dt;
      if (this.fade.elapsed >= this.fade.duration) this.fade = null;
    }
    if (!this.animation || dt === 0 || speed === 0) return events;
    if (this.transition && speed > 0) {
      // The new animation's clock starts when the change is over; what is left of dt plays it.
      const t = this.transition;
      t.elapsed += dt * speed;
      if (t.elapsed < t.duration) return events;
      dt = (t.elapsed - t.duration) / speed;
      this.transition = null;
      if (dt === 0) return events;
    }
    this.transition = null;
    this.setDirection(speed);
    if (this._finished) return events;
    this.time += dt * Math.abs(speed);
    const h = this.head();
    const detail = { animation: this.animation.name, part: this.part };
    if (h.loops !== this._loops) {
      this._count += Math.abs(h.loops - this._loops);
      this._loops = h.loops;
      events.push({ type: 'loop', detail: { ...detail, count: this._count } });
    }
    if (h.finished && !this._finished) {
      this._finished = true;
      events.push({ type: 'finished', detail });
    }
    return events;
  }

  /** Puts the play head at `seconds` of play (clamped to the pass in once mode). */
  seek(seconds) {
    this.transition = null;
    const d = this.duration;
    this.time = Math.max(0, Number(seconds) || 0);
    if (this.loop === 'once') this.time = Math.min(this.time, d);
    this._baseline(Math.abs(this.head()?.loops ?? 0));
  }

  /**
   * Puts the play head on a frame of the animation (fractions allowed): the earliest time of the
   * first pass at which the C's position reaches `frame` (beyond the pass: its end, which in repeat
   * mode is the start again). Searched, so the frame-to-time rule is the C's alone.
   */
  seekFrame(frame) {
    if (!this.animation) return;
    this.transition = null;
    const direction = this.direction;
    this.direction = 1; // search forward play, where position grows with time; then mirror back
    this.time = this._timeOf(Number(frame) || 0);
    this._baseline(0);
    this.setDirection(direction);
    this._baseline(0);
  }

  _timeOf(frame) {
    const span = monotonicSpan(this.loop, this.duration);
    const at = (t) => this.head(t, true).position;
    if (!(span > 0) || at(0) >= frame) return 0;
    let lo = 0;
    let hi = span;
    for (let i = 0; i < 60 && hi - lo > 1e-12; i++) {
      const mid = (lo + hi) / 2;
      if (at(mid) >= frame) hi = mid; else lo = mid;
    }
    // The position is a float: it may reach `frame` while the C still blends the frame before at
    // 0.9999999. Move on until the C shows the frame itself.
    const h = this.head(hi, true);
    if (h.blend > 0.5 && Math.abs(h.position - frame) < 1e-3) {
      for (let e = 1e-12; e < 1e-3; e *= 4) {
        if (this.head(hi + e, true).blend < 0.5) return hi + e;
      }
    }
    return hi;
  }

  /** Moves `n` whole frames from the nearest one; in repeat mode past either end wraps around. */
  stepFrames(n) {
    if (!this.animation) return;
    let target = Math.round(this.frame) + n;
    if (target < 0 && this.loop === 'repeat') {
      // The last frame of the period: the C's position just before the period ends.
      const direction = this.direction;
      this.direction = 1;
      const last = Math.floor(this.head(this.duration * (1 - 1e-6)).position);
      this.direction = direction;
      target += last + 1;
    }
    this.seekFrame(Math.max(target, 0));
  }

  /** 0..1: how much of the previous animation still shows (crossfade), 0 when none. */
  get fadeWeight() {
    return this.fade ? 1 - this.fade.elapsed / this.fade.duration : 0;
  }

  /** The C's playhead of the animation being faded out, held where it was (stepped, as Quake 3 does). */
  fadeHead() {
    const f = this.fade;
    if (!f) return null;
    return playheadOf(f.animation, this.part, f.time, { loop: f.loop, direction: f.direction, interpolate: false });
  }
}

/**
 * Quake 3's change of animation (cgame's CG_SetLerpFrameAnimation and CG_RunLerpFrame): the part
 * finishes the lerp it is in (from `from` toward `to`, up to the old animation's next frame time;
 * none when the old one had finished, as its frame time then follows the clock), then `to` becomes
 * the old frame and the new animation's first frame is lerped toward over one of its frame times
 * (initialLerp); the new animation's time 0 is the end of that. `head` is the old play head.
 * Returns { from, to, lerp, first, rest, initial, duration, elapsed } (seconds).
 */
export function q3Transition(head, previous, animation, part = animation.part) {
  const initial = animation.q3.frameLerp / 1000;
  const oldLerp = previous?.kind === 'q3' ? previous.q3.frameLerp / 1000 : 0;
  const from = head ? head.frameA : 0;
  // On a frame's time exactly (blend 0) the game has just stepped: that frame becomes the old one.
  const moving = head && !head.finished && head.frameB !== from && head.blend > 1e-9;
  const to = moving ? head.frameB : from;
  const lerp = moving ? head.blend : 1;
  const rest = (1 - lerp) * oldLerp;
  const models = animation.models;
  const first = q3Playhead(animation.lib, animation.q3, 0, (models[part] ?? models[animation.part] ?? models.legs).frameCount).from;
  return { from, to, lerp, first, rest, initial, duration: rest + initial, elapsed: 0 };
}

/** The frames a Quake 3 change of animation shows `t.elapsed` seconds in: { a, b, t }. */
export function transitionFrames(t, interpolate = true) {
  if (t.elapsed < t.rest) {
    const lerp = t.lerp + (1 - t.lerp) * (t.elapsed / t.rest);
    return interpolate ? { a: t.from, b: t.to, t: lerp } : { a: t.from, b: t.from, t: 0 };
  }
  const lerp = t.initial > 0 ? Math.min((t.elapsed - t.rest) / t.initial, 1) : 1;
  return interpolate ? { a: t.to, b: t.first, t: lerp } : { a: t.to, b: t.to, t: 0 };
}

/**
 * Poses every part of `content` (see content.js) for the tracks' play heads: skin matrices of the
 * part's instance for skinned models, { a, b, t } morph frames for MD3, and for a Quake 3 player
 * each part's placement (the C places tags between any two frames: loop seams, crossfades).
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
      part.frames = { a: 0, b: 0, t: 0 };
      part.morph = model.framePositions && model.frameCount ? part.frames : null;
      continue;
    }
    if (model.framePositions || !model.joints.length) {
      const frames = track.frames(interpolate);
      part.frames = frames;
      part.morph = model.framePositions ? crossfaded(track, frames) : null;
    } else {
      part.frames = poseSkin(part, track, interpolate);
      part.skin = part.instance.skinMatrices;
    }
  }
}

// Quake's way to change animation: lerp from the frame the old one was on to the new one's frame.
function crossfaded(track, frames) {
  const from = track.fadeHead();
  return from ? { a: from.frameA, b: frames.a, t: 1 - track.fadeWeight } : frames;
}

// Places and morphs the player's parts for the legs and torso play heads (none: first frames).
function posePlayer(content, tracks, interpolate) {
  const framesFor = (part) => {
    const track = tracks?.find((t) => t.part === part);
    return track?.animation ? crossfaded(track, track.frames(interpolate)) : null;
  };
  const legs = framesFor('legs');
  const torso = framesFor('torso');
  const state = {};
  if (legs) state.legs = { from: legs.a, to: legs.b, lerp: legs.t };
  if (torso) state.torso = { from: torso.a, to: torso.b, lerp: torso.t };
  const pose = content.player.pose(state);
  for (const part of content.parts) {
    const placed = pose[part.partName];
    if (placed?.matrix) part.matrix = placed.matrix;
    const f = part.track === 'legs' ? legs : part.track === 'torso' && part.partName === 'upper' ? torso : null;
    part.frames = f ?? { a: placed?.from ?? 0, b: placed?.to ?? 0, t: placed?.lerp ?? 0 };
    part.morph = part.frames;
  }
}

// A skinned part posed by the animator on its instance: the track's animation at its time, in its
// loop mode and direction, crossfaded with the previous animation held where it was. Returns the
// frames the C chose.
function poseSkin(part, track, interpolate) {
  const a = track.animation;
  const instance = part.instance;
  if (a.kind !== 'animation') {
    // Raw frames of a skinned model (frames with no named animation): evaluate takes one
    // fractional frame, so a blend across the loop seam shows the frame it leaves.
    const h = track.head(track.time, interpolate);
    instance.evaluate(h.frameB === h.frameA + 1 ? h.frameA + h.blend : h.frameA);
    return { a: h.frameA, b: h.frameB, t: h.blend };
  }
  const options = { loop: track.loop, speed: track.direction, interpolate };
  const f = track.fade;
  if (f && f.animation.kind === 'animation' && f.animation.model === a.model) {
    options.crossfade = {
      animation: f.animation.index, time: f.time, loop: f.loop, speed: f.direction, interpolate: false, weight: track.fadeWeight,
    };
  }
  const h = instance.pose(a.index, track.time, options);
  return { a: h.frameA, b: h.frameB, t: h.blend };
}
