// The box the camera frames: the vertices as they are drawn over the frames of the animations
// that start, never a file's stored bounds (real MD3s ship per-frame boxes of 1e27). Skinned
// models are evaluated at each frame (model.evaluate: the CPU skinning path), MD3 frames are read
// from model.framePositions, a Quake 3 player's parts are placed by its tags at each frame.
// Points that are not finite are skipped; a box that is still unusable becomes the unit box.

import { transformPoint, IDENTITY } from '../core/mat4.js';

const MAX_SAMPLES = 48;        // frames sampled per animation (evenly spread): framing stays fast
const MAX_POINTS = 200000;     // vertices looked at per sample, at most
export const LIMIT = 1e7;      // a box wider than this is absurd: no model is that big

/** { min, max } of what is drawn, or null when nothing is (no vertices, or none finite). */
export function drawnBounds(content, tracks) {
  const box = new Box();
  if (content.player) playerBounds(content, tracks, box);
  else {
    for (const part of content.parts) {
      const track = tracks.find((t) => t.part === part.track) ?? tracks[0];
      const animation = track?.animation?.model === part.model ? track.animation : null;
      modelBounds(part.model, animation, part.matrix ?? IDENTITY, box);
    }
  }
  return box.result();
}

/** A usable { min, max }: finite, not absurd, not empty; otherwise the unit box around the origin. */
export function sane(bounds) {
  const ok = bounds && [0, 1, 2].every((k) => Number.isFinite(bounds.min[k]) && Number.isFinite(bounds.max[k])
    && bounds.min[k] <= bounds.max[k] && bounds.max[k] - bounds.min[k] < LIMIT && Math.abs(bounds.min[k]) < LIMIT && Math.abs(bounds.max[k]) < LIMIT);
  return ok ? bounds : { min: [-1, -1, -1], max: [1, 1, 1] };
}

function samples(first, count) {
  if (count <= MAX_SAMPLES) return Array.from({ length: count }, (_, i) => first + i);
  return Array.from({ length: MAX_SAMPLES }, (_, i) => first + Math.round((i * (count - 1)) / (MAX_SAMPLES - 1)));
}

function modelBounds(model, animation, matrix, box) {
  const n = Math.min(model.vertexCount, MAX_POINTS);
  if (!n) return;
  const frames = animation
    ? samples(Math.max(animation.firstFrame, 0), Math.min(animation.frameCount, model.frameCount - Math.max(animation.firstFrame, 0)))
    : [];
  if (model.framePositions && model.frameCount > 0) {
    const all = model.framePositions;
    for (const f of frames.length ? frames : [0]) box.addPoints(all, f * model.vertexCount * 3, n, matrix);
  } else if (frames.length && model.joints.length) {
    for (const f of frames) box.addPoints(model.evaluate(f).positions, 0, n, matrix);
  } else {
    box.addPoints(model.positions, 0, n, matrix);
  }
}

function playerBounds(content, tracks, box) {
  const legs = tracks.find((t) => t.part === 'legs')?.animation;
  const torso = tracks.find((t) => t.part === 'torso')?.animation;
  const legFrames = legs ? samples(legs.firstFrame, legs.frameCount) : [undefined];
  const torsoFrames = torso ? samples(torso.firstFrame, torso.frameCount) : [undefined];
  const steps = Math.max(legFrames.length, torsoFrames.length);
  for (let i = 0; i < steps; i++) {
    const state = {};
    const l = legFrames[Math.floor((i * legFrames.length) / steps)];
    const t = torsoFrames[Math.floor((i * torsoFrames.length) / steps)];
    if (l !== undefined) state.legs = { frame: l };
    if (t !== undefined) state.torso = { frame: t };
    const pose = content.player.pose(state);
    for (const part of content.parts) {
      const placed = pose[part.partName];
      const model = part.model;
      if (!model.vertexCount || !model.frameCount) continue;
      const frame = Math.min(Math.max(placed?.from ?? 0, 0), model.frameCount - 1);
      box.addPoints(model.framePositions, frame * model.vertexCount * 3, Math.min(model.vertexCount, MAX_POINTS), placed?.matrix ?? IDENTITY);
    }
  }
}

class Box {
  constructor() {
    this.min = [Infinity, Infinity, Infinity];
    this.max = [-Infinity, -Infinity, -Infinity];
  }

  addPoints(array, offset, count, matrix) {
    const identity = matrix === IDENTITY;
    for (let i = 0; i < count; i++) {
      const at = offset + i * 3;
      let p = [array[at], array[at + 1], array[at + 2]];
      if (!identity) p = transformPoint(matrix, p);
      if (!(Math.abs(p[0]) < LIMIT && Math.abs(p[1]) < LIMIT && Math.abs(p[2]) < LIMIT)) continue; // NaN too
      for (let k = 0; k < 3; k++) {
        if (p[k] < this.min[k]) this.min[k] = p[k];
        if (p[k] > this.max[k]) this.max[k] = p[k];
      }
    }
  }

  result() {
    return Number.isFinite(this.min[0]) ? { min: this.min, max: this.max } : null;
  }
}
