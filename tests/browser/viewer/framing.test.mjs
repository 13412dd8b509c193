// The camera frames what is drawn (web/scene/framing.js), never a file's stored bounds: an MD3
// with garbage per-frame boxes (1e27, as a real Nexuiz model has) and an IQM whose stored boxes
// are tiny while its animation carries the mesh far away.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from '../lib/browser.mjs';
import { elementPage, installPixelTools, waitLoaded } from '../lib/viewer.mjs';
import { buildMD3 } from '../../js/lib/md3-build.mjs';
import { buildIQM } from '../../js/lib/iqm-build.mjs';

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

const SIZE = 'width:160px;height:160px;display:inline-block';
const CORNERS = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => [i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1]);
const CUBE_TRIANGLES = [[0, 2, 1], [1, 2, 3], [4, 5, 6], [5, 7, 6], [0, 1, 4], [1, 5, 4], [2, 6, 3], [3, 6, 7],
  [0, 4, 2], [2, 4, 6], [1, 3, 5], [3, 7, 5]];

// A 16-unit cube that rises by 8 units in frame 1; both frames' stored boxes are 1e27 wide.
function garbageBoundsMD3() {
  const frame = (dz) => CORNERS.map((c) => ({ xyz: [c[0] * 8, c[1] * 8, c[2] * 8 + dz] }));
  return buildMD3({
    frames: [0, 1].map(() => ({ min: [-1e27, -1e27, -1e27], max: [1e27, 1e27, 1e27], radius: 1e27 })),
    surfaces: [{ name: 'cube', shaders: [], triangles: CUBE_TRIANGLES, frames: [frame(0), frame(8)] }],
  }).bytes;
}

// One joint; the animation moves it (and the 8-unit cube skinned to it) 30 units along +x. The stored
// per-frame boxes claim a millimetre-sized model at the origin.
function lyingBoundsIQM() {
  const I = { translate: [0, 0, 0], rotate: [0, 0, 0, 1], scale: [1, 1, 1] };
  return buildIQM({
    vertexArrays: [
      { type: 'position', format: 'float', size: 3, data: CORNERS.flat().map((c) => c * 4) },
      { type: 'blendindexes', format: 'ubyte', size: 4, data: CORNERS.flatMap(() => [0, 0, 0, 0]) },
      { type: 'blendweights', format: 'ubyte', size: 4, data: CORNERS.flatMap(() => [255, 0, 0, 0]) },
    ],
    triangles: CUBE_TRIANGLES,
    meshes: [{ name: 'cube' }],
    joints: [{ name: 'root', parent: -1, ...I }],
    frames: [0, 1, 2, 3].map((f) => [{ ...I, translate: [f * 10, 0, 0] }]),
    anims: [{ name: 'slide', firstFrame: 0, frameCount: 4, framerate: 10 }],
    bounds: [0, 1, 2, 3].map(() => [0, 0, 0, 0.001, 0.001, 0.001, 0.001, 0.001]),
  }).bytes;
}

test('framing: garbage MD3 bounds (1e27) neither hide the model nor stop drawing with the grid on', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-framing.html',
    `<interquake-viewer id="md3" show="grid bounds" autoplay style="${SIZE}"></interquake-viewer>` +
    `<interquake-viewer id="iqm" show="grid" style="${SIZE}"></interquake-viewer>`);
  await page.waitForFunction(() => customElements.get('interquake-viewer'));
  await page.evaluate(async ({ md3, iqm }) => {
    await document.getElementById('md3').load({ 'junk.md3': new Uint8Array(md3) });
    await document.getElementById('iqm').load({ 'slide.iqm': new Uint8Array(iqm) });
  }, { md3: [...garbageBoundsMD3()], iqm: [...lyingBoundsIQM()] });
  await waitLoaded(page);
  await installPixelTools(page);
  const r = await page.evaluate(async () => {
    const v = document.getElementById('md3');
    const drawsBefore = v._drawCount;
    await new Promise((done) => setTimeout(done, 600));
    const drawsWhilePlaying = v._drawCount - drawsBefore;
    const w = document.getElementById('iqm');
    w.renderFrame(0);
    const withGrid = await iqPixels(v);
    // The overlays off for the measurements: grid lines would count as model pixels.
    v.show = '';
    w.show = '';
    v.renderFrame(0);
    const a = await iqPixels(v);
    v.renderFrame(1);
    const b = await iqPixels(v);
    const shots = [];
    for (const f of [0, 3]) { w.renderFrame(f); shots.push(await iqPixels(w)); }
    return { drawsWhilePlaying, withGrid, a, b, shots, frames: v.frameCount };
  });
  assert.equal(r.frames, 2);
  assert.ok(r.drawsWhilePlaying >= 3, `the page keeps drawing while it plays (${r.drawsWhilePlaying} pictures in 0.6 s)`);
  const area = 160 * 160;
  assert.ok(r.withGrid.count > area * 0.08, `with the grid on, the picture shows the model and grid (${r.withGrid.count} pixels)`);
  for (const [name, shot] of [['frame 0', r.a], ['frame 1', r.b]]) {
    assert.ok(shot.count > area * 0.08, `${name}: the cube fills the view, not a speck in a 1e27 box (${shot.count} pixels)`);
    const cx = (shot.box.minX + shot.box.maxX) / 2;
    const cy = (shot.box.minY + shot.box.maxY) / 2;
    assert.ok(cx > 40 && cx < 120 && cy > 40 && cy < 120, `${name}: near the middle (${JSON.stringify(shot.box)})`);
  }
  assert.ok(r.b.box.minY < r.a.box.minY, 'frame 1 is higher on screen: the camera did not follow each frame');
  // The IQM: framed over its animation, the cube is inside the picture at both ends of its slide
  // and large enough to see, although the file says the model is a millimetre wide.
  for (const [i, shot] of r.shots.entries()) {
    assert.ok(shot.count > area * 0.01, `IQM frame ${i ? 3 : 0}: the cube is drawn (${shot.count} pixels)`);
    assert.ok(shot.box.minX > 0 && shot.box.maxX < 159,
      `IQM frame ${i ? 3 : 0}: inside the picture (${JSON.stringify(shot.box)})`);
  }
  assert.ok(Math.abs(r.shots[0].box.minX - r.shots[1].box.minX) > 20, 'the slide moves the cube across the view');
  assert.deepEqual(browser.errors, []);
  await page.close();
});
