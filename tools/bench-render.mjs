// node tools/bench-render.mjs [REPS]: a 512x512 picture of mrfixit and of the corpus player (sarge)
// with iq.render() in Node, against the same picture taken through headless Chromium as a
// thumbnail service would (launch the browser, load a page with <interquake-viewer>, renderFrame,
// toBlob), side by side in one run; then a 36-frame turntable and the batch over the corpus
// (`interquake render --out-dir`). Prints medians and ratios; never fails on speed (docs/RENDER.md).
//
// Node, "poster": a whole iq.render() call from a loaded model or player (textures decoded,
// framing over the animation, drawing, resolving) plus encodePNG. "draw": one frame of
// renderAnimation() once the scene is set up. Browser, "cold": launch + load + renderFrame +
// toBlob; "warm": renderFrame + toBlob in a page already loaded.
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { init } from '../web/interquake.node.js';
import { openTarget } from '../bin/cli/targets.mjs';
import { openBrowser } from '../tests/browser/lib/browser.mjs';
import { gameFiles } from '../tests/js/lib/q3-corpus.mjs';

const reps = Number(process.argv[2]) || 7;
const corpus = fileURLToPath(new URL('../../shared/corpus/', import.meta.url));
const SIZE = 512;
const iq = await init();
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const ms = (v) => `${v.toFixed(1)} ms`;

async function timeIt(fn, n = reps) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

// -- Node
const mrfixitPath = join(corpus, 'iqm/mrfixit/mrfixit.iqm');
const mrfixit = iq.load(readFileSync(mrfixitPath), { name: 'mrfixit.iqm' });
const files = (name) => { try { return readFileSync(join(corpus, 'iqm/mrfixit', name)); } catch { return null; } };
const { player } = await openTarget(iq, join(corpus, 'md3/openarena/models/players/sarge'));
const subjects = [
  { name: 'mrfixit', target: mrfixit, options: { files }, path: mrfixitPath },
  { name: 'sarge (player)', target: player, options: {}, path: join(corpus, 'md3/openarena/models/players/sarge') },
];
const node = {};
for (const s of subjects) {
  await iq.render(s.target, { width: SIZE, height: SIZE, ...s.options }); // warm up
  const poster = await timeIt(async () => iq.encodePNG(await iq.render(s.target, { width: SIZE, height: SIZE, ...s.options })));
  const render = await timeIt(() => iq.render(s.target, { width: SIZE, height: SIZE, ...s.options }));
  const frames = 12;
  const anim = await timeIt(() => iq.renderAnimation(s.target, { width: SIZE, height: SIZE, frames, ...s.options }), 3);
  const setup = await timeIt(() => iq.renderAnimation(s.target, { width: SIZE, height: SIZE, frames: 1, ...s.options }), 3);
  // What a thumbnail service does per upload, in a process already running: read the files, load
  // the model or player, render, encode (textures decoded and framing found afresh).
  const fresh = await timeIt(async () => {
    const opened = await openTarget(iq, s.path);
    const subject = opened.player ?? opened.model;
    await iq.encodePNG(await iq.render(subject, { width: SIZE, height: SIZE, ...(opened.player ? {} : { files: s.options.files }) }));
    subject.dispose();
  });
  node[s.name] = { poster, render, fresh, draw: (anim - setup) / (frames - 1) };
}

// -- Headless Chromium: launch, load, renderFrame, toBlob
async function browserPicture(subject, warmReps) {
  const t0 = performance.now();
  const browser = await openBrowser();
  try {
    const page = await browser.newPage();
    const url = `${browser.base}iq-bench-render.html`;
    const html = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<style>body{margin:0}</style><script type="module" src="interquake-viewer.min.js"></script></head>
<body><interquake-viewer ${subject === 'mrfixit' ? 'src="corpus/iqm/mrfixit/mrfixit.iqm"' : ''} style="width:${SIZE}px;height:${SIZE}px"></interquake-viewer></body></html>`;
    await page.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: html }));
    await page.goto(url);
    if (subject !== 'mrfixit') {
      const paths = [...gameFiles().keys()];
      await page.evaluate(async (list) => {
        await customElements.whenDefined('interquake-viewer');
        const object = {};
        for (const p of list) object[p] = new Uint8Array(await (await fetch(`corpus/md3/openarena/${p}`)).arrayBuffer());
        await document.querySelector('interquake-viewer').load(object);
      }, paths);
    }
    await page.waitForFunction(() => document.querySelector('interquake-viewer')?.loaded, null, { timeout: 120000 });
    const bytes = await page.evaluate(async () => {
      const v = document.querySelector('interquake-viewer');
      v.renderFrame(0);
      return (await v.toBlob()).size;
    });
    const cold = performance.now() - t0;
    const warm = [];
    for (let i = 0; i < warmReps; i++) {
      warm.push(await page.evaluate(async () => {
        const v = document.querySelector('interquake-viewer');
        const t = performance.now();
        v.renderFrame(0);
        await v.toBlob();
        return performance.now() - t;
      }));
    }
    return { cold, warm: median(warm), bytes };
  } finally {
    await browser.close();
  }
}

const browserTimes = {};
for (const [name, key] of [['mrfixit', 'mrfixit'], ['sarge (player)', 'sarge']]) {
  const runs = [];
  for (let i = 0; i < Math.min(reps, 3); i++) runs.push(await browserPicture(key, 3));
  browserTimes[name] = { cold: median(runs.map((r) => r.cold)), warm: median(runs.map((r) => r.warm)) };
}

console.log(`512x512, median of ${reps} (browser cold: of ${Math.min(reps, 3)}); Node ${process.version}, ${iq.simd ? 'SIMD' : 'baseline'} WASM, 2x2 samples`);
console.log('| picture | from the files (read, load, iq.render, encodePNG) | iq.render + encodePNG, loaded | draw only (per frame) | headless Chromium cold (launch, load, renderFrame, toBlob) | warm (renderFrame, toBlob) | cold / from the files | warm / loaded |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const name of Object.keys(node)) {
  const n = node[name];
  const b = browserTimes[name];
  console.log(`| ${name} | ${ms(n.fresh)} | ${ms(n.poster)} | ${ms(n.draw)} | ${ms(b.cold)} | ${ms(b.warm)} | ${(b.cold / n.fresh).toFixed(0)}x | ${(b.warm / n.poster).toFixed(1)}x |`);
}

// -- Turntable and batch
const turn = await timeIt(() => iq.renderAnimation(player, { width: 256, height: 256, frames: 36, turntable: true }), 3);
console.log(`turntable: sarge, 36 frames of 256x256 in ${ms(turn)} (${(36000 / turn).toFixed(0)} frames/s), + encodeAPNG:`,
  ms(await timeIt(async () => iq.encodeAPNG(await iq.renderAnimation(player, { width: 256, height: 256, frames: 36, turntable: true })), 3)));
const out = mkdtempSync(join(tmpdir(), 'iq-bench-render-'));
try {
  const bin = fileURLToPath(new URL('../bin/interquake.mjs', import.meta.url));
  const t = performance.now();
  const r = spawnSync(process.execPath, [bin, 'render', '--out-dir', out, corpus, '--size', '256'], { encoding: 'utf8' });
  const seconds = (performance.now() - t) / 1000;
  console.log(`batch: interquake render --out-dir over the corpus at 256x256: ${r.stdout.trim().split('\n').pop()} (wall ${seconds.toFixed(2)} s with start-up)`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
mrfixit.dispose();
player.dispose();
