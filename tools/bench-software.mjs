// Measures the element's software drawer (renderer="software", web/viewer/software.js) in headless
// Chromium: the time of one drawn frame (renderFrame: posing, the C's drawing, putImageData) at
// common canvas sizes, with 1x1 and 2x2 samples per pixel, for mrfixit and the corpus player, and
// the same frames through WebGL (SwiftShader here: a real GPU is faster). Prints a Markdown table for
// docs/VIEWER.md ("Software drawing"). Not a test: figures depend on the machine and its load.
//   node tools/bench-software.mjs [frames per case]
import { readdirSync } from 'node:fs';
import { openBrowser } from '../tests/browser/lib/browser.mjs';
import { elementPage } from '../tests/browser/lib/viewer.mjs';

const OPENARENA = new URL('../../shared/corpus/md3/openarena/', import.meta.url);
const frames = Math.max(Number(process.argv[2]) || 15, 3);
const SIZES = [[300, 150], [512, 512], [1024, 768]];
const CASES = [
  { name: 'mrfixit (IQM, 2988 triangles, 2 TGAs)', files: { 'mrfixit.iqm': 'corpus/iqm/mrfixit/mrfixit.iqm', 'Body.tga': 'corpus/iqm/mrfixit/Body.tga', 'Head.tga': 'corpus/iqm/mrfixit/Head.tga' } },
  {
    name: 'sarge (Quake 3 player, 1524 triangles)',
    files: Object.fromEntries(['sarge', 'grism'].flatMap((folder) => readdirSync(new URL(`models/players/${folder}/`, OPENARENA))
      .map((f) => [`models/players/${folder}/${f}`, `corpus/md3/openarena/models/players/${folder}/${f}`]))),
  },
];

const browser = await openBrowser();
const rows = [];
for (const c of CASES) {
  const page = await elementPage(browser, 'bench-software.html',
    '<interquake-viewer id="soft" renderer="software"></interquake-viewer><interquake-viewer id="gl" renderer="webgl"></interquake-viewer>', 'interquake-viewer { position: absolute; left: 0; top: 0; }');
  await page.setViewportSize({ width: 1100, height: 800 });
  await page.waitForFunction(() => customElements.get('interquake-viewer'));
  const result = await page.evaluate(async ({ c, sizes, frames }) => {
    const bytes = {};
    for (const [name, url] of Object.entries(c.files)) bytes[name] = new Uint8Array(await (await fetch(url)).arrayBuffer());
    const out = [];
    const soft = document.getElementById('soft');
    const gl = document.getElementById('gl');
    await soft.load({ ...bytes });
    await gl.load({ ...bytes });
    const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const time = (v, n) => {
      const t0 = performance.now();
      v.renderFrame(n);
      return performance.now() - t0;
    };
    for (const [w, h] of sizes) {
      for (const v of [soft, gl]) v.style.cssText = `width:${w}px;height:${h}px`;
      const row = { size: `${w}x${h}` };
      for (const ss of [1, 2]) {
        soft._renderer.supersample = ss;
        time(soft, 0); // the first draw of a size allocates its target
        const ts = [];
        for (let i = 0; i < frames; i++) ts.push(time(soft, i % 10));
        row[`ss${ss}`] = median(ts);
      }
      time(gl, 0);
      const pixel = new Uint8Array(4);
      const ts = [];
      for (let i = 0; i < frames; i++) {
        // WebGL's work is done when a pixel of it can be read (readPixels waits for the GPU process).
        const t0 = performance.now();
        gl.renderFrame(i % 10);
        const g = gl._renderer.gl;
        g.readPixels(0, 0, 1, 1, g.RGBA, g.UNSIGNED_BYTE, pixel);
        ts.push(performance.now() - t0);
      }
      row.webgl = median(ts);
      out.push(row);
    }
    return out;
  }, { c, sizes: SIZES, frames });
  for (const r of result) rows.push({ name: c.name, ...r });
  await page.close();
}
await browser.close();

console.log('| model | canvas | software, 1x1 samples | software, 2x2 samples | WebGL (SwiftShader), drawn and read back |');
console.log('| --- | --- | --- | --- | --- |');
for (const r of rows) console.log(`| ${r.name} | ${r.size} | ${r.ss1.toFixed(1)} ms | ${r.ss2.toFixed(1)} ms | ${r.webgl.toFixed(1)} ms |`);
