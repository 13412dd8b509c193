// A reference TGA decoder for tests, written separately from src/formats/iq_tga.c and
// in another shape: it first expands RLE into the plain pixel stream, then
// converts whole rows, so the two decoders share no structure. Trusts its
// input (test files only). Returns RGBA, top row first.

export function referenceDecodeTGA(bytes) {
  const idLength = bytes[0], mapType = bytes[1], type = bytes[2];
  const word = (at) => bytes[at] | (bytes[at + 1] << 8);
  const mapFirst = word(3), mapLength = word(5), mapBits = bytes[7];
  const width = word(12), height = word(14), depth = bytes[16], descriptor = bytes[17];
  const hasAlphaBits = (descriptor & 15) !== 0;
  const bytesPer = Math.ceil(depth / 8);
  const mapBytes = mapType ? mapLength * Math.ceil(mapBits / 8) : 0;
  let at = 18 + idLength;
  const map = bytes.subarray(at, at + mapBytes);
  at += mapBytes;

  // 1. The plain pixel stream.
  const count = width * height;
  let stream;
  if (type & 8) {
    stream = new Uint8Array(count * bytesPer);
    let filled = 0;
    while (filled < count) {
      const head = bytes[at++];
      const n = (head & 127) + 1;
      for (let k = 0; k < n && filled < count; k++, filled++) {
        const from = head & 128 ? at : at + k * bytesPer;
        stream.set(bytes.subarray(from, from + bytesPer), filled * bytesPer);
      }
      at += head & 128 ? bytesPer : n * bytesPer;
    }
  } else {
    stream = bytes.subarray(at, at + count * bytesPer);
  }

  // 2. One colour value to RGBA.
  const colour = (src, off, bits) => {
    if (bits === 24) return [src[off + 2], src[off + 1], src[off], 255];
    if (bits === 32) return [src[off + 2], src[off + 1], src[off], src[off + 3]];
    const v = src[off] | (src[off + 1] << 8);
    const widen = (c) => (c << 3) | (c >> 2);
    return [widen((v >> 10) & 31), widen((v >> 5) & 31), widen(v & 31), bits === 16 && hasAlphaBits ? (v & 0x8000 ? 255 : 0) : 255];
  };
  const pixel = (i) => {
    const off = i * bytesPer;
    switch (type & 7) {
      case 1: {
        const index = (depth === 8 ? stream[off] : stream[off] | (stream[off + 1] << 8)) - mapFirst;
        return colour(map, index * Math.ceil(mapBits / 8), mapBits);
      }
      case 2: return colour(stream, off, depth);
      default: return [stream[off], stream[off], stream[off], depth === 16 ? stream[off + 1] : 255];
    }
  };

  // 3. Rows and columns to top-left order.
  const out = new Uint8Array(count * 4);
  const topDown = (descriptor & 0x20) !== 0, rightToLeft = (descriptor & 0x10) !== 0;
  for (let row = 0; row < height; row++) {
    const y = topDown ? row : height - 1 - row;
    for (let col = 0; col < width; col++) {
      const x = rightToLeft ? width - 1 - col : col;
      out.set(pixel(row * width + col), 4 * (y * width + x));
    }
  }
  return { width, height, data: out };
}
