// <interquake-viewer> and the viewer page in headless Chromium: pictures are checked by their
// pixels (taken through the element's toBlob() after the deterministic renderFrame() hook).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { openBrowser } from '../lib/browser.mjs';
import { elementPage, installPixelTools, testPage, waitLoaded } from '../lib/viewer.mjs';

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

const DEMO = 'demo/critter.iqm';
const MRFIXIT = 'corpus/iqm/mrfixit/mrfixit.iqm';

test('the viewer page shows the built-in demo at once, and its animation moves it', { timeout: 120000 }, async () => {
  const page = await browser.newPage();
  await page.goto(`${browser.base}index.html`);
  await waitLoaded(page, '#viewer');
  await installPixelTools(page);
  const info = await page.evaluate(() => ({
    format: viewer.format, animations: viewer.availableAnimations, joints: viewer.info.joints,
    missing: viewer.missingFiles, meshes: viewer.info.meshes.map((m) => m.texture), paused: viewer.paused,
  }));
  assert.equal(info.format, 'iqm');
  assert.deepEqual(info.animations, ['idle', 'walk', 'hop', 'look']);
  assert.equal(info.joints, 16);
  assert.deepEqual(info.missing, []);
  assert.deepEqual(info.meshes, ['loaded', 'none'], 'the fur PNG decodes; the eyes have no material');
  assert.equal(info.paused, false, 'the page autoplays the demo');

  const first = await page.evaluate(async () => { viewer.renderFrame(0, { animation: 'walk' }); return iqPixels(viewer); });
  const area = first.width * first.height;
  assert.ok(first.count > area * 0.03, `the critter covers a visible part of the view (${first.count} of ${area} pixels)`);
  assert.ok(first.mean[0] > first.mean[2] + 40, `it is drawn in its warm fur colours, not grey or placeholder (${first.mean})`);
  assert.equal(first.magenta, 0, 'no placeholder texture');
  const cx = (first.box.minX + first.box.maxX) / 2 / first.width;
  assert.ok(cx > 0.3 && cx < 0.7, `the camera is fitted: the model is centred horizontally (${cx.toFixed(2)})`);

  const moved = await page.evaluate(async () => { viewer.renderFrame(6); return iqPixels(viewer); });
  const again = await page.evaluate(async () => { viewer.renderFrame(0); return iqPixels(viewer); });
  const changed = await page.evaluate(([a, b]) => iqDiff(a, b), [first.id, moved.id]);
  const same = await page.evaluate(([a, b]) => iqDiff(a, b), [first.id, again.id]);
  assert.ok(changed > 200, `frame 6 of walk differs from frame 0 (${changed} pixels)`);
  assert.equal(same, 0, 'renderFrame(0) gives the same picture twice');
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('an IQM from the corpus (mrfixit) is drawn, skinned on the GPU, and animates', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-mrfixit.html',
    `<interquake-viewer src="${MRFIXIT}" style="width:320px;height:320px"></interquake-viewer>`);
  await waitLoaded(page);
  await installPixelTools(page);
  const info = await page.evaluate(() => {
    const v = document.querySelector('interquake-viewer');
    return { format: v.format, vertices: v.info.vertices, triangles: v.info.triangles, joints: v.info.joints, frames: v.frameCount };
  });
  assert.deepEqual(info, { format: 'iqm', vertices: 1861, triangles: 2988, joints: 75, frames: 101 });
  const [a, b] = await page.evaluate(async () => {
    const v = document.querySelector('interquake-viewer');
    v.renderFrame(0);
    const p0 = await iqPixels(v);
    v.renderFrame(50);
    const p50 = await iqPixels(v);
    return [p0, p50];
  });
  assert.ok(a.count > 320 * 320 * 0.05, `mrfixit is drawn (${a.count} pixels)`);
  // A standing figure: taller than wide on screen (Z up is up).
  const h = a.box.maxY - a.box.minY;
  const w = a.box.maxX - a.box.minX;
  assert.ok(h > w, `the figure stands upright (${w}x${h})`);
  const diff = await page.evaluate(([x, y]) => iqDiff(x, y), [a.id, b.id]);
  assert.ok(diff > 50, `the idle animation changes the picture between frames 0 and 50 (${diff} pixels)`);
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('bad input gives a readable error in the element and an error event, never a blank page', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-errors.html', '<interquake-viewer style="width:200px;height:200px"></interquake-viewer>');
  const results = await page.evaluate(async () => {
    const v = document.querySelector('interquake-viewer');
    const events = [];
    v.addEventListener('error', (e) => events.push(e.detail));
    const attempt = async (source) => {
      try { await v.load(source); return 'loaded'; } catch (err) { return err.code; }
    };
    const header = new Uint8Array(124);
    header.set(new TextEncoder().encode('INTERQUAKEMODEL\0'));
    new DataView(header.buffer).setUint32(16, 7, true); // version 7
    const codes = {
      version: await attempt({ 'broken.iqm': header }),
      garbage: await attempt({ 'noise.md3': new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]) }),
      notModel: await attempt({ 'readme.txt': new TextEncoder().encode('hello') }),
      missing: await attempt('does-not-exist.iqm'),
    };
    const message = v.shadowRoot.querySelector('.message');
    const shown = message.classList.contains('shown') && getComputedStyle(message).display !== 'none';
    const text = message.textContent;
    const recovered = await attempt('demo/critter.iqm');
    return { codes, events, shown, text, recovered, hiddenAfter: !message.classList.contains('shown') };
  });
  assert.equal(results.codes.version, 'bad_version');
  assert.ok(['bad_magic', 'unknown_format', 'truncated'].includes(results.codes.garbage), results.codes.garbage);
  assert.equal(results.codes.notModel, 'missing_main_file');
  assert.equal(results.codes.missing, 'fetch_failed');
  assert.equal(results.events.length, 4, 'one error event per failed load');
  assert.match(results.events[0].message, /version/);
  assert.ok(results.shown, 'the error message is visible');
  assert.match(results.text, /does-not-exist\.iqm.*404/s);
  assert.equal(results.recovered, 'loaded', 'a later good load works');
  assert.ok(results.hiddenAfter, 'and clears the message');
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('dropping files on the page loads them, with textures found among the dropped files', { timeout: 120000 }, async () => {
  const page = await browser.newPage();
  await page.goto(`${browser.base}index.html`);
  await waitLoaded(page, '#viewer');
  const drop = (names) => page.evaluate(async (list) => {
    const transfer = new DataTransfer();
    for (const path of list) {
      const bytes = await (await fetch(path)).arrayBuffer();
      transfer.items.add(new File([bytes], path.split('/').pop()));
    }
    const loaded = new Promise((done) => viewer.addEventListener('load', (e) => done(e.detail), { once: true }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, cancelable: true }));
    const detail = await loaded;
    return { name: viewer.info.name, format: detail.format, missing: detail.missingFiles, textures: viewer.info.meshes.map((m) => m.texture) };
  }, names);
  const alone = await drop([MRFIXIT]);
  assert.equal(alone.name, 'mrfixit.iqm');
  assert.deepEqual(alone.missing.sort(), ['Body.tga', 'Head.tga'], 'a model dropped without its textures reports them missing');
  const withTextures = await drop([MRFIXIT, 'corpus/iqm/mrfixit/Body.tga', 'corpus/iqm/mrfixit/Head.tga']);
  assert.equal(withTextures.format, 'iqm');
  assert.deepEqual(withTextures.missing, [], 'the dropped TGAs are found by the material names');
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('finished fires exactly once, also for an element off screen, which draws nothing meanwhile', { timeout: 120000 }, async () => {
  const attrs = `src="${DEMO}" animation-name="hop" loop="once" time-scale="4" style="width:160px;height:160px"`;
  const page = await elementPage(browser, 'iq-finished.html',
    `<interquake-viewer id="near" ${attrs}></interquake-viewer><div style="height:4000px"></div>
     <interquake-viewer id="far" ${attrs}></interquake-viewer>`);
  await waitLoaded(page);
  const result = await page.evaluate(async () => {
    const near = document.getElementById('near');
    const far = document.getElementById('far');
    const counts = { near: 0, far: 0 };
    near.addEventListener('finished', () => counts.near++);
    far.addEventListener('finished', () => counts.far++);
    await new Promise((done) => setTimeout(done, 300)); // let the visibility observer settle
    const drawsBefore = { near: near._drawCount, far: far._drawCount };
    near.play();
    far.play();
    // hop is 30 frames at 24 fps = 1.2 s; at 4x about 0.3 s (the far clock ticks every 250 ms).
    await new Promise((done) => setTimeout(done, 1500));
    return {
      counts, paused: [near.paused, far.paused], frames: [near.currentFrame, far.currentFrame],
      nearDrew: near._drawCount - drawsBefore.near, farDrew: far._drawCount - drawsBefore.far,
    };
  });
  assert.deepEqual(result.counts, { near: 1, far: 1 });
  assert.deepEqual(result.paused, [true, true]);
  assert.deepEqual(result.frames, [29, 29], 'both stopped on the last frame');
  assert.ok(result.nearDrew > 0, 'the visible element drew while playing');
  assert.equal(result.farDrew, 0, 'the off-screen element drew nothing');
  await page.close();
});

test('in a hidden tab the element stops drawing but finished still fires, once', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-hidden.html',
    `<interquake-viewer src="${DEMO}" animation-name="hop" loop="once" time-scale="4" style="width:120px;height:120px"></interquake-viewer>`);
  await waitLoaded(page);
  const r = await page.evaluate(async () => {
    const v = document.querySelector('interquake-viewer');
    let finished = 0;
    v.addEventListener('finished', () => finished++);
    // What the browser does when the tab goes to the background.
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    document.dispatchEvent(new Event('visibilitychange'));
    const draws = v._drawCount;
    v.play();
    await new Promise((done) => setTimeout(done, 1200));
    return { finished, drew: v._drawCount - draws, paused: v.paused };
  });
  assert.deepEqual(r, { finished: 1, drew: 0, paused: true });
  await page.close();
});

test('many elements on one page each show their model, more than browsers allow WebGL contexts', { timeout: 120000 }, async () => {
  // Chromium keeps 16 live WebGL contexts per page: 20 elements only work because those past the
  // eighth share one context.
  const names = ['idle', 'walk', 'hop', 'look'];
  const animations = Array.from({ length: 20 }, (_, i) => names[i % 4]);
  const page = await elementPage(browser, 'iq-many.html',
    animations.map((a, i) => `<interquake-viewer id="v${i}" src="${DEMO}" animation-name="${a}" frame="${i % 5}"
      style="width:90px;height:90px;display:inline-block"></interquake-viewer>`).join(''));
  await waitLoaded(page);
  await installPixelTools(page);
  const stats = await page.evaluate(async () => {
    const out = [];
    for (const v of document.querySelectorAll('interquake-viewer')) {
      v.renderFrame(v.currentFrame);
      out.push({ animation: v.animationName, pixels: (await iqPixels(v)).count, shared: Boolean(v._bitmap) });
    }
    return out;
  });
  assert.deepEqual(stats.map((s) => s.animation), animations);
  assert.deepEqual(stats.map((s) => s.shared), animations.map((_, i) => i >= 8), 'the first 8 have their own context');
  for (const s of stats) assert.ok(s.pixels > 90 * 90 * 0.03, `each element draws its critter (${s.pixels} pixels)`);
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('a lost WebGL context is survived: the element draws the same picture after the restore', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-context.html',
    `<interquake-viewer src="${DEMO}" style="width:160px;height:160px"></interquake-viewer>`);
  await waitLoaded(page);
  await installPixelTools(page);
  const result = await page.evaluate(async () => {
    const v = document.querySelector('interquake-viewer');
    v.renderFrame(3);
    const before = await iqPixels(v);
    const gl = v.shadowRoot.querySelector('canvas').getContext('webgl2');
    const lose = gl.getExtension('WEBGL_lose_context');
    const lost = new Promise((done) => v.addEventListener('context-lost', done, { once: true }));
    lose.loseContext();
    await lost;
    await new Promise((done) => setTimeout(done, 50)); // restoring is allowed once the lost event is over
    const restored = new Promise((done) => v.addEventListener('context-restored', done, { once: true }));
    lose.restoreContext();
    await restored;
    v.renderFrame(3);
    const afterRestore = await iqPixels(v);
    return { before: before.count, after: afterRestore.count, diff: iqDiff(before.id, afterRestore.id) };
  });
  assert.ok(result.before > 1000);
  assert.equal(result.diff, 0, `the same picture after the restore (${result.before} vs ${result.after} model pixels)`);
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('events: play, timeupdate, loop, animation-change and pause', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-events.html',
    `<interquake-viewer src="${DEMO}" animation-name="walk" time-scale="5" style="width:120px;height:120px"></interquake-viewer>`);
  await waitLoaded(page);
  const events = await page.evaluate(async () => {
    const v = document.querySelector('interquake-viewer');
    const seen = [];
    for (const type of ['play', 'pause', 'loop', 'timeupdate', 'animation-change']) {
      v.addEventListener(type, (e) => seen.push({ type, detail: e.detail }));
    }
    v.play();
    await new Promise((done) => v.addEventListener('loop', done, { once: true }));
    v.setAnimation('look', { crossfade: 0 });
    v.pause();
    return seen;
  });
  const types = events.map((e) => e.type);
  assert.equal(types[0], 'play');
  assert.ok(types.includes('timeupdate'));
  const loop = events.find((e) => e.type === 'loop');
  assert.deepEqual(loop.detail, { animation: 'walk', part: 'both', count: 1 });
  const change = events.find((e) => e.type === 'animation-change');
  assert.deepEqual(change.detail, { animation: 'look', part: 'both', previous: 'walk' });
  assert.equal(types[types.length - 1], 'pause');
  await page.close();
});

test('embed.html takes the options as hash parameters and answers postMessage calls', { timeout: 120000 }, async () => {
  const page = await testPage(browser, 'iq-host.html', `<!doctype html><html><body>
    <iframe id="frame" src="embed.html#src=${DEMO}&animation=look&loop=once&bg=transparent" width="200" height="200"></iframe></body></html>`);
  const result = await page.evaluate(async () => {
    const frame = document.getElementById('frame');
    const messages = [];
    addEventListener('message', (e) => messages.push(e.data));
    const waitFor = (test) => new Promise((done) => {
      const check = () => { const m = messages.find(test); if (m) done(m); else setTimeout(check, 20); };
      check();
    });
    const load = await waitFor((m) => m.type === 'event' && m.name === 'load');
    frame.contentWindow.postMessage({ type: 'call', id: 1, method: 'setAnimation', args: ['hop'] }, '*');
    const change = await waitFor((m) => m.type === 'event' && m.name === 'animation-change');
    const done = await waitFor((m) => m.type === 'result' && m.id === 1);
    frame.contentWindow.postMessage({ type: 'call', id: 2, method: 'dispose', args: [] }, '*');
    const refused = await waitFor((m) => m.type === 'result' && m.id === 2);
    const inner = frame.contentWindow.viewer;
    const fetched = frame.contentWindow.performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((n) => /\.(js|wasm)$/.test(n));
    return {
      fetched, format: load.detail.format, change: change.detail, done, refused: refused.error?.message,
      attributes: { loop: inner.getAttribute('loop'), controls: inner.getAttribute('controls'), background: inner.getAttribute('background') },
    };
  });
  assert.equal(result.format, 'iqm');
  assert.deepEqual(result.fetched.sort(), ['/interquake-ui.min.js', '/interquake-viewer.min.js', '/interquake-viewer.wasm'],
    'the one-file element, as a page embedding it, and its controls (controls="minimal")');
  assert.deepEqual(result.change, { animation: 'hop', part: 'both', previous: 'look' });
  assert.deepEqual(result.done, { type: 'result', id: 1, value: null });
  assert.match(result.refused, /unknown method 'dispose'/);
  assert.deepEqual(result.attributes, { loop: 'once', controls: 'minimal', background: 'transparent' });
  await page.close();
});

test('the one-file bundle: a plain IQM page downloads its JS and the smaller WASM, at most 128 KB gzip', { timeout: 120000 }, async () => {
  const page = await browser.newPage();
  const fetched = [];
  page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
  const url = `${browser.base}iq-bundle.html`;
  await page.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: `<!doctype html><html><head>
    <link rel="icon" href="data:,"><script type="module" src="interquake-viewer.min.js"></script></head><body>
    <interquake-viewer src="${DEMO}" style="width:160px;height:160px"></interquake-viewer></body></html>` }));
  await page.goto(url);
  await waitLoaded(page);
  await installPixelTools(page);
  const r = await page.evaluate(async () => {
    const v = document.querySelector('interquake-viewer');
    v.renderFrame(0);
    return { pixels: (await iqPixels(v)).count };
  });
  assert.ok(r.pixels > 160 * 160 * 0.03, `the bundle draws the demo (${r.pixels} pixels)`);
  const code = fetched.filter((path) => /\.(js|wasm)$/.test(path));
  assert.deepEqual(code, ['/interquake-viewer.min.js', '/interquake-viewer.wasm'], 'no writer, no shader WASM, no drawer for a plain model');
  // As a page downloads it: each file gzip -9 (the figure README gives, from `bash build.sh size`).
  const sizes = await Promise.all(code.map(async (path) => gzipSync(await readFile(new URL(`../../../web${path}`, import.meta.url)), { level: 9 }).length));
  const total = sizes.reduce((a, b) => a + b, 0);
  console.log(`# one-file element + viewer WASM: ${sizes.join(' + ')} = ${total} bytes gzip`);
  assert.ok(total <= 128000, `a plain IQM page downloads ${total} bytes gzip (budget 128 KB)`);
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('a JPEG found under the material\'s name with another extension textures the model', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-jpeg.html', '<interquake-viewer style="width:160px;height:160px"></interquake-viewer>');
  await installPixelTools(page);
  const r = await page.evaluate(async () => {
    const v = document.querySelector('interquake-viewer');
    // A plain blue JPEG made by the browser, offered as critter.jpg for the material critter.png.
    const canvas = new OffscreenCanvas(32, 32);
    const g = canvas.getContext('2d');
    g.fillStyle = '#2050ff';
    g.fillRect(0, 0, 32, 32);
    const jpeg = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.95 })).arrayBuffer());
    const model = new Uint8Array(await (await fetch('demo/critter.iqm')).arrayBuffer());
    await v.load({ 'critter.iqm': model, 'critter.jpg': jpeg });
    v.renderFrame(0);
    return { textures: v.info.meshes.map((m) => m.texture), missing: v.missingFiles, p: await iqPixels(v) };
  });
  assert.deepEqual(r.textures, ['loaded', 'none']);
  assert.deepEqual(r.missing, []);
  assert.ok(r.p.mean[2] > r.p.mean[0] + 30, `the fur is now blue (mean ${r.p.mean})`);
  assert.deepEqual(browser.errors, []);
  await page.close();
});
