// What the one-file element's smaller WASM costs in speed (a benchmark, not a test): the same
// corpus files loaded and posed by interquake.wasm (all -O2) and interquake-viewer.wasm (load-time
// code -Os, per-frame code -O2), side by side in one run, median of 25 (build.sh, docs/VIEWER.md).
//   node tools/bench-builds.mjs [files...]     (default: the corpus's largest models)
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { init } from '../web/interquake.node.js';
import { init as initLite } from '../web/interquake-lite.js';

const CORPUS = new URL('../../shared/corpus/', import.meta.url);

function corpus(dir = CORPUS, out = []) {
  for (const name of readdirSync(dir)) {
    const url = new URL(name, dir);
    if (statSync(url).isDirectory()) corpus(new URL(`${name}/`, dir), out);
    else if (/\.(iqm|iqe|md3)$/i.test(name) && !url.pathname.includes('/invalid/')) out.push(url.pathname);
  }
  return out;
}

const median = (times) => times.sort((a, b) => a - b)[times.length >> 1];
function time(fn, runs = 25) {
  fn(); // warm
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

const files = process.argv.length > 2 ? process.argv.slice(2)
  : corpus().sort((a, b) => statSync(b).size - statSync(a).size).slice(0, 8);
const builds = { 'interquake.wasm': await init({ simd: true }), 'interquake-viewer.wasm': await initLite({ simd: true }) };
console.log('file'.padEnd(28), 'KB'.padStart(6), '| load ms: full  viewer  ratio | pose+skin us: full  viewer  ratio');
for (const file of files) {
  const bytes = readFileSync(file);
  const row = {};
  for (const [name, iq] of Object.entries(builds)) {
    const load = time(() => iq.load(bytes, { name: file }).dispose());
    const model = iq.load(bytes, { name: file });
    let frame = 0;
    const last = Math.max(0, model.frameCount - 1);
    const pose = time(() => { frame = (frame + 0.37) % (last || 1); model.evaluate(frame); }, 201) * 1000;
    model.dispose();
    row[name] = { load, pose };
  }
  const [a, b] = Object.values(row);
  console.log(file.split('/').slice(-2).join('/').slice(-28).padEnd(28), (bytes.length / 1024).toFixed(0).padStart(6),
    `| ${a.load.toFixed(3).padStart(13)} ${b.load.toFixed(3).padStart(7)} ${(b.load / a.load).toFixed(2).padStart(6)}`,
    `| ${a.pose.toFixed(1).padStart(17)} ${b.pose.toFixed(1).padStart(7)} ${(b.pose / a.pose).toFixed(2).padStart(6)}`);
}
