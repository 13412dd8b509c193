// A Quake 3 player assembled in Chromium from the corpus files the dev server serves:
// the same animations, skins and tag placements as in Node.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from './lib/browser.mjs';
import { init } from 'interquake';
import { relativeFiles } from '../js/lib/q3-corpus.mjs';

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

const STATE = { legs: { animation: 'LEGS_RUN', time: 0.37 }, torso: { animation: 'TORSO_ATTACK', time: 0.12 } };

test('loadPlayer in the browser matches Node', async () => {
  const page = await browser.newPage();
  await page.goto(`${browser.base}index.html`);
  const inPage = await page.evaluate(async (state) => {
    const { init } = await import('./interquake.js');
    const iq = await init();
    const base = 'corpus/md3/openarena/models/';
    const names = ['lower.md3', 'upper.md3', 'head.md3', 'animation.cfg', 'lower_red.skin', 'upper_red.skin', 'head_red.skin'];
    const files = {};
    for (const n of names) files[n] = new Uint8Array(await (await fetch(`${base}players/sarge/${n}`)).arrayBuffer());
    files['models/players/grism/redskin.tga'] = new Uint8Array(await (await fetch(`${base}players/grism/redskin.tga`)).arrayBuffer());
    const player = iq.loadPlayer(files, { skin: 'red' });
    const pose = player.pose(state);
    const out = {
      skins: player.skins, missing: player.missingFiles, textures: player.surfaces.upper.map((s) => s.texture),
      frames: [pose.lower.frame, pose.upper.frame], upper: [...pose.upper.matrix], head: [...pose.head.matrix],
    };
    player.dispose();
    return out;
  }, STATE);
  const iq = await init();
  const files = relativeFiles();
  const player = iq.loadPlayer(files, { skin: 'red' });
  const pose = player.pose(STATE);
  assert.deepEqual(inPage.skins, ['red']); // only the red skin files were fetched
  assert.deepEqual(inPage.missing, []);
  assert.deepEqual(inPage.textures, ['models/players/grism/redskin.tga']);
  assert.deepEqual(inPage.frames, [pose.lower.frame, pose.upper.frame]);
  assert.deepEqual(inPage.upper, [...pose.upper.matrix]);
  assert.deepEqual(inPage.head, [...pose.head.matrix]);
  player.dispose();
  assert.deepEqual(browser.errors, []);
});
