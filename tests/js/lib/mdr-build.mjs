// The hand-made MDR file of tests/c/mdr_build.h, built the same way in JS (little-endian, from
// ioquake3's qfiles.h layout, independently of the reader), with its answers worked out on paper.

const BONES = [
  [[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0], [0, -1, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0]],
  [[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1], [-1, 0, 0, 1, 0, -1, 0, 0, 0, 0, 1, 0]],
];

/** Skinned positions at frames 0 and 1. */
export const EXPECTED_MDR = [
  [[0, 0, 0], [1, 1, 0], [2, 0, 0]],
  [[0, 0, 1], [0, 0, 0], [1.5, 0.5, 0.5]],
];

export function handMadeMDR({ compressed = false } = {}) {
  const b = [];
  const u32 = (v) => { const u = v >>> 0; b.push(u & 0xff, (u >>> 8) & 0xff, (u >>> 16) & 0xff, u >>> 24); };
  const u16 = (v) => b.push(v & 0xff, (v >>> 8) & 0xff);
  const f32 = (v) => b.push(...new Uint8Array(new Float32Array([v]).buffer));
  const name = (s, n) => { const t = new TextEncoder().encode(s); for (let i = 0; i < n; i++) b.push(i < t.length ? t[i] : 0); };
  const patch = (at, v) => { const u = v >>> 0; for (let k = 0; k < 4; k++) b[at + k] = (u >>> (8 * k)) & 0xff; };
  name('RDM5', 4); u32(2); name('models/test/arm.mdr', 64);
  u32(2); u32(2); u32(0); u32(1); u32(0); u32(1); u32(0); u32(0);
  patch(80, compressed ? -b.length : b.length);
  BONES.forEach((frame, f) => {
    for (let i = 0; i < 6; i++) f32(i < 3 ? -2 : 2);
    for (let i = 0; i < 4; i++) f32(0);
    if (!compressed) name(f ? 'wave' : 'rest', 16);
    for (const m of frame) {
      if (compressed) {
        for (let k = 0; k < 3; k++) u16(m[4 * k + 3] * 64 + 32768);
        for (let r = 0; r < 3; r++) for (let k = 0; k < 3; k++) u16(m[4 * r + k] * 32766 + 32768);
      } else m.forEach(f32);
    }
  });
  const lod = b.length;
  patch(88, lod);
  u32(1); u32(12); u32(0);
  const s = b.length;
  name('RDM5', 4); name('body', 64); name('models/test/skin', 64);
  u32(0); u32(-s); u32(3); u32(0); u32(1); u32(0); u32(0); u32(0); u32(0);
  patch(s + 144, b.length - s);
  const vertex = (normal, uv, weights) => {
    normal.forEach(f32); uv.forEach(f32); u32(weights.length);
    for (const [bone, w, off] of weights) { u32(bone); f32(w); off.forEach(f32); }
  };
  vertex([0, 0, 1], [0, 0], [[0, 1, [0, 0, 0]]]);
  vertex([1, 0, 0], [1, 0], [[1, 1, [1, 0, 0]]]);
  vertex([0, 0, 1], [0, 1], [[0, 0.5, [2, 0, 0]], [1, 0.5, [0, -1, 0]]]);
  patch(s + 152, b.length - s);
  u32(0); u32(1); u32(2);
  patch(s + 164, b.length - s);
  patch(lod + 8, b.length - lod);
  patch(96, b.length);
  u32(1); name('tag_hand', 32);
  patch(100, b.length);
  return Uint8Array.from(b);
}
