// Missing files are listed once per file as the game matches paths (a/b.tga and A\b.TGA are one
// file: the library's pathKey), and a surface without triangles, never drawn, has no missing texture.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from '../lib/browser.mjs';
import { elementPage } from '../lib/viewer.mjs';
import { buildIQM } from '../../js/lib/iqm-build.mjs';
import { buildMD3 } from '../../js/lib/md3-build.mjs';

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

const surface = (name, shader, triangles) => ({
  name, shaders: [{ name: shader, index: 0 }], triangles, texcoords: [[0, 0], [1, 0], [0, 1]],
  frames: [[[0, 0, 0], [1, 0, 0], [0, 1, 0]].map((xyz) => ({ xyz, normal: 0 }))],
});
const I = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];

async function loadIn(page, files) {
  return page.evaluate(async (input) => {
    const v = document.querySelector('interquake-viewer');
    await v.load(Object.fromEntries(Object.entries(input).map(([k, b]) => [k, new Uint8Array(b)])));
    return { missing: v.missingFiles, textures: v.info.meshes.map((m) => `${m.name}:${m.texture}`), eventMissing: v.info.missingFiles };
  }, Object.fromEntries(Object.entries(files).map(([k, b]) => [k, [...b]])));
}

test('a model: one entry per missing file whatever its case and slashes; empty meshes need no texture', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-missing.html', '<interquake-viewer style="width:80px;height:80px;display:block"></interquake-viewer>');
  await page.waitForFunction(() => customElements.get('interquake-viewer'));
  const iqm = buildIQM({
    vertexArrays: [{ type: 'position', format: 'float', size: 3, data: [0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 1] }],
    triangles: [[0, 1, 2], [1, 3, 2]],
    meshes: [
      { name: 'front', material: 'Tex/Skin.tga', firstTriangle: 0, triangleCount: 1 },
      { name: 'back', material: 'tex\\skin.TGA', firstTriangle: 1, triangleCount: 1 },
      { name: 'empty', material: 'never/drawn.tga', firstTriangle: 2, triangleCount: 0 },
    ],
  }).bytes;
  const r = await loadIn(page, { 'thing.iqm': iqm });
  assert.deepEqual(r.missing, ['Tex/Skin.tga'], 'Tex/Skin.tga and tex\\skin.TGA are one file; the empty mesh\'s texture is not missing');
  assert.deepEqual(r.eventMissing, r.missing);
  assert.deepEqual(r.textures, ['front:missing', 'back:missing', 'empty:none']);
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('a Quake 3 player: the same for its surfaces', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-missing-q3.html', '<interquake-viewer style="width:80px;height:80px;display:block"></interquake-viewer>');
  await page.waitForFunction(() => customElements.get('interquake-viewer'));
  const dir = 'models/players/built/';
  const files = {
    [`${dir}lower.md3`]: buildMD3({
      tags: [{ name: 'tag_torso', frames: [{ origin: [0, 0, 1], axes: I }] }],
      surfaces: [
        surface('l_legs', 'models/players/built/legs.tga', [[0, 1, 2]]),
        surface('l_belt', 'models\\players\\BUILT\\Legs.TGA', [[0, 2, 1]]),
        surface('l_empty', 'models/players/built/nothing.tga', []),
      ],
    }).bytes,
    [`${dir}upper.md3`]: buildMD3({
      tags: [{ name: 'tag_head', frames: [{ origin: [0, 0, 1], axes: I }] }],
      surfaces: [surface('u_torso', 'models/players/built/torso.tga', [[0, 1, 2]])],
    }).bytes,
    [`${dir}head.md3`]: buildMD3({ surfaces: [surface('h_head', 'models/players/built/torso.tga', [[0, 1, 2]])] }).bytes,
  };
  const r = await loadIn(page, files);
  const textures = r.missing.filter((p) => /\.tga$/i.test(p));
  assert.deepEqual(textures, ['models/players/built/legs.tga', 'models/players/built/torso.tga'],
    `each missing texture once, none for the empty surface (${r.missing})`);
  assert.ok(r.textures.includes('lower: l_empty:none'), r.textures.join(', '));
  assert.deepEqual(browser.errors, []);
  await page.close();
});
