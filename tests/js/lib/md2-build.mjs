// Builds Quake 2 MD2 files from plain descriptions, for tests with known answers and for the bad
// cases of docs/API-md2.md. Written from the layout Quake 2's qfiles.h describes, independently of
// the C reader. Returns the bytes and where each section landed, so tests can patch fields by name.

export const HEADER = {
  ident: 0, version: 4, skinwidth: 8, skinheight: 12, framesize: 16, num_skins: 20, num_xyz: 24, num_st: 28,
  num_tris: 32, num_glcmds: 36, num_frames: 40, ofs_skins: 44, ofs_st: 48, ofs_tris: 52, ofs_frames: 56,
  ofs_glcmds: 60, ofs_end: 64,
};
export const HEADER_SIZE = 68;

/**
 * desc: {
 *   skinWidth, skinHeight (default 64),
 *   skins: ['models/x/skin.pcx'],
 *   st: [[s, t]] (skin pixels, int16),
 *   triangles: [{ xyz: [a, b, c], st: [a, b, c] }],
 *   frames: [{ name, scale: [x, y, z], translate: [x, y, z], verts: [[x, y, z, normalIndex]] (bytes) }],
 *   framePadding: extra bytes after each frame's vertices (framesize grows by it),
 *   glcmds: int32 values written as the GL command list (default: the empty list [0]),
 *   header: { field: value } overrides written last, trailing: bytes after the end,
 * }
 */
export function buildMD2(desc = {}) {
  const frames = desc.frames ?? [];
  const numXyz = frames[0]?.verts.length ?? 0;
  const skins = desc.skins ?? [];
  const st = desc.st ?? [];
  const tris = desc.triangles ?? [];
  const glcmds = desc.glcmds ?? [0];
  const framesize = 40 + 4 * numXyz + (desc.framePadding ?? 0);
  const ofsSkins = HEADER_SIZE;
  const ofsSt = ofsSkins + 64 * skins.length;
  const ofsTris = ofsSt + 4 * st.length;
  const ofsFrames = ofsTris + 12 * tris.length;
  const ofsGlcmds = ofsFrames + framesize * frames.length;
  const ofsEnd = ofsGlcmds + 4 * glcmds.length;
  const trailing = desc.trailing ?? [];
  const bytes = new Uint8Array(ofsEnd + trailing.length);
  const dv = new DataView(bytes.buffer);
  bytes.set([0x49, 0x44, 0x50, 0x32]); // IDP2
  const header = {
    version: 8, skinwidth: desc.skinWidth ?? 64, skinheight: desc.skinHeight ?? 64, framesize,
    num_skins: skins.length, num_xyz: numXyz, num_st: st.length, num_tris: tris.length, num_glcmds: glcmds.length,
    num_frames: frames.length, ofs_skins: ofsSkins, ofs_st: ofsSt, ofs_tris: ofsTris, ofs_frames: ofsFrames,
    ofs_glcmds: ofsGlcmds, ofs_end: ofsEnd,
  };
  skins.forEach((name, i) => writeName(bytes, ofsSkins + 64 * i, name, 64));
  st.forEach(([s, t], i) => { dv.setInt16(ofsSt + 4 * i, s, true); dv.setInt16(ofsSt + 4 * i + 2, t, true); });
  tris.forEach((tri, i) => {
    for (let k = 0; k < 3; k++) {
      dv.setInt16(ofsTris + 12 * i + 2 * k, tri.xyz[k], true);
      dv.setInt16(ofsTris + 12 * i + 6 + 2 * k, tri.st[k], true);
    }
  });
  frames.forEach((frame, f) => {
    const at = ofsFrames + framesize * f;
    for (let k = 0; k < 3; k++) {
      dv.setFloat32(at + 4 * k, frame.scale?.[k] ?? 1, true);
      dv.setFloat32(at + 12 + 4 * k, frame.translate?.[k] ?? 0, true);
    }
    writeName(bytes, at + 24, frame.name ?? `frame${f}`, 16);
    frame.verts.forEach((v, i) => bytes.set(v, at + 40 + 4 * i));
  });
  glcmds.forEach((v, i) => dv.setInt32(ofsGlcmds + 4 * i, v, true));
  for (const [field, value] of Object.entries({ ...header, ...desc.header })) dv.setInt32(HEADER[field], value, true);
  bytes.set(trailing, ofsEnd);
  return { bytes, layout: { ofsSkins, ofsSt, ofsTris, ofsFrames, ofsGlcmds, ofsEnd, framesize } };
}

function writeName(bytes, at, name, size) {
  const b = new TextEncoder().encode(name);
  bytes.set(b.subarray(0, size), at);
}

/** The value a frame vertex decodes to: byte * scale + translate, in float32 as an engine computes it. */
export const decodePosition = (byte, scale, translate) => Math.fround(Math.fround(byte * Math.fround(scale)) + Math.fround(translate));

/**
 * The 162 vertices of an icosahedron whose edges are cut in four, projected onto the unit sphere:
 * the set Quake's normal table samples (built here from geometry, not from the table).
 */
export function geodesicNormals() {
  const phi = (1 + Math.sqrt(5)) / 2;
  const norm = (v) => { const l = Math.hypot(...v); return v.map((x) => x / l); };
  const ico = [];
  for (const a of [-1, 1]) for (const b of [-1, 1]) ico.push([0, b * phi, a], [b * phi, a, 0], [a, 0, b * phi]);
  const verts = ico.map(norm);
  const dist = (p, q) => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
  const edge = Math.min(...verts.slice(1).map((v) => dist(verts[0], v)));
  const adjacent = (i, j) => Math.abs(dist(verts[i], verts[j]) - edge) < 1e-9;
  const points = [];
  for (let i = 0; i < 12; i++) for (let j = i + 1; j < 12; j++) for (let k = j + 1; k < 12; k++) {
    if (!adjacent(i, j) || !adjacent(j, k) || !adjacent(i, k)) continue;
    for (let a = 0; a <= 4; a++) for (let b = 0; a + b <= 4; b++) {
      const c = 4 - a - b;
      const p = norm([0, 1, 2].map((x) => (a * verts[i][x] + b * verts[j][x] + c * verts[k][x]) / 4));
      if (!points.some((q) => dist(p, q) < 1e-9)) points.push(p);
    }
  }
  return points;
}
