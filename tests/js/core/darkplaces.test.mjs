// DarkPlaces' DPM and ZYM through the JS API: hand-made files (tests/js/lib/darkplaces-build.mjs)
// against answers worked out on paper, round trips through writeIQM and writeGLB (the Khronos
// validator, three.js's AnimationMixer within 1e-4), and, when Debian's nexuiz-data is installed,
// every DPM and ZYM inside its data.pk3 (read with iq.openArchive) against the boxes the files store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import validator from 'gltf-validator';
import { init } from 'interquake';
import { handMadeDPM, handMadeZYM, EXPECTED_DPM, EXPECTED_ZYM } from '../lib/darkplaces-build.mjs';
import { parseGLB, mixerOf, worldPositions, maxDifference } from '../lib/gltf-three.mjs';

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

async function expectMixerMatches(model, clipName) {
  const { glb } = await iq.writeGLB(model);
  const report = await validator.validateBytes(glb);
  assert.equal(report.issues.numErrors + report.issues.numWarnings, 0, JSON.stringify(report.issues.messages.slice(0, 3)));
  const gltf = await parseGLB(glb);
  const mixer = mixerOf(gltf);
  const a = model.animations[model.findAnimation(clipName)];
  mixer.play(clipName, { loop: a.loop });
  const mesh = gltf.scene.getObjectByProperty('isSkinnedMesh', true);
  const size = Math.max(1, model.bounds.radius);
  const fps = a.framerate || iq.defaultFramerate;
  for (const t of [0, 0.4 / fps, 1 / fps, (a.frameCount - 1) / fps / 2 + 0.013, (a.frameCount - 1) / fps]) {
    mixer.at(t);
    const ours = model.sample(clipName, t, { rotation: 'slerp' }).positions;
    const d = maxDifference(worldPositions(mesh), ours);
    assert.ok(d < 1e-4 * size, `${clipName} at ${t}: off by ${d} (size ${size})`);
  }
}

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
    await expectMixerMatches(m, clip);
    m.dispose();
  }
});

const PK3 = '/usr/share/games/nexuiz/data/data.pk3';
test('real files: every DPM and ZYM in Nexuiz\'s data.pk3 loads with finite outputs; posed DPM frames fill their stored boxes', { skip: !existsSync(PK3) && 'nexuiz-data not installed' }, async () => {
  const archive = await iq.openArchive(readFileSync(PK3), { name: PK3 });
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
  console.log(`darkplaces: ${PK3}: ${counts.dpm} DPM and ${counts.zym} ZYM files loaded; of ${framesChecked} DPM frames checked, ` +
    `${fit} fill their stored box, ${turned} the box turned 90 degrees about z, ${framesChecked - fit - turned} neither (the spiderbot's animated frames)`);
  assert.ok(counts.dpm > 0 && counts.zym > 0);
  assert.ok(fit > 0 && turned > 0, 'frames of both kinds were checked');
  archive.dispose?.();
});

test('real files: a Nexuiz player (ZYM) plays its run the same in three.js', { skip: !existsSync(PK3) && 'nexuiz-data not installed' }, async () => {
  const archive = await iq.openArchive(readFileSync(PK3), { name: PK3 });
  const m = iq.load(archive.read('models/player/marine_lod2.zym', { use: 'model' }), { name: 'marine_lod2.zym' });
  assert.ok(m.findAnimation('run') >= 0, m.animations.map((a) => a.name).join());
  await expectMixerMatches(m, 'run');
  m.dispose();
});
