// A player built in the test (md3-build.mjs) with tags whose placements are known on
// paper: upper rises one unit per legs frame and turns 90 degrees at frame 1; the head and
// the weapon sit at fixed offsets on the torso. Also LOD surface names ("_1"), backslash
// shader names resolved by extension, and an IQM player whose tags are joints.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init } from 'interquake';
import { buildMD3 } from '../lib/md3-build.mjs';
import { buildIQM } from '../lib/iqm-build.mjs';

const iq = await init();
const enc = new TextEncoder();
const Z90 = [[0, 1, 0], [-1, 0, 0], [0, 0, 1]]; // x axis -> +y, y axis -> -x: 90 degrees about z
const I = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];

const quad = (name, shader, frames, z) => ({
  name,
  shaders: [{ name: shader, index: 0 }],
  triangles: [[0, 1, 2]],
  texcoords: [[0, 0], [1, 0], [0, 1]],
  frames: Array.from({ length: frames }, () => [[0, 0, z], [1, 0, z], [0, 1, z]].map((xyz) => ({ xyz, normal: 0 }))),
});

function builtPlayer() {
  const lowerFrames = 4;
  const lower = buildMD3({
    frameCount: lowerFrames,
    tags: [{ name: 'tag_torso', frames: Array.from({ length: lowerFrames }, (_, f) => ({ origin: [0, 0, 10 + f], axes: f === 1 ? Z90 : I })) }],
    surfaces: [quad('l_legs_1', 'models\\players\\built\\legs', lowerFrames, 0)],
  }).bytes;
  const upperFrames = 3;
  const upper = buildMD3({
    frameCount: upperFrames,
    tags: [
      { name: 'tag_head', frames: Array.from({ length: upperFrames }, () => ({ origin: [0, 0, 5], axes: I })) },
      { name: 'tag_weapon', frames: Array.from({ length: upperFrames }, (_, f) => ({ origin: [3, 0, f], axes: Z90 })) },
    ],
    surfaces: [quad('u_torso', 'models/players/built/torso.tga', upperFrames, 0)],
  }).bytes;
  const head = buildMD3({ surfaces: [quad('h_head', 'models/players/built/head', 1, 0)] }).bytes;
  // 25 entries: BOTH_* frames 0..1, TORSO_* in upper 0..2, LEGS_* numbered after an imaginary
  // torso block of 100 frames (skip = 102 - 2 = 100), so LEGS_* land on lower's frames 2..3
  const lines = [];
  for (let i = 0; i < 25; i++) {
    if (i < 6) lines.push('0 2 0 10');
    else if (i < 13) lines.push(i === 6 ? '2 100 0 10' : '0 3 3 10');
    else lines.push(i === 14 ? '102 -2 2 20' : '102 2 2 20');
  }
  return {
    'models/players/built/lower.md3': lower,
    'models/players/built/upper.md3': upper,
    'models/players/built/head.md3': head,
    'models/players/built/animation.cfg': enc.encode(lines.join('\n')),
    'models/players/built/legs.jpg': new Uint8Array([1]),
    'models/players/built/torso.png': new Uint8Array([2]),
    'models/players/built/head.tga': new Uint8Array([3]),
  };
}

test('placements on paper: torso rises and turns with the legs tag, head and weapon ride the torso', () => {
  const files = builtPlayer();
  const player = iq.loadPlayer(files, { weapon: 'models/players/built/head.md3' });
  assert.equal(player.path, 'models/players/built');
  // frame 1: torso at (0, 0, 11) turned 90 degrees about z
  const pose = player.pose({ legs: { frame: 1 }, torso: { frame: 2 } });
  const close = (got, want, what) => want.forEach((v, i) => assert.ok(Math.abs(got[i] - v) < 1e-5, `${what}[${i}] = ${got[i]}, want ${v}`));
  close(pose.upper.matrix, [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 11, 1], 'upper');
  // head: 5 up the torso's z: (0, 0, 16), same turn
  close(pose.head.matrix, [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 16, 1], 'head');
  // weapon: torso x axis is world +y, so (3, 0, 2) on the torso is (0, 3, 13); turned twice: 180 degrees
  close(pose.weapon.matrix, [-1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1, 0, 0, 3, 13, 1], 'weapon');
  // half way from frame 2 to 3 of the legs: z 12.5, no turn
  close(player.pose({ legs: { frame: 2.5 } }).upper.matrix, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 12.5, 1], 'upper at 2.5');
  // legs offset: LEGS_WALK is 102 - 100 = 2, reversed (-2): starts on frame 3
  const walk = player.animation('LEGS_WALK');
  assert.deepEqual([walk.firstFrame, walk.frameCount, walk.reversed], [2, 2, true]);
  assert.equal(player.pose({ legs: { animation: 'LEGS_WALK', time: 0 } }).lower.frame, 3);
  assert.equal(player.pose({ legs: { animation: 'LEGS_WALK', time: 0.025 } }).lower.frame, 2.5);
  // TORSO_GESTURE asks for frames 2..101 of a 3-frame upper: reported, and clamped
  assert.equal(player.animation('TORSO_GESTURE').fits, false);
  assert.ok(player.warnings.some((w) => /TORSO_GESTURE uses frames 2\.\.101/.test(w.message)));
  assert.equal(player.pose({ torso: { animation: 'TORSO_GESTURE', time: 5 } }).upper.frame, 2);
  player.dispose();
});

test('no skin files: MD3 shader names resolve by extension, backslashes and LOD suffixes included', () => {
  const player = iq.loadPlayer(builtPlayer());
  assert.deepEqual(player.skins, []);
  assert.equal(player.skin, null);
  assert.deepEqual(player.surfaces.lower[0], { mesh: 0, name: 'l_legs_1', shader: 'models\\players\\built\\legs', source: 'shader', texture: 'models/players/built/legs.jpg', script: null, images: null });
  assert.equal(player.surfaces.upper[0].texture, 'models/players/built/torso.png');
  assert.equal(player.surfaces.head[0].texture, 'models/players/built/head.tga');
  assert.deepEqual(player.missingFiles, []);
  // a skin naming "l_legs" covers the LOD surface "l_legs_1", as R_LoadMD3 strips the suffix
  const files = { ...builtPlayer(), 'models/players/built/lower_x.skin': enc.encode('l_legs,models/players/built/torso.png') };
  const skinned = iq.loadPlayer(files, { skin: 'x' });
  assert.equal(skinned.surfaces.lower[0].source, 'skin');
  assert.equal(skinned.surfaces.lower[0].texture, 'models/players/built/torso.png');
  assert.deepEqual(skinned.missingFiles.sort(), ['models/players/built/head_x.skin', 'models/players/built/upper_x.skin']);
  skinned.dispose();
  player.dispose();
});

test('an IQM player (ioquake3 falls back from .md3 to .iqm): tags are joints', () => {
  const tri = {
    vertexCount: 3,
    vertexArrays: [{ type: 'position', format: 'float', size: 3, data: [0, 0, 0, 1, 0, 0, 0, 1, 0] }],
    triangles: [[0, 1, 2]],
    meshes: [{ name: 'body', material: 'models/players/iqmguy/skin', firstVertex: 0, vertexCount: 3, firstTriangle: 0, triangleCount: 1 }],
  };
  const rest = { rotate: [0, 0, 0, 1], scale: [1, 1, 1] };
  const lower = buildIQM({
    ...tri,
    joints: [{ name: 'root', parent: -1, translate: [0, 0, 0], ...rest }, { name: 'tag_torso', parent: 0, translate: [0, 0, 20], ...rest }],
    frames: [0, 2].map((dz) => [{ translate: [0, 0, 0], ...rest }, { translate: [0, 0, 20 + dz], ...rest }]),
    anims: [{ name: 'all', firstFrame: 0, frameCount: 2, framerate: 10 }],
  }).bytes;
  const upper = buildIQM({ ...tri, joints: [{ name: 'tag_head', parent: -1, translate: [0, 0, 8], ...rest }] }).bytes;
  const head = buildIQM(tri).bytes;
  const player = iq.loadPlayer({
    'models/players/iqmguy/lower.iqm': lower, 'models/players/iqmguy/upper.iqm': upper,
    'models/players/iqmguy/head.iqm': head, 'models/players/iqmguy/skin.tga': new Uint8Array(1),
  });
  assert.equal(player.parts.lower.path, 'models/players/iqmguy/lower.iqm');
  assert.equal(player.parts.lower.model.format, 'iqm');
  assert.deepEqual(player.missingFiles, ['models/players/iqmguy/animation.cfg']);
  assert.equal(player.surfaces.lower[0].texture, 'models/players/iqmguy/skin.tga');
  const pose = player.pose({ legs: { frame: 1 } });
  assert.deepEqual([...pose.upper.matrix.subarray(12, 15)].map((v) => Math.round(v * 1e4) / 1e4), [0, 0, 22]);
  assert.deepEqual([...pose.head.matrix.subarray(12, 15)].map((v) => Math.round(v * 1e4) / 1e4), [0, 0, 30]);
  assert.ok(!player.warnings.some((w) => /has no tag_/.test(w.message)), 'joints count as tags');
  player.dispose();
});
