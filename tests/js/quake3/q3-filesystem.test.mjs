// mountArchives: several pk3s and loose files as one Quake 3 file system, with ioquake3's
// precedence (files.c: pk3s sorted by FS_PathCmp, a later name wins; loose files before them all)
// and FS_ListFiles' order, which decides which shader block wins across scripts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init } from 'interquake';
import { FileSystem, comparePakNames } from '../../../web/quake3/filesystem.js';
import { parseShaders } from '../../../web/quake3/shaders.js';
import { buildMD3 } from '../lib/md3-build.mjs';
import { buildZip, crc32 } from '../lib/zip-build.mjs';

const iq = await init();
const enc = new TextEncoder();
const text = (bytes) => new TextDecoder().decode(bytes);
const P = 'models/players/split';

const quad = (name, shader) => ({
  name, shaders: [{ name: shader, index: 0 }], triangles: [[0, 1, 2]], texcoords: [[0, 0], [1, 0], [0, 1]],
  frames: [[[0, 0, 0], [1, 0, 0], [0, 1, 0]].map((xyz) => ({ xyz, normal: 0 }))],
});

const zip = (files, deflate = false) => buildZip(Object.entries(files).map(([name, data]) => ({ name, data, deflate }))).bytes;
const open = (files, name, deflate) => iq.openArchive(zip(files, deflate), { name });

// A player split the way OpenArena ships one: models and animation.cfg in the players pk3, skins
// and textures in a textures pk3, the shader script its legs use in pak0.
async function splitPlayer() {
  const players = await open({
    [`${P}/lower.md3`]: buildMD3({ tags: [{ name: 'tag_torso', frames: [{ origin: [0, 0, 1] }] }], surfaces: [quad('l_legs', `${P}/legs`)] }).bytes,
    [`${P}/upper.md3`]: buildMD3({ tags: [{ name: 'tag_head', frames: [{ origin: [0, 0, 1] }] }], surfaces: [quad('u_torso', `${P}/torso`)] }).bytes,
    [`${P}/head.md3`]: buildMD3({ surfaces: [quad('h_head', `${P}/head`)] }).bytes,
    [`${P}/animation.cfg`]: Array.from({ length: 25 }, () => '0 1 0 10').join('\n'),
  }, 'pak2-players.pk3', true);
  const textures = await open({
    [`${P}/lower_default.skin`]: `l_legs,${P}/glow\n`,
    [`${P}/upper_default.skin`]: `u_torso,${P}/torso.tga\n`,
    [`${P}/head_default.skin`]: `h_head,${P}/head.tga\n`,
    [`${P}/torso.jpg`]: new Uint8Array([2]),
    [`${P}/head.tga`]: new Uint8Array([3]),
    [`${P}/glow.tga`]: new Uint8Array([4]),
  }, 'pak4-textures.pk3');
  const shaders = await open({ 'scripts/split.shader': `${P}/glow\n{\n\t{\n\t\tmap ${P}/glow.tga\n\t}\n}\n` }, 'pak0.pk3', true);
  return { players, textures, shaders };
}

test('a player whose models, skins, textures and shader script lie in three pk3s loads whole once they are mounted', async () => {
  const { players, textures, shaders } = await splitPlayer();
  const alone = iq.loadPlayer(players);
  // alone: no skin files (the MD3 shader names), no textures, no script
  assert.deepEqual([alone.skin, alone.missingFiles.sort()], [null, [`${P}/head`, `${P}/legs`, `${P}/torso`]]);
  alone.dispose();

  const fs = iq.mountArchives([players, textures, shaders]);
  assert.ok(fs instanceof FileSystem);
  assert.deepEqual(fs.sources.map((s) => s.name), ['pak4-textures.pk3', 'pak2-players.pk3', 'pak0.pk3']);
  assert.deepEqual(fs.players.map((p) => [p.path, p.skins]), [[P, ['default']]]);
  assert.equal(fs.models.length, 3);
  assert.equal(fs.files.length, 11);
  const player = iq.loadPlayer(fs);
  try {
    assert.deepEqual(player.missingFiles, []);
    assert.equal(player.skin, 'default');
    assert.deepEqual(player.skinFiles, { lower: `${P}/lower_default.skin`, upper: `${P}/upper_default.skin`, head: `${P}/head_default.skin` });
    const legs = player.surfaces.lower[0];
    assert.equal(legs.shader, `${P}/glow`);
    assert.equal(legs.script?.name, `${P}/glow`, 'the block from pak0.pk3');
    assert.deepEqual(legs.images, { [`${P}/glow.tga`]: `${P}/glow.tga` });
    assert.equal(player.surfaces.upper[0].texture, `${P}/torso.jpg`);
    assert.deepEqual([...player.readFile(player.surfaces.head[0].texture)], [3]);
    assert.equal(player.animation('LEGS_RUN')?.fits, true, 'animation.cfg read');
  } finally {
    player.dispose();
  }
  assert.deepEqual(fs.entry(`${P}\\LOWER.md3`).source, 'pak2-players.pk3');
  assert.equal(fs.sourceOf(`${P}/glow.tga`), 'pak4-textures.pk3');
  assert.equal(fs.sourceOf('nowhere'), null);
  assert.equal(fs.read('nowhere'), null);
  assert.equal(fs.has('SCRIPTS/split.SHADER'), true);
});

test('pk3 order is FS_PathCmp: case ignored, upper case compared, so "_" sorts after letters', () => {
  const sorted = ['pak1.pk3', 'z_mod.pk3', 'PAK0.pk3', 'zz.pk3', 'pak2-players.pk3', 'pak2-players-mature.pk3', 'a.pk3'].sort(comparePakNames);
  assert.deepEqual(sorted, ['a.pk3', 'PAK0.pk3', 'pak1.pk3', 'pak2-players-mature.pk3', 'pak2-players.pk3', 'zz.pk3', 'z_mod.pk3']);
  assert.equal(comparePakNames('a\\b', 'A:B'), 0);
  assert.equal(comparePakNames('a/b', 'a/b/c'), -1);
});

test('the same path in two pk3s: the later name wins whatever order they are given in; each path listed once', async () => {
  const pak0 = await open({ 'a.txt': 'pak0 a', 'B.txt': 'pak0 b', 'only0.txt': '0' }, 'pak0.pk3');
  const pak1 = await open({ 'b.TXT': 'pak1 b', 'only1.txt': '1' }, 'PAK1.pk3', true);
  const zmod = await open({ 'a.txt': 'z_mod a' }, 'z_mod.pk3');
  const zz = await open({ 'a.txt': 'zz a' }, 'zz.pk3');
  for (const given of [[pak0, pak1, zmod, zz], [zz, zmod, pak1, pak0], [pak1, zz, pak0, zmod]]) {
    const fs = iq.mountArchives(given);
    assert.deepEqual(fs.sources.map((s) => s.name), ['z_mod.pk3', 'zz.pk3', 'PAK1.pk3', 'pak0.pk3']);
    assert.equal(text(fs.read('A.txt')), 'z_mod a');
    assert.equal(text(fs.read('b.txt')), 'pak1 b');
    assert.equal(text(fs.read('only0.txt')), '0');
    // FS_ListFiles: the winning source's paths first, each once, as that source spells it
    assert.deepEqual(fs.files, ['a.txt', 'b.TXT', 'only1.txt', 'only0.txt']);
    assert.deepEqual(fs.entry('b.txt'), { path: 'b.TXT', size: 6, compressedSize: fs.entry('b.txt').compressedSize, method: 8, crc32: pak1.entry('b.txt').crc32, source: 'PAK1.pk3' });
  }
  // 'given': the list as it is, later entries win
  const given = iq.mountArchives([zmod, pak0], { order: 'given' });
  assert.equal(text(given.read('a.txt')), 'pak0 a');
  assert.deepEqual(given.sources.map((s) => s.name), ['pak0.pk3', 'z_mod.pk3']);
});

test('loose files win over every pk3 (ioquake3); as Quake 3 1.32 shipped ("retail") they lose', async () => {
  const pak0 = await open({ 'scripts/x.shader': 'pak0', 'models/m.txt': 'pak0 m' }, 'pak0.pk3');
  const loose = new Map([['models\\M.txt', 'loose m'], ['loose.txt', enc.encode('loose only')], ['skipped.txt', null]]);
  const fs = iq.mountArchives([loose, pak0]);
  assert.deepEqual(fs.sources, [{ name: 'loose files 1', kind: 'files', files: 2 }, { name: 'pak0.pk3', kind: 'archive', files: 2 }]);
  assert.equal(text(fs.read('models/m.txt')), 'loose m');
  assert.deepEqual(fs.files, ['models/M.txt', 'loose.txt', 'scripts/x.shader']);
  const e = fs.entry('loose.txt');
  assert.deepEqual({ ...e }, { path: 'loose.txt', size: 10, compressedSize: 10, method: 0, crc32: crc32(enc.encode('loose only')), source: 'loose files 1' });
  assert.deepEqual([...fs.peek('loose.txt', 5)], [...enc.encode('loose')]);
  const read = fs.read('loose.txt');
  read[0] = 0;
  assert.equal(text(fs.read('loose.txt')), 'loose only', 'read gives a copy');
  const retail = iq.mountArchives([{ 'models/m.txt': 'loose m' }, pak0], { order: 'retail' });
  assert.equal(text(retail.read('models/m.txt')), 'pak0 m');
  assert.deepEqual(retail.sources.map((s) => s.kind), ['archive', 'files']);
});

test('shader scripts across pk3s: listed in search order, so the block in the lower pk3 wins, as Quake 3 joins them', async () => {
  const block = (name, map) => `${name}\n{\n\t{\n\t\tmap ${map}\n\t}\n}\n`;
  const pak0 = await open({
    'scripts/base.shader': block('shared', 'from_pak0_base.tga'),
    'scripts/same.shader': block('same_file', 'pak0_copy.tga'),
  }, 'pak0.pk3');
  const pak1 = await open({
    'scripts/mod.shader': block('shared', 'from_pak1_mod.tga') + block('only_pak1', 'x.tga'),
    'scripts/same.shader': block('same_file', 'pak1_copy.tga'),
  }, 'pak1.pk3', true);
  const fs = iq.mountArchives([pak1, pak0]);
  assert.deepEqual(fs.files, ['scripts/mod.shader', 'scripts/same.shader', 'scripts/base.shader']);
  const set = parseShaders(iq, fs);
  assert.equal(set.scripts.length, 3, 'scripts/same.shader read once, from the pk3 that wins');
  // FS_ListFiles lists pak1's scripts first; ScanAndLoadShaderFiles joins them in reverse, so
  // pak0's text comes first and its block of a shared name is the one found.
  assert.deepEqual(set.find('shared').stages[0].images, ['from_pak0_base.tga']);
  assert.deepEqual(set.find('same_file').stages[0].images, ['pak1_copy.tga']);
  assert.ok(set.find('only_pak1'));
});

test('limits by use apply to every read, from an archive or a loose file; options.limits at mount override them', async () => {
  let seed = 1;
  const big = Array.from({ length: 70000 }, () => String.fromCharCode(97 + ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) % 26)).join(''); // deflates ~1.6:1
  const pak = await open({ 'big.skin': big, 'flat.tga': new Uint8Array(300000) }, 'pak0.pk3', true);
  const fs = iq.mountArchives([pak, { 'loose.skin': big }]);
  assert.deepEqual(Object.keys(fs.limits), ['model', 'animation', 'skin', 'shader', 'texture']);
  for (const path of ['big.skin', 'loose.skin']) {
    assert.throws(() => fs.read(path, { use: 'skin' }), (e) => e.code === 'limit' && e.file === path && /70000 bytes; skin files may have at most 65536/.test(e.message), path);
    assert.throws(() => fs.peek(path, 4, { use: 'skin' }), (e) => e.code === 'limit', path);
    assert.equal(fs.read(path).length, 70000, `${path} without a use`);
    assert.equal(fs.read(path, { use: 'skin', maxSize: 70000 }).length, 70000);
    assert.throws(() => fs.read(path, { use: 'sound' }), (e) => e.code === 'invalid_argument' && /no use 'sound'/.test(e.message));
  }
  assert.throws(() => fs.read('flat.tga', { use: 'model' }), (e) => e.code === 'limit' && /ratio over 256:1/.test(e.message));
  assert.equal(fs.read('flat.tga', { use: 'texture' }).length, 300000);
  const loose = iq.mountArchives([pak, { 'loose.skin': big }], { limits: { skin: { maxSize: 100000 }, texture: { maxRatio: 100 } } });
  assert.equal(loose.read('big.skin', { use: 'skin' }).length, 70000);
  assert.equal(loose.read('loose.skin', { use: 'skin' }).length, 70000);
  assert.throws(() => loose.read('flat.tga', { use: 'texture' }), (e) => e.code === 'limit' && /limits\.texture\.maxRatio/.test(e.message));
  assert.throws(() => iq.mountArchives([pak], { limits: { sound: {} } }), (e) => e.code === 'invalid_argument');
});

test('loadPlayer through a file system: a skin over its cap in another pk3 is a limit warning, a part over its cap an error', async () => {
  const { players, textures } = await splitPlayer();
  const fs = iq.mountArchives([players, textures], { limits: { skin: { maxSize: 10 } } });
  const player = iq.loadPlayer(fs);
  try {
    assert.ok(player.warnings.some((w) => w.code === 'limit' && /lower_default\.skin/.test(w.message)), JSON.stringify(player.warnings));
    assert.equal(player.surfaces.lower[0].source, 'shader', 'the capped skin is not applied');
  } finally {
    player.dispose();
  }
  const tight = iq.mountArchives([players, textures], { limits: { model: { maxSize: 100 } } });
  assert.throws(() => iq.loadPlayer(tight), (e) => e.code === 'limit' && e.file === `${P}/lower.md3`);
  // loadPlayer's own limits still go over the file system's
  const again = iq.loadPlayer(fs, { limits: { skin: { maxSize: 1000 } } });
  assert.equal(again.surfaces.lower[0].source, 'skin');
  again.dispose();
});

test('bad arguments: not a list, bytes instead of an archive, a file system inside another, an unknown order', async () => {
  const pak = await open({ 'a.txt': 'a' }, 'pak0.pk3');
  const bad = (fn, pattern) => assert.throws(fn, (e) => e.code === 'invalid_argument' && pattern.test(e.message));
  bad(() => iq.mountArchives(pak), /takes a list/);
  bad(() => iq.mountArchives([zip({ 'a.txt': 'a' })]), /source 1 is neither/);
  bad(() => iq.mountArchives([pak, 'pak1.pk3']), /source 2 is neither/);
  bad(() => iq.mountArchives([iq.mountArchives([pak])]), /cannot be mounted again/);
  bad(() => iq.mountArchives([pak], { order: 'newest' }), /order must be/);
  bad(() => iq.mountArchives([pak]).peek('a.txt', -1), /whole number/);
  const empty = iq.mountArchives([]);
  assert.deepEqual([empty.files, empty.players, empty.name], [[], [], '']);
  const fs = iq.mountArchives([pak]);
  fs.dispose();
  assert.equal(fs.read('a.txt'), null);
  assert.equal(text(pak.read('a.txt')), 'a', 'the archive is still the caller\'s');
});
