// CRC-32 (IEEE 802.3, the one zip and PNG use): archive entries are checked with it
// (web/quake3/archive.js) and PNG chunks written with it (web/core/gltf.js).

let crcTables = null;
/** CRC-32 (IEEE 802.3, the zip one) of bytes; four bytes a step ("slicing by 4"). */
export function crc32(bytes) {
  if (!crcTables) {
    crcTables = [0, 1, 2, 3].map(() => new Uint32Array(256));
    const [t0, t1, t2, t3] = crcTables;
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      t0[n] = c >>> 0;
    }
    for (let n = 0; n < 256; n++) {
      t1[n] = (t0[t0[n] & 0xff] ^ (t0[n] >>> 8)) >>> 0;
      t2[n] = (t0[t1[n] & 0xff] ^ (t1[n] >>> 8)) >>> 0;
      t3[n] = (t0[t2[n] & 0xff] ^ (t2[n] >>> 8)) >>> 0;
    }
  }
  const [t0, t1, t2, t3] = crcTables;
  let c = 0xffffffff;
  const n = bytes.length;
  const whole = n - (n & 3);
  let i = 0;
  for (; i < whole; i += 4) {
    c ^= bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24);
    c = t3[c & 0xff] ^ t2[(c >>> 8) & 0xff] ^ t1[(c >>> 16) & 0xff] ^ t0[c >>> 24];
  }
  for (; i < n; i++) c = t0[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
