// The command line in a pipeline (issue 17, item 7): a closed pipe, archives of one folder mounted
// together, files skipped by format, archives read entry by entry. Fixtures are built here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildZip } from '../lib/zip-build.mjs';

const bin = fileURLToPath(new URL('../../../bin/interquake.mjs', import.meta.url));
const corpus = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));
const sarge = join(corpus, 'md3/openarena/models/players/sarge');
const mrfixit = join(corpus, 'iqm/mrfixit/mrfixit.iqm');
const run = (...args) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

function withDir(fn) {
  const dir = mkdtempSync(join(tmpdir(), 'iq-cli-pipe-'));
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('validate | head -1: the closed pipe ends the run quietly, with the exit code of what failed so far', () => {
  withDir((dir) => {
    // 1500 broken models: about 130 KB of problem lines, more than a pipe holds, so writes go on
    // after head has read its line and gone.
    for (let i = 0; i < 1500; i++) writeFileSync(join(dir, `m${i}.iqm`), 'INTERQUAKEMODEL\0garbage');
    const r = spawnSync('bash', ['-c', `"${process.execPath}" "${bin}" validate "${dir}" --warnings --workers 1 | head -1; exit "\${PIPESTATUS[0]}"`], { encoding: 'utf8' });
    assert.equal(r.stderr, '', 'no stack, no message');
    assert.equal(r.stdout.trim().split('\n').length, 1);
    assert.match(r.stdout, /m\d+\.iqm: truncated/);
    assert.equal(r.status, 1, 'failures were seen before the pipe closed');
  });
});

// Two folders of a game: game/ with the textures in pak0.pk3 and sarge in pak2-players.pk3 (as
// OpenArena splits them), other/ with sarge alone.
function gameFolders(dir) {
  const players = join(corpus, 'md3/openarena/models/players');
  const filesOf = (name) => readdirSync(join(players, name)).map((f) => ({ name: `models/players/${name}/${f}`, data: readFileSync(join(players, name, f)), deflate: !f.endsWith('.tga') }));
  mkdirSync(join(dir, 'game'));
  mkdirSync(join(dir, 'other'));
  writeFileSync(join(dir, 'game/pak0.pk3'), buildZip(filesOf('grism')).bytes);
  writeFileSync(join(dir, 'game/pak2-players.pk3'), buildZip(filesOf('sarge')).bytes);
  writeFileSync(join(dir, 'other/sarge.pk3'), buildZip(filesOf('sarge')).bytes);
}

const missingOf = (item) => new Set(item.warnings.filter((w) => w.code === 'missing_file').map((w) => w.message.replace(/ \(referenced, not found\)$/, '')));

test('validate mounts the .pk3s of one folder together, as the game does; --alone checks each on its own', () => withDir((dir) => {
  gameFolders(dir);
  const together = run('validate', dir, '--json', '--workers', '1');
  assert.equal(together.status, 0, together.stderr);
  const alone = run('validate', dir, '--json', '--workers', '1', '--alone');
  assert.equal(alone.status, 0, alone.stderr);
  const players = (doc) => Object.fromEntries(JSON.parse(doc.stdout).items.filter((i) => i.kind === 'player').map((i) => [i.path.slice(dir.length + 1), i]));
  const joined = players(together);
  const each = players(alone);
  // one player per folder either way: the one in game/ is named by the pk3 its models come from
  assert.deepEqual(Object.keys(joined).sort(), ['game/pak2-players.pk3:models/players/sarge', 'other/sarge.pk3:models/players/sarge']);
  assert.deepEqual(Object.keys(each).sort(), Object.keys(joined).sort());
  const key = 'game/pak2-players.pk3:models/players/sarge';
  const mounted = missingOf(joined[key]);
  const single = missingOf(each[key]);
  const found = [...single].filter((f) => !mounted.has(f));
  // the grism textures sarge's skins use are in pak0.pk3: missing alone, found when mounted
  assert.ok(found.length >= 5, `found with pak0.pk3 mounted: ${found.join(', ')}`);
  assert.ok(found.every((f) => f.startsWith('models/players/grism/')), found.join(', '));
  assert.ok([...mounted].every((f) => single.has(f)), 'mounting finds more, never less');
  // other/ is another folder: its pk3 is not joined with game/'s
  assert.deepEqual(missingOf(joined['other/sarge.pk3:models/players/sarge']), single);
}));

// The first bytes of a Quake sprite: its signature and version (the rest does not matter here). A
// format the library names but does not read (a sprite is not a model anyone plans to read).
const spr = () => {
  const b = new Uint8Array(68);
  b.set([0x49, 0x44, 0x53, 0x50, 1, 0, 0, 0]);
  return b;
};

test('validate counts and lists the files it skipped, by the format the library names; other files are not counted', () => withDir((dir) => {
  writeFileSync(join(dir, 'a.spr'), spr());
  writeFileSync(join(dir, 'b.SPR'), spr());
  writeFileSync(join(dir, 'skin.tga'), new Uint8Array(64)); // a texture: not a model, not counted
  writeFileSync(join(dir, 'notes.txt'), 'hello');
  writeFileSync(join(dir, 'mod.pk3'), buildZip([
    { name: 'models/c.spr', data: spr() }, { name: 'models/m.iqm', data: readFileSync(mrfixit), deflate: true }, { name: 'sound/x.wav', data: 'RIFF' },
  ]).bytes);
  const r = run('validate', dir, '--workers', '1');
  assert.equal(r.status, 0, r.stderr);
  const line = r.stdout.split('\n').find((l) => l.startsWith('skipped'));
  assert.match(line, /^skipped 3 \.spr \(not read yet: a Quake sprite \(IDSP\)\), e\.g\. /);
  assert.equal(r.stdout.split('\n').filter((l) => l.startsWith('skipped')).length, 1, r.stdout);
  const doc = JSON.parse(run('validate', dir, '--json', '--workers', '1').stdout);
  assert.equal(doc.summary.skipped, 3);
  assert.deepEqual(doc.skipped.map((s) => [s.extension, s.count, s.paths.map((p) => p.slice(dir.length + 1)).sort()]),
    [['spr', 3, ['a.spr', 'b.SPR', 'mod.pk3:models/c.spr']]]);
  assert.ok(doc.items.some((i) => i.path.endsWith('mod.pk3:models/m.iqm') && i.ok), 'the model in the pk3 is still checked');
}));

test('"can read" comes from the library: iq.formats lists what load() reads', async () => {
  const { init } = await import('interquake');
  const { readableExtension } = await import('../../../bin/cli/validate.mjs');
  const iq = await init();
  for (const f of ['iqm', 'iqe', 'md3']) assert.ok(iq.formats.includes(f), f);
  assert.ok(!iq.formats.includes('auto'));
  const canRead = readableExtension(iq.formats);
  assert.ok(canRead('iqm') && canRead('md3') && !canRead('tga') && !canRead('spr'));
  assert.ok(readableExtension(['md5'])('md5mesh') && readableExtension(['md5'])('md5anim') && !readableExtension(['md5'])('md5x'));
});

test('validate reads archives on demand and holds no descriptor between reads: 300 pk3s under a limit of 128 open files', () => withDir((dir) => {
  const model = readFileSync(join(corpus, 'md3/assimp/watercan.md3'));
  for (let i = 0; i < 300; i++) writeFileSync(join(dir, `m${String(i).padStart(3, '0')}.pk3`), buildZip([{ name: `models/m${i}.md3`, data: model, deflate: i % 2 === 0 }]).bytes);
  const r = spawnSync('bash', ['-c', `ulimit -n 128 && "${process.execPath}" "${bin}" validate "${dir}" --workers 1`], { encoding: 'utf8' });
  assert.equal(r.status, 0, `${r.stdout.slice(-400)}${r.stderr}`);
  assert.match(r.stdout, /^600 files: 600 ok, 0 failed/m, 'every archive and its model');
}));
