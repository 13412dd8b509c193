// MD3, tags and TGA decoding give the same numbers in Chromium as in Node.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openBrowser } from './lib/browser.mjs';
import { init } from 'interquake';

const CORPUS = new URL('../../../shared/corpus/', import.meta.url).pathname;
let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

// Runs in both places: everything it returns must match.
async function summarise(iq, fetchBytes) {
  const upper = iq.load(await fetchBytes('md3/openarena/models/players/sarge/upper.md3'), { name: 'upper.md3' });
  const evaluated = upper.evaluate(77.25);
  let positionSum = 0;
  for (const x of evaluated.positions) positionSum += x;
  const skin = iq.decodeTGA(await fetchBytes('md3/openarena/models/players/grism/redskin.tga'));
  let pixelSum = 0;
  for (const x of skin.data) pixelSum += x;
  const out = {
    format: upper.format, vertices: upper.vertexCount, frames: upper.frameCount, tags: upper.tags,
    shaders: upper.meshes.map((m) => m.shaders), positionSum,
    tagHead: Array.from(upper.tagMatrix('tag_head', 33.5)),
    skin: [skin.width, skin.height, pixelSum],
  };
  upper.dispose();
  try { iq.decodeTGA(new Uint8Array(30)); } catch (e) { out.error = e.code; }
  return out;
}

test('sarge upper.md3 and an RLE skin decode the same in Chromium as in Node', async () => {
  const page = await browser.newPage();
  await page.goto(`${browser.base}index.html`);
  const inBrowser = await page.evaluate(async (source) => {
    const { init: initInPage } = await import('./interquake.js');
    const run = new Function('iq', 'fetchBytes', `return (${source})(iq, fetchBytes);`);
    return run(await initInPage(), async (path) => new Uint8Array(await (await fetch(`corpus/${path}`)).arrayBuffer()));
  }, summarise.toString());
  const inNode = await summarise(await init(), async (path) => readFileSync(CORPUS + path));
  assert.equal(inBrowser.format, 'md3');
  assert.deepEqual(inBrowser.skin.slice(0, 2), [512, 512]);
  assert.equal(inBrowser.error, 'bad_value');
  assert.deepEqual(inBrowser, inNode);
  assert.deepEqual(browser.errors, []);
});
