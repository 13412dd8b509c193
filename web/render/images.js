// Images for the software renderer, everywhere (Node has no createImageBitmap): TGA by the C
// (iq.decodeTGA), PNG here over fflate's zlib inflater (the package's one dependency, already
// used for .pk3 entries), and the PNG, animated PNG and sprite-sheet writers (docs/RENDER.md).

import { InterquakeError, getDeflate } from '../core/wasm.js';
import { crc32 } from '../core/crc32.js';

let fflate = null;
async function loadFflate() {
  if (fflate) return fflate;
  if (globalThis.fflate && globalThis.fflate.unzlibSync) return (fflate = globalThis.fflate);
  try {
    fflate = await import('fflate');
  } catch (err) {
    throw new InterquakeError('unavailable', `PNG images need the 'fflate' package (npm install fflate): ${err.message}`);
  }
  return fflate;
}

const PNG_SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];
export const isPNG = (b) => b.length > 8 && PNG_SIGNATURE.every((v, i) => b[i] === v);
export const isJPEG = (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
const u32be = (b, at) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
const putBE = (b, at, v, n) => { for (let i = 0; i < n; i++) b[at + i] = (v >>> (8 * (n - 1 - i))) & 255; };

/** The largest width or height decodePNG accepts (the TGA decoder's, the renderer's textures'). */
export const PNG_MAX_DIMENSION = 16384;

/** An image file to { width, height, data: RGBA8 top row first }: PNG here, TGA by the C; JPEG is refused. */
export async function decodeImage(iq, bytes, path = '') {
  if (isPNG(bytes)) return decodePNG(bytes, path);
  if (isJPEG(bytes)) throw new InterquakeError('unsupported', `${path}: JPEG textures are not decoded by the software renderer yet`);
  return iq.decodeTGA(bytes, { name: path });
}

/**
 * PNG (every colour type, bit depths 1 to 16, palettes with tRNS, Adam7 interlacing) to RGBA8.
 * Every length is checked against the file before use; the inflated size is known from the header
 * and bounded by PNG_MAX_DIMENSION, so a small file cannot make it allocate more than it says.
 */
export async function decodePNG(bytes, path = '') {
  const { unzlibSync } = await loadFflate();
  const fail = (message) => new InterquakeError('bad_value', `${path ? `${path}: ` : ''}PNG: ${message}`);
  if (!isPNG(bytes)) throw fail('no PNG signature');
  let at = 8;
  let header = null;
  let palette = null;
  let transparency = null;
  const idat = [];
  while (at + 12 <= bytes.length) {
    const length = u32be(bytes, at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (length > bytes.length - at - 12) throw fail(`chunk ${type} at byte ${at} runs past the end`);
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      if (length < 13) throw fail('IHDR is too short');
      header = { width: u32be(data, 0), height: u32be(data, 4), depth: data[8], color: data[9], interlace: data[12] };
    } else if (type === 'PLTE') palette = data;
    else if (type === 'tRNS') transparency = data;
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (!header) throw fail('no IHDR');
  const { width, height, depth, color, interlace } = header;
  if (!width || !height || width > PNG_MAX_DIMENSION || height > PNG_MAX_DIMENSION) throw fail(`size ${width}x${height} is outside 1..${PNG_MAX_DIMENSION}`);
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[color];
  if (!channels || ![1, 2, 4, 8, 16].includes(depth) || ((color === 2 || color === 4 || color === 6) && depth < 8) || (color === 3 && depth > 8)) {
    throw fail(`colour type ${color} with bit depth ${depth} is not valid`);
  }
  if (color === 3 && !palette) throw fail('a paletted image without PLTE');
  const total = idat.reduce((n, d) => n + d.length, 0);
  const joined = new Uint8Array(total);
  let o = 0;
  for (const d of idat) { joined.set(d, o); o += d.length; }
  const bitsPerPixel = channels * depth;
  const passes = interlace ? [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]] : [[0, 0, 1, 1]];
  let expected = 0;
  const dims = passes.map(([x0, y0, dx, dy]) => {
    const w = Math.ceil((width - x0) / dx);
    const h = Math.ceil((height - y0) / dy);
    const stride = Math.ceil((w * bitsPerPixel) / 8);
    if (w > 0 && h > 0) expected += h * (stride + 1);
    return { w, h, stride };
  });
  let raw;
  try { raw = unzlibSync(joined, { out: new Uint8Array(expected) }); } catch (err) { throw fail(`image data does not inflate: ${err.message}`); }
  if (raw.length < expected) throw fail(`image data holds ${raw.length} bytes, ${expected} expected`);
  const out = new Uint8Array(width * height * 4);
  const bpp = Math.max(1, bitsPerPixel >> 3);
  const max = (1 << depth) - 1;
  let pos = 0;
  passes.forEach(([x0, y0, dx, dy], p) => {
    const { w, h, stride } = dims[p];
    if (w <= 0 || h <= 0) return;
    let prev = new Uint8Array(stride);
    for (let y = 0; y < h; y++) {
      const filter = raw[pos];
      const row = raw.subarray(pos + 1, pos + 1 + stride);
      pos += stride + 1;
      for (let i = 0; i < stride; i++) {
        const left = i >= bpp ? row[i - bpp] : 0;
        const up = prev[i];
        const corner = i >= bpp ? prev[i - bpp] : 0;
        let v = row[i];
        if (filter === 1) v += left;
        else if (filter === 2) v += up;
        else if (filter === 3) v += (left + up) >> 1;
        else if (filter === 4) v += paeth(left, up, corner);
        else if (filter !== 0) throw fail(`row ${y} has filter ${filter}`);
        row[i] = v;
      }
      prev = row;
      const sample = (x, c) => { // sample c of pixel x, scaled to 0..255
        if (depth === 16) return row[(x * channels + c) * 2];
        if (depth === 8) return row[x * channels + c];
        const bit = (x * channels + c) * depth;
        const v = (row[bit >> 3] >> (8 - depth - (bit & 7))) & max;
        return color === 3 ? v : Math.round((v * 255) / max);
      };
      const native = (x, c) => { // sample c of pixel x as stored (tRNS compares these)
        if (depth === 16) return (row[(x * channels + c) * 2] << 8) | row[(x * channels + c) * 2 + 1];
        if (depth === 8) return row[x * channels + c];
        const bit = (x * channels + c) * depth;
        return (row[bit >> 3] >> (8 - depth - (bit & 7))) & max;
      };
      for (let x = 0; x < w; x++) {
        const d = ((y0 + y * dy) * width + x0 + x * dx) * 4;
        let r; let g; let b; let a = 255;
        if (color === 3) {
          const index = depth === 8 ? row[x] : sample(x, 0);
          if (index * 3 + 2 >= palette.length) throw fail(`palette index ${index} is past the ${palette.length / 3} colours`);
          [r, g, b] = [palette[index * 3], palette[index * 3 + 1], palette[index * 3 + 2]];
          if (transparency && index < transparency.length) a = transparency[index];
        } else if (color === 0 || color === 4) {
          r = g = b = sample(x, 0);
          if (color === 4) a = sample(x, 1);
          else if (transparency?.length >= 2 && native(x, 0) === ((transparency[0] << 8) | transparency[1])) a = 0;
        } else {
          r = sample(x, 0); g = sample(x, 1); b = sample(x, 2);
          if (color === 6) a = sample(x, 3);
          else if (transparency?.length >= 6) {
            const key = [0, 1, 2].map((c) => (transparency[c * 2] << 8) | transparency[c * 2 + 1]);
            const v = [0, 1, 2].map((c) => native(x, c));
            if (v[0] === key[0] && v[1] === key[1] && v[2] === key[2]) a = 0;
          }
        }
        out[d] = r; out[d + 1] = g; out[d + 2] = b; out[d + 3] = a;
      }
    }
  });
  return { width, height, data: out };
}

function paeth(a, b, c) {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

function checkImage(image, what) {
  const ok = image && Number.isInteger(image.width) && Number.isInteger(image.height) && image.width > 0 && image.height > 0
    && image.pixels instanceof Uint8Array && image.pixels.length === image.width * image.height * 4;
  if (!ok) throw new InterquakeError('invalid_argument', `${what} takes { width, height, pixels } as render() returns it (RGBA, width * height * 4 bytes)`);
}

/** A picture from render() as PNG bytes (RGBA). */
export async function encodePNG(image) {
  checkImage(image, 'encodePNG()');
  return encodePNGPixels(image.width, image.height, image.pixels);
}

/**
 * RGBA pixels as an RGBA PNG, for speed: every row with the Up filter (rendered pictures are
 * mostly flat background and smooth shading, where Up does about as well as choosing per row) and
 * deflate level 4 (Node's zlib under Node, fflate's elsewhere).
 */
async function encodePNGPixels(width, height, rgba) {
  const native = getDeflate();
  const zlibSync = native ? (bytes, { level }) => new Uint8Array(native(bytes, level)) : (await loadFflate()).zlibSync;
  const stride = width * 4;
  const raw = new Uint8Array(height * (stride + 1));
  for (let y = 0; y < height; y++) {
    const out = y * (stride + 1);
    const row = y * stride;
    raw[out] = y ? 2 : 0;
    if (!y) raw.set(rgba.subarray(0, stride), 1);
    else for (let i = 0; i < stride; i++) raw[out + 1 + i] = rgba[row + i] - rgba[row - stride + i];
  }
  const ihdr = new Uint8Array(13);
  putBE(ihdr, 0, width, 4);
  putBE(ihdr, 4, height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const parts = [Uint8Array.from(PNG_SIGNATURE), chunk('IHDR', ihdr), chunk('IDAT', zlibSync(raw, { level: 4 })), chunk('IEND', new Uint8Array(0))];
  const png = new Uint8Array(parts.reduce((n, x) => n + x.length, 0));
  let at = 0;
  for (const x of parts) { png.set(x, at); at += x.length; }
  return png;
}

function chunk(type, data) {
  const out = new Uint8Array(12 + data.length);
  putBE(out, 0, data.length, 4);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  putBE(out, 8 + data.length, crc32(out.subarray(4, 8 + data.length)), 4);
  return out;
}

// The chunks of a PNG: [{ type, data }].
function chunks(png) {
  const list = [];
  for (let at = 8; at + 12 <= png.length;) {
    const length = u32be(png, at);
    list.push({ type: String.fromCharCode(...png.subarray(at + 4, at + 8)), data: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  return list;
}

/**
 * Frames from renderAnimation() (all of one size) as an animated PNG that loops forever, each frame
 * shown for 1/fps s. Viewers without APNG show the first frame.
 */
export async function encodeAPNG(frames, { fps = 15 } = {}) {
  const list = frames?.frames ?? frames;
  if (!Array.isArray(list) || !list.length) throw new InterquakeError('invalid_argument', 'encodeAPNG() takes a non-empty list of frames');
  list.forEach((f) => checkImage(f, 'encodeAPNG()'));
  const { width, height } = list[0];
  if (list.some((f) => f.width !== width || f.height !== height)) throw new InterquakeError('invalid_argument', 'encodeAPNG(): every frame must have the same size');
  if (!(Number.isFinite(fps) && fps > 0 && fps <= 1000)) throw new InterquakeError('invalid_argument', `encodeAPNG(): fps ${fps} is not a number in 0..1000`);
  // The delay as a fraction: fps up to 1000 in whole thousandths of a second.
  const den = 1000;
  const num = Math.max(1, Math.round(den / fps));
  const parts = [Uint8Array.from(PNG_SIGNATURE)];
  let sequence = 0;
  for (let i = 0; i < list.length; i++) {
    const png = await encodePNGPixels(width, height, list[i].pixels);
    const cs = chunks(png);
    if (i === 0) {
      parts.push(chunk('IHDR', cs.find((c) => c.type === 'IHDR').data));
      const actl = new Uint8Array(8);
      putBE(actl, 0, list.length, 4); // num_frames; num_plays 0: forever
      parts.push(chunk('acTL', actl));
    }
    const fctl = new Uint8Array(26);
    putBE(fctl, 0, sequence++, 4);
    putBE(fctl, 4, width, 4);
    putBE(fctl, 8, height, 4);
    putBE(fctl, 20, num, 2);
    putBE(fctl, 22, den, 2);
    fctl[24] = 0; // dispose: none
    fctl[25] = 0; // blend: source (each frame replaces the last, transparency included)
    parts.push(chunk('fcTL', fctl));
    for (const c of cs.filter((x) => x.type === 'IDAT')) {
      if (i === 0) parts.push(chunk('IDAT', c.data));
      else {
        const data = new Uint8Array(4 + c.data.length);
        putBE(data, 0, sequence++, 4);
        data.set(c.data, 4);
        parts.push(chunk('fdAT', data));
      }
    }
  }
  parts.push(chunk('IEND', new Uint8Array(0)));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/**
 * Frames as one PNG sprite sheet and its atlas: { png, atlas: { width, height, frames: [{ x, y, w, h,
 * time }] } }, in rows of `columns` frames (default: as near a square as the count allows).
 */
export async function encodeSpriteSheet(frames, { columns } = {}) {
  const list = frames?.frames ?? frames;
  if (!Array.isArray(list) || !list.length) throw new InterquakeError('invalid_argument', 'encodeSpriteSheet() takes a non-empty list of frames');
  list.forEach((f) => checkImage(f, 'encodeSpriteSheet()'));
  const { width: w, height: h } = list[0];
  if (list.some((f) => f.width !== w || f.height !== h)) throw new InterquakeError('invalid_argument', 'encodeSpriteSheet(): every frame must have the same size');
  const cols = columns ?? Math.ceil(Math.sqrt(list.length));
  if (!(Number.isInteger(cols) && cols >= 1)) throw new InterquakeError('invalid_argument', `encodeSpriteSheet(): columns ${columns} is not a whole number`);
  const rows = Math.ceil(list.length / cols);
  const width = w * Math.min(cols, list.length);
  const height = h * rows;
  if (width > PNG_MAX_DIMENSION * 4 || height > PNG_MAX_DIMENSION * 4 || width * height > 2 ** 28) {
    throw new InterquakeError('invalid_argument', `encodeSpriteSheet(): a ${width}x${height} sheet is too large`);
  }
  const pixels = new Uint8Array(width * height * 4);
  const atlas = { width, height, frames: [] };
  list.forEach((f, i) => {
    const x = (i % cols) * w;
    const y = Math.floor(i / cols) * h;
    for (let row = 0; row < h; row++) pixels.set(f.pixels.subarray(row * w * 4, (row + 1) * w * 4), ((y + row) * width + x) * 4);
    atlas.frames.push({ x, y, w, h, ...(f.time !== undefined ? { time: f.time } : {}) });
  });
  return { png: await encodePNGPixels(width, height, pixels), atlas };
}
