// A dropped folder of a Cube 2 model: its iqm.cfg names each mesh's texture (the meshes' own
// material names, 'Body' and 'Tail', are no files), so the model is drawn textured, not plain;
// the folder opens the cfg's model, not the prop beside it; the cfg's animation files are attached.
// DarkPlaces <model>_<N>.skin are the model's skins. Folders built by tests/js/lib/cube-folder.mjs.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from '../lib/browser.mjs';
import { elementPage, installPixelTools, testPage } from '../lib/viewer.mjs';
import { creatureFolder, creatureIQM, colourTGA } from '../../js/lib/cube-folder.mjs';

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

const asArrays = (files) => Object.fromEntries(Object.entries(files).map(([k, b]) => [k, [...b]]));

async function loadIn(page, files) {
  return page.evaluate(async (input) => {
    const v = document.querySelector('interquake-viewer');
    await v.load(Object.fromEntries(Object.entries(input).map(([k, b]) => [k, new Uint8Array(b)])));
    await v.renderFrame(0);
    const pixels = await window.iqPixels(v);
    return {
      name: v.info.name, missing: v.missingFiles, textures: v.info.meshes.map((m) => `${m.name}:${m.texture}`),
      animations: v.availableAnimations, models: v.availableModels, skins: v.availableSkins, pixels,
    };
  }, asArrays(files));
}

test('a dropped folder with an iqm.cfg: the cfg\'s model, textured per mesh (pixels not white), its animation files', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-modelcfg.html',
    '<interquake-viewer style="width:160px;height:160px;display:block" background="#000" camera-orbit="90deg 90deg auto"></interquake-viewer>');
  await page.waitForFunction(() => customElements.get('interquake-viewer'));
  await installPixelTools(page);
  const r = await loadIn(page, creatureFolder());
  assert.equal(r.name, 'creature/creature.iqm', 'the cfg\'s model, not the prop with more vertices');
  assert.deepEqual(r.textures, ['Body:loaded', 'Tail:loaded']);
  assert.deepEqual(r.missing, []);
  assert.deepEqual(r.animations, ['Run', 'Idle1'], 'the files the cfg names, not creature_blink.iqm');
  assert.ok(r.pixels.count > 200, `the model is drawn (${r.pixels.count} pixels)`);
  const [red, green, blue] = r.pixels.mean;
  assert.ok(red - green > 30 && blue - green > 20, `textured red and blue, not white or grey: mean ${r.pixels.mean}`);
  assert.equal(r.pixels.magenta, 0, 'no missing-texture placeholder');

  // The same folder without its cfg: the material 'Body' is no file (only the cfg maps it to
  // creature_body.tga); 'Tail' finds tail.tga by the texture rule (case, an extension added).
  const bare = creatureFolder();
  delete bare['creature/iqm.cfg'];
  const without = await loadIn(page, bare);
  assert.deepEqual(without.textures, ['Body:missing', 'Tail:loaded']);
  assert.deepEqual(without.missing, ['Body']);
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('DarkPlaces skins beside a model: listed, the first applied, setSkin switches', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-modelskins.html',
    '<interquake-viewer style="width:160px;height:160px;display:block" background="#000" camera-orbit="90deg 90deg auto"></interquake-viewer>');
  await page.waitForFunction(() => customElements.get('interquake-viewer'));
  await installPixelTools(page);
  const text = (s) => new TextEncoder().encode(s);
  const r = await loadIn(page, {
    'flag/flag.iqm': creatureIQM(),
    'flag/flag.iqm_0.skin': text('Body,flag/red\nTail,flag/red\n'),
    'flag/flag.iqm_1.skin': text('Body,flag/blue\nTail,flag/blue\n'),
    'flag/red.tga': colourTGA([230, 30, 30]),
    'flag/blue.tga': colourTGA([30, 30, 230]),
  });
  assert.deepEqual(r.skins, ['0', '1']);
  assert.deepEqual(r.textures, ['Body:loaded', 'Tail:loaded']);
  assert.ok(r.pixels.mean[0] > r.pixels.mean[2] + 40, `skin 0 is red: ${r.pixels.mean}`);
  const blue = await page.evaluate(async () => {
    const v = document.querySelector('interquake-viewer');
    await v.setSkin('1');
    await v.renderFrame(0);
    return { skin: v.skin, pixels: await window.iqPixels(v) };
  });
  assert.equal(blue.skin, '1');
  assert.ok(blue.pixels.mean[2] > blue.pixels.mean[0] + 40, `skin 1 is blue: ${blue.pixels.mean}`);
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('the one-file element reads the cfg too: its code and parser fetched only for such a folder', { timeout: 120000 }, async () => {
  const page = await testPage(browser, 'iq-modelcfg-min.html', `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="interquake-viewer.min.js"></script></head><body>
<interquake-viewer style="width:160px;height:160px;display:block" background="#000" camera-orbit="90deg 90deg auto"></interquake-viewer></body></html>`);
  const fetched = [];
  page.on('request', (r) => fetched.push(r.url().split('/').pop()));
  await page.waitForFunction(() => customElements.get('interquake-viewer'));
  await installPixelTools(page);
  const r = await loadIn(page, creatureFolder());
  assert.equal(r.name, 'creature/creature.iqm');
  assert.deepEqual(r.textures, ['Body:loaded', 'Tail:loaded']);
  assert.ok(fetched.includes('interquake-modelcfg.min.js') && fetched.includes('interquake-shaders.wasm'), `fetched: ${fetched.join(', ')}`);
  assert.deepEqual(browser.errors, []);
  await page.close();
});
