// A skeletal model's animation as three.js plays it from our GLB, against the library's own pose:
// the GLB passes the Khronos validator with no error or warning, and at the clip's start, inside its
// first frame, on its second frame, past its middle and at its end, every vertex three skins lies
// within 1e-4 of the model's size of the library's (rotations slerped, as glTF's are). Used by the
// main suite's hand-made files and by tests/gamedata/ on the games' own.
import assert from 'node:assert/strict';
import validator from 'gltf-validator';
import { parseGLB, mixerOf, worldPositions, maxDifference } from './gltf-three.mjs';

/** The Khronos glTF validator finds no error and no warning in the GLB. */
export async function expectValidGLB(glb) {
  const report = await validator.validateBytes(glb);
  assert.equal(report.issues.numErrors + report.issues.numWarnings, 0, JSON.stringify(report.issues.messages.slice(0, 3)));
}

/** three's AnimationMixer plays clipName from glb (written from model) within 1e-4 of model.sample(). */
export async function expectMixerMatches(iq, model, glb, clipName) {
  const gltf = await parseGLB(glb);
  const mixer = mixerOf(gltf);
  const a = model.animations[model.findAnimation(clipName)];
  assert.ok(a, `${clipName}: no such animation (${model.animations.map((x) => x.name).join(', ')})`);
  mixer.play(clipName, { loop: a.loop });
  const mesh = gltf.scene.getObjectByProperty('isSkinnedMesh', true);
  const size = Math.max(1, model.bounds.radius);
  const fps = a.framerate || iq.defaultFramerate;
  const last = (a.frameCount - 1) / fps;
  for (const t of [0, 0.4 / fps, 0.5 / fps, 1 / fps, last / 2 + 0.013, last]) {
    mixer.at(t);
    const ours = model.sample(clipName, t, { rotation: 'slerp' }).positions;
    const d = maxDifference(worldPositions(mesh), ours);
    assert.ok(d < 1e-4 * size, `${clipName} at ${t}: off by ${d} (size ${size})`);
  }
}
