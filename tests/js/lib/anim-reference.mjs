// An independent double-precision reference for the animator: time to frames
// for every loop mode, local poses with slerp or nlerp, crossfades and joint
// matrices. It works on the reference reader's decoded file (iqm-reference.mjs
// parseIQM), shares no code with the C animator, and states each rule the way
// docs/API-anim.md does.

import { normalizeQ, slerp, trsMatrix, mul, worldMatrices } from './iqm-reference.mjs';

export const DEFAULT_FRAMERATE = 24;

const mod = (x, n) => x - Math.floor(x / n) * n;

/** nlerp along the shorter arc, in doubles. */
export function nlerp(a, b, t) {
  const dot = a.reduce((s, x, i) => s + x * b[i], 0);
  const bb = dot < 0 ? b.map((x) => -x) : b;
  return normalizeQ(a.map((x, i) => x + (bb[i] - x) * t));
}

/** True when the animation's last frame is the same pose as its first (a Blender-exported loop). */
function repeatsFirstFrame(ref, anim) {
  if (anim.frameCount < 3) return false;
  const first = ref.frames[anim.firstFrame];
  const last = ref.frames[anim.firstFrame + anim.frameCount - 1];
  return first.every((p, j) => ['translate', 'rotate', 'scale'].every((k) => p[k].every((x, i) => x === last[j][k][i])));
}

/**
 * The playhead of `anim` at `time`: { local: fractional frame in the clip, a, b (local frames), t, loops, finished }.
 * Rules: distance d = time * fps * |speed| frames. repeat cycles through `period` frames (frameCount, or
 * frameCount - 1 when the last frame repeats the first) and blends the last shown frame into frame 0;
 * once clamps to [0, frameCount - 1]; pingpong is a triangle wave over [0, frameCount - 1].
 * Negative speed plays the same path mirrored: from the end towards the start.
 */
export function playhead(ref, anim, time, options = {}) {
  const { loop = anim.loop ? 'repeat' : 'once', framerate = 0, speed = 1, interpolate = true } = options;
  const n = anim.frameCount;
  const fps = framerate > 0 ? framerate : anim.framerate > 0 ? anim.framerate : DEFAULT_FRAMERATE;
  const d = time * (fps * Math.abs(speed)); // the same rounding as the C side: rate first
  const last = n - 1;
  let local;
  let loops = 0;
  let finished = false;
  let period = n;
  if (loop === 'repeat') {
    if (repeatsFirstFrame(ref, anim)) period = n - 1;
    loops = Math.floor(d / period);
    local = speed < 0 ? mod(-d, period) : mod(d, period);
  } else if (loop === 'pingpong') {
    if (last === 0) local = 0;
    else {
      loops = Math.floor(d / (2 * last));
      const phase = mod(d, 2 * last);
      local = last - Math.abs(phase - last); // 0 .. last .. 0
      if (speed < 0) local = last - local;
    }
  } else {
    finished = d >= last;
    const clamped = Math.min(Math.max(d, 0), last);
    local = speed < 0 ? last - clamped : clamped;
  }
  let a = Math.floor(local);
  let t = local - a;
  if (Math.fround(t) >= 1) { a += 1; t = 0; } // a blend that rounds to 1 in float32 shows the next frame
  if (loop === 'repeat' && a >= period) a = 0;
  let b;
  if (loop === 'repeat') b = (a + 1) % period;
  else if (a >= last) { a = last; b = last; t = 0; } else b = a + 1;
  if (!interpolate) { b = a; t = 0; }
  return { local, a, b, t, loops, finished };
}

/** The default rotation rule: nlerp for rotations up to 10 degrees apart, slerp beyond. */
export function autoRotation(a, b, t) {
  const halfAngle = Math.acos(Math.min(1, Math.abs(a.reduce((s, x, i) => s + x * b[i], 0))));
  return halfAngle > 5 * (Math.PI / 180) ? normalizeQ(slerp(a, b, t)) : nlerp(a, b, t);
}

function blendTransform(p, q, t, rotation = 'auto') {
  const lerp = (x, y) => x.map((v, i) => v + (y[i] - v) * t);
  const rotate = { slerp: (a, b) => normalizeQ(slerp(a, b, t)), nlerp: (a, b) => nlerp(a, b, t), auto: (a, b) => autoRotation(a, b, t) };
  return {
    translate: lerp(p.translate, q.translate),
    rotate: rotate[rotation](p.rotate, q.rotate),
    scale: lerp(p.scale, q.scale),
  };
}

/** Local poses of an animation (index) at a time, in doubles. */
export function samplePose(ref, animIndex, time, options = {}) {
  const anim = ref.anims[animIndex];
  if (!anim.frameCount || !ref.frames.length) return ref.joints.map((j) => ({ ...j }));
  const h = playhead(ref, anim, time, options);
  const fa = ref.frames[anim.firstFrame + h.a];
  const fb = ref.frames[anim.firstFrame + h.b];
  return fa.map((p, j) => blendTransform(p, fb[j], h.t, options.rotation));
}

/** samplePose with an optional crossfade { animation, time, weight, ...options } toward a second animation. */
export function samplePlay(ref, animIndex, time, options = {}) {
  const pose = samplePose(ref, animIndex, time, options);
  const x = options.crossfade;
  if (!x || !(x.weight > 0)) return pose;
  const other = samplePose(ref, x.animation, x.time, x);
  const w = Math.min(x.weight, 1);
  return pose.map((p, j) => blendTransform(p, other[j], w, options.rotation));
}

/** Model-space matrices (row-major 4x4 arrays) for local poses. */
export function jointWorld(ref, locals) {
  return worldMatrices(ref.joints, locals);
}

/** A row-major 4x4 as the column-major array of 16 that jointMatrix returns. */
export function toColumnMajor(m) {
  const out = new Array(16);
  for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) out[4 * c + r] = m[4 * r + c];
  return out;
}

export { trsMatrix, mul };
