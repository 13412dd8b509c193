// Builds MD3 files from plain descriptions, for fixtures (the odd and the bad
// cases of formats.md section 4, items 25-32). Written from the spec
// (shared/specs/md3.txt), independently of the C loader. Returns the bytes and
// where each structure landed, so tests can patch fields by name.

export const HEADER = {
  ident: 0, version: 4, name: 8, flags: 72, num_frames: 76, num_tags: 80, num_surfaces: 84, num_skins: 88,
  ofs_frames: 92, ofs_tags: 96, ofs_surfaces: 100, ofs_end: 104,
};
export const SURFACE = {
  ident: 0, name: 4, flags: 68, num_frames: 72, num_shaders: 76, num_verts: 80, num_triangles: 84,
  ofs_triangles: 88, ofs_shaders: 92, ofs_st: 96, ofs_xyznormal: 100, ofs_end: 104,
};

/** The packed normal of an MD3 vertex: azimuth ("lat") in the high byte, zenith ("lng") in the low. */
export const packNormal = (lat, lng) => ((lat & 0xff) << 8) | (lng & 0xff);

class Writer {
  constructor() { this.bytes = []; }
  get length() { return this.bytes.length; }
  u8(v) { this.bytes.push(v & 0xff); }
  i16(v) { this.u8(v); this.u8(v >> 8); }
  u16(v) { this.u8(v); this.u8(v >>> 8); }
  i32(v) { const u = v >>> 0; this.u16(u & 0xffff); this.u16(u >>> 16); }
  f32(v) { for (const b of new Uint8Array(new Float32Array([v]).buffer)) this.u8(b); }
  /** A fixed-size name field; longer names fill it with no NUL. */
  name(s, size) {
    const b = new TextEncoder().encode(s);
    for (let i = 0; i < size; i++) this.u8(i < b.length ? b[i] : 0);
  }
  patch32(at, v) {
    const u = v >>> 0;
    for (let k = 0; k < 4; k++) this.bytes[at + k] = (u >>> (8 * k)) & 0xff;
  }
}

const IDENTITY_AXES = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];

/**
 * desc: {
 *   name, frameCount (default: from the surfaces or 1),
 *   frames: [{ min, max, localOrigin, radius, name }]       (defaults filled in),
 *   tags: [{ name, frames: [{ origin, axes: [x, y, z] }] }]  (one entry per frame; identity by default),
 *   surfaces: [{ name, shaders: [{ name, index }], triangles: [[a, b, c]], texcoords: [[s, t]],
 *                frames: [[{ xyz: [x, y, z] (units; stored * 64), normal: packed u16 }]] }],
 *   header: { field: value } overrides written after layout, surfaces[i].header likewise,
 *   trailing: bytes appended after the end offset,
 * }
 */
export function buildMD3(desc = {}) {
  const surfaces = desc.surfaces ?? [];
  const frameCount = desc.frameCount ?? (surfaces[0]?.frames?.length || desc.tags?.[0]?.frames?.length || 1);
  const tags = desc.tags ?? [];
  const w = new Writer();
  const layout = { surfaces: [] };

  // Header, patched below.
  w.u8(0x49); w.u8(0x44); w.u8(0x50); w.u8(0x33); // IDP3
  w.i32(15);
  w.name(desc.name ?? 'models/test.md3', 64);
  w.i32(0);
  w.i32(frameCount);
  w.i32(tags.length);
  w.i32(surfaces.length);
  w.i32(0);
  for (let i = 0; i < 4; i++) w.i32(0);

  layout.ofsFrames = w.length;
  for (let f = 0; f < frameCount; f++) {
    const fr = desc.frames?.[f] ?? {};
    for (const v of fr.min ?? [-1, -1, -1]) w.f32(v);
    for (const v of fr.max ?? [1, 1, 1]) w.f32(v);
    for (const v of fr.localOrigin ?? [0, 0, 0]) w.f32(v);
    w.f32(fr.radius ?? 1.75);
    w.name(fr.name ?? `frame${f}`, 16);
  }

  layout.ofsTags = w.length;
  for (let f = 0; f < frameCount; f++) {
    for (const tag of tags) {
      const tf = tag.frames?.[f] ?? {};
      w.name(tf.name ?? tag.name, 64);
      for (const v of tf.origin ?? [0, 0, 0]) w.f32(v);
      for (const axis of tf.axes ?? IDENTITY_AXES) for (const v of axis) w.f32(v);
    }
  }

  layout.ofsSurfaces = w.length;
  for (const s of surfaces) {
    const at = w.length;
    const frames = s.frames ?? [];
    const verts = frames[0]?.length ?? 0;
    const shaders = s.shaders ?? [];
    const triangles = s.triangles ?? [];
    w.u8(0x49); w.u8(0x44); w.u8(0x50); w.u8(0x33);
    w.name(s.name ?? 'surface', 64);
    w.i32(0);
    w.i32(frames.length);
    w.i32(shaders.length);
    w.i32(verts);
    w.i32(triangles.length);
    for (let i = 0; i < 5; i++) w.i32(0);
    const ofsShaders = w.length - at;
    for (const sh of shaders) { w.name(sh.name, 64); w.i32(sh.index ?? 0); }
    const ofsTriangles = w.length - at;
    for (const t of triangles) for (const i of t) w.i32(i);
    const ofsSt = w.length - at;
    for (let v = 0; v < verts; v++) {
      const st = s.texcoords?.[v] ?? [0, 0];
      w.f32(st[0]); w.f32(st[1]);
    }
    const ofsXyz = w.length - at;
    for (const frame of frames) {
      for (const vert of frame) {
        for (const c of vert.xyz) w.i16(Math.round(c * 64));
        w.u16(vert.normal ?? 0);
      }
    }
    const ofsEnd = w.length - at;
    w.patch32(at + SURFACE.ofs_triangles, ofsTriangles);
    w.patch32(at + SURFACE.ofs_shaders, ofsShaders);
    w.patch32(at + SURFACE.ofs_st, ofsSt);
    w.patch32(at + SURFACE.ofs_xyznormal, ofsXyz);
    w.patch32(at + SURFACE.ofs_end, ofsEnd);
    for (const [field, value] of Object.entries(s.header ?? {})) w.patch32(at + SURFACE[field], value);
    layout.surfaces.push({ at, ofsShaders, ofsTriangles, ofsSt, ofsXyz, ofsEnd });
  }
  layout.ofsEnd = w.length;
  w.patch32(HEADER.ofs_frames, layout.ofsFrames);
  w.patch32(HEADER.ofs_tags, layout.ofsTags);
  w.patch32(HEADER.ofs_surfaces, layout.ofsSurfaces);
  w.patch32(HEADER.ofs_end, layout.ofsEnd);
  for (const [field, value] of Object.entries(desc.header ?? {})) w.patch32(HEADER[field], value);
  for (const b of desc.trailing ?? []) w.u8(b);
  return { bytes: new Uint8Array(w.bytes), layout };
}

/** A surface: a square of two triangles at height z, with given per-frame z offsets. */
export function quadSurface({ name = 'quad', shaders = [{ name: 'textures/quad.tga', index: 0 }], frameZ = [0], normal = packNormal(0, 0) } = {}) {
  const corners = [[0, 0], [1, 0], [1, 1], [0, 1]];
  return {
    name,
    shaders,
    triangles: [[0, 1, 2], [0, 2, 3]],
    texcoords: corners.map(([x, y]) => [x, 1 - y]),
    frames: frameZ.map((z) => corners.map(([x, y]) => ({ xyz: [x * 8, y * 8, z], normal }))),
  };
}

/** A copy of bytes with the int32 at `offset` replaced. */
export function patchI32(bytes, offset, value) {
  const copy = bytes.slice();
  new DataView(copy.buffer).setInt32(offset, value | 0, true);
  return copy;
}
export function patchF32(bytes, offset, value) {
  const copy = bytes.slice();
  new DataView(copy.buffer).setFloat32(offset, value, true);
  return copy;
}

/**
 * The shape of the two Unvanquished MD3s the game ships with a garbage tag axis
 * (models/weapons/blaster/tpweapon.md3, models/players/human_base/battpack.md3): one frame, its
 * tags right after the frame record, and the z axis's z of tag record 0 holding 1.78264e+31, so the
 * bad value sits at byte 272 (108-byte header + 56-byte frame + 64-byte tag name + 11 floats) as in
 * those files. Built from nothing of theirs: a quad and the tags a weapon has.
 */
export function garbageTagAxisMD3() {
  const identity = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  return buildMD3({
    surfaces: [quadSurface({ name: 'w_blaster', shaders: [{ name: 'models/weapons/blaster/blaster.tga', index: 0 }] })],
    tags: [
      { name: 'tag_flash', frames: [{ origin: [12, 0, 2], axes: [[1, 0, 0], [0, 1, 0], [0, 0, 1.78264e31]] }] },
      { name: 'tag_hand', frames: [{ origin: [0, 1, 0], axes: identity }] },
    ],
  });
}
