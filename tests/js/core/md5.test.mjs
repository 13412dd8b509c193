// MD5 through the JS API: the hand-written fixtures against answers worked out on paper, Doom 3's
// bind pose computed apart from the library (tests/js/lib/md5-reference.mjs), the .md5anim named
// after its file and attached to the .md5mesh, round trips through writeIQM and writeGLB (three.js's
// AnimationMixer within 1e-4, the Khronos validator), errors with lines. Cube 2's and Red Eclipse's
// own MD5 files are checked by `npm run test:gamedata` (tests/gamedata/md5.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init, InterquakeError } from 'interquake';
import { doomBindPositions } from '../lib/md5-reference.mjs';
import { expectValidGLB, expectMixerMatches } from '../lib/mixer-match.mjs';

const iq = await init();
const FIXTURES = new URL('../../fixtures/md5/', import.meta.url);
const fixture = (name) => readFileSync(new URL(name, FIXTURES));
const near = (a, b, eps, what) => assert.ok(Math.abs(a - b) <= eps, `${what}: ${a} vs ${b}`);
const near3 = (v, i, [x, y, z], what) => { near(v[3 * i], x, 1e-5, what); near(v[3 * i + 1], y, 1e-5, what); near(v[3 * i + 2], z, 1e-5, what); };

function armWithWave() {
  const mesh = iq.load(fixture('arm.md5mesh'), { name: 'arm.md5mesh' });
  const anim = iq.load(fixture('arm_wave.md5anim'), { name: 'models/test/arm_wave.md5anim' });
  mesh.attachAnimations(anim);
  anim.dispose();
  return mesh;
}

test('md5mesh: the format, joints, meshes and bind pose worked out on paper', () => {
  const m = iq.load(fixture('arm.md5mesh'), { name: 'arm.md5mesh' });
  assert.equal(m.format, 'md5');
  assert.equal(m.vertexCount, 6);
  assert.equal(m.triangleCount, 2);
  assert.deepEqual(m.joints.map((j) => [j.name, j.parent]), [['root', -1], ['arm', 0], ['hand', 1]]);
  assert.deepEqual(m.meshes.map((x) => [x.name, x.material, x.firstVertex, x.vertexCount]),
    [['models/test/body', 'models/test/body', 0, 3], ['tip', 'models/test/tip', 3, 3]]);
  const expected = [[0, 0, 1], [1, -1, 0], [1, 0, 1], [0, 0, 0], [1, -2, 0], [0, 0, -1]];
  expected.forEach((p, i) => near3(m.positions, i, p, `vertex ${i}`));
  assert.deepEqual([...m.blendIndices.subarray(12, 15)], [0, 1, 2]);
  [0.4, 0.4, 0.2, 0].forEach((w, k) => near(m.blendWeights[12 + k], w, 1e-6, `vertex 3 weight ${k}`));
  assert.deepEqual(m.warnings, []);
  m.dispose();
});

test("md5mesh: Doom 3's own rotation (w = +sqrt, the matrix transposed) gives the library's bind pose", () => {
  const text = fixture('arm.md5mesh').toString('latin1');
  const m = iq.load(fixture('arm.md5mesh'));
  const doom = doomBindPositions(text);
  assert.equal(doom.length, m.positions.length);
  for (let i = 0; i < doom.length; i++) near(m.positions[i], doom[i], 1e-5, `component ${i}`);
  m.dispose();
});

test('md5anim: named after its file, base frame and flags, attached and posed at each frame', () => {
  const anim = iq.load(fixture('arm_wave.md5anim'), { name: 'models/test/arm_wave.md5anim' });
  assert.equal(anim.format, 'md5');
  assert.equal(anim.vertexCount, 0);
  assert.deepEqual(anim.animations.map((a) => [a.name, a.firstFrame, a.frameCount, a.framerate]), [['arm_wave', 0, 3, 10]]);
  near3(anim.frameBounds, 0, [-1, -2, -1], 'box 0 min'); // 8 floats per frame: min, max, xyRadius, radius
  anim.dispose();
  const nameless = iq.load(fixture('arm_wave.md5anim'));
  assert.equal(nameless.animations[0].name, 'md5anim', 'without a file name');
  nameless.dispose();

  const m = armWithWave();
  assert.deepEqual(m.animations.map((a) => a.name), ['arm_wave']);
  const expected = [
    [[0, 0, 1], [1, -1, 0], [1, 0, 3.5], [0, 0, 1], [1, -2, 5], [0, 0, -1]],
    [[0, 0, 1], [2, 0, 0], [1, 0, 3.5], [0.6, -0.6, 1], [3, 0, 5], [0, 0, -1]],
    [[0, 0, 1], [1, 1, 0], [0.5, 0.5, 3.5], [1, 0.2, 1], [0, 3, 5], [0, 0, -1]],
  ];
  expected.forEach((frame, f) => {
    const { positions } = m.sample('arm_wave', f / 10, { loop: 'once' });
    frame.forEach((p, i) => near3(positions, i, p, `frame ${f} vertex ${i}`));
  });
  // half way from frame 1 to 2: the hand moves along the arm's turn, not in a straight line
  const half = m.jointMatrix('hand', 'arm_wave', 0.15, { loop: 'once', rotation: 'slerp' });
  near(half[12], 1 + Math.cos(Math.PI / 4) * 2.5 - Math.sin(Math.PI / 4) * 0.5, 1e-5, 'hand x at 1.5');
  m.dispose();
});

test('md5: writeIQM plays the same, writeGLB passes the validator and three.js plays it within 1e-4', async () => {
  const m = armWithWave();
  const back = iq.load(iq.writeIQM(m));
  for (const t of [0, 0.05, 0.1, 0.17, 0.2]) {
    const a = m.sample('arm_wave', t, { loop: 'once' }).positions.slice();
    const b = back.sample('arm_wave', t, { loop: 'once' }).positions;
    // IQM keeps blend weights as bytes (within 1/255, docs/API-iqe.md): vertex 2's joints are 5 apart
    for (let i = 0; i < a.length; i++) near(b[i], a[i], 5 / 255 + 1e-3, `IQM at ${t}`);
  }
  back.dispose();
  const { glb } = await iq.writeGLB(m);
  await expectValidGLB(glb);
  await expectMixerMatches(iq, m, glb, 'arm_wave');
  m.dispose();
});

test('md5: bad files throw InterquakeError with the file, code, line and column', () => {
  const bad = 'MD5Version 10\ncommandline ""\nnumJoints 1\nnumMeshes 1\njoints {\n"a" -1 ( 0 x 0 ) ( 0 0 0 )\n}\n';
  assert.throws(() => iq.load(new TextEncoder().encode(bad), { name: 'bad.md5mesh' }), (e) => e instanceof InterquakeError &&
    e.code === 'syntax' && e.line === 6 && e.column === 12 && /bad\.md5mesh/.test(e.message) && /'x' is not a number/.test(e.message));
  const v11 = 'MD5Version 11\ncommandline ""\nnumJoints 1\n';
  assert.throws(() => iq.load(new TextEncoder().encode(v11)), (e) => e.code === 'bad_version' && e.line === 1);
});
