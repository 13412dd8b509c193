// The animator through the JS API: hand-built rigs whose poses are worked out
// on paper (a turn, a non-uniformly scaled parent, reversed, once, repeat,
// pingpong, stepped, crossfades, attached animation files), and every
// animation of every animated corpus model against the independent
// double-precision reference in lib/anim-reference.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init, DEFAULT_FRAMERATE } from 'interquake';
import { buildIQM } from '../lib/iqm-build.mjs';
import { parseIQM, skinPose } from '../lib/iqm-reference.mjs';
import { playhead, samplePlay, samplePose, jointWorld, toColumnMajor, nlerp, autoRotation } from '../lib/anim-reference.mjs';
import { slerp, normalizeQ } from '../lib/iqm-reference.mjs';
import { assertNear as near } from '../lib/assert-near.mjs';

const CORPUS = new URL('../../../../shared/corpus/iqm/', import.meta.url);
const corpus = (path) => new Uint8Array(readFileSync(new URL(path, CORPUS)));
const iq = await init();

const deg = Math.PI / 180;
const zQuat = (degrees) => [0, 0, Math.sin((degrees * deg) / 2), Math.cos((degrees * deg) / 2)];
const I = { translate: [0, 0, 0], rotate: [0, 0, 0, 1], scale: [1, 1, 1] };

// -- Rig 1: one joint turning about Z: 0, 90, 180, 270 degrees at 2 fps. A vertex at (1,0,0)
// with normal (1,0,0) and tangent (0,1,0) shows the angle directly.
function turnRig({ loop = false, framerate = 2 } = {}) {
  const frames = [0, 90, 180, 270].map((a) => [{ translate: [0, 0, 0], rotate: zQuat(a), scale: [1, 1, 1] }]);
  return buildIQM({
    vertexArrays: [
      { type: 'position', format: 'float', size: 3, data: [1, 0, 0, 0, 0, 1, 0, 0, 2] },
      { type: 'normal', format: 'float', size: 3, data: [1, 0, 0, 1, 0, 0, 0, 0, 1] },
      { type: 'tangent', format: 'float', size: 4, data: [0, 1, 0, 1, 0, 1, 0, 1, 1, 0, 0, -1] },
      { type: 'blendindexes', format: 'ubyte', size: 4, data: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
      { type: 'blendweights', format: 'ubyte', size: 4, data: [255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0] },
    ],
    triangles: [[0, 1, 2]],
    meshes: [{ name: 'm' }],
    joints: [{ name: 'root', parent: -1, ...I }],
    frames,
    anims: [
      { name: 'turn', firstFrame: 0, frameCount: 4, framerate, loop },
      { name: 'unrated', firstFrame: 0, frameCount: 4, framerate: 0, loop: false },
    ],
  }).bytes;
}
const at = (angle) => [Math.cos(angle * deg), Math.sin(angle * deg), 0];
const firstVertex = (r) => Array.from(r.positions.subarray(0, 3));

test('time to frames on paper: once, repeat, pingpong, reversed, stepped, framerate, speed', () => {
  const m = iq.load(turnRig(), { name: 'turn' });
  const angleAt = (time, options) => firstVertex(m.sample('turn', time, options));
  // The file does not say loop: once is the default, 3 intervals at 2 fps = 1.5 s, then the last frame holds.
  near(angleAt(0.5), at(90), 1e-4, 'once t=0.5');
  near(angleAt(0.25), at(45), 1e-4, 'once t=0.25 (half way to 90)');
  let h = m.frameAt('turn', 5);
  assert.deepEqual([h.frameA, h.frameB, h.blend, h.finished, h.loops, h.duration], [3, 3, 0, true, 0, 1.5]);
  near(angleAt(5), at(270), 1e-4, 'once holds the last frame');
  assert.equal(m.frameAt('turn', 1.49).finished, false);
  assert.equal(m.frameAt('turn', 1.5).finished, true);
  // repeat: period 4 frames = 2 s; the last frame blends into the first along the short way (270 -> 360).
  near(angleAt(1.75, { loop: 'repeat' }), at(315), 1e-4, 'repeat wraps 270 -> 0');
  h = m.frameAt('turn', 2.25, { loop: 'repeat' });
  assert.deepEqual([h.frameA, h.frameB, h.loops, h.duration, h.finished], [0, 1, 1, 2, false]);
  near([h.blend], [0.5], 1e-6, 'repeat blend');
  near(angleAt(2.25, { loop: 'repeat' }), at(45), 1e-4, 'second period');
  // pingpong: 0..3..0 in 3 s.
  near(angleAt(2, { loop: 'pingpong' }), at(180), 1e-4, 'pingpong on the way back');
  h = m.frameAt('turn', 3, { loop: 'pingpong' });
  assert.deepEqual([h.frameA, h.loops], [0, 1]);
  // Reversed: starts at the end.
  near(angleAt(0, { speed: -1 }), at(270), 1e-4, 'reverse once starts at the last frame');
  near(angleAt(0.5, { speed: -1 }), at(180), 1e-4, 'reverse once');
  h = m.frameAt('turn', 1.5, { speed: -1 });
  assert.deepEqual([h.frameA, h.finished], [0, true]);
  near(angleAt(0.25, { loop: 'repeat', speed: -1 }), at(315), 1e-4, 'reverse repeat goes 0 -> 270 the short way');
  near(angleAt(0.5, { loop: 'pingpong', speed: -1 }), at(180), 1e-4, 'reverse pingpong');
  // Stepped: whole frames only.
  near(angleAt(0.74, { interpolate: false }), at(90), 1e-4, 'stepped');
  h = m.frameAt('turn', 0.74, { interpolate: false });
  assert.deepEqual([h.frameA, h.frameB, h.blend], [1, 1, 0]);
  // Framerate override and speed.
  near(angleAt(0.5, { framerate: 4 }), at(180), 1e-4, 'framerate override');
  near(angleAt(0.25, { speed: 2 }), at(90), 1e-4, 'speed 2');
  near(angleAt(7, { speed: 0 }), at(0), 1e-4, 'speed 0 freezes at the start');
  // Framerate 0 in the file: the documented default.
  assert.equal(DEFAULT_FRAMERATE, 24);
  assert.equal(m.frameAt('unrated', 1 / 24).frameA, 1);
  assert.equal(m.frameAt('unrated', 1).duration, 3 / 24);
  m.dispose();
});

test('a 90-degree turn half way: normals and tangents turn with it; slerp is exact, nlerp is close', () => {
  const m = iq.load(turnRig(), { name: 'turn' });
  const r = m.sample('turn', 0.5);
  near(r.normals.subarray(0, 3), at(90), 1e-4, 'normal');
  near(r.tangents.subarray(0, 4), [-1, 0, 0, 1], 1e-4, 'tangent');
  near(r.positions.subarray(6, 9), [0, 0, 2], 1e-6, 'a vertex on the axis stays');
  // A third of the way from 0 to 90 degrees: slerp gives 30 degrees; nlerp gives 2 atan2(t sin45, 1 - t + t cos45).
  const third = 1 / 6;
  near(firstVertex(m.sample('turn', third, { rotation: 'slerp' })), at(30), 1e-4, 'slerp at 1/3');
  const t = 1 / 3;
  const nlerpAngle = (2 * Math.atan2(t * Math.sin(45 * deg), 1 - t + t * Math.cos(45 * deg))) / deg;
  near(firstVertex(m.sample('turn', third, { rotation: 'nlerp' })), at(nlerpAngle), 1e-4, `nlerp at 1/3 (${nlerpAngle.toFixed(3)} degrees)`);
  assert.ok(Math.abs(nlerpAngle - 30) > 0.5, 'the rig separates slerp from nlerp');
  near(firstVertex(m.sample('turn', third)), at(30), 1e-4, 'the default slerps a 90-degree step');
  // The joint's own matrix: a 90-degree turn, column-major.
  near(m.jointMatrix('root', 'turn', 0.5), [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], 1e-4, 'jointMatrix');
  m.dispose();
});

test('crossfade: half of 90 degrees and half of 0 degrees is 45 degrees, in poses and joint matrices', () => {
  const m = iq.load(turnRig(), { name: 'turn' });
  const fade = { animation: 'turn', time: 0, weight: 0.5 };
  near(firstVertex(m.sample('turn', 0.5, { crossfade: fade })), at(45), 1e-4, 'crossfade');
  near(firstVertex(m.sample('turn', 0.5, { crossfade: { ...fade, weight: 0 } })), at(90), 1e-4, 'weight 0');
  near(firstVertex(m.sample('turn', 0.5, { crossfade: { ...fade, weight: 1 } })), at(0), 1e-4, 'weight 1');
  const c = Math.SQRT1_2;
  near(m.jointMatrix(0, 'turn', 0.5, { crossfade: fade }), [c, c, 0, 0, -c, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], 1e-4, 'jointMatrix');
  assert.throws(() => m.sample('turn', 0, { crossfade: { animation: 'turn', time: 0 } }), { code: 'invalid_argument' });
  m.dispose();
});

// -- Rig 2: a parent scaled (2,1,1) with a child turned 90 degrees about Z. Composed matrices shear;
// composing translate/rotate/scale per joint would not.
function scaledParentRig() {
  const knee = { translate: [1, 0, 0], rotate: zQuat(90), scale: [1, 1, 1] };
  return buildIQM({
    vertexArrays: [
      { type: 'position', format: 'float', size: 3, data: [2, 0, 0, 2, 0, 0, 2, 0, 0] },
      { type: 'normal', format: 'float', size: 3, data: [1, 0, 0, 0, 1, 0, Math.SQRT1_2, Math.SQRT1_2, 0] },
      { type: 'tangent', format: 'float', size: 4, data: [1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1] },
      { type: 'blendindexes', format: 'ubyte', size: 4, data: [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0] },
      { type: 'blendweights', format: 'ubyte', size: 4, data: [255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0] },
    ],
    triangles: [[0, 1, 2]],
    meshes: [{ name: 'm' }],
    joints: [{ name: 'hip', parent: -1, ...I }, { name: 'knee', parent: 0, ...I, translate: [1, 0, 0] }],
    frames: [
      [{ ...I, scale: [2, 1, 1] }, knee],
      [{ ...I, scale: [-1, 1, 1] }, knee], // a mirror
    ],
    anims: [{ name: 'stretch', firstFrame: 0, frameCount: 1, framerate: 10 }, { name: 'mirror', firstFrame: 1, frameCount: 1 }],
  }).bytes;
}

test('a non-uniformly scaled parent shears its turned child: positions, normals, tangents, matrices on paper', () => {
  const m = iq.load(scaledParentRig(), { name: 'scaled' });
  const r = m.sample('stretch', 0, { layout: '4x4' });
  // Vertex (2,0,0) is (1,0,0) from the knee: turned to (0,1,0), moved to (1,1,0), stretched to (2,1,0).
  near(r.positions, [2, 1, 0, 2, 1, 0, 2, 1, 0], 1e-5, 'positions');
  // Normals by the inverse transpose of [[0,-2,0],[1,0,0],[0,0,1]]: (1,0,0)->(0,1,0), (0,1,0)->(-1,0,0),
  // (1,1,0)/sqrt2 -> (-0.5,1,0)/|.|.
  const l = Math.hypot(0.5, 1);
  near(r.normals, [0, 1, 0, -1, 0, 0, -0.5 / l, 1 / l, 0], 1e-5, 'normals');
  near(r.tangents.subarray(0, 4), [0, 1, 0, 1], 1e-5, 'tangent');
  // The knee in model space: linear part [[0,-2,0],[1,0,0],[0,0,1]], origin at (2,0,0). Column-major.
  const knee = [0, 1, 0, 0, -2, 0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 1];
  near(m.jointMatrix('knee', 'stretch', 0), knee, 1e-5, 'jointMatrix at a time');
  near(m.jointMatrix('knee'), knee, 1e-5, 'jointMatrix of the last pose');
  // Skin matrix of the knee = world * inverse bind (bind: translate (1,0,0)); the 4x4 is the 3x4 transposed.
  const skin3 = m.skinMatrices.subarray(12, 24);
  near(skin3, [0, -2, 0, 2, 1, 0, 0, -1, 0, 0, 1, 0], 1e-5, '3x4 skin matrix (row-major)');
  near(r.skinMatrices.subarray(16, 32), [0, 1, 0, 0, -2, 0, 0, 0, 0, 0, 1, 0, 2, -1, 0, 1], 1e-5, '4x4 skin matrix (column-major)');
  assert.equal(r.skinMatrices, m.skinMatrices4x4, 'the 4x4 result is the model-owned view');
  // The mirror flips the tangent frame's handedness.
  const mirrored = m.sample('mirror', 0);
  near(mirrored.positions.subarray(0, 3), [-1, 1, 0], 1e-5, 'mirrored position');
  near(mirrored.tangents.subarray(0, 4), [0, 1, 0, -1], 1e-5, 'mirrored tangent handedness');
  m.dispose();
});

test('pose() skips CPU skinning, views stay the same objects, errors are specific', () => {
  const m = iq.load(turnRig(), { name: 'turn' });
  const before = m.sample('turn', 0).positions.slice();
  const p = m.pose('turn', 0.5);
  assert.equal(p.positions, undefined);
  near(m.evaluate(0).positions, before, 1e-6, 'evaluate still works and agrees');
  const v1 = m.sample('turn', 0.1).positions;
  const v2 = m.sample('turn', 0.2).positions;
  assert.equal(v1, v2, 'the same model-owned view every call');
  assert.equal(m.pose('turn', 0).skinMatrices, m.skinMatrices);
  assert.throws(() => m.sample('nope', 0), { code: 'invalid_argument', message: /no animation named 'nope'.*'turn'/ });
  assert.throws(() => m.sample(7, 0), { code: 'invalid_argument' });
  assert.throws(() => m.sample(0, NaN), { code: 'invalid_argument' });
  assert.throws(() => m.sample(0, 0, { loop: 'bounce' }), { code: 'invalid_argument' });
  assert.throws(() => m.sample(0, 0, { framerate: -1 }), { code: 'invalid_argument' });
  assert.throws(() => m.sample(0, 0, { layout: '2x2' }), { code: 'invalid_argument' });
  assert.throws(() => m.jointMatrix('nope'), { code: 'invalid_argument' });
  assert.equal(m.findJoint('root'), 0);
  assert.equal(m.findAnimation('unrated'), 1);
  m.dispose();
  assert.throws(() => m.sample(0, 0), { code: 'disposed' });
});

// -- Attaching animations from another file

const skeleton3 = [
  { name: 'a', parent: -1, ...I },
  { name: 'b', parent: 0, ...I, translate: [1, 0, 0] },
  { name: 'c', parent: 0, ...I, translate: [0, 1, 0] },
];
const motion = [0, 1, 2].map((f) => [
  { ...I, translate: [f, 0, 0] },
  { ...I, translate: [1, 0, 0], rotate: zQuat(30 * f) },
  { ...I, translate: [0, 1, 0], rotate: zQuat(-20 * f), scale: [1 + f / 4, 1, 1] },
]);
function meshWithSkeleton() {
  return buildIQM({
    vertexArrays: [
      { type: 'position', format: 'float', size: 3, data: [2, 0, 0, 0, 2, 0, 1, 1, 0] },
      { type: 'blendindexes', format: 'ubyte', size: 4, data: [1, 0, 0, 0, 2, 0, 0, 0, 1, 2, 0, 0] },
      { type: 'blendweights', format: 'ubyte', size: 4, data: [255, 0, 0, 0, 255, 0, 0, 0, 128, 127, 0, 0] },
    ],
    triangles: [[0, 1, 2]],
    meshes: [{ name: 'm' }],
    joints: skeleton3,
    frames: motion,
    anims: [{ name: 'wave', firstFrame: 0, frameCount: 3, framerate: 10 }],
    bounds: motion.map(() => [0, 0, 0, 1, 1, 1, 1, 1]),
  }).bytes;
}

test('attachAnimations: a reordered named skeleton matches by name; frames and animations are appended', () => {
  const m = iq.load(meshWithSkeleton(), { name: 'mesh' });
  const order = [0, 2, 1]; // the animation file lists a, c, b
  const anims = iq.load(buildIQM({
    joints: order.map((j) => ({ ...skeleton3[j], parent: skeleton3[j].parent })),
    frames: motion.map((frame) => order.map((j) => frame[j])),
    anims: [{ name: 'wave2', firstFrame: 0, frameCount: 3, framerate: 10 }],
  }).bytes, { name: 'anims' });
  const viewBefore = m.sample('wave', 0.1).positions;
  const added = m.attachAnimations(anims);
  assert.deepEqual(added.map((a) => [a.name, a.firstFrame, a.frameCount]), [['wave2', 3, 3]]);
  assert.equal(m.frameCount, 6);
  assert.equal(m.animations.length, 2);
  assert.equal(m.framePoses.length, 6 * 3 * 10);
  assert.equal(m.frameBounds.length, 6 * 8, 'bounds cover the appended frames');
  for (const time of [0, 0.05, 0.1, 0.15, 0.2]) {
    const want = m.sample('wave', time).positions.slice();
    near(m.sample('wave2', time).positions, want, 0, `same motion at ${time}`);
    near(m.jointMatrix('c', 'wave2', time), m.jointMatrix('c', 'wave', time), 0, `joint c at ${time}`);
  }
  assert.equal(m.sample('wave', 0).positions, viewBefore, 'skinned views survive attaching');
  // The measured bounds of an appended frame hold its skinned positions.
  const pos = m.evaluate(5).positions;
  const b = m.frameBounds.subarray(5 * 8, 6 * 8);
  for (let v = 0; v < 3; v++) for (let k = 0; k < 3; k++) {
    assert.ok(pos[3 * v + k] >= b[k] - 1e-6 && pos[3 * v + k] <= b[3 + k] + 1e-6, `bounds of frame 5, vertex ${v}`);
  }
  anims.dispose();
  assert.equal(m.sample('wave2', 0.1).frameA, 4, 'the source may be disposed afterwards');
  m.dispose();
});

test('attachAnimations: unnamed joints match by order; skeletons that do not fit are refused clearly', () => {
  const m = iq.load(meshWithSkeleton(), { name: 'mesh' });
  const unnamed = iq.load(buildIQM({ poseParents: [-1, 0, 0], frames: motion, anims: [{ name: 'w', firstFrame: 0, frameCount: 3 }] }).bytes);
  m.attachAnimations(unnamed);
  near(m.sample('w', 0.1, { framerate: 10 }).positions, m.sample('wave', 0.1).positions.slice(), 0, 'by order');
  const wrongParents = iq.load(buildIQM({
    joints: [skeleton3[0], skeleton3[1], { ...skeleton3[2], parent: 1 }], frames: motion,
    anims: [{ name: 'x', firstFrame: 0, frameCount: 3 }],
  }).bytes);
  // Parents that differ are accepted now, as engines accept them (C: iq_attach_animations), with a warning naming 'c'.
  m.attachAnimations(wrongParents);
  assert.ok(m.warnings.some((w) => w.code === 'nonstandard' && /'c'/.test(w.message)), 'other parents: warning');
  const before = [m.frameCount, m.animations.length];
  const twoJoints = iq.load(buildIQM({ poseParents: [-1, 0], frames: motion.map((f) => f.slice(0, 2)), anims: [{ name: 'y', firstFrame: 0, frameCount: 3 }] }).bytes);
  assert.throws(() => m.attachAnimations(twoJoints), { code: 'skeleton_mismatch', message: /3 joints.*2/ });
  const renamed = iq.load(buildIQM({ joints: skeleton3.map((j) => ({ ...j, name: `${j.name}_x` })), frames: motion, anims: [{ name: 'z', firstFrame: 0, frameCount: 3 }] }).bytes);
  assert.throws(() => m.attachAnimations(renamed), { code: 'skeleton_mismatch', message: /'a_x'/ });
  assert.deepEqual([m.frameCount, m.animations.length], before, 'a refused attach changes nothing');
  assert.throws(() => m.attachAnimations({}), { code: 'invalid_argument' });
  for (const x of [unnamed, wrongParents, twoJoints, renamed]) x.dispose();
  m.dispose();
});

test('attachAnimations: guyanim.iqm (poses, no joints) drives guy.iqm exactly like guy.iqm\'s own animations', () => {
  const guy = iq.load(corpus('raylib/guy.iqm'), { name: 'guy.iqm' });
  const anim = iq.load(corpus('raylib/guyanim.iqm'), { name: 'guyanim.iqm' });
  const added = guy.attachAnimations(anim);
  assert.deepEqual(added.map((a) => a.name), ['jump', 'dance']);
  let worst = 0;
  for (let f = 0; f < 61; f += 3) {
    const own = guy.sample(0, f / 24).positions.slice();
    const attached = guy.sample(2, f / 24).positions;
    for (let i = 0; i < own.length; i++) worst = Math.max(worst, Math.abs(own[i] - attached[i]));
  }
  console.log(`# guy.iqm + guyanim.iqm: worst difference from the built-in animation ${worst}`);
  assert.ok(worst < 1e-4, `worst ${worst}`);
  const mrfixit = iq.load(corpus('mrfixit/mrfixit.iqm'), { name: 'mrfixit.iqm' });
  assert.throws(() => mrfixit.attachAnimations(anim), { code: 'skeleton_mismatch' });
  for (const x of [guy, anim, mrfixit]) x.dispose();
});

// -- Every animated corpus model against the reference

const ANIMATED = ['mrfixit/mrfixit.iqm', 'raylib/guy.iqm', 'raylib/guyanim.iqm', 'extension/door2.iqm'];
const MODES = [
  { loop: 'repeat' }, { loop: 'once' }, { loop: 'pingpong' }, { loop: 'repeat', speed: -1 },
  { loop: 'once', speed: -0.5, rotation: 'slerp' }, { loop: 'pingpong', speed: 1.5, interpolate: false },
  { loop: 'repeat', speed: 0.7, rotation: 'nlerp' },
];

test('every frame of every animated corpus model matches the double-precision reference animator', () => {
  const report = [];
  for (const path of ANIMATED) {
    const bytes = corpus(path);
    const ref = parseIQM(bytes);
    const m = iq.load(bytes, { name: path });
    const size = m.bounds ? Math.max(...m.bounds.max.map((x, i) => x - m.bounds.min[i])) : 1;
    let worst = { position: 0, normal: 0, tangent: 0, joint: 0, frames: 0 };
    const refJoints = ref.joints.length ? ref.joints : ref.poses.map((p) => ({ parent: p.parent, ...I }));
    const refModel = { ...ref, joints: refJoints };
    ref.anims.forEach((anim, ai) => {
      const fps = anim.framerate || 24;
      for (const [mi, mode] of MODES.entries()) {
        // Every frame (and a point between frames) of two periods for the first mode, every third frame for the rest.
        const steps = 2 * anim.frameCount + 2;
        for (let s = 0; s <= steps; s += mi === 0 ? 1 : 3) {
          const time = (s + 0.37 * (s % 2)) / fps / Math.abs(mode.speed ?? 1);
          const want = playhead(refModel, anim, time, mode);
          const got = m.frameAt(ai, time, mode);
          assert.equal(got.frameA, anim.firstFrame + want.a, `${path} anim ${ai} ${JSON.stringify(mode)} t=${time}: frameA`);
          assert.equal(got.frameB, anim.firstFrame + want.b, `${path} frameB`);
          assert.ok(Math.abs(got.blend - want.t) < 1e-5, `${path} blend ${got.blend} vs ${want.t}`);
          assert.equal(got.loops, want.loops, `${path} loops`);
          assert.equal(got.finished, want.finished, `${path} finished`);
          const locals = samplePose(refModel, ai, time, mode);
          const world = jointWorld(refModel, locals);
          for (let j = 0; j < world.length; j++) {
            const jm = m.jointMatrix(j, ai, time, mode);
            const wm = toColumnMajor(world[j]);
            for (let k = 0; k < 16; k++) worst.joint = Math.max(worst.joint, Math.abs(jm[k] - wm[k]) / size);
          }
          if (m.vertexCount && (mi === 0 || s % 6 === 0)) {
            const r = m.sample(ai, time, mode);
            const w = skinPose(refModel, locals);
            for (let i = 0; i < w.positions.length; i++) worst.position = Math.max(worst.position, Math.abs(r.positions[i] - w.positions[i]) / size);
            if (w.normals) for (let i = 0; i < w.normals.length; i++) worst.normal = Math.max(worst.normal, Math.abs(r.normals[i] - w.normals[i]));
            if (w.tangents) for (let i = 0; i < w.tangents.length; i++) worst.tangent = Math.max(worst.tangent, Math.abs(r.tangents[i] - w.tangents[i]));
          }
          worst.frames++;
        }
      }
    });
    report.push(`# ${path}: ${worst.frames} samples; worst position ${worst.position.toExponential(2)} of model size, ` +
      `normal ${worst.normal.toExponential(2)}, tangent ${worst.tangent.toExponential(2)}, joint matrix ${worst.joint.toExponential(2)}`);
    assert.ok(worst.position < 1e-5 && worst.joint < 1e-5, `${path}: ${JSON.stringify(worst)}`);
    assert.ok(worst.normal < 1e-4 && worst.tangent < 1e-4, `${path}: ${JSON.stringify(worst)}`);
    m.dispose();
  }
  console.log(report.join('\n'));
});

test('crossfades of corpus animations match the reference', () => {
  const bytes = corpus('raylib/guy.iqm');
  const ref = parseIQM(bytes);
  const m = iq.load(bytes);
  let worst = 0;
  for (const weight of [0.25, 0.5, 0.8]) {
    for (const time of [0.1, 0.77, 1.9]) {
      const options = { loop: 'repeat', crossfade: { animation: 1, time: time * 1.3, weight, loop: 'pingpong' } };
      const got = m.sample(0, time, options).positions;
      const want = skinPose(ref, samplePlay(ref, 0, time, options)).positions;
      for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(got[i] - want[i]));
    }
  }
  console.log(`# guy.iqm crossfades: worst position error ${worst.toExponential(2)}`);
  assert.ok(worst < 1e-4);
  m.dispose();
});

test('slerp versus nlerp between adjacent frames over the corpus (the measurement behind the default)', () => {
  const lines = [];
  for (const path of ANIMATED) {
    const ref = parseIQM(corpus(path));
    let worstAngle = 0;
    let worstAuto = 0;
    let worstStep = 0;
    for (let f = 0; f + 1 < ref.frames.length; f++) {
      for (let j = 0; j < ref.frames[f].length; j++) {
        const a = ref.frames[f][j].rotate;
        const b = ref.frames[f + 1][j].rotate;
        const step = 2 * Math.acos(Math.min(1, Math.abs(a.reduce((s, x, i) => s + x * b[i], 0))));
        worstStep = Math.max(worstStep, step);
        for (const t of [0.1, 0.2, 0.25, 0.3, 0.4]) {
          const p = normalizeQ(slerp(a, b, t));
          const q = nlerp(a, b, t);
          const dot = Math.min(1, Math.abs(p.reduce((s, x, i) => s + x * q[i], 0)));
          worstAngle = Math.max(worstAngle, 2 * Math.acos(dot));
          const r = autoRotation(a, b, t);
          worstAuto = Math.max(worstAuto, 2 * Math.acos(Math.min(1, Math.abs(p.reduce((s, x, i) => s + x * r[i], 0)))));
        }
      }
    }
    lines.push(`# ${path}: largest rotation between adjacent frames ${(worstStep / deg).toFixed(2)} deg, ` +
      `largest slerp/nlerp difference ${(worstAngle / deg).toExponential(2)} deg, slerp/default ${(worstAuto / deg).toExponential(2)} deg`);
    assert.ok(worstAuto / deg < 2e-3, `${path}: the default stays within 0.002 degrees of slerp`);
    // The bound for nlerp's error is about step^3 / 32 radians at quarter points: tiny at frame spacing.
    assert.ok(worstAngle <= worstStep ** 3 / 16 + 1e-7, `${path}: ${worstAngle} for a step of ${worstStep}`);
  }
  console.log(lines.join('\n'));
});

test('loop and finished events derived from frameAt fire exactly once per period and once per play', () => {
  const m = iq.load(turnRig(), { name: 'turn' });
  for (const [options, seconds] of [[{ loop: 'repeat' }, 2], [{ loop: 'pingpong', speed: -1 }, 3], [{ loop: 'repeat', speed: 0.3 }, 2 / 0.3]]) {
    let last = m.frameAt('turn', 0, options);
    let loopEvents = 0;
    for (let step = 1; step <= 600; step++) { // 10 s at 60 frames per second
      const h = m.frameAt('turn', step / 60, options);
      loopEvents += h.loops - last.loops;
      assert.equal(h.finished, false);
      last = h;
    }
    assert.equal(loopEvents, Math.floor(10 / seconds + 1e-9), `${JSON.stringify(options)}: one loop event per period`);
    assert.ok(Math.abs(last.duration - seconds) < 1e-9);
  }
  for (const speed of [1, -1, 2.5]) {
    let finishedEvents = 0;
    let wasFinished = m.frameAt('turn', 0, { speed }).finished;
    for (let step = 1; step <= 600; step++) {
      const h = m.frameAt('turn', step / 60, { speed });
      if (h.finished && !wasFinished) {
        finishedEvents++;
        assert.ok(Math.abs(step / 60 - 1.5 / Math.abs(speed)) < 1 / 60, `finished at the end, speed ${speed}`);
      }
      wasFinished = h.finished;
    }
    assert.equal(finishedEvents, 1, `once fires finished once, speed ${speed}`);
  }
  m.dispose();
});

test('attached frames stay readable after the heap grows', () => {
  const m = iq.load(meshWithSkeleton(), { name: 'mesh' });
  const anims = iq.load(buildIQM({ poseParents: [-1, 0, 0], frames: motion, anims: [{ name: 'w', firstFrame: 0, frameCount: 3 }] }).bytes);
  m.attachAnimations(anims);
  const poses = m.framePoses.slice();
  const before = iq.memoryBytes;
  const big = [];
  while (iq.memoryBytes === before) big.push(iq.load(corpus('mrfixit/mrfixit.iqm')));
  assert.deepEqual(m.framePoses, poses, 'views rebuilt on the new heap');
  near(m.sample('w', 0.05, { framerate: 10 }).positions, m.sample('wave', 0.05).positions.slice(), 0, 'sampling after growth');
  for (const x of [...big, anims, m]) x.dispose();
});
