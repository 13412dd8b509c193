// The command-line tool run as a subprocess, the way `npx interquake` runs it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from 'interquake';
import { buildMD3, quadSurface } from '../lib/md3-build.mjs';
import { buildZip } from '../lib/zip-build.mjs';

const bin = fileURLToPath(new URL('../../../bin/interquake.mjs', import.meta.url));
const corpus = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));
const jetpack = join(corpus, 'iqe/unvanquished/jetpack.iqe');
const mrfixit = join(corpus, 'iqm/mrfixit/mrfixit.iqm');
const invalid = join(corpus, 'iqm/invalid/InvalidMeshOffset.iqm');
const sarge = join(corpus, 'md3/openarena/models/players/sarge');
const run = (...args) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
const version = JSON.parse(readFileSync(fileURLToPath(new URL('../../../package.json', import.meta.url)), 'utf8')).version;
const iq = await init();

function withDir(fn) {
  const dir = mkdtempSync(join(tmpdir(), 'iq-cli-'));
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Two surfaces, the first with two shaders; two tags; frameZ gives the frames (z of the quad).
function md3({ frameZ = [0, 2] } = {}) {
  const tag = (name, x) => ({ name, frames: frameZ.map((z) => ({ origin: [x, 0, z], axes: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] })) });
  return buildMD3({
    surfaces: [
      quadSurface({ name: 'w_body', shaders: [{ name: 'models/w/body.tga', index: 0 }, { name: 'models/w/body_glow.tga', index: 1 }], frameZ }),
      quadSurface({ name: 'w_barrel', shaders: [{ name: 'models/w/barrel.tga', index: 0 }], frameZ }),
    ],
    tags: [tag('tag_flash', 4), tag('tag_hand', 0)],
  }).bytes;
}

// A stored (uncompressed) pk3 with the sarge player, a good model and a bad one.
function pk3() {
  const files = readdirSync(sarge).map((f) => ({ name: `models/players/sarge/${f}`, data: readFileSync(join(sarge, f)) }));
  files.push({ name: 'models/weapons/w.md3', data: md3() });
  files.push({ name: 'models/broken.iqm', data: readFileSync(invalid) });
  return buildZip(files).bytes;
}

test('info on an IQM: counts, materials, a short joint tree, animations with fps and loop', () => {
  const r = run('info', mrfixit);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  const model = iq.load(readFileSync(mrfixit));
  assert.match(lines[0], /mrfixit\.iqm: IQM model/);
  assert.match(r.stdout, new RegExp(`${model.vertexCount} vertices, ${model.triangleCount} triangles, 75 joints, 101 frames, 1 animation`));
  for (const mesh of model.meshes) assert.match(r.stdout, new RegExp(`${mesh.name} .*material: ${mesh.material.replace('.', '\\.')}`));
  // the tree: roots at two spaces, children deeper, single-child chains joined, the rest folded into counts
  const start = lines.indexOf('joints (75)');
  const end = lines.indexOf('animations (1)');
  assert.ok(start > 0 && end > start);
  const tree = lines.slice(start + 1, end);
  const roots = model.joints.filter((j) => j.parent < 0).map((j) => j.name);
  assert.deepEqual(tree.filter((l) => /^ {2}\S/.test(l)).map((l) => l.trim().split(' ')[0]), roots);
  assert.ok(tree.some((l) => /^ {6}\S/.test(l)), 'nested levels are indented');
  assert.ok(tree.some((l) => / > /.test(l)) && tree.some((l) => /\(\+\d+ joints below\)/.test(l)));
  assert.ok(lines.length <= 40, `a screen: ${lines.length} lines`);
  // every joint is accounted for: shown by name, or inside a folded count
  const shown = tree.flatMap((l) => l.replace(/\(.*\)$/, '').replace(/^\s*(\.\.\. \d+ more: )?/, '').split(/ > |, /).map((s) => s.trim())).filter(Boolean);
  const folded = tree.reduce((s, l) => s + Number((/\(\+(\d+) joints? below\)/.exec(l) || [0, 0])[1]), 0);
  assert.equal(shown.length + folded, 75);
  assert.match(r.stdout, /\n {2}idle +frames 0-100 \(101\) +24 fps +4\.208 s +once\n/);
  assert.match(r.stdout, /warnings: none/);

  const full = run('info', mrfixit, '--full');
  assert.equal(full.status, 0, full.stderr);
  for (const joint of model.joints) assert.match(full.stdout, new RegExp(`\\n +${joint.name.replace('.', '\\.')}\\n`));
  model.dispose();
});

test('info on an MD3: every shader of a surface, tags, and frames without an invented animation', () => withDir((dir) => {
  const file = join(dir, 'w.md3');
  writeFileSync(file, md3());
  const r = run('info', file);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /w_body +4 vertices +2 triangles +shaders: models\/w\/body\.tga, models\/w\/body_glow\.tga/);
  assert.match(r.stdout, /w_barrel +4 vertices +2 triangles +shader: models\/w\/barrel\.tga/);
  assert.match(r.stdout, /tags \(2\)\n {2}tag_flash, tag_hand\n/);
  assert.match(r.stdout, /animations \(0\)\n {2}frames 0-1, no named animation/);
  assert.doesNotMatch(r.stdout, /\ball\b|15 fps/);
}));

test('info --json: the documented schema', () => withDir((dir) => {
  const file = join(dir, 'w.md3');
  writeFileSync(file, md3());
  let r = run('info', file, '--json');
  assert.equal(r.status, 0, r.stderr);
  const info = JSON.parse(r.stdout);
  assert.equal(info.schema, 1);
  assert.equal(info.kind, 'model');
  assert.equal(info.format, 'md3');
  assert.equal(info.bytes, md3().length);
  assert.equal(info.frameCount, 2);
  assert.deepEqual(info.animations, []);
  assert.deepEqual(info.tags, ['tag_flash', 'tag_hand']);
  assert.deepEqual(info.meshes.map((m) => m.shaders), [['models/w/body.tga', 'models/w/body_glow.tga'], ['models/w/barrel.tga']]);
  assert.deepEqual(info.meshes.map((m) => [m.firstVertex, m.vertexCount, m.firstTriangle, m.triangleCount]), [[0, 4, 0, 2], [4, 4, 2, 2]]);
  for (const key of ['vertexCount', 'triangleCount', 'arrays', 'joints', 'bounds', 'customArrays', 'commentBytes', 'extensions', 'warnings']) {
    assert.ok(key in info, key);
  }

  r = run('info', jetpack, '--json');
  assert.equal(r.status, 0, r.stderr);
  const iqe = JSON.parse(r.stdout);
  const text = readFileSync(jetpack, 'utf8');
  const words = text.split('\n').map((l) => l.trim().split(/\s+/)[0]);
  assert.equal(iqe.vertexCount, words.filter((w) => w === 'vp').length);
  assert.equal(iqe.joints.length, words.filter((w) => w === 'joint').length);
  assert.deepEqual(iqe.animations.map((a) => [a.name, a.framerate]), [['idle', 24], ['slidein', 24], ['slideout', 24]]);
  let next = 0;
  for (const a of iqe.animations) {
    assert.equal(a.firstFrame, next);
    assert.equal(a.lastFrame, a.firstFrame + a.frameCount - 1);
    next += a.frameCount;
  }
  assert.equal(next, iqe.frameCount);
}));

test('info on a .pk3, on ARCHIVE:model and on ARCHIVE:player-folder', () => withDir((dir) => {
  const archive = join(dir, 'mod.pk3');
  writeFileSync(archive, pk3());
  let r = run('info', archive);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /players \(1\)\n {2}models\/players\/sarge +skins: default, red, blue, classic, classicblue, classicred, indigo +LODs 0, 1, 2/);
  assert.match(r.stdout, /models \(11; 2 outside player folders\)\n {2}models\/weapons\/w\.md3\n {2}models\/broken\.iqm/);
  const json = JSON.parse(run('info', archive, '--json').stdout);
  assert.equal(json.kind, 'archive');
  assert.equal(json.entryCount, readdirSync(sarge).length + 2);
  assert.equal(json.models.length, 11);

  r = run('info', `${archive}:models/weapons/w.md3`);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /mod\.pk3:models\/weapons\/w\.md3: MD3 model/);
  assert.match(r.stdout, /shaders: models\/w\/body\.tga, models\/w\/body_glow\.tga/);

  r = run('info', `${archive}:models/players/sarge`, '--json');
  assert.equal(r.status, 0, r.stderr);
  const player = JSON.parse(r.stdout);
  assert.equal(player.kind, 'player');
  assert.equal(player.source, 'archive');
  assert.deepEqual(player.parts.map((p) => [p.part, p.frameCount]), [['lower', 213], ['upper', 155], ['head', 1]]);
  // the textures (in models/players/grism) are not in this pk3
  assert.ok(player.missingFiles.includes('models/players/grism/enkiskin.tga'));

  r = run('info', `${archive}:models/broken.iqm`);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /mod\.pk3:models\/broken\.iqm: out_of_range \(byte 40\)/);
  r = run('info', `${archive}:models/nothing.md3`);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /no such entry/);
}));

test('--pk3: ARCHIVE:PATH read with other archives as one file system (a later file name wins)', () => withDir((dir) => {
  const players = join(dir, 'pak2-players.pk3');
  writeFileSync(players, pk3());
  // the grism textures sarge's skins name, in another pk3, with a lower.md3 that must not win
  const grism = join(corpus, 'md3/openarena/models/players/grism');
  const textures = readdirSync(grism).filter((f) => /\.(tga|jpg)$/i.test(f)).map((f) => ({ name: `models/players/grism/${f}`, data: readFileSync(join(grism, f)) }));
  textures.push({ name: 'models/players/sarge/lower.md3', data: md3() });
  writeFileSync(join(dir, 'pak0.pk3'), buildZip(textures).bytes);
  const info = (...more) => {
    const r = run('info', `${players}:models/players/sarge`, '--json', ...more);
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  const alone = info();
  assert.ok(alone.missingFiles.includes('models/players/grism/enkiskin.tga'));
  const joined = info('--pk3', join(dir, 'pak0.pk3'));
  assert.deepEqual(joined.missingFiles, []);
  assert.ok(joined.skins.every((s) => s.missingFiles.length === 0), JSON.stringify(joined.skins));
  assert.deepEqual(joined.parts.map((p) => [p.part, p.frameCount]), [['lower', 213], ['upper', 155], ['head', 1]], 'pak2-players.pk3 sorts after pak0.pk3: its lower.md3 wins');
  // named 'zz.pk3', the other archive sorts last and its lower.md3 wins
  copyFileSync(join(dir, 'pak0.pk3'), join(dir, 'zz.pk3'));
  assert.deepEqual(info('--pk3', join(dir, 'zz.pk3')).parts.map((p) => [p.part, p.frameCount]), [['lower', 2], ['upper', 155], ['head', 1]]);
  const archive = run('info', players, '--pk3', join(dir, 'pak0.pk3'), '--json');
  assert.equal(JSON.parse(archive.stdout).entryCount, readdirSync(sarge).length + 2 + textures.length - 1);
  let r = run('info', players, '--pk3', join(dir, 'none.pk3'));
  assert.equal(r.status, 1);
  assert.match(r.stderr, /none\.pk3: cannot read: ENOENT \(--pk3\)/);
  r = run('info', sarge, '--pk3', join(dir, 'pak0.pk3'));
  assert.equal(r.status, 1);
  assert.match(r.stderr, /--pk3 joins archives/);
}));

test('info on a player folder: parts, skins, surfaces with textures, animation.cfg', () => {
  const r = run('info', sarge);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /Quake 3 player 'sarge' \(folder\)/);
  assert.match(r.stdout, /lower +models\/players\/sarge\/lower\.md3 +MD3 +213 frames .*tags: tag_torso/);
  assert.match(r.stdout, /upper +models\/players\/sarge\/upper\.md3 +MD3 +155 frames .*tags: tag_weapon, tag_head/);
  assert.match(r.stdout, /skins: default, red, blue, classic, classicblue, classicred, indigo; LODs 0, 1, 2/);
  // sarge's skins name textures in models/players/grism: found beside the player in the game tree
  assert.match(r.stdout, /upper +u_torso +skin +models\/players\/grism\/enkiskin\.tga\n/);
  assert.match(r.stdout, /animations \(33 from animation\.cfg\)/);
  assert.match(r.stdout, /\n {2}LEGS_RUN +legs +frames 110-118 \(9\) +15 fps +loop 9\n/);
  assert.match(r.stdout, /\n {2}LEGS_BACKWALK +legs +frames 98-109 \(12\) +20 fps +loop 12 +reversed\n/);
  assert.match(r.stdout, /missing files \(0 with skin default\)/);

  const json = JSON.parse(run('info', sarge, '--json', '--skin', 'red').stdout);
  assert.equal(json.skin, 'red');
  assert.equal(json.animations.length, 33);
  assert.deepEqual(json.surfaces.map((s) => [s.part, s.texture]), [
    ['lower', 'models/players/grism/redskin.tga'], ['upper', 'models/players/grism/redskin.tga'], ['head', 'models/players/grism/redskin.tga']]);

  // A folder with no model at all is still refused; one with models opens its character (below).
  withDir((dir) => {
    writeFileSync(join(dir, 'readme.txt'), 'no model here');
    const notPlayer = run('info', dir);
    assert.equal(notPlayer.status, 1);
    assert.match(notPlayer.stderr, /no model in it \(and not a Quake 3 player folder/);
  });
});

test('validate: a folder with a good file, a bad file, a player and a pk3', () => withDir((dir) => {
  copyFileSync(mrfixit, join(dir, 'good.iqm'));
  copyFileSync(invalid, join(dir, 'bad.iqm'));
  writeFileSync(join(dir, 'notes.txt'), 'not a model: skipped');
  writeFileSync(join(dir, 'mod.pk3'), pk3());
  writeFileSync(join(dir, 'broken.pk3'), 'PK\x03\x04 this is no zip');
  const player = join(dir, 'models/players/sarge');
  mkdirSync(player, { recursive: true });
  for (const f of readdirSync(sarge)) copyFileSync(join(sarge, f), join(player, f));

  const r = run('validate', dir, '--workers', '2');
  assert.equal(r.status, 1, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  const problems = lines.slice(0, -1).sort();
  assert.deepEqual(problems.map((l) => l.replace(dir, 'DIR')), [
    'DIR/bad.iqm: out_of_range (byte 40): meshes: 1 x 24 bytes at offset 124 run past the end of the 124-byte file',
    'DIR/broken.pk3: ' + problems.find((l) => l.includes('broken.pk3')).slice(`${dir}/broken.pk3: `.length),
    'DIR/mod.pk3:models/broken.iqm: out_of_range (byte 40): meshes: 1 x 24 bytes at offset 124 run past the end of the 124-byte file',
  ].sort());
  assert.match(problems.find((l) => l.includes('broken.pk3')), /broken\.pk3: (unknown_format|bad_magic|truncated)/);
  // items: good.iqm, bad.iqm, 9 sarge models + the sarge player (loose), 2 archives, 11 models + 1 player in mod.pk3
  assert.match(lines.at(-1), /^26 files: 23 ok, 3 failed, \d+ warnings; [\d.]+ MB of models \([\d.]+ MB on disk\) in [\d.]+ s \([\d.]+ files\/s, [\d.]+ MB\/s, 2 workers\)$/);
  assert.doesNotMatch(r.stdout, /: warning /);

  const w = run('validate', dir, '--warnings');
  assert.match(w.stdout, /mod\.pk3:models\/players\/sarge: warning missing_file: models\/players\/grism\/enkiskin\.tga/);
  assert.match(w.stdout, /sarge\/upper\.md3: warning repaired: 155 tag record/);

  const good = run('validate', join(dir, 'good.iqm'), player);
  assert.equal(good.status, 0, good.stdout);
  assert.match(good.stdout, /^11 files: 11 ok, 0 failed/);
}));

test('validate --json: one document with every item and the summary', () => withDir((dir) => {
  copyFileSync(mrfixit, join(dir, 'good.iqm'));
  copyFileSync(invalid, join(dir, 'bad.iqm'));
  writeFileSync(join(dir, 'mod.pk3'), pk3());
  const r = run('validate', dir, '--json', '--workers', '1');
  assert.equal(r.status, 1);
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.schema, 1);
  assert.equal(doc.kind, 'validate');
  const failed = doc.items.filter((i) => !i.ok);
  assert.deepEqual(failed.map((i) => [i.path.slice(dir.length), i.error.code, i.error.where]),
    [['/bad.iqm', 'out_of_range', 'byte 40'], ['/mod.pk3:models/broken.iqm', 'out_of_range', 'byte 40']]);
  // bytes: the models loaded (loose, and the pk3's model entries); inputBytes: the files on disk
  const loose = [mrfixit, invalid].reduce((s, f) => s + readFileSync(f).length, 0);
  const inPk3 = readdirSync(sarge).filter((f) => f.endsWith('.md3')).reduce((s, f) => s + readFileSync(join(sarge, f)).length, 0) +
    md3().length + readFileSync(invalid).length;
  const sizes = loose + inPk3;
  assert.deepEqual({ ...doc.summary, seconds: 0, filesPerSecond: 0, megabytesPerSecond: 0 }, {
    files: 15, ok: 13, failed: 2, warnings: doc.items.reduce((s, i) => s + i.warnings.length, 0),
    bytes: sizes, inputBytes: loose + pk3().length, megabytes: Math.round(sizes / 1e3) / 1e3,
    seconds: 0, filesPerSecond: 0, megabytesPerSecond: 0, workers: 1, skipped: 0,
  });
  assert.deepEqual(doc.skipped, []);
  assert.ok(doc.items.find((i) => i.kind === 'player').warnings.some((w) => w.code === 'missing_file'));
}));

test('validate: an item that takes too long is stopped, its worker replaced, and the run ends', () => withDir((dir) => {
  // IQE files big enough that parsing one takes far more than 5 ms
  const lines = ['# Inter-Quake Export', 'mesh m'];
  for (let i = 0; i < 150000; i++) lines.push(`vp ${i} ${i % 7} ${i % 13}`);
  for (let i = 0; i + 2 < 150000; i += 3) lines.push(`fm ${i} ${i + 1} ${i + 2}`);
  for (const name of ['a.iqe', 'b.iqe', 'c.iqe']) writeFileSync(join(dir, name), lines.join('\n'));
  const r = run('validate', dir, '--workers', '1', '--timeout', '0.005');
  assert.equal(r.status, 1);
  const problems = r.stdout.trimEnd().split('\n').slice(0, -1).sort();
  assert.deepEqual(problems, ['a', 'b', 'c'].map((n) => `${join(dir, n)}.iqe: timeout: no answer within 0.005 s; its worker was stopped`));
  assert.match(r.stdout, /3 files: 0 ok, 3 failed/);
}));

test('--version, --help and COMMAND --help', () => {
  let r = run('--version');
  assert.equal(r.status, 0);
  assert.equal(r.stdout, `interquake ${version}\n`);
  r = run('--help');
  assert.equal(r.status, 0);
  for (const c of ['info TARGET', 'validate PATH...', 'convert IN OUT.iqm']) assert.ok(r.stdout.includes(`interquake ${c}`), c);
  for (const [command, words] of [['info', /ARCHIVE:PATH/], ['validate', /--workers N/], ['convert', /temporary name/]]) {
    r = run(command, '--help');
    assert.equal(r.status, 0);
    assert.match(r.stdout, new RegExp(`^usage: interquake ${command}`));
    assert.match(r.stdout, words);
  }
});

test('usage errors: a message, the usage, exit code 2', () => {
  for (const [args, message] of [
    [[], /no command given/], [['frobnicate'], /unknown command 'frobnicate'/], [['info'], /info takes one TARGET/],
    [['info', mrfixit, mrfixit], /info takes one TARGET/], [['convert', jetpack, 'out.obj'], /must be an \.iqm or \.glb file/],
    [['info', jetpack, '--format', 'obj'], /unknown format 'obj'/], [['info', '--bogus', jetpack], /unknown option '--bogus'/],
    [['validate'], /validate takes one PATH/], [['validate', '.', '--workers', '0'], /--workers takes a whole number/],
    [['validate', '.', '--timeout', 'soon'], /--timeout takes a number/], [['info', mrfixit, '--format'], /--format needs a value/],
    [['convert', jetpack, 'x.iqm', '--json'], /unknown option '--json' for convert/], [['-x'], /unknown option '-x'/],
  ]) {
    const r = run(...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message, args.join(' '));
    assert.match(r.stderr, /usage: interquake/);
    assert.equal(r.stdout, '');
  }
});

test('convert: IQE to IQM with the same content', () => withDir((dir) => {
  const out = join(dir, 'jetpack.iqm');
  const r = run('convert', jetpack, out);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /2297 vertices, 1968 triangles, 6 joints, 30 frames, 3 animations/);
  const a = iq.load(readFileSync(jetpack));
  const b = iq.load(readFileSync(out));
  assert.equal(b.format, 'iqm');
  assert.deepEqual(b.animations, a.animations);
  assert.equal(b.vertexCount, a.vertexCount);
  a.dispose();
  b.dispose();
  assert.deepEqual(readdirSync(dir), ['jetpack.iqm']);
}));

test('convert: a one-frame MD3 and an MD3 whose frames are all the same become static IQMs', () => withDir((dir) => {
  for (const [name, frameZ] of [['one.md3', [3]], ['same.md3', [3, 3, 3]]]) {
    const input = join(dir, name);
    const out = join(dir, name.replace('.md3', '.iqm'));
    writeFileSync(input, md3({ frameZ }));
    const r = run('convert', input, out);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /8 vertices, 4 triangles, 0 joints, 0 frames, 0 animations/);
    assert.match(r.stderr, /2 tags \(tag_flash, tag_hand\) not written/);
    const a = iq.load(readFileSync(input));
    const b = iq.load(readFileSync(out));
    assert.equal(b.format, 'iqm');
    assert.equal(b.frameCount, 0);
    assert.deepEqual(b.positions, a.positions);
    assert.deepEqual(b.normals, a.normals);
    assert.deepEqual(b.texcoords, a.texcoords);
    assert.deepEqual(b.indices, a.indices);
    assert.deepEqual(b.meshes.map((m) => [m.name, m.material]), a.meshes.map((m) => [m.name, m.material]));
    assert.ok(b.positions.some((v) => v === 3), 'frame 0 is z = 3');
    a.dispose();
    b.dispose();
  }
  // a real one: the corpus's one-frame prop
  const out = join(dir, 'watercan.iqm');
  const r = run('convert', join(corpus, 'md3/assimp/watercan.md3'), out);
  assert.equal(r.status, 0, r.stderr);
  const a = iq.load(readFileSync(join(corpus, 'md3/assimp/watercan.md3')));
  const b = iq.load(readFileSync(out));
  assert.deepEqual(b.positions, a.positions);
  a.dispose();
  b.dispose();
}));

test('convert: a multi-frame MD3 is refused with the reason, and nothing is left behind', () => withDir((dir) => {
  const input = join(dir, 'anim.md3');
  writeFileSync(input, md3({ frameZ: [0, 0, 2] }));
  const out = join(dir, 'anim.iqm');
  let r = run('convert', input, out);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /anim\.md3: unsupported: the model's 3 frames are vertex \(morph\) animation \(frame 2 differs from frame 0\); IQM stores skeletal animation only/);
  assert.equal(existsSync(out), false);
  assert.deepEqual(readdirSync(dir), ['anim.md3']);
  // a failed write (the folder does not exist) leaves no temporary file either
  r = run('convert', join(corpus, 'md3/assimp/watercan.md3'), join(dir, 'nowhere', 'w.iqm'));
  assert.equal(r.status, 1);
  assert.match(r.stderr, /w\.iqm: cannot write: ENOENT/);
  assert.deepEqual(readdirSync(dir), ['anim.md3']);
}));

test('bad input: a clear message and exit code 1', () => withDir((dir) => {
  const bad = join(dir, 'bad.iqe');
  writeFileSync(bad, '# Inter-Quake Export\nvp 0 0 0\nfa 0 1\n');
  let r = run('info', bad);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /bad\.iqe: syntax \(line 3, column 1\): fa: a face needs at least 3 vertex indices/);
  assert.equal(r.stdout, '');
  r = run('convert', bad, join(dir, 'out.iqm'));
  assert.equal(r.status, 1);
  assert.match(r.stderr, /syntax \(line 3/);
  r = run('info', join(dir, 'missing.iqe'));
  assert.equal(r.status, 1);
  assert.match(r.stderr, /missing\.iqe: cannot read: ENOENT/);
  writeFileSync(join(dir, 'junk.bin'), 'not a model at all');
  r = run('info', join(dir, 'junk.bin'));
  assert.equal(r.status, 1);
  assert.match(r.stderr, /unknown_format/);
}));

test('convert to .glb: a model with its textures, a player folder with --skin and --lod, a player and a model inside a .pk3', async () => {
  const { default: validator } = await import('gltf-validator');
  const { sargePk3 } = await import('../lib/q3-corpus.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'iq-cli-'));
  try {
    const chunkJson = (bytes) => JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + (bytes[12] | (bytes[13] << 8) | (bytes[14] << 16)))));
    const check = async (args, out) => {
      const r = run('convert', ...args, out);
      assert.equal(r.status, 0, r.stderr);
      const bytes = new Uint8Array(readFileSync(out));
      const report = await validator.validateBytes(bytes);
      assert.equal(report.issues.numErrors + report.issues.numWarnings, 0, `${args[0]}: ${JSON.stringify(report.issues.messages.slice(0, 3))}`);
      assert.match(r.stdout, new RegExp(`${out.replace(/[.\\/]/g, '\\$&')}: ${bytes.length} bytes`));
      return { json: chunkJson(bytes), r };
    };
    const model = await check([mrfixit], join(dir, 'mrfixit.glb'));
    assert.equal(model.json.images.length, 2, 'Body.tga and Head.tga read from beside the model');
    const player = await check([sarge, '--skin', 'blue', '--lod', '1'], join(dir, 'sarge.glb'));
    assert.equal(player.json.scenes[0].extras.quake3Player.skin, 'blue');
    assert.equal(player.json.scenes[0].extras.quake3Player.lod, 1);
    assert.ok(player.json.animations.some((a) => a.name === 'LEGS_RUN'));
    assert.equal(player.json.images.length, 1, 'the blue skin texture from models/players/grism');
    const pk3 = join(dir, 'sarge.pk3');
    writeFileSync(pk3, sargePk3().bytes);
    const inside = await check([`${pk3}:models/players/sarge`], join(dir, 'pk3-player.glb'));
    assert.deepEqual(inside.json.animations.map((a) => a.name), player.json.animations.map((a) => a.name));
    const part = await check([`${pk3}:models/players/sarge/head.md3`], join(dir, 'head.glb'));
    assert.equal(part.json.nodes.filter((n) => n.name.startsWith('tag_')).length, 0, 'head.md3 has no tags');
    const missing = await check([join(corpus, 'md3/assimp/european_fnt_v2.md3')], join(dir, 'car.glb'));
    assert.match(missing.r.stderr, /warning missing_file: .*european_fnt\.tga/);
    assert.deepEqual(readdirSync(dir).filter((n) => n.endsWith('.tmp')), [], 'no temporary file left');
    const bad = run('convert', sarge, join(dir, 'x.glb'), '--lod', 'two');
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--lod takes a whole number/);
    assert.equal(run('convert', jetpack, join(dir, 'x.iqm'), '--skin', 'red').status, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
