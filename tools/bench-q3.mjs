// Times the Quake 3 paths on the corpus sarge player (run: node tools/bench-q3.mjs):
// opening a pk3 (directory in C), reading every entry (fflate + CRC-32), loadPlayer from
// loose files and from the pk3, and pose(). Medians of repeated runs; timing only, no asserts.
import { performance } from 'node:perf_hooks';
import { init } from '../web/interquake.node.js';
import { gameFiles, relativeFiles, sargePk3 } from '../tests/js/lib/q3-corpus.mjs';

const iq = await init();
const pk3 = sargePk3().bytes;
const loose = relativeFiles();
const totalBytes = [...gameFiles().values()].reduce((n, b) => n + b.length, 0);

function median(fn, runs) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)];
}

const archive = await iq.openArchive(pk3);
const rows = [];
const openTimes = [];
for (let i = 0; i < 21; i++) {
  const t = performance.now();
  await iq.openArchive(pk3);
  openTimes.push(performance.now() - t);
}
openTimes.sort((a, b) => a - b);
rows.push([`openArchive (${(pk3.length / 1e6).toFixed(1)} MB pk3, ${archive.files.length} entries)`, openTimes[10]]);
rows.push([`read every entry (${(totalBytes / 1e6).toFixed(1)} MB out, inflate + CRC-32)`,
  median(() => { for (const f of archive.files) archive.read(f); }, 7)]);
rows.push(['loadPlayer from loose files (3 MD3s, cfg, 21 skins)', median(() => iq.loadPlayer(loose).dispose(), 11)]);
rows.push(['loadPlayer from the pk3 (inflating what it reads)', median(() => iq.loadPlayer(archive).dispose(), 11)]);
const player = iq.loadPlayer(loose);
let t = 0;
rows.push(['pose() x 1000 (legs + torso + head matrices)', median(() => {
  for (let i = 0; i < 1000; i++) player.pose({ legs: { animation: 'LEGS_RUN', time: (t += 0.016) }, torso: { animation: 'TORSO_ATTACK', time: t } });
}, 11)]);
player.dispose();
for (const [what, ms] of rows) console.log(`${what.padEnd(66)} ${ms.toFixed(2).padStart(8)} ms`);
