// The element's software drawer (docs/VIEWER.md, "Software drawing"): renderer="software", WebGL 2
// blocked, a context lost for good, switching at run time, the camera, the one-file element's
// downloads, and create/remove cycles. Its picture (renderFrame + toBlob) is compared with
// iq.render()'s at the same size and options: the same C draws both, from the same scene code, so
// they agree far more closely than the WebGL picture does (render-agreement.test.mjs).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from '../lib/browser.mjs';
import { elementPage, installPixelTools, testPage, waitLoaded } from '../lib/viewer.mjs';
import { gameFiles } from '../../js/lib/q3-corpus.mjs';
import { buildMD3 } from '../../js/lib/md3-build.mjs';

const WIDTH = 200;
const HEIGHT = 160;
const MRFIXIT = 'corpus/iqm/mrfixit/mrfixit.iqm';
// Measured (this file's first test prints them): silhouettes 100%, colour 0.00 for mrfixit; for
// sarge with a gun the same. Both are the C drawing the same posed vertices with the same camera,
// but for the camera's matrices (the element's OrbitCamera in JS, iq.render()'s in C: equal to
// float precision) and the element's textures (PNG and JPEG decoded by the browser).
const MIN_SILHOUETTE = 0.999;
const MAX_COLOR_DIFF = 0.5;

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

// WebGL 2 blocked: getContext('webgl2') gives null, as in a browser without it.
const BLOCK_WEBGL2 = () => {
  const original = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function getContext(type, ...rest) {
    return type === 'webgl2' ? null : original.call(this, type, ...rest);
  };
};

// In the page: the element's picture against an iq.render() image, as render-agreement.test.mjs.
async function installCompare(page) {
  await page.evaluate(() => {
    window.iqCompare = async (viewer, image) => {
      const blob = await viewer.toBlob();
      const bitmap = await createImageBitmap(blob, { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const g = canvas.getContext('2d', { willReadFrequently: true });
      g.drawImage(bitmap, 0, 0);
      const a = g.getImageData(0, 0, bitmap.width, bitmap.height).data;
      const b = image.pixels;
      if (bitmap.width !== image.width || bitmap.height !== image.height) return { size: [bitmap.width, bitmap.height, image.width, image.height] };
      let agree = 0; let inA = 0; let inB = 0; let both = 0; let diff = 0;
      for (let i = 0; i < a.length; i += 4) {
        const ia = a[i + 3] > 127; const ib = b[i + 3] > 127;
        agree += ia === ib; inA += ia; inB += ib;
        if (a[i + 3] === 255 && b[i + 3] === 255) {
          both++;
          diff += (Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2])) / 3;
        }
      }
      return { silhouette: agree / (a.length / 4), inA, inB, color: both ? diff / both : 0 };
    };
  });
}

function gunFiles() {
  const box = (name, x0, x1) => ({
    name, shaders: [{ name: '', index: 0 }],
    triangles: [[0, 1, 2], [0, 2, 3], [0, 2, 1], [0, 3, 2]], texcoords: [[0, 0], [1, 0], [1, 1], [0, 1]],
    frames: [[[x0, -2, -2], [x1, -2, -2], [x1, 2, 2], [x0, 2, 2]].map((xyz) => ({ xyz, normal: 0 }))],
  });
  return { 'models/weapons2/gun/gun.md3': buildMD3({ surfaces: [box('w_gun', 0, 20)] }).bytes };
}

const report = (what, x) => console.log(`# ${what}: silhouette ${(x.silhouette * 100).toFixed(3)}% (${x.inA}/${x.inB} px), colour ${x.color.toFixed(3)}`);

test('renderer="software" draws mrfixit as iq.render() does, frame by frame and from two orbits', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-soft-mrfixit.html',
    `<interquake-viewer renderer="software" src="${MRFIXIT}" background="transparent" style="width:${WIDTH}px;height:${HEIGHT}px"></interquake-viewer>`);
  await waitLoaded(page);
  await installCompare(page);
  const r = await page.evaluate(async ({ src, width, height }) => {
    const v = document.querySelector('interquake-viewer');
    const { init } = await import('./interquake.js');
    const iq = await init();
    const dir = src.slice(0, src.lastIndexOf('/') + 1);
    const model = iq.load(new Uint8Array(await (await fetch(src)).arrayBuffer()), { name: src });
    const files = async (path) => {
      const response = await fetch(dir + path);
      return response.ok ? new Uint8Array(await response.arrayBuffer()) : null;
    };
    const out = [];
    for (const orbit of ['auto auto auto', '200deg 60deg auto']) {
      v.setAttribute('camera-orbit', orbit);
      for (const frame of [0, 30]) {
        v.renderFrame(frame);
        const image = await iq.render(model, { width, height, frame, cameraOrbit: orbit, background: 'transparent', files });
        out.push({ orbit, frame, ...(await window.iqCompare(v, image)) });
      }
    }
    model.dispose();
    return { drawer: v.drawer, webgl: Boolean(v.shadowRoot.querySelector('canvas').getContext('webgl2')), out };
  }, { src: MRFIXIT, width: WIDTH, height: HEIGHT });
  assert.equal(r.drawer, 'software');
  assert.equal(r.webgl, false, 'the canvas is a 2D canvas');
  for (const x of r.out) {
    report(`mrfixit ${x.orbit} frame ${x.frame}`, x);
    assert.ok(!x.size, `sizes differ ${x.size}`);
    assert.ok(x.inA > 2000, `the element drew ${x.inA} pixels`);
    assert.ok(x.silhouette >= MIN_SILHOUETTE, `silhouettes agree on ${(x.silhouette * 100).toFixed(3)}%`);
    assert.ok(x.color <= MAX_COLOR_DIFF, `mean colour difference ${x.color.toFixed(3)}`);
  }
  assert.deepEqual(browser.errors, []);
  await page.close();
});
