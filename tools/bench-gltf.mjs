// node tools/bench-gltf.mjs [REPS]: converts every corpus model (and the sarge player) to GLB with
// iq.writeGLB and with assimp (assimpjs, its 'glb2' exporter), interleaved model by model in one
// run, REPS times (default 7), and prints the median time per conversion, the ratio ours / assimp,
// and the GLB sizes against the input. Not a test: it prints figures and never fails on speed.
//
// What is timed is a whole conversion from bytes in memory: load (parse) + write the GLB (+ free).
// "ours" is without textures (files: {}: plain materials) so that both sides do the same work;
// "ours+tex" also finds the textures beside the model, decodes TGAs and encodes them as PNG. assimp
// writes no animation (its glb2 exporter drops them here: 0 animations in its JSON) and leaves
// textures as external URIs, so its GLB is geometry only. assimp reads no IQE and no assembled
// player: for the player it converts lower, upper and head separately (the times added).
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { init } from '../web/interquake.node.js';

const reps = Number(process.argv[2]) || 7;
const corpus = fileURLToPath(new URL('../../shared/corpus/', import.meta.url));
const iq = await init();
const ajs = await createRequire(import.meta.url)('assimpjs')();

const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
const models = walk(corpus).filter((p) => /\.(iqm|iqe|md3)$/i.test(p) && !p.includes('/invalid/')).map((p) => relative(corpus, p)).sort();
const read = (path) => new Uint8Array(readFileSync(join(corpus, path)));
const textureBytes = new Map(); // texture file -> size, for every texture found (the input's share)
const beside = (path) => (name) => {
  const file = path.replace(/[^/]*$/, '') + name.replace(/^.*\//, '');
  try {
    const bytes = read(file);
    textureBytes.set(file, bytes.length);
    return bytes;
  } catch {
    return null;
  }
};

const SARGE = 'md3/openarena/models/players/sarge';
function sargeFiles() {
  const files = new Map();
  for (const folder of ['models/players/sarge', 'models/players/grism']) {
    for (const name of readdirSync(join(corpus, 'md3/openarena', folder))) files.set(`${folder}/${name}`, read(`md3/openarena/${folder}/${name}`));
  }
  return files;
}

// One conversion per side; each resolves to the GLB bytes (null: that side cannot convert it).
async function ours(path, withTextures) {
  const model = iq.load(read(path), { name: path });
  try {
    return (await iq.writeGLB(model, { files: withTextures ? beside(path) : {} })).glb;
  } finally {
    model.dispose();
  }
}
async function oursPlayer(files, withTextures) {
  const player = iq.loadPlayer(files, {});
  try {
    return (await iq.writeGLB(player, withTextures ? {} : { skin: null })).glb;
  } finally {
    player.dispose();
  }
}
function assimp(path) {
  const list = new ajs.FileList();
  const bytes = read(path);
  list.AddFile(path.split('/').pop(), bytes);
  const result = ajs.ConvertFileList(list, 'glb2');
  try {
    return result.IsSuccess() && result.FileCount() > 0 ? result.GetFile(0).GetContent().slice() : null;
  } finally {
    result.delete();
    list.delete();
  }
}
function assimpPlayer() {
  const parts = ['lower', 'upper', 'head'].map((p) => assimp(`${SARGE}/${p}.md3`));
  return parts.every(Boolean) ? parts : null;
}

const glbJson = (glb) => JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + new DataView(glb.buffer, glb.byteOffset).getUint32(12, true))));

async function time(fn) {
  const t = process.hrtime.bigint();
  const out = await fn();
  return [Number(process.hrtime.bigint() - t) / 1e6, out];
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const files = sargeFiles();
const cases = [
  ...models.map((path) => ({
    name: path, ours: (tex) => ours(path, tex), assimp: () => assimp(path), input: read(path).length,
    textures: () => [...textureBytes].filter(([file]) => file.startsWith(path.replace(/[^/]*$/, ''))).reduce((n, [, size]) => n + size, 0),
  })),
  {
    name: 'sarge player (lower+upper+head, default skin)',
    ours: (tex) => oursPlayer(files, tex),
    assimp: assimpPlayer,
    input: ['lower', 'upper', 'head'].reduce((n, p) => n + read(`${SARGE}/${p}.md3`).length, 0),
    textures() { // the default skin's textures, as the player resolved them
      const player = iq.loadPlayer(files, {});
      const paths = new Set(Object.values(player.surfaces).flat().map((surface) => surface.texture).filter(Boolean));
      player.dispose();
      return [...paths].reduce((n, path) => n + (files.get(path)?.length ?? 0), 0);
    },
  },
];

// warm-up and sizes (one conversion each), then REPS rounds over every case, interleaved
const rows = [];
for (const c of cases) {
  const row = { c, times: { ours: [], tex: [], assimp: [] } };
  try {
    row.glb = await c.ours(false);
    textureBytes.clear();
    row.glbTex = await c.ours(true);
    row.inputTextures = c.textures();
    row.animations = glbJson(row.glb).animations?.length ?? 0;
    row.images = glbJson(row.glbTex).images ?? [];
    row.imageBytes = row.images.reduce((n, im) => n + glbJson(row.glbTex).bufferViews[im.bufferView].byteLength, 0);
  } catch (err) {
    row.error = err.code || err.message;
  }
  const a = c.assimp();
  row.assimp = a && [].concat(a);
  row.assimpAnimations = row.assimp ? row.assimp.reduce((n, g) => n + (glbJson(g).animations?.length ?? 0), 0) : null;
  rows.push(row);
}
for (let r = 0; r < reps; r++) {
  for (const row of rows) {
    if (!row.error) {
      row.times.ours.push((await time(() => row.c.ours(false)))[0]);
      row.times.tex.push((await time(() => row.c.ours(true)))[0]);
    }
    if (row.assimp) row.times.assimp.push((await time(() => row.c.assimp()))[0]);
  }
}

const kb = (n) => (n / 1024).toFixed(1);
const ms = (xs) => (xs.length ? median(xs).toFixed(xs.length && median(xs) < 10 ? 2 : 1) : '-');
console.log(`median of ${reps} interleaved conversions (load + write GLB), Node ${process.version}, WASM ${iq.simd ? 'SIMD' : 'baseline'}\n`);
console.log('| model | input KiB | its textures KiB | ours ms | ours+tex ms | assimp ms | ours/assimp | GLB KiB (no tex) | GLB KiB (tex) | images KiB | assimp GLB KiB | anims ours / assimp |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) {
  const name = row.c.name.replace(/^.*\/players\//, 'players/').replace(/^(iqm|iqe|md3)\/[^/]+\//, '');
  if (row.error) {
    console.log(`| ${name} | ${kb(row.c.input)} | | ${row.error} | | ${ms(row.times.assimp)} | | | | | ${row.assimp ? kb(row.assimp.reduce((n, g) => n + g.length, 0)) : '-'} | |`);
    continue;
  }
  const ratio = row.times.assimp.length ? (median(row.times.ours) / median(row.times.assimp)).toFixed(2) : '-';
  const assimpSize = row.assimp ? kb(row.assimp.reduce((n, g) => n + g.length, 0)) : 'fails';
  console.log(`| ${name} | ${kb(row.c.input)} | ${row.inputTextures ? kb(row.inputTextures) : '-'} | ${ms(row.times.ours)} | ${ms(row.times.tex)} | ${ms(row.times.assimp)} | ${ratio} | ${kb(row.glb.length)} | ${kb(row.glbTex.length)} | ${row.images.length ? `${kb(row.imageBytes)} (${row.images.length})` : '-'} | ${assimpSize} | ${row.animations} / ${row.assimpAnimations ?? '-'} |`);
}
