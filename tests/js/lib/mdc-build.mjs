// Builds RTCW/ET MDC files (compressed MD3) from plain descriptions, for tests with known answers.
// Written from the layout the games' qfiles.h describes, independently of the C reader.

export const HEADER = { ident: 0, version: 4, num_frames: 76, num_tags: 80, num_surfaces: 84, ofs_frames: 92, ofs_tag_names: 96, ofs_tags: 100, ofs_surfaces: 104, ofs_end: 108 };
export const SURFACE = { num_comp: 72, num_base: 76, num_verts: 84, ofs_base_frames: 112, ofs_comp_frames: 116, ofs_end: 120 };

/**
 * desc: { frames: [{ name }], tags: [{ name, frames: [{ xyz: [int16 x3], angles: [int16 x3] }] }],
 *   surfaces: [{ name, shaders: [name], triangles: [[a, b, c]], st: [[s, t]],
 *     base: [[{ xyz: [int16 x3], normal: u16 }]] (per base frame, per vertex),
 *     comp: [[u32]] (per compressed frame, per vertex), baseOf: [per frame], compOf: [per frame, -1 none] }] }
 */
export function buildMDC(desc) {
  const frames = desc.frames, tags = desc.tags ?? [], surfaces = desc.surfaces ?? [];
  const parts = [];
  let size = 112;
  const header = new DataView(new ArrayBuffer(112));
  const put = (n, fill) => { const b = new DataView(new ArrayBuffer(n)); fill(b); parts.push(new Uint8Array(b.buffer)); const at = size; size += n; return at; };
  const name = (dv, at, s, n = 64) => { const e = new TextEncoder().encode(s); for (let i = 0; i < Math.min(n, e.length); i++) dv.setUint8(at + i, e[i]); };
  const ofsFrames = put(56 * frames.length, (dv) => frames.forEach((f, i) => {
    for (let k = 0; k < 3; k++) { dv.setFloat32(56 * i + 4 * k, -10, true); dv.setFloat32(56 * i + 12 + 4 * k, 10, true); }
    dv.setFloat32(56 * i + 36, 17, true);
    name(dv, 56 * i + 40, f.name ?? `f${i}`, 16);
  }));
  const ofsTagNames = put(64 * tags.length, (dv) => tags.forEach((t, i) => name(dv, 64 * i, t.name)));
  const ofsTags = put(12 * tags.length * frames.length, (dv) => frames.forEach((_, f) => tags.forEach((t, i) => {
    const r = 12 * (f * tags.length + i);
    for (let k = 0; k < 3; k++) { dv.setInt16(r + 2 * k, t.frames[f].xyz[k], true); dv.setInt16(r + 6 + 2 * k, t.frames[f].angles[k], true); }
  })));
  const ofsSurfaces = size;
  for (const s of surfaces) {
    const nv = s.st.length;
    const sizes = [124, 68 * s.shaders.length, 12 * s.triangles.length, 8 * nv, 8 * nv * s.base.length, 4 * nv * s.comp.length, 2 * frames.length, 2 * frames.length];
    const offs = [];
    sizes.reduce((a, n) => { offs.push(a); return a + n; }, 0);
    const total = sizes.reduce((a, b) => a + b, 0);
    put(total, (dv) => {
      dv.setUint32(0, 0x43504449, true);
      name(dv, 4, s.name);
      const ints = [0, s.comp.length, s.base.length, s.shaders.length, nv, s.triangles.length, offs[2], offs[1], offs[3], offs[4], offs[5], offs[6], offs[7], total];
      ints.forEach((v, i) => dv.setInt32(68 + 4 * i, v, true));
      s.shaders.forEach((n, i) => name(dv, offs[1] + 68 * i, n));
      s.triangles.flat().forEach((v, i) => dv.setInt32(offs[2] + 4 * i, v, true));
      s.st.forEach(([a, b], i) => { dv.setFloat32(offs[3] + 8 * i, a, true); dv.setFloat32(offs[3] + 8 * i + 4, b, true); });
      s.base.forEach((fr, b) => fr.forEach((v, i) => {
        const r = offs[4] + 8 * (b * nv + i);
        v.xyz.forEach((x, k) => dv.setInt16(r + 2 * k, x, true));
        dv.setUint16(r + 6, v.normal ?? 0, true);
      }));
      s.comp.forEach((fr, c) => fr.forEach((v, i) => dv.setUint32(offs[5] + 4 * (c * nv + i), v >>> 0, true)));
      s.baseOf.forEach((v, f) => dv.setInt16(offs[6] + 2 * f, v, true));
      s.compOf.forEach((v, f) => dv.setInt16(offs[7] + 2 * f, v, true));
    });
  }
  header.setUint32(0, 0x43504449, true);
  const h = { version: 2, num_frames: frames.length, num_tags: tags.length, num_surfaces: surfaces.length, ofs_frames: ofsFrames,
    ofs_tag_names: ofsTagNames, ofs_tags: ofsTags, ofs_surfaces: ofsSurfaces, ofs_end: size, ...desc.header };
  for (const [k, v] of Object.entries(h)) header.setInt32(HEADER[k], v, true);
  const bytes = new Uint8Array(size);
  bytes.set(new Uint8Array(header.buffer), 0);
  let at = 112;
  for (const p of parts) { bytes.set(p, at); at += p.length; }
  return { bytes, layout: { ofsSurfaces, ofsTags } };
}

/** A compressed offset: bytes x, y, z (each (b - 127) * 0.05 units) and the normal index on top. */
export const packOffset = (bx, by, bz, normal) => (bx | (by << 8) | (bz << 16) | (normal << 24)) >>> 0;
