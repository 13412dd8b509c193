// Several models in one drop: the mesh opens, never an animation-only file; animation-only files
// whose skeleton fits are attached (a misfit is skipped with a warning); the rest can be picked
// (availableModels, load(..., { model }), the `model` attribute).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from '../lib/browser.mjs';
import { elementPage, waitLoaded } from '../lib/viewer.mjs';
import { buildIQM } from '../../js/lib/iqm-build.mjs';

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

const I = { translate: [0, 0, 0], rotate: [0, 0, 0, 1], scale: [1, 1, 1] };
const skeleton = [{ name: 'root', parent: -1, ...I }, { name: 'head', parent: 0, ...I, translate: [0, 0, 1] }];
const motion = (n) => Array.from({ length: n }, (_, f) => [{ ...I, translate: [0, 0, f * 0.1] }, { ...I, translate: [0, 0, 1] }]);
const mesh = (anims = []) => buildIQM({
  vertexArrays: [
    { type: 'position', format: 'float', size: 3, data: [0, 0, 0, 1, 0, 0, 0, 0, 1] },
    { type: 'blendindexes', format: 'ubyte', size: 4, data: [0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0] },
    { type: 'blendweights', format: 'ubyte', size: 4, data: [255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0] },
  ],
  triangles: [[0, 1, 2]],
  meshes: [{ name: 'body' }],
  joints: skeleton,
  frames: anims.length ? motion(2) : [],
  anims: anims.map((name) => ({ name, firstFrame: 0, frameCount: 2, framerate: 10 })),
}).bytes;
// Animation-only: joints and an animation, no vertices, as Cube 2 and Red Eclipse ship them.
const animationOnly = (name, joints = skeleton) => buildIQM({
  joints, frames: motion(3).map((f) => f.slice(0, joints.length)), anims: [{ name, firstFrame: 0, frameCount: 3, framerate: 10, loop: true }],
}).bytes;

test('a folder of one mesh and animation-only files opens the mesh with every fitting animation', { timeout: 120000 }, async () => {
  const files = {
    // Sorted first by name, so a viewer taking the first file would open an animation.
    'frankie/Frankie_Blink.iqm': animationOnly('Frankie_Blink'),
    'frankie/Frankie_Idle.iqm': animationOnly('Frankie_Idle'),
    'frankie/Frankie.iqm': mesh(),
    // A skeleton that cannot be mapped onto the mesh's (a joint the mesh does not have; attaching a
    // subset of the mesh's joints by name is fine, as engines do).
    'frankie/Frankie_Broken.iqm': animationOnly('Broken', [skeleton[0], { ...skeleton[1], name: 'tail' }]),
  };
  const page = await elementPage(browser, 'iq-models.html', '<interquake-viewer style="width:100px;height:100px;display:block"></interquake-viewer>');
  await page.waitForFunction(() => customElements.get('interquake-viewer'));
  const r = await page.evaluate(async (files) => {
    const v = document.querySelector('interquake-viewer');
    const input = Object.fromEntries(Object.entries(files).map(([k, b]) => [k, new Uint8Array(b)]));
    await v.load(input);
    const first = {
      name: v.info.name, triangles: v.info.triangles, animations: v.availableAnimations.map((a) => a.name ?? a),
      models: v.availableModels, warnings: v.warnings.map((w) => w.file),
    };
    v.setAnimation('Frankie_Blink');
    v.renderFrame(2);
    // A second mesh: picked through load()'s option and through the attribute.
    input['frankie/Other.iqm'] = input['frankie/Frankie.iqm'];
    await v.load(input, { model: 'frankie/Other.iqm' });
    const picked = { name: v.info.name, models: v.availableModels };
    const loaded = new Promise((done) => v.addEventListener('load', done, { once: true }));
    v.setAttribute('model', 'frankie/Frankie.iqm');
    await loaded;
    const byAttribute = v.info.name;
    let bad = null;
    try { await v.load(input, { model: 'nothing.iqm' }); } catch (err) { bad = err.code; }
    return { first, picked, byAttribute, bad };
  }, Object.fromEntries(Object.entries(files).map(([k, b]) => [k, [...b]])));
  assert.equal(r.first.name, 'frankie/Frankie.iqm', 'the mesh opens, not an animation-only file');
  assert.equal(r.first.triangles, 1);
  assert.deepEqual(r.first.animations.sort(), ['Frankie_Blink', 'Frankie_Idle'], 'the fitting animation files are attached');
  assert.deepEqual(r.first.warnings, ['frankie/frankie_broken.iqm'], 'the misfit is skipped with a warning naming it');
  assert.deepEqual(r.first.models, ['frankie/Frankie.iqm'], 'animation-only files are not offered as models');
  assert.equal(r.picked.name, 'frankie/Other.iqm');
  assert.deepEqual(r.picked.models, ['frankie/Frankie.iqm', 'frankie/Other.iqm']);
  assert.equal(r.byAttribute, 'frankie/Frankie.iqm');
  assert.equal(r.bad, 'invalid_argument');
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('the full controls offer a model picker when the source holds several models', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-picker.html', '<interquake-viewer controls="full" style="width:300px;height:300px;display:block"></interquake-viewer>');
  await page.waitForFunction(() => customElements.get('interquake-viewer'));
  const r = await page.evaluate(async (bytes) => {
    const v = document.querySelector('interquake-viewer');
    const select = v.shadowRoot.querySelector('[part=model-select]');
    const state = () => ({ shown: !select.closest('label').hidden, options: [...select.options].map((o) => o.value), value: select.value, name: v.info?.name });
    const one = new Uint8Array(bytes);
    await v.load({ 'solo.iqm': one });
    const single = state();
    await v.load({ 'pack/first.iqm': one, 'pack/second.iqm': one, 'pack/walk.iqm': new Uint8Array(bytes) });
    const several = state();
    const loaded = new Promise((done) => v.addEventListener('load', done, { once: true }));
    select.value = 'pack/second.iqm';
    select.dispatchEvent(new Event('change'));
    await loaded;
    const picked = { ...state(), attribute: v.getAttribute('model') };
    return { single, several, picked };
  }, [...mesh(['walk'])]);
  assert.equal(r.single.shown, false, 'one model: no picker');
  assert.equal(r.several.shown, true, 'several: the picker is shown');
  assert.deepEqual(r.several.options, ['pack/first.iqm', 'pack/second.iqm', 'pack/walk.iqm']);
  assert.equal(r.several.value, 'pack/first.iqm', 'it shows the model opened');
  assert.equal(r.picked.name, 'pack/second.iqm', 'picking another opens it');
  assert.equal(r.picked.value, 'pack/second.iqm');
  assert.equal(r.picked.attribute, 'pack/second.iqm', 'through the model attribute');
  assert.deepEqual(browser.errors, []);
  await page.close();
});
