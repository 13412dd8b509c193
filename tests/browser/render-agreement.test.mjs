// iq.render() (the C's software renderer) against the element's WebGL picture, in one page, at the
// same size and options: every corpus model and the corpus player with a weapon, several frames and
// two camera orbits. The silhouettes (alpha over a transparent background) must agree on at least
// 99% of pixels and the mean colour difference where both are opaque stay under MAX_COLOR_DIFF
// (0..255 per channel; measured: docs/RENDER.md, "Agreement with the element").
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from './lib/browser.mjs';
import { elementPage } from './lib/viewer.mjs';
import { gameFiles, gunFiles } from '../js/lib/q3-corpus.mjs';
import { installCompare } from './lib/render-compare.mjs';

const MIN_SILHOUETTE = 0.99;
const MAX_COLOR_DIFF = 4; // measured at most 2.8 (vwep_view.iqe: its missing texture is the crisp checker)
const WIDTH = 200;
const HEIGHT = 160;
const ORBITS = ['auto auto auto', '200deg 60deg auto'];
const MODELS = [
  { src: 'iqm/mrfixit/mrfixit.iqm', frames: [0, 30, 70] },
  { src: 'iqm/raylib/guy.iqm', frames: [0] },
  { src: 'iqm/raylib/vertex_colored_object.iqm', frames: [0] },
  { src: 'iqm/extension/door2.iqm', frames: [0] },
  { src: 'md3/assimp/watercan.md3', frames: [0] },
  { src: 'md3/assimp/watercan_dmg.md3', frames: [0] },
  { src: 'md3/assimp/european_fnt_v2.md3', frames: [0] },
  { src: 'iqe/unvanquished/jetpack.iqe', frames: [0] },
  { src: 'iqe/unvanquished/missiles/rocket/rocket.iqe', frames: [0] },
  { src: 'iqe/unvanquished/missiles/spike/spike.iqe', frames: [0] },
  { src: 'iqe/unvanquished/missiles/lockblob/lockblob.iqe', frames: [0] },
  { src: 'iqe/unvanquished/weapons/level1/vwep_view.iqe', frames: [0, 5] },
];

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });



test('iq.render() agrees with the element for every corpus model, frames and orbits', { timeout: 600000 }, async () => {
  // One page: each model loaded in turn into the same element, both orbits set on it.
  const page = await elementPage(browser, 'iq-agree.html',
    `<interquake-viewer background="transparent" style="width:${WIDTH}px;height:${HEIGHT}px"></interquake-viewer>`);
  await installCompare(page);
  const results = [];
  for (const { src, frames } of MODELS) {
    const r = await page.evaluate(async ({ src, frames, orbits, width, height }) => {
      const { init } = await import('./interquake.js');
      const iq = await init();
      await customElements.whenDefined('interquake-viewer');
      const v = document.querySelector('interquake-viewer');
      await v.load(`corpus/${src}`);
      const dir = `corpus/${src.slice(0, src.lastIndexOf('/') + 1)}`;
      const model = iq.load(new Uint8Array(await (await fetch(`corpus/${src}`)).arrayBuffer()), { name: src });
      const files = async (path) => {
        const response = await fetch(dir + path);
        return response.ok ? new Uint8Array(await response.arrayBuffer()) : null;
      };
      const out = [];
      for (const orbit of orbits) {
        v.setAttribute('camera-orbit', orbit);
        for (const frame of frames) {
          v.renderFrame(frame);
          const image = await iq.render(model, { width, height, frame, cameraOrbit: orbit, background: 'transparent', files });
          out.push({ orbit, frame, ...(await window.iqCompare(v, image)) });
        }
      }
      model.dispose();
      return out;
    }, { src, frames, orbits: ORBITS, width: WIDTH, height: HEIGHT });
    for (const x of r) results.push({ src, ...x });
  }
  await page.close();
  console.log(results.map((x) => `${x.src} ${x.orbit} frame ${x.frame}: silhouette ${(x.silhouette * 100).toFixed(2)}% (${x.inA}/${x.inB} px), colour ${x.color?.toFixed(2)}`).join('\n'));
  for (const x of results) {
    assert.ok(!x.size, `${x.src}: sizes differ ${x.size}`);
    assert.ok(x.inA > 50, `${x.src}: the element drew ${x.inA} pixels`);
    assert.ok(x.silhouette >= MIN_SILHOUETTE, `${x.src} ${x.orbit} frame ${x.frame}: silhouettes agree on ${(x.silhouette * 100).toFixed(2)}%`);
    assert.ok(x.color <= MAX_COLOR_DIFF, `${x.src} ${x.orbit} frame ${x.frame}: mean colour difference ${x.color.toFixed(2)}`);
  }
});

test('iq.render() agrees with the element for the corpus player with a weapon', { timeout: 300000 }, async () => {
  const gun = Object.fromEntries(Object.entries(gunFiles()).map(([k, v]) => [k, [...v]]));
  const page = await elementPage(browser, 'iq-agree-q3.html',
    `<interquake-viewer weapon="gun" legs-animation="LEGS_RUN" torso-animation="TORSO_ATTACK" background="transparent" style="width:${WIDTH}px;height:${HEIGHT}px"></interquake-viewer>`);
  await installCompare(page);
  const r = await page.evaluate(async ({ paths, gun, orbits, width, height }) => {
    // The corpus files fetched by the page (game paths), the gun built by the test.
    const object = {};
    for (const p of paths) object[p] = new Uint8Array(await (await fetch(`corpus/md3/openarena/${p}`)).arrayBuffer());
    for (const [p, bytes] of Object.entries(gun)) object[p] = new Uint8Array(bytes);
    await customElements.whenDefined('interquake-viewer');
    const v = document.querySelector('interquake-viewer');
    await v.load(object);
    const { init } = await import('./interquake.js');
    const iq = await init();
    const player = iq.loadPlayer(object, { weapon: 'gun' });
    const out = [];
    for (const orbit of orbits) {
      v.setAttribute('camera-orbit', orbit);
      for (const frame of [0, 3, 7]) {
        v.renderFrame(frame);
        const image = await iq.render(player, { width, height, frame, legsAnimation: 'LEGS_RUN', torsoAnimation: 'TORSO_ATTACK', cameraOrbit: orbit, background: 'transparent' });
        out.push({ orbit, frame, parts: Object.keys(player.parts).join(), ...(await window.iqCompare(v, image)) });
      }
    }
    player.dispose();
    return out;
  }, { paths: [...gameFiles().keys()], gun, orbits: ORBITS, width: WIDTH, height: HEIGHT });
  const results = r.map((x) => ({ src: 'sarge+gun', ...x }));
  await page.close();
  console.log(results.map((x) => `${x.src} ${x.orbit} frame ${x.frame}: silhouette ${(x.silhouette * 100).toFixed(2)}% (${x.inA}/${x.inB} px), colour ${x.color?.toFixed(2)}`).join('\n'));
  for (const x of results) {
    assert.match(x.parts, /weapon/);
    assert.ok(x.silhouette >= MIN_SILHOUETTE, `${x.orbit} frame ${x.frame}: silhouettes agree on ${(x.silhouette * 100).toFixed(2)}%`);
    assert.ok(x.color <= MAX_COLOR_DIFF, `${x.orbit} frame ${x.frame}: mean colour difference ${x.color.toFixed(2)}`);
  }
});
