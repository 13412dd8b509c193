// `interquake render` run as a subprocess: one picture, a turntable, a sprite sheet, the batch form
// over a folder with a broken file (exit 1, a summary, no partial files), and bad usage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodePNG } from '../../../web/core/images.js';

const bin = fileURLToPath(new URL('../../../bin/interquake.mjs', import.meta.url));
const corpus = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));
const mrfixit = join(corpus, 'iqm/mrfixit/mrfixit.iqm');
const sarge = join(corpus, 'md3/openarena/models/players/sarge');
const run = (...args) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

function withDir(fn) {
  const dir = mkdtempSync(join(tmpdir(), 'iq-render-'));
  return Promise.resolve(fn(dir)).finally(() => rmSync(dir, { recursive: true, force: true }));
}

const chunkTypes = (png) => {
  const types = [];
  for (let at = 8; at < png.length;) {
    const length = ((png[at] << 24) | (png[at + 1] << 16) | (png[at + 2] << 8) | png[at + 3]) >>> 0;
    types.push(String.fromCharCode(...png.subarray(at + 4, at + 8)));
    at += 12 + length;
  }
  return types;
};

test('render IN OUT.png: a picture of the size asked, the model on a transparent background', () => withDir(async (dir) => {
  const out = join(dir, 'mrfixit.png');
  const r = run('render', mrfixit, out, '--size', '160x120', '--background', 'transparent', '--orbit', '90deg auto auto');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /160x120 PNG/);
  const img = await decodePNG(readFileSync(out));
  assert.equal(img.width, 160);
  assert.equal(img.height, 120);
  assert.equal(img.data[3], 0, 'the corner is transparent');
  const centre = ((60 * 160) + 80) * 4;
  assert.equal(img.data[centre + 3], 255, 'the model is in the middle');
  assert.deepEqual(readdirSync(dir), ['mrfixit.png'], 'no temporary file left');
}));

test('render --show "skeleton bounds": the element\'s overlays in the picture; an unknown flag is refused', () => withDir(async (dir) => {
  const out = join(dir, 'bones.png');
  const r = run('render', mrfixit, out, '--size', '96', '--show', 'skeleton bounds');
  assert.equal(r.status, 0, r.stderr);
  const img = await decodePNG(readFileSync(out));
  const count = (rgb) => {
    let n = 0;
    for (let i = 0; i < img.data.length; i += 4) n += rgb.every((c, k) => img.data[i + k] === c) ? 1 : 0;
    return n;
  };
  assert.ok(count([255, 140, 26]) > 20, `bones in their orange: ${count([255, 140, 26])}`);
  assert.ok(count([242, 204, 51]) > 20, `the bounds in their yellow: ${count([242, 204, 51])}`);
  const bad = run('render', mrfixit, join(dir, 'x.png'), '--show', 'wires');
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /show 'wires' is not among wireframe, skeleton, tags, bounds, normals, grid/);
  assert.deepEqual(readdirSync(dir), ['bones.png']);
}));

test('render --turntable N writes an animated PNG of N frames; --sheet a sprite sheet and its atlas', () => withDir(async (dir) => {
  const turn = join(dir, 'turn.png');
  let r = run('render', sarge, turn, '--size', '48', '--turntable', '6');
  assert.equal(r.status, 0, r.stderr);
  const types = chunkTypes(readFileSync(turn));
  assert.equal(types.filter((t) => t === 'fcTL').length, 6);
  assert.equal(types[1], 'acTL');
  const sheet = join(dir, 'walk.png');
  r = run('render', sarge, sheet, '--size', '32x40', '--sheet', '--frames', '5', '--legs-animation', 'LEGS_WALK');
  assert.equal(r.status, 0, r.stderr);
  const atlas = JSON.parse(readFileSync(join(dir, 'walk.json'), 'utf8'));
  assert.equal(atlas.image, 'walk.png');
  assert.equal(atlas.frames.length, 5);
  assert.deepEqual(atlas.frames[4], { x: 32, y: 40, w: 32, h: 40, time: atlas.frames[4].time }); // 3 columns
  const img = await decodePNG(readFileSync(sheet));
  assert.equal(img.width, atlas.width);
  assert.equal(img.height, atlas.height);
}));

test('render --out-dir: one picture per model and player, a summary, exit 1 for a broken file and no file for it', () => withDir(async (dir) => {
  const uploads = join(dir, 'uploads');
  mkdirSync(join(uploads, 'sub'), { recursive: true });
  copyFileSync(mrfixit, join(uploads, 'mrfixit.iqm'));
  copyFileSync(join(corpus, 'md3/assimp/watercan.md3'), join(uploads, 'sub', 'watercan.md3'));
  writeFileSync(join(uploads, 'broken.iqm'), 'INTERQUAKEMODEL\0 but not really');
  const thumbs = join(dir, 'thumbs');
  const r = run('render', '--out-dir', thumbs, uploads, '--size', '40', '--workers', '2');
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /broken\.iqm: \w+/);
  assert.match(r.stdout, /3 items: 2 pictures in .*thumbs, 1 failed/);
  assert.deepEqual(readdirSync(thumbs).sort(), ['mrfixit.png', 'sub_watercan.png']);
  for (const name of readdirSync(thumbs)) assert.equal((await decodePNG(readFileSync(join(thumbs, name)))).width, 40);
  // All good: exit 0.
  rmSync(join(uploads, 'broken.iqm'));
  const ok = run('render', '--out-dir', thumbs, uploads, '--size', '40', '--workers', '1');
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
}));

test('render: bad usage exits 2, bad input 1', () => withDir((dir) => {
  assert.equal(run('render', mrfixit).status, 2);
  assert.equal(run('render', mrfixit, join(dir, 'x.jpg')).status, 2);
  assert.equal(run('render', mrfixit, join(dir, 'x.png'), '--size', 'big').status, 2);
  const huge = run('render', mrfixit, join(dir, 'x.png'), '--size', '100000x100000');
  assert.equal(huge.status, 1);
  assert.match(huge.stderr, /width 100000 is not a whole number in 1\.\.8192/);
  assert.equal(run('render', join(dir, 'nothing.iqm'), join(dir, 'x.png')).status, 1);
  assert.equal(run('render', mrfixit, join(dir, 'x.png'), '--animation', 'dance').status, 1);
  assert.deepEqual(readdirSync(dir), [], 'nothing written for a failure');
}));

test('render --team red: the player\'s red team skins, as iq.render() draws them', () => withDir(async (dir) => {
  const { init } = await import('interquake');
  const { openTarget } = await import('../../../bin/cli/targets.mjs');
  const args = ['--size', '64x64', '--orbit', '0deg 80deg auto', '--background', 'transparent'];
  const red = join(dir, 'red.png');
  const plain = join(dir, 'plain.png');
  assert.equal(run('render', sarge, red, '--team', 'red', ...args).status, 0);
  assert.equal(run('render', sarge, plain, ...args).status, 0);
  const iq = await init();
  const { player } = await openTarget(iq, sarge, { team: 'red' });
  assert.equal(player.team, 'red');
  const image = await iq.render(player, { width: 64, height: 64, cameraOrbit: '0deg 80deg auto', background: 'transparent' });
  player.dispose();
  const drawnRed = (await decodePNG(readFileSync(red))).data;
  assert.deepEqual(drawnRed, image.pixels, 'the CLI draws what iq.render draws for the red player');
  assert.notDeepEqual(drawnRed, (await decodePNG(readFileSync(plain))).data, 'the red skins differ from the default ones');
  const bad = run('render', sarge, join(dir, 'x.png'), '--team', 'green');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--team takes red or blue/);
}));

test('render ARCHIVE.pk3 OUT.png: what the element opens for it, its first player, else its main model; nothing to draw exits 1', () => withDir(async (dir) => {
  const { buildZip } = await import('../lib/zip-build.mjs');
  const { gameFiles } = await import('../lib/q3-corpus.mjs');
  const { init } = await import('interquake');
  const args = ['--size', '64x64', '--orbit', '20deg 80deg auto', '--background', 'transparent'];
  const players = join(dir, 'players.pk3');
  writeFileSync(players, buildZip([...gameFiles()].map(([name, data]) => ({ name, data }))).bytes);
  const whole = run('render', players, join(dir, 'whole.png'), ...args);
  assert.equal(whole.status, 0, whole.stderr);
  assert.match(whole.stdout, /\(models\/players\/[a-z]+, the archive's first player\)/);
  const named = run('render', `${players}:${whole.stdout.match(/\((models\/players\/[a-z]+),/)[1]}`, join(dir, 'named.png'), ...args);
  assert.equal(named.status, 0, named.stderr);
  assert.deepEqual((await decodePNG(readFileSync(join(dir, 'whole.png')))).data, (await decodePNG(readFileSync(join(dir, 'named.png')))).data,
    'the same picture as naming that player');
  // No player: the model the library's folder rule picks (the most joints and vertices: mrfixit, not the can).
  const props = join(dir, 'props.pk3');
  writeFileSync(props, buildZip([{ name: 'models/props/watercan.md3', data: readFileSync(join(corpus, 'md3/assimp/watercan.md3')) },
    { name: 'models/props/mrfixit.iqm', data: readFileSync(mrfixit) }]).bytes);
  const prop = run('render', props, join(dir, 'prop.png'), ...args);
  assert.equal(prop.status, 0, prop.stderr);
  assert.match(prop.stdout, /\(models\/props\/mrfixit\.iqm, the archive's main model\)/);
  const iq = await init();
  assert.equal((await iq.chooseFolderModel([{ path: 'models/props/watercan.md3', bytes: readFileSync(join(corpus, 'md3/assimp/watercan.md3')) },
    { path: 'models/props/mrfixit.iqm', bytes: readFileSync(mrfixit) }], new Map())).main.path, 'models/props/mrfixit.iqm', 'the library\'s rule');
  const empty = join(dir, 'empty.pk3');
  writeFileSync(empty, buildZip([{ name: 'readme.txt', data: 'no models' }]).bytes);
  const none = run('render', empty, join(dir, 'none.png'));
  assert.equal(none.status, 1);
  assert.match(none.stderr, /holds no model to draw/);
  assert.ok(!readdirSync(dir).includes('none.png'));
}));
