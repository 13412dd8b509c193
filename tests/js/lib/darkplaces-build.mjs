// Builds DarkPlaces DPM and ZYM files from plain descriptions (big-endian, as model_dpmodel.h and
// model_zymotic.h lay them out), independently of the C reader, and the hand-made two-bone model
// both tests use, with its answers worked out on paper.

class Writer {
  constructor() { this.bytes = []; }
  get length() { return this.bytes.length; }
  u32(v) { const u = v >>> 0; this.bytes.push(u >>> 24, (u >>> 16) & 0xff, (u >>> 8) & 0xff, u & 0xff); }
  f32(v) { const b = new Uint8Array(new Float32Array([v]).buffer); this.bytes.push(b[3], b[2], b[1], b[0]); }
  name(s, size = 32) { const b = new TextEncoder().encode(s); for (let i = 0; i < size; i++) this.bytes.push(i < b.length ? b[i] : 0); }
  u8(v) { this.bytes.push(v & 0xff); }
  patch(at, v) { const u = v >>> 0; this.bytes.splice(at, 4, u >>> 24, (u >>> 16) & 0xff, (u >>> 8) & 0xff, u & 0xff); }
  done() { return Uint8Array.from(this.bytes); }
}

/** A 3x4 row-major matrix: rotation about z by `degrees`, uniform `scale`, then `translate`. */
export function matrixZ(degrees, translate = [0, 0, 0], scale = 1) {
  const a = (degrees * Math.PI) / 180;
  const c = Math.round(Math.cos(a) * 1e9) / 1e9;
  const s = Math.round(Math.sin(a) * 1e9) / 1e9;
  return [c * scale, -s * scale, 0, translate[0], s * scale, c * scale, 0, translate[1], 0, 0, scale, translate[2]];
}

/**
 * desc: { bones: [{ name, parent }], frames: [{ name, matrices: [12 floats per bone], mins, maxs }],
 * meshes: [{ shader, verts: [{ weights: [{ bone, influence, origin, normal }], uv }], tris: [[a, b, c]] }] }
 * Origins and normals are given as the file stores them (already multiplied by the influence).
 */
export function buildDPM(desc) {
  const w = new Writer();
  w.name('DARKPLACESMODEL', 16);
  w.u32(2);
  const sizeAt = w.length; w.u32(0);
  for (let i = 0; i < 8; i++) w.f32(0); // mins, maxs, yawradius, allradius
  w.u32(desc.bones.length); w.u32(desc.meshes.length); w.u32(desc.frames.length);
  const ofsAt = w.length; w.u32(0); w.u32(0); w.u32(0);
  w.patch(ofsAt, w.length);
  for (const b of desc.bones) { w.name(b.name); w.u32(b.parent); w.u32(0); }
  w.patch(ofsAt + 4, w.length);
  const meshAt = [];
  for (const m of desc.meshes) { meshAt.push(w.length); w.name(m.shader); w.u32(m.verts.length); w.u32(m.tris.length); for (let i = 0; i < 4; i++) w.u32(0); }
  w.patch(ofsAt + 8, w.length);
  const frameAt = [];
  for (const f of desc.frames) {
    w.name(f.name);
    for (const v of [...(f.mins ?? [0, 0, 0]), ...(f.maxs ?? [0, 0, 0]), 0, 0]) w.f32(v);
    frameAt.push(w.length); w.u32(0);
  }
  desc.frames.forEach((f, i) => { w.patch(frameAt[i], w.length); for (const v of f.matrices) w.f32(v); });
  desc.meshes.forEach((m, i) => {
    w.patch(meshAt[i] + 40, w.length);
    for (const v of m.verts) {
      w.u32(v.weights.length);
      for (const x of v.weights) { x.origin.forEach((c) => w.f32(c)); w.f32(x.influence); x.normal.forEach((c) => w.f32(c)); w.u32(x.bone); }
    }
    w.patch(meshAt[i] + 44, w.length);
    for (const v of m.verts) { w.f32(v.uv[0]); w.f32(v.uv[1]); }
    w.patch(meshAt[i] + 48, w.length);
    for (const t of m.tris) t.forEach((c) => w.u32(c));
    w.patch(meshAt[i] + 52, w.length);
    for (let t = 0; t < m.tris.length; t++) w.u32(0);
  });
  w.patch(sizeAt, w.length);
  return w.done();
}

/**
 * desc: { bones: [{ name, parent }], poses: [[12 floats per bone]], scenes: [{ name, start, length, framerate, noloop }],
 * verts: [{ bone, origin, uv: [s, t as the game shows it] }], shaders: [{ name, tris: [[a, b, c]] }] }
 */
export function buildZYM(desc) {
  const w = new Writer();
  w.name('ZYMOTICMODEL', 12);
  w.u32(1);
  const sizeAt = w.length; w.u32(0);
  for (let i = 0; i < 7; i++) w.f32(0);
  const tris = desc.shaders.reduce((n, s) => n + s.tris.length, 0);
  w.u32(desc.verts.length); w.u32(tris); w.u32(desc.shaders.length); w.u32(desc.bones.length); w.u32(desc.scenes.length);
  const lumps = w.length;
  for (let i = 0; i < 18; i++) w.u32(0);
  const lump = (i, write) => { const start = w.length; write(); w.patch(lumps + 8 * i, start); w.patch(lumps + 8 * i + 4, w.length - start); };
  lump(0, () => { for (const s of desc.scenes) { w.name(s.name); for (let i = 0; i < 7; i++) w.f32(0); w.f32(s.framerate); w.u32(s.noloop ? 1 : 0); w.u32(s.start); w.u32(s.length); } });
  lump(1, () => { for (const p of desc.poses) for (const v of p) w.f32(v); });
  lump(2, () => { for (const b of desc.bones) { w.name(b.name); w.u32(0); w.u32(b.parent); } });
  lump(3, () => { for (const v of desc.verts) w.u32(v.bones ?? 1); });
  lump(4, () => { for (const v of desc.verts) { w.u32(v.bone); v.origin.forEach((c) => w.f32(c)); } });
  lump(5, () => { for (const v of desc.verts) { w.f32(v.uv[0]); w.f32(1 - v.uv[1]); } });
  lump(6, () => { for (const s of desc.shaders) { w.u32(s.tris.length); for (const t of s.tris) t.forEach((c) => w.u32(c)); } });
  lump(7, () => { for (const s of desc.shaders) w.name(s.name); });
  lump(8, () => { for (let t = 0; t < tris; t++) w.u8(0); });
  w.patch(sizeAt, w.length);
  return w.done();
}

// The hand-made model: bone "root" at the origin, bone "arm" 1 along x, turned +90 degrees about z.
// Pose 1 lifts the root by 1; pose 2 turns the arm 180 degrees and doubles it.
const POSES = [
  [...matrixZ(0), ...matrixZ(90, [1, 0, 0])],
  [...matrixZ(0, [0, 0, 1]), ...matrixZ(90, [1, 0, 0])],
  [...matrixZ(0), ...matrixZ(180, [1, 0, 0], 2)],
];
const BONES = [{ name: 'root', parent: -1 }, { name: 'arm', parent: 0 }];

/** Skinned positions of the hand-made models at poses 0, 1, 2 (worked out on paper), in vertex order. The
 * DPM's third vertex is on both bones by halves; the ZYM's on the arm alone (a ZYM vertex has one bone). */
export const EXPECTED_DPM = [
  [[0, 0, 0], [1, 1, 0], [2, 0, 0]],
  [[0, 0, 1], [1, 1, 1], [2, 0, 1]],
  [[0, 0, 0], [-1, 0, 0], [1.5, 1, 0]],
];
export const EXPECTED_ZYM = [
  [[0, 0, 0], [1, 1, 0], [2, 0, 0]],
  [[0, 0, 1], [1, 1, 1], [2, 0, 1]],
  [[0, 0, 0], [-1, 0, 0], [1, 2, 0]],
];

export function handMadeDPM() {
  return buildDPM({
    bones: BONES,
    frames: [
      { name: 'idle_0', matrices: POSES[0], mins: [0, 0, 0], maxs: [2, 1, 0] },
      { name: 'wave_0', matrices: POSES[1], mins: [0, 0, 1], maxs: [2, 1, 1] },
      { name: 'wave_1', matrices: POSES[2], mins: [-1, 0, 0], maxs: [1.5, 1, 0] },
    ],
    meshes: [{
      shader: 'models/test/skin',
      verts: [
        { weights: [{ bone: 0, influence: 1, origin: [0, 0, 0], normal: [0, 0, 1] }], uv: [0, 0] },
        { weights: [{ bone: 1, influence: 1, origin: [1, 0, 0], normal: [1, 0, 0] }], uv: [1, 0] },
        { weights: [{ bone: 0, influence: 0.5, origin: [1, 0, 0], normal: [0, 0, 0.5] }, { bone: 1, influence: 0.5, origin: [0, -0.5, 0], normal: [0, 0, 0.5] }], uv: [0, 1] },
      ],
      tris: [[0, 1, 2]], // counter-clockwise, as DPM stores them
    }],
  });
}

export function handMadeZYM() {
  return buildZYM({
    bones: BONES,
    poses: POSES,
    scenes: [{ name: 'stand', start: 0, length: 1, framerate: 10 }, { name: 'wave', start: 1, length: 2, framerate: 20, noloop: true }],
    verts: [{ bone: 0, origin: [0, 0, 0], uv: [0, 0] }, { bone: 1, origin: [1, 0, 0], uv: [1, 0] }, { bone: 1, origin: [0, -1, 0], uv: [0, 1] }],
    shaders: [{ name: 'models/test/skin', tris: [[0, 1, 2]] }],
  });
}
