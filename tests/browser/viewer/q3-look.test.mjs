// <interquake-viewer> with sarge and a weapon built in the test: the `weapon` attribute and
// picker, playGesture(), the light attributes (by pixels) and q3-transition.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from '../lib/browser.mjs';
import { elementPage, installPixelTools } from '../lib/viewer.mjs';
import { gameFiles } from '../../js/lib/q3-corpus.mjs';
import { buildMD3 } from '../../js/lib/md3-build.mjs';

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

// A gun 20 units long along x with a barrel on tag_barrel (the corpus has no weapon).
function gunFiles() {
  const box = (name, shader, x0, x1) => ({
    name, shaders: [{ name: shader, index: 0 }],
    triangles: [[0, 1, 2], [0, 2, 3], [0, 2, 1], [0, 3, 2]], texcoords: [[0, 0], [1, 0], [1, 1], [0, 1]],
    frames: [[[x0, -2, -2], [x1, -2, -2], [x1, 2, 2], [x0, 2, 2]].map((xyz) => ({ xyz, normal: 0 }))],
  });
  const I = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  return {
    'models/weapons2/gun/gun.md3': buildMD3({ tags: [{ name: 'tag_barrel', frames: [{ origin: [20, 0, 0], axes: I }] }], surfaces: [box('w_gun', '', 0, 20)] }).bytes,
    'models/weapons2/gun/gun_barrel.md3': buildMD3({ surfaces: [box('w_barrel', '', 0, 10)] }).bytes,
  };
}

test('weapon attribute and picker, gesture, light, q3-transition', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-q3look.html',
    '<interquake-viewer controls="full" weapon="gun" camera-orbit="0deg 80deg" style="width:240px;height:320px"></interquake-viewer>');
  const gun = Object.fromEntries(Object.entries(gunFiles()).map(([k, v]) => [k, [...v]]));
  await page.evaluate(async ({ paths, gun }) => {
    const v = document.querySelector('interquake-viewer');
    const object = {};
    for (const p of paths) object[p] = new Uint8Array(await (await fetch(`corpus/md3/openarena/${p}`)).arrayBuffer());
    for (const [p, bytes] of Object.entries(gun)) object[p] = new Uint8Array(bytes);
    await v.load(object);
  }, { paths: [...gameFiles().keys()], gun });
  await installPixelTools(page);
  const r = await page.evaluate(async () => {
    const v = document.querySelector('interquake-viewer');
    const out = {};
    out.weapons = v.availableWeapons;
    out.parts = v._content.parts.map((p) => p.partName);
    out.weaponSelect = [...v.shadowRoot.querySelector('[part~="weapon-select"]').options].map((o) => o.value);
    out.weaponTextures = v.info.meshes.filter((m) => m.part.includes('weapons2')).map((m) => m.texture);
    // untextured (no shader name): drawn plain, not listed as missing
    out.missingWeapon = v.missingFiles.filter((f) => f.includes('weapons2'));
    // gun tip is 20 units along the torso's tag_weapon: barrel matrix = gun + 20 along its x
    const m = Object.fromEntries(v._content.parts.map((p) => [p.partName, [...p.matrix]]));
    v.renderFrame(0);
    const m2 = Object.fromEntries(v._content.parts.map((p) => [p.partName, [...p.matrix]]));
    out.barrelOffset = [0, 1, 2].map((i) => m2.barrel[12 + i] - (m2.weapon[12 + i] + 20 * m2.weapon[i]));
    out.hadMatrices = Boolean(m.weapon && m.barrel);
    // light: brighter with more intensity and ambient, darker with none
    v.renderFrame(0);
    const normal = (await iqPixels(v)).mean;
    v.lightIntensity = 0; v.lightAmbient = 0.1;
    v.renderFrame(0);
    const dark = (await iqPixels(v)).mean;
    v.lightIntensity = 1.5; v.lightAmbient = 1; v.lightDirection = '0 -1 0';
    v.renderFrame(0);
    const bright = (await iqPixels(v)).mean;
    out.light = { normal, dark, bright };
    // gesture: TORSO_GESTURE once, then back to TORSO_STAND
    out.gestures = v.availableGestures.includes('TORSO_GESTURE') && !v.availableGestures.includes('TORSO_STAND');
    v.playGesture();
    out.during = v._trackFor('torso').animation.name;
    out.transition = Boolean(v._trackFor('torso').transition);
    v._ticker.advance(0.5);
    out.mid = v._trackFor('torso').animation.name;
    v._ticker.advance(10); // the gesture is 40 frames at 13 fps: over
    out.after = v._trackFor('torso').animation.name;
    // q3-transition="false": a new animation starts at once
    v.q3Transition = false;
    v.setAnimation('TORSO_ATTACK');
    out.noTransition = v._trackFor('torso').transition === null;
    // no weapon: picker's empty choice
    v.weapon = null;
    await new Promise((done) => setTimeout(done, 500));
    out.partsAfter = v._content.parts.map((p) => p.partName);
    return out;
  });
  assert.deepEqual(r.weapons, ['gun']);
  assert.deepEqual(r.weaponSelect, ['', 'gun']);
  assert.ok(r.parts.includes('weapon') && r.parts.includes('barrel') && !r.parts.includes('flash'), r.parts.join());
  assert.ok(r.hadMatrices);
  r.barrelOffset.forEach((d) => assert.ok(Math.abs(d) < 1e-3, `barrel offset ${r.barrelOffset}`));
  assert.deepEqual(r.weaponTextures, ['none', 'none']);
  assert.deepEqual(r.missingWeapon, []);
  const sum = (c) => c[0] + c[1] + c[2];
  assert.ok(sum(r.light.dark) < sum(r.light.normal) && sum(r.light.normal) < sum(r.light.bright), JSON.stringify(r.light));
  assert.ok(r.gestures);
  assert.equal(r.during, 'TORSO_GESTURE');
  assert.ok(r.transition, 'the gesture starts with the game\'s change of animation');
  assert.equal(r.mid, 'TORSO_GESTURE');
  assert.equal(r.after, 'TORSO_STAND');
  assert.ok(r.noTransition);
  assert.ok(!r.partsAfter.includes('weapon'), r.partsAfter.join());
});
