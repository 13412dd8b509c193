// <interquake-viewer> with MD3 models and TGA textures, in headless Chromium, checked by pixels
// after the deterministic renderFrame() hook.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from '../lib/browser.mjs';
import { elementPage, installPixelTools, waitLoaded } from '../lib/viewer.mjs';

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

const SIZE = 'width:200px;height:200px;display:inline-block';

test('MD3: a single MD3 is drawn with its texture placeholder and morphs between frames', { timeout: 120000 }, async () => {
  const lower = 'corpus/md3/openarena/models/players/sarge/lower.md3';
  const page = await elementPage(browser, 'iq-md3.html',
    `<interquake-viewer id="md3" src="${lower}" style="${SIZE}"></interquake-viewer>` +
    `<interquake-viewer id="can" src="corpus/md3/assimp/european_fnt_v2.md3" style="${SIZE}"></interquake-viewer>`);
  await waitLoaded(page);
  await installPixelTools(page);
  const r = await page.evaluate(async () => {
    const v = document.getElementById('md3');
    v.renderFrame(0);
    const a = await iqPixels(v);
    v.renderFrame(120); // well into another animation's frames
    const b = await iqPixels(v);
    const can = document.getElementById('can');
    can.renderFrame(0);
    const c = await iqPixels(can);
    return {
      format: v.format, frames: v.frameCount, tags: v.tags, a, moved: iqDiff(a.id, b.id), missing: v.missingFiles,
      can: c.count, canMeshes: can.info.meshes.length,
    };
  });
  assert.equal(r.format, 'md3');
  assert.ok(r.frames > 100, `all of lower.md3's frames play (${r.frames})`);
  assert.deepEqual(r.tags, ['tag_torso']);
  assert.ok(r.a.count > 200 * 200 * 0.02, `the legs are drawn (${r.a.count} pixels)`);
  // The MD3's own shader name is a leftover of its export (a skin names the real texture).
  assert.deepEqual(r.missing, ['models/players/grismlambert2SG']);
  assert.ok(r.a.magenta > 20, 'so the legs wear the placeholder checker');
  assert.ok(r.moved > 100, `morphing changes the picture (${r.moved} pixels)`);
  assert.ok(r.can > 200 * 200 * 0.02, `a multi-surface MD3 is drawn (${r.can} pixels, ${r.canMeshes} meshes)`);
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('TGA textures: mrfixit with its TGAs is drawn textured, not with the placeholder', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-tga.html',
    `<interquake-viewer src="corpus/iqm/mrfixit/mrfixit.iqm" style="${SIZE}"></interquake-viewer>`);
  await waitLoaded(page);
  await installPixelTools(page);
  const r = await page.evaluate(async () => {
    const v = document.querySelector('interquake-viewer');
    v.renderFrame(0);
    return { p: await iqPixels(v), textures: v.info.meshes.map((m) => m.texture), warnings: v.warnings };
  });
  assert.deepEqual(r.textures, ['loaded', 'loaded']);
  assert.deepEqual(r.warnings, []);
  assert.equal(r.p.magenta, 0, 'no placeholder pixels');
  assert.ok(r.p.count > 200 * 200 * 0.04);
  await page.close();
});
