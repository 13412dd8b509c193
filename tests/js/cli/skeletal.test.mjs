// The command line on the skeletal formats of issue 21 (MD5, DPM, ZYM, MDR), run as `npx interquake` runs:
// an .md5mesh brings the .md5anim files of its folder (one that does not fit is a warning), info and
// convert to IQM and GLB see the attached animations, validate checks every file, and the formats
// can be forced with --format.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from 'interquake';
import { handMadeDPM, handMadeZYM } from '../lib/darkplaces-build.mjs';
import { handMadeMDR } from '../lib/mdr-build.mjs';

const bin = fileURLToPath(new URL('../../../bin/interquake.mjs', import.meta.url));
const fixtures = fileURLToPath(new URL('../../fixtures/md5/', import.meta.url));
const run = (...args) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
const iq = await init();

function withFolder(fn) {
  const dir = mkdtempSync(join(tmpdir(), 'iq-cli-skeletal-'));
  try {
    copyFileSync(join(fixtures, 'arm.md5mesh'), join(dir, 'arm.md5mesh'));
    copyFileSync(join(fixtures, 'arm_wave.md5anim'), join(dir, 'arm_wave.md5anim'));
    // an anim for another skeleton: left out with a warning
    writeFileSync(join(dir, 'other.md5anim'), readFileSync(join(fixtures, 'arm_wave.md5anim'), 'latin1').replace('"hand"', '"foot"'));
    writeFileSync(join(dir, 'hand.dpm'), handMadeDPM());
    writeFileSync(join(dir, 'hand.zym'), handMadeZYM());
    writeFileSync(join(dir, 'arm.mdr'), handMadeMDR({ compressed: true }));
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('info on an .md5mesh: the .md5anim files beside it attached, one that does not fit warned', () => withFolder((dir) => {
  const r = run('info', join(dir, 'arm.md5mesh'), '--json');
  assert.equal(r.status, 0, r.stderr);
  const s = JSON.parse(r.stdout);
  assert.equal(s.format, 'md5');
  assert.deepEqual(s.animations.map((a) => [a.name, a.frameCount, a.framerate]), [['arm_wave', 3, 10]]);
  assert.ok(s.warnings.some((w) => w.code === 'skeleton_mismatch' && /other\.md5anim: not attached/.test(w.message) && /foot/.test(w.message)),
    JSON.stringify(s.warnings));
  const text = run('info', join(dir, 'hand.zym'));
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /zym/);
  assert.match(text.stdout, /wave/);
}));

test('convert: an .md5mesh with its anims to IQM and GLB; DPM and ZYM too', () => withFolder((dir) => {
  const iqm = run('convert', join(dir, 'arm.md5mesh'), join(dir, 'arm.iqm'));
  assert.equal(iqm.status, 0, iqm.stderr);
  assert.match(iqm.stderr, /other\.md5anim: not attached/);
  const back = iq.load(readFileSync(join(dir, 'arm.iqm')));
  assert.deepEqual(back.animations.map((a) => a.name), ['arm_wave']);
  assert.equal(back.vertexCount, 6);
  back.dispose();
  const glb = run('convert', join(dir, 'arm.md5mesh'), join(dir, 'arm.glb'));
  assert.equal(glb.status, 0, glb.stderr);
  assert.match(glb.stdout, /1 animation/);
  for (const name of ['hand.dpm', 'hand.zym']) {
    const r = run('convert', join(dir, name), join(dir, `${name}.glb`));
    assert.equal(r.status, 0, r.stderr);
    const glbBytes = readFileSync(join(dir, `${name}.glb`));
    const json = JSON.parse(glbBytes.subarray(20, 20 + glbBytes.readUInt32LE(12)).toString());
    assert.ok(json.animations.some((a) => a.name === 'wave'), `${name}: ${json.animations.map((a) => a.name)}`);
  }
}));

test('validate: every MD5, DPM, ZYM and MDR file in a folder; --format forces a reader', () => withFolder((dir) => {
  const r = run('validate', dir, '--json');
  assert.equal(r.status, 0, r.stderr + r.stdout);
  const doc = JSON.parse(r.stdout);
  const paths = doc.items.map((i) => i.path.split(/[\\/]/).pop()).sort();
  assert.deepEqual(paths, ['arm.md5mesh', 'arm.mdr', 'arm_wave.md5anim', 'hand.dpm', 'hand.zym', 'other.md5anim']);
  writeFileSync(join(dir, 'broken.md5mesh'), 'MD5Version 10\ncommandline ""\nnumJoints 1\nnumMeshes 0\njoints {\n"a" -1 ( 0 x 0 ) ( 0 0 0 )\n}\n');
  const bad = run('validate', dir);
  assert.equal(bad.status, 1);
  assert.match(bad.stdout + bad.stderr, /broken\.md5mesh.*syntax.*line 6/);
  const forced = run('info', join(dir, 'hand.dpm'), '--format', 'zym');
  assert.equal(forced.status, 1);
  assert.match(forced.stderr, /bad_magic/);
}));
