// The software renderer's picture writers (docs/RENDER.md): a picture as PNG, frames as an animated
// PNG or a sprite sheet with its atlas. The PNG format itself (chunks, filters, zlib) is
// web/core/images.js's.

import { InterquakeError } from '../core/wasm.js';
import { encodePNG as encodePixels, pngChunk as chunk, pngChunks, pngSignature, concatBytes, IMAGE_MAX_DIMENSION } from '../core/images.js';

const putBE = (b, at, v, n) => { for (let i = 0; i < n; i++) b[at + i] = (v >>> (8 * (n - 1 - i))) & 255; };

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

/** RGBA pixels as an RGBA PNG, for speed: the Up filter and deflate level 4. */
const encodePNGPixels = (width, height, rgba) => encodePixels(width, height, rgba, { level: 4, filter: 'up' });

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
  const parts = [pngSignature()];
  let sequence = 0;
  for (let i = 0; i < list.length; i++) {
    const png = await encodePNGPixels(width, height, list[i].pixels);
    const cs = pngChunks(png);
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
  return concatBytes(parts);
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
  if (width > IMAGE_MAX_DIMENSION * 4 || height > IMAGE_MAX_DIMENSION * 4 || width * height > 2 ** 28) {
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
