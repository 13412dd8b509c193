// Nexuiz 2.5.2 (Debian's nexuiz-data, data.pk3, read with iq.openArchive): every DPM and ZYM loads
// with finite outputs and DPM frames fill the boxes the files store; a ZYM player plays its run in
// three.js as in the library; every MDL (and the `.mdl`s that are MD3 inside) and every
// `.framegroups` with its model loads with finite positions and normals over its frames; every
// DarkPlaces `<model>_<N>.skin` is listed by iq.modelSkins with no warning.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init } from 'interquake';
import { expectValidGLB, expectMixerMatches } from '../js/lib/mixer-match.mjs';
import { gameFile, expectCount, expectFiniteFrames } from './lib.mjs';

const iq = await init();
const PK3 = gameFile('nexuiz-data', '/usr/share/games/nexuiz/data/data.pk3');
const archive = await iq.openArchive(readFileSync(PK3), { name: PK3 });

test('every DPM and ZYM in data.pk3 loads with finite outputs; posed DPM frames fill their stored boxes', () => {
  const counts = { dpm: 0, zym: 0 };
  let fit = 0;
  let turned = 0;
  let framesChecked = 0;
  for (const path of archive.files.filter((p) => /\.(dpm|zym)$/i.test(p))) {
    const m = iq.load(archive.read(path, { use: 'model' }), { name: path });
    counts[m.format]++;
    let firstFits = null;
    for (const f of [0, Math.floor(m.frameCount / 2), m.frameCount - 1]) {
      const { positions } = m.evaluate(f);
      assert.ok(positions.every(Number.isFinite), `${path} frame ${f}: finite`);
      if (m.format !== 'dpm' || !m.frameBounds) continue;
      const b = m.frameBounds.subarray(8 * f, 8 * f + 6);
      const size = Math.max(...[0, 1, 2].map((k) => b[3 + k] - b[k]));
      if (!(size > 0)) continue;
      framesChecked++;
      const lo = [Infinity, Infinity, Infinity];
      const hi = [-Infinity, -Infinity, -Infinity];
      for (let v = 0; v < m.vertexCount; v++) for (let k = 0; k < 3; k++) {
        lo[k] = Math.min(lo[k], positions[3 * v + k]);
        hi[k] = Math.max(hi[k], positions[3 * v + k]);
      }
      const fits = (l, h) => [0, 1, 2].every((k) => Math.abs(l[k] - b[k]) <= 0.01 * size && Math.abs(h[k] - b[3 + k]) <= 0.01 * size);
      const direct = fits(lo, hi);
      firstFits ??= direct;
      if (direct) fit++;
      // the spiderbot's boxes were measured before the tool turned it to face +x: x' = y, y' = -x
      else if (fits([lo[1], -hi[0], lo[2]], [hi[1], -lo[0], hi[2]])) turned++;
      // a model whose first frame fills its box fills it at every frame
      if (firstFits) assert.ok(direct, `${path} frame ${f}: the posed mesh spans ${lo} .. ${hi}, the box ${[...b]}`);
    }
    m.dispose();
  }
  console.log(`nexuiz: ${counts.dpm} DPM and ${counts.zym} ZYM files loaded; of ${framesChecked} DPM frames checked, ` +
    `${fit} fill their stored box, ${turned} the box turned 90 degrees about z, ${framesChecked - fit - turned} neither (the spiderbot's animated frames)`);
  expectCount('nexuiz-data', 'DPM files', counts.dpm, 23);
  expectCount('nexuiz-data', 'ZYM files', counts.zym, 57);
  assert.ok(fit > 0 && turned > 0, 'frames of both kinds were checked');
});

test('a Nexuiz player (ZYM) plays its run the same in three.js', async () => {
  const m = iq.load(archive.read('models/player/marine_lod2.zym', { use: 'model' }), { name: 'marine_lod2.zym' });
  assert.ok(m.findAnimation('run') >= 0, m.animations.map((a) => a.name).join());
  const { glb } = await iq.writeGLB(m);
  await expectValidGLB(glb);
  await expectMixerMatches(iq, m, glb, 'run');
  m.dispose();
});

test('every MDL (and each .mdl that is an MD3 inside) loads with finite frames', () => {
  const counts = {};
  for (const path of archive.files.filter((p) => /\.mdl$/i.test(p))) {
    const m = iq.load(archive.read(path, { use: 'model' }), { name: path });
    counts[m.format] = (counts[m.format] ?? 0) + 1;
    expectFiniteFrames(m, path);
    m.dispose();
  }
  console.log(`nexuiz: .mdl files: ${JSON.stringify(counts)}`);
  expectCount('nexuiz-data', 'MDL files', counts.mdl ?? 0, 18);
  expectCount('nexuiz-data', '.mdl files that are MD3', counts.md3 ?? 0, 5);
});

test('every .framegroups loads with the model beside it: named clips inside its frames, finite frames', () => {
  const counts = {};
  for (const path of archive.files.filter((p) => /\.framegroups$/i.test(p))) {
    const modelPath = path.slice(0, -'.framegroups'.length);
    assert.ok(archive.has(modelPath), `${path}: no ${modelPath} beside it`);
    const m = iq.load(archive.read(modelPath, { use: 'model' }), { name: modelPath, framegroups: archive.read(path) });
    counts[m.format] = (counts[m.format] ?? 0) + 1;
    assert.ok(m.animations.length > 0, `${path}: clips`);
    for (const a of m.animations) assert.ok(a.firstFrame + a.frameCount <= m.frameCount, `${path}: ${a.name} inside the ${m.frameCount} frames`);
    expectFiniteFrames(m, path);
    m.dispose();
  }
  console.log(`nexuiz: .framegroups by the format of their model: ${JSON.stringify(counts)}`);
  expectCount('nexuiz-data', '.framegroups beside an MD3', counts.md3 ?? 0, 3);
  expectCount('nexuiz-data', '.framegroups beside a DPM', counts.dpm ?? 0, 17);
});

test('DarkPlaces <model>_<N>.skin: every model with skins lists them with no warning; the CTF flag is red and blue', async () => {
  const skinFiles = archive.files.filter((p) => /_\d+\.skin$/i.test(p));
  const models = [...new Set(skinFiles.map((p) => p.replace(/_\d+\.skin$/i, '')))];
  const byFormat = {};
  let references = 0;
  let unnamed = 0;
  for (const path of models) {
    assert.ok(archive.has(path), `${path}: the model its skins are named after`);
    const model = iq.load(archive.read(path, { use: 'model' }), { name: path });
    const files = new Map(skinFiles.filter((p) => p.toLowerCase().startsWith(`${path.toLowerCase()}_`)).map((p) => [p, archive.read(p, { use: 'skin' })]));
    const skins = await iq.modelSkins(model, files, path);
    (byFormat[model.format] ??= { models: 0, skins: 0 }).models++;
    byFormat[model.format].skins += skins.length;
    assert.deepEqual(skins.map((s) => s.name), skins.map((_, i) => String(i)), `${path}: skins by number, 0 first`);
    for (const s of skins) {
      assert.deepEqual(s.warnings, [], `${s.path}`);
      assert.equal(s.textures.length, model.meshes.length, `${s.path}: one texture (or null) per mesh`);
      references += s.textures.length;
      unnamed += s.textures.filter((t) => t === null).length;
    }
    if (path === 'models/ctf/flags.md3') {
      assert.deepEqual(skins.map((s) => s.textures[0]), ['textures/flags/flag_red', 'textures/flags/flag_blue']);
    }
    model.dispose();
  }
  console.log(`nexuiz: ${models.length} models with ${skinFiles.length} _N.skin files: ${JSON.stringify(byFormat)}; ` +
    `${references} mesh textures, ${unnamed} meshes no skin names`);
  expectCount('nexuiz-data', 'models with _N.skin files', models.length, 64);
  expectCount('nexuiz-data', '_N.skin files', skinFiles.length, 122);
  expectCount('nexuiz-data', 'MD3 models with _N.skin files', byFormat.md3?.models ?? 0, 19);
  expectCount('nexuiz-data', 'their skins', byFormat.md3?.skins ?? 0, 53);
});
