// iq.render() against the element's WebGL picture (renderFrame + toBlob) in one page, for what the
// element draws over and beside the model: the `show` overlays (wireframe, skeleton, tags, bounds,
// normals, grid) on mrfixit and on the corpus player, and a hand-built Quake 3 player whose shader
// scripts use autosprite, autosprite2 and polygonOffset. Besides the silhouettes and the mean colour
// difference (as render-agreement.test.mjs), the overlay's own pixels are compared: those that the
// flag changes in each picture (against the same renderer without it), each found in the other
// picture's within one pixel. Thresholds from what was measured: docs/RENDER.md, "Agreement with the
// element".
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from './lib/browser.mjs';
import { elementPage } from './lib/viewer.mjs';
import { gameFiles } from '../js/lib/q3-corpus.mjs';
import { buildMD3 } from '../js/lib/md3-build.mjs';

const WIDTH = 200;
const HEIGHT = 160;
// Measured (docs/RENDER.md): silhouettes 99.3-99.9% but 97.0-97.9% with the grid (thin lines over
// the transparent background: the element's 4 samples are in a rotated grid, ours in a 2x2 one, so a
// line's partly covered pixels fall either side of alpha 128 differently); mean colour differences
// 0.6-4.7, 8.1 with normals and 13-15 with the wireframe (lines as dense as the mesh, bright over
// a dark model: where each one-pixel line lands decides much of the picture); every overlay pixel
// of each picture within a pixel of one in the other (99.8-100%).
const limits = (show) => ({
  silhouette: show.includes('grid') ? 0.965 : 0.99,
  color: show.includes('wireframe') ? 20 : show.includes('normals') ? 12 : 6,
});
const MIN_OVERLAY_MATCH = 0.97; // of the overlay's pixels in one picture, found in the other's within a pixel
const MAX_SPRITE_COLOR_DIFF = 3; // measured 0.3-0.6

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

// In the page: both pictures of a flag set and of none, compared.
async function installCompare(page) {
  await page.evaluate(() => {
    const pixelsOf = async (viewer) => {
      const blob = await viewer.toBlob();
      const bitmap = await createImageBitmap(blob, { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const g = canvas.getContext('2d', { willReadFrequently: true });
      g.drawImage(bitmap, 0, 0);
      return g.getImageData(0, 0, bitmap.width, bitmap.height).data;
    };
    // Pixels that differ between two pictures of one renderer (the overlay's), as a mask.
    const changed = (a, b) => {
      const mask = new Uint8Array(a.length / 4);
      for (let i = 0; i < a.length; i += 4) {
        mask[i / 4] = Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]) + Math.abs(a[i + 3] - b[i + 3]) > 60 ? 1 : 0;
      }
      return mask;
    };
    // The share of mask a's pixels with one of mask b's within a pixel.
    const found = (a, b, width) => {
      let n = 0; let hit = 0;
      for (let i = 0; i < a.length; i++) {
        if (!a[i]) continue;
        n++;
        const x = i % width; const y = (i - x) / width;
        let near = false;
        for (let dy = -1; dy <= 1 && !near; dy++) {
          for (let dx = -1; dx <= 1 && !near; dx++) {
            const xx = x + dx; const yy = y + dy;
            if (xx >= 0 && xx < width && yy >= 0 && yy < a.length / width && b[yy * width + xx]) near = true;
          }
        }
        hit += near;
      }
      return { n, share: n ? hit / n : 1 };
    };
    window.iqCompareShow = async (viewer, draw, show) => {
      viewer.setAttribute('show', '');
      const elementPlain = await pixelsOf(draw(viewer));
      viewer.setAttribute('show', show);
      const elementShow = await pixelsOf(draw(viewer));
      const softPlain = (await draw(null, '')).pixels;
      const softShow = (await draw(null, show)).pixels;
      const a = elementShow; const b = softShow;
      let agree = 0; let both = 0; let diff = 0;
      for (let i = 0; i < a.length; i += 4) {
        agree += (a[i + 3] > 127) === (b[i + 3] > 127);
        if (a[i + 3] === 255 && b[i + 3] === 255) {
          both++;
          diff += (Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2])) / 3;
        }
      }
      const ma = changed(elementShow, elementPlain);
      const mb = changed(softShow, softPlain);
      const ab = found(ma, mb, viewer.width ?? 200);
      const ba = found(mb, ma, viewer.width ?? 200);
      return { silhouette: agree / (a.length / 4), color: both ? diff / both : 0, overlay: [ab.n, mb.reduce((s, v) => s + v, 0)], inSoft: ab.share, inElement: ba.share };
    };
  });
}

function report(results) {
  console.log(results.map((x) => `${x.what} show="${x.show}": silhouette ${(x.silhouette * 100).toFixed(2)}%, colour ${x.color.toFixed(2)}, overlay ${x.overlay[0]}/${x.overlay[1]} px, element's in ours ${(x.inSoft * 100).toFixed(1)}%, ours in the element's ${(x.inElement * 100).toFixed(1)}%`).join('\n'));
  for (const x of results) {
    const what = `${x.what} show="${x.show}"`;
    const limit = limits(x.show);
    assert.ok(x.silhouette >= limit.silhouette, `${what}: silhouettes agree on ${(x.silhouette * 100).toFixed(2)}%`);
    assert.ok(x.color <= limit.color, `${what}: mean colour difference ${x.color.toFixed(2)}`);
    if (x.empty) {
      assert.deepEqual(x.overlay, [0, 0], `${what}: nothing to draw, in both`);
      continue;
    }
    assert.ok(x.overlay[0] > 20 && x.overlay[1] > 20, `${what}: the overlay drew ${x.overlay} pixels`);
    assert.ok(x.inSoft >= MIN_OVERLAY_MATCH && x.inElement >= MIN_OVERLAY_MATCH, `${what}: overlays match ${x.inSoft.toFixed(3)} / ${x.inElement.toFixed(3)}`);
  }
}

const MODEL_FLAGS = ['wireframe', 'skeleton', 'tags', 'bounds', 'grid', 'normals', 'skeleton bounds grid'];
// mrfixit (IQM) has no tags and the corpus player (MD3) no skeleton: those pictures are the plain ones.
const EMPTY = { mrfixit: ['tags'], sarge: ['skeleton'] };

test('show: iq.render() draws the element\'s overlays on mrfixit', { timeout: 300000 }, async () => {
  const page = await elementPage(browser, 'iq-show.html',
    `<interquake-viewer background="transparent" style="width:${WIDTH}px;height:${HEIGHT}px"></interquake-viewer>`);
  await installCompare(page);
  const src = 'iqm/mrfixit/mrfixit.iqm';
  const results = await page.evaluate(async ({ src, flags, width, height }) => {
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
    const frame = 30;
    const draw = (viewer, show) => {
      if (viewer) { viewer.renderFrame(frame); return viewer; }
      return iq.render(model, { width, height, frame, background: 'transparent', files, show });
    };
    const out = [];
    for (const show of flags) out.push({ what: 'mrfixit frame 30', show, ...(await window.iqCompareShow(v, draw, show)) });
    model.dispose();
    return out;
  }, { src, flags: MODEL_FLAGS, width: WIDTH, height: HEIGHT });
  await page.close();
  report(results.map((x) => ({ ...x, empty: EMPTY.mrfixit.includes(x.show) })));
});

test('show: iq.render() draws the element\'s overlays on the corpus player', { timeout: 300000 }, async () => {
  const page = await elementPage(browser, 'iq-show-q3.html',
    `<interquake-viewer legs-animation="LEGS_RUN" torso-animation="TORSO_STAND" background="transparent" style="width:${WIDTH}px;height:${HEIGHT}px"></interquake-viewer>`);
  await installCompare(page);
  const results = await page.evaluate(async ({ paths, flags, width, height }) => {
    const object = {};
    for (const p of paths) object[p] = new Uint8Array(await (await fetch(`corpus/md3/openarena/${p}`)).arrayBuffer());
    await customElements.whenDefined('interquake-viewer');
    const v = document.querySelector('interquake-viewer');
    await v.load(object);
    const { init } = await import('./interquake.js');
    const iq = await init();
    const player = iq.loadPlayer(object);
    const frame = 3;
    const draw = (viewer, show) => {
      if (viewer) { viewer.renderFrame(frame); return viewer; }
      return iq.render(player, { width, height, frame, legsAnimation: 'LEGS_RUN', torsoAnimation: 'TORSO_STAND', background: 'transparent', show });
    };
    const out = [];
    for (const show of flags) out.push({ what: 'sarge LEGS_RUN frame 3', show, ...(await window.iqCompareShow(v, draw, show)) });
    player.dispose();
    return out;
  }, { paths: [...gameFiles().keys()], flags: ['wireframe', 'skeleton', 'tags', 'bounds', 'grid', 'tags bounds grid'], width: WIDTH, height: HEIGHT });
  await page.close();
  report(results.map((x) => ({ ...x, empty: EMPTY.sarge.includes(x.show) })));
});

// A player whose lower part holds: a grey wall facing +X; a red decal on it, 0.01 units behind it
// (less than polygonOffset moves it at these views), its block with polygonOffset (or not); an
// orange flame (autosprite, additive) and a blue beam along Z (autosprite2), both in front of the
// wall and modelled edge on to most views.
function spriteFiles(offset = true) {
  const enc = new TextEncoder();
  const quad = (name, shader, xyz, triangles = [[0, 1, 2], [0, 2, 3]]) => ({
    name, shaders: [{ name: shader, index: 0 }], triangles, texcoords: [[0, 1], [0, 0], [1, 0], [1, 1]],
    frames: [xyz.map((p) => ({ xyz: p, normal: 0 }))],
  });
  const wallAt = (x, y0, y1, z0, z1) => [[x, y0, z0], [x, y0, z1], [x, y1, z1], [x, y1, z0]];
  const lower = buildMD3({
    tags: [{ name: 'tag_torso', frames: [{ origin: [0, 0, 30] }] }],
    surfaces: [
      quad('l_wall', 'fx/wall', wallAt(0, -12, 12, -12, 12)),
      quad('l_decal', 'fx/decal', wallAt(-0.01, -5, 5, 1, 9)),
      // A flat flame in the XY plane (seen from the side, edge on), 3 units in front of the wall.
      quad('l_flame', 'fx/flame', [[7, -7, -6], [3, -7, -6], [3, -3, -6], [7, -3, -6]], [[0, 1, 3], [3, 1, 2]]),
      // A beam 2 wide along Z facing +Y (seen from +X, edge on), its corners starting on a short
      // edge, its triangles in RB_AddQuadStamp's order.
      quad('l_beam', 'fx/beam', [[4, 6, -10], [6, 6, -10], [6, 6, -2], [4, 6, -2]], [[0, 1, 3], [3, 1, 2]]),
    ],
  });
  const tiny = (name) => buildMD3({ tags: name === 'upper' ? [{ name: 'tag_head', frames: [{ origin: [0, 0, 0] }] }] : [],
    surfaces: [quad(`${name[0]}_tiny`, 'fx/wall', wallAt(0, -0.01, 0.01, -0.01, 0.01))] });
  const script = `fx/wall
{
  { map $whiteimage
    rgbGen const ( 0.5 0.5 0.5 ) }
}
fx/decal
{
  ${offset ? 'polygonOffset' : ''}
  { map $whiteimage
    rgbGen const ( 1 0 0 ) }
}
fx/flame
{
  deformVertexes autosprite
  cull none
  { map $whiteimage
    blendFunc add
    rgbGen const ( 1 0.6 0 ) }
}
fx/beam
{
  deformVertexes autosprite2
  cull none
  { map $whiteimage
    rgbGen const ( 0 0.5 1 ) }
}
`;
  return {
    'models/players/fx/lower.md3': lower.bytes,
    'models/players/fx/upper.md3': tiny('upper').bytes,
    'models/players/fx/head.md3': tiny('head').bytes,
    'models/players/fx/animation.cfg': enc.encode(Array.from({ length: 25 }, () => '0 1 0 10').join('\n')),
    'scripts/fx.shader': enc.encode(script),
  };
}

test('autosprite, autosprite2 and polygonOffset: iq.render() and the element agree on a hand-built player', { timeout: 300000 }, async () => {
  const asArrays = (files) => Object.fromEntries(Object.entries(files).map(([k, v]) => [k, [...v]]));
  const variants = [{ offset: true, files: asArrays(spriteFiles(true)), orbits: ['30deg 75deg 60m', '-40deg 90deg 60m', '10deg 40deg 70m'] },
    { offset: false, files: asArrays(spriteFiles(false)), orbits: ['30deg 75deg 60m'] }];
  const page = await elementPage(browser, 'iq-sprites.html',
    `<interquake-viewer background="transparent" style="width:${WIDTH}px;height:${HEIGHT}px"></interquake-viewer>
     <interquake-viewer id="soft" renderer="software" background="transparent" style="width:${WIDTH}px;height:${HEIGHT}px"></interquake-viewer>`);
  await installCompare(page);
  const results = [];
  for (const { offset, files, orbits } of variants) {
  const r = await page.evaluate(async ({ files, orbits, width, height }) => {
    const object = Object.fromEntries(Object.entries(files).map(([k, v]) => [k, new Uint8Array(v)]));
    await customElements.whenDefined('interquake-viewer');
    const v = document.querySelector('interquake-viewer');
    const soft = document.querySelector('#soft'); // the element's software drawer turns the sprites too
    for (const el of [v, soft]) {
      el.setAttribute('camera-target', '0m 0m 0m');
      await el.load(object);
    }
    const { init } = await import('./interquake.js');
    const iq = await init();
    const player = iq.loadPlayer(object);
    const blob = async (el = v) => {
      const bitmap = await createImageBitmap(await el.toBlob(), { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
      const g = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d', { willReadFrequently: true });
      g.drawImage(bitmap, 0, 0);
      return g.getImageData(0, 0, bitmap.width, bitmap.height).data;
    };
    // Pixels of each surface's colour: the grey wall, the red decal, the flame added to the wall
    // (128 + (255, 153, 0), clamped; over the transparent background it adds to a colour no page
    // shows: the target's alpha is kept), the blue beam.
    const kinds = (p) => {
      const n = { wall: 0, decal: 0, flame: 0, beam: 0 };
      for (let i = 0; i < p.length; i += 4) {
        if (p[i + 3] < 250) continue;
        const [r, g, b] = [p[i], p[i + 1], p[i + 2]];
        if (Math.abs(r - 128) < 12 && Math.abs(g - 128) < 12 && Math.abs(b - 128) < 12) n.wall++;
        else if (r > 230 && g < 30 && b < 30) n.decal++;
        else if (r > 245 && g > 245 && Math.abs(b - 128) < 12) n.flame++;
        else if (r < 30 && Math.abs(g - 128) < 12 && b > 230) n.beam++;
      }
      return n;
    };
    const out = [];
    for (const orbit of orbits) {
      v.setAttribute('camera-orbit', orbit);
      v.renderFrame(0);
      const a = await blob();
      const image = await iq.render(player, { width, height, frame: 0, cameraOrbit: orbit, cameraTarget: '0m 0m 0m', background: 'transparent' });
      const b = image.pixels;
      let agree = 0; let both = 0; let diff = 0;
      for (let i = 0; i < a.length; i += 4) {
        agree += (a[i + 3] > 127) === (b[i + 3] > 127);
        if (a[i + 3] === 255 && b[i + 3] === 255) { both++; diff += (Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2])) / 3; }
      }
      soft.setAttribute('camera-orbit', orbit);
      soft.renderFrame(0);
      const c = await blob(soft);
      let softDiff = 0;
      for (let i = 0; i < c.length; i++) softDiff = Math.max(softDiff, Math.abs(c[i] - b[i]));
      out.push({ orbit, silhouette: agree / (a.length / 4), color: both ? diff / both : 0, element: kinds(a), ours: kinds(b), software: kinds(c), softDiff, drawer: soft.drawer });
    }
    player.dispose();
    return out;
  }, { files, orbits, width: WIDTH, height: HEIGHT });
  results.push(...r.map((x) => ({ offset, ...x })));
  }
  await page.close();
  console.log(results.map((x) => `sprites ${x.offset ? 'polygonOffset' : 'no offset'} ${x.orbit}: silhouette ${(x.silhouette * 100).toFixed(2)}%, colour ${x.color.toFixed(2)}, element ${JSON.stringify(x.element)}, ours ${JSON.stringify(x.ours)}`).join('\n'));
  for (const x of results) {
    assert.ok(x.silhouette >= 0.99, `${x.orbit}: silhouettes agree on ${(x.silhouette * 100).toFixed(2)}%`);
    assert.ok(x.color <= MAX_SPRITE_COLOR_DIFF, `${x.orbit}: mean colour difference ${x.color.toFixed(2)}`);
    assert.equal(x.drawer, 'software');
    assert.deepEqual(x.software, x.ours, `${x.orbit}: the element's software drawer draws each surface as iq.render() does`);
    assert.ok(x.softDiff <= 2, `${x.orbit}: the software drawer's picture is iq.render()'s (largest channel difference ${x.softDiff})`);
    // Without polygonOffset the decal behind the wall loses the depth test in both.
    if (!x.offset) assert.ok(x.element.decal < 5 && x.ours.decal < 5, `without polygonOffset the decal is hidden: ${x.element.decal} / ${x.ours.decal}`);
    for (const kind of x.offset ? ['decal', 'flame', 'beam'] : ['flame', 'beam']) {
      const [e, o] = [x.element[kind], x.ours[kind]];
      assert.ok(e > 30, `${x.orbit}: the element draws the ${kind} (${e} pixels)`);
      assert.ok(Math.abs(e - o) <= 0.1 * e + 8, `${x.orbit}: ${kind}: ${o} pixels here, ${e} in the element`);
    }
  }
});
