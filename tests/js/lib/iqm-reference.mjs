// An independent, double-precision IQM reader and skinning reference, written
// from the spec for the tests. It shares no code with the C loader: it parses
// with DataView, interpolates rotations with true slerp, inverts bind matrices
// by Gaussian elimination and transforms normals by the explicit inverse
// transpose. Tests compare the WASM results against it.

const FORMAT_SIZE = [1, 1, 2, 2, 4, 4, 2, 4, 8];

function halfToFloat(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 31) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

/** One component, normalised for integer formats as the IQM SDK writes them. */
export function readComponent(view, at, format, normalized = true) {
  switch (format) {
    case 0: { const c = view.getInt8(at); return normalized ? (2 * c + 1) / 255 : c; }
    case 1: { const c = view.getUint8(at); return normalized ? c / 255 : c; }
    case 2: { const c = view.getInt16(at, true); return normalized ? (2 * c + 1) / 65535 : c; }
    case 3: { const c = view.getUint16(at, true); return normalized ? c / 65535 : c; }
    case 4: { const c = view.getInt32(at, true); return normalized ? (2 * c + 1) / 4294967295 : c; }
    case 5: { const c = view.getUint32(at, true); return normalized ? c / 4294967295 : c; }
    case 6: return halfToFloat(view.getUint16(at, true));
    case 7: return view.getFloat32(at, true);
    case 8: return view.getFloat64(at, true);
    default: throw new Error(`format ${format}`);
  }
}

export function parseIQM(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (at) => view.getUint32(at, true);
  const names = ['version', 'filesize', 'flags', 'num_text', 'ofs_text', 'num_meshes', 'ofs_meshes',
    'num_vertexarrays', 'num_vertexes', 'ofs_vertexarrays', 'num_triangles', 'ofs_triangles', 'ofs_adjacency',
    'num_joints', 'ofs_joints', 'num_poses', 'ofs_poses', 'num_anims', 'ofs_anims', 'num_frames',
    'num_framechannels', 'ofs_frames', 'ofs_bounds', 'num_comment', 'ofs_comment', 'num_extensions', 'ofs_extensions'];
  const h = {};
  names.forEach((n, i) => { h[n] = u32(16 + 4 * i); });
  const text = (ofs) => {
    let end = h.ofs_text + ofs;
    while (bytes[end]) end++;
    return new TextDecoder().decode(bytes.subarray(h.ofs_text + ofs, end));
  };
  const arrays = {};
  for (let i = 0; i < h.num_vertexarrays; i++) {
    const at = h.ofs_vertexarrays + 20 * i;
    const type = u32(at);
    const format = u32(at + 8);
    const size = u32(at + 12);
    const offset = u32(at + 16);
    const normalized = type !== 4; // blend indexes are plain integers
    const values = [];
    for (let v = 0; v < h.num_vertexes * size; v++) values.push(readComponent(view, offset + v * FORMAT_SIZE[format], format, normalized));
    arrays[type] = { size, values };
  }
  const joints = [];
  for (let i = 0; i < h.num_joints; i++) {
    const at = h.ofs_joints + 48 * i;
    const f = (k) => view.getFloat32(at + 8 + 4 * k, true);
    joints.push({
      name: text(u32(at)), parent: view.getInt32(at + 4, true),
      translate: [f(0), f(1), f(2)], rotate: normalizeQ([f(3), f(4), f(5), f(6)]), scale: [f(7), f(8), f(9)],
    });
  }
  const poses = [];
  for (let i = 0; i < h.num_poses; i++) {
    const at = h.ofs_poses + 88 * i;
    const pose = { parent: view.getInt32(at, true), mask: u32(at + 4), offset: [], scale: [] };
    for (let k = 0; k < 10; k++) {
      pose.offset.push(view.getFloat32(at + 8 + 4 * k, true));
      pose.scale.push(view.getFloat32(at + 48 + 4 * k, true));
    }
    poses.push(pose);
  }
  const frames = [];
  let at = h.ofs_frames;
  for (let f = 0; f < h.num_frames; f++) {
    const frame = [];
    for (const pose of poses) {
      const v = [];
      for (let k = 0; k < 10; k++) {
        let value = pose.offset[k];
        if (pose.mask & (1 << k)) { value += view.getUint16(at, true) * pose.scale[k]; at += 2; }
        v.push(value);
      }
      frame.push({ translate: v.slice(0, 3), rotate: normalizeQ(v.slice(3, 7)), scale: v.slice(7, 10) });
    }
    frames.push(frame);
  }
  const anims = [];
  for (let i = 0; i < h.num_anims; i++) {
    const a = h.ofs_anims + 20 * i;
    anims.push({ name: text(u32(a)), firstFrame: u32(a + 4), frameCount: u32(a + 8), framerate: view.getFloat32(a + 12, true), loop: (u32(a + 16) & 1) === 1 });
  }
  const meshes = [];
  for (let i = 0; i < h.num_meshes; i++) {
    const m = h.ofs_meshes + 24 * i;
    meshes.push({ name: text(u32(m)), material: text(u32(m + 4)), firstVertex: u32(m + 8), vertexCount: u32(m + 12), firstTriangle: u32(m + 16), triangleCount: u32(m + 20) });
  }
  return { header: h, arrays, joints, poses, frames, anims, meshes };
}

// -- Math in doubles

export function normalizeQ(q) {
  const len = Math.hypot(...q);
  return q.map((x) => x / len);
}

export function slerp(a, b, t) {
  let dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  let bb = b;
  if (dot < 0) { dot = -dot; bb = b.map((x) => -x); }
  if (dot > 0.9999999) return normalizeQ(a.map((x, i) => x + (bb[i] - x) * t));
  const theta = Math.acos(dot);
  const sa = Math.sin((1 - t) * theta) / Math.sin(theta);
  const sb = Math.sin(t * theta) / Math.sin(theta);
  return a.map((x, i) => x * sa + bb[i] * sb);
}

/** 4x4 row-major matrix (array of 16) for T * R * S. */
export function trsMatrix({ translate: t, rotate: q, scale: s }) {
  const [x, y, z, w] = q;
  const r = [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
  return [
    r[0] * s[0], r[1] * s[1], r[2] * s[2], t[0],
    r[3] * s[0], r[4] * s[1], r[5] * s[2], t[1],
    r[6] * s[0], r[7] * s[1], r[8] * s[2], t[2],
    0, 0, 0, 1,
  ];
}

export function mul(a, b) {
  const out = new Array(16).fill(0);
  for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) for (let k = 0; k < 4; k++) out[4 * r + c] += a[4 * r + k] * b[4 * k + c];
  return out;
}

/** General inverse by Gauss-Jordan elimination with partial pivoting. */
export function invert(m) {
  const a = m.slice();
  const inv = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  for (let c = 0; c < 4; c++) {
    let pivot = c;
    for (let r = c + 1; r < 4; r++) if (Math.abs(a[4 * r + c]) > Math.abs(a[4 * pivot + c])) pivot = r;
    if (Math.abs(a[4 * pivot + c]) < 1e-300) throw new Error('singular');
    for (let k = 0; k < 4; k++) {
      [a[4 * c + k], a[4 * pivot + k]] = [a[4 * pivot + k], a[4 * c + k]];
      [inv[4 * c + k], inv[4 * pivot + k]] = [inv[4 * pivot + k], inv[4 * c + k]];
    }
    const p = a[4 * c + c];
    for (let k = 0; k < 4; k++) { a[4 * c + k] /= p; inv[4 * c + k] /= p; }
    for (let r = 0; r < 4; r++) {
      if (r === c) continue;
      const f = a[4 * r + c];
      for (let k = 0; k < 4; k++) { a[4 * r + k] -= f * a[4 * c + k]; inv[4 * r + k] -= f * inv[4 * c + k]; }
    }
  }
  return inv;
}

/** World matrices of local poses, parent first. */
export function worldMatrices(joints, locals) {
  const world = [];
  locals.forEach((local, i) => {
    const m = trsMatrix(local);
    world.push(joints[i].parent >= 0 ? mul(world[joints[i].parent], m) : m);
  });
  return world;
}

/** Local poses at a fractional global frame: lerp T/S, slerp R; clamped; bind pose without frames. */
export function sampleFrame(ref, frame) {
  const { frames, joints } = ref;
  if (!frames.length) return joints.map((j) => ({ translate: j.translate, rotate: j.rotate, scale: j.scale }));
  const f = Math.min(Math.max(frame, 0), frames.length - 1);
  const f0 = Math.floor(f);
  const f1 = Math.min(f0 + 1, frames.length - 1);
  const t = f - f0;
  return frames[f0].map((a, j) => {
    const b = frames[f1][j];
    const lerp = (x, y) => x.map((v, i) => v + (y[i] - v) * t);
    return { translate: lerp(a.translate, b.translate), rotate: slerp(a.rotate, b.rotate, t), scale: lerp(a.scale, b.scale) };
  });
}

/** Skinned positions and normals of every vertex at a fractional frame. */
export function skin(ref, frame) {
  return skinPose(ref, sampleFrame(ref, frame));
}

/** Skinned positions, normals and tangents (xyz + handedness w) of every vertex for local poses. */
export function skinPose(ref, locals) {
  const { joints, arrays, header } = ref;
  const bindWorld = worldMatrices(joints, joints);
  const world = worldMatrices(joints, locals);
  const skinMats = world.map((w, j) => mul(w, invert(bindWorld[j])));
  const n = header.num_vertexes;
  const pos = arrays[0];
  const nrm = arrays[2];
  const bi = arrays[4];
  const bw = arrays[5];
  const positions = new Float64Array(n * 3);
  const normals = nrm ? new Float64Array(n * 3) : null;
  const tan = arrays[3];
  const tangents = tan ? new Float64Array(n * 4) : null;
  for (let v = 0; v < n; v++) {
    let m = new Array(16).fill(0);
    if (bi && bw && joints.length) {
      let sum = 0;
      for (let k = 0; k < bw.size; k++) sum += bw.values[v * bw.size + k];
      for (let k = 0; k < Math.min(bi.size, bw.size); k++) {
        const w = bw.values[v * bw.size + k] / sum;
        if (!w) continue;
        const s = skinMats[bi.values[v * bi.size + k]];
        m = m.map((x, i) => x + s[i] * w);
      }
    } else {
      m = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    }
    m[15] = 1;
    const p = [0, 1, 2].map((k) => (k < pos.size ? pos.values[v * pos.size + k] : 0));
    for (let r = 0; r < 3; r++) positions[3 * v + r] = m[4 * r] * p[0] + m[4 * r + 1] * p[1] + m[4 * r + 2] * p[2] + m[4 * r + 3];
    if (normals) {
      const inv = invert(m); // the normal matrix is the transpose of this inverse
      const q = [0, 1, 2].map((k) => nrm.values[v * nrm.size + k]);
      const out = [0, 1, 2].map((r) => inv[r] * q[0] + inv[4 + r] * q[1] + inv[8 + r] * q[2]);
      const len = Math.hypot(...out) || 1;
      for (let r = 0; r < 3; r++) normals[3 * v + r] = out[r] / len;
    }
    if (tangents) {
      // Tangents follow the surface: the matrix itself; a mirroring matrix flips the handedness.
      const t = [0, 1, 2, 3].map((k) => (k < tan.size ? tan.values[v * tan.size + k] : k === 3 ? 1 : 0));
      const out = [0, 1, 2].map((r) => m[4 * r] * t[0] + m[4 * r + 1] * t[1] + m[4 * r + 2] * t[2]);
      const len = Math.hypot(...out) || 1;
      const det = m[0] * (m[5] * m[10] - m[6] * m[9]) - m[1] * (m[4] * m[10] - m[6] * m[8]) + m[2] * (m[4] * m[9] - m[5] * m[8]);
      for (let r = 0; r < 3; r++) tangents[4 * v + r] = out[r] / len;
      tangents[4 * v + 3] = det < 0 ? -t[3] : t[3];
    }
  }
  return { positions, normals, tangents };
}
