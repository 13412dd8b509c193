// Archives in Chromium: a pk3 written in Node (deflated and stored entries) opens in the
// page with fflate's browser build, reads back byte for byte, and feeds parseAnimationConfig.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openBrowser } from './lib/browser.mjs';
import { buildZip, crc32 } from '../js/lib/zip-build.mjs';
import { gameFiles, SARGE } from '../js/lib/q3-corpus.mjs';

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

test('openArchive in the browser: fflate from a script tag, deflate and stored entries, CRC checked', async () => {
  const files = gameFiles();
  const chosen = ['animation.cfg', 'upper_red.skin', 'head.md3', 'icon_red.tga'].map((n) => `${SARGE}/${n}`);
  const zip = buildZip(chosen.map((name, i) => ({ name, data: files.get(name), deflate: i % 2 === 0 })));
  const page = await browser.newPage();
  await page.goto(`${browser.base}index.html`);
  await page.addScriptTag({ content: readFileSync(new URL('../../node_modules/fflate/umd/index.js', import.meta.url), 'utf8') });
  const result = await page.evaluate(async (base64) => {
    const { init } = await import('./interquake.js');
    const iq = await init();
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const archive = await iq.openArchive(bytes, { name: 'test.pk3' });
    const sizes = archive.files.map((f) => [f, archive.read(f).length]);
    const cfg = iq.parseAnimationConfig(archive.read('MODELS\\PLAYERS\\SARGE\\ANIMATION.CFG'));
    // sum of bytes, to compare contents cheaply
    const sums = archive.files.map((f) => archive.read(f).reduce((a, b) => (a + b) >>> 0, 0));
    return { sizes, sums, players: archive.players, legsSkip: cfg.legsSkip, run: cfg.animations[15].firstFrame };
  }, Buffer.from(zip.bytes).toString('base64'));
  assert.deepEqual(result.sizes, chosen.map((n) => [n, files.get(n).length]));
  assert.deepEqual(result.sums, chosen.map((n) => files.get(n).reduce((a, b) => (a + b) >>> 0, 0)));
  assert.equal(result.legsSkip, 63);
  assert.equal(result.run, 110);
  assert.deepEqual(result.players, []); // no lower/upper here: not a player
  assert.ok(zip.entries.every((e) => e.crc === crc32(e.data)));
  assert.deepEqual(browser.errors, []);
});
