// Overlay lines drawn over or into the model, by the element and the software renderer alike: the
// grid, each part's bounds, skeleton, tags and vertex normals; the wireframe's edges and colour. Each segment is x y z r g b per end;
// 'depth' segments are hidden by the model, 'top' ones are not. Tags also get their names as
// labels, placed at each tag's origin (the element shows them as HTML: web/viewer/labels.js).

import { multiply, transformPoint } from '../core/mat4.js';
import { sane } from './framing.js';

/** The overlays the element's `show` attribute and the renderer's `show` option name. */
export const SHOW_FLAGS = ['wireframe', 'skeleton', 'tags', 'bounds', 'normals', 'grid'];
/** The wireframe's colour (RGB 0..1): every triangle edge once, over the shaded model. */
export const WIREFRAME_COLOR = [0.1, 0.9, 0.4];

/** Each triangle edge once (pairs of vertex indices), for the wireframe overlay. */
export function triangleEdges(indices) {
  const seen = new Set();
  const edges = [];
  for (let t = 0; t < indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = indices[t + k];
      const b = indices[t + (k + 1) % 3];
      const key = a < b ? a * 0x100000000 + b : b * 0x100000000 + a;
      if (!seen.has(key)) { seen.add(key); edges.push(a, b); }
    }
  }
  return new Uint32Array(edges);
}

/**
 * { depth, top, labels }: Float32Arrays of segments (or null) for the flags in `show`, and the
 * tag labels ([{ text, at: [x, y, z] }], world positions).
 */
export function overlayLines(content, show, camera) {
  const depth = [];
  const top = [];
  const labels = [];
  const seg = (out, p, q, color) => out.push(p[0], p[1], p[2], ...color, q[0], q[1], q[2], ...color);
  if (show.has('grid')) {
    const b = content.bounds;
    const size = camera.fitRadius * 1.5;
    const step = niceStep(size / 5);
    const cx = Math.round((b.min[0] + b.max[0]) / 2 / step) * step;
    const cy = Math.round((b.min[1] + b.max[1]) / 2 / step) * step;
    const z = Math.min(b.min[2], 0);
    const n = Math.ceil(size / step);
    for (let i = -n; i <= n; i++) {
      const color = i === 0 ? [0.45, 0.45, 0.5] : [0.3, 0.3, 0.34];
      seg(depth, [cx + i * step, cy - n * step, z], [cx + i * step, cy + n * step, z], color);
      seg(depth, [cx - n * step, cy + i * step, z], [cx + n * step, cy + i * step, z], color);
    }
  }
  for (const part of content.parts) {
    const m = part.matrix;
    const model = part.model;
    const frames = part.frames ?? { a: 0, b: 0, t: 0 };
    if (show.has('bounds')) {
      const fb = model.frameBounds;
      const f = part.frames?.a ?? 0;
      const box = fb && f < model.frameCount ? { min: fb.subarray(f * 8, f * 8 + 3), max: fb.subarray(f * 8 + 3, f * 8 + 6) } : model.bounds;
      // The file's own box, as stored; one that is not finite or absurd (real MD3s have 1e27) is not drawn.
      if (box && sane(box) === box) boxLines(box, m, (p, q) => seg(top, p, q, [0.95, 0.8, 0.2]));
    }
    if (show.has('skeleton') && model.joints.length) {
      const world = part.skin ? (part.instance ?? model).worldMatrices : null;
      const positions = jointPositions(model, world);
      model.joints.forEach((joint, i) => {
        const p = transformPoint(m, positions[i]);
        if (joint.parent >= 0) seg(top, transformPoint(m, positions[joint.parent]), p, [1, 0.55, 0.1]);
        const s = camera.fitRadius * 0.02;
        seg(top, [p[0] - s, p[1], p[2]], [p[0] + s, p[1], p[2]], [1, 1, 1]);
        seg(top, [p[0], p[1], p[2] - s], [p[0], p[1], p[2] + s], [1, 1, 1]);
      });
    }
    if (show.has('tags') && model.tags?.length && typeof model.tagMatrix === 'function') {
      const length = camera.fitRadius * 0.12;
      for (const name of model.tags) {
        // Between the two frames drawn, as the C places tags (a loop seam, a crossfade).
        const t = model.tagMatrixBetween ? model.tagMatrixBetween(name, frames.a, frames.b, frames.t) : model.tagMatrix(name, frames.a);
        if (!t) continue;
        const tm = multiply(m, t);
        const o = transformPoint(tm, [0, 0, 0]);
        seg(top, o, transformPoint(tm, [length, 0, 0]), [1, 0.2, 0.2]);
        seg(top, o, transformPoint(tm, [0, length, 0]), [0.2, 1, 0.2]);
        seg(top, o, transformPoint(tm, [0, 0, length]), [0.3, 0.5, 1]);
        labels.push({ text: name, at: o });
      }
    }
    if (show.has('normals')) normalLines(part, camera.fitRadius * 0.03, (p, q) => seg(depth, p, q, [0.4, 0.7, 1]));
  }
  return { depth: depth.length ? new Float32Array(depth) : null, top: top.length ? new Float32Array(top) : null, labels };
}

function jointPositions(model, world) {
  return model.joints.map((joint, i) => {
    if (world) return [world[i * 12 + 3], world[i * 12 + 7], world[i * 12 + 11]];
    return null;
  }).map((p, i, all) => p ?? bindPosition(model, i, all));
}

// Bind-pose joint position from the inverse bind matrix (its inverse's translation).
function bindPosition(model, i) {
  const m = model.inverseBindMatrices;
  if (!m) return [0, 0, 0];
  const r = m.subarray(i * 12, i * 12 + 12);
  // inverse of [R|t] is [R^T | -R^T t]
  const t = [r[3], r[7], r[11]];
  return [
    -(r[0] * t[0] + r[4] * t[1] + r[8] * t[2]),
    -(r[1] * t[0] + r[5] * t[1] + r[9] * t[2]),
    -(r[2] * t[0] + r[6] * t[1] + r[10] * t[2]),
  ];
}

function boxLines(box, m, line) {
  const { min, max } = box;
  const corner = (i) => transformPoint(m, [i & 1 ? max[0] : min[0], i & 2 ? max[1] : min[1], i & 4 ? max[2] : min[2]]);
  const edges = [[0, 1], [2, 3], [4, 5], [6, 7], [0, 2], [1, 3], [4, 6], [5, 7], [0, 4], [1, 5], [2, 6], [3, 7]];
  for (const [a, b] of edges) line(corner(a), corner(b));
}

// Vertex normals of the posed mesh, skinned or morphed on the CPU (only while the overlay is on).
function normalLines(part, length, line) {
  const g = part.geometry;
  const m = part.matrix;
  const n = Math.min(g.vertexCount, 20000);
  // The model's arrays, fetched once (geometry reads them through getters).
  const frames = g.frames ? { positions: g.frames.positions, normals: g.frames.normals } : null;
  const positions = g.positions;
  const normals = g.normals;
  const joints = g.joints;
  const weights = g.weights;
  for (let i = 0; i < n; i++) {
    let p;
    let nv;
    if (part.morph && frames) {
      const { a, b, t } = part.morph;
      const at = (arr, f) => [0, 1, 2].map((k) => arr[(f * g.vertexCount + i) * 3 + k]);
      const pa = at(frames.positions, a);
      const pb = at(frames.positions, b);
      const na = at(frames.normals, a);
      const nb = at(frames.normals, b);
      p = pa.map((v, k) => v + (pb[k] - v) * t);
      nv = na.map((v, k) => v + (nb[k] - v) * t);
    } else {
      p = [positions[i * 3], positions[i * 3 + 1], positions[i * 3 + 2]];
      nv = normals ? [normals[i * 3], normals[i * 3 + 1], normals[i * 3 + 2]] : [0, 0, 1];
      if (part.skin && joints) {
        const s = part.skin;
        const pp = [0, 0, 0];
        const nn = [0, 0, 0];
        for (let k = 0; k < 4; k++) {
          const w = weights[i * 4 + k];
          if (!w) continue;
          const j = joints[i * 4 + k] * 12;
          for (let r = 0; r < 3; r++) {
            pp[r] += w * (s[j + r * 4] * p[0] + s[j + r * 4 + 1] * p[1] + s[j + r * 4 + 2] * p[2] + s[j + r * 4 + 3]);
            nn[r] += w * (s[j + r * 4] * nv[0] + s[j + r * 4 + 1] * nv[1] + s[j + r * 4 + 2] * nv[2]);
          }
        }
        p = pp;
        nv = nn;
      }
    }
    const l = Math.hypot(nv[0], nv[1], nv[2]) || 1;
    line(transformPoint(m, p), transformPoint(m, [p[0] + (nv[0] / l) * length, p[1] + (nv[1] / l) * length, p[2] + (nv[2] / l) * length]));
  }
}

function niceStep(x) {
  const p = 10 ** Math.floor(Math.log10(x));
  const f = x / p;
  return (f < 2 ? 1 : f < 5 ? 2 : 5) * p;
}
