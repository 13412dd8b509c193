// <interquake-viewer> with sarge from the corpus: tag names as labels over show="tags" (placed
// at the tags' origins, projected here by the test's own arithmetic), the light-direction
// sliders of controls="full", and the team attribute (the player's team skins, as cgame picks them).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from '../lib/browser.mjs';
import { elementPage } from '../lib/viewer.mjs';
import { gameFiles } from '../../js/lib/q3-corpus.mjs';
import { buildMD3 } from '../../js/lib/md3-build.mjs';

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

async function sargePage(name, attributes) {
  const page = await elementPage(browser, name,
    `<interquake-viewer ${attributes} camera-orbit="30deg 75deg" style="width:320px;height:360px"></interquake-viewer>`);
  await page.evaluate(async (paths) => {
    const v = document.querySelector('interquake-viewer');
    const object = {};
    for (const p of paths) object[p] = new Uint8Array(await (await fetch(`corpus/md3/openarena/${p}`)).arrayBuffer());
    await v.load(object);
  }, [...gameFiles().keys()]);
  return page;
}

test('show="tags" labels every tag with its name, next to its projected origin', { timeout: 120000 }, async () => {
  const page = await sargePage('iq-taglabels.html', 'show="tags"');
  const r = await page.evaluate(() => {
    const v = document.querySelector('interquake-viewer');
    v.renderFrame(0);
    const canvas = v.shadowRoot.querySelector('canvas').getBoundingClientRect();
    const { viewProjection: m } = v._camera.matrices(canvas.width / canvas.height);
    // Where each tag's origin lands on screen, by the test's own arithmetic: the part's matrix
    // (column-major) times the tag's origin at the frame drawn, then the camera's projection.
    const col = (a, b) => { // a * b, column-major 4x4
      const o = new Array(16).fill(0);
      for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) o[c * 4 + r] += a[k * 4 + r] * b[c * 4 + k];
      return o;
    };
    const expected = [];
    for (const part of v._content.parts) {
      for (const name of part.model.tags ?? []) {
        const f = part.frames ?? { a: 0, b: 0, t: 0 };
        const t = part.model.tagMatrixBetween(name, f.a, f.b, f.t);
        const w = col(part.matrix, [...t]);
        const p = [w[12], w[13], w[14]];
        const clip = [0, 1, 3].map((r) => m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);
        expected.push({ name, x: canvas.left + ((clip[0] / clip[2] + 1) / 2) * canvas.width, y: canvas.top + ((1 - clip[1] / clip[2]) / 2) * canvas.height });
      }
    }
    const spans = [...v.shadowRoot.querySelectorAll('[part="tag-label"]')].map((s) => {
      const b = s.getBoundingClientRect();
      return { text: s.textContent, left: b.left, mid: b.top + b.height / 2, visible: b.width > 0 && getComputedStyle(s).display !== 'none' };
    });
    v.show = 'bounds';
    v.renderFrame(0);
    const after = v.shadowRoot.querySelectorAll('[part="tag-label"]').length;
    return { expected, spans, after };
  });
  const names = r.spans.map((s) => s.text).sort();
  assert.deepEqual(names, r.expected.map((e) => e.name).sort());
  for (const tag of ['tag_torso', 'tag_head', 'tag_weapon']) assert.ok(names.includes(tag), `${tag} labelled: ${names}`);
  r.expected.forEach((e, i) => {
    const s = r.spans[i];
    assert.equal(s.text, e.name);
    assert.ok(s.visible, `${e.name} shown`);
    // left edge 4 px right of the origin, centred on it vertically (within a pixel of rounding)
    assert.ok(Math.abs(s.left - (e.x + 4)) < 1.5 && Math.abs(s.mid - e.y) < 1.5, `${e.name}: label at ${s.left},${s.mid}, origin ${e.x},${e.y}`);
  });
  // The labels' spread follows the tags: tag_head sits above tag_torso on screen.
  const at = (n) => r.expected.find((e) => e.name === n);
  assert.ok(at('tag_head').y < at('tag_torso').y);
  assert.equal(r.after, 0, 'labels go with the tags overlay');
});

test('tag labels at one place do not cover each other: the first at its tag, the others moved below', { timeout: 120000 }, async () => {
  // Three tags at one origin (a weapon's tag_flash on its tag_weapon, say) and one far from them.
  const at = (name, origin) => ({ name, frames: [{ origin }] });
  const md3 = buildMD3({
    tags: [at('tag_weapon', [0, 0, 10]), at('tag_flash', [0, 0, 10]), at('tag_barrel', [0, 0, 10]), at('tag_far', [0, 0, -10])],
    surfaces: [{ name: 's', shaders: [], triangles: [[0, 1, 2]], texcoords: [[0, 0], [1, 0], [0, 1]],
      frames: [[[-10, 0, -12], [10, 0, -12], [0, 0, 12]].map((xyz) => ({ xyz, normal: 0 }))] }],
  }).bytes;
  const page = await elementPage(browser, 'iq-taglabels-overlap.html', '<interquake-viewer show="tags" style="width:240px;height:240px"></interquake-viewer>');
  const r = await page.evaluate(async (bytes) => {
    const v = document.querySelector('interquake-viewer');
    await v.load({ 't.md3': new Uint8Array(bytes) });
    v.renderFrame(0);
    return [...v.shadowRoot.querySelectorAll('[part="tag-label"]')].map((s) => {
      const b = s.getBoundingClientRect();
      const host = s.parentElement.getBoundingClientRect();
      return { text: s.textContent, left: b.left - host.left, top: b.top - host.top, bottom: b.bottom - host.top, right: b.right - host.left,
        x: Number(s.dataset.x), y: Number(s.dataset.y) };
    });
  }, [...md3]);
  assert.deepEqual(r.map((l) => l.text).sort(), ['tag_barrel', 'tag_far', 'tag_flash', 'tag_weapon']);
  const same = r.filter((l) => l.text !== 'tag_far');
  for (const l of r) assert.ok(Math.abs(l.left - (l.x + 4)) < 1.5, `${l.text}: left edge 4 px right of its tag`);
  const first = same.reduce((a, b) => (a.top < b.top ? a : b));
  assert.ok(Math.abs((first.top + first.bottom) / 2 - first.y) < 1.5, 'the first stays centred on its tag');
  for (let i = 0; i < r.length; i++) {
    for (let j = i + 1; j < r.length; j++) {
      const [a, b] = [r[i], r[j]];
      const overlap = a.left < b.right && b.left < a.right && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
      assert.ok(!overlap, `${a.text} and ${b.text} overlap`);
    }
  }
  const far = r.find((l) => l.text === 'tag_far');
  assert.ok(Math.abs((far.top + far.bottom) / 2 - far.y) < 1.5, 'a label with room stays on its tag');
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('controls="full": azimuth and elevation sliders set light-direction; "camera" unsets it', { timeout: 120000 }, async () => {
  const page = await sargePage('iq-lightdir.html', 'controls="full"');
  const r = await page.evaluate(async () => {
    const v = document.querySelector('interquake-viewer');
    const root = v.shadowRoot;
    const az = root.querySelector('[part~="light-azimuth-input"]');
    const el = root.querySelector('[part~="light-elevation-input"]');
    const set = (input, value) => { input.value = String(value); input.dispatchEvent(new Event('input')); };
    const out = {};
    const mean = () => {
      v.renderFrame(0);
      const c = root.querySelector('canvas');
      const g = new OffscreenCanvas(c.width, c.height).getContext('2d');
      g.drawImage(c, 0, 0);
      const d = g.getImageData(0, 0, c.width, c.height).data;
      let s = 0;
      for (let i = 0; i < d.length; i += 4) s += d[i] + d[i + 1] + d[i + 2];
      return s / (d.length / 4);
    };
    set(el, 0);
    set(az, 90);
    out.east = v.lightDirection;
    out.eastMean = mean();
    set(az, -90);
    out.west = v.lightDirection;
    out.westMean = mean();
    set(el, 90);
    out.up = v.lightDirection;
    root.querySelector('[part~="light-camera-button"]').click();
    out.cleared = v.getAttribute('light-direction');
    out.pressed = root.querySelector('[part~="light-camera-button"]').getAttribute('aria-pressed');
    v.lightDirection = '1 0 1';
    await new Promise((done) => setTimeout(done, 50));
    out.shown = [az.value, el.value];
    return out;
  });
  const vec = (text) => text.split(' ').map(Number);
  const near = (got, want) => want.forEach((w, i) => assert.ok(Math.abs(vec(got)[i] - w) < 1e-3, `${got} vs ${want}`));
  near(r.east, [0, 1, 0]);
  near(r.west, [0, -1, 0]);
  near(r.up, [0, 0, 1]);
  assert.notEqual(Math.round(r.eastMean), Math.round(r.westMean), 'the picture follows the light');
  assert.equal(r.cleared, null);
  assert.equal(r.pressed, 'true');
  assert.deepEqual(r.shown, ['0', '45']);
});

test('team attribute: the player reloads with its team skins, and the team picker shows it', { timeout: 120000 }, async () => {
  const page = await sargePage('iq-team.html', 'controls="full"');
  const r = await page.evaluate(async () => {
    const v = document.querySelector('interquake-viewer');
    const out = { before: { ...v._content.player.skinFiles } };
    v.team = 'blue'; // reloads the player (no load event, as lod and weapon)
    for (let i = 0; i < 200 && v._content?.player?.team !== 'blue'; i++) await new Promise((done) => setTimeout(done, 25));
    out.team = v._content.player.team;
    out.after = { ...v._content.player.skinFiles };
    out.select = v.shadowRoot.querySelector('[part~="team-select"]').value;
    out.textures = v.info.meshes.map((m) => m.texture);
    return out;
  });
  assert.match(r.before.lower, /lower_default\.skin$/);
  assert.equal(r.team, 'blue');
  for (const part of ['lower', 'upper', 'head']) assert.match(r.after[part], new RegExp(`${part}_blue\\.skin$`));
  assert.equal(r.select, 'blue');
  assert.ok(r.textures.includes('loaded'));
});
