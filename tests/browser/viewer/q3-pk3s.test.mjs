// <interquake-viewer> given several .pk3s (and loose files) at once: they are joined as one Quake 3
// file system (iq.mountArchives), so a player whose textures live in another pk3 is whole.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from '../lib/browser.mjs';
import { waitLoaded } from '../lib/viewer.mjs';
import { gameFiles, SARGE, GRISM } from '../../js/lib/q3-corpus.mjs';
import { buildZip } from '../../js/lib/zip-build.mjs';

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

// sarge's folder (models, skins, animation.cfg) in one pk3; the grism textures its skins name in another.
const all = [...gameFiles()];
const pk3 = (prefix) => Buffer.from(buildZip(all.filter(([p]) => p.startsWith(`${prefix}/`)).map(([name, data]) => ({ name, data, deflate: !name.endsWith('.tga') }))).bytes).toString('base64');
const players = pk3(SARGE);
const textures = pk3(GRISM);
const grismFiles = all.filter(([p]) => p.startsWith(`${GRISM}/`)).map(([p, bytes]) => [p, Buffer.from(bytes).toString('base64')]);

async function viewerPage() {
  const page = await browser.newPage();
  await page.goto(`${browser.base}index.html`);
  await waitLoaded(page, '#viewer');
  return page;
}

test('dropping two pk3s and a broken one: the player is whole, the broken pk3 a warning', { timeout: 120000 }, async () => {
  const page = await viewerPage();
  const r = await page.evaluate(async ({ players, textures }) => {
    const bytes = (data) => Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    const drop = async (files) => {
      const transfer = new DataTransfer();
      for (const f of files) transfer.items.add(f);
      const loaded = new Promise((done, fail) => {
        viewer.addEventListener('load', (e) => done(e.detail), { once: true });
        viewer.addEventListener('error', (e) => fail(new Error(e.detail.message)), { once: true });
      });
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, cancelable: true }));
      const detail = await loaded;
      return {
        missing: detail.missingFiles, warnings: detail.warnings.map((w) => `${w.file}: ${w.code}`),
        textures: viewer.info.meshes.map((m) => m.texture), name: viewer.info.name, skins: viewer.availableSkins,
      };
    };
    const alone = await drop([new File([bytes(players)], 'pak2-players.pk3')]);
    // the textures pk3 first: the order of a drop does not matter
    const joined = await drop([new File([bytes(textures)], 'pak4-textures.pk3'), new File([new Uint8Array(64)], 'broken.pk3'),
      new File([bytes(players)], 'pak2-players.pk3')]);
    await viewer.setSkin('red');
    return { alone, joined, red: { missing: viewer.missingFiles, textures: viewer.info.meshes.map((m) => m.texture) } };
  }, { players, textures });
  assert.ok(r.alone.missing.some((p) => p.startsWith(`${GRISM}/`)), `alone, the grism textures are missing (${r.alone.missing})`);
  assert.equal(r.joined.name, 'sarge');
  assert.deepEqual(r.joined.missing, []);
  assert.ok(r.joined.textures.length >= 3 && r.joined.textures.every((t) => t === 'loaded'), `every surface textured (${r.joined.textures})`);
  assert.ok(r.joined.skins.includes('red') && r.joined.skins.includes('blue'));
  assert.ok(r.joined.warnings.includes('broken.pk3: unknown_format'), r.joined.warnings.join('; '));
  assert.deepEqual(r.red.missing, [], 'another skin, reloaded from the same file system');
  assert.ok(r.red.textures.every((t) => t === 'loaded'), `${r.red.textures}`);
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('a dropped game folder: a pk3 and loose files beside it, taken from the folder the pk3 is in', { timeout: 120000 }, async () => {
  const page = await viewerPage();
  const r = await page.evaluate(async ({ players, grismFiles }) => {
    const bytes = (data) => Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    const files = [Object.assign(new File([bytes(players)], 'pak2-players.pk3'), { relativePath: 'baseoa/pak2-players.pk3' })];
    for (const [path, data] of grismFiles) files.push(Object.assign(new File([bytes(data)], path.split('/').pop()), { relativePath: `baseoa/${path}` }));
    const loaded = new Promise((done) => viewer.addEventListener('load', (e) => done(e.detail), { once: true }));
    viewer.load(files);
    const detail = await loaded;
    return { missing: detail.missingFiles, textures: viewer.info.meshes.map((m) => m.texture), name: viewer.info.name };
  }, { players, grismFiles });
  assert.equal(r.name, 'sarge');
  assert.deepEqual(r.missing, []);
  assert.ok(r.textures.every((t) => t === 'loaded'), `${r.textures}`);
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('archives="...": more .pk3 URLs joined with a .pk3 src; one that cannot be fetched is a warning', { timeout: 120000 }, async () => {
  const page = await browser.newPage();
  const url = `${browser.base}iq-archives.html`;
  await page.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: `<!doctype html><html><head>
    <link rel="icon" href="data:,"><script type="module" src="interquake-viewer.js"></script></head><body>
    <interquake-viewer style="width:160px;height:160px"></interquake-viewer></body></html>` }));
  for (const [name, data] of [['players.pk3', players], ['textures.pk3', textures]]) {
    await page.route(`${browser.base}pk3/${name}`, (route) => route.fulfill({ status: 200, contentType: 'application/zip', body: Buffer.from(data, 'base64') }));
  }
  await page.goto(url);
  const r = await page.evaluate(async () => {
    await customElements.whenDefined('interquake-viewer');
    const v = document.querySelector('interquake-viewer');
    const load = (archives) => {
      const loaded = new Promise((done, fail) => {
        v.addEventListener('load', (e) => done(e.detail), { once: true });
        v.addEventListener('error', (e) => fail(new Error(e.detail.message)), { once: true });
      });
      if (archives === null) v.removeAttribute('archives'); else v.setAttribute('archives', archives);
      if (v.getAttribute('src') !== 'pk3/players.pk3') v.setAttribute('src', 'pk3/players.pk3');
      return loaded.then((detail) => ({
        missing: detail.missingFiles, warnings: detail.warnings.map((w) => `${w.file.split('/').pop()}: ${w.code}`),
        textures: v.info.meshes.map((m) => m.texture), name: v.info.name,
      }));
    };
    const alone = await load(null);
    const joined = await load('pk3/textures.pk3 pk3/nowhere.pk3');
    return { alone, joined, property: v.archives };
  });
  assert.ok(r.alone.missing.some((p) => p.startsWith(`${GRISM}/`)), `src alone: the grism textures are missing (${r.alone.missing})`);
  assert.equal(r.joined.name, 'sarge');
  assert.deepEqual(r.joined.missing, []);
  assert.ok(r.joined.textures.every((t) => t === 'loaded'), `${r.joined.textures}`);
  assert.ok(r.joined.warnings.includes('nowhere.pk3: fetch_failed'), r.joined.warnings.join('; '));
  assert.equal(r.property, 'pk3/textures.pk3 pk3/nowhere.pk3');
  assert.deepEqual(browser.errors, []);
  await page.close();
});
