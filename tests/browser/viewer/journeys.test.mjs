// Sessions as people run them (../shared/docs/journeys.md), one action after another, with the
// state, the requests and the picture checked after each step: a modder on the viewer page (archives,
// the Model menu, skins, a loose model, a folder, a death then a change while paused, a failure, two
// overlapping loads), a site owner's page (each URL fetched once, whatever the attributes), framing,
// layout at phone and box sizes, the viewer page's address, and embed.html's hash and messages.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openBrowser } from '../lib/browser.mjs';
import { installPixelTools, waitLoaded } from '../lib/viewer.mjs';
import { gameFiles, SARGE, GRISM } from '../../js/lib/q3-corpus.mjs';
import { buildZip } from '../../js/lib/zip-build.mjs';
import { buildMD3 } from '../../js/lib/md3-build.mjs';

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

// pak2-players.pk3: sarge, and "tin" (sarge's models and animation.cfg with only the default skin);
// pak0.pk3: the grism textures both players' skins name. sarge.pk3: sarge and his textures in one.
const all = [...gameFiles()];
const TIN = 'models/players/tin';
const tinFiles = all.filter(([p]) => p.startsWith(`${SARGE}/`) && /\/(lower|upper|head)(_[12])?\.md3$|animation\.cfg$|_default\.skin$/.test(p))
  .map(([p, data]) => [p.replace(SARGE, TIN), data]);
const zip = (files) => Buffer.from(buildZip(files.map(([name, data]) => ({ name, data, deflate: !name.endsWith('.tga') }))).bytes);
// A gun 60 units long with a 30-unit barrel on its tag_barrel: it reaches far past the player.
function longGun() {
  const box = (name, x0, x1) => ({
    name, shaders: [], triangles: [[0, 1, 2], [0, 2, 3], [0, 2, 1], [0, 3, 2]], texcoords: [[0, 0], [1, 0], [1, 1], [0, 1]],
    frames: [[[x0, -3, -3], [x1, -3, -3], [x1, 3, 3], [x0, 3, 3]].map((xyz) => ({ xyz, normal: 0 }))],
  });
  const I = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  return [
    ['models/weapons2/gun/gun.md3', buildMD3({ tags: [{ name: 'tag_barrel', frames: [{ origin: [60, 0, 0], axes: I }] }], surfaces: [box('w_gun', 0, 60)] }).bytes],
    ['models/weapons2/gun/gun_barrel.md3', buildMD3({ surfaces: [box('w_barrel', 0, 30)] }).bytes],
  ];
}
const PK3 = {
  'armed.pk3': zip([...all, ...longGun()]),
  'pak0.pk3': zip(all.filter(([p]) => p.startsWith(`${GRISM}/`))),
  'pak2-players.pk3': zip([...all.filter(([p]) => p.startsWith(`${SARGE}/`)), ...tinFiles]),
  'sarge.pk3': zip(all),
};
const CORPUS = new URL('../../../../shared/corpus/', import.meta.url);
const MRFIXIT = ['mrfixit.iqm', 'Body.tga', 'Head.tga'].map((name) => [name, readFileSync(new URL(`iqm/mrfixit/${name}`, CORPUS))]);
const CRITTER = readFileSync(new URL('../../../web/demo/critter.iqm', import.meta.url));
const b64 = (bytes) => Buffer.from(bytes).toString('base64');

// Serves the fixtures under journey/ and logs every request to them (path and bytes sent).
async function serveJourney(page, { slow = 0 } = {}) {
  const log = [];
  const files = new Map([
    ...Object.entries(PK3).map(([name, data]) => [`journey/${name}`, data]),
    ...MRFIXIT.map(([name, data]) => [`journey/mrfixit/${name}`, data]),
    ['journey/alone/critter.iqm', CRITTER], // the demo without its texture
    ['journey/slow.pk3', PK3['sarge.pk3']],
  ]);
  await page.route(`${browser.base}journey/**`, async (route) => {
    const path = new URL(route.request().url()).pathname.slice(1);
    const body = files.get(path);
    log.push({ path, bytes: body?.length ?? 0 });
    if (path === 'journey/slow.pk3' && slow) await new Promise((done) => setTimeout(done, slow));
    await route.fulfill(body ? { status: 200, contentType: 'application/octet-stream', body } : { status: 404, body: 'not found' });
  });
  return log;
}

const count = (log, path) => log.filter((r) => r.path === path).length;

// In the page: helpers the steps share (wait for load or error, drop files, pick in a select, the picture).
async function installSteps(page) {
  await installPixelTools(page);
  await page.evaluate(() => {
    const bytes = (data) => Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    window.iqFile = ([name, data]) => new File([bytes(data)], name);
    window.iqSettle = (v) => new Promise((done) => {
      const finish = (e) => {
        v.removeEventListener('load', finish);
        v.removeEventListener('error', finish);
        done(e.type === 'load' ? { ok: true } : { ok: false, code: e.detail.code, message: e.detail.message });
      };
      v.addEventListener('load', finish);
      v.addEventListener('error', finish);
    });
    window.iqDrop = (files) => {
      const settled = iqSettle(viewer);
      const transfer = new DataTransfer();
      for (const f of files) transfer.items.add(iqFile(f));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, cancelable: true }));
      return settled;
    };
    window.iqPick = (v, part, value) => {
      const select = v.shadowRoot.querySelector(`[part~="${part}"]`);
      select.value = value;
      select.dispatchEvent(new Event('change'));
    };
    // The model drawn and whole: model pixels, none on the picture's edge.
    window.iqFramed = async (v) => {
      const p = await iqPixels(v);
      const inside = Boolean(p.box) && p.box.minX > 0 && p.box.minY > 0 && p.box.maxX < p.width - 1 && p.box.maxY < p.height - 1;
      return { count: p.count, box: p.box, inside, id: p.id, width: p.width, height: p.height };
    };
    window.iqState = (v) => ({
      name: v.info?.name ?? null, skin: v.skin, model: v.getAttribute('model'), skinAttribute: v.getAttribute('skin'),
      missing: v.missingFiles, warnings: v.warnings.map((w) => w.message), models: v.availableModels, skins: v.availableSkins,
      frames: Object.fromEntries(Object.entries(v.frames).map(([part, f]) => [part, f.animation])),
    });
  });
}

function assertFramed(shot, what) {
  assert.ok(shot.count > 400, `${what}: the model is drawn (${shot.count} pixels)`);
  assert.ok(shot.inside, `${what}: the model is whole in the picture, touching no edge (${JSON.stringify(shot.box)} in ${shot.width}x${shot.height})`);
}

test('a modder on the viewer page: archives, players, skins, a loose model, a folder, a death, a failure, overlapping loads', { timeout: 240000 }, async () => {
  const page = await browser.newPage();
  const log = await serveJourney(page, { slow: 2500 });
  await page.goto(`${browser.base}index.html`);
  await waitLoaded(page, '#viewer');
  await installSteps(page);
  const errors = [];
  await page.exposeFunction('iqErrorSeen', (m) => errors.push(m));
  await page.evaluate(() => {
    viewer.addEventListener('error', (e) => iqErrorSeen(`${e.detail.code}: ${e.detail.message}`));
    viewer.shadowRoot.querySelector('[part~="toggle-grid"]').click(); // the grid off: the picture is the model
  });
  const shots = [];
  const step = async (name, fn, args) => {
    const r = await page.evaluate(fn, args);
    shots.push([name, r.shot]);
    return r;
  };

  // 1. The game's archives together: the first player opens, both are in the Model menu.
  const opened = await step('archives', async (pk3s) => {
    const settled = await iqDrop(pk3s);
    viewer.renderFrame(0);
    return { settled, state: iqState(viewer), shot: await iqFramed(viewer) };
  }, [['pak0.pk3', PK3['pak0.pk3']], ['pak2-players.pk3', PK3['pak2-players.pk3']]].map(([n, d]) => [n, b64(d)]));
  assert.ok(opened.settled.ok, opened.settled.message);
  assert.equal(opened.state.name, 'sarge');
  assert.deepEqual(opened.state.models, [SARGE, TIN]);
  assert.deepEqual(opened.state.missing, []);

  // 2. Another player from the Model menu, then back to sarge and his red skin.
  const picked = await step('tin', async (tin) => {
    const settled = iqSettle(viewer);
    iqPick(viewer, 'model-select', tin);
    await settled;
    viewer.renderFrame(0);
    return { state: iqState(viewer), shot: await iqFramed(viewer) };
  }, TIN);
  assert.equal(picked.state.name, 'tin');
  assert.deepEqual(picked.state.skins, ['default']);
  const red = await step('sarge red', async (sarge) => {
    const settled = iqSettle(viewer);
    iqPick(viewer, 'model-select', sarge);
    await settled;
    const changed = new Promise((done) => viewer.addEventListener('skin-change', done, { once: true }));
    iqPick(viewer, 'skin-select', 'red');
    await changed;
    viewer.renderFrame(0);
    return { state: iqState(viewer), shot: await iqFramed(viewer) };
  }, SARGE);
  assert.equal(red.state.name, 'sarge');
  assert.equal(red.state.skin, 'red');
  assert.deepEqual(red.state.missing, []);

  // 3. The player without that skin: its own default skin, no missing .skin files, no warning.
  const lacking = await step('tin after red', async (tin) => {
    const settled = iqSettle(viewer);
    iqPick(viewer, 'model-select', tin);
    await settled;
    viewer.renderFrame(0);
    return { state: iqState(viewer), shot: await iqFramed(viewer) };
  }, TIN);
  assert.equal(lacking.state.name, 'tin');
  assert.equal(lacking.state.skin, 'default');
  assert.equal(lacking.state.skinAttribute, null, 'the skin chosen for sarge went with him');
  assert.deepEqual(lacking.state.missing, []);
  assert.ok(!lacking.state.warnings.some((w) => /red/.test(w)), lacking.state.warnings.join('; '));

  // 4. A death played to its end, then the standing animations chosen while paused: the new pose is drawn.
  const death = await step('death', async () => {
    viewer.setAnimation('BOTH_DEATH1');
    viewer.play();
    if (!viewer.paused || viewer.frames.legs.finished !== true) {
      await new Promise((done) => { const check = () => (viewer.paused && viewer.frames.legs.finished ? done() : setTimeout(check, 50)); check(); });
    }
    const corpse = await iqFramed(viewer);
    const corpseFrames = viewer.frames;
    iqPick(viewer, 'legs-select', 'LEGS_IDLE');
    iqPick(viewer, 'torso-select', 'TORSO_STAND');
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    const standing = await iqFramed(viewer);
    return { corpse, corpseFrames, paused: viewer.paused, state: iqState(viewer), shot: standing, diff: iqDiff(corpse.id, standing.id) };
  });
  shots.push(['corpse', death.corpse]);
  assert.equal(death.corpseFrames.legs.animation, 'BOTH_DEATH1');
  assert.ok(death.paused);
  assert.deepEqual(death.state.frames, { legs: 'LEGS_IDLE', torso: 'TORSO_STAND' });
  assert.ok(death.diff > 500, `the standing pose is drawn, not the corpse (${death.diff} pixels changed)`);
  const height = (s) => s.box.maxY - s.box.minY;
  const widthOf = (s) => s.box.maxX - s.box.minX;
  assert.ok(height(death.shot) / widthOf(death.shot) > height(death.corpse) / widthOf(death.corpse) * 1.3,
    `standing is taller for its width than lying (${JSON.stringify(death.shot.box)} vs ${JSON.stringify(death.corpse.box)})`);

  // 5. A loose model: it opens (the player picked before does not stick).
  const loose = await step('mrfixit', async (files) => {
    const settled = await iqDrop(files);
    viewer.renderFrame(0);
    return { settled, state: iqState(viewer), shot: await iqFramed(viewer) };
  }, MRFIXIT.map(([n, d]) => [n, b64(d)]));
  assert.ok(loose.settled.ok, loose.settled.message);
  assert.equal(loose.state.name, 'mrfixit.iqm');
  assert.equal(loose.state.model, null);

  // 6. "Open folder…": a player folder opens its own player, not the last pick.
  const folder = await step('folder', async (files) => {
    const input = document.getElementById('folder');
    const transfer = new DataTransfer();
    for (const f of files) transfer.items.add(iqFile(f));
    const settled = iqSettle(viewer);
    input.files = transfer.files;
    input.dispatchEvent(new Event('change'));
    const result = await settled;
    viewer.renderFrame(0);
    return { settled: result, state: iqState(viewer), shot: await iqFramed(viewer) };
  }, all.filter(([p]) => p.startsWith(`${SARGE}/`) && !/_[12]\.md3$/.test(p)).map(([p, d]) => [p.split('/').pop(), b64(d)]));
  assert.ok(folder.settled.ok, folder.settled.message);
  assert.notEqual(folder.state.name, 'tin');
  assert.deepEqual(Object.keys(folder.state.frames), ['legs', 'torso'], 'a player');

  // 7. A file that fails, then a good one.
  const failed = await page.evaluate(() => iqDrop([['noise.iqm', btoa('INTERQUAKEMODEL\0 not really')]]));
  assert.equal(failed.ok, false);
  const recovered = await step('after a failure', async (files) => {
    const settled = await iqDrop(files);
    viewer.renderFrame(0);
    const message = viewer.shadowRoot.querySelector('.message').classList.contains('shown');
    return { settled, message, state: iqState(viewer), shot: await iqFramed(viewer) };
  }, MRFIXIT.map(([n, d]) => [n, b64(d)]));
  assert.ok(recovered.settled.ok);
  assert.equal(recovered.message, false, 'the error message is gone');

  // 8. Two loads overlapping: a slow archive, then a model before it arrived. The bar ends done.
  const overlap = await page.evaluate(async (files) => {
    const slow = viewer.load('journey/slow.pk3').catch(() => 'superseded');
    await new Promise((done) => setTimeout(done, 300));
    const settled = await iqDrop(files);
    await slow;
    await new Promise((done) => setTimeout(done, 3000)); // the slow download has finished meanwhile
    const bar = viewer.shadowRoot.querySelector('[part="progress-bar"]');
    return { settled, name: viewer.info.name, active: bar.classList.contains('active'), width: bar.style.width };
  }, MRFIXIT.map(([n, d]) => [n, b64(d)]));
  assert.ok(overlap.settled.ok);
  assert.equal(overlap.name, 'mrfixit.iqm');
  assert.equal(overlap.active, false, `the progress bar is done (${overlap.width})`);

  for (const [name, shot] of shots) assertFramed(shot, name);
  assert.equal(errors.length, 1, `one error, the bad file's: ${errors.join('; ')}`);
  assert.match(errors[0], /noise\.iqm/);
  assert.equal(count(log, 'journey/slow.pk3'), 1);
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('a site owner\'s page: each URL fetched once, whatever the attributes; a missing texture costs one request', { timeout: 180000 }, async () => {
  const page = await browser.newPage();
  const log = await serveJourney(page);
  const url = `${browser.base}iq-journey-owner.html`;
  await page.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: `<!doctype html><html><head>
    <link rel="icon" href="data:,"><script type="module" src="interquake-viewer.js"></script>
    <style>interquake-viewer { width: 160px; height: 160px; display: inline-block }</style></head><body>
    <interquake-viewer id="mod" src="journey/pak2-players.pk3" archives="journey/pak0.pk3" model="${TIN}"></interquake-viewer>
    <interquake-viewer id="mod2" src="journey/pak2-players.pk3" archives="journey/pak0.pk3" model="${SARGE}" skin="red"></interquake-viewer>
    <interquake-viewer id="one" src="journey/sarge.pk3" model="${SARGE}"></interquake-viewer></body></html>` }));
  await page.goto(url);
  await waitLoaded(page);
  await installSteps(page);
  const first = await page.evaluate(() => [...document.querySelectorAll('interquake-viewer')].map((v) => ({ name: v.info.name, skin: v.skin, missing: v.missingFiles })));
  assert.deepEqual(first.map((f) => f.name), ['tin', 'sarge', 'sarge']);
  assert.equal(first[1].skin, 'red');
  assert.deepEqual(first.map((f) => f.missing), [[], [], []]);
  assert.deepEqual(log.map((r) => r.path).sort(), ['journey/pak0.pk3', 'journey/pak2-players.pk3', 'journey/sarge.pk3'],
    'README\'s mod-player case and src + model: each archive once for the whole page');
  const fetched = log.reduce((s, r) => s + r.bytes, 0);
  console.log(`# three elements, two of them the mod-player case: ${fetched} bytes fetched (${PK3['pak0.pk3'].length} + ${PK3['pak2-players.pk3'].length} + ${PK3['sarge.pk3'].length})`);

  // Another model of the same source, another skin, the same archives again: nothing more is fetched.
  const again = await page.evaluate(async (sarge) => {
    const v = document.getElementById('mod');
    const settled = iqSettle(v);
    v.model = sarge;
    await settled;
    const w = document.getElementById('mod2');
    const reloaded = iqSettle(w);
    w.archives = 'journey/pak0.pk3 '; // the same archive named again: reloads, from the page's downloads
    await reloaded;
    return { name: v.info.name, w: w.info.name, missing: w.missingFiles };
  }, SARGE);
  assert.deepEqual(again, { name: 'sarge', w: 'sarge', missing: [] });
  assert.equal(log.length, 3, `no new request: ${log.map((r) => r.path).join(', ')}`);

  // Another src: the old archive is let go; a model by URL whose texture is missing asks for it once.
  const held = await page.evaluate(async () => {
    const { heldUrls } = await import('./viewer/fetches.js');
    const v = document.getElementById('one');
    const settled = iqSettle(v);
    v.src = 'journey/alone/critter.iqm';
    await settled;
    return { held: heldUrls().map((u) => new URL(u).pathname), missing: v.missingFiles };
  });
  assert.deepEqual(held.missing, ['critter.png']);
  assert.deepEqual(log.slice(3).map((r) => r.path), ['journey/alone/critter.iqm', 'journey/alone/critter.png'], 'the missing texture: one request');
  assert.ok(!held.held.includes('/journey/sarge.pk3'), `sarge.pk3 released once no element shows it (${held.held})`);
  assert.ok(held.held.includes('/journey/pak2-players.pk3'), 'the archives still shown are kept');
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('framing: a running player, a death (the corpse stays in view) and mrfixit are drawn whole at every frame; the user\'s camera is kept', { timeout: 180000 }, async () => {
  const page = await browser.newPage();
  await serveJourney(page);
  const url = `${browser.base}iq-journey-framing.html`;
  await page.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: `<!doctype html><html><head>
    <link rel="icon" href="data:,"><script type="module" src="interquake-viewer.js"></script>
    <style>body { margin: 0 } interquake-viewer { width: 240px; height: 240px; display: inline-block }</style></head><body>
    <interquake-viewer id="player" src="journey/sarge.pk3" camera-controls></interquake-viewer>
    <interquake-viewer id="armed" src="journey/armed.pk3" weapon="gun"></interquake-viewer>
    <interquake-viewer id="fixit" src="journey/mrfixit/mrfixit.iqm" style="width: 320px; height: 200px"></interquake-viewer></body></html>` }));
  await page.goto(url);
  await waitLoaded(page);
  await installSteps(page);
  const r = await page.evaluate(async () => {
    const out = [];
    const sweep = async (v, animation, part, frames) => {
      const count = v.animations.find((a) => a.name === animation).frameCount;
      for (const f of frames(count)) {
        v.renderFrame(f, { animation, part });
        out.push({ what: `${v.id} ${animation} frame ${f}`, shot: await iqFramed(v) });
      }
    };
    const player = document.getElementById('player');
    const every = (step) => (n) => Array.from({ length: Math.ceil(n / step) }, (_, i) => i * step);
    await sweep(player, 'LEGS_RUN', 'legs', every(1));
    await sweep(player, 'BOTH_DEATH1', undefined, every(3));
    await sweep(player, 'BOTH_DEATH1', undefined, (n) => [n - 1]);
    const armed = document.getElementById('armed');
    out.push({ what: 'armed: weapon', weapon: armed.info.meshes.some((m) => m.name.startsWith('weapon')) });
    await sweep(armed, 'TORSO_ATTACK', 'torso', every(1));
    await sweep(armed, 'LEGS_RUN', 'legs', every(2));
    const fixit = document.getElementById('fixit');
    for (const a of fixit.availableAnimations) await sweep(fixit, a, undefined, every(4));
    return out;
  });
  assert.ok(r.find((x) => x.what === 'armed: weapon').weapon, 'the gun is in hand');
  for (const { what, shot } of r.filter((x) => x.shot)) assertFramed(shot, what);

  // The user moves the camera: a change of animation keeps it; updateFraming() fits again.
  const box = await page.locator('#player').boundingBox();
  await page.mouse.move(box.x + 120, box.y + 120);
  await page.mouse.down();
  await page.mouse.move(box.x + 150, box.y + 110, { steps: 4 });
  await page.mouse.up();
  const kept = await page.evaluate(() => {
    const v = document.getElementById('player');
    const before = String(v.getCameraOrbit());
    const moved = v.cameraMoved;
    v.setAnimation('LEGS_IDLE');
    const after = String(v.getCameraOrbit());
    v.updateFraming();
    return { before, after, moved, refit: String(v.getCameraOrbit()), movedAfterRefit: v.cameraMoved };
  });
  assert.ok(kept.moved);
  assert.equal(kept.after, kept.before, 'a change of animation does not undo the user\'s camera');
  assert.notEqual(kept.refit, kept.before);
  assert.equal(kept.movedAfterRefit, false);
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('layout: full controls leave the model most of a 600x600 box and a 375x667 phone; they fold, go fullscreen, show the background', { timeout: 180000 }, async () => {
  const page = await browser.newPage();
  await page.setViewportSize({ width: 800, height: 700 });
  await serveJourney(page);
  const url = `${browser.base}iq-journey-layout.html`;
  await page.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: `<!doctype html><html><head>
    <link rel="icon" href="data:,"><script type="module" src="interquake-viewer.js"></script>
    <style>body { margin: 0 } interquake-viewer { display: block }</style></head><body>
    <interquake-viewer id="box" src="journey/sarge.pk3" controls="full" background="#335" style="width:600px;height:600px"></interquake-viewer>
    <interquake-viewer id="phone" src="journey/sarge.pk3" controls="full" style="width:375px;height:667px"></interquake-viewer></body></html>` }));
  await page.goto(url);
  await waitLoaded(page);
  const measure = () => page.evaluate(() => [...document.querySelectorAll('interquake-viewer')].map((v) => {
    const host = v.getBoundingClientRect();
    const canvas = v.shadowRoot.querySelector('canvas').getBoundingClientRect();
    const controls = v.shadowRoot.querySelector('[part=controls]').getBoundingClientRect();
    return { id: v.id, share: (canvas.width * canvas.height) / (host.width * host.height), controls: controls.height, inside: controls.bottom <= host.bottom + 0.5,
      expanded: v.shadowRoot.querySelector('[part~="more-button"]').getAttribute('aria-expanded'),
      swatch: v.shadowRoot.querySelector('[part~="background-input"]').value };
  }));
  const folded = await measure();
  for (const m of folded) {
    assert.equal(m.expanded, 'false', `${m.id}: the settings start folded on an element this size`);
    assert.ok(m.share > 0.85, `${m.id}: the model keeps ${Math.round(m.share * 100)}% of the element`);
    assert.ok(m.controls <= 64 && m.inside, `${m.id}: the controls are one row (${m.controls} px)`);
  }
  assert.equal(folded[0].swatch, '#333355', 'the swatch shows background="#335"');
  assert.equal(folded[1].swatch, '#21252b', 'without the attribute, the colour drawn');
  await page.locator('#phone').evaluate((v) => v.shadowRoot.querySelector('[part~="more-button"]').click());
  const open = (await measure())[1];
  assert.equal(open.expanded, 'true');
  assert.ok(open.share > 0.5 && open.inside, `unfolded, the model still keeps ${Math.round(open.share * 100)}%`);
  const select = await page.locator('#phone').evaluate((v) => {
    const s = v.shadowRoot.querySelector('[part~="legs-select"]').getBoundingClientRect();
    return s.height > 0 && s.bottom <= v.getBoundingClientRect().bottom;
  });
  assert.ok(select, 'the legs picker is reachable');
  // Fullscreen from the button (a user's click), and back.
  await page.locator('#box').evaluate((v) => v.scrollIntoView());
  const button = page.locator('#box').locator('[part~="fullscreen-button"]');
  await button.click();
  await page.waitForFunction(() => document.fullscreenElement?.id === 'box');
  const full = await page.evaluate(() => { const r = document.getElementById('box').getBoundingClientRect(); return [r.width, r.height]; });
  assert.deepEqual(full, [800, 700], 'the element fills the screen');
  await button.click();
  await page.waitForFunction(() => !document.fullscreenElement);
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('the viewer page\'s address follows the view: model, skin, animations, overlays and camera; the link opens the same view', { timeout: 180000 }, async () => {
  const page = await browser.newPage();
  await serveJourney(page);
  await page.goto(`${browser.base}index.html?src=journey/pak2-players.pk3&archives=journey/pak0.pk3`);
  await waitLoaded(page, '#viewer');
  await installSteps(page);
  await page.evaluate(async (tin) => {
    const settled = iqSettle(viewer);
    iqPick(viewer, 'model-select', tin);
    await settled;
  }, TIN);
  await page.evaluate(async (sarge) => {
    const settled = iqSettle(viewer);
    iqPick(viewer, 'model-select', sarge);
    await settled;
    const changed = new Promise((done) => viewer.addEventListener('skin-change', done, { once: true }));
    iqPick(viewer, 'skin-select', 'blue');
    await changed;
    iqPick(viewer, 'legs-select', 'LEGS_WALK');
    iqPick(viewer, 'torso-select', 'TORSO_GESTURE');
    viewer.shadowRoot.querySelector('[part~="toggle-tags"]').click();
  }, SARGE);
  const box = await page.locator('#viewer').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 3);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 3 + 20, { steps: 4 });
  await page.mouse.up();
  await page.waitForFunction(() => /camera-orbit/.test(location.search), null, { timeout: 5000 });
  const view = async (p) => p.evaluate(() => ({
    search: location.search, name: viewer.info.name, skin: viewer.skin, show: [...viewer.show].sort(),
    frames: Object.fromEntries(Object.entries(viewer.frames).map(([part, f]) => [part, f.animation])),
    orbit: viewer.getCameraOrbit(), target: viewer.getCameraTarget(),
  }));
  const shown = await view(page);
  const params = new URLSearchParams(shown.search);
  assert.equal(params.get('model'), SARGE);
  assert.equal(params.get('skin'), 'blue');
  assert.equal(params.get('legs'), 'LEGS_WALK');
  assert.equal(params.get('archives'), 'journey/pak0.pk3');
  const embed = await page.evaluate(() => document.getElementById('embed').getAttribute('href'));
  assert.equal(embed, `embed.html#${shown.search.slice(1)}`, 'the embed link shows the same view');
  const copy = await browser.newPage();
  await serveJourney(copy);
  await copy.goto(`${browser.base}index.html${shown.search}`);
  await waitLoaded(copy, '#viewer');
  await copy.waitForFunction(() => viewer.frames.legs?.animation === 'LEGS_WALK');
  const opened = await view(copy);
  assert.equal(opened.name, 'sarge');
  assert.equal(opened.skin, 'blue');
  assert.deepEqual(opened.show, ['grid', 'tags'].filter((f) => shown.show.includes(f)));
  assert.deepEqual(opened.frames, shown.frames);
  for (const k of ['theta', 'phi', 'radius']) assert.ok(Math.abs(opened.orbit[k] - shown.orbit[k]) < 1e-3 * Math.max(1, Math.abs(shown.orbit[k])), `camera ${k}`);
  for (const k of ['x', 'y', 'z']) assert.ok(Math.abs(opened.target[k] - shown.target[k]) < 1e-2, `target ${k}`);
  // From the shared view, the friend opens a loose model: what the link named does not stick to it.
  await installSteps(copy);
  const next = await copy.evaluate(async (files) => {
    const settled = await iqDrop(files);
    await new Promise((done) => setTimeout(done, 400));
    return { settled, name: viewer.info?.name, search: location.search, model: viewer.getAttribute('model') };
  }, MRFIXIT.map(([n, d]) => [n, b64(d)]));
  assert.ok(next.settled.ok, next.settled.message);
  assert.equal(next.name, 'mrfixit.iqm');
  assert.equal(next.model, null);
  assert.equal(next.search, '', 'dropped files have no address');
  assert.deepEqual(browser.errors, []);
  await copy.close();
  await page.close();
});

test('embed.html: a hint without a hash; each new hash starts from the defaults; timeupdate at most a few times a second', { timeout: 180000 }, async () => {
  const empty = await browser.newPage();
  await empty.goto(`${browser.base}embed.html`);
  await empty.waitForFunction(() => window.interquakeReady);
  const hint = await empty.evaluate(() => { const e = document.getElementById('empty'); return { hidden: e.hidden, text: e.textContent, height: e.getBoundingClientRect().height }; });
  assert.equal(hint.hidden, false);
  assert.match(hint.text, /#src=/);
  assert.ok(hint.height > 0);
  await empty.close();

  const page = await browser.newPage();
  await serveJourney(page);
  const host = `${browser.base}iq-journey-embed.html`;
  await page.route(host, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: `<!doctype html><html><body>
    <iframe id="frame" src="embed.html#src=journey/sarge.pk3&skin=red&bg=transparent&show=tags&legs=LEGS_RUN&autoplay=1" width="240" height="240"></iframe></body></html>` }));
  await page.goto(host);
  const r = await page.evaluate(async () => {
    const frame = document.getElementById('frame');
    const messages = [];
    addEventListener('message', (e) => messages.push({ ...e.data, at: performance.now() }));
    const waitFor = (test, from = 0) => new Promise((done) => {
      const check = () => { const m = messages.slice(from).find(test); if (m) done(m); else setTimeout(check, 20); };
      check();
    });
    await waitFor((m) => m.name === 'load');
    const inner = frame.contentWindow;
    const v = inner.viewer;
    const first = { skin: v.skin, background: v.getAttribute('background'), show: v.getAttribute('show'), legs: v.frames.legs.animation,
      hint: inner.document.getElementById('empty').hidden };
    // Two seconds of playing: how many timeupdate messages reach the parent.
    const start = messages.length;
    await new Promise((done) => setTimeout(done, 2000));
    const updates = messages.slice(start).filter((m) => m.name === 'timeupdate');
    const drawn = v._drawCount;
    // A new hash with the same model and none of those options: the defaults again.
    const at = messages.length;
    inner.location.hash = '#src=journey/sarge.pk3&torso=TORSO_GESTURE';
    await waitFor((m) => m.name === 'load', at);
    const second = { skin: v.skin, background: v.getAttribute('background'), show: v.getAttribute('show'), legs: v.frames.legs.animation,
      torso: v.frames.torso.animation, controls: v.getAttribute('controls'), cameraControls: v.hasAttribute('camera-controls'), autoplay: v.autoplay };
    return { first, second, updates: updates.length, spacing: updates.slice(1).map((m, i) => m.at - updates[i].at), drawn };
  });
  assert.deepEqual(r.first, { skin: 'red', background: 'transparent', show: 'tags', legs: 'LEGS_RUN', hint: true });
  assert.deepEqual(r.second, { skin: 'default', background: null, show: null, legs: 'LEGS_IDLE', torso: 'TORSO_GESTURE', controls: 'minimal', cameraControls: true, autoplay: false });
  // At most one every 250 ms (arrival times in the parent jitter on a busy machine: the count is what is checked).
  assert.ok(r.updates >= 4 && r.updates <= 10, `timeupdate reached the parent ${r.updates} times in 2 s, while ${r.drawn} frames were drawn`);
  await page.close();
});
