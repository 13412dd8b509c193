// MDR (ioquake3's skeletal format) through the JS API: the hand-made file (tests/js/lib/mdr-build.mjs),
// with whole and with compressed frames, against answers worked out on paper; its tag; round trips
// through writeIQM and writeGLB (the Khronos validator, three.js's AnimationMixer within 1e-4).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import validator from 'gltf-validator';
import { init } from 'interquake';
import { handMadeMDR, EXPECTED_MDR } from '../lib/mdr-build.mjs';
import { parseGLB, mixerOf, worldPositions, maxDifference } from '../lib/gltf-three.mjs';

const iq = await init();
const near = (a, b, eps, what) => assert.ok(Math.abs(a - b) <= eps, `${what}: ${a} vs ${b}`);

test('MDR: whole and compressed frames pose the hand-made model as worked out on paper; the tag follows its bone', () => {
  for (const compressed of [false, true]) {
    const m = iq.load(handMadeMDR({ compressed }), { name: 'arm.mdr' });
    assert.equal(m.format, 'mdr');
    assert.deepEqual(m.animations.map((a) => [a.name, a.frameCount]), [['all', 2]]);
    assert.deepEqual(m.tags, ['tag_hand']);
    EXPECTED_MDR.forEach((frame, f) => {
      const { positions } = m.evaluate(f);
      frame.forEach((p, v) => p.forEach((c, k) => near(positions[3 * v + k], c, 1e-4, `compressed ${compressed} frame ${f} vertex ${v}`)));
    });
    const tag = m.tagMatrix('tag_hand', 0);
    near(tag[12], 1, 1e-4, 'tag origin x');
    near(tag[1], 1, 1e-4, 'tag x axis along +y');
    m.dispose();
  }
});

test('MDR: writeIQM plays the same; writeGLB passes the validator and three.js plays it within 1e-4', async () => {
  const m = iq.load(handMadeMDR());
  const back = iq.load(iq.writeIQM(m));
  for (const t of [0, 0.03, 0.06]) {
    const a = m.sample('all', t, { loop: 'once' }).positions.slice();
    const b = back.sample('all', t, { loop: 'once' }).positions;
    for (let i = 0; i < a.length; i++) near(b[i], a[i], 2 / 255 + 1e-3, `IQM at ${t}`); // weights as bytes
  }
  back.dispose();
  const { glb } = await iq.writeGLB(m);
  const report = await validator.validateBytes(glb);
  assert.equal(report.issues.numErrors + report.issues.numWarnings, 0, JSON.stringify(report.issues.messages.slice(0, 3)));
  const gltf = await parseGLB(glb);
  const mixer = mixerOf(gltf);
  mixer.play('all', { loop: true });
  const mesh = gltf.scene.getObjectByProperty('isSkinnedMesh', true);
  for (const t of [0, 0.02, 1 / 15]) {
    mixer.at(t);
    const d = maxDifference(worldPositions(mesh), m.sample('all', t, { rotation: 'slerp' }).positions);
    assert.ok(d < 1e-4 * Math.max(1, m.bounds.radius), `at ${t}: off by ${d}`);
  }
  m.dispose();
});
