// interquake/three in Chromium with three.js 0.187 (the pinned devDependency): every corpus model
// through InterquakeLoader and the corpus player through Q3PlayerLoader, played by AnimationMixer
// and Q3Player.update, put every vertex three draws (getVertexPosition, matrixWorld) within 1e-4
// of the model's size of the library's sample() / player.pose on frames and within 2e-3 between
// frames; tag objects match tagMatrix; a weapon sits on tag_weapon where the element draws it;
// textures are the library's decoded TGA; a LoadingManager with setURLModifier (a dropped folder)
// works; an unknown file is an onError with the library's error code; a missing texture is a
// warning. The page's code is tests/browser/lib/three-page.mjs.
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
const ON_FRAMES = 1e-4;
const BETWEEN = 2e-3;

let browser;
let page;
before(async () => {
  browser = await openBrowser();
  page = await browser.newPage();
  await page.route(`${browser.base}repo/**`, async (route) => {
    const path = resolve(REPO, decodeURIComponent(new URL(route.request().url()).pathname.slice('/repo/'.length)));
    if (!path.startsWith(REPO + sep)) return route.fulfill({ status: 404, body: 'outside' });
    try {
      return route.fulfill({ status: 200, contentType: TYPES[extname(path)] || 'application/octet-stream', body: await readFile(path) });
    } catch {
      return route.fulfill({ status: 404, body: 'not found' });
    }
  });
  const files = [SARGE, GRISM].flatMap((folder) => readdirSync(new URL(folder, ROOT)).map((n) => `${folder}/${n}`));
  await page.route(`${browser.base}three-test-files`, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(files) }));
  await page.route(`${browser.base}repo/three.html`, (route) => route.fulfill({
    status: 200,
    contentType: 'text/html; charset=utf-8',
    body: `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="importmap">{ "imports": {
  "three": "./node_modules/three/build/three.module.js",
  "three/addons/": "./node_modules/three/examples/jsm/",
  "fflate": "./node_modules/fflate/esm/browser.js" } }</script>
<script type="module">window.threePage = import('./tests/browser/lib/three-page.mjs');</script></head><body></body></html>`,
  }));
  await page.goto(`${browser.base}repo/three.html`);
  await page.evaluate(() => window.threePage);
});
after(async () => { await browser?.close(); });

const inPage = (name, ...args) => page.evaluate(async ([n, a]) => (await window.threePage)[n](...a), [name, args]);

const CORPUS = readdirSync(fileURLToPath(new URL('../../../shared/corpus/', import.meta.url)), { recursive: true })
  .map(String).filter((p) => /\.(iqm|iqe|md3)$/i.test(p) && !p.includes('invalid') && !p.endsWith('guyanim.iqm')).sort();

test('Chromium: every corpus model through InterquakeLoader and AnimationMixer matches sample() (1e-4 on frames, 2e-3 between)', async (t) => {
  assert.ok(CORPUS.length >= 18, `${CORPUS.length} corpus models`);
  const lines = [];
  for (const path of CORPUS) {
    const out = await inPage('checkModel', path.split(sep).join('/'));
    assert.ok(out.meshes >= 1, `${path}: nothing drawn`);
    assert.ok(out.onFrames < ON_FRAMES, `${path}: off by ${out.onFrames} of its size on frames`);
    assert.ok(out.between < BETWEEN, `${path}: off by ${out.between} of its size between frames`);
    if (out.skinned) {
      assert.deepEqual(out.bones.length, out.joints.length, `${path}: a bone per joint`);
      assert.ok(out.parentsMatch, `${path}: bones parented as the joints`);
    }
    for (const [tag, d] of Object.entries(out.tags)) assert.ok(d < ON_FRAMES, `${path}: ${tag} off by ${d}`);
    lines.push(`${path}: ${out.clips.length} clips, ${out.samples} poses, worst ${out.onFrames.toExponential(1)} / ${out.between.toExponential(1)}`);
  }
  t.diagnostic(lines.join('\n'));
});

test('Chromium: guy.iqm with guyanim.iqm attached by loadAnimations plays its jump and dance as sample() does', async () => {
  const out = await inPage('checkModel', 'iqm/raylib/guy.iqm', { attach: 'iqm/raylib/guyanim.iqm' });
  assert.ok(out.clips.includes('jump') && out.clips.includes('dance'), out.clips.join(', '));
  assert.ok(out.onFrames < ON_FRAMES, `off by ${out.onFrames} on frames`);
  assert.ok(out.between < BETWEEN, `off by ${out.between} between frames`);
});

test('Chromium: MD3 tags follow tagMatrix (sarge upper.md3: tag_head, tag_weapon; lower.md3: tag_torso)', async () => {
  const out = await inPage('checkModel', 'md3/openarena/models/players/sarge/upper.md3');
  assert.deepEqual(Object.keys(out.tags).sort(), ['tag_head', 'tag_weapon']);
  for (const [tag, d] of Object.entries(out.tags)) assert.ok(d < ON_FRAMES, `${tag} off by ${d}`);
  const lower = await inPage('checkModel', 'md3/openarena/models/players/sarge/lower.md3');
  assert.deepEqual(Object.keys(lower.tags), ['tag_torso']);
  for (const [tag, d] of Object.entries(out.tags)) assert.ok(d < ON_FRAMES, `${tag} off by ${d}`);
});

test('Chromium: textures are the library\'s decoded TGA, byte for byte, top row first', async () => {
  const out = await inPage('textures');
  assert.deepEqual(Object.keys(out).sort(), ['Body.tga', 'Head.tga']);
  for (const [name, t] of Object.entries(out)) {
    assert.ok(t.same, `${name} differs from iq.decodeTGA`);
    assert.equal(t.flipY, false);
    assert.equal(t.colorSpace, 'srgb');
  }
  assert.deepEqual(out['Body.tga'].size, [1024, 1024]);
});

test('Chromium: a LoadingManager with setURLModifier loads a dropped folder, textures included', async () => {
  const out = await inPage('droppedFolder');
  assert.deepEqual(out.missing, []);
  assert.deepEqual(out.maps, ['Body.tga', 'Head.tga']);
  assert.ok(out.asked.includes('mrfixit.iqm') && out.asked.includes('body.tga'), out.asked.join(', '));
  assert.ok(out.started >= 1, 'the manager saw the load start');
});

test('Chromium: an unknown file is an onError with the library\'s error code; a missing texture is a warning', async () => {
  const out = await inPage('errors');
  assert.equal(out.text.code, 'unknown_format', JSON.stringify(out.text));
  assert.equal(out.text.isError, true);
  assert.equal(out.invalid.code, 'out_of_range', JSON.stringify(out.invalid));
  assert.equal(out.absent.loaded, undefined, 'a 404 is an error');
  const missing = await inPage('missingTexture');
  assert.deepEqual(missing.missing, ['Body.tga', 'Head.tga']);
  assert.deepEqual(missing.warnings, ['missing_file', 'missing_file']);
  assert.equal(missing.meshes, 2);
});

test('Chromium: the sarge player from its folder URL: Q3Player.update and AnimationMixer match player.pose, tags and textures too', async (t) => {
  const out = await inPage('checkPlayer');
  assert.deepEqual(out.missing, []);
  assert.equal(out.skin, 'default');
  assert.ok(out.update.samples >= 200, `${out.update.samples} update samples`);
  assert.ok(out.update.on < ON_FRAMES, `update(): off by ${out.update.on} on frames`);
  assert.ok(out.update.between < BETWEEN, `update(): off by ${out.update.between} between frames`);
  assert.ok(out.update.tags < ON_FRAMES, `tag objects off by ${out.update.tags}`);
  assert.ok(out.clipNames.includes('LEGS_RUN') && out.clipNames.includes('TORSO_ATTACK') && out.clipNames.includes('BOTH_DEATH1'));
  assert.ok(out.mixer.shown.every((n) => n === 1), `one mesh per part shown: ${out.mixer.shown.join(',')}`);
  assert.ok(out.mixer.on < ON_FRAMES, `mixer: off by ${out.mixer.on} on frames`);
  assert.ok(out.mixer.between < BETWEEN, `mixer: off by ${out.mixer.between} between frames`);
  assert.deepEqual(out.textures, { 'models/players/grism/enkiskin.tga': true });
  assert.deepEqual(out.redTextures, ['models/players/grism/redskin.tga']);
  t.diagnostic(`update ${out.update.samples} part poses, worst ${out.update.on.toExponential(1)} / ${out.update.between.toExponential(1)}; `
    + `mixer ${out.mixer.samples}, worst ${out.mixer.on.toExponential(1)} / ${out.mixer.between.toExponential(1)}`);
});

test('Chromium: setWeapon puts a gun and its barrel on tag_weapon where player.pose places them; a user\'s object on tags.upper.tag_weapon too', async () => {
  const out = await inPage('checkWeapon');
  assert.deepEqual(out.weapons, ['gun']);
  assert.equal(out.before, false);
  assert.deepEqual(out.absent, { weapon: false, warnings: ['missing_file'] }, 'a weapon that is not there: empty hands and a warning');
  assert.equal(out.after, true);
  assert.equal(out.kept, true, 'the user\'s object moved to the new tag_weapon');
  assert.equal(out.weaponPath, 'models/weapons2/gun/gun.md3');
  assert.ok(out.worst < ON_FRAMES, `weapon off by ${out.worst}`);
  assert.ok(out.user < ON_FRAMES, `object on tag_weapon off by ${out.user}`);
});

test('Chromium: Quake 3 shader-script blocks become three materials as far as one material goes', async () => {
  const out = await inPage('shaderBlocks');
  const c = out.constants;
  assert.deepEqual(out.missing, []);
  // cull none + blendFunc GL_ONE GL_ONE: double-sided, additive, no depth writes, the stage's image
  assert.deepEqual(out.lower, { map: 'models/players/fx/glow.tga', blending: c.additive, transparent: true, side: c.double, alphaTest: 0, depthWrite: false });
  // cull back + alphaFunc GE128, no blend: the back side, alpha tested at 0.5 (the TGA's alpha is 0: a mask)
  assert.deepEqual(out.upper, { map: 'models/players/fx/fence.tga', blending: c.normal, transparent: false, side: c.back, alphaTest: 0.5, depthWrite: true });
  // a plain image: front side, opaque
  assert.deepEqual(out.head, { map: 'models/players/fx/plain.tga', blending: c.normal, transparent: false, side: c.front, alphaTest: 0, depthWrite: true });
});

test('Chromium: a WebGLRenderer draws the player with its texture', async () => {
  const out = await inPage('draw');
  assert.ok(out.covered > 2000, `${out.covered} pixels`);
  assert.ok(out.dark < out.covered / 10, `${out.dark} black pixels of ${out.covered}`);
  assert.deepEqual(browser.errors, []);
});

test('Chromium: web/examples/three.html (served by tools/serve.mjs) shows the player and the demo model', async () => {
  const example = await browser.newPage();
  await example.goto(`${browser.base}examples/three.html`);
  await example.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
  const status = await example.textContent('#status');
  assert.match(status, /^player sarge: 33 animations/m);
  assert.match(status, /^model \/demo\/critter\.iqm: iqm, idle/m);
  await example.selectOption('#legs', 'LEGS_WALK');
  await example.click('#gesture');
  await example.waitForTimeout(100);
  await example.close();
  assert.deepEqual(browser.errors, []);
});
