// The element on the skeletal formats of issue 21 (MD5, DPM, ZYM), over interquake.wasm (the
// element as modules): a dropped .md5mesh with its .md5anim files opens with them attached (a
// misfit skipped with a warning), plays and draws them; a DPM and a ZYM open with their animations. The one-file
// element's smaller WASM leaves these readers to interquake-readers.wasm, fetched the first time a file
// needs one: the same files (and an MDR) open there too (tests/js/core/wasm-builds.test.mjs).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openBrowser } from '../lib/browser.mjs';
import { elementPage, installPixelTools, testPage } from '../lib/viewer.mjs';
import { handMadeDPM, handMadeZYM } from '../../js/lib/darkplaces-build.mjs';
import { handMadeMDR } from '../../js/lib/mdr-build.mjs';

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

const fixture = (name) => [...readFileSync(new URL(`../../fixtures/md5/${name}`, import.meta.url))];

test('a dropped .md5mesh with its .md5anim files opens with them attached, and draws each frame', { timeout: 120000 }, async () => {
  const wave = readFileSync(new URL('../../fixtures/md5/arm_wave.md5anim', import.meta.url), 'latin1');
  const files = {
    'arm/arm_wave.md5anim': fixture('arm_wave.md5anim'),
    'arm/arm.md5mesh': fixture('arm.md5mesh'),
    'arm/zz_other.md5anim': [...Buffer.from(wave.replace('"hand"', '"foot"'), 'latin1')],
  };
  const page = await elementPage(browser, 'iq-skeletal.html', '<interquake-viewer style="width:160px;height:160px;display:block" background="#000000"></interquake-viewer>');
  await page.waitForFunction(() => customElements.get('interquake-viewer'));
  await installPixelTools(page);
  const r = await page.evaluate(async (input) => {
    const v = document.querySelector('interquake-viewer');
    await v.load(Object.fromEntries(Object.entries(input).map(([k, b]) => [k, new Uint8Array(b)])));
    const shots = [];
    for (const f of [0, 1]) { v.renderFrame(f, { animation: "arm_wave" }); shots.push(await window.iqPixels(v)); }
    return {
      name: v.info.name, format: v.info.format, animations: v.availableAnimations.map((a) => a.name ?? a),
      models: v.availableModels, warnings: v.warnings.map((w) => w.file), shots: shots.map((s) => ({ id: s.id, count: s.count })),
      changed: window.iqDiff(shots[0].id, shots[1].id),
    };
  }, files);
  assert.equal(r.name, 'arm/arm.md5mesh', 'the mesh opens, not an .md5anim');
  assert.deepEqual(r.animations, ['arm_wave']);
  assert.deepEqual(r.models, ['arm/arm.md5mesh']);
  assert.deepEqual(r.warnings, ['arm/zz_other.md5anim'], 'the misfit is skipped with a warning naming it');
  assert.ok(r.shots.every((s) => s.count > 20), `drawn: ${JSON.stringify(r.shots)}`);
  assert.ok(r.changed > 20, `frame 1 is drawn differently from frame 0 (${r.changed} pixels)`);
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('a DPM and a ZYM open with their animations', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-darkplaces.html', '<interquake-viewer style="width:160px;height:160px;display:block" background="#000000"></interquake-viewer>');
  await page.waitForFunction(() => customElements.get('interquake-viewer'));
  await installPixelTools(page);
  for (const [name, bytes] of [['hand.dpm', handMadeDPM()], ['hand.zym', handMadeZYM()]]) {
    const r = await page.evaluate(async ([n, b]) => {
      const v = document.querySelector('interquake-viewer');
      await v.load({ [n]: new Uint8Array(b) });
      v.renderFrame(2, { animation: 'wave' });
      return { format: v.info.format, triangles: v.info.triangles, animations: v.availableAnimations.map((a) => a.name ?? a) };
    }, [name, [...bytes]]);
    assert.equal(r.format, name.split('.')[1]);
    assert.ok(r.animations.includes('wave'), r.animations.join());
    assert.equal(r.triangles, 1);
  }
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('in the one-file element: an .md5mesh with its .md5anim, a DPM, a ZYM and an MDR open, with interquake-readers.wasm fetched once', { timeout: 120000 }, async () => {
  const page = await testPage(browser, 'iq-skeletal-bundle.html', `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
  <script type="module" src="interquake-viewer.min.js"></script></head><body>
  <interquake-viewer style="width:160px;height:160px;display:block" background="#000000"></interquake-viewer></body></html>`);
  await installPixelTools(page);
  const inputs = [
    { 'arm/arm.md5mesh': fixture('arm.md5mesh'), 'arm/arm_wave.md5anim': fixture('arm_wave.md5anim') },
    { 'hand.dpm': [...handMadeDPM()] }, { 'hand.zym': [...handMadeZYM()] }, { 'hand.mdr': [...handMadeMDR()] },
  ];
  const r = await page.evaluate(async (list) => {
    await customElements.whenDefined('interquake-viewer');
    const v = document.querySelector('interquake-viewer');
    const out = [];
    for (const input of list) {
      await v.load(Object.fromEntries(Object.entries(input).map(([k, b]) => [k, new Uint8Array(b)])));
      const animations = v.availableAnimations.map((a) => a.name ?? a);
      v.renderFrame(0, { animation: animations[0] });
      out.push({ format: v.info.format, animations, triangles: v.info.triangles, pixels: (await window.iqPixels(v)).count });
    }
    const fetched = performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((n) => /\.wasm$/.test(n));
    return { out, fetched };
  }, inputs);
  assert.deepEqual(r.out.map((o) => o.format), ['md5', 'dpm', 'zym', 'mdr']);
  assert.deepEqual(r.out[0].animations, ['arm_wave'], 'the .md5anim is attached in the readers\' WASM too');
  assert.ok(r.out[0].pixels > 20 && r.out[3].pixels > 20, `the arm and the MDR are drawn: ${JSON.stringify(r.out)}`);
  assert.deepEqual(r.out.slice(1, 3).map((o) => o.triangles), [1, 1], 'the hand-made DPM and ZYM: one triangle each');
  assert.deepEqual(r.fetched, ['/interquake-viewer.wasm', '/interquake-readers.wasm']);
  assert.deepEqual(browser.errors, []);
  await page.close();
});
