// Builds TGA files for tests, from the Truevision TGA 2.0 layout, written
// separately from src/formats/iq_tga.c: every image type, depth, origin and RLE,
// with an optional image-ID field and colour map.

/**
 * desc: {
 *   width, height, pixels: RGBA bytes (top row first, as the decoder returns them),
 *   type: 1 | 2 | 3 | 9 | 10 | 11, depth: bits per pixel,
 *   topLeft (default false: bottom-left origin), rightToLeft, alphaBits (descriptor bits 0-3),
 *   id: bytes of the image-ID field,
 *   palette: RGBA entries (colour-mapped types; pixels are then indices, one per pixel, in `indices`),
 *   indices: colour index per pixel (top row first), mapFirst, mapBits (15/16/24/32),
 *   mapOnTrueColour: a colour map to write (and expect skipped) on a true-colour image,
 *   rawPacketsOnly: RLE with raw packets only,
 * }
 */
export function buildTGA(desc) {
  const { width, height, type, depth } = desc;
  const topLeft = desc.topLeft ?? false, rightToLeft = desc.rightToLeft ?? false;
  const mapped = type === 1 || type === 9;
  const palette = mapped ? desc.palette : desc.mapOnTrueColour;
  const mapBits = desc.mapBits ?? 24;
  const out = [];
  const u16 = (v) => out.push(v & 0xff, (v >> 8) & 0xff);
  const id = desc.id ?? [];
  out.push(id.length, palette ? 1 : 0, type);
  u16(palette ? desc.mapFirst ?? 0 : 0);
  u16(palette ? palette.length : 0);
  out.push(palette ? mapBits : 0);
  u16(0); u16(0); u16(width); u16(height);
  out.push(depth, (desc.alphaBits ?? 0) | (rightToLeft ? 0x10 : 0) | (topLeft ? 0x20 : 0));
  out.push(...id);
  if (palette) for (const rgba of palette) out.push(...encodeColour(rgba, mapBits));

  // Pixels in file order: rows from the origin, columns in the stored direction.
  const encoded = [];
  for (let fileRow = 0; fileRow < height; fileRow++) {
    const y = topLeft ? fileRow : height - 1 - fileRow;
    for (let fileCol = 0; fileCol < width; fileCol++) {
      const x = rightToLeft ? width - 1 - fileCol : fileCol;
      const i = y * width + x;
      if (mapped) encoded.push(depth === 8 ? [desc.indices[i]] : [desc.indices[i] & 0xff, desc.indices[i] >> 8]);
      else encoded.push(encodePixel(desc.pixels.slice(4 * i, 4 * i + 4), type & 7, depth));
    }
  }
  if (type < 8) {
    for (const p of encoded) out.push(...p);
  } else {
    // Greedy RLE across row ends: runs of equal pixels, raw packets otherwise, at most 128 each.
    let i = 0;
    const same = (a, b) => a.length === b.length && a.every((x, k) => x === b[k]);
    while (i < encoded.length) {
      let run = 1;
      while (!desc.rawPacketsOnly && run < 128 && i + run < encoded.length && same(encoded[i + run], encoded[i])) run++;
      if (run > 1) {
        out.push(0x80 | (run - 1), ...encoded[i]);
        i += run;
      } else {
        let n = 1;
        while (n < 128 && i + n < encoded.length && (desc.rawPacketsOnly || !same(encoded[i + n], encoded[i + n - 1]))) n++;
        out.push(n - 1);
        for (let k = 0; k < n; k++) out.push(...encoded[i + k]);
        i += n;
      }
    }
  }
  return new Uint8Array(out);
}

function encodeColour([r, g, b, a], bits) {
  if (bits === 24) return [b, g, r];
  if (bits === 32) return [b, g, r, a];
  const v = ((a >= 128 ? 1 : 0) << 15) | ((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3);
  return [v & 0xff, v >> 8];
}

function encodePixel([r, g, b, a], kind, depth) {
  if (kind === 3) return depth === 8 ? [r] : [r, a];
  return encodeColour([r, g, b, a], depth);
}

/** What a 5-bit channel reads back as: the top 5 bits, widened by repeating them. */
export const fiveBit = (v) => ((v >> 3) << 3) | (v >> 5);
