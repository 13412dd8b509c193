// node tools/bench-md3.mjs: MD3 load, morph evaluate, tagMatrix and TGA decode times in the WASM
// build under Node, on the OpenArena sarge player. Not a test: it prints figures and never fails
// on speed. Each figure is the fastest of 9 batches (per call) after a warm-up.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from '../web/interquake.node.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const corpus = join(root, '..', 'shared', 'corpus');
const sarge = join(corpus, 'md3/openarena/models/players/sarge');
const iq = await init();

function best(calls, fn) {
  for (let i = 0; i < Math.min(calls, 5); i++) fn();
  let fastest = Infinity;
  for (let batch = 0; batch < 9; batch++) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) fn();
    fastest = Math.min(fastest, Number(process.hrtime.bigint() - t) / 1000 / calls);
  }
  return fastest;
}
const report = (what, us) => console.log(`${what.padEnd(58)} ${us < 100 ? us.toFixed(2) : us.toFixed(0)} us`);

for (const part of ['upper', 'lower', 'head']) {
  const bytes = readFileSync(join(sarge, `${part}.md3`));
  const m = iq.load(bytes);
  const label = `${part}.md3 (${(bytes.length / 1024).toFixed(0)} KiB, ${m.frameCount} frames x ${m.vertexCount} vertices)`;
  report(`load ${label}`, best(20, () => iq.load(bytes).dispose()));
  let f = 0;
  report(`  evaluate(fractional frame)`, best(500, () => m.evaluate((f += 0.37) % m.frameCount)));
  for (const tag of m.tags) report(`  tagMatrix('${tag}', fractional frame)`, best(2000, () => m.tagMatrix(tag, (f += 0.37) % m.frameCount)));
  m.dispose();
}
const mrfixit = iq.load(readFileSync(join(corpus, 'iqm/mrfixit/mrfixit.iqm')));
const leaf = mrfixit.joints[mrfixit.joints.length - 1].name;
let g = 0;
report(`mrfixit.iqm tagMatrix('${leaf}') (joint chain)`, best(2000, () => mrfixit.tagMatrix(leaf, (g += 0.37) % 100)));
for (const [file, calls] of [['md3/openarena/models/players/grism/redskin.tga', 10], ['md3/openarena/models/players/sarge/icon_red.tga', 100], ['iqm/mrfixit/Body.tga', 5]]) {
  const bytes = readFileSync(join(corpus, file));
  const { width, height } = iq.decodeTGA(bytes);
  report(`decodeTGA ${file.split('/').pop()} (${width}x${height}, type ${bytes[2]}, ${bytes[16]}-bit)`, best(calls, () => iq.decodeTGA(bytes)));
}
