// IQE parse throughput (a benchmark, not a test): generates large IQE files in memory and
// reports MB/s of the WASM reader (what Node and browser users run), median of several runs.
//   npm run bench:iqe            (SIZE_MB=60 for a bigger file)
import { init } from '../web/interquake.node.js';

const targetMB = Number(process.env.SIZE_MB || 30);

// A skinned grid mesh (vp vt vn vx vb, fm faces) plus a skeleton and animation frames.
function generate({ normals }) {
  const parts = ['# Inter-Quake Export\n'];
  const joints = 32;
  for (let j = 0; j < joints; j++) parts.push(`joint "bone ${j}" ${j - 1}\n`);
  for (let j = 0; j < joints; j++) parts.push(`pq 0 0 ${j ? 1 : 0} 0 0 0 -1\n`);
  parts.push('vertexarray position float 3\nvertexarray texcoord float 2\nvertexarray normal float 3\n');
  const side = Math.ceil(Math.sqrt((targetMB * 1e6) / (normals ? 160 : 116))); // ~bytes of text per grid vertex
  parts.push('mesh "grid"\nmaterial "grid.tga"\n');
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const z = Math.sin(x * 0.1) * Math.cos(y * 0.1);
      parts.push(`vp ${(x * 0.25).toFixed(6)} ${(y * 0.25).toFixed(6)} ${z.toFixed(6)}\n`);
      parts.push(`vt ${(x / side).toFixed(6)} ${(y / side).toFixed(6)}\n`);
      if (normals) parts.push('vn 0.0123 -0.0456 0.998839\nvx 0.99 0.01 0 1\n');
      parts.push(`vb ${y % joints} 0.75 ${(y + 1) % joints} 0.25\n`);
    }
  }
  for (let y = 0; y + 1 < side; y++) {
    for (let x = 0; x + 1 < side; x++) {
      const i = y * side + x;
      parts.push(`fm ${i} ${i + side} ${i + 1}\nfm ${i + 1} ${i + side} ${i + side + 1}\n`);
    }
  }
  parts.push('animation "wave"\nframerate 30\nloop\n');
  for (let f = 0; f < 200; f++) {
    parts.push(`frame ${f}\n`);
    for (let j = 0; j < joints; j++) {
      const a = Math.sin(f * 0.05 + j) * 0.2;
      parts.push(`pq 0 0 ${j ? 1 : 0} ${Math.sin(a).toFixed(7)} 0 0 ${(-Math.cos(a)).toFixed(7)}\n`);
    }
  }
  return new TextEncoder().encode(parts.join(''));
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const iq = await init();
for (const normals of [true, false]) {
  const bytes = generate({ normals });
  const mb = bytes.length / 1e6;
  const times = [];
  let model;
  for (let run = 0; run < 5; run++) {
    const t0 = performance.now();
    model = iq.load(bytes, { name: 'bench.iqe' });
    times.push(performance.now() - t0);
    if (run < 4) model.dispose();
  }
  const ms = median(times);
  console.log(`${normals ? 'with vn/vx      ' : 'normals generated'}: ${mb.toFixed(1)} MB, ${model.vertexCount} vertices, ` +
    `${model.triangleCount} triangles, ${model.frameCount} frames: median ${ms.toFixed(0)} ms = ${(mb / (ms / 1000)).toFixed(0)} MB/s`);
  const t0 = performance.now();
  const iqm = iq.writeIQM(model);
  console.log(`  writeIQM: ${(performance.now() - t0).toFixed(0)} ms -> ${(iqm.length / 1e6).toFixed(1)} MB IQM`);
  model.dispose();
}
