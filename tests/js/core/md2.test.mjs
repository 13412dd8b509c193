// MD2 (Quake 2): hand-built files with known answers (md2-build.mjs, written from qfiles.h), the
// normal table against a geodesic sphere built from geometry, clips from frame names, the odd files
// real games ship (load + warn) and the bad ones (a specific error), morph playback, and the round
// trips through writeGLB (three.js's mixer) and writeIQM.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import validator from 'gltf-validator';
import { init } from 'interquake';
import { buildMD2, decodePosition, geodesicNormals, HEADER } from '../lib/md2-build.mjs';
import { parseGLB, mixerOf, worldPositions, maxDifference, shown } from '../lib/gltf-three.mjs';

const iq = await init();
const codes = (model) => model.warnings.map((w) => w.code);
const rejects = (bytes, code, what) => {
  assert.throws(() => iq.load(bytes, { name: 'bad.md2' }), (e) => {
    assert.equal(e.name, 'InterquakeError', what);
    assert.equal(e.code, code, `${what}: ${e.message}`);
    return true;
  }, what);
};
const patch32 = (bytes, at, v) => { const b = bytes.slice(); new DataView(b.buffer).setInt32(at, v, true); return b; };
const patchF32 = (bytes, at, v) => { const b = bytes.slice(); new DataView(b.buffer).setFloat32(at, v, true); return b; };

// A quad of two triangles over four positions; position 0 is mapped to texture coordinate 0 by
// the first triangle and to 4 by the second (a texture seam): five distinct (position, texture
// coordinate) pairs, so five model vertices.
const QUAD = {
  skinWidth: 32, skinHeight: 16,
  skins: ['models/monsters/tank/skin.pcx', 'models/monsters/tank/pain.pcx'],
  st: [[0, 0], [32, 0], [32, 16], [0, 16], [8, 4]],
  triangles: [{ xyz: [0, 1, 2], st: [0, 1, 2] }, { xyz: [0, 2, 3], st: [4, 2, 3] }],
};
const quadFrame = (name, dz, normal = 5) => ({
  name, scale: [0.5, 0.25, 2], translate: [-8, 4, dz],
  verts: [[0, 0, 0, normal], [64, 0, 1, normal], [64, 128, 2, normal], [0, 128, 3, normal]],
});

test('a hand-built MD2: vertices split on texture seams, positions byte * scale + translate, skins, texcoords', () => {
  const { bytes } = buildMD2({ ...QUAD, frames: [quadFrame('stand1', 0), quadFrame('stand2', 10, 52)] });
  const m = iq.load(bytes, { name: 'quad.md2' });
  assert.equal(m.format, 'md2');
  assert.deepEqual(m.warnings, []);
  assert.equal(m.vertexCount, 5);
  assert.equal(m.triangleCount, 2);
  assert.equal(m.frameCount, 2);
  // first-use order: corners (0,0) (1,1) (2,2), then (0,4) new, (2,2) again, (3,3) new
  assert.deepEqual([...m.indices], [0, 1, 2, 3, 2, 4]);
  const xyzOf = [0, 1, 2, 0, 3], stOf = [0, 1, 2, 4, 3];
  assert.equal(m.meshes.length, 1);
  assert.deepEqual(m.meshes[0].shaders, QUAD.skins);
  assert.equal(m.meshes[0].material, QUAD.skins[0]);
  for (let f = 0; f < 2; f++) {
    const frame = quadFrame('', f * 10, f ? 52 : 5);
    for (let v = 0; v < 5; v++) {
      const byte = frame.verts[xyzOf[v]];
      const want = [0, 1, 2].map((k) => decodePosition(byte[k], frame.scale[k], frame.translate[k]));
      assert.deepEqual([...m.framePositions.subarray(15 * f + 3 * v, 15 * f + 3 * v + 3)], want, `frame ${f} vertex ${v}`);
      assert.deepEqual([...m.frameNormals.subarray(15 * f + 3 * v, 15 * f + 3 * v + 3)], f ? [1, 0, 0] : [0, 0, 1]);
    }
  }
  for (let v = 0; v < 5; v++) {
    const [s, t] = QUAD.st[stOf[v]];
    assert.deepEqual([...m.texcoords.subarray(2 * v, 2 * v + 2)], [s / 32, t / 16]);
  }
  // frame 0 is what positions and normals show
  assert.deepEqual([...m.positions], [...m.framePositions.subarray(0, 15)]);
  assert.deepEqual(m.frames.map((f) => f.name), ['stand1', 'stand2']);
  // MD2 stores no box: each frame's comes from its vertices
  assert.deepEqual(m.frames[1].min, [-8, 4, 10]);
  assert.deepEqual(m.frames[1].max, [24, 36, 16]);
  assert.deepEqual(m.animations, [{ name: 'stand', firstFrame: 0, frameCount: 2, framerate: 10, loop: true }]);
  m.dispose();
});

test("the normal table is Quake's: the 162 vertices of a four-way cut icosahedron, with the engine's indices", () => {
  // one triangle per three normals, so every table entry reaches a model vertex
  const verts = Array.from({ length: 162 }, (_, i) => [i, 0, 0, i]);
  const tris = Array.from({ length: 54 }, (_, t) => ({ xyz: [3 * t, 3 * t + 1, 3 * t + 2], st: [0, 0, 0] }));
  const m = iq.load(buildMD2({ st: [[0, 0]], triangles: tris, frames: [{ verts }] }).bytes);
  assert.equal(m.vertexCount, 162);
  const sphere = geodesicNormals();
  assert.equal(sphere.length, 162);
  const used = new Set();
  for (let v = 0; v < 162; v++) {
    const n = [...m.normals.subarray(3 * v, 3 * v + 3)];
    assert.ok(Math.abs(Math.hypot(...n) - 1) < 2e-6, `normal ${v} has length ${Math.hypot(...n)}`);
    const nearest = sphere.map((p, i) => [Math.hypot(p[0] - n[0], p[1] - n[1], p[2] - n[2]), i]).sort((a, b) => a[0] - b[0])[0];
    assert.ok(nearest[0] < 1e-6, `normal ${v} is ${nearest[0]} from the sphere's nearest vertex`);
    used.add(nearest[1]);
  }
  assert.equal(used.size, 162, 'every vertex of the sphere once');
  // the axes sit at these indices in Quake's table (a renderer's lighting depends on the order)
  const axes = { 5: [0, 0, 1], 32: [0, 1, 0], 52: [1, 0, 0], 84: [0, 0, -1], 104: [0, -1, 0], 143: [-1, 0, 0] };
  for (const [i, axis] of Object.entries(axes)) assert.deepEqual([...m.normals.subarray(3 * i, 3 * i + 3)], axis, `index ${i}`);
  m.dispose();
});

test('clips from frame names: run1..run6 -> run, numbered stems kept apart, framerate 10', () => {
  const names = ['stand01', 'stand02', 'stand03', 'run1', 'run2', 'run3', 'run4', 'run5', 'run6',
    'pain101', 'pain102', 'pain201', 'pain202', 'pain203', 'jump', 'jump', 'death1', 'death2', 'death1', 'death2', '000', '001'];
  const frames = names.map((name) => ({ ...quadFrame(name, 0) }));
  const m = iq.load(buildMD2({ ...QUAD, frames }).bytes);
  assert.deepEqual(m.animations.map((a) => [a.name, a.firstFrame, a.frameCount]), [
    ['stand', 0, 3], ['run', 3, 6], ['pain1', 9, 2], ['pain2', 11, 3], ['jump', 14, 2],
    ['death_1', 16, 2], ['death_2', 18, 2], ['frames', 20, 2],
  ]);
  assert.ok(m.animations.every((a) => a.framerate === 10 && a.loop));
  assert.equal(m.frameAt('run', 0.25).frameA, 5, 'frame 3 + 2.5 frames at 10 fps');
  m.dispose();
});

test('morph playback: evaluate and sample lerp between frames', () => {
  const m = iq.load(buildMD2({ ...QUAD, frames: [quadFrame('a1', 0), quadFrame('a2', 10)] }).bytes);
  const at = m.evaluate(0.25).positions;
  for (let v = 0; v < 5; v++) {
    const a = m.framePositions[3 * v + 2], b = m.framePositions[15 + 3 * v + 2];
    assert.ok(Math.abs(at[3 * v + 2] - (a + 0.25 * (b - a))) < 1e-5);
  }
  const s = m.sample('a', 0.05).positions; // half way at 10 fps
  assert.ok(Math.abs(s[2] - 5) < 1e-5, `z ${s[2]}`);
  m.dispose();
});

// -- What real files do: loads, with a warning

test('odd files load with a warning: over the limits, end offsets, normal indices past the table, no skin size', () => {
  const frames = Array.from({ length: 513 }, (_, i) => quadFrame(`f${i}`, 0));
  let m = iq.load(buildMD2({ ...QUAD, frames }).bytes);
  assert.deepEqual(codes(m), ['over_limit']);
  assert.match(m.warnings[0].message, /513 frames; Quake 2 allows 512/);
  m.dispose();
  m = iq.load(buildMD2({ ...QUAD, frames: [quadFrame('a', 0)], trailing: [1, 2, 3] }).bytes);
  assert.deepEqual(codes(m), ['trailing_bytes']);
  m.dispose();
  const { bytes } = buildMD2({ ...QUAD, frames: [quadFrame('a', 0, 200)] });
  m = iq.load(bytes);
  assert.deepEqual(codes(m), ['repaired']);
  assert.deepEqual([...m.normals.subarray(0, 3)], [0, 0, 1]);
  m.dispose();
  m = iq.load(buildMD2({ ...QUAD, skinWidth: 0, frames: [quadFrame('a', 0)] }).bytes);
  assert.deepEqual(codes(m), ['repaired']);
  assert.ok(m.texcoords.every((x) => x === 0));
  m.dispose();
  m = iq.load(buildMD2({ ...QUAD, triangles: [], frames: [quadFrame('a', 0)] }).bytes);
  assert.deepEqual(codes(m), ['empty']);
  assert.equal(m.vertexCount, 0);
  m.dispose();
  // a frame record larger than its vertices (padding) is stepped over by the frame size
  m = iq.load(buildMD2({ ...QUAD, framePadding: 8, frames: [quadFrame('a', 0), quadFrame('b', 10)] }).bytes);
  assert.deepEqual(m.warnings, []);
  assert.equal(m.framePositions[15 + 2], 10);
  m.dispose();
  m = iq.load(buildMD2({ ...QUAD, frames: [quadFrame('sixteen_chars_nm', 0)] }).bytes);
  assert.deepEqual(codes(m), ['nonstandard']);
  assert.equal(m.frames[0].name, 'sixteen_chars_nm');
  m.dispose();
});

// -- Bad files: a specific, located error

test('bad MD2 files fail with a specific error', () => {
  const good = buildMD2({ ...QUAD, frames: [quadFrame('a', 0)] });
  const { bytes, layout } = good;
  rejects(bytes.subarray(0, 67), 'truncated', 'under 68 bytes');
  rejects(patch32(bytes, HEADER.version, 7), 'bad_version', 'version 7');
  assert.throws(() => iq.load(patch32(bytes, 0, 0x33504449), { format: 'md2' }), { code: 'bad_magic' });
  rejects(patch32(bytes, HEADER.num_frames, 0), 'bad_animation', 'no frames');
  rejects(patch32(bytes, HEADER.num_tris, -1), 'bad_value', 'a negative count');
  rejects(patch32(bytes, HEADER.framesize, 40), 'bad_value', 'a frame size below its vertices');
  rejects(patch32(bytes, HEADER.num_xyz, 40000), 'limit', 'more vertices than int16 indices reach');
  rejects(patch32(bytes, HEADER.ofs_frames, bytes.length - 10), 'out_of_range', 'frames past the end');
  rejects(patch32(bytes, HEADER.ofs_tris, -4), 'out_of_range', 'a negative offset');
  rejects(patch32(bytes, HEADER.num_skins, 1000), 'out_of_range', 'skins past the end');
  rejects(patch32(bytes, HEADER.num_glcmds, 100), 'out_of_range', 'GL commands past the end (Quake 2 draws with them)');
  rejects(patch32(bytes, HEADER.ofs_end, 12), 'bad_filesize', 'an end inside the header');
  const badIndex = bytes.slice();
  new DataView(badIndex.buffer).setInt16(layout.ofsTris + 2, 4, true);
  assert.throws(() => iq.load(badIndex), (e) => e.code === 'bad_index' && e.offset === layout.ofsTris + 2 && /vertex 4/.test(e.message));
  const badSt = bytes.slice();
  new DataView(badSt.buffer).setInt16(layout.ofsTris + 6, -1, true);
  rejects(badSt, 'bad_index', 'a negative texture coordinate index');
  rejects(patchF32(bytes, layout.ofsFrames + 4, NaN), 'bad_value', 'a NaN scale');
  rejects(patchF32(bytes, layout.ofsFrames + 12, 1e7), 'bad_value', 'a translate beyond the magnitude limit');
  rejects(patchF32(bytes, layout.ofsFrames, 1e5), 'bad_value', 'a scale whose 255 * scale passes the limit');
});

// -- Round trips

test('writeGLB (the Khronos validator: no error, no warning): MD2 frames as morph targets, three.js plays each clip as sample() does within 1e-4', async () => {
  const frames = ['run1', 'run2', 'run3', 'idle1', 'idle2'].map((name, i) => quadFrame(name, 3 * i, 5 + i));
  const m = iq.load(buildMD2({ ...QUAD, frames }).bytes);
  const { glb } = await iq.writeGLB(m);
  const { numErrors, numWarnings, messages } = (await validator.validateBytes(glb)).issues;
  assert.equal(numErrors + numWarnings, 0, `the Khronos validator: ${JSON.stringify(messages.slice(0, 3))}`);
  const gltf = await parseGLB(glb);
  assert.deepEqual(gltf.animations.map((a) => a.name).sort(), ['idle', 'run']);
  const mixer = mixerOf(gltf);
  const meshes = [];
  gltf.scene.traverse((o) => { if (o.isMesh) meshes.push(o); });
  for (const clip of m.animations) {
    mixer.play(clip.name);
    for (const t of [0, 0.05, 0.12, clip.frameCount / 10 - 0.03]) {
      mixer.at(t);
      const visible = meshes.filter(shown);
      assert.equal(visible.length, 1, `one mesh shown at ${t}`);
      const d = maxDifference(worldPositions(visible[0]), m.sample(clip.name, t).positions);
      assert.ok(d < 1e-4 * m.bounds.radius, `${clip.name} at ${t}: off by ${d}`);
    }
  }
  m.dispose();
});

test('writeIQM: a one-frame MD2 round trips; an animated one is refused as morph animation', () => {
  const still = iq.load(buildMD2({ ...QUAD, frames: [quadFrame('a', 0)] }).bytes);
  const back = iq.load(iq.writeIQM(still));
  assert.equal(back.format, 'iqm');
  assert.deepEqual([...back.positions], [...still.positions]);
  assert.deepEqual([...back.indices], [...still.indices]);
  assert.deepEqual([...back.texcoords], [...still.texcoords]);
  const moving = iq.load(buildMD2({ ...QUAD, frames: [quadFrame('a', 0), quadFrame('b', 1)] }).bytes);
  assert.throws(() => iq.writeIQM(moving), { code: 'unsupported' });
  for (const x of [still, back, moving]) x.dispose();
});
