// The same WASM module and JS API load in headless Chromium and read mrfixit.iqm.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from './lib/browser.mjs';

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

test('the module loads in Chromium and reads mrfixit.iqm with the same counts as in Node', async () => {
  const page = await browser.newPage();
  await page.goto(`${browser.base}index.html`);
  const summary = await page.evaluate(async () => {
    const { init } = await import('./interquake.js');
    const iq = await init();
    const bytes = new Uint8Array(await (await fetch('corpus/iqm/mrfixit/mrfixit.iqm')).arrayBuffer());
    const model = iq.load(bytes, { name: 'mrfixit.iqm' });
    const evaluated = model.evaluate(50.5);
    const out = {
      format: model.format, vertices: model.vertexCount, triangles: model.triangleCount,
      joints: model.joints.length, frames: model.frameCount, animation: model.animations[0].name,
      finite: evaluated.positions.every(Number.isFinite),
    };
    model.dispose();
    let error;
    try { iq.load(new Uint8Array(10)); } catch (e) { error = { name: e.name, code: e.code }; }
    return { ...out, error };
  });
  assert.deepEqual(summary, {
    format: 'iqm', vertices: 1861, triangles: 2988, joints: 75, frames: 101, animation: 'idle', finite: true,
    error: { name: 'InterquakeError', code: 'unknown_format' },
  });
  assert.deepEqual(browser.errors, []);
});
