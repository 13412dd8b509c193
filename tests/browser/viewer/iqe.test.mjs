// <interquake-viewer> with IQE text models, in headless Chromium, checked by pixels after the
// deterministic renderFrame() hook.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from '../lib/browser.mjs';
import { elementPage, installPixelTools, waitLoaded } from '../lib/viewer.mjs';

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

const SIZE = 'width:200px;height:200px;display:inline-block';

test('IQE: the demo creature written as IQE draws the same picture as its IQM', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-iqe.html',
    `<interquake-viewer id="iqm" src="demo/critter.iqm" animation-name="walk" style="${SIZE}"></interquake-viewer>` +
    `<interquake-viewer id="iqe" src="demo/critter.iqe" animation-name="walk" style="${SIZE}"></interquake-viewer>`);
  await waitLoaded(page);
  await installPixelTools(page);
  const r = await page.evaluate(async () => {
    const iqm = document.getElementById('iqm');
    const iqe = document.getElementById('iqe');
    iqm.renderFrame(5);
    iqe.renderFrame(5);
    const a = await iqPixels(iqm);
    const b = await iqPixels(iqe);
    iqe.renderFrame(15);
    const c = await iqPixels(iqe);
    return { format: iqe.format, animations: iqe.availableAnimations, a, b, same: iqDiff(a.id, b.id), moved: iqDiff(b.id, c.id) };
  });
  assert.equal(r.format, 'iqe');
  assert.deepEqual(r.animations, ['idle', 'walk', 'hop', 'look']);
  assert.ok(r.b.count > 200 * 200 * 0.03, `the IQE is drawn (${r.b.count} pixels)`);
  assert.ok(r.same < r.b.count * 0.01, `IQE and IQM give the same picture (${r.same} pixels differ; the IQE rounds to 4 decimals)`);
  assert.ok(r.moved > 100, `the IQE animates (${r.moved} pixels change from frame 5 to 15)`);
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('IQE from the corpus (Unvanquished vwep_view.iqe): drawn, its material reported missing, and animated', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-iqe-corpus.html',
    `<interquake-viewer src="corpus/iqe/unvanquished/weapons/level1/vwep_view.iqe" animation-name="fire" style="${SIZE}"></interquake-viewer>`);
  await waitLoaded(page);
  await installPixelTools(page);
  const r = await page.evaluate(async () => {
    const v = document.querySelector('interquake-viewer');
    v.renderFrame(0);
    const a = await iqPixels(v);
    v.renderFrame(8);
    const b = await iqPixels(v);
    return { format: v.format, joints: v.info.joints, missing: v.missingFiles, a, moved: iqDiff(a.id, b.id) };
  });
  assert.equal(r.format, 'iqe');
  assert.equal(r.joints, 11);
  assert.deepEqual(r.missing, ['models/players/level1/mantis'], 'the texture is not in the corpus: reported, not fatal');
  assert.ok(r.a.magenta > 0, 'the missing texture shows the placeholder');
  assert.ok(r.a.count > 200 * 200 * 0.03, `drawn (${r.a.count} pixels)`);
  assert.ok(r.moved > 50, `the fire animation moves the arms (${r.moved} pixels between frames 0 and 8)`);
  assert.deepEqual(browser.errors, []);
  await page.close();
});
