// Removing an <interquake-viewer> releases its model and GPU resources: 50 create/load/remove()
// cycles leave the JS heap (after garbage collection, through CDP), the library's live bytes and
// WASM memory where they were, and nothing reachable from the shared WebGL context.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from '../lib/browser.mjs';
import { elementPage, heapMeter, installPixelTools, waitLoaded } from '../lib/viewer.mjs';

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

const DEMO = 'demo/critter.iqm';

test('50 create/load/remove() cycles keep the JS heap, live WASM bytes and WASM memory flat', { timeout: 300000 }, async () => {
  const page = await elementPage(browser, 'iq-cycles.html', '<div id="host"></div>');
  await page.waitForFunction(() => customElements.get('interquake-viewer'));
  const heap = await heapMeter(page);
  const cycles = (n) => page.evaluate(async ({ n, src }) => {
    const { init } = await import('/interquake.js');
    const iq = await init();
    for (let i = 0; i < n; i++) {
      const v = document.createElement('interquake-viewer');
      // Half of them with their own WebGL context, half in the page's shared one.
      v.setAttribute('context', i % 2 ? 'shared' : 'own');
      v.style.cssText = 'width:64px;height:64px;display:block';
      document.getElementById('host').append(v);
      await v.load(src);
      v.renderFrame(1);
      v.remove();
    }
    const { sharedUsers } = await import('/viewer/context.js');
    return { liveBytes: iq.liveBytes, memoryBytes: iq.memoryBytes, sharedUsers: sharedUsers() };
  }, { n, src: DEMO });
  const warm = await cycles(5); // first loads: the library, shaders, caches
  const heapBefore = await heap();
  const end = await cycles(50);
  const heapAfter = await heap();
  const figures = { heapBefore, heapAfter, growth: heapAfter - heapBefore, warm, end };
  console.log(`# memory over 50 cycles: ${JSON.stringify(figures)}`);
  assert.equal(end.liveBytes, warm.liveBytes, 'no model stays alive in the WASM heap');
  assert.equal(end.memoryBytes, warm.memoryBytes, 'the WASM memory did not grow');
  assert.equal(end.sharedUsers, 0, 'the shared context keeps no removed element');
  // One leaked element with its model copies would be hundreds of kilobytes; 50 of them, megabytes.
  assert.ok(heapAfter - heapBefore < 1 << 20, `the JS heap stays flat (${heapBefore} -> ${heapAfter} bytes)`);
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('an element put back loads its src again; removed during a load, it keeps nothing', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-reconnect.html',
    `<interquake-viewer src="${DEMO}" animation-name="walk" style="width:120px;height:120px;display:block"></interquake-viewer>`);
  await waitLoaded(page);
  await installPixelTools(page);
  const r = await page.evaluate(async () => {
    const { init } = await import('/interquake.js');
    const iq = await init();
    const v = document.querySelector('interquake-viewer');
    const liveLoaded = iq.liveBytes;
    v.remove();
    const removed = { loaded: v.loaded, liveBytes: iq.liveBytes };
    document.body.append(v);
    await new Promise((done) => v.addEventListener('load', done, { once: true }));
    v.renderFrame(2);
    const back = { loaded: v.loaded, animation: v.animationName, pixels: (await iqPixels(v)).count, liveBytes: iq.liveBytes };
    // Removed while loading: the load finishes into nothing.
    const job = v.load(v.src).catch(() => {});
    v.remove();
    await job;
    return { liveLoaded, removed, back, afterAbandoned: { loaded: v.loaded, liveBytes: iq.liveBytes } };
  });
  assert.deepEqual(r.removed, { loaded: false, liveBytes: 0 }, 'removing frees the model');
  assert.equal(r.back.loaded, true);
  assert.equal(r.back.animation, 'walk', 'the attributes apply again');
  assert.equal(r.back.liveBytes, r.liveLoaded);
  assert.ok(r.back.pixels > 120 * 120 * 0.03, `and it draws (${r.back.pixels} pixels)`);
  assert.equal(r.afterAbandoned.liveBytes, 0);
  assert.deepEqual(browser.errors, []);
  await page.close();
});
