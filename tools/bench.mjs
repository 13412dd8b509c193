// npm run bench: load time, pose evaluation and CPU skinning per frame, in the WASM build under
// Node and in the native -O2 build of the same C (tests/c/bench_native.c), side by side.
// Not a test: it prints figures (docs/BENCHMARKS.md says how to read them) and never fails on speed.
//
//   node tools/bench.mjs [FILE...]     default: mrfixit.iqm, the largest corpus model that loads,
//                                      and a generated stress model (40,000 vertices, 4 influences each)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from '../web/interquake.node.js';
import { buildIQM } from '../tests/js/lib/iqm-build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const corpusDir = join(root, '..', 'shared', 'corpus');
process.chdir(root);

execFileSync('bash', ['build.sh', 'all'], { stdio: ['ignore', 'ignore', 'inherit'] });
const lib = await init();

// -- Which models

function corpusFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return corpusFiles(path);
    return /\.(iqm|iqe|md3)$/i.test(d.name) ? [path] : [];
  });
}

// A worst case for influence sharing: every vertex has its own four joints and weights.
function stressModel() {
  const path = join(root, 'build', 'bench', 'stress.iqm');
  if (existsSync(path)) return path;
  mkdirSync(join(root, 'build', 'bench'), { recursive: true });
  let seed = 1;
  const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const jointCount = 120;
  const vertexCount = 40000;
  const joints = [];
  for (let j = 0; j < jointCount; j++) {
    joints.push({ name: `j${j}`, parent: j ? Math.floor(random() * j) : -1, translate: [random(), random(), random()], rotate: [0, 0, 0, 1], scale: [1, 1, 1] });
  }
  const frames = [];
  for (let f = 0; f < 30; f++) {
    frames.push(joints.map((j, i) => {
      const a = 0.3 * Math.sin(f * 0.2 + i);
      return { translate: j.translate, rotate: [Math.sin(a / 2), 0, 0, Math.cos(a / 2)], scale: [1, 1 + 0.1 * Math.sin(f + i), 1] };
    }));
  }
  const positions = [];
  const normals = [];
  const tangents = [];
  const indices = [];
  const weights = [];
  for (let v = 0; v < vertexCount; v++) {
    positions.push(random() * 10, random() * 10, random() * 10);
    normals.push(0, 0, 1);
    tangents.push(1, 0, 0, 1);
    const w = [random(), random(), random(), random()];
    const sum = w.reduce((s, x) => s + x, 0);
    let bytes = w.map((x) => Math.floor((x / sum) * 255));
    bytes[0] += 255 - bytes.reduce((s, x) => s + x, 0);
    indices.push(...[0, 1, 2, 3].map(() => Math.floor(random() * jointCount)));
    weights.push(...bytes);
  }
  const triangles = [];
  for (let t = 0; t + 2 < vertexCount; t += 3) triangles.push([t, t + 1, t + 2]);
  const { bytes } = buildIQM({
    vertexArrays: [
      { type: 'position', format: 'float', size: 3, data: positions },
      { type: 'normal', format: 'float', size: 3, data: normals },
      { type: 'tangent', format: 'float', size: 4, data: tangents },
      { type: 'blendindexes', format: 'ubyte', size: 4, data: indices },
      { type: 'blendweights', format: 'ubyte', size: 4, data: weights },
    ],
    triangles,
    meshes: [{ name: 'stress' }],
    joints,
    frames,
    anims: [{ name: 'wobble', firstFrame: 0, frameCount: frames.length, framerate: 24, loop: true }],
  });
  writeFileSync(path, bytes);
  return path;
}

let files = process.argv.slice(2);
if (!files.length) {
  const mrfixit = join(corpusDir, 'iqm', 'mrfixit', 'mrfixit.iqm');
  // The largest corpus model this build loads (by vertex count), besides mrfixit.
  let largest = null;
  for (const path of corpusFiles(corpusDir)) {
    if (path === mrfixit) continue;
    try {
      const m = lib.load(readFileSync(path));
      if (!largest || m.vertexCount > largest.vertices) largest = { path, vertices: m.vertexCount };
      m.dispose();
    } catch { /* not loadable by this build: skip */ }
  }
  files = [mrfixit, ...(largest && largest.vertices > 1861 ? [largest.path] : []), stressModel()];
}

// -- WASM under Node, through the same exports the JS API calls

const now = () => Number(process.hrtime.bigint()) / 1e3;
function measure(batches, reps, body) {
  const samples = [];
  let call = 0;
  for (let b = 0; b < batches; b++) {
    const t0 = now();
    for (let r = 0; r < reps; r++, call++) body(call);
    samples.push((now() - t0) / reps);
  }
  samples.sort((x, y) => x - y);
  return [samples[0], samples[Math.floor(batches / 2)]];
}

function wasmFigures(path) {
  const bytes = readFileSync(path);
  const wasm = lib._wasm; // the same exports and records the JS API uses (web/core/wasm.js)
  const e = wasm.exports;
  const loadReps = bytes.length > 4e6 ? 2 : 20;
  const load = measure(9, loadReps, () => lib.load(bytes).dispose());
  const m = lib.load(bytes);
  const h = m._handle;
  const hasAnim = m.animations.length > 0;
  // Same calls as the native side: iq_pose_model (repeat, no vertices), iq_skin_vertices, iq_evaluate.
  // The pose arguments record is written once; only its time changes per call, as a caller's would.
  const args = wasm.argsPtr;
  wasm.fill('iq_wasm_pose_args', args, { play: { animation: 0, time: 0, loop: wasm.constants.loop.repeat, speed: 1 } });
  const timeAt = args + wasm.offsetOf('iq_wasm_pose_args', 'play') + wasm.offsetOf('iq_play', 'time');
  const times = wasm.array(Float64Array, timeAt, 1);
  const pose = measure(31, 2000, (i) => {
    if (!hasAnim) return e.iq_wasm_evaluate(h, 0);
    times[0] = (i % 997) * 0.0173;
    return e.iq_wasm_pose(h, args, wasm.headPtr);
  });
  const skin = measure(31, 200, () => e.iq_wasm_skin(h));
  const evaluate = measure(31, 200, (i) => e.iq_wasm_evaluate(h, (i % 97) * 0.37));
  // And through the public JS API, argument checks and result objects included.
  const apiPose = hasAnim ? measure(31, 1000, (i) => m.pose(0, (i % 997) * 0.0173, { loop: 'repeat' })) : [NaN, NaN];
  const apiSample = hasAnim ? measure(31, 200, (i) => m.sample(0, (i % 997) * 0.0173, { loop: 'repeat' })) : [NaN, NaN];
  m.dispose();
  return { load_us: load, pose_us: pose, skin_us: skin, evaluate_us: evaluate, api_pose_us: apiPose, api_sample_us: apiSample };
}

// -- Native, then WASM, per file; one table

const native = execFileSync(join(root, 'build', 'native', 'bench_native'), files, { encoding: 'utf8' })
  .trim().split('\n').map((line) => JSON.parse(line));

const fmt = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const rows = [];
for (const n of native) {
  const w = wasmFigures(n.file);
  const name = relative(root, n.file).replace(/^\.\.\/shared\/corpus\//, '');
  console.log(`\n${name}: ${n.vertices} vertices, ${n.joints} joints, ${n.frames} frames, ${(n.bytes / 1024).toFixed(0)} KiB`);
  console.log('  measure            WASM (best / median)    native -O2 (best / median)   WASM/native (best)');
  for (const [label, key] of [['load', 'load_us'], ['pose evaluation', 'pose_us'], ['CPU skinning', 'skin_us'], ['evaluate(frame)', 'evaluate_us']]) {
    const ratio = w[key][0] / n[key][0];
    console.log(`  ${label.padEnd(18)} ${`${fmt(w[key][0])} / ${fmt(w[key][1])} us`.padEnd(23)} ${`${fmt(n[key][0])} / ${fmt(n[key][1])} us`.padEnd(28)} ${ratio.toFixed(2)}x`);
    rows.push({ file: name, measure: label, wasm: w[key], native: n[key], ratio });
  }
  if (Number.isFinite(w.api_pose_us[0])) {
    console.log(`  JS API: model.pose() ${fmt(w.api_pose_us[0])} us, model.sample() ${fmt(w.api_sample_us[0])} us (best)`);
  }
}
console.log('\nTimes are per call: the fastest of 31 batches (9 for loads) and the median batch; see docs/BENCHMARKS.md.');
if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, JSON.stringify(rows, null, 2));
