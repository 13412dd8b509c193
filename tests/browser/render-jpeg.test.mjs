// JPEG textures in the browser: web/core/images.js decodes them with the browser's own decoder
// there (jpeg-js is Node's), so iq.render() and the element draw the same texels. A square textured
// with tests/fixtures/jpeg/quadrants.jpg, face on, by the element and by iq.render() in one page.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openBrowser } from './lib/browser.mjs';
import { elementPage } from './lib/viewer.mjs';
import { buildIQM } from '../js/lib/iqm-build.mjs';

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

const jpeg = [...readFileSync(new URL('../fixtures/jpeg/quadrants.jpg', import.meta.url))];
const squareWith = (material) => [...buildIQM({
  vertexArrays: [
    { type: 'position', format: 'float', size: 3, data: [0, -5, -5, 0, -5, 5, 0, 5, 5, 0, 5, -5] },
    { type: 'normal', format: 'float', size: 3, data: [1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0] },
    { type: 'texcoord', format: 'float', size: 2, data: [0, 1, 0, 0, 1, 0, 1, 1] },
  ],
  triangles: [[0, 1, 2], [0, 2, 3]],
  meshes: [{ name: 'square', material }],
}).bytes];
const square = squareWith('skin.jpg');
// The same JPEG under a .tga name: decoded by its content, by the element as by iq.render().
const squareTga = squareWith('skin.tga');

test('a JPEG texture: the browser decodes it for iq.render() as for the element, and both draw it alike', { timeout: 120000 }, async () => {
  const view = 'camera-orbit="0deg 90deg 10m" camera-target="0m 0m 0m" field-of-view="90deg" light-direction="1 0 0" light-ambient="0" light-intensity="1"';
  const page = await elementPage(browser, 'iq-jpeg.html', `<interquake-viewer ${view} background="transparent" style="width:64px;height:64px"></interquake-viewer>`);
  const r = await page.evaluate(async ({ jpeg, square, squareTga }) => {
    const { init } = await import('./interquake.js');
    const { decodeJPEG } = await import('./core/images.js');
    const iq = await init();
    const bytes = new Uint8Array(jpeg);
    const decoded = await decodeJPEG(bytes, 'skin.jpg');
    await customElements.whenDefined('interquake-viewer');
    const v = document.querySelector('interquake-viewer');
    await v.load({ 'square.iqm': new Uint8Array(square), 'skin.jpg': bytes });
    const picture = async () => {
      v.renderFrame(0);
      const bitmap = await createImageBitmap(await v.toBlob(), { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
      const g = new OffscreenCanvas(64, 64).getContext('2d', { willReadFrequently: true });
      g.drawImage(bitmap, 0, 0);
      return g.getImageData(0, 0, 64, 64).data;
    };
    const element = await picture();
    await v.load({ 'square.iqm': new Uint8Array(squareTga), 'skin.tga': bytes });
    const asTga = await picture();
    const tgaNamed = { missing: v.info?.missingFiles ?? [], same: asTga.every((x, i) => x === element[i]) };
    const model = iq.load(new Uint8Array(square), { name: 'square.iqm' });
    const image = await iq.render(model, {
      width: 64, height: 64, cameraOrbit: '0deg 90deg 10m', cameraTarget: '0m 0m 0m', fieldOfView: '90deg',
      lightDirection: '1 0 0', lightAmbient: 0, lightIntensity: 1, background: 'transparent', files: { 'skin.jpg': bytes },
    });
    model.dispose();
    let diff = 0; let n = 0;
    for (let y = 20; y < 44; y++) {
      for (let x = 20; x < 44; x++) {
        if (x >= 30 && x < 34 || y >= 30 && y < 34) continue; // the quadrants' edges: filtering decides
        const i = (y * 64 + x) * 4;
        diff += (Math.abs(element[i] - image.pixels[i]) + Math.abs(element[i + 1] - image.pixels[i + 1]) + Math.abs(element[i + 2] - image.pixels[i + 2])) / 3;
        n++;
      }
    }
    const px = (d, x, y) => [...d.slice((y * 32 + x) * 4, (y * 32 + x) * 4 + 3)];
    return { size: [decoded.width, decoded.height], corners: [px(decoded.data, 8, 8), px(decoded.data, 24, 8), px(decoded.data, 8, 24), px(decoded.data, 24, 24)],
      missing: image.missingFiles, diff: diff / n, tgaNamed, drawn: [...image.pixels.slice((40 * 64 + 40) * 4, (40 * 64 + 40) * 4 + 4)] };
  }, { jpeg, square, squareTga });
  await page.close();
  console.log(`JPEG square: mean colour difference ${r.diff.toFixed(2)}, quadrants ${JSON.stringify(r.corners)}`);
  assert.deepEqual(r.size, [32, 32]);
  const known = [[255, 0, 0], [0, 192, 0], [32, 64, 255], [255, 255, 255]];
  r.corners.forEach((c, q) => assert.ok(c.every((v, k) => Math.abs(v - known[q][k]) <= 8), `quadrant ${q}: ${c}`));
  assert.deepEqual(r.missing, []);
  assert.equal(r.drawn[3], 255, 'the square is drawn');
  assert.ok(r.tgaNamed.same, 'a JPEG named .tga: the element decodes it by its content, the same picture');
  assert.ok(r.diff <= 3, `mean colour difference between the element and iq.render(): ${r.diff.toFixed(2)}`);
});
