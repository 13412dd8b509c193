// IQE in headless Chromium: the same reader and writer as in Node, with the same results.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openBrowser } from './lib/browser.mjs';
import { init } from 'interquake';

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

test('an IQE loads, errors and converts to IQM in Chromium exactly as in Node', async () => {
  const page = await browser.newPage();
  await page.goto(`${browser.base}index.html`);
  const inBrowser = await page.evaluate(async () => {
    const { init } = await import('./interquake.js');
    const iq = await init();
    const bytes = new Uint8Array(await (await fetch('corpus/iqe/unvanquished/jetpack.iqe')).arrayBuffer());
    const model = iq.load(bytes, { name: 'jetpack.iqe' });
    const iqm = iq.writeIQM(model);
    const out = {
      format: model.format, vertices: model.vertexCount, triangles: model.triangleCount, frames: model.frameCount,
      animations: model.animations.map((a) => a.name), iqmBytes: iqm.length,
      position: Array.from(model.evaluate(7.5).positions.subarray(0, 6)),
    };
    model.dispose();
    let error;
    try { iq.load(new TextEncoder().encode('# Inter-Quake Export\nvp 1 2 x\n')); } catch (e) {
      error = { code: e.code, line: e.line, column: e.column };
    }
    return { ...out, error };
  });
  const iq = await init();
  const model = iq.load(readFileSync(new URL('../../../shared/corpus/iqe/unvanquished/jetpack.iqe', import.meta.url)));
  const inNode = {
    format: model.format, vertices: model.vertexCount, triangles: model.triangleCount, frames: model.frameCount,
    animations: model.animations.map((a) => a.name), iqmBytes: iq.writeIQM(model).length,
    position: Array.from(model.evaluate(7.5).positions.subarray(0, 6)),
    error: { code: 'syntax', line: 2, column: 8 },
  };
  model.dispose();
  assert.deepEqual(inBrowser, inNode);
  assert.deepEqual(browser.errors, []);
});
