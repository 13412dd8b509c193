// Writes the viewer's built-in demo model: "critter", a small four-legged creature the project
// made itself (so the viewer shows something alive with no file at hand, and carries no one
// else's licence). One description, written three ways into web/demo/:
//   critter.iqe  readable IQE text (the same rig and animations)
//   critter.iqm  the binary IQM the viewer page loads (written with tests/js/lib/iqm-build.mjs,
//                the project's spec-based IQM writer)
//   critter.png  its fur texture (a generated pattern, PNG written with node:zlib)
// Run: node tools/make-demo.mjs   (npm start and build.sh run it when this file is newer than the output)
//
// Conventions: Quake's Z up, facing +X, clockwise front faces, 24 frames per second.

import { writeFileSync, mkdirSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { buildIQM } from '../tests/js/lib/iqm-build.mjs';

const OUT = fileURLToPath(new URL('../web/demo/', import.meta.url));
const FPS = 24;

// ---- skeleton: bind poses are translations relative to the parent (identity rotations)

const joints = [];
const joint = (name, parent, translate) => {
  joints.push({ name, parent: parent === null ? -1 : joints.findIndex((j) => j.name === parent), translate });
  return joints.length - 1;
};
joint('root', null, [0, 0, 0]);
joint('body', 'root', [0, 0, 1.15]);
joint('head', 'body', [0.95, 0, 0.4]);
joint('ear.L', 'head', [0.05, 0.26, 0.38]);
joint('ear.R', 'head', [0.05, -0.26, 0.38]);
joint('tail.1', 'body', [-0.95, 0, 0.15]);
joint('tail.2', 'tail.1', [-0.45, 0, 0.12]);
joint('tail.3', 'tail.2', [-0.4, 0, 0.1]);
const LEGS = [['front.L', 0.55, 0.42], ['front.R', 0.55, -0.42], ['back.L', -0.55, 0.42], ['back.R', -0.55, -0.42]];
for (const [name, x, y] of LEGS) {
  joint(`hip.${name}`, 'body', [x, y, -0.3]);
  joint(`knee.${name}`, `hip.${name}`, [0, 0, -0.42]);
}
const J = Object.fromEntries(joints.map((j, i) => [j.name, i]));

// Bind-pose world positions (translations only, since bind rotations are identity).
const bindWorld = joints.map(() => [0, 0, 0]);
joints.forEach((j, i) => {
  const p = j.parent >= 0 ? bindWorld[j.parent] : [0, 0, 0];
  bindWorld[i] = [p[0] + j.translate[0], p[1] + j.translate[1], p[2] + j.translate[2]];
});

// ---- mesh: ellipsoids rigid on one joint, tubes blended along a joint chain

const meshes = [];
let current = null;
const startMesh = (name, material) => {
  current = { name, material, vertices: [], triangles: [] };
  meshes.push(current);
};
const vertex = (p, n, uv, color, blend) => {
  current.vertices.push({ p, n, uv, color, blend });
  return current.vertices.length - 1;
};
// A quad grid (rings x segments) closed around; emits clockwise-from-outside triangles.
const grid = (base, rings, segments, capStart, capEnd) => {
  const at = (r, s) => base + r * (segments + 1) + s;
  for (let r = 0; r < rings; r++) {
    for (let s = 0; s < segments; s++) {
      const a = at(r, s);
      const b = at(r, s + 1);
      const c = at(r + 1, s + 1);
      const d = at(r + 1, s);
      // Poles (and tube tips) collapse one triangle of the first and last ring: leave it out.
      if (!(capStart && r === 0)) current.triangles.push([a, b, c]);
      if (!(capEnd && r === rings - 1)) current.triangles.push([a, c, d]);
    }
  }
};

function ellipsoid(center, radii, jointIndex, color, { rings = 8, segments = 12, uvScale = [1, 1] } = {}) {
  const base = current.vertices.length;
  for (let r = 0; r <= rings; r++) {
    const theta = (r / rings) * Math.PI; // from +Z down to -Z
    for (let s = 0; s <= segments; s++) {
      const phi = (s / segments) * 2 * Math.PI;
      const unit = [Math.sin(theta) * Math.cos(phi), Math.sin(theta) * Math.sin(phi), Math.cos(theta)];
      const p = unit.map((u, k) => center[k] + u * radii[k]);
      const n = normalize(unit.map((u, k) => u / radii[k]));
      vertex(p, n, [(s / segments) * uvScale[0], (r / rings) * uvScale[1]], color, [[jointIndex, 1]]);
    }
  }
  grid(base, rings, segments, true, true);
}

// A tube through `points` (each { p, radius, blend }), with its own ring frame; ends are closed by cones.
function tube(points, color, segments = 10) {
  const base = current.vertices.length;
  points.forEach((point, r) => {
    const next = points[Math.min(r + 1, points.length - 1)].p;
    const prev = points[Math.max(r - 1, 0)].p;
    const axis = normalize(sub(next, prev));
    const side = normalize(cross(axis, Math.abs(axis[2]) > 0.9 ? [1, 0, 0] : [0, 0, 1]));
    const up = cross(side, axis);
    for (let s = 0; s <= segments; s++) {
      const phi = (s / segments) * 2 * Math.PI;
      const n = side.map((v, k) => Math.cos(phi) * v + Math.sin(phi) * up[k]);
      const radius = point.radius;
      vertex(point.p.map((v, k) => v + n[k] * radius), radius > 0 ? n : axis.map((v) => v * (r ? 1 : -1)),
        [s / segments, r / (points.length - 1)], color, point.blend);
    }
  });
  grid(base, points.length - 1, segments, true, true);
}

const lerp3 = (a, b, t) => a.map((v, k) => v + (b[k] - v) * t);
const W = bindWorld;
const FUR = [1, 0.72, 0.42, 1];
const BELLY = [1, 0.92, 0.8, 1];
const DARK = [0.55, 0.35, 0.22, 1];

startMesh('fur', 'critter.png');
ellipsoid(W[J.body], [1.05, 0.62, 0.55], J.body, FUR, { rings: 10, segments: 16, uvScale: [2, 1] });
ellipsoid(W[J.head].map((v, k) => v + [0.2, 0, 0.08][k]), [0.5, 0.44, 0.42], J.head, FUR, { rings: 9, segments: 14 });
ellipsoid(W[J.head].map((v, k) => v + [0.62, 0, -0.06][k]), [0.16, 0.14, 0.12], J.head, DARK, { rings: 5, segments: 8 }); // nose
for (const side of ['L', 'R']) {
  const ear = W[J[`ear.${side}`]];
  ellipsoid(ear.map((v, k) => v + [0, 0, 0.18][k]), [0.1, 0.14, 0.28], J[`ear.${side}`], FUR, { rings: 6, segments: 8 });
}
// Tail: blended along tail.1 -> tail.2 -> tail.3, thinning to a tip.
{
  const t1 = W[J['tail.1']];
  const t2 = W[J['tail.2']];
  const t3 = W[J['tail.3']];
  const tip = t3.map((v, k) => v + [-0.35, 0, 0.05][k]);
  tube([
    { p: lerp3(t1, t2, -0.2), radius: 0.0, blend: [[J['tail.1'], 1]] },
    { p: t1, radius: 0.2, blend: [[J['tail.1'], 1]] },
    { p: lerp3(t1, t2, 0.5), radius: 0.17, blend: [[J['tail.1'], 0.7], [J['tail.2'], 0.3]] },
    { p: t2, radius: 0.15, blend: [[J['tail.1'], 0.3], [J['tail.2'], 0.7]] },
    { p: lerp3(t2, t3, 0.5), radius: 0.13, blend: [[J['tail.2'], 0.6], [J['tail.3'], 0.4]] },
    { p: t3, radius: 0.12, blend: [[J['tail.3'], 1]] },
    { p: lerp3(t3, tip, 0.6), radius: 0.1, blend: [[J['tail.3'], 1]] },
    { p: tip, radius: 0.0, blend: [[J['tail.3'], 1]] },
  ], DARK);
}
// Legs: hip -> knee -> paw, blended at the knee.
for (const [name] of LEGS) {
  const hip = W[J[`hip.${name}`]];
  const knee = W[J[`knee.${name}`]];
  const paw = knee.map((v, k) => v + [0.05, 0, -0.42][k]);
  const h = J[`hip.${name}`];
  const kn = J[`knee.${name}`];
  tube([
    { p: hip.map((v, k) => v + [0, 0, 0.2][k]), radius: 0, blend: [[h, 1]] },
    { p: hip.map((v, k) => v + [0, 0, 0.12][k]), radius: 0.2, blend: [[h, 1]] },
    { p: lerp3(hip, knee, 0.5), radius: 0.16, blend: [[h, 1]] },
    { p: knee, radius: 0.13, blend: [[h, 0.5], [kn, 0.5]] },
    { p: lerp3(knee, paw, 0.6), radius: 0.11, blend: [[kn, 1]] },
    { p: paw, radius: 0.14, blend: [[kn, 1]] },
    { p: paw.map((v, k) => v + [0.04, 0, -0.04][k]), radius: 0, blend: [[kn, 1]] },
  ], BELLY, 10);
}

startMesh('eyes', '');
for (const side of [1, -1]) {
  const eye = W[J.head].map((v, k) => v + [0.5, 0.2 * side, 0.22][k]);
  ellipsoid(eye, [0.12, 0.12, 0.13], J.head, [1, 1, 1, 1], { rings: 6, segments: 10 });
  ellipsoid(eye.map((v, k) => v + [0.09, 0.01 * side, 0.01][k]), [0.05, 0.06, 0.07], J.head, [0.05, 0.05, 0.08, 1], { rings: 5, segments: 8 });
}

// ---- animations: local poses per frame (bind translation + motion)

const quat = (axis, angle) => {
  const [x, y, z] = normalize(axis);
  const s = Math.sin(angle / 2);
  return [x * s, y * s, z * s, Math.cos(angle / 2)];
};
const qmul = (a, b) => [
  a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
  a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
  a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
  a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
];
const X = [1, 0, 0];
const Y = [0, 1, 0];
const Z = [0, 0, 1];

// motion(t in 0..1) -> { jointName: { move: [dx,dy,dz], turn: [[axis, angle], ...], scale } }
function animation(name, frameCount, loop, motion) {
  const frames = [];
  for (let f = 0; f < frameCount; f++) {
    const m = motion(f / frameCount);
    frames.push(joints.map((j) => {
      const q = (m[j.name]?.turn || []).reduce((acc, [axis, angle]) => qmul(acc, quat(axis, angle)), [0, 0, 0, 1]);
      const move = m[j.name]?.move || [0, 0, 0];
      return { translate: j.translate.map((v, k) => v + move[k]), rotate: q, scale: m[j.name]?.scale || [1, 1, 1] };
    }));
  }
  return { name, frameCount, loop, frames };
}
const TAU = 2 * Math.PI;
const sin = (t, phase = 0) => Math.sin(TAU * t + phase);

const animations = [
  animation('idle', 48, true, (t) => ({
    body: { move: [0, 0, 0.03 * sin(t)], scale: [1, 1 + 0.03 * sin(t), 1 + 0.04 * sin(t)] },
    head: { turn: [[Z, 0.15 * sin(t, 1)], [Y, 0.05 * sin(2 * t)]] },
    'ear.L': { turn: [[X, 0.25 * Math.max(0, sin(2 * t)) ** 4]] },
    'ear.R': { turn: [[X, -0.25 * Math.max(0, sin(2 * t, 1)) ** 4]] },
    'tail.1': { turn: [[Z, 0.35 * sin(t)], [Y, -0.3]] },
    'tail.2': { turn: [[Z, 0.35 * sin(t, -0.8)]] },
    'tail.3': { turn: [[Z, 0.35 * sin(t, -1.6)]] },
  })),
  animation('walk', 24, true, (t) => {
    const swing = (phase) => 0.5 * sin(t, phase);
    const bend = (phase) => 0.45 * Math.max(0, sin(t, phase + 1.2));
    const pose = {
      body: { move: [0, 0, 0.06 * Math.abs(sin(t))], turn: [[X, 0.05 * sin(t)]] },
      head: { turn: [[Y, 0.08 * sin(2 * t)], [Z, 0.1 * sin(t)]] },
      'tail.1': { turn: [[Z, 0.25 * sin(t)], [Y, -0.45]] },
      'tail.2': { turn: [[Z, 0.3 * sin(t, -1)]] },
      'tail.3': { turn: [[Z, 0.3 * sin(t, -2)]] },
    };
    // Diagonal pairs move together: front.L with back.R.
    const phase = { 'front.L': 0, 'back.R': 0, 'front.R': Math.PI, 'back.L': Math.PI };
    for (const [name] of LEGS) {
      pose[`hip.${name}`] = { turn: [[Y, swing(phase[name])]] };
      pose[`knee.${name}`] = { turn: [[Y, -bend(phase[name])]] };
    }
    return pose;
  }),
  animation('hop', 30, false, (t) => {
    // crouch (0..0.25), jump (0.25..0.7), land and settle (0.7..1)
    const crouch = t < 0.25 ? Math.sin((t / 0.25) * Math.PI / 2) : t < 0.35 ? 1 - (t - 0.25) / 0.1 : 0;
    const air = t > 0.25 && t < 0.75 ? Math.sin(((t - 0.25) / 0.5) * Math.PI) : 0;
    const land = t > 0.75 ? Math.sin(((t - 0.75) / 0.25) * Math.PI) * 0.6 : 0;
    const squash = crouch + land;
    const pose = {
      root: { move: [0.6 * Math.min(Math.max((t - 0.25) / 0.5, 0), 1) - 0.3, 0, 1.1 * air] },
      body: { move: [0, 0, -0.25 * squash], scale: [1 + 0.06 * squash, 1, 1 - 0.08 * squash], turn: [[Y, -0.25 * air + 0.1 * crouch]] },
      head: { turn: [[Y, 0.2 * air]] },
      'ear.L': { turn: [[X, -0.5 * air], [Y, 0.3 * air]] },
      'ear.R': { turn: [[X, 0.5 * air], [Y, 0.3 * air]] },
      'tail.1': { turn: [[Y, -0.3 + 0.7 * air]] },
      'tail.2': { turn: [[Y, 0.3 * air]] },
    };
    for (const [name] of LEGS) {
      const front = name.startsWith('front');
      pose[`hip.${name}`] = { turn: [[Y, (front ? -0.6 : 0.6) * air + 0.3 * squash * (front ? 1 : -1)]] };
      pose[`knee.${name}`] = { turn: [[Y, (front ? 0.7 : -0.7) * air - 0.5 * squash * (front ? 1 : -1)]] };
    }
    return pose;
  }),
  animation('look', 40, true, (t) => ({
    head: { turn: [[Z, 0.6 * sin(t)], [X, 0.15 * sin(t)]] },
    'ear.L': { turn: [[Y, 0.3 * Math.max(0, sin(t))]] },
    'ear.R': { turn: [[Y, 0.3 * Math.max(0, -sin(t))]] },
    body: { turn: [[Z, 0.1 * sin(t)]] },
    'tail.1': { turn: [[Z, -0.2 * sin(t)], [Y, -0.2]] },
  })),
];

// ---- flatten and write

const vertices = meshes.flatMap((m) => m.vertices);
let firstVertex = 0;
let firstTriangle = 0;
const triangles = [];
const meshRecords = meshes.map((m) => {
  for (const t of m.triangles) triangles.push(t.map((i) => i + firstVertex));
  const record = { name: m.name, material: m.material, firstVertex, vertexCount: m.vertices.length, firstTriangle, triangleCount: m.triangles.length };
  firstVertex += m.vertices.length;
  firstTriangle += m.triangles.length;
  return record;
});
// Four blend slots per vertex, weights in 0..255 summing to exactly 255.
const blendOf = (v) => {
  const slots = [...v.blend, [0, 0], [0, 0], [0, 0]].slice(0, 4);
  const weights = slots.map(([, w]) => Math.round(w * 255));
  weights[0] += 255 - weights.reduce((a, b) => a + b, 0);
  return { indices: slots.map(([j]) => j), weights };
};
const blends = vertices.map(blendOf);
let firstFrame = 0;
const anims = animations.map((a) => {
  const record = { name: a.name, firstFrame, frameCount: a.frameCount, framerate: FPS, loop: a.loop };
  firstFrame += a.frameCount;
  return record;
});

const iqm = buildIQM({
  meshes: meshRecords,
  vertexArrays: [
    { type: 'position', format: 'float', size: 3, data: vertices.flatMap((v) => v.p) },
    { type: 'normal', format: 'float', size: 3, data: vertices.flatMap((v) => v.n) },
    { type: 'texcoord', format: 'float', size: 2, data: vertices.flatMap((v) => v.uv) },
    { type: 'color', format: 'ubyte', size: 4, data: vertices.flatMap((v) => v.color.map((c) => Math.round(c * 255))) },
    { type: 'blendindexes', format: 'ubyte', size: 4, data: blends.flatMap((b) => b.indices) },
    { type: 'blendweights', format: 'ubyte', size: 4, data: blends.flatMap((b) => b.weights) },
  ],
  triangles,
  joints: joints.map((j) => ({ name: j.name, parent: j.parent, translate: j.translate, rotate: [0, 0, 0, 1], scale: [1, 1, 1] })),
  frames: animations.flatMap((a) => a.frames),
  anims,
  comment: 'critter: the interquake viewer demo, generated by tools/make-demo.mjs',
}).bytes;

const n = (x) => String(Math.round(x * 1e4) / 1e4);
const iqe = ['# Inter-Quake Export', '# critter: the interquake viewer demo, generated by tools/make-demo.mjs', ''];
for (const j of joints) iqe.push(`joint "${j.name}" ${j.parent}`);
for (const j of joints) iqe.push(`pq ${j.translate.map(n).join(' ')} 0 0 0 1`);
iqe.push('', 'vertexarray position float 3', 'vertexarray normal float 3', 'vertexarray texcoord float 2',
  'vertexarray color ubyte 4', 'vertexarray blendindexes ubyte 4', 'vertexarray blendweights ubyte 4');
for (const m of meshes) {
  iqe.push('', `mesh "${m.name}"`, `material "${m.material}"`);
  for (const v of m.vertices) {
    const b = blendOf(v);
    iqe.push(`vp ${v.p.map(n).join(' ')}`, `vn ${v.n.map(n).join(' ')}`, `vt ${v.uv.map(n).join(' ')}`,
      `vc ${v.color.map(n).join(' ')}`,
      `vb ${b.indices.flatMap((j, k) => (b.weights[k] ? [j, n(b.weights[k] / 255)] : [])).join(' ')}`);
  }
  for (const t of m.triangles) iqe.push(`fm ${t.join(' ')}`);
}
for (const a of animations) {
  iqe.push('', `animation "${a.name}"`, `framerate ${FPS}`);
  if (a.loop) iqe.push('loop');
  for (const frame of a.frames) {
    iqe.push('frame');
    for (const p of frame) iqe.push(`pq ${[...p.translate, ...p.rotate, ...p.scale].map(n).join(' ')}`);
  }
}

mkdirSync(OUT, { recursive: true });
writeFileSync(`${OUT}critter.iqm`, iqm);
writeFileSync(`${OUT}critter.iqe`, `${iqe.join('\n')}\n`);
writeFileSync(`${OUT}critter.png`, furTexture(64));
console.log(`web/demo: critter.iqm ${iqm.length} bytes, critter.iqe, critter.png; ${vertices.length} vertices, ` +
  `${triangles.length} triangles, ${joints.length} joints, ${animations.map((a) => a.name).join('/')}`);

// A soft striped fur pattern (grey levels: the vertex colours tint it).
function furTexture(size) {
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = [0]; // PNG filter type 0
    for (let x = 0; x < size; x++) {
      const u = x / size;
      const v = y / size;
      const stripe = 0.5 + 0.5 * Math.sin(TAU * (u * 6 + 0.15 * Math.sin(TAU * v * 2)));
      const speckle = (Math.sin(x * 12.9898 + y * 78.233) * 43758.5453) % 1;
      const g = Math.round(255 * (0.78 + 0.2 * (stripe > 0.8 ? 0 : 1) - 0.05 * Math.abs(speckle)));
      row.push(g, g, g);
    }
    rows.push(...row);
  }
  return png(size, size, Buffer.from(rows));
}

function png(width, height, raw) {
  const crcTable = Array.from({ length: 256 }, (_, n0) => {
    let c = n0;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, tail]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0)),
  ]);
}

function sub(a, b) { return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]; }
function cross(a, b) { return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]; }
function normalize(v) {
  const l = Math.hypot(...v) || 1;
  return v.map((x) => x / l);
}
