// glTF export in Chromium: the page converts a skinned model (mrfixit), a morphed one (sarge's
// upper.md3) and the assembled sarge player with iq.writeGLB, three.js's GLTFLoader loads each
// GLB with its textures, its AnimationMixer puts every vertex where the library's sample() and
// player.pose put it (within 1e-4 of the model's size), and a WebGLRenderer draws mrfixit with the
// colours of its TGA textures. The page's code is tests/browser/lib/gltf-page.mjs.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openBrowser } from './lib/browser.mjs';
import { ROOT, SARGE, GRISM } from '../js/lib/q3-corpus.mjs';

const REPO = resolve(fileURLToPath(new URL('../../', import.meta.url)));
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };

let browser;
let page;
before(async () => {
  browser = await openBrowser();
  page = await browser.newPage();
  // The repository under /repo/ (the dev server serves web/ only): the page's module, the test
  // helpers it shares with Node, web/ and node_modules/three.
  await page.route(`${browser.base}repo/**`, async (route) => {
    const path = resolve(REPO, decodeURIComponent(new URL(route.request().url()).pathname.slice('/repo/'.length)));
    if (!path.startsWith(REPO + sep)) return route.fulfill({ status: 404, body: 'outside' });
    try {
      return route.fulfill({ status: 200, contentType: TYPES[extname(path)] || 'application/octet-stream', body: await readFile(path) });
    } catch {
      return route.fulfill({ status: 404, body: 'not found' });
    }
  });
  await page.route(`${browser.base}repo/gltf.html`, (route) => route.fulfill({
    status: 200,
    contentType: 'text/html; charset=utf-8',
    body: `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="importmap">{ "imports": {
  "three": "./node_modules/three/build/three.module.js",
  "three/addons/": "./node_modules/three/examples/jsm/",
  "fflate": "./node_modules/fflate/esm/browser.js" } }</script>
<script type="module">window.gltfPage = import('./tests/browser/lib/gltf-page.mjs');</script></head><body></body></html>`,
  }));
  await page.goto(`${browser.base}repo/gltf.html`);
  await page.evaluate(() => window.gltfPage);
});
after(async () => { await browser?.close(); });

const inPage = (name, ...args) => page.evaluate(async ([n, a]) => (await window.gltfPage)[n](...a), [name, args]);

test('Chromium: mrfixit (skinned) loads with both textures and matches sample() on frames, between them and at its end', async (t) => {
  const fps = 24;
  const frames = [0, 0.5, 1, 2.25, 37.4, 99, 99.5, 100]; // idle plays once: 101 frames
  const out = await inPage('checkModel', 'iqm/mrfixit/mrfixit.iqm', 'idle', frames.map((f) => f / fps));
  assert.deepEqual(out.warnings, []);
  assert.deepEqual(out.textures, { 'Body.tga': [1024, 1024], 'Head.tga': [512, 512] }, 'three decoded both embedded PNGs');
  out.differences.forEach((d, i) => assert.ok(d < 1e-4 * out.size, `frame ${frames[i]}: off by ${d} (size ${out.size})`));
  t.diagnostic(`worst ${(Math.max(...out.differences) / out.size).toExponential(2)} of the model's size`);
});

test('Chromium: sarge lower.md3 (morph chunks) matches sample() across chunk boundaries and the loop seam', async (t) => {
  const fps = 15; // MD3's default rate
  // 213 frames in chunks of 64 targets: boundaries at frames 64, 128 and 192; the seam blends 212 into 0
  const frames = [0, 0.5, 1, 63.5, 64, 64.25, 191.75, 200.4, 212, 212.5];
  const out = await inPage('checkModel', 'md3/openarena/models/players/sarge/lower.md3', 0, frames.map((f) => f / fps), { maxMorphTargets: 64 });
  assert.deepEqual(out.shownCounts, frames.map(() => 1), 'one mesh shown at a time');
  out.differences.forEach((d, i) => assert.ok(d < 1e-4 * out.size, `frame ${frames[i]}: off by ${d} (size ${out.size})`));
  t.diagnostic(`worst ${(Math.max(...out.differences) / out.size).toExponential(2)} of the model's size`);
});

test('Chromium: the sarge player (lower -> upper -> head on tags) loads with its texture and matches player.pose', async (t) => {
  const names = [SARGE, GRISM].flatMap((folder) => readdirSync(new URL(folder, ROOT)).map((n) => `${folder}/${n}`));
  const pairs = [['LEGS_RUN', 'TORSO_STAND'], ['BOTH_DEATH1', 'BOTH_DEATH1'], ['LEGS_IDLE', 'TORSO_ATTACK']];
  const out = await inPage('checkPlayer', names, pairs, [0, 0.5, 1, 3.25, 8, 8.5]);
  assert.deepEqual(out.warnings, []);
  assert.deepEqual(Object.values(out.textures), [[512, 512]], 'one material, enkiskin.tga decoded');
  assert.ok(out.samples.length >= 3 * 15, `${out.samples.length} samples`);
  for (const s of out.samples) {
    assert.equal(s.shown, 1, `${s.legs}/${s.torso} ${s.part} at frame ${s.frame}: ${s.shown} meshes shown`);
    assert.ok(s.difference < 1e-4 * out.size, `${s.legs}/${s.torso} ${s.part} at frame ${s.frame}: off by ${s.difference}`);
  }
  t.diagnostic(`${out.samples.length} part poses, worst ${(Math.max(...out.samples.map((s) => s.difference)) / out.size).toExponential(2)} of the player's size`);
});

test('Chromium: a WebGLRenderer draws mrfixit with the colours of its TGA textures', async (t) => {
  const out = await inPage('drawTextured');
  assert.deepEqual(out.materials, { 'Body.tga': [1024, 1024], 'Head.tga': [512, 512] });
  assert.ok(out.covered > 20000, `the model covers ${out.covered} pixels`);
  assert.equal(out.magenta, 0);
  assert.ok(out.black < out.covered / 20, `${out.black} black pixels of ${out.covered}`);
  assert.ok(out.samples.length >= 20, `${out.samples.length} probes`);
  assert.ok(out.samples.some((s) => s.material === 'Body.tga') && out.samples.some((s) => s.material === 'Head.tga'), 'both textures probed');
  let worst = 0;
  for (const s of out.samples) worst = Math.max(worst, ...s.drawn.map((v, c) => Math.abs(v - s.expected[c])));
  t.diagnostic(`${out.samples.length} probes, ${out.covered} pixels covered; worst channel difference ${worst} / 255`);
  // (the GPU filters in linear light, the expectation in sRGB: a few levels apart on edges)
  assert.ok(worst <= 20, `a drawn pixel is ${worst} away from its texel`);
  assert.deepEqual(browser.errors, []);
});
