// iq.render() (the C's software renderer) against the element's WebGL picture, in one page, at the
// same size and options: every corpus model and the corpus player with a weapon, several frames and
// two camera orbits. The silhouettes (alpha over a transparent background) must agree on at least
// 99% of pixels and the mean colour difference where both are opaque stay under MAX_COLOR_DIFF
// (0..255 per channel; measured: docs/RENDER.md, "Agreement with the element").
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from './lib/browser.mjs';
import { elementPage } from './lib/viewer.mjs';
import { gameFiles } from '../js/lib/q3-corpus.mjs';
import { buildMD3 } from '../js/lib/md3-build.mjs';

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

// A gun on tag_weapon (the corpus has no weapon): a box 20 units long, both windings, untextured.
function gunFiles() {
  const box = (name, x0, x1) => ({
    name, shaders: [{ name: '', index: 0 }],
    triangles: [[0, 1, 2], [0, 2, 3], [0, 2, 1], [0, 3, 2]], texcoords: [[0, 0], [1, 0], [1, 1], [0, 1]],
    frames: [[[x0, -2, -2], [x1, -2, -2], [x1, 2, 2], [x0, 2, 2]].map((xyz) => ({ xyz, normal: 0 }))],
  });
  return { 'models/weapons2/gun/gun.md3': buildMD3({ surfaces: [box('w_gun', 0, 20)] }).bytes };
}

// In the page: the element's picture (renderFrame + toBlob) and iq.render()'s, compared.
async function installCompare(page) {
  await page.evaluate(() => {
    window.iqCompare = async (viewer, image) => {
      const blob = await viewer.toBlob();
      const bitmap = await createImageBitmap(blob, { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const g = canvas.getContext('2d', { willReadFrequently: true });
      g.drawImage(bitmap, 0, 0);
      const a = g.getImageData(0, 0, bitmap.width, bitmap.height).data;
      const b = image.pixels;
      if (bitmap.width !== image.width || bitmap.height !== image.height) return { size: [bitmap.width, bitmap.height, image.width, image.height] };
      let agree = 0; let inA = 0; let inB = 0; let both = 0; let diff = 0;
      for (let i = 0; i < a.length; i += 4) {
        const ia = a[i + 3] > 127; const ib = b[i + 3] > 127;
        agree += ia === ib; inA += ia; inB += ib;
        if (a[i + 3] === 255 && b[i + 3] === 255) {
          both++;
          diff += (Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2])) / 3;
        }
      }
      return { silhouette: agree / (a.length / 4), inA, inB, color: both ? diff / both : 0 };
    };
  });
}

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
