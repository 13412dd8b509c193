// DarkPlaces' DPM and ZYM through the JS API: hand-made files (tests/js/lib/darkplaces-build.mjs)
// against answers worked out on paper, round trips through writeIQM and writeGLB (the Khronos
// validator, three.js's AnimationMixer within 1e-4). Nexuiz's own DPM and ZYM files are checked by
// `npm run test:gamedata` (tests/gamedata/nexuiz.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init } from 'interquake';
import { handMadeDPM, handMadeZYM, EXPECTED_DPM, EXPECTED_ZYM } from '../lib/darkplaces-build.mjs';
import { expectValidGLB, expectMixerMatches } from '../lib/mixer-match.mjs';

const iq = await init();
const near = (a, b, eps, what) => assert.ok(Math.abs(a - b) <= eps, `${what}: ${a} vs ${b}`);

function expectPoses(model, expected, what) {
  expected.forEach((frame, f) => {
    const { positions } = model.evaluate(f);
    frame.forEach((p, v) => p.forEach((c, k) => near(positions[3 * v + k], c, 1e-5, `${what} pose ${f} vertex ${v}`)));
  });
}

test('DPM: the hand-made model, posed at each frame as worked out on paper', () => {
  const m = iq.load(handMadeDPM(), { name: 'hand.dpm' });
  assert.equal(m.format, 'dpm');
  assert.deepEqual(m.joints.map((j) => [j.name, j.parent]), [['root', -1], ['arm', 0]]);
  assert.deepEqual(m.animations.map((a) => [a.name, a.firstFrame, a.frameCount, a.framerate, a.loop]), [['idle', 0, 1, 10, true], ['wave', 1, 2, 10, true]]);
  assert.deepEqual([...m.indices], [2, 1, 0], 'counter-clockwise turned clockwise');
  expectPoses(m, EXPECTED_DPM, 'dpm');
  assert.deepEqual(m.warnings, []);
  m.dispose();
});

test('ZYM: the hand-made model, its scenes and posed frames', () => {
  const m = iq.load(handMadeZYM(), { name: 'hand.zym' });
  assert.equal(m.format, 'zym');
  assert.deepEqual(m.animations.map((a) => [a.name, a.firstFrame, a.frameCount, a.framerate, a.loop]), [['stand', 0, 1, 10, true], ['wave', 1, 2, 20, false]]);
  assert.deepEqual([...m.texcoords], [0, 0, 1, 0, 0, 1], 't as the game shows it');
  expectPoses(m, EXPECTED_ZYM, 'zym');
  m.dispose();
});

test('DPM and ZYM: writeIQM plays the same; writeGLB passes the validator and three.js plays it within 1e-4', async () => {
  for (const [bytes, clip] of [[handMadeDPM(), 'wave'], [handMadeZYM(), 'wave']]) {
    const m = iq.load(bytes);
    const back = iq.load(iq.writeIQM(m));
    for (const t of [0, 0.03, 0.05, 0.08]) {
      const a = m.sample(clip, t, { loop: 'once' }).positions.slice();
      const b = back.sample(clip, t, { loop: 'once' }).positions;
      for (let i = 0; i < a.length; i++) near(b[i], a[i], 2 / 255 + 1e-3, `${m.format} IQM at ${t}`); // weights as bytes
    }
    back.dispose();
    const { glb } = await iq.writeGLB(m);
    await expectValidGLB(glb);
    await expectMixerMatches(iq, m, glb, clip);
    m.dispose();
  }
});
