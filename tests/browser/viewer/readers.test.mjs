// The readers a plain page does not need (issue 21's page-size design): the one-file element reads
// IQM, IQE and MD3 with interquake-viewer.wasm, and fetches interquake-readers.wasm (the same build
// with the MD2 and MDL readers and .framegroups) only when a file needs it; the model then plays and
// draws as any other. A .framegroups file beside an IQM names its animations in the element.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { openBrowser } from '../lib/browser.mjs';
import { installPixelTools, testPage } from '../lib/viewer.mjs';
import { buildMD2 } from '../../js/lib/md2-build.mjs';
import { buildMDL } from '../../js/lib/mdl-build.mjs';

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

const bundlePage = (name) => testPage(browser, name, `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
  <script type="module" src="interquake-viewer.min.js"></script></head><body>
  <interquake-viewer style="width:160px;height:160px" background="#000"></interquake-viewer></body></html>`);

// A box-ish MD2: a quad fan around the origin that moves over three frames named run1..run3.
function quadMD2() {
  const frame = (name, dz) => ({
    name, scale: [0.25, 0.25, 0.25], translate: [-32, -32, dz],
    verts: [[0, 0, 128, 5], [255, 0, 128, 5], [255, 255, 128, 5], [0, 255, 128, 5]],
  });
  return buildMD2({
    skinWidth: 8, skinHeight: 8, skins: ['models/test/skin.pcx'], st: [[0, 0], [8, 0], [8, 8], [0, 8]],
    triangles: [{ xyz: [0, 1, 2], st: [0, 1, 2] }, { xyz: [0, 2, 3], st: [0, 2, 3] }, { xyz: [2, 1, 0], st: [2, 1, 0] }, { xyz: [3, 2, 0], st: [3, 2, 0] }],
    frames: [frame('run1', 0), frame('run2', 4), frame('run3', 8)],
  }).bytes;
}

test('an MD2 in the one-file element: interquake-readers.wasm is fetched for it, and the model plays and draws', { timeout: 120000 }, async () => {
  const page = await bundlePage('iq-readers.html');
  await installPixelTools(page);
  const r = await page.evaluate(async (bytes) => {
    await customElements.whenDefined('interquake-viewer');
    const v = document.querySelector('interquake-viewer');
    const code = () => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((n) => /\.(js|wasm)$/.test(n));
    await v.load({ 'models/test/tank.md2': new Uint8Array(bytes) });
    v.renderFrame(1, { animation: 'run' });
    return { animations: v.availableAnimations, fetched: code(), pixels: (await iqPixels(v)).count };
  }, [...quadMD2()]);
  assert.deepEqual(r.animations, ['run']);
  assert.deepEqual(r.fetched, ['/interquake-viewer.min.js', '/interquake-viewer.wasm', '/interquake-readers.wasm']);
  assert.ok(r.pixels > 160 * 160 * 0.03, `the MD2 is drawn (${r.pixels} pixels)`);
  const sizes = await Promise.all(r.fetched.map(async (path) => gzipSync(await readFile(new URL(`../../../web${path}`, import.meta.url)), { level: 9 }).length));
  console.log(`# an MD2 page: ${r.fetched.join(' + ')} = ${sizes.join(' + ')} = ${sizes.reduce((a, b) => a + b, 0)} bytes gzip`);
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('a .framegroups file beside an IQM names its animations in the one-file element', { timeout: 120000 }, async () => {
  const page = await bundlePage('iq-framegroups.html');
  const demo = [...await readFile(new URL('../../../web/demo/critter.iqm', import.meta.url))];
  const r = await page.evaluate(async (bytes) => {
    await customElements.whenDefined('interquake-viewer');
    const v = document.querySelector('interquake-viewer');
    const before = (await (async () => { await v.load({ 'critter.iqm': new Uint8Array(bytes) }); return v.availableAnimations; })());
    await v.load({ 'critter.iqm': new Uint8Array(bytes), 'critter.iqm.framegroups': new TextEncoder().encode('0 2 10 1 first // comment\n2 3 5 0 "second one"\n') });
    return { before, after: v.availableAnimations, details: v.animations.map((a) => [a.name, a.firstFrame, a.frameCount, a.fps, a.loop]) };
  }, demo);
  assert.ok(r.before.length > 0 && !r.before.includes('first'));
  assert.deepEqual(r.after, ['first', 'second one']);
  assert.deepEqual(r.details, [['first', 0, 2, 10, true], ['second one', 2, 3, 5, false]]);
  assert.deepEqual(browser.errors, []);
  await page.close();
});

// An MDL whose one skin is a single palette colour: the element textures the model with the skin the
// library decoded (model.images), so a red skin draws red and a blue one blue.
function flatMDL(index) {
  const pose = { name: 'a', box: [[0, 0, 0], [255, 255, 255]], verts: [[0, 0, 128, 5], [255, 0, 128, 5], [255, 255, 128, 5], [0, 255, 128, 5]] };
  return buildMDL({
    scale: [0.25, 0.25, 0.25], origin: [-32, -32, 0], skinWidth: 8, skinHeight: 8, skins: [new Uint8Array(64).fill(index)],
    stverts: [{ s: 0, t: 0 }, { s: 8, t: 0 }, { s: 8, t: 8 }, { s: 0, t: 8 }],
    triangles: [{ verts: [0, 1, 2] }, { verts: [0, 2, 3] }, { verts: [2, 1, 0] }, { verts: [3, 2, 0] }], frames: [pose],
  }).bytes;
}

test('an MDL in the one-file element is textured with its own skin, decoded through Quake\'s palette', { timeout: 120000 }, async () => {
  const page = await bundlePage('iq-mdl.html');
  await installPixelTools(page);
  const r = await page.evaluate(async ([red, blue]) => {
    await customElements.whenDefined('interquake-viewer');
    const v = document.querySelector('interquake-viewer');
    const out = [];
    for (const bytes of [red, blue]) {
      await v.load({ 'progs/flat.mdl': new Uint8Array(bytes) });
      v.renderFrame(0);
      out.push({ missing: v.missingFiles ?? [], mean: (await iqPixels(v)).mean });
    }
    return out;
  }, [[...flatMDL(79)], [...flatMDL(47)]]); // Quake palette: 79 a full red (127, 0, 0), 47 a blue-grey (139, 139, 203)
  const [red, blue] = r;
  assert.ok(red.mean && blue.mean, JSON.stringify(r));
  assert.ok(red.mean[0] > red.mean[2] + 20, `the red skin draws red: ${red.mean}`);
  assert.ok(blue.mean[2] > blue.mean[0] + 20, `the blue skin draws blue: ${blue.mean}`);
  assert.deepEqual(red.missing, []);
  assert.deepEqual(browser.errors, []);
  await page.close();
});
