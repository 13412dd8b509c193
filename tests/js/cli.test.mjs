// The command-line tool run as a subprocess, the way `npx interquake` runs it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from '../../web/interquake.js';

const bin = fileURLToPath(new URL('../../bin/interquake.mjs', import.meta.url));
const jetpack = fileURLToPath(new URL('../../../shared/corpus/iqe/unvanquished/jetpack.iqe', import.meta.url));
const mrfixit = fileURLToPath(new URL('../../../shared/corpus/iqm/mrfixit/mrfixit.iqm', import.meta.url));
const run = (...args) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

test('info prints a JSON summary of an IQE', () => {
  const r = run('info', jetpack);
  assert.equal(r.status, 0, r.stderr);
  const info = JSON.parse(r.stdout);
  const text = readFileSync(jetpack, 'utf8');
  const lines = text.split('\n').map((l) => l.trim().split(/\s+/)[0]);
  assert.equal(info.format, 'iqe');
  assert.equal(info.bytes, Buffer.byteLength(text));
  assert.equal(info.vertexCount, lines.filter((w) => w === 'vp').length);
  assert.equal(info.triangleCount, lines.filter((w) => w === 'fm').length);
  assert.equal(info.jointCount, lines.filter((w) => w === 'joint').length);
  assert.deepEqual(info.animations.map((a) => a.name), ['idle', 'slidein', 'slideout']);
  // frame ranges follow one another; every animation is 24 fps
  let next = 0;
  for (const a of info.animations) {
    assert.equal(a.firstFrame, next);
    assert.equal(a.lastFrame, a.firstFrame + a.frameCount - 1);
    assert.equal(a.framerate, 24);
    next += a.frameCount;
  }
  assert.equal(next, info.frameCount);
  assert.deepEqual(info.meshes.map((m) => m.material), ['models/players/human_base/jetpack']);
  assert.ok(info.bounds && info.bounds.min.length === 3 && info.bounds.radius > 0);
  assert.deepEqual(info.warnings, []);
  assert.ok(info.arrays.includes('normals') && info.arrays.includes('blendWeights'));
});

test('info reads IQM too', () => {
  const r = run('info', mrfixit);
  assert.equal(r.status, 0, r.stderr);
  const info = JSON.parse(r.stdout);
  assert.equal(info.format, 'iqm');
  assert.equal(info.jointCount, 75);
  assert.deepEqual(info.animations.map((a) => [a.name, a.frameCount, a.framerate]), [['idle', 101, 24]]);
});

test('convert writes an IQM that loads with the same content', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'iq-cli-'));
  try {
    const out = join(dir, 'jetpack.iqm');
    const r = run('convert', jetpack, out);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /2297 vertices, 1968 triangles, 6 joints, 30 frames, 3 animations/);
    const iq = await init();
    const a = iq.load(readFileSync(jetpack));
    const b = iq.load(readFileSync(out));
    assert.equal(b.format, 'iqm');
    assert.deepEqual(b.animations, a.animations);
    assert.equal(b.vertexCount, a.vertexCount);
    a.dispose();
    b.dispose();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bad input: a clear message and exit code 1', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iq-cli-'));
  try {
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
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bad usage: the usage text and exit code 2', () => {
  for (const args of [[], ['frobnicate'], ['info'], ['convert', jetpack, 'out.obj'], ['info', jetpack, '--format', 'obj'], ['info', '--bogus', jetpack]]) {
    const r = run(...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /usage: interquake info FILE/);
  }
  const help = run('--help');
  assert.equal(help.status, 0);
  assert.match(help.stdout, /interquake convert IN OUT\.iqm/);
});
