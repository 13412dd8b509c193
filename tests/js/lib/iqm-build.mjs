// Builds IQM v2 files from plain descriptions, for test fixtures and rigs.
// Written from the spec (shared/specs/iqm.txt) independently of the C loader,
// so tests can check the loader against it. Returns the bytes and where each
// section landed, so bad-input tests can patch fields by name.

export const HEADER_FIELDS = [
  'version', 'filesize', 'flags', 'num_text', 'ofs_text', 'num_meshes', 'ofs_meshes',
  'num_vertexarrays', 'num_vertexes', 'ofs_vertexarrays', 'num_triangles', 'ofs_triangles', 'ofs_adjacency',
  'num_joints', 'ofs_joints', 'num_poses', 'ofs_poses', 'num_anims', 'ofs_anims',
  'num_frames', 'num_framechannels', 'ofs_frames', 'ofs_bounds', 'num_comment', 'ofs_comment',
  'num_extensions', 'ofs_extensions',
];
/** Byte offset of a header field. */
export const fieldOffset = (name) => {
  const i = HEADER_FIELDS.indexOf(name);
  if (i < 0) throw new Error(`no header field ${name}`);
  return 16 + 4 * i;
};

export const TYPES = { position: 0, texcoord: 1, normal: 2, tangent: 3, blendindexes: 4, blendweights: 5, color: 6 };
export const FORMATS = { byte: 0, ubyte: 1, short: 2, ushort: 3, int: 4, uint: 5, half: 6, float: 7, double: 8 };
const FORMAT_SIZE = [1, 1, 2, 2, 4, 4, 2, 4, 8];

/** IEEE half bits for a float (round to nearest even; enough for test values). */
export function floatToHalf(value) {
  const f32 = new Float32Array([value]);
  const u = new Uint32Array(f32.buffer)[0];
  const sign = (u >>> 16) & 0x8000;
  let exp = ((u >>> 23) & 0xff) - 127 + 15;
  let mant = u & 0x7fffff;
  if (((u >>> 23) & 0xff) === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  if (exp >= 31) return sign | 0x7c00;
  if (exp <= 0) {
    if (exp < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - exp;
    let half = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    const halfway = 1 << (shift - 1);
    if (rest > halfway || (rest === halfway && (half & 1))) half++;
    return sign | half;
  }
  let half = (exp << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (half & 1))) half++;
  return sign | half;
}

class Writer {
  constructor() { this.bytes = []; }
  get length() { return this.bytes.length; }
  align(n) { while (this.bytes.length % n) this.bytes.push(0); }
  u8(v) { this.bytes.push(v & 0xff); }
  u16(v) { this.u8(v); this.u8(v >>> 8); }
  u32(v) { this.u16(v & 0xffff); this.u16((v >>> 16) & 0xffff); }
  i32(v) { this.u32(v >>> 0); }
  f32(v) { const b = new Uint8Array(new Float32Array([v]).buffer); for (const x of b) this.u8(x); }
  f64(v) { const b = new Uint8Array(new Float64Array([v]).buffer); for (const x of b) this.u8(x); }
  raw(arr) { for (const x of arr) this.u8(x); }
  component(value, format) {
    switch (format) {
      case 0: case 1: this.u8(value); break;
      case 2: case 3: this.u16(value); break;
      case 4: this.i32(value); break;
      case 5: this.u32(value); break;
      case 6: this.u16(floatToHalf(value)); break;
      case 7: this.f32(value); break;
      case 8: this.f64(value); break;
      default: throw new Error(`format ${format}`);
    }
  }
}

/**
 * Quantises frames the way the spec and the SDK do: per joint and channel, the offset is the
 * minimum over frames; a channel is stored (mask bit set) when its range is >= 1e-10, with
 * scale = range / 65535 and value = round((v - offset) / scale).
 * frames[f][j] = { translate, rotate, scale }.
 */
export function quantiseFrames(frames, jointCount) {
  const poses = [];
  const channelValue = (t, k) => (k < 3 ? t.translate[k] : k < 7 ? t.rotate[k - 3] : (t.scale || [1, 1, 1])[k - 7]);
  for (let j = 0; j < jointCount; j++) {
    const pose = { mask: 0, offset: new Array(10).fill(0), scale: new Array(10).fill(0) };
    for (let k = 0; k < 10; k++) {
      let min = Infinity;
      let max = -Infinity;
      for (const frame of frames) {
        const v = channelValue(frame[j], k);
        min = Math.min(min, v);
        max = Math.max(max, v);
      }
      pose.offset[k] = min;
      if (max - min >= 1e-10) {
        pose.mask |= 1 << k;
        pose.scale[k] = (max - min) / 65535;
      }
    }
    poses.push(pose);
  }
  const data = [];
  for (const frame of frames) {
    for (let j = 0; j < jointCount; j++) {
      for (let k = 0; k < 10; k++) {
        if (poses[j].mask & (1 << k)) {
          const q = Math.round((channelValue(frame[j], k) - poses[j].offset[k]) / poses[j].scale[k]);
          data.push(Math.max(0, Math.min(65535, q)));
        }
      }
    }
  }
  return { poses, data };
}

/**
 * desc fields (all optional):
 *   meshes: [{ name, material, firstVertex, vertexCount, firstTriangle, triangleCount }]
 *   vertexCount
 *   vertexArrays: [{ type: 'position' | number | { custom: 'name' }, format: 'float', size: 3, data: [...] }]
 *     data holds vertexCount*size values in the component's own domain (ints for integer formats).
 *   triangles: [[a, b, c], ...]; adjacency: [[t0, t1, t2], ...]
 *   joints: [{ name, parent, translate, rotate, scale }]
 *   poseParents: [...] (for files with poses but no joints; defaults to the joints' parents)
 *   frames: frames[f][j] = { translate, rotate, scale }   (quantised as the spec says)
 *   anims: [{ name, firstFrame, frameCount, framerate, loop }]
 *   bounds: [[minx, miny, minz, maxx, maxy, maxz, xyradius, radius], ...] one per frame
 *   comment: string, extensions: [{ name, data: Uint8Array }]
 *   strings: extra text-table entries
 *   trailing: number of junk bytes after the declared filesize
 * Returns { bytes, header } where header holds every header field's value.
 */
export function buildIQM(desc = {}) {
  const text = [''];
  const textOffset = new Map([['', 0]]);
  let textSize = 1;
  const str = (s) => {
    if (s === undefined || s === null) return 0;
    if (!textOffset.has(s)) {
      textOffset.set(s, textSize);
      text.push(s);
      textSize += new TextEncoder().encode(s).length + 1;
    }
    return textOffset.get(s);
  };
  // Intern every name first so the text table is complete before layout.
  for (const m of desc.meshes || []) { str(m.name); str(m.material); }
  for (const j of desc.joints || []) str(j.name);
  for (const a of desc.anims || []) str(a.name);
  for (const va of desc.vertexArrays || []) if (typeof va.type === 'object') str(va.type.custom);
  for (const e of desc.extensions || []) str(e.name);
  for (const s of desc.strings || []) str(s);

  const joints = desc.joints || [];
  const frames = desc.frames || [];
  const poseParents = desc.poseParents || joints.map((j) => j.parent);
  const poseCount = frames.length ? poseParents.length : 0;
  const { poses, data: frameData } = frames.length ? quantiseFrames(frames, poseCount) : { poses: [], data: [] };
  const vertexArrays = desc.vertexArrays || [];
  const vertexCount = desc.vertexCount ?? (vertexArrays.length ? vertexArrays[0].data.length / vertexArrays[0].size : 0);

  const w = new Writer();
  const h = Object.fromEntries(HEADER_FIELDS.map((f) => [f, 0]));
  h.version = 2;
  w.raw(new Array(124).fill(0));

  if (text.length > 1 || desc.text !== undefined) {
    h.ofs_text = w.length;
    for (const s of text) { w.raw(new TextEncoder().encode(s)); w.u8(0); }
    h.num_text = w.length - h.ofs_text;
    w.align(4);
  }
  if (desc.meshes?.length) {
    h.ofs_meshes = w.length;
    h.num_meshes = desc.meshes.length;
    for (const m of desc.meshes) {
      w.u32(str(m.name)); w.u32(str(m.material));
      w.u32(m.firstVertex ?? 0); w.u32(m.vertexCount ?? vertexCount);
      w.u32(m.firstTriangle ?? 0); w.u32(m.triangleCount ?? (desc.triangles || []).length);
    }
  }
  if (vertexArrays.length) {
    h.ofs_vertexarrays = w.length;
    h.num_vertexarrays = vertexArrays.length;
    h.num_vertexes = vertexCount;
    const headerAt = w.length;
    w.raw(new Array(20 * vertexArrays.length).fill(0));
    const placed = [];
    for (const va of vertexArrays) {
      const format = typeof va.format === 'number' ? va.format : FORMATS[va.format ?? 'float'];
      const size = FORMAT_SIZE[format] ?? 4;
      w.align(Math.max(size, 4));
      placed.push({ offset: w.length, format });
      for (const v of va.data) w.component(v, format);
    }
    const patch = new Writer();
    vertexArrays.forEach((va, i) => {
      const type = typeof va.type === 'object' ? 0x10 + str(va.type.custom) : typeof va.type === 'number' ? va.type : TYPES[va.type];
      patch.u32(type); patch.u32(0); patch.u32(placed[i].format); patch.u32(va.size); patch.u32(va.offsetOverride ?? placed[i].offset);
    });
    w.bytes.splice(headerAt, patch.bytes.length, ...patch.bytes);
  } else if (desc.vertexCount) {
    h.num_vertexes = desc.vertexCount;
  }
  w.align(4);
  if (desc.triangles?.length) {
    h.ofs_triangles = w.length;
    h.num_triangles = desc.triangles.length;
    for (const t of desc.triangles) for (const v of t) w.u32(v);
    if (desc.adjacency) {
      h.ofs_adjacency = w.length;
      for (const t of desc.adjacency) for (const v of t) w.u32(v);
    }
  }
  if (joints.length) {
    h.ofs_joints = w.length;
    h.num_joints = joints.length;
    for (const j of joints) {
      w.u32(str(j.name)); w.i32(j.parent ?? -1);
      for (const v of j.translate || [0, 0, 0]) w.f32(v);
      for (const v of j.rotate || [0, 0, 0, 1]) w.f32(v);
      for (const v of j.scale || [1, 1, 1]) w.f32(v);
    }
  }
  if (poses.length) {
    h.ofs_poses = w.length;
    h.num_poses = poses.length;
    poses.forEach((p, i) => {
      w.i32(poseParents[i] ?? -1); w.u32(p.mask);
      for (const v of p.offset) w.f32(v);
      for (const v of p.scale) w.f32(v);
      h.num_framechannels += popcount(p.mask);
    });
  }
  if (desc.anims?.length) {
    h.ofs_anims = w.length;
    h.num_anims = desc.anims.length;
    for (const a of desc.anims) {
      w.u32(str(a.name)); w.u32(a.firstFrame ?? 0); w.u32(a.frameCount ?? frames.length);
      w.f32(a.framerate ?? 24); w.u32(a.loop ? 1 : 0);
    }
  }
  if (frames.length) {
    h.num_frames = frames.length;
    if (frameData.length) {
      h.ofs_frames = w.length;
      for (const v of frameData) w.u16(v);
      w.align(4);
    }
  }
  if (desc.bounds?.length) {
    h.ofs_bounds = w.length;
    for (const b of desc.bounds) for (const v of b) w.f32(v);
  }
  if (desc.comment !== undefined) {
    const bytes = typeof desc.comment === 'string' ? new TextEncoder().encode(desc.comment) : desc.comment;
    h.ofs_comment = w.length;
    h.num_comment = bytes.length;
    w.raw(bytes);
    w.align(4);
  }
  if (desc.extensions?.length) {
    // Data first, then the list, so each header can point at data and the next header.
    const dataAt = desc.extensions.map((e) => { const at = w.length; w.raw(e.data); w.align(4); return at; });
    h.ofs_extensions = w.length;
    h.num_extensions = desc.extensions.length;
    desc.extensions.forEach((e, i) => {
      w.u32(str(e.name)); w.u32(e.data.length); w.u32(e.data.length ? dataAt[i] : 0);
      w.u32(i + 1 < desc.extensions.length ? w.length + 4 : 0);
    });
  }
  h.filesize = w.length;
  const bytes = new Uint8Array(w.length + (desc.trailing || 0));
  bytes.set(w.bytes);
  bytes.set(new TextEncoder().encode('INTERQUAKEMODEL\0'), 0);
  const view = new DataView(bytes.buffer);
  HEADER_FIELDS.forEach((f, i) => view.setUint32(16 + 4 * i, h[f] >>> 0, true));
  return { bytes, header: h };
}

function popcount(x) {
  let n = 0;
  for (; x; x &= x - 1) n++;
  return n;
}

/** Returns a copy of bytes with the uint32 at `offset` replaced (or a header field by name). */
export function patchU32(bytes, offset, value) {
  const copy = bytes.slice();
  const at = typeof offset === 'string' ? fieldOffset(offset) : offset;
  new DataView(copy.buffer).setUint32(at, value >>> 0, true);
  return copy;
}
export function patchI32(bytes, offset, value) { return patchU32(bytes, offset, value | 0); }
export function patchF32(bytes, offset, value) {
  const copy = bytes.slice();
  new DataView(copy.buffer).setFloat32(offset, value, true);
  return copy;
}
export function readU32(bytes, offset) {
  const at = typeof offset === 'string' ? fieldOffset(offset) : offset;
  return new DataView(bytes.buffer, bytes.byteOffset).getUint32(at, true);
}
