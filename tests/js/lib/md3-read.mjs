// A tiny MD3 reader for tests, written from the spec (shared/specs/md3.txt)
// separately from the C loader: it trusts its input (test files only) and
// decodes in doubles, so the loader's counts, names, positions and normals
// can be checked against numbers it did not produce.

const name = (bytes, at, size) => {
  let end = at;
  while (end < at + size && bytes[end] !== 0) end++;
  return new TextDecoder().decode(bytes.subarray(at, end));
};

/** The Quake 3 renderer's decode, written out: 256 steps per turn, high byte = lat, low = lng. */
export function decodeNormal(packed) {
  const lat = ((packed >> 8) & 0xff) * (2 * Math.PI / 256);
  const lng = (packed & 0xff) * (2 * Math.PI / 256);
  return [Math.cos(lat) * Math.sin(lng), Math.sin(lat) * Math.sin(lng), Math.cos(lng)];
}

export function readMD3(bytes) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const i32 = (at) => dv.getInt32(at, true);
  const f32 = (at) => dv.getFloat32(at, true);
  const vec = (at, n) => Array.from({ length: n }, (_, k) => f32(at + 4 * k));
  const h = {
    ident: name(bytes, 0, 4), version: i32(4), name: name(bytes, 8, 64), numFrames: i32(76), numTags: i32(80),
    numSurfaces: i32(84), ofsFrames: i32(92), ofsTags: i32(96), ofsSurfaces: i32(100), ofsEnd: i32(104),
  };
  const frames = [];
  for (let f = 0; f < h.numFrames; f++) {
    const at = h.ofsFrames + 56 * f;
    frames.push({ min: vec(at, 3), max: vec(at + 12, 3), localOrigin: vec(at + 24, 3), radius: f32(at + 36), name: name(bytes, at + 40, 16) });
  }
  const tags = []; // tags[frame][tag]
  for (let f = 0; f < h.numFrames; f++) {
    const row = [];
    for (let t = 0; t < h.numTags; t++) {
      const at = h.ofsTags + 112 * (f * h.numTags + t);
      row.push({ name: name(bytes, at, 64), origin: vec(at + 64, 3), axes: [vec(at + 76, 3), vec(at + 88, 3), vec(at + 100, 3)] });
    }
    tags.push(row);
  }
  const surfaces = [];
  let at = h.ofsSurfaces;
  for (let s = 0; s < h.numSurfaces; s++) {
    const numFrames = i32(at + 72), numShaders = i32(at + 76), numVerts = i32(at + 80), numTriangles = i32(at + 84);
    const ofsTriangles = i32(at + 88), ofsShaders = i32(at + 92), ofsSt = i32(at + 96), ofsXyz = i32(at + 100);
    const shaders = [];
    for (let k = 0; k < numShaders; k++) shaders.push(name(bytes, at + ofsShaders + 68 * k, 64));
    const triangles = [];
    for (let k = 0; k < numTriangles * 3; k++) triangles.push(i32(at + ofsTriangles + 4 * k));
    const texcoords = [];
    for (let k = 0; k < numVerts * 2; k++) texcoords.push(f32(at + ofsSt + 4 * k));
    const positions = []; // positions[frame] = flat xyz
    const normals = [];
    for (let f = 0; f < numFrames; f++) {
      const p = [];
      const n = [];
      for (let v = 0; v < numVerts; v++) {
        const x = at + ofsXyz + 8 * (f * numVerts + v);
        p.push(dv.getInt16(x, true) / 64, dv.getInt16(x + 2, true) / 64, dv.getInt16(x + 4, true) / 64);
        n.push(...decodeNormal(dv.getUint16(x + 6, true)));
      }
      positions.push(p);
      normals.push(n);
    }
    surfaces.push({ name: name(bytes, at + 4, 64), numFrames, numVerts, numTriangles, shaders, triangles, texcoords, positions, normals });
    at += i32(at + 104);
  }
  return { header: h, frames, tags, surfaces };
}

// -- Tag math in doubles (independent of src/anim/iq_tags.c)

const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const scale = (a, s) => a.map((x) => x * s);
const sub = (a, b) => a.map((x, i) => x - b[i]);
const unit = (a) => scale(a, 1 / Math.hypot(...a));
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/**
 * The column-major 4x4 of a tag at a fractional frame: origin and axes lerped, then x normalised,
 * y made perpendicular to x, z = x cross y flipped to the side the lerped z points to.
 */
export function referenceTagMatrix(tagFrames, frame) {
  const f = Math.min(Math.max(frame, 0), tagFrames.length - 1);
  const f0 = Math.floor(f), f1 = Math.min(f0 + 1, tagFrames.length - 1), t = f - f0;
  const lerp = (a, b) => a.map((x, i) => x + (b[i] - x) * t);
  const a = tagFrames[f0], b = tagFrames[f1];
  const origin = lerp(a.origin, b.origin);
  const [lx, ly, lz] = [0, 1, 2].map((k) => lerp(a.axes[k], b.axes[k]));
  const x = unit(lx);
  const y = unit(sub(ly, scale(x, dot(ly, x))));
  let z = cross(x, y);
  if (dot(z, lz) < 0) z = scale(z, -1);
  return [...x, 0, ...y, 0, ...z, 0, ...origin, 1];
}
