// <interquake-viewer> with Quake 3 players (loose files, dropped folders, .pk3), in headless
// Chromium, checked by pixels after the deterministic renderFrame() hook.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from '../lib/browser.mjs';
import { elementPage, installPixelTools, waitLoaded } from '../lib/viewer.mjs';
import { gameFiles, sargePk3 } from '../../js/lib/q3-corpus.mjs';

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

const SIZE = 'width:200px;height:200px;display:inline-block';
const base64 = (bytes) => Buffer.from(bytes).toString('base64');

// Loads sarge from an object of game paths (fetched from the corpus) into a fresh element.
async function sargePage(name, attributes = '') {
  const page = await elementPage(browser, name,
    `<interquake-viewer camera-orbit="0deg 80deg" ${attributes} style="width:240px;height:320px"></interquake-viewer>`);
  const files = [...gameFiles().keys()];
  await page.evaluate(async (paths) => {
    const v = document.querySelector('interquake-viewer');
    const object = {};
    const corpus = 'corpus/md3/openarena/';
    for (const p of paths) object[p] = new Uint8Array(await (await fetch(corpus + p)).arrayBuffer());
    await v.load(object);
  }, files);
  await installPixelTools(page);
  return page;
}

test('a Quake 3 player is assembled: head above torso above legs, on screen and in its matrices', { timeout: 120000 }, async () => {
  const page = await sargePage('iq-sarge.html');
  const r = await page.evaluate(async () => {
    const v = document.querySelector('interquake-viewer');
    v.renderFrame(0);
    const all = await iqPixels(v);
    const centre = {};
    for (const part of ['lower', 'upper', 'head']) {
      v._hiddenParts = new Set(['lower', 'upper', 'head'].filter((p) => p !== part));
      v.renderFrame(0);
      const p = await iqPixels(v);
      centre[part] = p.box ? (p.box.minY + p.box.maxY) / 2 : null;
    }
    v._hiddenParts = null;
    const z = Object.fromEntries(v._content.parts.map((p) => [p.partName, p.matrix[14]]));
    return {
      all, centre, z, skins: v.availableSkins, skin: v.skin, lods: v.availableLods,
      legs: v._trackFor('legs').animation.name, torso: v._trackFor('torso').animation.name,
      animations: v.availableAnimations.length, textures: v.info.meshes.map((m) => m.texture),
    };
  });
  assert.ok(r.all.count > 240 * 320 * 0.05, `the player is drawn (${r.all.count} pixels)`);
  assert.ok(r.centre.head < r.centre.upper && r.centre.upper < r.centre.lower,
    `on screen the head is above the torso, above the legs (centres y ${JSON.stringify(r.centre)})`);
  assert.ok(r.z.head > r.z.upper && r.z.upper > r.z.lower, `placed upwards by the tags (z ${JSON.stringify(r.z)})`);
  assert.ok(r.skins.includes('red') && r.skins.includes('blue'), r.skins.join());
  assert.equal(r.skin, 'default');
  assert.deepEqual(r.lods, [0, 1, 2]);
  assert.equal(r.legs, 'LEGS_IDLE');
  assert.equal(r.torso, 'TORSO_STAND');
  assert.ok(r.animations >= 25);
  assert.ok(r.textures.every((t) => t === 'loaded'), `every surface of the default skin is textured (${r.textures})`);
  assert.equal(r.all.magenta, 0);
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('a player animates legs and torso separately, and switches skin', { timeout: 120000 }, async () => {
  const page = await sargePage('iq-sarge-anim.html');
  const r = await page.evaluate(async () => {
    const v = document.querySelector('interquake-viewer');
    v.setAnimation('LEGS_RUN', { part: 'legs', crossfade: 0 });
    v.setAnimation('TORSO_ATTACK', { part: 'torso', crossfade: 0 });
    v.renderFrame(0);
    const a = await iqPixels(v);
    v.seekFrame(3, { part: 'legs' });
    v.renderFrame(3, { part: 'legs' });
    const legsMoved = await iqPixels(v);
    const torsoFrame = v._trackFor('torso').frame;
    // Per-part readout: each part's frame inside its animation and the global frame shown.
    const frames = v.frames;
    const cfg = { run: v.animations.find((x) => x.name === 'LEGS_RUN'), attack: v.animations.find((x) => x.name === 'TORSO_ATTACK') };
    v.seekFrame(2, { part: 'torso' });
    const torsoAfter = v.frames.torso;
    const events = [];
    v.addEventListener('skin-change', (e) => events.push(e.detail.skin));
    await v.setSkin('red');
    v.renderFrame(3, { part: 'legs' });
    const red = await iqPixels(v);
    return { frames, cfg, torsoAfter, legsDiff: iqDiff(a.id, legsMoved.id), torsoFrame, skinDiff: iqDiff(legsMoved.id, red.id), events, skin: v.skin, red: red.mean, before: legsMoved.mean };
  });
  assert.ok(r.legsDiff > 100, `moving the legs changes the picture (${r.legsDiff})`);
  assert.equal(r.torsoFrame, 0, 'the torso stayed on its frame');
  assert.deepEqual(Object.keys(r.frames), ['legs', 'torso']);
  assert.equal(r.frames.legs.animation, 'LEGS_RUN');
  assert.ok(Math.abs(r.frames.legs.frame - 3) < 1e-6, `legs on frame 3 (${r.frames.legs.frame})`);
  assert.equal(r.frames.legs.globalFrame, r.cfg.run.firstFrame + 3, 'the global frame of the legs');
  assert.equal(r.frames.torso.globalFrame, r.cfg.attack.firstFrame, 'the torso on its first frame');
  assert.ok(Math.abs(r.torsoAfter.frame - 2) < 1e-6 && r.torsoAfter.globalFrame === r.cfg.attack.firstFrame + 2, 'seekFrame(2, { part: torso })');
  assert.deepEqual(r.events, ['red']);
  assert.equal(r.skin, 'red');
  assert.ok(r.skinDiff > 500, `the red skin changes the picture (${r.skinDiff} pixels)`);
  assert.ok(r.red[0] - r.red[2] > r.before[0] - r.before[2], `and it is redder (${r.before} -> ${r.red})`);
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('dropping a .pk3 on the viewer page loads the player inside', { timeout: 120000 }, async () => {
  const zip = sargePk3().bytes;
  const page = await browser.newPage();
  await page.goto(`${browser.base}index.html`);
  await waitLoaded(page, '#viewer');
  const r = await page.evaluate(async (data) => {
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], 'sarge.pk3'));
    const loaded = new Promise((done, fail) => {
      viewer.addEventListener('load', (e) => done(e.detail), { once: true });
      viewer.addEventListener('error', (e) => fail(new Error(e.detail.message)), { once: true });
    });
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, cancelable: true }));
    const detail = await loaded;
    return { format: detail.format, name: viewer.info.name, parts: viewer._content.parts.map((p) => p.partName), skins: viewer.availableSkins };
  }, base64(zip));
  assert.equal(r.format, 'md3');
  assert.equal(r.name, 'sarge');
  assert.deepEqual(r.parts, ['lower', 'upper', 'head']);
  assert.ok(r.skins.includes('red'));
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('dropping a player folder from below the game root resolves its skins\' textures', { timeout: 120000 }, async () => {
  const page = await browser.newPage();
  await page.goto(`${browser.base}index.html`);
  await waitLoaded(page, '#viewer');
  const files = [...gameFiles().keys()];
  const r = await page.evaluate(async (paths) => {
    const transfer = new DataTransfer();
    const dropped = [];
    for (const p of paths) {
      const bytes = await (await fetch(`corpus/md3/openarena/${p}`)).arrayBuffer();
      // as if the user dropped the "players" folder: players/sarge/..., players/grism/...
      dropped.push(Object.assign(new File([bytes], p.split('/').pop()), { relativePath: p.replace(/^models\//, '') }));
    }
    const loaded = new Promise((done) => viewer.addEventListener('load', (e) => done(e.detail), { once: true }));
    viewer.load(dropped);
    const detail = await loaded;
    return { missing: detail.missingFiles, textures: viewer.info.meshes.map((m) => m.texture) };
  }, files);
  assert.ok(r.textures.every((t) => t === 'loaded'), `textures found (${r.textures}; missing ${r.missing})`);
  await page.close();
});

test('the viewer page opens a .pk3 URL from ?src= with the player options as parameters', { timeout: 120000 }, async () => {
  const zip = sargePk3().bytes;
  const page = await browser.newPage();
  await page.route(`${browser.base}downloads/sarge.pk3`, (route) => route.fulfill({ status: 200, contentType: 'application/zip', body: Buffer.from(zip) }));
  await page.goto(`${browser.base}index.html?src=downloads/sarge.pk3&legs=LEGS_RUN&torso=TORSO_ATTACK&skin=blue&loop=pingpong`);
  await waitLoaded(page, '#viewer');
  const r = await page.evaluate(() => ({
    name: viewer.info.name, skin: viewer.skin, legs: viewer._trackFor('legs').animation.name,
    torso: viewer._trackFor('torso').animation.name, loop: viewer._trackFor('legs').loop, paused: viewer.paused,
    legsOptions: [...viewer.shadowRoot.querySelector('[part=legs-select]').options].map((o) => o.value),
    skinChoice: viewer.shadowRoot.querySelector('[part=skin-select]').value,
    // The built-in UI: a timeline and a frame readout (frame / last · #global) per part.
    timelines: [...viewer.shadowRoot.querySelectorAll('[part~=timeline]')].map((e) => e.getAttribute('part')),
    labels: [...viewer.shadowRoot.querySelectorAll('[part=frame-label]')].map((e) => e.textContent),
  }));
  assert.equal(r.name, 'sarge');
  assert.equal(r.skin, 'blue');
  assert.equal(r.legs, 'LEGS_RUN');
  assert.equal(r.torso, 'TORSO_ATTACK');
  assert.equal(r.loop, 'pingpong');
  assert.deepEqual(r.timelines, ['timeline legs-timeline', 'timeline torso-timeline']);
  assert.equal(r.labels.length, 2);
  for (const label of r.labels) assert.match(label, /^\d+ \/ \d+ · #\d+$/);
  assert.equal(r.paused, false, 'the page autoplays');
  assert.ok(r.legsOptions.includes('LEGS_WALK') && r.legsOptions.includes('BOTH_DEATH1') && !r.legsOptions.includes('TORSO_GESTURE'),
    'the legs picker lists legs and both-part animations');
  assert.equal(r.skinChoice, 'blue', 'the skin picker shows the skin in use');
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('the lod attribute reloads the player from its _1/_2 files, keeping the animations', { timeout: 120000 }, async () => {
  const page = await sargePage('iq-sarge-lod.html', 'legs-animation="LEGS_WALK"');
  const r = await page.evaluate(async () => {
    const v = document.querySelector('interquake-viewer');
    const before = { vertices: v.info.vertices, legs: v._trackFor('legs').animation.name };
    const loaded = new Promise((done) => {
      const check = () => (v.info.vertices !== before.vertices ? done() : setTimeout(check, 20));
      check();
    });
    v.lod = 2;
    await loaded;
    v.renderFrame(0);
    return { before, after: { vertices: v.info.vertices, legs: v._trackFor('legs').animation.name }, pixels: (await iqPixels(v)).count };
  });
  assert.equal(r.before.legs, 'LEGS_WALK');
  assert.ok(r.after.vertices < r.before.vertices / 2, `LOD 2 has far fewer vertices (${r.before.vertices} -> ${r.after.vertices})`);
  assert.equal(r.after.legs, 'LEGS_WALK', 'the legs keep their animation');
  assert.ok(r.pixels > 1000, 'and it is drawn');
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('a player without a default skin (OpenArena\'s sorceress: red and blue only) shows its first skin, nothing missing', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-no-default.html', '<interquake-viewer style="width:160px;height:160px"></interquake-viewer>');
  const files = [...gameFiles().keys()].filter((p) => !/_default\.skin$/i.test(p));
  const r = await page.evaluate(async (paths) => {
    const v = document.querySelector('interquake-viewer');
    const object = {};
    for (const p of paths) object[p] = new Uint8Array(await (await fetch(`corpus/md3/openarena/${p}`)).arrayBuffer());
    await v.load(object);
    return { skin: v.skin, skins: v.availableSkins, missing: v.missingFiles, warnings: v._content.warnings.map((w) => w.message),
      textures: v.info.meshes.map((m) => m.texture) };
  }, files);
  assert.ok(!r.skins.includes('default') && r.skins.length > 0, `skins: ${r.skins}`);
  assert.equal(r.skin, r.skins[0]);
  assert.deepEqual(r.missing, []);
  assert.ok(r.textures.every((t) => t === 'loaded' || t === 'none'), `${r.textures}`);
  assert.deepEqual(browser.errors, []);
  await page.close();
});
