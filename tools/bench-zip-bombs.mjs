// Measures what the zip-bomb cases cost now (time, memory growth, WASM heap growth), and the
// sizes and deflate ratios of real entries by use, from which the caps in USE_LIMITS come:
//   node --expose-gc tools/bench-zip-bombs.mjs [real.pk3 ...]
// e.g. node --expose-gc tools/bench-zip-bombs.mjs /usr/share/games/openarena/baseoa/*.pk3
// Figures only, no asserts (the tests assert generous bounds); results go in docs/API-q3.md.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { init } from '../web/interquake.node.js';
import { buildZip, zeroStream } from '../tests/js/lib/zip-build.mjs';
import { buildMD3, quadSurface } from '../tests/js/lib/md3-build.mjs';

const iq = await init();
const GiB = 2 ** 30;
const MB = 2 ** 20;

async function measure(name, fn) {
  globalThis.gc?.();
  const before = process.memoryUsage();
  const heap = iq._wasm.exports.memory.buffer.byteLength;
  const t = performance.now();
  let outcome;
  try {
    const r = await fn();
    outcome = r?.warnings?.find((w) => w.code === 'limit') ? `loaded, warning: ${r.warnings.find((w) => w.code === 'limit').message}` : 'ok';
    r?.dispose?.();
  } catch (e) {
    outcome = `${e.code}: ${e.message}`;
  }
  const ms = performance.now() - t;
  const after = process.memoryUsage();
  console.log(`${name.padEnd(34)} ${ms.toFixed(1).padStart(7)} ms  rss +${((after.rss - before.rss) / MB).toFixed(1).padStart(5)} MB  ` +
    `arrayBuffers +${((after.arrayBuffers - before.arrayBuffers) / MB).toFixed(1).padStart(5)} MB  heap +${(iq._wasm.exports.memory.buffer.byteLength - heap) / MB} MB  ${outcome.slice(0, 110)}`);
}

const bomb1011 = zeroStream(GiB);
const bomb229 = zeroStream(GiB, { level: 1, chunk: 16 << 20 });
const gib = (compressed) => ({ compressed, method: 8, size: GiB, crc: 0 });
const md3 = (name) => buildMD3({ surfaces: [quadSurface({ name })] }).bytes;
const P = 'models/players/bomb';
const player = (replace, file) => {
  const files = { 'lower.md3': { data: md3('l') }, 'upper.md3': { data: md3('u') }, 'head.md3': { data: md3('h') }, [replace]: file };
  return buildZip(Object.entries(files).map(([n, f]) => ({ name: `${P}/${n}`, deflate: !f.compressed, ...f }))).bytes;
};
console.log(`bombs: 1 GiB of zeros at ${(GiB / bomb1011.length).toFixed(0)}:1 (${bomb1011.length} bytes) and at ${(GiB / bomb229.length).toFixed(0)}:1 (${bomb229.length} bytes)`);

await measure('1 GiB at 1011:1, openArchive', () => iq.openArchive(buildZip([{ name: 'z', ...gib(bomb1011) }]).bytes));
for (const part of ['lower.md3', 'animation.cfg', 'upper_default.skin']) {
  const archive = await iq.openArchive(player(part, gib(bomb229)));
  await measure(`1 GiB as ${part}, loadPlayer`, () => iq.loadPlayer(archive));
}
const junk = new Uint8Array(64 * MB).fill(0x41);
const notMd3 = await iq.openArchive(player('lower.md3', { data: junk, compressed: junk, method: 0 }));
await measure('64 MB stored non-MD3 lower.md3', () => iq.loadPlayer(notMd3));
const notMd3Deflated = await iq.openArchive(player('lower.md3', { compressed: zeroStream(64 * MB, { level: 1, chunk: 16 << 20 }), method: 8, size: 64 * MB, crc: 0 }));
await measure('64 MB deflated non-MD3 lower.md3', () => iq.loadPlayer(notMd3Deflated));
const shared = buildZip([
  { name: `${P}/lower.md3`, compressed: zeroStream(512 * MB, { level: 1, chunk: 16 << 20 }), method: 8, size: 512 * MB, crc: 0 },
  { name: `${P}/upper.md3`, sameAs: 0 },
]).bytes;
await measure('two entries sharing one stream', () => iq.openArchive(shared));
const many = buildZip(Array.from({ length: 100000 }, (_, i) => ({ name: `e${i}`, data: 'x' })), { declaredCount: 0xffff }).bytes;
await measure('100,000 entries declared 65535', () => iq.openArchive(many));
const liar = await iq.openArchive(buildZip([{ name: 'liar.tga', ...gib(bomb229), size: 1000 }]).bytes);
await measure('1 GiB stream declared 1000 bytes', () => liar.read('liar.tga', { use: 'texture' }));

// Real archives: largest size and highest ratio per use (the use a path would be read with).
const useOf = (path) => {
  const p = path.toLowerCase();
  if (/\.(md3|iqm|iqe|mdr)$/.test(p)) return 'model';
  if (p.endsWith('animation.cfg')) return 'animation';
  if (p.endsWith('.skin')) return 'skin';
  if (p.endsWith('.shader')) return 'shader';
  if (/\.(tga|jpg|jpeg|png)$/.test(p)) return 'texture';
  return 'other';
};
const stats = {};
let entries = 0;
for (const file of process.argv.slice(2)) {
  const archive = await iq.openArchive(new Uint8Array(readFileSync(file)), { name: file });
  for (const path of archive.files) {
    const e = archive.entry(path);
    entries++;
    const s = (stats[useOf(path)] ??= { count: 0, size: 0, sizePath: '', ratio: 0, ratioPath: '' });
    s.count++;
    if (e.size > s.size) Object.assign(s, { size: e.size, sizePath: path });
    const ratio = e.method === 8 ? e.size / Math.max(e.compressedSize, 1) : 0;
    if (ratio > s.ratio) Object.assign(s, { ratio, ratioPath: path });
  }
}
if (entries) {
  console.log(`\n${entries} real entries:`);
  for (const [use, s] of Object.entries(stats)) {
    console.log(`${use.padEnd(10)} ${String(s.count).padStart(5)} files, largest ${s.size} (${s.sizePath}), highest ratio ${s.ratio.toFixed(1)}:1 (${s.ratioPath})`);
  }
}
