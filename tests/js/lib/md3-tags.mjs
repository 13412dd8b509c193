// Reads the header and the tags of an MD3 straight from the bytes (specs/md3.txt), for
// checking tag placement independently of the C loader. Double precision throughout.

const utf8 = new TextDecoder();

export function readMd3Tags(bytes) {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = (at, n) => {
    const raw = bytes.subarray(at, at + n);
    const end = raw.indexOf(0);
    return utf8.decode(end < 0 ? raw : raw.subarray(0, end));
  };
  if (text(0, 4) !== 'IDP3') throw new Error('not an MD3');
  const frames = v.getInt32(76, true);
  const tagCount = v.getInt32(80, true);
  const ofsTags = v.getInt32(96, true);
  const tags = new Map(); // name -> [{ origin, axis }] per frame (first tag of that name)
  for (let f = 0; f < frames; f++) {
    for (let t = 0; t < tagCount; t++) {
      const at = ofsTags + (f * tagCount + t) * 112;
      const name = text(at, 64);
      const floats = [];
      for (let k = 0; k < 12; k++) floats.push(v.getFloat32(at + 64 + 4 * k, true));
      if (!tags.has(name)) tags.set(name, []);
      const list = tags.get(name);
      if (list.length === f) list.push({ origin: floats.slice(0, 3), axis: [floats.slice(3, 6), floats.slice(6, 9), floats.slice(9, 12)] });
    }
  }
  return { frames, tags };
}

/**
 * A tag at a whole frame as a column-major 4x4 (columns: axis[0], axis[1], axis[2], origin),
 * each axis normalised as Quake 3's R_LerpTag does (some shipped tags have scaled axes).
 */
export function tagMatrix4(tag) {
  const [x, y, z] = tag.axis.map((a) => {
    const len = Math.hypot(...a);
    return a.map((c) => c / len);
  });
  return [x[0], x[1], x[2], 0, y[0], y[1], y[2], 0, z[0], z[1], z[2], 0, tag.origin[0], tag.origin[1], tag.origin[2], 1];
}

export function mul4(a, b) {
  const out = new Array(16).fill(0);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[c * 4 + r] += a[k * 4 + r] * b[c * 4 + k];
  return out;
}

/** p (x, y, z) through a column-major 4x4. */
export function apply4(m, p) {
  return [0, 1, 2].map((r) => m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);
}
