// IQM writer scaling (a benchmark, not a test): `interquake convert` of an IQE whose one `fa` line
// holds 1, 2 and 4 MB of indices (a polygon of 150k-600k corners, triangulated as a fan: every
// triangle shares an edge with the next and a corner with all). Times iq.writeIQM alone and
// load + write, median of RUNS; the per-triangle figure stays flat when the writer is linear.
//   node tools/bench-iqm-write.mjs            (RUNS=5, SIZES_MB=1,2,4)
import { init } from '../web/interquake.node.js';

const runs = Number(process.env.RUNS || 5);
const sizes = (process.env.SIZES_MB || '1,2,4').split(',').map(Number);

function polygonIQE(megabytes) {
  const indices = [];
  let length = 3;
  for (let i = 0; length < megabytes * 1e6; i++) {
    indices.push(i);
    length += String(i).length + 1;
  }
  const lines = ['# Inter-Quake Export', 'mesh polygon', 'material polygon.tga'];
  for (let i = 0; i < indices.length; i++) {
    const a = (2 * Math.PI * i) / indices.length;
    lines.push(`vp ${Math.cos(a).toFixed(6)} ${Math.sin(a).toFixed(6)} 0`);
  }
  lines.push(`fa ${indices.join(' ')}`);
  return { bytes: new TextEncoder().encode(`${lines.join('\n')}\n`), corners: indices.length };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const iq = await init();
console.log(`IQM writer, median of ${runs} runs (WASM ${iq.simd ? 'SIMD' : 'baseline'}, Node ${process.version})`);
console.log('fa line   triangles   writeIQM      per triangle   load + write');
for (const mb of sizes) {
  const { bytes, corners } = polygonIQE(mb);
  const write = [];
  const total = [];
  let triangles = 0;
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    const model = iq.load(bytes, { name: 'polygon.iqe' });
    const t1 = performance.now();
    iq.writeIQM(model);
    const t2 = performance.now();
    triangles = model.triangleCount;
    model.dispose();
    write.push(t2 - t1);
    total.push(t2 - t0);
  }
  const w = median(write);
  console.log(`${String(mb).padStart(4)} MB  ${String(triangles).padStart(10)}  ${w.toFixed(0).padStart(7)} ms  ${((w * 1e6) / triangles).toFixed(0).padStart(9)} ns  ${median(total).toFixed(0).padStart(9)} ms   (${corners} corners)`);
}
