// writeGLB's placement options (front, ground, scale) and clips that hold still, proven by three.js
// (GLTFLoader + AnimationMixer, world positions as it draws them) and the Khronos validator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import validator from 'gltf-validator';
import * as THREE from 'three';
import { init } from 'interquake';
import { METRES_PER_QUAKE_UNIT } from '../../../web/core/gltf.js';
import { PLAYER_MINS_Z } from '../../../web/quake3/gltf.js';
import { parseGLB, mixerOf, worldPositions, partMeshes, shown, playerVertices } from '../lib/gltf-three.mjs';
import { gameFiles } from '../lib/q3-corpus.mjs';
import { buildIQM } from '../lib/iqm-build.mjs';
import { buildMD3, quadSurface } from '../lib/md3-build.mjs';

const iq = await init();
const json = (glb) => JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + new DataView(glb.buffer, glb.byteOffset).getUint32(12, true))));

async function validate(glb, what) {
  const { numErrors, numWarnings, messages } = (await validator.validateBytes(glb)).issues;
  assert.equal(numErrors + numWarnings, 0, `${what}: ${JSON.stringify(messages.filter((m) => m.severity < 2).slice(0, 5))}`);
}

/** The largest distance between three's world positions and the library's Z-up ones placed by `place`. */
function offBy(threePositions, zUp, place, matrix = null) {
  let worst = 0;
  for (let i = 0; i < threePositions.length / 3; i++) {
    let [x, y, z] = [zUp[3 * i], zUp[3 * i + 1], zUp[3 * i + 2]];
    if (matrix) {
      const m = matrix;
      [x, y, z] = [m[0] * x + m[4] * y + m[8] * z + m[12], m[1] * x + m[5] * y + m[9] * z + m[13], m[2] * x + m[6] * y + m[10] * z + m[14]];
    }
    const want = place(x, y, z);
    for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(threePositions[3 * i + k] - want[k]));
  }
  return worst;
}

function extent(positions, box = { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] }) {
  for (let i = 0; i < positions.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      box.min[k] = Math.min(box.min[k], positions[i + k]);
      box.max[k] = Math.max(box.max[k], positions[i + k]);
    }
  }
  return box;
}

test('a player with front z, ground and metres: facing +Z, the game\'s floor at y = 0, about 1.8 m tall', async () => {
  const player = iq.loadPlayer(gameFiles(), {});
  const { glb } = await iq.writeGLB(player, { front: 'z', ground: true, scale: 'metres' });
  await validate(glb, 'sarge placed');
  const s = METRES_PER_QUAKE_UNIT;
  // Quake's front (+X) to glTF's front (+Z), up (+Z) to +Y, left (+Y) to +X; the box's bottom at 0
  const place = (x, y, z) => [s * y, s * (z - PLAYER_MINS_Z), s * x];
  const gltf = await parseGLB(glb);
  const mixer = mixerOf(gltf);
  mixer.play(['LEGS_IDLE', 'TORSO_STAND']);
  const idle = player.animation('LEGS_IDLE');
  for (const frame of [0, 3.5]) {
    const t = (frame * idle.frameLerp) / 1000;
    mixer.at(t);
    const pose = player.pose({ legs: { animation: 'LEGS_IDLE', time: t }, torso: { animation: 'TORSO_STAND', time: t } });
    let box;
    for (const part of ['lower', 'upper', 'head']) {
      const [mesh] = partMeshes(gltf, part).filter(shown);
      const world = worldPositions(mesh);
      const d = offBy(world, playerVertices(player, part, pose[part]), place, pose[part].matrix);
      assert.ok(d < 1e-4, `${part} at frame ${frame}: off by ${d} m`);
      box = extent(world, box);
    }
    const height = box.max[1] - box.min[1];
    // the feet rest on the game's floor (24 units below the origin) within a few centimetres
    assert.ok(Math.abs(box.min[1]) < 0.08, `feet at y = ${box.min[1]} m`);
    assert.ok(height > 1.6 && height < 1.95, `height ${height} m`);
    // the player faces +Z: the gun in its hand points where it looks, along tag_weapon's x axis
    const barrel = new THREE.Vector3(1, 0, 0).transformDirection(gltf.scene.getObjectByName('tag_weapon').matrixWorld);
    assert.ok(barrel.z > 0.95, `tag_weapon's x axis (the barrel) along +Z: ${barrel.toArray()}`);
  }
  // the data itself is unchanged: only the root node moved
  const plain = json((await iq.writeGLB(player)).glb);
  const placed = json(glb);
  assert.deepEqual(placed.accessors, plain.accessors);
  const root = placed.nodes.find((n) => n.name === 'interquake_z_up');
  assert.ok(root.scale.every((v) => Math.abs(v - s) < 1e-7), `scale ${root.scale}`);
  assert.ok(Math.abs(root.translation[1] - s * 24) < 1e-6);
  player.dispose();
});

test('a model on the ground: its lowest point over every frame at y = 0; a number scales', async () => {
  // an MD3 quad at z = 5 in frame 0 and z = -3 in frame 1: the lowest point is -3, in frame 1
  const model = iq.load(buildMD3({ surfaces: [quadSurface({ frameZ: [5, -3] })] }).bytes, { name: 'quad.md3' });
  const { glb } = await iq.writeGLB(model, { ground: true, scale: 2 });
  await validate(glb, 'quad on the ground');
  const gltf = await parseGLB(glb);
  const mixer = mixerOf(gltf);
  mixer.play(gltf.animations[0].name);
  const fps = json(glb).animations[0].extras.framerate;
  const low = (t) => {
    mixer.at(t);
    return Math.min(...partMeshes(gltf, 'quad').filter(shown).map((m) => extent(worldPositions(m)).min[1]));
  };
  assert.ok(Math.abs(low(1 / fps)) < 1e-5, `frame 1 touches the ground: ${low(1 / fps)}`);
  assert.ok(Math.abs(low(0) - 16) < 1e-5, `frame 0 is 8 units (16 at scale 2) above it: ${low(0)}`);
  // front 'x' keeps the axes: Quake +X along glTF +X
  const frontX = json((await iq.writeGLB(model, { front: 'x' })).glb).nodes.find((n) => n.name === 'interquake_z_up');
  assert.deepEqual(frontX.rotation.map((v) => Math.round(v * 1e6) / 1e6), [-0.707107, 0, 0, 0.707107]);
  // a number for ground is the height to put at y = 0
  const at = json((await iq.writeGLB(model, { ground: 5 })).glb).nodes.find((n) => n.name === 'interquake_z_up');
  assert.deepEqual(at.translation, [0, -5, 0]);
  for (const bad of [{ front: 'y' }, { scale: 0 }, { scale: -1 }, { scale: 'feet' }, { ground: 'yes' }, { ground: Infinity }]) {
    await assert.rejects(iq.writeGLB(model, bad), { code: 'invalid_argument' }, JSON.stringify(bad));
  }
  model.dispose();
});

test('every animation becomes a clip, one whose every channel equals the bind pose too', async () => {
  const I = { translate: [0, 0, 0], rotate: [0, 0, 0, 1], scale: [1, 1, 1] };
  const joints = [{ name: 'hinge', parent: -1, ...I, translate: [0, 0, 1] }];
  const still = { ...I, translate: [0, 0, 1] };
  const open = { ...I, translate: [0, 0, 1], rotate: [0, 0, Math.sin(Math.PI / 4), Math.cos(Math.PI / 4)] };
  const door = iq.load(buildIQM({
    vertexArrays: [
      { type: 'position', format: 'float', size: 3, data: [0, 0, 0, 1, 0, 0, 0, 0, 2] },
      { type: 'blendindexes', format: 'ubyte', size: 4, data: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
      { type: 'blendweights', format: 'ubyte', size: 4, data: [255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0] },
    ],
    triangles: [[0, 1, 2]],
    meshes: [{ name: 'door' }],
    joints,
    frames: [[still], [still], [still], [open]],
    anims: [{ name: 'idle', firstFrame: 0, frameCount: 3, framerate: 10, loop: true }, { name: 'open', firstFrame: 2, frameCount: 2, framerate: 10 }],
  }).bytes, { name: 'door.iqm' });
  const { glb } = await iq.writeGLB(door);
  await validate(glb, 'door');
  const doc = json(glb);
  assert.deepEqual(doc.animations.map((a) => a.name), ['idle', 'open']);
  const idle = doc.animations[0];
  assert.equal(idle.extras.loop, true);
  const gltf = await parseGLB(glb);
  const clip = gltf.animations.find((a) => a.name === 'idle');
  assert.ok(Math.abs(clip.duration - 0.2) < 1e-6, `the clip lasts its 3 frames (closed: its last pose is its first): ${clip.duration}`);
  const mixer = mixerOf(gltf);
  mixer.play('idle');
  mixer.at(0.15);
  const mesh = gltf.scene.getObjectByProperty('isMesh', true);
  const world = worldPositions(mesh);
  // the bind pose, where it holds: (x, y, z) -> (x, z, -y)
  assert.deepEqual([...world].map((v) => Math.round(v * 1e6) / 1e6), [0, 0, 0, 1, 0, 0, 0, 2, 0]);
  door.dispose();
});

test('ground on a skinned model: its lowest point over the frames as the library skins them; its own evaluate() left alone', async () => {
  const I = { translate: [0, 0, 0], rotate: [0, 0, 0, 1], scale: [1, 1, 1] };
  const model = iq.load(buildIQM({
    vertexArrays: [
      { type: 'position', format: 'float', size: 3, data: [0, 0, 1, 1, 0, 1, 0, 1, 1] },
      { type: 'blendindexes', format: 'ubyte', size: 4, data: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
      { type: 'blendweights', format: 'ubyte', size: 4, data: [255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0] },
    ],
    triangles: [[0, 1, 2]],
    meshes: [{ name: 'm' }],
    joints: [{ name: 'j', parent: -1, ...I }],
    frames: [[{ ...I, translate: [0, 0, 2] }], [{ ...I, translate: [0, 0, -7] }]], // the triangle at z = 3, then z = -6
    anims: [{ name: 'drop', firstFrame: 0, frameCount: 2, framerate: 10 }],
  }).bytes, { name: 'drop.iqm' });
  const before = model.evaluate(0).positions.slice();
  const root = json((await iq.writeGLB(model, { ground: true })).glb).nodes.find((n) => n.name === 'interquake_z_up');
  assert.deepEqual(root.translation, [0, 6, 0], 'z = -6, frame 1, lifted to y = 0');
  assert.deepEqual([...model.positions], [0, 0, 1, 1, 0, 1, 0, 1, 1], 'bind pose unchanged');
  const w = model.worldMatrices; // row-major 3x4: the translation in 3, 7, 11
  assert.deepEqual([w[3], w[7], w[11]], [0, 0, 2], 'the last evaluate() (frame 0) still holds');
  assert.deepEqual(model.evaluate(0).positions.slice(), before);
  model.dispose();
});
