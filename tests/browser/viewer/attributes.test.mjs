// The element's attributes as properties (every one, from the one list in web/viewer/attributes.js),
// the camera attributes in model-viewer's syntax applied after load (camera-orbit, field-of-view,
// camera-target), a really transparent background, and model-viewer's conventions (availableAnimations
// as names, error types, alt and role="img").
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from '../lib/browser.mjs';
import { elementPage, installPixelTools, waitLoaded } from '../lib/viewer.mjs';

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

const DEMO = 'demo/critter.iqm';
const DEG = Math.PI / 180;
const near = (a, b, what) => assert.ok(Math.abs(a - b) < 1e-6, `${what}: ${a} vs ${b}`);

test('every attribute is a camelCase property that reflects it, with its type', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-reflect.html', '<interquake-viewer style="width:60px;height:60px"></interquake-viewer>');
  await page.waitForFunction(() => customElements.get('interquake-viewer'));
  const rows = await page.evaluate(async () => {
    const { ATTRIBUTES, camelCase } = await import('./viewer/attributes.js');
    const v = document.querySelector('interquake-viewer');
    const out = [];
    for (const a of ATTRIBUTES) {
      const property = camelCase(a.name);
      const row = { name: a.name, property, type: a.type, own: property in v };
      // The attribute's text as the property reads it ...
      const sample = { string: 'some text', boolean: '', number: '2.5', enum: a.values?.[1], switch: 'false', list: `${a.values?.[0]} nonsense ${a.values?.[2]}` }[a.type];
      v.setAttribute(a.name, sample);
      row.read = v[property] instanceof Set ? [...v[property]] : v[property];
      v.removeAttribute(a.name);
      row.absent = v[property] instanceof Set ? [...v[property]] : v[property];
      // ... and the property, set, as the attribute's text.
      const value = { string: 'other text', boolean: true, number: 7, enum: a.values?.[0], switch: false, list: [a.values?.[1]] }[a.type];
      v[property] = value;
      row.written = v.getAttribute(a.name);
      v[property] = a.type === 'boolean' ? false : null;
      row.cleared = v.getAttribute(a.name);
      v.removeAttribute(a.name);
      row.values = a.values;
      out.push(row);
    }
    return out;
  });
  const names = rows.map((r) => r.name);
  for (const name of ['src', 'alt', 'model', 'camera-orbit', 'camera-target', 'field-of-view', 'background', 'controls', 'show', 'fflate']) {
    assert.ok(names.includes(name), `${name} is in the list`);
  }
  assert.ok(rows.length >= 26);
  for (const r of rows) {
    assert.ok(r.own, `${r.name} has a property ${r.property}`);
    switch (r.type) {
      case 'string':
        if (r.name === 'skin') break; // the skin shown once a player is loaded; its attribute otherwise (below)
        assert.equal(r.read, 'some text', r.name);
        assert.equal(r.absent, null, r.name);
        assert.equal(r.written, 'other text', r.name);
        assert.equal(r.cleared, null, r.name);
        break;
      case 'boolean':
        assert.deepEqual([r.read, r.absent, r.written, r.cleared], [true, false, '', null], r.name);
        break;
      case 'number':
        assert.equal(r.read, 2.5, r.name);
        assert.equal(typeof r.absent === 'number' || r.absent === null, true, r.name);
        assert.equal(r.written, '7', r.name);
        break;
      case 'enum':
        assert.equal(r.read, r.values[1], r.name);
        assert.equal(r.written, r.values[0], r.name);
        break;
      case 'switch':
        assert.deepEqual([r.read, r.absent, r.written], [false, true, 'false'], r.name);
        break;
      case 'list':
        assert.deepEqual(r.read, [r.values[0], r.values[2]], `${r.name}: unknown words are left out`);
        assert.deepEqual(r.absent, []);
        assert.equal(r.written, r.values[1]);
        break;
      default:
        assert.fail(`unknown type ${r.type}`);
    }
  }
  const camelCases = Object.fromEntries(rows.map((r) => [r.name, r.property]));
  assert.equal(camelCases['camera-orbit'], 'cameraOrbit');
  assert.equal(camelCases['animation-crossfade-duration'], 'animationCrossfadeDuration');
  const skin = await page.evaluate(() => {
    const v = document.querySelector('interquake-viewer');
    v.skin = 'red';
    return [v.getAttribute('skin'), v.skin];
  });
  assert.deepEqual(skin, ['red', 'red']);
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('camera-orbit, field-of-view and camera-target apply after load, in model-viewer\'s units', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-camera.html',
    `<interquake-viewer id="a" src="${DEMO}" style="width:200px;height:200px"></interquake-viewer>
     <interquake-viewer id="b" src="${DEMO}" camera-orbit="90deg 45deg auto" field-of-view="0.5rad" style="width:60px;height:60px"></interquake-viewer>`);
  const warnings = [];
  page.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); });
  await waitLoaded(page);
  await installPixelTools(page);
  const r = await page.evaluate(async () => {
    const v = document.getElementById('a');
    const cam = () => ({ yaw: v._camera.yaw, pitch: v._camera.pitch, distance: v._camera.distance, fov: v._camera.fov, target: [...v._camera.target] });
    const shot = async () => { v.renderFrame(0); return iqPixels(v); };
    const start = { cam: cam(), p: await shot() };
    const b = document.getElementById('b');
    const initial = { yaw: b._camera.yaw, pitch: b._camera.pitch, fov: b._camera.fov };
    const changes = [];
    v.addEventListener('camera-change', (e) => changes.push(e.detail.source));
    v.cameraOrbit = 'auto auto 200%';
    const far = { cam: cam(), p: await shot() };
    v.setAttribute('camera-orbit', '45deg 60deg 5m');
    const placed = cam();
    v.cameraOrbit = '0.5rad 1.2rad 40cm';
    const radians = cam();
    v.cameraOrbit = null;
    const back = await shot();
    v.fieldOfView = '20deg';
    const narrow = { cam: cam(), p: await shot() };
    v.fieldOfView = '0.5rad';
    const rad = cam().fov;
    v.fieldOfView = '50';
    const plain = cam().fov;
    v.fieldOfView = 'wide';
    const invalid = cam().fov;
    v.cameraOrbit = 'a b c';
    const badOrbit = cam();
    v.fieldOfView = null;
    v.cameraOrbit = null;
    v.cameraTarget = '10cm -200mm 0.5m';
    const target = { cam: cam(), p: await shot() };
    v.cameraTarget = 'auto';
    const auto = { cam: cam(), p: await shot() };
    return { start, initial, far, placed, radians, back, narrow, rad, plain, invalid, badOrbit, target, auto, changes,
      diffBack: iqDiff(start.p.id, back.id), diffTarget: iqDiff(start.p.id, target.p.id), diffAuto: iqDiff(start.p.id, auto.p.id) };
  });
  // Attributes given in the HTML apply at load.
  near(r.initial.yaw, 90 * DEG, 'theta from the HTML');
  near(r.initial.pitch, 45 * DEG, 'phi 45deg from the pole');
  near(r.initial.fov, 0.5, 'field-of-view in rad');
  near(r.start.cam.fov, 35 * DEG, 'the default field of view');
  // 200%: twice the framing distance, so the model covers about a quarter of the pixels.
  near(r.far.cam.distance, r.start.cam.distance * 2, 'radius 200%');
  assert.ok(r.far.p.count < r.start.p.count * 0.4 && r.far.p.count > r.start.p.count * 0.1,
    `the model is smaller at 200% (${r.far.p.count} vs ${r.start.p.count} pixels)`);
  near(r.placed.yaw, 45 * DEG, 'theta 45deg');
  near(r.placed.pitch, 30 * DEG, 'phi 60deg from the pole = 30deg up');
  near(r.placed.distance, 5, 'radius 5m');
  near(r.radians.yaw, 0.5, 'theta in rad');
  near(r.radians.pitch, Math.PI / 2 - 1.2, 'phi in rad');
  near(r.radians.distance, 0.4, 'radius 40cm');
  assert.equal(r.diffBack, 0, 'removing camera-orbit gives the first picture again');
  near(r.narrow.cam.fov, 20 * DEG, 'field-of-view 20deg');
  // The auto radius frames the model again at the new angle (the box's corners in view, framing.js):
  // about tan(35deg/2) / tan(20deg/2) times further, less the box's depth toward the camera.
  const ratio = r.narrow.cam.distance / r.start.cam.distance;
  assert.ok(ratio > 1.5 && ratio < Math.tan(35 * DEG / 2) / Math.tan(20 * DEG / 2) + 0.01, `the auto radius keeps the framing (x${ratio})`);
  assert.ok(Math.abs(r.narrow.p.count - r.start.p.count) < r.start.p.count * 0.25,
    `a narrower field of view with an auto radius keeps the model's size (${r.narrow.p.count} vs ${r.start.p.count})`);
  near(r.rad, 0.5, '0.5rad');
  near(r.plain, 50 * DEG, 'a plain number is degrees');
  near(r.invalid, 35 * DEG, 'invalid: the default');
  near(r.badOrbit.yaw, r.start.cam.yaw, 'an invalid orbit: the default angles');
  assert.ok(warnings.some((w) => /field-of-view="wide"/.test(w)), `a console warning names the bad field-of-view (${warnings})`);
  assert.ok(warnings.some((w) => /camera-orbit="a b c"/.test(w)), 'and the bad camera-orbit');
  assert.deepEqual(r.target.cam.target.map((x) => Math.round(x * 1000) / 1000), [0.1, -0.2, 0.5], 'camera-target with cm, mm and m');
  assert.ok(r.diffTarget > 500, `looking at another point moves the picture (${r.diffTarget} pixels)`);
  assert.equal(r.diffAuto, 0, 'camera-target auto looks at the centre again');
  assert.ok(r.changes.length >= 8 && r.changes.every((s) => s === 'none'), 'camera-change { source: "none" } for each change');
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('background="transparent" gives a transparent canvas; background changes after load', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-transparent.html',
    `<interquake-viewer id="own" src="${DEMO}" background="transparent" style="width:160px;height:160px"></interquake-viewer>
     <interquake-viewer id="shared" context="shared" src="${DEMO}" background="transparent" style="width:160px;height:160px"></interquake-viewer>`,
    'body { background: rgb(255, 0, 0); } interquake-viewer { display: inline-block; }');
  await waitLoaded(page);
  await installPixelTools(page);
  const r = await page.evaluate(async () => {
    const alpha = async (v) => {
      v.renderFrame(0);
      const p = await iqPixels(v);
      const data = iqCaptures[p.id];
      let opaque = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] === 255) opaque++;
      return { corner: [...data.slice(0, 4)], opaque, model: p.count };
    };
    const own = document.getElementById('own');
    const shared = document.getElementById('shared');
    const result = { own: await alpha(own), shared: await alpha(shared) };
    own.background = 'rgb(0, 0, 255)';
    own.renderFrame(0);
    const blue = await iqPixels(own);
    result.blue = blue.background;
    own.background = 'transparent';
    own.renderFrame(0);
    shared.renderFrame(0);
    result.sharedBitmap = Boolean(shared._bitmap);
    return result;
  });
  for (const which of ['own', 'shared']) {
    assert.equal(r[which].corner[3], 0, `${which} context: the background's alpha is 0 (${r[which].corner})`);
    assert.ok(r[which].opaque > 1000 && r[which].opaque >= r[which].model * 0.9,
      `${which}: the model's pixels are opaque (${r[which].opaque} opaque, ${r[which].model} model pixels)`);
  }
  assert.ok(r.sharedBitmap, 'the second element draws through the shared context');
  assert.deepEqual(r.blue, [0, 0, 255], 'a background set after load is drawn');
  // What the page shows: the page's red through the element's corners.
  const box = await page.locator('#own').boundingBox();
  // (below the progress bar's top strip, which fades out after a load)
  const screenshot = await page.screenshot({ clip: { x: box.x, y: box.y + 12, width: 4, height: 4 } });
  const corner = await page.evaluate(async (b64) => {
    const bitmap = await createImageBitmap(new Blob([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], { type: 'image/png' }));
    const g = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d');
    g.drawImage(bitmap, 0, 0);
    return [...g.getImageData(1, 1, 1, 1).data];
  }, screenshot.toString('base64'));
  assert.deepEqual(corner, [255, 0, 0, 255], 'the page shows through a transparent element');
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('other attributes apply after load: show, controls, auto-rotate, interpolate, alt', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-others.html',
    `<interquake-viewer src="${DEMO}" alt="A small four-legged critter" style="width:160px;height:160px"></interquake-viewer>`);
  await waitLoaded(page);
  await installPixelTools(page);
  const r = await page.evaluate(async () => {
    const v = document.querySelector('interquake-viewer');
    v.renderFrame(0);
    const plain = await iqPixels(v);
    v.show = 'wireframe';
    v.renderFrame(0);
    const wire = await iqPixels(v);
    v.show = [];
    v.controls = 'full';
    await new Promise((done) => { const check = () => (v.shadowRoot.querySelector('[part=controls]') ? done() : setTimeout(check, 10)); check(); }); // loaded on demand
    const bar = Boolean(v.shadowRoot.querySelector('[part=controls]'));
    const animationSelect = v.shadowRoot.querySelector('[part=animation-select]');
    const options = [...animationSelect.options].map((o) => o.value);
    v.controls = 'none';
    const barGone = !v.shadowRoot.querySelector('[part=controls]');
    const yaw = v._camera.yaw;
    v._camera.autoRotateHold = -1e9; // auto-rotate waits 3 s after the last interaction: none here
    v.autoRotate = true;
    await new Promise((done) => setTimeout(done, 400));
    const turned = v._camera.yaw - yaw;
    v.autoRotate = false;
    v.interpolate = false;
    return {
      wireDiff: iqDiff(plain.id, wire.id), bar, options, barGone, turned, interpolate: [v.interpolate, v.getAttribute('interpolate')],
      role: v.getAttribute('role'), label: v.getAttribute('aria-label'), canvasLabel: v.shadowRoot.querySelector('canvas').getAttribute('aria-label'),
    };
  });
  assert.ok(r.wireDiff > 100, `show="wireframe" set after load draws the wireframe (${r.wireDiff} pixels differ)`);
  assert.ok(r.bar && r.barGone, 'controls set after load adds and removes the built-in controls');
  assert.deepEqual(r.options, ['idle', 'walk', 'hop', 'look']);
  assert.ok(r.turned > 0.02, `auto-rotate set after load turns the camera (${r.turned} rad)`);
  assert.deepEqual(r.interpolate, [false, 'false']);
  assert.equal(r.role, 'img');
  assert.equal(r.label, 'A small four-legged critter');
  assert.equal(r.canvasLabel, 'A small four-legged critter');
  // The browser's accessibility tree: one image, named by alt.
  assert.equal(await page.getByRole('img', { name: 'A small four-legged critter' }).count(), 1);
  await page.evaluate(() => { document.querySelector('interquake-viewer').alt = 'A critter, walking'; });
  assert.equal(await page.getByRole('img', { name: 'A critter, walking' }).count(), 1, 'a new alt renames it');
  const removed = await page.evaluate(() => {
    const v = document.querySelector('interquake-viewer');
    v.alt = null;
    return [v.getAttribute('aria-label'), v.shadowRoot.querySelector('canvas').getAttribute('aria-label')];
  });
  assert.deepEqual(removed, [null, '3D model'], 'without alt the canvas has a generic name and the host none of ours');
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('model-viewer conventions: availableAnimations names, animations objects, error types', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-conventions.html', `<interquake-viewer src="${DEMO}" style="width:120px;height:120px"></interquake-viewer>`);
  await waitLoaded(page);
  const r = await page.evaluate(async () => {
    const v = document.querySelector('interquake-viewer');
    const errors = [];
    v.addEventListener('error', (e) => errors.push(e.detail));
    const names = v.availableAnimations;
    const objects = v.animations;
    v.setAttribute('animation-name', 'no-such-animation');
    try { await v.load('missing-model.iqm'); } catch { /* reported as an event */ }
    await v.load('demo/critter.iqm');
    const gl = v.shadowRoot.querySelector('canvas').getContext('webgl2');
    const lose = gl.getExtension('WEBGL_lose_context');
    const lost = new Promise((done) => v.addEventListener('context-lost', done, { once: true }));
    lose.loseContext();
    await lost;
    await new Promise((done) => setTimeout(done, 50));
    const restored = new Promise((done) => v.addEventListener('context-restored', done, { once: true }));
    lose.restoreContext();
    await restored;
    return { names, objects, errors };
  });
  assert.deepEqual(r.names, ['idle', 'walk', 'hop', 'look']);
  assert.deepEqual(Object.keys(r.objects[1]).sort(), ['duration', 'firstFrame', 'fps', 'frameCount', 'loop', 'name', 'part']);
  assert.equal(r.objects[1].name, 'walk');
  const types = r.errors.map((e) => [e.type, e.code]);
  assert.deepEqual(types, [['invalidattribute', 'invalid_argument'], ['loadfailure', 'fetch_failed'], ['webglcontextlost', 'webgl2_unavailable']]);
  assert.match(r.errors[1].message, /missing-model\.iqm/);
  assert.deepEqual(browser.errors, []);
  await page.close();
});
