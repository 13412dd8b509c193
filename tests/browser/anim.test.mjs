// The animator in headless Chromium gives bit-for-bit the results it gives in Node: playback in time
// with a crossfade, 4x4 skin matrices, joint queries and an attached animation-only file.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openBrowser } from './lib/browser.mjs';
import { init } from 'interquake';

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

// Runs in the page and in Node alike.
async function scenario(iq, read) {
  const guy = iq.load(await read('iqm/raylib/guy.iqm'), { name: 'guy.iqm' });
  const anims = iq.load(await read('iqm/raylib/guyanim.iqm'), { name: 'guyanim.iqm' });
  const added = guy.attachAnimations(anims).map((a) => `${a.name}@${a.firstFrame}`);
  const s = guy.sample('dance', 1.23, { loop: 'pingpong', layout: '4x4', crossfade: { animation: 2, time: 0.4, weight: 0.35 } });
  const out = {
    added, frameA: s.frameA, frameB: s.frameB, blend: s.blend, loops: s.loops,
    positions: Array.from(s.positions), normals: Array.from(s.normals ?? []), skin: Array.from(s.skinMatrices),
    joint: Array.from(guy.jointMatrix(5, 'jump', 0.61, { speed: -1 })),
    finished: guy.frameAt('jump', 99).finished,
  };
  guy.dispose();
  anims.dispose();
  return out;
}

test('pose, crossfade, joint matrix and attach agree between Chromium and Node', async () => {
  const page = await browser.newPage();
  await page.goto(`${browser.base}index.html`);
  const inBrowser = await page.evaluate(async (source) => {
    const { init } = await import('./interquake.js');
    const iq = await init();
    const read = async (path) => new Uint8Array(await (await fetch(`corpus/${path}`)).arrayBuffer());
    // eslint-disable-next-line no-new-func
    return (new Function(`return ${source}`))()(iq, read);
  }, scenario.toString());
  const iq = await init();
  const inNode = await scenario(iq, async (path) => new Uint8Array(readFileSync(new URL(`../../../shared/corpus/${path}`, import.meta.url))));
  assert.deepEqual(inBrowser.added, ['jump@122', 'dance@183']);
  assert.equal(inBrowser.finished, true);
  assert.deepEqual(inBrowser, inNode);
  assert.deepEqual(browser.errors, []);
});
