// MDC (RTCW / Enemy Territory, compressed MD3): hand-built files (mdc-build.mjs, written from the
// games' qfiles.h) decoded as the games' renderer decodes them: base frames int16 / 64, compressed
// frames adding (byte - 127) * 0.05 with a normal from the 256-normal table, tags from angles;
// the table checked against its rings, the bad files, and three.js playing the GLB.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import validator from 'gltf-validator';
import { init } from 'interquake';
import { buildMDC, packOffset, HEADER, SURFACE } from '../lib/mdc-build.mjs';
import { parseGLB, mixerOf, worldPositions, maxDifference, shown } from '../lib/gltf-three.mjs';

const iq = await init();
const f32 = Math.fround;
const patch16 = (bytes, at, v) => { const b = bytes.slice(); new DataView(b.buffer).setInt16(at, v, true); return b; };
const patch32 = (bytes, at, v) => { const b = bytes.slice(); new DataView(b.buffer).setInt32(at, v, true); return b; };

const tri = (normals) => ({
  name: 'body', shaders: ['models/x/body.tga'], triangles: [[0, 1, 2]], st: [[0, 0], [1, 0], [0, 1]],
  base: [[{ xyz: [0, 0, 0] }, { xyz: [640, 0, 0] }, { xyz: [0, 640, 64] }], [{ xyz: [64, 64, 64] }, { xyz: [640, 64, 64] }, { xyz: [64, 640, 128] }]],
  comp: [normals.map((n, i) => packOffset(127 + i, 127 - 20, 200, n))],
  baseOf: [0, 0, 1], compOf: [-1, 0, -1],
});
const desc = (normals = [0, 8, 32]) => ({
  frames: [{ name: 'a' }, { name: 'b' }, { name: 'c' }],
  tags: [{ name: 'tag_weapon', frames: [0, 1, 2].map((f) => ({ xyz: [64 * f, 128, -32], angles: [0, 8175, 0] })) }],
  surfaces: [tri(normals)],
});

test('MDC frames: base frames int16 / 64, compressed frames add (byte - 127) * 0.05 and take the 256-table normal', () => {
  const m = iq.load(buildMDC(desc()).bytes, { name: 'x.mdc' });
  assert.equal(m.format, 'mdc');
  assert.deepEqual(m.warnings, []);
  assert.equal(m.vertexCount, 3);
  assert.equal(m.frameCount, 3);
  const base = [[0, 0, 0], [10, 0, 0], [0, 10, 1]];
  // frame 1: base frame 0 plus the offsets
  for (let v = 0; v < 3; v++) {
    const ofs = [f32((127 + v - 127) * 0.05), f32((107 - 127) * 0.05), f32((200 - 127) * 0.05)];
    assert.deepEqual([...m.framePositions.subarray(9 + 3 * v, 12 + 3 * v)], base[v].map((x, k) => f32(x + ofs[k])), `vertex ${v}`);
    assert.deepEqual([...m.framePositions.subarray(3 * v, 3 * v + 3)], base[v], 'frame 0: the base frame alone');
  }
  // frame 2: base frame 1, uncompressed
  assert.deepEqual([...m.framePositions.subarray(18, 21)], [1, 1, 1]);
  // normals: base frames MD3's packed (0, 0) -> up; compressed: the table's index 0 (+x), 8 (+y), 32 (first ring below)
  assert.deepEqual([...m.frameNormals.subarray(0, 3)], [0, 0, 1]);
  const n = (v) => [...m.frameNormals.subarray(9 + 3 * v, 12 + 3 * v)];
  const near = (a, b) => a.every((x, i) => Math.abs(x - b[i]) < 1e-6);
  assert.ok(near(n(0), [1, 0, 0]) && near(n(1), [0, 1, 0]), `${n(0)} ${n(1)}`);
  assert.ok(near(n(2), [Math.cos(Math.PI / 16), 0, -Math.sin(Math.PI / 16)]), `${n(2)}`);
  assert.deepEqual(m.meshes[0].shaders, ['models/x/body.tga']);
  assert.equal(m.meshes[0].skinName, 'body');
  assert.deepEqual(m.animations.map((a) => [a.name, a.frameCount]), [['all', 3]]);
  m.dispose();
});

test('the 256 compressed-frame normals: rings of 32, 28 .. 4 at 11.25-degree steps, each once', () => {
  // one compressed frame per normal index, read back through the model
  const normals = Array.from({ length: 256 }, (_, i) => i);
  const seen = [];
  for (let i = 0; i < 256; i += 3) {
    const m = iq.load(buildMDC(desc([normals[i], normals[Math.min(i + 1, 255)], normals[Math.min(i + 2, 255)]])).bytes);
    for (let v = 0; v < 3; v++) seen[Math.min(i + v, 255)] = [...m.frameNormals.subarray(9 + 3 * v, 12 + 3 * v)];
    m.dispose();
  }
  const expected = [];
  for (const [side, ks] of [[1, [0]], [-1, [1, 2, 3, 4, 5, 6, 7]], [1, [1, 2, 3, 4, 5, 6, 7]]]) {
    for (const k of ks) {
      const count = 32 - 4 * k, r = Math.cos(k * Math.PI / 16), z = side * Math.sin(k * Math.PI / 16);
      for (let j = 0; j < count; j++) expected.push([r * Math.cos(2 * Math.PI * j / count), r * Math.sin(2 * Math.PI * j / count), z]);
    }
  }
  assert.equal(expected.length, 256);
  seen.forEach((v, i) => assert.ok(v.every((x, k) => Math.abs(x - expected[i][k]) < 1e-6), `normal ${i}: ${v} vs ${expected[i]}`));
  // spot values of the games' table: index 33 and 255
  assert.ok(Math.abs(seen[33][0] - 0.956195) < 1e-6 && Math.abs(seen[33][1] - 0.218245) < 1e-6 && Math.abs(seen[33][2] + 0.19509) < 1e-6);
  assert.ok(Math.abs(seen[255][1] + 0.19509) < 1e-6 && Math.abs(seen[255][2] - 0.980785) < 1e-6);
});

test('MDC tags: origin int16 / 64, axes from the angles (yaw 90 degrees turns x into y)', () => {
  const m = iq.load(buildMDC(desc()).bytes);
  assert.deepEqual(m.tags, ['tag_weapon']);
  const t = m.tagMatrix('tag_weapon', 1);
  const near = (a, b) => a.every((x, i) => Math.abs(x - b[i]) < 1e-5);
  assert.ok(near([...t.subarray(0, 3)], [0, 1, 0]) && near([...t.subarray(4, 7)], [-1, 0, 0]) && near([...t.subarray(8, 11)], [0, 0, 1]), `${t}`);
  assert.deepEqual([...t.subarray(12, 15)], [1, 2, -0.5]);
  m.dispose();
});

test('bad MDC files fail with a specific error', () => {
  const { bytes, layout } = buildMDC(desc());
  const rejects = (b, code, what) => assert.throws(() => iq.load(b), (e) => { assert.equal(e.code, code, `${what}: ${e.message}`); return true; });
  rejects(bytes.subarray(0, 111), 'truncated', 'under 112 bytes');
  rejects(patch32(bytes, HEADER.version, 1), 'bad_version', 'version 1');
  rejects(patch32(bytes, HEADER.num_frames, 0), 'bad_animation', 'no frames');
  rejects(patch32(bytes, HEADER.num_surfaces, -1), 'bad_value', 'a negative count');
  rejects(patch32(bytes, HEADER.ofs_tags, bytes.length), 'out_of_range', 'tags past the end');
  rejects(patch32(bytes, layout.ofsSurfaces + SURFACE.num_comp, 0), 'bad_index', 'a frame naming a compressed frame the surface lacks');
  rejects(patch32(bytes, layout.ofsSurfaces + SURFACE.num_base, 0), 'bad_animation', 'vertices without a base frame');
  rejects(patch32(bytes, layout.ofsSurfaces + SURFACE.ofs_end, 0), 'bad_mesh', 'a surface chain that does not move');
  assert.throws(() => iq.load(patch32(bytes, 0, 0x33504449), { format: 'mdc' }), { code: 'bad_magic' });
});

test('writeGLB (the Khronos validator: no error, no warning): MDC frames as morph targets and tags as nodes; three.js plays them as sample() does within 1e-4', async () => {
  const m = iq.load(buildMDC(desc()).bytes);
  const { glb } = await iq.writeGLB(m);
  const { numErrors, numWarnings, messages } = (await validator.validateBytes(glb)).issues;
  assert.equal(numErrors + numWarnings, 0, `the Khronos validator: ${JSON.stringify(messages.slice(0, 3))}`);
  const gltf = await parseGLB(glb);
  const mixer = mixerOf(gltf);
  const meshes = [];
  gltf.scene.traverse((o) => { if (o.isMesh) meshes.push(o); });
  mixer.play('all');
  for (const t of [0, 0.05, 0.1, 0.17]) {
    mixer.at(t);
    const visible = meshes.filter(shown);
    const d = maxDifference(worldPositions(visible[0]), m.sample('all', t).positions);
    assert.ok(d < 1e-4 * Math.max(1, m.bounds.radius), `at ${t}: off by ${d}`);
  }
  m.dispose();
});
