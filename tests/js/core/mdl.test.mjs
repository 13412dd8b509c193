// Quake 1 MDL: hand-built files with known answers (mdl-build.mjs, written from modelgen.h): skins
// decoded through Quake's palette, skin and frame groups with their intervals, the on-seam split of
// back-facing triangles, each frame's stored box, clips, the bad files (a specific error), and the
// round trip through writeGLB (three.js's mixer).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import validator from 'gltf-validator';
import { init } from 'interquake';
import { buildMDL, HEADER } from '../lib/mdl-build.mjs';
import { parseGLB, mixerOf, worldPositions, maxDifference, shown } from '../lib/gltf-three.mjs';

const iq = await init();
const codes = (model) => model.warnings.map((w) => w.code);
const rejects = (bytes, code, what) => assert.throws(() => iq.load(bytes, { name: 'bad.mdl' }), (e) => {
  assert.equal(e.code, code, `${what}: ${e.message}`);
  return true;
}, what);
const patch32 = (bytes, at, v) => { const b = bytes.slice(); new DataView(b.buffer).setInt32(at, v, true); return b; };

// Two triangles over four texture vertices: vertex 1 is on the seam; the first triangle faces
// front, the second back, so the second's use of vertex 1 takes s + width / 2.
const BASE = {
  scale: [0.5, 0.25, 2], origin: [-10, 4, -1], skinWidth: 8, skinHeight: 4,
  stverts: [{ s: 0, t: 0 }, { onseam: 32, s: 2, t: 1 }, { s: 6, t: 3 }, { s: 4, t: 2 }],
  triangles: [{ facesfront: 1, verts: [0, 1, 2] }, { facesfront: 0, verts: [0, 3, 1] }],
};
const pose = (name, z, n = 5) => ({ name, box: [[0, 0, z], [200, 100, z + 3]], verts: [[0, 0, z, n], [200, 0, z + 1, n], [200, 100, z + 2, n], [0, 100, z + 3, n]] });
const pixels = (fill) => Uint8Array.from({ length: 32 }, (_, i) => (fill === undefined ? i * 8 : fill));

test('a hand-built MDL: positions byte * scale + origin, the seam split, stored boxes, normals', () => {
  const { bytes } = buildMDL({ ...BASE, skins: [pixels()], frames: [pose('walk1', 0), pose('walk2', 10, 52)] });
  const m = iq.load(bytes, { name: 'x.mdl' });
  assert.equal(m.format, 'mdl');
  assert.deepEqual(m.warnings, []);
  // corners: 0, 1, 2 (front), then 0, 3 and 1 on the back of the seam: a fifth vertex
  assert.equal(m.vertexCount, 5);
  assert.deepEqual([...m.indices], [0, 1, 2, 0, 3, 4]);
  const fileVertex = [0, 1, 2, 3, 1];
  const tc = [[0, 0], [2 / 8, 1 / 4], [6 / 8, 3 / 4], [4 / 8, 2 / 4], [(2 + 4) / 8, 1 / 4]];
  assert.deepEqual([...m.texcoords], tc.flat());
  for (let f = 0; f < 2; f++) {
    const src = pose('', f * 10);
    for (let v = 0; v < 5; v++) {
      const b = src.verts[fileVertex[v]];
      const want = [b[0] * 0.5 - 10, b[1] * 0.25 + 4, b[2] * 2 - 1];
      assert.deepEqual([...m.framePositions.subarray(15 * f + 3 * v, 15 * f + 3 * v + 3)], want);
      assert.deepEqual([...m.frameNormals.subarray(15 * f + 3 * v, 15 * f + 3 * v + 3)], f ? [1, 0, 0] : [0, 0, 1]);
    }
    // the stored box, decoded like the vertices
    assert.deepEqual(m.frames[f].min, [-10, 4, f * 10 * 2 - 1]);
    assert.deepEqual(m.frames[f].max, [200 * 0.5 - 10, 100 * 0.25 + 4, (f * 10 + 3) * 2 - 1]);
  }
  assert.deepEqual(m.animations, [{ name: 'walk', firstFrame: 0, frameCount: 2, framerate: 10, loop: true }]);
  m.dispose();
});

test("skins: decoded through Quake's palette, skin groups with their intervals", () => {
  const indices = Uint8Array.from({ length: 32 }, (_, i) => [0, 15, 254, 8][i % 4]);
  const { bytes } = buildMDL({
    ...BASE, frames: [pose('a', 0)],
    skins: [indices, { group: [{ pixels: pixels(1), interval: 0.1 }, { pixels: pixels(2), interval: 0.3 }] }],
  });
  const m = iq.load(bytes);
  assert.deepEqual(m.images.map((i) => [i.name, i.width, i.height, i.skin, i.interval]),
    [['skin0', 8, 4, 0, 0], ['skin1_0', 8, 4, 1, Math.fround(0.1)], ['skin1_1', 8, 4, 1, Math.fround(0.3)]]);
  assert.deepEqual(m.meshes[0].shaders, ['skin0', 'skin1_0']);
  assert.equal(m.meshes[0].material, 'skin0');
  // Quake's palette: index 0 black, 0..15 a grey ramp, 254 white; every pixel opaque
  const px = (img, i) => [...img.data.subarray(4 * i, 4 * i + 4)];
  assert.deepEqual(px(m.images[0], 0), [0, 0, 0, 255]);
  assert.deepEqual(px(m.images[0], 2), [255, 255, 255, 255]);
  const g15 = px(m.images[0], 1), g8 = px(m.images[0], 3);
  assert.ok(g15[0] === g15[1] && g15[1] === g15[2] && g8[0] === g8[1] && g8[0] < g15[0] && g15[0] < 255, `${g8} ${g15}`);
  assert.ok(m.images.every((img) => img.data.length === 8 * 4 * 4 && img.data.every((b, i) => i % 4 !== 3 || b === 255)));
  m.dispose();
});

test('frame groups: their frames in order with their intervals, one clip each at the mean rate', () => {
  const group = { group: [pose('flame1', 0), pose('flame2', 4), pose('flame3', 8)], intervals: [0.1, 0.2, 0.4] };
  const { bytes } = buildMDL({ ...BASE, skins: [pixels()], frames: [pose('stand1', 0), pose('stand2', 1), group, pose('die1', 2)] });
  const m = iq.load(bytes);
  assert.equal(m.frameCount, 6);
  assert.deepEqual(m.frames.map((f) => [f.name, f.interval]),
    [['stand1', 0], ['stand2', 0], ['flame1', Math.fround(0.1)], ['flame2', Math.fround(0.2)], ['flame3', Math.fround(0.4)], ['die1', 0]]);
  assert.deepEqual(m.animations.map((a) => [a.name, a.firstFrame, a.frameCount, Math.round(a.framerate * 1000) / 1000]),
    [['stand', 0, 2, 10], ['flame', 2, 3, 7.5], ['die', 5, 1, 10]]);
  m.dispose();
  // intervals that do not increase are repaired to 0.1 s steps, with a warning
  const bad = buildMDL({ ...BASE, skins: [pixels()], frames: [{ ...group, intervals: [0.3, 0.2, NaN] }] }).bytes;
  const r = iq.load(bad);
  assert.deepEqual(codes(r), ['repaired']);
  assert.deepEqual(r.frames.map((f) => f.interval), [0.1, 0.2, 0.3].map(Math.fround));
  r.dispose();
  // intervals closer than a millisecond (fuzz_mdl found an infinite rate) are repaired too
  const tiny = iq.load(buildMDL({ ...BASE, skins: [pixels()], frames: [{ ...group, intervals: [1e-30, 2e-30, 3e-30] }] }).bytes);
  assert.deepEqual(codes(tiny), ['repaired']);
  assert.equal(tiny.animations[0].framerate, 10);
  tiny.dispose();
});

test('Xonotic ships MDL files named .md3: the magic decides', () => {
  const { bytes } = buildMDL({ ...BASE, skins: [pixels()], frames: [pose('a', 0)] });
  const m = iq.load(bytes, { name: 'models/items/g_h50.md3' });
  assert.equal(m.format, 'mdl');
  assert.equal(iq.formatOf(bytes), 'mdl');
  m.dispose();
});

test('bad MDL files fail with a specific error', () => {
  const { bytes, layout } = buildMDL({ ...BASE, skins: [pixels()], frames: [pose('a', 0)] });
  rejects(bytes.subarray(0, 83), 'truncated', 'under 84 bytes');
  rejects(patch32(bytes, HEADER.version, 5), 'bad_version', 'version 5');
  rejects(patch32(bytes, HEADER.num_frames, 0), 'bad_animation', 'no frames');
  rejects(patch32(bytes, HEADER.num_verts, -1), 'bad_value', 'a negative count');
  rejects(patch32(bytes, HEADER.skinwidth, 0), 'bad_value', 'skins of no size');
  rejects(patch32(bytes, HEADER.skinwidth, 100000), 'limit', 'a skin wider than 16384');
  rejects(patch32(bytes, HEADER.num_skins, 50), 'truncated', 'more skins than the file holds');
  rejects(bytes.subarray(0, bytes.length - 1), 'truncated', 'a frame cut short');
  rejects(patch32(bytes, layout.triangles + 8, 4), 'bad_index', 'a triangle vertex past the vertices');
  rejects(patch32(bytes, layout.frames[0], 1), 'bad_value', 'a frame group of garbage count');
  assert.throws(() => iq.load(patch32(bytes, 0, 0x32504449), { format: 'mdl' }), { code: 'bad_magic' });
  const trailing = buildMDL({ ...BASE, skins: [pixels()], frames: [pose('a', 0)], trailing: [1, 2] }).bytes;
  const m = iq.load(trailing);
  assert.deepEqual(codes(m), ['trailing_bytes']);
  m.dispose();
});

test('writeGLB (the Khronos validator: no error, no warning): MDL frames and a frame group as morph targets, three.js plays them as sample() does within 1e-4', async () => {
  const group = { group: [pose('flame1', 0), pose('flame2', 40), pose('flame3', 80)], intervals: [0.1, 0.2, 0.3] };
  const m = iq.load(buildMDL({ ...BASE, skins: [pixels()], frames: [pose('run1', 0), pose('run2', 30), group] }).bytes);
  const { glb, missingFiles } = await iq.writeGLB(m);
  // the skin the file embeds goes into the GLB as a texture, nothing missing
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + new DataView(glb.buffer, glb.byteOffset).getUint32(12, true))));
  assert.deepEqual(missingFiles, []);
  assert.equal(json.images?.length, 1);
  const { numErrors, numWarnings, messages } = (await validator.validateBytes(glb)).issues;
  assert.equal(numErrors + numWarnings, 0, `the Khronos validator: ${JSON.stringify(messages.slice(0, 3))}`);
  const gltf = await parseGLB(glb);
  const mixer = mixerOf(gltf);
  const meshes = [];
  gltf.scene.traverse((o) => { if (o.isMesh) meshes.push(o); });
  for (const clip of m.animations) {
    mixer.play(clip.name);
    for (const t of [0, 0.04, 0.13, clip.frameCount / clip.framerate - 0.02]) {
      mixer.at(t);
      const visible = meshes.filter(shown);
      assert.equal(visible.length, 1);
      const d = maxDifference(worldPositions(visible[0]), m.sample(clip.name, t).positions);
      assert.ok(d < 1e-4 * m.bounds.radius, `${clip.name} at ${t}: off by ${d}`);
    }
  }
  m.dispose();
});
