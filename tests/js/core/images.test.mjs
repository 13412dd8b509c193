// Image files (web/core/images.js): JPEG by jpeg-js against pictures whose content is known (made by
// libjpeg-turbo's cjpeg: tests/fixtures/jpeg/README.md), and hostile variants of them; the PNG
// writer and reader round trip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { decodeJPEG, decodePNG, encodePNG, decodeImage, IMAGE_MAX_DIMENSION } from '../../../web/core/images.js';
import { init } from 'interquake';

const dir = new URL('../../fixtures/jpeg/', import.meta.url);
const read = (name) => new Uint8Array(readFileSync(new URL(name, dir)));
const QUADRANTS = [[255, 0, 0], [0, 192, 0], [32, 64, 255], [255, 255, 255]]; // top left, top right, bottom left, bottom right
const luma = ([r, g, b]) => 0.299 * r + 0.587 * g + 0.114 * b;

// The largest difference from the known colour inside each quadrant (2 pixels in from its edges).
function quadrantError(img, expected) {
  let worst = 0;
  for (let q = 0; q < 4; q++) {
    const x0 = (q & 1) * 16;
    const y0 = (q >> 1) * 16;
    for (let y = y0 + 2; y < y0 + 14; y++) {
      for (let x = x0 + 2; x < x0 + 14; x++) {
        const i = (y * img.width + x) * 4;
        for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(img.data[i + c] - expected[q][c]));
        assert.equal(img.data[i + 3], 255, 'JPEG is opaque');
      }
    }
  }
  return worst;
}

test('JPEG: baseline 4:2:0, progressive, 4:4:4 with restart markers and grayscale decode to the known quadrants', async () => {
  for (const name of ['quadrants.jpg', 'quadrants-progressive.jpg', 'quadrants-444-restart.jpg']) {
    const img = await decodeJPEG(read(name), name);
    assert.equal(img.width, 32);
    assert.equal(img.height, 32);
    assert.equal(img.data.length, 32 * 32 * 4);
    const error = quadrantError(img, QUADRANTS);
    assert.ok(error <= 8, `${name}: off by ${error} inside the quadrants`);
  }
  const gray = await decodeJPEG(read('quadrants-gray.jpg'));
  const error = quadrantError(gray, QUADRANTS.map((c) => { const y = Math.round(luma(c)); return [y, y, y]; }));
  assert.ok(error <= 4, `grayscale off by ${error}`);
  // decodeImage goes by content, whatever the name says (a .tga that holds a JPEG).
  const byContent = await decodeImage(null, read('quadrants.jpg'), 'skin.tga');
  assert.deepEqual(byContent.data, (await decodeJPEG(read('quadrants.jpg'))).data);
});

test('JPEG: cut, patched and oversized files give bad_value or a whole picture, never a crash or a hang', async () => {
  let refused = 0;
  let decoded = 0;
  const check = async (bytes, what) => {
    try {
      const img = await decodeJPEG(bytes, 'x.jpg');
      assert.ok(img.width >= 1 && img.height >= 1 && img.width <= IMAGE_MAX_DIMENSION && img.height <= IMAGE_MAX_DIMENSION, what);
      assert.equal(img.data.length, img.width * img.height * 4, what);
      decoded++;
    } catch (err) {
      assert.equal(err.code, 'bad_value', `${what}: ${err.stack}`);
      assert.match(err.message, /^x\.jpg: JPEG: /, what);
      refused++;
    }
  };
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.jpg'))) {
    const bytes = read(name);
    for (let cut = 3; cut < bytes.length; cut += 7) await check(bytes.subarray(0, cut), `${name} cut at ${cut}`);
    for (let at = 2; at < bytes.length; at += 3) {
      for (const v of [0x00, 0xff, 0x7f]) {
        const bad = Uint8Array.from(bytes);
        bad[at] = v;
        await check(bad, `${name} byte ${at} = ${v}`);
      }
    }
  }
  assert.ok(refused > 50 && decoded > 50, `${refused} refused, ${decoded} decoded`);
  // A frame header claiming 65535 x 65535: refused before anything that size is allocated.
  const big = read('quadrants.jpg');
  const sof = big.findIndex((b, i) => b === 0xff && big[i + 1] === 0xc0);
  big[sof + 5] = 0xff; big[sof + 6] = 0xff; big[sof + 7] = 0xff; big[sof + 8] = 0xff;
  await assert.rejects(decodeJPEG(big, 'x.jpg'), (err) => err.code === 'bad_value' && /x\.jpg: JPEG: /.test(err.message));
  await assert.rejects(decodeJPEG(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 0]), 'x.jpg'), { code: 'bad_value' });
});

test('PNG: the writer\'s files read back as the pixels that went in, RGB and RGBA, either filter', async () => {
  await init(); // Node's zlib for the writer
  const w = 13;
  const h = 7;
  const rgba = new Uint8Array(w * h * 4).map((_, i) => (i * 37 + (i >> 5)) & 255);
  const opaque = Uint8Array.from(rgba).map((v, i) => (i % 4 === 3 ? 255 : v));
  for (const filter of ['adaptive', 'up']) {
    assert.deepEqual((await decodePNG(await encodePNG(w, h, rgba, { filter }))).data, rgba, filter);
    assert.deepEqual((await decodePNG(await encodePNG(w, h, opaque, { filter, alpha: false }))).data, opaque, `${filter} RGB`);
  }
});

test('PNG: cut and patched files give bad_value or a whole picture, never another error', async () => {
  await init();
  const w = 9;
  const h = 7;
  const rgba = new Uint8Array(w * h * 4).map((_, i) => (i * 53) & 255);
  const files = [await encodePNG(w, h, rgba), await encodePNG(w, h, rgba, { alpha: false, filter: 'up' }),
    new Uint8Array(readFileSync(new URL('../../../../shared/corpus/iqm/raylib/guytex.png', import.meta.url))).subarray(0, 4096)];
  let refused = 0;
  let decoded = 0;
  for (const bytes of files) {
    const variants = [];
    for (let cut = 0; cut < bytes.length; cut += Math.max(1, bytes.length >> 7)) variants.push(bytes.subarray(0, cut));
    for (let at = 8; at < Math.min(bytes.length, 600); at += 3) {
      for (const v of [0x00, 0xff, 0x80]) {
        const bad = Uint8Array.from(bytes);
        bad[at] = v;
        variants.push(bad);
      }
    }
    for (const variant of variants) {
      try {
        const img = await decodePNG(variant, 'x.png');
        assert.ok(img.width >= 1 && img.height >= 1 && img.width <= IMAGE_MAX_DIMENSION && img.height <= IMAGE_MAX_DIMENSION);
        assert.equal(img.data.length, img.width * img.height * 4);
        decoded++;
      } catch (err) {
        assert.equal(err.code, 'bad_value', err.stack);
        refused++;
      }
    }
  }
  assert.ok(refused > 100 && decoded > 10, `${refused} refused, ${decoded} decoded`);
});
