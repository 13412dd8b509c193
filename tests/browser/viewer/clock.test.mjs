// The element's playback answers are the library's: its duration and its frame at a time (seek,
// then read) equal model.frameAt for the same file, in headless Chromium; the loop mode that plays
// is the one availableAnimations reports; `load` comes before `play` with autoplay.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from '../lib/browser.mjs';
import { elementPage, waitLoaded } from '../lib/viewer.mjs';

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

const VWEP = 'corpus/iqe/unvanquished/weapons/level1/vwep_view.iqe';
const MRFIXIT = 'corpus/iqm/mrfixit/mrfixit.iqm';
const DEMO = 'demo/critter.iqm';

test('duration and the frame at a time (seek then read) equal the library\'s, vwep_view.iqe "fire" included', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-clock.html',
    `<interquake-viewer id="vwep" src="${VWEP}" style="width:80px;height:80px"></interquake-viewer>` +
    `<interquake-viewer id="fixit" src="${MRFIXIT}" style="width:80px;height:80px"></interquake-viewer>` +
    `<interquake-viewer id="demo" src="${DEMO}" style="width:80px;height:80px"></interquake-viewer>`);
  await waitLoaded(page);
  const r = await page.evaluate(async ({ VWEP, MRFIXIT, DEMO }) => {
    const { init } = await import('./interquake.js');
    const iq = await init();
    const cases = [['vwep', VWEP, ['fire', 'idle', 'fire3']], ['fixit', MRFIXIT, ['idle']], ['demo', DEMO, ['hop', 'walk', 'look']]];
    const times = [0, 0.01, 0.1, 0.2345, 0.5, 0.77, 1.3];
    const out = [];
    for (const [id, url, names] of cases) {
      const v = document.getElementById(id);
      const model = iq.load(new Uint8Array(await (await fetch(url)).arrayBuffer()), { name: url });
      for (const name of names) {
        v.setAnimation(name, { crossfade: 0 });
        const listed = v.animations.find((a) => a.name === name);
        const loop = listed.loop ? 'repeat' : 'once';
        const row = { id, name, loop, played: v.frames.both.loop, duration: v.duration, libraryDuration: model.frameAt(name, 0, { loop }).duration, listedDuration: listed.duration, frames: [] };
        for (const t of times) {
          v.seek(t);
          const h = model.frameAt(name, t, { loop });
          row.frames.push({ t, frame: v.currentFrame, global: v.frames.both.globalFrame, position: h.position, frameA: h.frameA });
        }
        out.push(row);
      }
      model.dispose();
    }
    return out;
  }, { VWEP, MRFIXIT, DEMO });
  let differing = 0;
  for (const row of r) {
    const same = row.duration === row.libraryDuration && row.listedDuration === row.libraryDuration && row.loop === row.played
      && row.frames.every((f) => Math.abs(f.frame - f.position) < 1e-6 && f.global === f.frameA);
    if (!same) differing++;
    assert.ok(same, `${row.id} ${row.name}: ${JSON.stringify(row)}`);
  }
  assert.equal(differing, 0);
  const fire = r.find((row) => row.id === 'vwep' && row.name === 'fire');
  assert.ok(Math.abs(fire.duration - 0.5) < 1e-12, `fire lasts 0.500 s in the element (${fire.duration})`);
  const hop = r.find((row) => row.name === 'hop');
  assert.equal(hop.played, 'once', 'hop is non-looping in the file: it plays once, and is listed as such');
  assert.equal(r.find((row) => row.name === 'walk').played, 'repeat');
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('autoplay: load fires before play; hop plays once and finishes', { timeout: 120000 }, async () => {
  const page = await elementPage(browser, 'iq-clock-order.html', '');
  const r = await page.evaluate(async (DEMO) => {
    await customElements.whenDefined('interquake-viewer');
    const v = document.createElement('interquake-viewer');
    const order = [];
    for (const type of ['load', 'play', 'finished', 'pause']) v.addEventListener(type, () => order.push(type));
    v.setAttribute('autoplay', '');
    v.setAttribute('animation-name', 'hop');
    v.setAttribute('time-scale', '4');
    v.style.cssText = 'width:80px;height:80px;display:block';
    document.body.append(v);
    v.src = DEMO;
    await new Promise((done) => v.addEventListener('finished', done, { once: true }));
    await new Promise((done) => setTimeout(done, 100));
    return { order, frame: v.currentFrame, frameCount: v.frameCount, paused: v.paused, loop: v.frames.both.loop };
  }, DEMO);
  assert.deepEqual(r.order, ['load', 'play', 'finished', 'pause']);
  assert.equal(r.loop, 'once');
  assert.equal(r.frame, r.frameCount - 1, 'held on its last frame');
  assert.equal(r.paused, true);
  assert.deepEqual(browser.errors, []);
  await page.close();
});
