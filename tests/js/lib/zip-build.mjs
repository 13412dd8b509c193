// Writes zip archives for tests, from PKWARE's APPNOTE (local header 4.3.7, central
// directory header 4.3.12, end record 4.3.16), independently of the C reader. Entries are
// stored or deflated (Node's zlib, raw deflate); any field can be overridden so bad-input
// tests can build lying archives. Returns the bytes and where each structure landed.
import { constants, deflateRawSync } from 'node:zlib';

/**
 * A raw deflate stream of `size` zeros (a multiple of `chunk`), built without deflating them
 * all: one chunk is deflated with a full flush (byte-aligned, not final, no back-references
 * across it), repeated, then closed by an empty final block. level 9 gives 1011:1 with 1 MiB
 * chunks (what deflate does to 1 GiB of zeros), level 1 gives 229:1.
 */
export function zeroStream(size, { level = 9, chunk = 1 << 20 } = {}) {
  if (size % chunk) throw new Error('size must be a multiple of chunk');
  const piece = deflateRawSync(new Uint8Array(chunk), { level, finishFlush: constants.Z_FULL_FLUSH });
  const count = size / chunk;
  const out = new Uint8Array(piece.length * count + 2);
  for (let i = 0; i < count; i++) out.set(piece, i * piece.length);
  out.set([0x03, 0x00], piece.length * count); // BFINAL=1, fixed Huffman, end of block
  return out;
}

let table;
export function crc32(bytes) {
  if (!table) {
    table = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c;
    }
  }
  let c = -1;
  for (const b of bytes) c = table[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

/**
 * files: [{ name, data (Uint8Array | string), deflate?: boolean, method?, flags?, crc?, size?,
 * compressedSize?, compressed?: Uint8Array (raw bytes to store as the entry's data),
 * descriptor?: boolean (streaming style: flag bit 3, zeros in the local header, a data descriptor after),
 * crc32 of data is skipped when crc is given (data may then be omitted: { size, compressed }),
 * sameAs?: index of an earlier file whose local header, data and sizes this directory entry reuses
 * (one stream under two names) }].
 * options.comment: end-record comment; options.declaredCount: the end record's entry count.
 */
export function buildZip(files, options = {}) {
  const enc = new TextEncoder();
  const chunks = [];
  let at = 0;
  const push = (bytes) => { chunks.push(bytes); at += bytes.length; };
  const entries = [];
  for (const f of files) {
    const name = enc.encode(f.name);
    if (f.sameAs !== undefined) {
      entries.push({ ...entries[f.sameAs], name: f.name, nameBytes: name });
      continue;
    }
    const data = typeof f.data === 'string' ? enc.encode(f.data) : f.data ?? new Uint8Array(0);
    const compressed = f.compressed ?? (f.deflate ? new Uint8Array(deflateRawSync(data, { level: 9 })) : data);
    const e = {
      name: f.name, nameBytes: name, data, compressed,
      method: f.method ?? (f.deflate ? 8 : 0), flags: f.flags ?? 0,
      crc: f.crc ?? crc32(data), size: f.size ?? data.length, compressedSize: f.compressedSize ?? compressed.length,
      localOffset: at,
    };
    const h = new DataView(new ArrayBuffer(30));
    h.setUint32(0, 0x04034b50, true);
    h.setUint16(4, 20, true);
    h.setUint16(6, e.flags, true);
    h.setUint16(8, e.method, true);
    // streaming writers (flag bit 3) leave CRC and sizes 0 here and put them in a descriptor after the data
    h.setUint32(14, f.descriptor ? 0 : e.crc, true);
    h.setUint32(18, f.descriptor ? 0 : e.compressedSize, true);
    h.setUint32(22, f.descriptor ? 0 : e.size, true);
    h.setUint16(26, name.length, true);
    push(new Uint8Array(h.buffer));
    push(name);
    e.dataOffset = at;
    push(compressed);
    if (f.descriptor) {
      const d = new DataView(new ArrayBuffer(16));
      d.setUint32(0, 0x08074b50, true);
      d.setUint32(4, e.crc, true);
      d.setUint32(8, e.compressedSize, true);
      d.setUint32(12, e.size, true);
      push(new Uint8Array(d.buffer));
    }
    entries.push(e);
  }
  const centralOffset = at;
  for (const e of entries) {
    const h = new DataView(new ArrayBuffer(46));
    h.setUint32(0, 0x02014b50, true);
    h.setUint16(4, 20, true);
    h.setUint16(6, 20, true);
    h.setUint16(8, e.flags, true);
    h.setUint16(10, e.method, true);
    h.setUint32(16, e.crc, true);
    h.setUint32(20, e.compressedSize, true);
    h.setUint32(24, e.size, true);
    h.setUint16(28, e.nameBytes.length, true);
    h.setUint32(42, e.localOffset, true);
    e.centralOffset = at;
    push(new Uint8Array(h.buffer));
    push(e.nameBytes);
  }
  const centralSize = at - centralOffset;
  const comment = enc.encode(options.comment ?? '');
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  const declared = options.declaredCount ?? entries.length;
  end.setUint16(8, declared, true);
  end.setUint16(10, declared, true);
  end.setUint32(12, centralSize, true);
  end.setUint32(16, centralOffset, true);
  end.setUint16(20, comment.length, true);
  const endOffset = at;
  push(new Uint8Array(end.buffer));
  push(comment);
  const bytes = new Uint8Array(at);
  let o = 0;
  for (const c of chunks) { bytes.set(c, o); o += c.length; }
  return { bytes, entries, centralOffset, centralSize, endOffset };
}
