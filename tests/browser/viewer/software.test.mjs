// The element's software drawer (docs/VIEWER.md, "Software drawing"): renderer="software", WebGL 2
// blocked, a context lost for good, switching at run time, the camera, the one-file element's
// downloads, and create/remove cycles. Its picture (renderFrame + toBlob) is compared with
// iq.render()'s at the same size and options: the same C draws both, from the same scene code, so
// they agree far more closely than the WebGL picture does (render-agreement.test.mjs).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from '../lib/browser.mjs';
import { elementPage, heapMeter, installPixelTools, waitLoaded } from '../lib/viewer.mjs';
import { shaderPage, corner } from '../lib/shader-page.mjs';
import { gameFiles, gunFiles } from '../../js/lib/q3-corpus.mjs';
import { installCompare } from '../lib/render-compare.mjs';
import { buildMD3, packNormal } from '../../js/lib/md3-build.mjs';

const WIDTH = 200;
const HEIGHT = 160;
const MRFIXIT = 'corpus/iqm/mrfixit/mrfixit.iqm';
// Measured (this file's first test prints them): silhouettes 100%, colour 0.00 for mrfixit; for
// sarge with a gun the same. Both are the C drawing the same posed vertices with the same camera,
// but for the camera's matrices (the element's OrbitCamera in JS, iq.render()'s in C: equal to
// float precision) and the element's textures (PNG and JPEG decoded by the browser).
const MIN_SILHOUETTE = 0.999;
const MAX_COLOR_DIFF = 0.5;

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

// WebGL 2 blocked: getContext('webgl2') gives null, as in a browser without it.
const BLOCK_WEBGL2 = () => {
  const original = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function getContext(type, ...rest) {
    return type === 'webgl2' ? null : original.call(this, type, ...rest);
  };
};



const report = (what, x) => console.log(`# ${what}: silhouette ${(x.silhouette * 100).toFixed(3)}% (${x.inA}/${x.inB} px), colour ${x.color.toFixed(3)}`);

test('renderer="software" draws mrfixit as iq.render() does, frame by frame and from two orbits', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-soft-mrfixit.html',
    `<interquake-viewer renderer="software" src="${MRFIXIT}" background="transparent" style="width:${WIDTH}px;height:${HEIGHT}px"></interquake-viewer>`);
  await waitLoaded(page);
  await installCompare(page);
  const r = await page.evaluate(async ({ src, width, height }) => {
    const v = document.querySelector('interquake-viewer');
    const { init } = await import('./interquake.js');
    const iq = await init();
    const dir = src.slice(0, src.lastIndexOf('/') + 1);
    const model = iq.load(new Uint8Array(await (await fetch(src)).arrayBuffer()), { name: src });
    const files = async (path) => {
      const response = await fetch(dir + path);
      return response.ok ? new Uint8Array(await response.arrayBuffer()) : null;
    };
    const out = [];
    for (const orbit of ['auto auto auto', '200deg 60deg auto']) {
      v.setAttribute('camera-orbit', orbit);
      for (const frame of [0, 30]) {
        v.renderFrame(frame);
        const image = await iq.render(model, { width, height, frame, cameraOrbit: orbit, background: 'transparent', files });
        out.push({ orbit, frame, ...(await window.iqCompare(v, image)) });
      }
    }
    model.dispose();
    return { drawer: v.drawer, webgl: Boolean(v.shadowRoot.querySelector('canvas').getContext('webgl2')), out };
  }, { src: MRFIXIT, width: WIDTH, height: HEIGHT });
  assert.equal(r.drawer, 'software');
  assert.equal(r.webgl, false, 'the canvas is a 2D canvas');
  for (const x of r.out) {
    report(`mrfixit ${x.orbit} frame ${x.frame}`, x);
    assert.ok(!x.size, `sizes differ ${x.size}`);
    assert.ok(x.inA > 2000, `the element drew ${x.inA} pixels`);
    assert.ok(x.silhouette >= MIN_SILHOUETTE, `silhouettes agree on ${(x.silhouette * 100).toFixed(3)}%`);
    assert.ok(x.color <= MAX_COLOR_DIFF, `mean colour difference ${x.color.toFixed(3)}`);
  }
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('renderer="software" draws the corpus player with a weapon as iq.render() does', { timeout: 120000 }, async () => {
  const gun = Object.fromEntries(Object.entries(gunFiles()).map(([k, v]) => [k, [...v]]));
  const page = await elementPage(browser, 'iq-soft-q3.html',
    `<interquake-viewer renderer="software" weapon="gun" legs-animation="LEGS_RUN" torso-animation="TORSO_ATTACK" background="transparent" style="width:${WIDTH}px;height:${HEIGHT}px"></interquake-viewer>`);
  await installCompare(page);
  const r = await page.evaluate(async ({ paths, gun, width, height }) => {
    const object = {};
    for (const p of paths) object[p] = new Uint8Array(await (await fetch(`corpus/md3/openarena/${p}`)).arrayBuffer());
    for (const [p, bytes] of Object.entries(gun)) object[p] = new Uint8Array(bytes);
    await customElements.whenDefined('interquake-viewer');
    const v = document.querySelector('interquake-viewer');
    let detail = null;
    v.addEventListener('load', (e) => { detail = e.detail; });
    await v.load(object);
    const { init } = await import('./interquake.js');
    const iq = await init();
    const player = iq.loadPlayer(object, { weapon: 'gun' });
    const out = [];
    for (const orbit of ['auto auto auto', '200deg 60deg auto']) {
      v.setAttribute('camera-orbit', orbit);
      for (const frame of [0, 5]) {
        v.renderFrame(frame);
        const image = await iq.render(player, { width, height, frame, legsAnimation: 'LEGS_RUN', torsoAnimation: 'TORSO_ATTACK', cameraOrbit: orbit, background: 'transparent' });
        out.push({ orbit, frame, ...(await window.iqCompare(v, image)) });
      }
    }
    player.dispose();
    return { drawer: detail.drawer, parts: v._content.parts.map((p) => p.partName).join(), out };
  }, { paths: [...gameFiles().keys()], gun, width: WIDTH, height: HEIGHT });
  assert.equal(r.drawer, 'software', 'the load event says which drawer draws');
  assert.match(r.parts, /weapon/);
  for (const x of r.out) {
    report(`sarge+gun ${x.orbit} frame ${x.frame}`, x);
    assert.ok(x.inA > 1500, `the element drew ${x.inA} pixels`);
    assert.ok(x.silhouette >= MIN_SILHOUETTE, `silhouettes agree on ${(x.silhouette * 100).toFixed(3)}%`);
    assert.ok(x.color <= MAX_COLOR_DIFF, `mean colour difference ${x.color.toFixed(3)}`);
  }
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('without WebGL 2, renderer="auto" draws in software and says so; renderer="webgl" shows the error as before', { timeout: 120000 }, async () => {
  const page = await browser.newPage();
  await page.addInitScript(BLOCK_WEBGL2);
  const url = `${browser.base}iq-soft-blocked.html`;
  await page.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: `<!doctype html><html><head><meta charset="utf-8">
    <link rel="icon" href="data:,"><script type="module" src="interquake-viewer.js"></script></head><body>
    <interquake-viewer id="auto" src="${MRFIXIT}" style="width:160px;height:160px"></interquake-viewer>
    <interquake-viewer id="webgl" renderer="webgl" src="${MRFIXIT}" style="width:160px;height:160px"></interquake-viewer></body></html>` }));
  await page.goto(url);
  await installPixelTools(page);
  await waitLoaded(page, '#auto');
  const r = await page.evaluate(async () => {
    const auto = document.getElementById('auto');
    const webgl = document.getElementById('webgl');
    auto.renderFrame(0);
    const message = webgl.shadowRoot.querySelector('[part="error"]');
    return {
      auto: { drawer: auto.drawer, pixels: (await iqPixels(auto)).count },
      webgl: { drawer: webgl.drawer, loaded: webgl.loaded, shown: message.classList.contains('shown'), text: message.textContent },
    };
  });
  assert.equal(r.auto.drawer, 'software');
  assert.ok(r.auto.pixels > 1500, `the auto element draws (${r.auto.pixels} pixels)`);
  assert.deepEqual({ ...r.webgl, text: undefined }, { drawer: null, loaded: false, shown: true, text: undefined });
  assert.match(r.webgl.text, /webgl2_unavailable/);
  // Asked for software, the webgl element draws its src after all.
  const later = await page.evaluate(async () => {
    const webgl = document.getElementById('webgl');
    const loaded = new Promise((done) => webgl.addEventListener('load', (e) => done(e.detail.drawer), { once: true }));
    webgl.renderer = 'software';
    const drawer = await loaded;
    webgl.renderFrame(0);
    return { drawer, shown: webgl.shadowRoot.querySelector('[part="error"]').classList.contains('shown'), pixels: (await iqPixels(webgl)).count };
  });
  assert.equal(later.drawer, 'software');
  assert.equal(later.shown, false);
  assert.ok(later.pixels > 1500, `it draws (${later.pixels} pixels)`);
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('a WebGL context lost and not given back within 3 s, or whose rebuild fails, draws in software; under renderer="webgl" it waits', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-soft-lost.html',
    `<interquake-viewer id="auto" src="${MRFIXIT}" style="width:160px;height:160px"></interquake-viewer>
     <interquake-viewer id="webgl" renderer="webgl" src="${MRFIXIT}" style="width:160px;height:160px"></interquake-viewer>
     <interquake-viewer id="broken" src="${MRFIXIT}" style="width:160px;height:160px"></interquake-viewer>`);
  await waitLoaded(page);
  await installPixelTools(page);
  const r = await page.evaluate(async () => {
    const auto = document.getElementById('auto');
    const webgl = document.getElementById('webgl');
    const before = auto.drawer;
    const events = [];
    for (const type of ['context-lost', 'drawer-change']) auto.addEventListener(type, (e) => events.push({ type, detail: e.detail }));
    const lostAt = performance.now();
    const changed = new Promise((done) => auto.addEventListener('drawer-change', () => done(performance.now() - lostAt)));
    // WEBGL_lose_context: lost, and restored only when restoreContext() is called (never here).
    for (const v of [auto, webgl]) v._renderer.gl.getExtension('WEBGL_lose_context').loseContext();
    // The third one is given its context back at once, but rebuilding it fails.
    const broken = document.getElementById('broken');
    const brokenChanged = new Promise((done) => broken.addEventListener('drawer-change', (e) => done(e.detail)));
    const lose = broken._renderer.gl.getExtension('WEBGL_lose_context');
    broken.addEventListener('context-lost', () => setTimeout(() => {
      broken._renderer._setup = () => { throw new Error('a shader the driver refuses'); };
      lose.restoreContext();
    }, 100));
    lose.loseContext();
    const after = await changed;
    const brokenDetail = await brokenChanged;
    await new Promise((done) => setTimeout(done, 500));
    auto.renderFrame(0);
    broken.renderFrame(0);
    return {
      before, after, events, drawer: auto.drawer, pixels: (await iqPixels(auto)).count, webgl: webgl.drawer, webglLost: webgl._renderer.lost,
      broken: { detail: brokenDetail, pixels: (await iqPixels(broken)).count },
    };
  });
  assert.equal(r.before, 'webgl');
  assert.ok(r.after >= 2900 && r.after < 6000, `the switch came ${r.after.toFixed(0)} ms after the loss`);
  assert.deepEqual(r.events.map((e) => e.type), ['context-lost', 'drawer-change']);
  assert.deepEqual(r.events[1].detail, { drawer: 'software', previous: 'webgl', reason: 'context_lost' });
  assert.equal(r.drawer, 'software');
  assert.ok(r.pixels > 1500, `the element draws again (${r.pixels} pixels)`);
  assert.deepEqual(r.broken.detail, { drawer: 'software', previous: 'webgl', reason: 'context_lost' }, 'a restore that fails is a context lost for good');
  assert.ok(r.broken.pixels > 1500, `it draws (${r.broken.pixels} pixels)`);
  assert.equal(r.webgl, 'webgl', 'renderer="webgl" keeps waiting for its context');
  assert.equal(r.webglLost, true);
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('switching renderer at run time, both ways, keeps the play heads and the camera; the camera moves the software picture', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-soft-switch.html',
    `<interquake-viewer camera-controls src="${MRFIXIT}" background="transparent" style="width:${WIDTH}px;height:${HEIGHT}px"></interquake-viewer>`);
  await waitLoaded(page);
  await installPixelTools(page);
  await installCompare(page);
  const changed = (to) => page.evaluate((drawer) => new Promise((done) => {
    const v = document.querySelector('interquake-viewer');
    if (v.drawer === drawer) { done(); return; }
    v.addEventListener('drawer-change', function once(e) {
      if (e.detail.drawer === drawer) { v.removeEventListener('drawer-change', once); done(); }
    });
  }), to);
  const first = await page.evaluate(async () => {
    const v = document.querySelector('interquake-viewer');
    v.renderFrame(12);
    const webgl = await iqPixels(v);
    v.renderer = 'software';
    return { drawer: v.drawer, webgl };
  });
  await changed('software');
  const soft = await page.evaluate(async () => {
    const v = document.querySelector('interquake-viewer');
    const frame = v.currentFrame; // where renderFrame(12) left the play head, before the switch
    v.renderFrame(12);
    const picture = await iqPixels(v);
    return { drawer: v.drawer, frame, paused: v.paused, picture, differ: window.iqDiff(0, picture.id), orbit: v.getCameraOrbit().toString() };
  });
  assert.equal(soft.drawer, 'software');
  assert.ok(Math.abs(soft.frame - 12) < 1e-3 && soft.paused, `the play head stayed on frame 12 (${soft.frame})`);
  // WebGL's picture against the software one: the same model, frame and camera (within anti-aliasing).
  assert.ok(Math.abs(soft.picture.count - first.webgl.count) < first.webgl.count * 0.05, `${soft.picture.count} against ${first.webgl.count} model pixels`);
  assert.ok(soft.differ < first.webgl.count * 0.1, `${soft.differ} pixels differ`);
  // Dragging on the view orbits the camera: the software picture follows.
  const box = await page.locator('interquake-viewer').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2 + 10, { steps: 4 });
  await page.mouse.up();
  const moved = await page.evaluate(async () => {
    const v = document.querySelector('interquake-viewer');
    v.renderFrame(12);
    const picture = await iqPixels(v);
    return { orbit: v.getCameraOrbit().toString(), moved: v.cameraMoved, differ: window.iqDiff(1, picture.id), samples: v._renderer.lastDraw.supersample };
  });
  assert.equal(moved.moved, true);
  assert.equal(moved.samples, 2, 'renderFrame() draws the still picture (2x2 samples), even just after a drag');
  assert.notEqual(moved.orbit, soft.orbit);
  assert.ok(moved.differ > 300, `the picture changed with the camera (${moved.differ} pixels)`);
  // And back to WebGL: the same camera and frame.
  await page.evaluate(() => { document.querySelector('interquake-viewer').renderer = 'auto'; });
  await changed('webgl');
  const back = await page.evaluate(async () => {
    const v = document.querySelector('interquake-viewer');
    v.renderFrame(12);
    const picture = await iqPixels(v);
    return { drawer: v.drawer, orbit: v.getCameraOrbit().toString(), count: picture.count, differ: window.iqDiff(2, picture.id), webgl: Boolean(v._renderer.gl) };
  });
  assert.deepEqual({ drawer: back.drawer, webgl: back.webgl, orbit: back.orbit }, { drawer: 'webgl', webgl: true, orbit: moved.orbit });
  assert.ok(back.differ < back.count * 0.1, `WebGL again draws what software drew (${back.differ} of ${back.count} pixels differ)`);
  assert.deepEqual(browser.errors, []);
  await page.close();
});

// A page with the one-file element and `body`, and the paths it requested.
async function bundlePage(name, body) {
  const page = await browser.newPage();
  const fetched = [];
  page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
  const url = `${browser.base}${name}`;
  await page.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: `<!doctype html><html><head><meta charset="utf-8">
    <link rel="icon" href="data:,"><script type="module" src="interquake-viewer.min.js"></script></head><body>${body}</body></html>` }));
  await page.goto(url);
  return { page, fetched };
}

test('the one-file element fetches the software drawer and interquake.wasm only when it draws in software', { timeout: 120000 }, async () => {
  // From the start: the full WASM in place of the viewer's (nothing else).
  const soft = await bundlePage('iq-soft-bundle.html', `<interquake-viewer renderer="software" src="${MRFIXIT}" style="width:160px;height:160px"></interquake-viewer>`);
  await waitLoaded(soft.page);
  await installPixelTools(soft.page);
  const a = await soft.page.evaluate(async () => {
    const v = document.querySelector('interquake-viewer');
    v.renderFrame(0);
    return { drawer: v.drawer, pixels: (await iqPixels(v)).count };
  });
  assert.equal(a.drawer, 'software');
  assert.ok(a.pixels > 1500, `it draws (${a.pixels} pixels)`);
  assert.deepEqual(soft.fetched.filter((p) => /\.(js|wasm)$/.test(p)), ['/interquake-viewer.min.js', '/interquake-software.min.js', '/interquake.wasm']);
  await soft.page.close();

  // At run time: the content, shown from interquake-viewer.wasm, is loaded again in interquake.wasm
  // (its bytes from the page's download table), with its play head; the old models are freed.
  const { page, fetched } = await bundlePage('iq-soft-bundle-switch.html', `<interquake-viewer src="${MRFIXIT}" style="width:160px;height:160px"></interquake-viewer>`);
  await waitLoaded(page);
  await installPixelTools(page);
  const b = await page.evaluate(async () => {
    const v = document.querySelector('interquake-viewer');
    const lite = await v._iqPromise;
    v.renderFrame(20);
    const loads = [];
    v.addEventListener('load', (e) => loads.push(e.detail.drawer));
    const changed = new Promise((done) => v.addEventListener('drawer-change', (e) => done(e.detail)));
    v.renderer = 'software';
    const detail = await changed;
    await new Promise((done) => { const wait = () => (loads.length ? done() : setTimeout(wait, 20)); wait(); });
    const frame = v.currentFrame;
    v.renderFrame(20);
    const full = await v._iqPromise;
    return { detail, loads, frame, drawer: v.drawer, pixels: (await iqPixels(v)).count, liteLive: lite.liveBytes, fullLive: full.liveBytes, same: lite === full };
  });
  assert.deepEqual(b.detail, { drawer: 'software', previous: 'webgl', reason: 'attribute' });
  assert.deepEqual(b.loads, ['software'], 'load fires once more, from the full library');
  assert.ok(Math.abs(b.frame - 20) < 1e-3, `the play head is kept (${b.frame})`);
  assert.ok(b.pixels > 1500, `it draws (${b.pixels} pixels)`);
  assert.deepEqual({ same: b.same, liteLive: b.liteLive }, { same: false, liteLive: 0 }, 'the models in the viewer WASM are freed');
  assert.ok(b.fullLive > 0);
  const code = fetched.filter((p) => /\.(js|wasm)$/.test(p));
  assert.deepEqual(code, ['/interquake-viewer.min.js', '/interquake-viewer.wasm', '/interquake-software.min.js', '/interquake.wasm']);
  assert.equal(fetched.filter((p) => p.endsWith('mrfixit.iqm')).length, 1, 'the model is not downloaded again');
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('10 create/load/remove() cycles of a software element keep live WASM bytes, WASM memory and the JS heap flat', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-soft-cycles.html', '<div id="host"></div>');
  await page.waitForFunction(() => customElements.get('interquake-viewer'));
  const heap = await heapMeter(page);
  const cycles = (n) => page.evaluate(async ({ n, src }) => {
    const { init } = await import('/interquake.js');
    const iq = await init();
    for (let i = 0; i < n; i++) {
      const v = document.createElement('interquake-viewer');
      v.setAttribute('renderer', 'software');
      v.style.cssText = 'width:96px;height:96px;display:block';
      document.getElementById('host').append(v);
      await v.load(src);
      v.renderFrame(i);
      if (v.drawer !== 'software') throw new Error(`drawn by ${v.drawer}`);
      v.remove();
    }
    return { liveBytes: iq.liveBytes, memoryBytes: iq.memoryBytes };
  }, { n, src: MRFIXIT });
  const warm = await cycles(3);
  const heapBefore = await heap();
  const end = await cycles(10);
  const heapAfter = await heap();
  console.log(`# memory over 10 software cycles: ${JSON.stringify({ heapBefore, heapAfter, warm, end })}`);
  assert.equal(end.liveBytes, warm.liveBytes, 'no model stays alive in the WASM heap');
  assert.equal(end.memoryBytes, warm.memoryBytes, 'the WASM memory did not grow (textures and targets are freed)');
  // One leaked element holds mrfixit's decoded textures (5 MB of RGBA): 10 of them, 50 MB.
  assert.ok(heapAfter - heapBefore < 1 << 20, `the JS heap stays flat (${heapBefore} -> ${heapAfter} bytes)`);
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('in software: shader stages at the shader clock (rgbGen wave against the C), and the events of playback', { timeout: 120000 }, async () => {
  // The quad of viewer/shaders.test.mjs, white by a wave of the shader clock.
  const xyz = [corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, 1)];
  const normal = packNormal(Math.round(35 / 360 * 255), 64);
  const surface = { name: 'q', shaders: [{ name: 'models/t/q', index: 0 }], triangles: [[3, 2, 1], [3, 1, 0]],
    texcoords: [[0, 1], [1, 1], [1, 0], [0, 0]], frames: [xyz.map((p) => ({ xyz: p, normal }))] };
  const files = {
    'models/t/q.md3': [...buildMD3({ surfaces: [surface] }).bytes],
    'scripts/t.shader': 'models/t/q\n{\n { map $whiteimage\n rgbGen wave sin 0.5 0.5 0 0.5\n }\n}\n',
  };
  const page = await shaderPage(browser, 'iq-soft-shaders.html');
  const r = await page.evaluate(async (f) => {
    const centre = ({ data, width, height }) => data[((height >> 1) * width + (width >> 1)) * 4];
    const out = [];
    for (const t of [0.3, 1.4]) {
      const v = shaders.waveValue(iq, { func: 'sin', base: 0.5, amplitude: 0.5, phase: 0, frequency: 0.5 }, t);
      out.push({ t, expected: Math.floor(255 * Math.min(Math.max(v, 0), 1)), got: centre(await shoot(f, t, { renderer: 'software' })) });
    }
    // Playback events from the element's own clock: load before play, then finished once (critter's
    // `hop` plays once), at four times its speed.
    const v = document.createElement('interquake-viewer');
    v.setAttribute('renderer', 'software');
    v.style.cssText = 'width:120px;height:120px;display:inline-block';
    const events = [];
    for (const type of ['load', 'play', 'animation-change', 'finished']) v.addEventListener(type, () => events.push(type));
    const samples = new Set(); // while playing: 1x1
    v.addEventListener('timeupdate', () => samples.add(v._renderer.lastDraw.supersample));
    const finished = new Promise((done) => v.addEventListener('finished', done));
    document.body.appendChild(v);
    v.setAttribute('animation-name', 'hop');
    v.setAttribute('time-scale', '4');
    v.setAttribute('autoplay', '');
    await v.load('demo/critter.iqm');
    await finished;
    await new Promise((done) => setTimeout(done, 400));
    return { out, events, drawer: v.drawer, draws: v._drawCount, playing: [...samples], still: v._renderer.lastDraw.supersample };
  }, files);
  for (const { t, expected, got } of r.out) assert.ok(Math.abs(got - expected) <= 2, `t=${t}: ${got} vs the C's ${expected}`);
  assert.notEqual(r.out[0].expected, r.out[1].expected);
  assert.equal(r.drawer, 'software');
  assert.deepEqual(r.events.filter((e) => e !== 'animation-change'), ['load', 'play', 'finished']);
  assert.ok(r.draws > 3, `it drew while playing (${r.draws} frames)`);
  assert.ok(r.playing.includes(1), `1x1 samples while playing (${r.playing})`);
  assert.equal(r.still, 2, 'the still picture after the animation finished: 2x2 samples');
  assert.deepEqual(browser.errors, []);
  await page.close();
});
