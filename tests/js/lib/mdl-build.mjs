// Builds Quake 1 MDL files from plain descriptions, for tests with known answers and the bad cases
// of docs/API-md2.md. Written from the layout Quake's modelgen.h describes, independently of the C
// reader. Returns the bytes and where each section landed, so tests can patch fields by name.

export const HEADER = {
  ident: 0, version: 4, scale: 8, origin: 20, radius: 32, eye: 36, num_skins: 48, skinwidth: 52, skinheight: 56,
  num_verts: 60, num_tris: 64, num_frames: 68, synctype: 72, flags: 76, size: 80,
};
export const HEADER_SIZE = 84;

/**
 * desc: {
 *   scale: [x, y, z], origin: [x, y, z], skinWidth, skinHeight,
 *   skins: [ Uint8Array(w*h) | { group: [{ pixels, interval }] } ],
 *   stverts: [{ onseam, s, t }],
 *   triangles: [{ facesfront, verts: [a, b, c] }],
 *   frames: [ { name, box: [[minx,miny,minz],[maxx,maxy,maxz]], verts: [[x, y, z, n]] }
 *           | { group: [frame...], intervals: [..], box } ],
 *   header: { field: value } (int32 fields) overrides, trailing: bytes after the frames,
 * }
 */
export function buildMDL(desc = {}) {
  const out = [];
  const u8 = (v) => out.push(v & 0xff);
  const i32 = (v) => { const b = new Uint8Array(4); new DataView(b.buffer).setInt32(0, v, true); out.push(...b); };
  const f32 = (v) => { const b = new Uint8Array(4); new DataView(b.buffer).setFloat32(0, v, true); out.push(...b); };
  const w = desc.skinWidth ?? 8, h = desc.skinHeight ?? 4;
  const skins = desc.skins ?? [];
  const stverts = desc.stverts ?? [];
  const tris = desc.triangles ?? [];
  const frames = desc.frames ?? [];
  const layout = { skins: [], frames: [] };
  out.push(0x49, 0x44, 0x50, 0x4f); // IDPO
  i32(6);
  for (const v of desc.scale ?? [1, 1, 1]) f32(v);
  for (const v of desc.origin ?? [0, 0, 0]) f32(v);
  f32(desc.radius ?? 10);
  for (const v of [0, 0, 0]) f32(v);
  const frameCountAt = out.length + 20;
  for (const v of [skins.length, w, h, stverts.length, tris.length, frames.length, 0, 0]) i32(v);
  f32(1);
  for (const skin of skins) {
    layout.skins.push(out.length);
    if (skin.group) {
      i32(1);
      i32(skin.group.length);
      for (const p of skin.group) f32(p.interval);
      for (const p of skin.group) out.push(...p.pixels);
    } else {
      i32(0);
      out.push(...skin);
    }
  }
  layout.stverts = out.length;
  for (const v of stverts) { i32(v.onseam ?? 0); i32(v.s); i32(v.t); }
  layout.triangles = out.length;
  for (const t of tris) { i32(t.facesfront ?? 1); for (const v of t.verts) i32(v); }
  const frame = (f) => {
    const box = f.box ?? [[0, 0, 0], [255, 255, 255]];
    for (const v of box[0]) u8(v);
    u8(0);
    for (const v of box[1]) u8(v);
    u8(0);
    const name = new TextEncoder().encode(f.name ?? 'frame');
    for (let i = 0; i < 16; i++) u8(i < name.length ? name[i] : 0);
    for (const v of f.verts) for (const b of v) u8(b);
  };
  for (const f of frames) {
    layout.frames.push(out.length);
    if (f.group) {
      i32(1);
      i32(f.group.length);
      const box = f.box ?? [[0, 0, 0], [255, 255, 255]];
      for (const v of box[0]) u8(v);
      u8(0);
      for (const v of box[1]) u8(v);
      u8(0);
      for (const v of f.intervals) f32(v);
      for (const g of f.group) frame(g);
    } else {
      i32(0);
      frame(f);
    }
  }
  out.push(...(desc.trailing ?? []));
  const bytes = new Uint8Array(out);
  const dv = new DataView(bytes.buffer);
  for (const [field, value] of Object.entries(desc.header ?? {})) dv.setInt32(HEADER[field], value, true);
  layout.frameCountAt = frameCountAt;
  return { bytes, layout };
}
