// interquake/three against the glTF route (iq.writeGLB + three's GLTFLoader.parse), side by side in
// one headless Chromium run (software GL): load-to-first-frame (bytes -> three objects -> first pose
// -> one render) and the per-frame update (mixer.update or Q3Player.update, then the world matrices;
// no rendering), medians of REPS, the routes interleaved. Usage: node tools/bench-three.mjs [REPS]
// (needs web/interquake.wasm: bash build.sh wasm). docs/THREE.md has the figures.
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openBrowser } from '../tests/browser/lib/browser.mjs';
import { ROOT, SARGE, GRISM } from '../tests/js/lib/q3-corpus.mjs';

const REPO = resolve(fileURLToPath(new URL('../', import.meta.url)));
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };
const reps = Number(process.argv[2]) || 5;

const browser = await openBrowser();
try {
  const page = await browser.newPage();
  await page.route(`${browser.base}repo/**`, async (route) => {
    const path = resolve(REPO, decodeURIComponent(new URL(route.request().url()).pathname.slice('/repo/'.length)));
    if (!path.startsWith(REPO + sep)) return route.fulfill({ status: 404, body: 'outside' });
    try {
      return route.fulfill({ status: 200, contentType: TYPES[extname(path)] || 'application/octet-stream', body: await readFile(path) });
    } catch {
      return route.fulfill({ status: 404, body: 'not found' });
    }
  });
  await page.route(`${browser.base}repo/bench.html`, (route) => route.fulfill({
    status: 200, contentType: 'text/html',
    body: `<!doctype html><meta charset="utf-8"><script type="importmap">{ "imports": {
  "three": "./node_modules/three/build/three.module.js", "three/addons/": "./node_modules/three/examples/jsm/",
  "fflate": "./node_modules/fflate/esm/browser.js" } }</script>
<script type="module">window.bench = import('./tools/bench-three-page.mjs');</script>`,
  }));
  await page.goto(`${browser.base}repo/bench.html`);
  await page.evaluate(() => window.bench);
  const run = (name, ...args) => page.evaluate(async ([n, a]) => (await window.bench)[n](...a), [name, args]);
  const row = (label, ours, gltf) => console.log(`| ${label} | ${ours.first.toFixed(1)} | ${gltf.first.toFixed(1)} | ${(ours.first / gltf.first).toFixed(2)} | `
    + `${(ours.update * 1000).toFixed(1)} | ${(gltf.update * 1000).toFixed(1)} | ${(ours.update / gltf.update).toFixed(2)} |`);
  console.log(`Chromium (headless, SwiftShader), median of ${reps}; first frame in ms, update in µs per frame`);
  console.log('| model | ours first | glTF first | ratio | ours update | glTF update | ratio |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const [path, clip, textures] of [
    ['iqm/mrfixit/mrfixit.iqm', 'idle', false], ['iqm/mrfixit/mrfixit.iqm', 'idle', true],
    ['iqe/unvanquished/weapons/level1/vwep_view.iqe', 'idle', false], ['md3/openarena/models/players/sarge/lower.md3', 'all', false],
  ]) {
    const r = await run('model', path, clip, { textures, reps });
    row(`${path.split('/').pop()}${textures ? ' + textures' : ''}`, r.ours, r.gltf);
  }
  const names = [SARGE, GRISM].flatMap((folder) => readdirSync(new URL(folder, ROOT)).map((n) => `${folder}/${n}`));
  const p = await run('player', names, { reps });
  row('sarge player, Q3Player.update (LEGS_RUN)', p.update, p.gltf);
  row('sarge player, mixer on player.animations', p.mixer, p.gltf);
  if (browser.errors.length) throw browser.errors[0];
} finally {
  await browser.close();
}
