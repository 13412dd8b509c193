// TGA: the corpus textures against netpbm's tgatoppm and an independent
// reference decoder, hand-built images of every type, depth, origin and
// packing against the pixels they were built from, and bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { init } from 'interquake';
import { buildTGA, fiveBit } from '../lib/tga-build.mjs';
import { referenceDecodeTGA } from '../lib/tga-reference.mjs';

const CORPUS = new URL('../../../../shared/corpus/', import.meta.url).pathname;
const iq = await init();

function tgaFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tgaFiles(join(dir, e.name)) : e.name.endsWith('.tga') ? [join(dir, e.name)] : []);
}

/** Parses a binary PPM (P6) or PGM (P5) with maxval 255. */
function readNetpbm(bytes) {
  let at = 0;
  const token = () => {
    while (/\s/.test(String.fromCharCode(bytes[at]))) at++;
    let s = '';
    while (!/\s/.test(String.fromCharCode(bytes[at]))) s += String.fromCharCode(bytes[at++]);
    return s;
  };
  const magic = token(), width = +token(), height = +token(), maxval = +token();
  at++; // the one whitespace byte before the raster
  assert.equal(maxval, 255);
  return { magic, width, height, data: bytes.subarray(at) };
}

const firstDifference = (a, b) => {
  if (a.length !== b.length) return `lengths ${a.length} and ${b.length}`;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return `byte ${i} (pixel ${i >> 2}): ${a[i]} vs ${b[i]}`;
  return null;
};

test('every corpus TGA decodes as netpbm\'s tgatoppm decodes it (RGB and alpha)', () => {
  const files = tgaFiles(CORPUS);
  assert.ok(files.length >= 16, `found ${files.length} TGA files`);
  const dir = mkdtempSync(join(tmpdir(), 'iq-tga-'));
  try {
    for (const file of files) {
      const image = iq.decodeTGA(readFileSync(file), { name: file });
      const alphaPath = join(dir, 'alpha.pgm');
      const ppm = readNetpbm(execFileSync('tgatoppm', [`-alphaout=${alphaPath}`, file], { maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] }));
      const pgm = readNetpbm(readFileSync(alphaPath));
      assert.equal(image.width, ppm.width, file);
      assert.equal(image.height, ppm.height, file);
      // tgatoppm writes an all-zero alpha map for images without alpha; those are opaque.
      const hasAlpha = readFileSync(file)[16] === 32;
      const expected = new Uint8Array(image.width * image.height * 4);
      for (let i = 0; i < image.width * image.height; i++) {
        expected.set(ppm.data.subarray(3 * i, 3 * i + 3), 4 * i);
        expected[4 * i + 3] = hasAlpha ? pgm.data[i] : 255;
      }
      assert.equal(firstDifference(image.data, expected), null, file);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every corpus TGA decodes as the independent reference decoder decodes it', () => {
  for (const file of tgaFiles(CORPUS)) {
    const bytes = readFileSync(file);
    const image = iq.decodeTGA(bytes);
    const ref = referenceDecodeTGA(bytes);
    assert.deepEqual([image.width, image.height], [ref.width, ref.height], file);
    assert.equal(firstDifference(image.data, ref.data), null, file);
  }
  // The corpus covers RLE 24-bit (grism skins), 24-bit (mrfixit) and 32-bit with alpha (icons), all
  // bottom-left: top-left and the other variants come from the hand-built images below.
  const types = tgaFiles(CORPUS).map((f) => readFileSync(f)).map((b) => `${b[2]}/${b[16]}/${b[17] & 0x20 ? 'top' : 'bottom'}`);
  for (const kind of ['10/24/bottom', '2/24/bottom', '2/32/bottom']) assert.ok(types.includes(kind), kind);
});

// -- Hand-built images: every variant against the pixels it was built from

const W = 7, H = 5;
const SOURCE = new Uint8Array(W * H * 4);
for (let y = 0; y < H; y++) {
  for (let x = 0; x < W; x++) {
    // a few repeated pixels so RLE writes runs as well as raw packets
    const v = x < 3 && y === 2 ? [10, 20, 30, 40] : [x * 37, y * 51, (x * y * 13) & 255, 255 - x * 20 - y];
    SOURCE.set(v, 4 * (y * W + x));
  }
}
const expectFrom = (map) => {
  const out = new Uint8Array(SOURCE.length);
  for (let i = 0; i < W * H; i++) out.set(map(Array.from(SOURCE.subarray(4 * i, 4 * i + 4))), 4 * i);
  return out;
};

const TRUE_COLOUR = [
  { depth: 24, expect: ([r, g, b]) => [r, g, b, 255] },
  { depth: 32, expect: (p) => p },
  { depth: 16, alphaBits: 1, expect: ([r, g, b, a]) => [fiveBit(r), fiveBit(g), fiveBit(b), a >= 128 ? 255 : 0] },
  { depth: 16, alphaBits: 0, expect: ([r, g, b]) => [fiveBit(r), fiveBit(g), fiveBit(b), 255] },
  { depth: 15, expect: ([r, g, b]) => [fiveBit(r), fiveBit(g), fiveBit(b), 255] },
];
const GREY = [
  { depth: 8, expect: ([r]) => [r, r, r, 255] },
  { depth: 16, expect: ([r, , , a]) => [r, r, r, a] },
];

test('true-colour and grey TGAs, uncompressed and RLE, both origins, decode to the source pixels', () => {
  let checked = 0;
  for (const [kinds, baseType] of [[TRUE_COLOUR, 2], [GREY, 3]]) {
    for (const kind of kinds) {
      for (const rle of [false, true]) {
        for (const topLeft of [false, true]) {
          for (const rightToLeft of [false, true]) {
            const type = baseType + (rle ? 8 : 0);
            const desc = { width: W, height: H, pixels: SOURCE, type, depth: kind.depth, alphaBits: kind.alphaBits, topLeft, rightToLeft };
            const bytes = buildTGA(desc);
            const image = iq.decodeTGA(bytes);
            const what = JSON.stringify({ type, depth: kind.depth, alphaBits: kind.alphaBits, topLeft, rightToLeft });
            assert.deepEqual([image.width, image.height], [W, H], what);
            assert.equal(firstDifference(image.data, expectFrom(kind.expect)), null, what);
            assert.equal(firstDifference(image.data, referenceDecodeTGA(bytes).data), null, `${what} vs reference`);
            checked++;
          }
        }
      }
    }
  }
  assert.equal(checked, 7 * 8);
});

test('colour-mapped TGAs (8- and 16-bit indices; 15/16/24/32-bit maps; a first entry > 0) decode', () => {
  const palette = [[255, 0, 0, 255], [0, 255, 0, 128], [0, 0, 255, 0], [10, 20, 30, 255], [200, 100, 50, 60]];
  const indices = Array.from({ length: W * H }, (_, i) => (i * 3 + (i >> 3)) % palette.length);
  const cases = [
    { depth: 8, mapBits: 24, mapFirst: 0, decode: ([r, g, b]) => [r, g, b, 255] },
    { depth: 8, mapBits: 32, mapFirst: 0, decode: (p) => p },
    { depth: 16, mapBits: 32, mapFirst: 300, decode: (p) => p },
    { depth: 8, mapBits: 16, mapFirst: 2, alphaBits: 1, decode: ([r, g, b, a]) => [fiveBit(r), fiveBit(g), fiveBit(b), a >= 128 ? 255 : 0] },
    { depth: 8, mapBits: 15, mapFirst: 0, decode: ([r, g, b]) => [fiveBit(r), fiveBit(g), fiveBit(b), 255] },
  ];
  for (const c of cases) {
    for (const type of [1, 9]) {
      for (const topLeft of [false, true]) {
        const bytes = buildTGA({ width: W, height: H, type, depth: c.depth, palette, mapBits: c.mapBits, mapFirst: c.mapFirst,
          alphaBits: c.alphaBits, indices: indices.map((i) => i + c.mapFirst), topLeft });
        const image = iq.decodeTGA(bytes);
        const expected = new Uint8Array(W * H * 4);
        indices.forEach((p, i) => expected.set(c.decode(palette[p]), 4 * i));
        const what = JSON.stringify({ ...c, decode: undefined, type, topLeft });
        assert.equal(firstDifference(image.data, expected), null, what);
        assert.equal(firstDifference(image.data, referenceDecodeTGA(bytes).data), null, `${what} vs reference`);
      }
    }
  }
});

test('the image-ID field and a colour map on a true-colour image are skipped', () => {
  const id = Array.from({ length: 255 }, (_, i) => (i * 7) & 255);
  const image = iq.decodeTGA(buildTGA({ width: W, height: H, pixels: SOURCE, type: 2, depth: 32, id, topLeft: true,
    mapOnTrueColour: [[1, 2, 3, 4], [5, 6, 7, 8]], mapBits: 24 }));
  assert.equal(firstDifference(image.data, SOURCE), null);
});

test('RLE packets run across rows and up to 128 pixels, runs and raw packets alike', () => {
  const width = 300, height = 3;
  const pixels = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) pixels.set(i < 450 ? [9, 8, 7, 255] : [i & 255, (i >> 2) & 255, 3, 255], 4 * i);
  for (const rawPacketsOnly of [false, true]) {
    const bytes = buildTGA({ width, height, pixels, type: 10, depth: 32, topLeft: true, rawPacketsOnly });
    if (!rawPacketsOnly) assert.ok(bytes.length < 18 + 5 * 4 + 5 * 450, 'the builder wrote long runs');
    assert.equal(firstDifference(iq.decodeTGA(bytes).data, pixels), null, `raw only: ${rawPacketsOnly}`);
  }
  // A last packet running past the image: the extra pixels are dropped.
  const bytes = buildTGA({ width: 2, height: 1, pixels: new Uint8Array([1, 2, 3, 255, 1, 2, 3, 255]), type: 10, depth: 24 });
  const longer = bytes.slice();
  longer[18] = 0x80 | 9; // a run of 10 for a 2-pixel image
  assert.deepEqual(Array.from(iq.decodeTGA(longer).data), [1, 2, 3, 255, 1, 2, 3, 255]);
});

// -- Bad input: each an InterquakeError with a specific code

const failsWith = (bytes, code, what) => {
  assert.throws(() => iq.decodeTGA(bytes, { name: 'x.tga' }), (e) => {
    assert.equal(e.name, 'InterquakeError', what);
    assert.equal(e.code, code, `${what}: ${e.message}`);
    assert.equal(e.file, 'x.tga');
    return true;
  }, what);
};
const header = (fields) => {
  const h = new Uint8Array(18);
  const { idLength = 0, mapType = 0, type = 2, mapFirst = 0, mapLength = 0, mapBits = 0, width = 1, height = 1, depth = 24, descriptor = 0 } = fields;
  h.set([idLength, mapType, type, mapFirst & 255, mapFirst >> 8, mapLength & 255, mapLength >> 8, mapBits, 0, 0, 0, 0,
    width & 255, width >> 8, height & 255, height >> 8, depth, descriptor]);
  return h;
};
const withData = (h, n) => { const out = new Uint8Array(h.length + n); out.set(h); return out; };

test('bad TGAs are rejected with specific codes', () => {
  failsWith(new Uint8Array(17), 'truncated', 'shorter than the header');
  failsWith(withData(header({ mapType: 2 }), 3), 'bad_value', 'colour map type 2');
  failsWith(withData(header({ type: 0 }), 3), 'bad_value', 'image type 0 (no image)');
  failsWith(withData(header({ type: 32 }), 3), 'unknown_format', 'Huffman type 32');
  failsWith(withData(header({ type: 2, depth: 12 }), 3), 'bad_value', '12-bit true colour');
  failsWith(withData(header({ type: 3, depth: 24 }), 3), 'bad_value', '24-bit grey');
  failsWith(withData(header({ type: 1, depth: 8 }), 3), 'bad_value', 'colour-mapped without a map');
  failsWith(withData(header({ type: 1, depth: 24, mapType: 1, mapLength: 2, mapBits: 24 }), 9), 'bad_value', '24-bit indices');
  failsWith(withData(header({ type: 1, depth: 8, mapType: 1, mapLength: 2, mapBits: 8 }), 9), 'bad_value', '8-bit map entries');
  failsWith(withData(header({ width: 0 }), 3), 'bad_value', 'zero width');
  failsWith(withData(header({ height: 0 }), 3), 'bad_value', 'zero height');
  failsWith(withData(header({ width: 20000 }), 3), 'limit', 'wider than the limit');
  failsWith(withData(header({ idLength: 200 }), 3), 'truncated', 'the image-ID field runs past the end');
  failsWith(withData(header({ type: 1, depth: 8, mapType: 1, mapLength: 300, mapBits: 24 }), 10), 'truncated', 'the colour map runs past the end');
  failsWith(withData(header({ width: 4, height: 4 }), 47), 'truncated', 'one byte of pixels short');
  failsWith(withData(header({ type: 10, width: 4, height: 4 }), 3), 'truncated', 'RLE data ends early');
  // RLE: enough bytes for the minimum, but the packets are raw and need more.
  const rle = withData(header({ type: 10, width: 256, height: 1 }), 8);
  rle[18] = 127; // a raw packet of 128 pixels, 384 bytes, in a file with 7 left
  failsWith(rle, 'truncated', 'a raw RLE packet runs past the end');
  // Indices outside the map, uncompressed and RLE.
  const mapped = buildTGA({ width: 2, height: 1, type: 1, depth: 8, palette: [[1, 2, 3, 255]], indices: [0, 0] });
  const badIndex = mapped.slice();
  badIndex[badIndex.length - 1] = 5;
  failsWith(badIndex, 'bad_index', 'colour index past the map');
  const mappedRle = buildTGA({ width: 2, height: 1, type: 9, depth: 16, palette: [[1, 2, 3, 255]], indices: [7, 7], mapFirst: 7 });
  const below = mappedRle.slice();
  below[below.length - 2] = 6; // the run's index, one below the first entry
  failsWith(below, 'bad_index', 'colour index below the first map entry');
  assert.throws(() => iq.decodeTGA('not bytes'), { code: 'invalid_argument' });
});

test('a tiny TGA cannot make the decoder allocate a huge image', () => {
  const before = iq.memoryBytes;
  failsWith(withData(header({ width: 16384, height: 16384, depth: 32 }), 2), 'truncated', '1 GiB uncompressed in 20 bytes');
  failsWith(withData(header({ type: 10, width: 16384, height: 16384, depth: 32 }), 2), 'truncated', '1 GiB of RLE in 20 bytes');
  failsWith(withData(header({ type: 11, width: 16384, height: 16384, depth: 8 }), 4000), 'truncated', 'grey RLE: 4000 bytes cannot hold 16384^2 pixels');
  assert.ok(iq.memoryBytes - before < 16 << 20, `the heap grew by ${iq.memoryBytes - before} bytes`);
});
