// Measures the viewer in headless Chromium (SwiftShader, so GPU work is software: real GPUs are
// faster): the time from load() to the first drawn frame, for models given as bytes (no network)
// and by URL (local dev server). Prints a Markdown table for docs/VIEWER.md.
//   node tools/bench-viewer.mjs [runs]
import { readdirSync } from 'node:fs';
import { openBrowser } from '../tests/browser/lib/browser.mjs';
import { elementPage } from '../tests/browser/lib/viewer.mjs';

const OPENARENA = new URL('../../shared/corpus/md3/openarena/', import.meta.url);
const runs = Math.max(Number(process.argv[2]) || 6, 2);
const CASES = [
  { name: 'critter (demo, IQM)', files: { 'critter.iqm': 'demo/critter.iqm', 'critter.png': 'demo/critter.png' } },
  { name: 'mrfixit.iqm + 2 TGA', files: { 'mrfixit.iqm': 'corpus/iqm/mrfixit/mrfixit.iqm', 'Body.tga': 'corpus/iqm/mrfixit/Body.tga', 'Head.tga': 'corpus/iqm/mrfixit/Head.tga' } },
  {
    // Every file of the corpus's sarge folder (3 parts x 3 LODs, 7 skins, icons) and the grism textures its skins use.
    name: 'sarge player (lower/upper/head MD3, default skin, TGAs)',
    files: Object.fromEntries(['sarge', 'grism'].flatMap((folder) => readdirSync(new URL(`models/players/${folder}/`, OPENARENA))
      .map((f) => [`models/players/${folder}/${f}`, `corpus/md3/openarena/models/players/${folder}/${f}`]))),
    needs: 'loadPlayer',
  },
];

const browser = await openBrowser();
const rows = [];
for (const c of CASES) {
  // A fresh page per model, so its first load is cold: WASM compile, shader compile, texture upload.
  const page = await elementPage(browser, 'bench.html', '<interquake-viewer style="width:400px;height:400px"></interquake-viewer>');
  await page.waitForFunction(() => customElements.get('interquake-viewer'));
  const result = await page.evaluate(async ({ c, runs }) => {
    const t0 = performance.now();
    const { init } = await import('./interquake.js');
    const iq = await init();
    const initMs = performance.now() - t0;
    if (c.needs && typeof iq[c.needs] !== 'function') return { skipped: `this build has no iq.${c.needs}` };
    const v = document.querySelector('interquake-viewer');
    const bytes = {};
    for (const [name, url] of Object.entries(c.files)) {
      const r = await fetch(url);
      if (!r.ok) return { skipped: `${url}: HTTP ${r.status}` };
      bytes[name] = new Uint8Array(await r.arrayBuffer());
    }
    const firstFrame = (before) => new Promise((done) => {
      const check = () => (v._drawCount > before ? done() : requestAnimationFrame(check));
      check();
    });
    const times = [];
    for (let i = 0; i < runs; i++) {
      const before = v._drawCount;
      const t0 = performance.now();
      await v.load({ ...bytes });
      const loaded = performance.now();
      await firstFrame(before);
      times.push({ load: loaded - t0, frame: performance.now() - t0 });
    }
    const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    return {
      initMs, cold: times[0].frame,
      load: median(times.slice(1).map((t) => t.load)), frame: median(times.slice(1).map((t) => t.frame)),
      vertices: v.info.vertices, triangles: v.info.triangles,
    };
  }, { c, runs });
  rows.push({ name: c.name, ...result });
  await page.close();
}
await browser.close();
console.log('| model | vertices | triangles | first load: load() to first frame | then: load() resolved | then: first frame |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const r of rows) {
  if (r.skipped) console.log(`| ${r.name} | | | skipped: ${r.skipped} | | |`);
  else console.log(`| ${r.name} | ${r.vertices} | ${r.triangles} | ${r.cold.toFixed(1)} ms | ${r.load.toFixed(1)} ms | ${r.frame.toFixed(1)} ms |`);
}
console.log(`\nFirst load on a fresh page (WASM already compiled by init(): ${rows.filter((r) => r.initMs).map((r) => r.initMs.toFixed(0)).join('/')} ms), ` +
  `then the median of ${runs - 1} more loads; bytes already in memory; headless Chromium with SwiftShader.`);
