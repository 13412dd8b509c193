// Image files, in every environment (Node has no createImageBitmap): which format a file is, PNG
// in and out, JPEG in, and a texture file to RGBA whatever its format (TGA by the C). The glTF
// writer, the software renderer and their tests share this one module.
//
// PNG is written and read here over zlib (Node's, when the library was given it, else fflate's,
// the package's dependency for .pk3 entries); its format around zlib is chunks and five row
// filters, every length checked against the file and the inflated size known from the header in
// advance. JPEG is decoded by the browser in a browser, and in Node by jpeg-js (a dependency: pure
// JS, no native code, baseline and progressive, with limits on resolution and memory for files
// from strangers; the decoder Playwright and Jimp ship), loaded on the first JPEG through the Node
// entry's setJpegModule.

import { InterquakeError, getDeflate } from './wasm.js';
import { crc32 } from './crc32.js';

export const isPNG = (b) => b.length > 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47;
export const isJPEG = (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
/**
 * How a texture file is decoded, by its content, whatever its name says: 'png', 'jpeg', else
 * 'tga' (which has no magic). No valid TGA starts like the other two: its second byte, the
 * colour-map type, is 0 or 1, and theirs are 0x50 and 0xd8. The element, the software renderer
 * and the glTF writer all go by this.
 */
export const imageKind = (b) => (isPNG(b) ? 'png' : isJPEG(b) ? 'jpeg' : 'tga');

/** The largest width or height of an image decoded here (the TGA decoder's, the renderer's textures'). */
export const IMAGE_MAX_DIMENSION = 16384;
/** The most pixels of a JPEG decoded here: jpeg-js holds a plane per component besides the RGBA. */
export const JPEG_MAX_PIXELS = 64 * 1024 * 1024;

const PNG_SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];
const u32be = (b, at) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
const putBE = (b, at, v, n) => { for (let i = 0; i < n; i++) b[at + i] = (v >>> (8 * (n - 1 - i))) & 255; };

let fflate = null;
/** fflate, from a <script> (its UMD build) or the package; `what` names what needs it in the error. */
async function fflateFor(what) {
  if (fflate) return fflate;
  if (globalThis.fflate && globalThis.fflate.zlibSync) return (fflate = globalThis.fflate);
  try {
    fflate = await import('fflate');
  } catch (err) {
    throw new InterquakeError('unavailable', `${what} need the 'fflate' package (npm install fflate, or map it in an import map): ${err.message}`);
  }
  return fflate;
}

// jpeg-js, for JPEG outside a browser: the Node entry (web/interquake.node.js) gives a loader of
// it, so that bundlers making a browser build never see the package (it needs Node's Buffer).
let jpegModule = null;
/** Sets () => Promise<jpeg-js module>, the JPEG decoder where there is no browser. */
export function setJpegModule(load) { jpegModule = load; }

/** zlib-compressed `bytes`: Node's zlib when the library was given it (faster), else fflate's. */
async function zlib(bytes, level, what) {
  const native = getDeflate();
  if (native) return new Uint8Array(native(bytes, level));
  return (await fflateFor(what)).zlibSync(bytes, { level });
}

/** A PNG chunk: length, type, data, CRC. */
export function pngChunk(type, data) {
  const out = new Uint8Array(12 + data.length);
  putBE(out, 0, data.length, 4);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  putBE(out, 8 + data.length, crc32(out.subarray(4, 8 + data.length)), 4);
  return out;
}

/** The chunks of a PNG written by encodePNG: [{ type, data }]. */
export function pngChunks(png) {
  const list = [];
  for (let at = 8; at + 12 <= png.length;) {
    const length = u32be(png, at);
    list.push({ type: String.fromCharCode(...png.subarray(at + 4, at + 8)), data: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  return list;
}

/** Byte arrays one after the other in one. */
export function concatBytes(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/** The PNG signature, to start a file of chunks. */
export const pngSignature = () => Uint8Array.from(PNG_SIGNATURE);

/**
 * RGBA8 pixels (top row first) as PNG bytes, RGBA or (alpha: false) RGB. filter 'adaptive': each
 * row with the filter whose output has the smallest sum of absolute values (the usual heuristic,
 * smaller files); 'up': every row with Up (rendered pictures are mostly flat background and smooth
 * shading, where Up does about as well, in a fifth of the time).
 */
export async function encodePNG(width, height, rgba, { alpha = true, level = 6, filter = 'adaptive' } = {}) {
  const channels = alpha ? 4 : 3;
  const stride = width * channels;
  const raw = new Uint8Array(height * (stride + 1));
  if (filter === 'up' && alpha) {
    // Four bytes at a time: each byte of a - b on its own (no borrow between bytes), into an
    // aligned row that is then copied after the row's filter byte.
    const words = rgba.byteOffset % 4 === 0 ? new Uint32Array(rgba.buffer, rgba.byteOffset, (width * height * 4) >> 2) : new Uint32Array(rgba.slice().buffer);
    const diff = new Uint32Array(stride >> 2);
    const diffBytes = new Uint8Array(diff.buffer);
    const n = stride >> 2;
    raw.set(rgba.subarray(0, stride), 1);
    for (let y = 1; y < height; y++) {
      const row = y * n;
      for (let i = 0; i < n; i++) {
        const a = words[row + i];
        const b = words[row - n + i];
        diff[i] = (((a | 0x80808080) - (b & 0x7f7f7f7f)) ^ ((a ^ ~b) & 0x80808080)) >>> 0;
      }
      const out = y * (stride + 1);
      raw[out] = 2;
      raw.set(diffBytes, out + 1);
    }
  } else {
    let prev = new Uint8Array(stride);
    let row = new Uint8Array(stride);
    const candidate = [0, 1, 2, 3, 4].map(() => new Uint8Array(stride));
    const filters = filter === 'up' ? [2] : [0, 1, 2, 3, 4];
    for (let y = 0; y < height; y++) {
      for (let x = 0, s = y * width * 4; x < width; x++, s += 4) {
        for (let c = 0; c < channels; c++) row[x * channels + c] = rgba[s + c];
      }
      let best = filters[0];
      let bestSum = Infinity;
      for (const f of filters) {
        const out = candidate[f];
        let sum = 0;
        for (let i = 0; i < stride; i++) {
          const left = i >= channels ? row[i - channels] : 0;
          const up = prev[i];
          const corner = i >= channels ? prev[i - channels] : 0;
          const predicted = f === 0 ? 0 : f === 1 ? left : f === 2 ? up : f === 3 ? (left + up) >> 1 : paeth(left, up, corner);
          const v = (row[i] - predicted) & 255;
          out[i] = v;
          sum += v < 128 ? v : 256 - v;
        }
        if (sum < bestSum) {
          bestSum = sum;
          best = f;
        }
      }
      raw[y * (stride + 1)] = best;
      raw.set(candidate[best], y * (stride + 1) + 1);
      [prev, row] = [row, prev];
    }
  }
  const header = new Uint8Array(13);
  putBE(header, 0, width, 4);
  putBE(header, 4, height, 4);
  header[8] = 8; // bits per channel
  header[9] = alpha ? 6 : 2; // RGBA or RGB
  const data = await zlib(raw, level, 'PNG images');
  return concatBytes([pngSignature(), pngChunk('IHDR', header), pngChunk('IDAT', data), pngChunk('IEND', new Uint8Array(0))]);
}

/**
 * PNG (every colour type, bit depths 1 to 16, palettes with tRNS, Adam7 interlacing) to RGBA8.
 * Every length is checked against the file before use; the inflated size is known from the header
 * and bounded by IMAGE_MAX_DIMENSION, so a small file cannot make it allocate more than it says.
 */
export async function decodePNG(bytes, path = '') {
  const { unzlibSync } = await fflateFor('PNG images');
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
  if (!width || !height || width > IMAGE_MAX_DIMENSION || height > IMAGE_MAX_DIMENSION) throw fail(`size ${width}x${height} is outside 1..${IMAGE_MAX_DIMENSION}`);
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

/**
 * A baseline or progressive JPEG to { width, height, data: RGBA8 top row first }, within
 * IMAGE_MAX_DIMENSION per side and JPEG_MAX_PIXELS. In a browser, by the browser's own decoder (the
 * one the element's textures go through, and nothing to download); elsewhere by jpeg-js. A file
 * cut short decodes as far as it goes, as browsers show it.
 */
export async function decodeJPEG(bytes, path = '') {
  const fail = (message) => new InterquakeError('bad_value', `${path ? `${path}: ` : ''}JPEG: ${message}`);
  if (!isJPEG(bytes)) throw fail('no JPEG start of image');
  const checkSize = (width, height) => {
    if (!(width > 0 && height > 0) || width > IMAGE_MAX_DIMENSION || height > IMAGE_MAX_DIMENSION || width * height > JPEG_MAX_PIXELS) {
      throw fail(`size ${width}x${height} is outside 1..${IMAGE_MAX_DIMENSION} a side or over ${JPEG_MAX_PIXELS} pixels`);
    }
  };
  if (typeof createImageBitmap === 'function' && typeof OffscreenCanvas === 'function') {
    let bitmap;
    try {
      bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/jpeg' }), { imageOrientation: 'none', premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
    } catch (err) {
      throw fail(String(err?.message ?? err));
    }
    try {
      const { width, height } = bitmap;
      checkSize(width, height);
      const context = new OffscreenCanvas(width, height).getContext('2d', { willReadFrequently: true });
      context.drawImage(bitmap, 0, 0);
      return { width, height, data: new Uint8Array(context.getImageData(0, 0, width, height).data.buffer) };
    } finally {
      bitmap.close();
    }
  }
  if (!jpegModule) throw new InterquakeError('unavailable', `${path ? `${path}: ` : ''}JPEG: no decoder here (a browser's, or jpeg-js through interquake's Node entry)`);
  let jpeg;
  try {
    const mod = await jpegModule();
    jpeg = mod.default ?? mod;
  } catch (err) {
    throw new InterquakeError('unavailable', `JPEG images need the 'jpeg-js' package (npm install jpeg-js): ${err.message}`);
  }
  let image;
  try {
    image = jpeg.decode(bytes, {
      useTArray: true, formatAsRGBA: true, tolerantDecoding: true,
      maxResolutionInMP: JPEG_MAX_PIXELS / 1e6, maxMemoryUsageInMB: 1024,
    });
  } catch (err) {
    throw fail(String(err?.message ?? err));
  }
  const { width, height, data } = image;
  checkSize(width, height);
  if (!(data instanceof Uint8Array) || data.length !== width * height * 4) throw fail('the decoder gave no pixels');
  return { width, height, data };
}

/** A texture file to { width, height, data: RGBA8 top row first }: PNG and JPEG by content, else TGA by the C. */
export async function decodeImage(iq, bytes, path = '') {
  const kind = imageKind(bytes);
  if (kind === 'png') return decodePNG(bytes, path);
  if (kind === 'jpeg') return decodeJPEG(bytes, path);
  return iq.decodeTGA(bytes, { name: path });
}

/** OPAQUE when every alpha is 255, MASK when each is 0 or 255, else BLEND (RGBA8 pixels). */
export function alphaModeOf(rgba) {
  let mode = 'OPAQUE';
  for (let i = 3; i < rgba.length; i += 4) {
    const a = rgba[i];
    if (a === 255) continue;
    if (a !== 0) return 'BLEND';
    mode = 'MASK';
  }
  return mode;
}

// PNG's Paeth predictor.
function paeth(a, b, c) {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
