// MD3: corpus files against an independent reader, normals against values
// worked out on paper, morphing and tags against independent math, the odd
// files real games ship (load + warn) and the bad ones (a specific error).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { init } from 'interquake';
import { buildMD3, quadSurface, packNormal, patchI32, patchF32, HEADER, SURFACE, garbageTagAxisMD3 } from '../lib/md3-build.mjs';
import { readMD3, referenceTagMatrix } from '../lib/md3-read.mjs';
import { parseIQM, sampleFrame, worldMatrices } from '../lib/iqm-reference.mjs';
import { assertNear as near } from '../lib/assert-near.mjs';

const CORPUS = new URL('../../../../shared/corpus/', import.meta.url).pathname;
const SARGE = join(CORPUS, 'md3/openarena/models/players/sarge/');
const iq = await init();

function md3Files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? md3Files(join(dir, e.name)) : e.name.endsWith('.md3') ? [join(dir, e.name)] : []);
}

const codes = (model) => model.warnings.map((w) => w.code);
const rejects = (bytes, code, what) => {
  assert.throws(() => iq.load(bytes, { format: 'md3' }), (e) => {
    assert.equal(e.name, 'InterquakeError', what);
    assert.equal(e.code, code, `${what}: ${e.message}`);
    return true;
  }, what);
};

// -- The corpus

test('every corpus MD3 loads with the counts, names and vertices an independent reader finds', () => {
  const files = md3Files(join(CORPUS, 'md3'));
  assert.ok(files.length >= 12, `found ${files.length} MD3 files`);
  for (const file of files) {
    const bytes = readFileSync(file);
    const ref = readMD3(bytes);
    const m = iq.load(bytes, { name: file });
    assert.equal(m.format, 'md3');
    assert.equal(m.frameCount, ref.header.numFrames, file);
    assert.equal(m.meshes.length, ref.header.numSurfaces, file);
    assert.deepEqual(m.tags, ref.tags[0]?.map((t) => t.name) ?? [], file);
    const nv = ref.surfaces.reduce((n, s) => n + s.numVerts, 0);
    assert.equal(m.vertexCount, nv, file);
    assert.equal(m.triangleCount, ref.surfaces.reduce((n, s) => n + s.numTriangles, 0), file);
    let firstVertex = 0, firstTriangle = 0;
    const indices = m.indices, texcoords = m.texcoords, framePositions = m.framePositions, frameNormals = m.frameNormals;
    ref.surfaces.forEach((s, i) => {
      const mesh = m.meshes[i];
      assert.equal(mesh.name, s.name);
      assert.deepEqual(mesh.shaders, s.shaders);
      assert.equal(mesh.material, s.shaders[0] ?? '');
      assert.equal(mesh.firstVertex, firstVertex);
      assert.equal(mesh.firstTriangle, firstTriangle);
      assert.deepEqual(Array.from(indices.subarray(3 * firstTriangle, 3 * (firstTriangle + s.numTriangles))),
        s.triangles.map((v) => v + firstVertex), `${file} ${s.name} indices`);
      near(texcoords.subarray(2 * firstVertex, 2 * (firstVertex + s.numVerts)), s.texcoords, 0, `${file} texcoords`);
      for (let f = 0; f < ref.header.numFrames; f++) {
        const at = 3 * (f * nv + firstVertex);
        near(framePositions.subarray(at, at + 3 * s.numVerts), s.positions[f], 0, `${file} frame ${f} positions`);
        near(frameNormals.subarray(at, at + 3 * s.numVerts), s.normals[f], 2e-7, `${file} frame ${f} normals`);
      }
      firstVertex += s.numVerts;
      firstTriangle += s.numTriangles;
    });
    near(m.positions, framePositions.subarray(0, 3 * nv), 0, `${file} positions are frame 0`);
    ref.frames.forEach((fr, f) => {
      assert.equal(m.frames[f].name, fr.name);
      near(m.frames[f].min, fr.min, 0, 'min');
      near(m.frames[f].max, fr.max, 0, 'max');
      near(m.frames[f].localOrigin, fr.localOrigin, 0, 'local origin');
      assert.equal(m.frames[f].radius, Math.fround(fr.radius));
    });
    assert.deepEqual(m.animations, [{ name: 'all', firstFrame: 0, frameCount: ref.header.numFrames, framerate: 15, loop: true }]);
    m.dispose();
  }
});

test('the corpus numbers documented elsewhere: sarge and the assimp samples', () => {
  const expect = {
    'md3/assimp/watercan.md3': { v: 92, t: 78, f: 1, tags: [], meshes: ['watercan'] },
    'md3/assimp/european_fnt_v2.md3': { v: 703, t: 678, f: 1, tags: [], meshes: ['windscreen', 'steering', 'body', 'wheels', 'wheel_arches'] },
    'md3/openarena/models/players/sarge/lower.md3': { v: 278, t: 506, f: 213, tags: ['tag_torso'], meshes: ['l_legs'] },
    'md3/openarena/models/players/sarge/upper.md3': { v: 435, t: 742, f: 155, tags: ['tag_weapon', 'tag_head'], meshes: ['u_torso'] },
    'md3/openarena/models/players/sarge/head.md3': { v: 140, t: 276, f: 1, tags: [], meshes: ['h_head'] },
  };
  for (const [path, e] of Object.entries(expect)) {
    const m = iq.load(readFileSync(join(CORPUS, path)));
    assert.deepEqual([m.vertexCount, m.triangleCount, m.frameCount], [e.v, e.t, e.f], path);
    assert.deepEqual(m.tags, e.tags, path);
    assert.deepEqual(m.meshes.map((x) => x.name), e.meshes, path);
    m.dispose();
  }
  // Shader names are kept as written, Windows paths included.
  const head = iq.load(readFileSync(join(SARGE, 'head.md3')));
  assert.equal(head.meshes[0].shaders[0], 'E:\\projects\\oa\\baseq3\\models\\players\\doom\\lambert2SG');
  // upper.md3's tag_weapon axes have length sqrt(1.996): loaded, and reported.
  const upper = iq.load(readFileSync(join(SARGE, 'upper.md3')));
  assert.deepEqual(codes(upper), ['repaired']);
});

test('assimp (assimpjs), an independent MD3 loader, reads the same surfaces and frame-0 triangles', async () => {
  const ajs = await createRequire(import.meta.url)('assimpjs')();
  // assimp renumbers vertices, reorders surfaces and names none: compare geometry. A triangle
  // is its corners on the 1/64 grid MD3 stores, rotated to start at the smallest (winding kept).
  const triangleKeys = (positions, indices) => {
    const keys = [];
    for (let t = 0; t < indices.length; t += 3) {
      const corners = [0, 1, 2].map((k) => [0, 1, 2].map((c) => Math.round(positions[3 * indices[t + k] + c] * 64)).join(','));
      const first = corners.indexOf([...corners].sort()[0]);
      keys.push([0, 1, 2].map((k) => corners[(first + k) % 3]).join(' '));
    }
    return keys.sort();
  };
  let compared = 0;
  for (const file of md3Files(join(CORPUS, 'md3'))) {
    const bytes = readFileSync(file);
    const m = iq.load(bytes);
    const fileList = new ajs.FileList();
    let result;
    try {
      fileList.AddFile('model.md3', bytes);
      result = ajs.ConvertFileList(fileList, 'assjson');
      assert.ok(result.IsSuccess(), `${file}: assimp failed: ${result.GetErrorCode()}`);
      const theirs = JSON.parse(new TextDecoder().decode(result.GetFile(0).GetContent())).meshes
        // assimp turns Quake's clockwise front faces into its counter-clockwise ones: turn them back
        .map((t) => ({ vertices: t.vertices.length / 3, keys: triangleKeys(t.vertices, t.faces.flatMap(([a, b, c]) => [a, c, b])) }));
      assert.equal(theirs.length, m.meshes.length, file);
      for (const mesh of m.meshes) {
        const local = Array.from(m.indices.subarray(3 * mesh.firstTriangle, 3 * (mesh.firstTriangle + mesh.triangleCount)));
        const ours = triangleKeys(m.positions, local);
        const match = theirs.find((t) => t.vertices === mesh.vertexCount && t.keys.join('|') === ours.join('|'));
        assert.ok(match, `${file}: assimp has no surface with the triangles of '${mesh.name}'`);
        compared++;
      }
    } finally {
      if (result) result.delete();
      fileList.delete();
      m.dispose();
    }
  }
  assert.ok(compared >= 16, `${compared} surfaces compared`);
});

test('LOD siblings have surfaces that match by name', () => {
  for (const part of ['lower', 'upper', 'head']) {
    const names = ['', '_1', '_2'].map((lod) => iq.load(readFileSync(join(SARGE, `${part}${lod}.md3`))).meshes.map((m) => m.skinName));
    assert.deepEqual(names[1], names[0], part);
    assert.deepEqual(names[2], names[0], part);
  }
  const m = iq.load(buildMD3({ surfaces: [quadSurface({ name: 'H_Head_1' }), quadSurface({ name: 'u_torso' })] }).bytes);
  assert.deepEqual(m.meshes.map((x) => [x.name, x.skinName]), [['H_Head_1', 'h_head'], ['u_torso', 'u_torso']]);
});

test('front faces are clockwise in MD3 as in IQM: face normals (v2-v0)x(v1-v0) agree with vertex normals', () => {
  const agreement = (m) => {
    const p = m.positions, n = m.normals, idx = m.indices;
    let agree = 0;
    for (let t = 0; t < m.triangleCount; t++) {
      const [a, b, c] = [idx[3 * t], idx[3 * t + 1], idx[3 * t + 2]];
      const e1 = [0, 1, 2].map((k) => p[3 * c + k] - p[3 * a + k]);
      const e2 = [0, 1, 2].map((k) => p[3 * b + k] - p[3 * a + k]);
      const face = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
      const vn = [0, 1, 2].map((k) => n[3 * a + k] + n[3 * b + k] + n[3 * c + k]);
      if (face[0] * vn[0] + face[1] * vn[1] + face[2] * vn[2] > 0) agree++;
    }
    return agree / m.triangleCount;
  };
  const iqm = iq.load(readFileSync(join(CORPUS, 'iqm/mrfixit/mrfixit.iqm')));
  assert.ok(agreement(iqm) > 0.9, `mrfixit ${agreement(iqm)}`);
  for (const part of ['lower', 'upper', 'head']) {
    const m = iq.load(readFileSync(join(SARGE, `${part}.md3`)));
    assert.ok(agreement(m) > 0.9, `${part} ${agreement(m)}`);
  }
});

// -- Normals and morphing

test('normals decode as the Quake 3 renderer does (values worked out on paper)', () => {
  const r = Math.SQRT1_2;
  const cases = [
    [packNormal(0, 0), [0, 0, 1]], // zenith 0: straight up, whatever the azimuth
    [packNormal(77, 0), [0, 0, 1]],
    [packNormal(0, 128), [0, 0, -1]], // zenith half a turn
    [packNormal(0, 64), [1, 0, 0]], // zenith a quarter turn, azimuth 0
    [packNormal(64, 64), [0, 1, 0]],
    [packNormal(128, 64), [-1, 0, 0]],
    [packNormal(192, 64), [0, -1, 0]],
    [packNormal(0, 32), [r, 0, r]], // zenith 45 degrees
    [packNormal(32, 32), [0.5, 0.5, r]], // azimuth 45, zenith 45
    [packNormal(0, 192), [-1, 0, 0]], // zenith three quarters: sin = -1
  ];
  const surface = {
    name: 'normals', shaders: [],
    frames: [cases.map(([normal], i) => ({ xyz: [i, -i / 64, 511.984375], normal }))],
  };
  const m = iq.load(buildMD3({ surfaces: [surface] }).bytes);
  cases.forEach(([, expected], i) => near(m.normals.subarray(3 * i, 3 * i + 3), expected, 1e-6, `normal ${i}`));
  // Positions are 1/64 units: -i/64 and 511.984375 (= 32767/64) are exact.
  cases.forEach((_, i) => near(m.positions.subarray(3 * i, 3 * i + 3), [i, -i / 64, 511.984375], 0, `position ${i}`));
});

test('evaluate() morphs positions and renormalised normals between frames, clamped at the ends', () => {
  const up = packNormal(0, 0), east = packNormal(0, 64);
  const surface = quadSurface({ frameZ: [0, 4, 10] });
  surface.frames[1].forEach((v) => { v.normal = east; });
  surface.frames[0].forEach((v) => { v.normal = up; });
  surface.frames[2].forEach((v) => { v.normal = up; });
  const m = iq.load(buildMD3({ surfaces: [surface] }).bytes);
  assert.equal(m.frameCount, 3);
  const z = (positions) => [2, 5, 8, 11].map((i) => positions[i]);
  let e = m.evaluate(0.25);
  assert.deepEqual(z(e.positions), [1, 1, 1, 1]);
  const len = Math.hypot(0.25, 0.75);
  near(e.normals.subarray(0, 3), [0.25 / len, 0, 0.75 / len], 1e-6, 'normal at 0.25');
  e = m.evaluate(1.5);
  assert.deepEqual(z(e.positions), [7, 7, 7, 7]);
  near(e.normals.subarray(3, 6), [Math.SQRT1_2, 0, Math.SQRT1_2], 1e-6, 'normal at 1.5');
  for (let v = 0; v < 4; v++) assert.ok(Math.abs(Math.hypot(...e.normals.subarray(3 * v, 3 * v + 3)) - 1) < 1e-6);
  assert.deepEqual(z(m.evaluate(-3).positions), [0, 0, 0, 0]);
  assert.deepEqual(z(m.evaluate(99).positions), [10, 10, 10, 10]);
  assert.deepEqual(z(m.evaluate(2).positions), [10, 10, 10, 10]);
  assert.equal(m.evaluate(1).tangents, null);
  // x and y do not move.
  assert.deepEqual([0, 1, 3, 4].map((i) => m.evaluate(1.5).positions[i]), [0, 0, 8, 0]);
});

test('evaluate() on sarge matches a lerp of the reader\'s frames', () => {
  const bytes = readFileSync(join(SARGE, 'lower.md3'));
  const ref = readMD3(bytes).surfaces[0];
  const m = iq.load(bytes);
  for (const frame of [0, 17.25, 100.5, 211.75]) {
    const f0 = Math.floor(frame), t = frame - f0;
    const a = ref.positions[f0], b = ref.positions[f0 + 1];
    const e = m.evaluate(frame);
    near(e.positions, a.map((x, i) => x + (b[i] - x) * t), 1e-4, `positions at ${frame}`);
    const na = ref.normals[f0], nb = ref.normals[f0 + 1];
    const expected = [];
    for (let v = 0; v < ref.numVerts; v++) {
      const n = [0, 1, 2].map((k) => na[3 * v + k] + (nb[3 * v + k] - na[3 * v + k]) * t);
      const l = Math.hypot(...n);
      expected.push(...(l > 1e-6 ? n.map((x) => x / l) : [0, 1, 2].map((k) => (t < 0.5 ? na : nb)[3 * v + k])));
    }
    near(e.normals, expected, 1e-5, `normals at ${frame}`);
  }
});

test('the animator plays MD3 clips in time: sample() morphs at the playhead, loops back, crossfades', () => {
  const surface = quadSurface({ frameZ: [0, 4, 10] });
  const m = iq.load(buildMD3({ surfaces: [surface] }).bytes);
  const z = (r) => [2, 5, 8, 11].map((i) => r.positions[i]);
  // 15 fps: 2.5 frames in is t = 2.5 / 15 (repeat: the last frame blends back into the first)
  let r = m.sample('all', 1.5 / 15);
  assert.deepEqual([r.frameA, r.frameB], [1, 2]);
  near(z(r), [7, 7, 7, 7], 1e-5, 'frame 1.5');
  r = m.sample('all', 2.25 / 15);
  assert.deepEqual([r.frameA, r.frameB], [2, 0]);
  near(z(r), [7.5, 7.5, 7.5, 7.5], 1e-5, 'wrapping from frame 2 to frame 0');
  r = m.sample(0, 0.5 / 15, { crossfade: { animation: 'all', time: 2 / 15, weight: 0.5 } });
  near(z(r), [6, 6, 6, 6], 1e-5, 'half way between frame 0.5 (z 2) and frame 2 (z 10)');
  near(Array.from(r.normals.subarray(0, 3)), [0, 0, 1], 1e-6, 'normals stay unit');
});

// -- Tags

const rotZ = (deg) => {
  const r = (deg * Math.PI) / 180;
  return [[Math.cos(r), Math.sin(r), 0], [-Math.sin(r), Math.cos(r), 0], [0, 0, 1]];
};

test('tagMatrix interpolates tags and orthonormalises their axes, as an independent computation does', () => {
  const scaled = rotZ(30).map((a) => a.map((x) => x * 1.4));
  const skewed = [[1, 0.2, 0], [0.1, 1, 0.3], [0, 0.1, 0.8]];
  const mirrored = [[1, 0, 0], [0, 1, 0], [0, 0, -1]];
  const tags = [
    { name: 'tag_spin', frames: [0, 90, 180].map((d, f) => ({ origin: [f, 2 * f, -f], axes: rotZ(d) })) },
    { name: 'tag_odd', frames: [{ origin: [1, 1, 1], axes: scaled }, { origin: [3, 1, 1], axes: skewed }, { origin: [0, 0, 0], axes: mirrored }] },
  ];
  const { bytes } = buildMD3({ frameCount: 3, tags, surfaces: [quadSurface({ frameZ: [0, 1, 2] })] });
  const m = iq.load(bytes);
  assert.deepEqual(m.tags, ['tag_spin', 'tag_odd']);
  assert.deepEqual(codes(m), ['repaired']);
  const ref = readMD3(bytes);
  for (const [t, name] of m.tags.entries()) {
    const frames = ref.tags.map((row) => row[t]);
    for (const frame of [0, 0.5, 1, 1.3, 1.75, 2, -1, 7]) {
      near(m.tagMatrix(name, frame), referenceTagMatrix(frames, frame), 2e-6, `${name} at ${frame}`);
    }
  }
  // On paper: half way from 0 to 90 degrees is 45 degrees, origin half way.
  const c = Math.SQRT1_2;
  near(m.tagMatrix('tag_spin', 0.5), [c, c, 0, 0, -c, c, 0, 0, 0, 0, 1, 0, 0.5, 1, -0.5, 1], 1e-6, 'tag_spin 0.5');
  // The mirrored frame keeps its handedness.
  const mir = m.tagMatrix('tag_odd', 2);
  near(mir, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1], 1e-7, 'mirrored');
  assert.equal(m.tagMatrix('tag_missing', 0), null);
  assert.equal(m.tagMatrix('', 0), null);
  assert.throws(() => m.tagMatrix('tag_spin', NaN), { code: 'invalid_argument' });
});

test('tagMatrix on sarge upper.md3 matches the independent computation at fractional frames', () => {
  const bytes = readFileSync(join(SARGE, 'upper.md3'));
  const ref = readMD3(bytes);
  const m = iq.load(bytes);
  for (const [t, name] of m.tags.entries()) {
    const frames = ref.tags.map((row) => row[t]);
    for (const frame of [0, 3.5, 77.125, 153.9, 154]) {
      const got = m.tagMatrix(name, frame);
      near(got, referenceTagMatrix(frames, frame), 1e-5, `${name} at ${frame}`);
      // orthonormal: columns unit length and perpendicular
      const col = (k) => [got[4 * k], got[4 * k + 1], got[4 * k + 2]];
      for (let k = 0; k < 3; k++) assert.ok(Math.abs(Math.hypot(...col(k)) - 1) < 1e-6);
      assert.ok(Math.abs(col(0).reduce((s, x, i) => s + x * col(1)[i], 0)) < 1e-6);
    }
  }
});

test('repeated tag names load with a warning; tagMatrix finds the first', () => {
  const tags = [
    { name: 'tag_weapon', frames: [{ origin: [1, 2, 3] }] },
    { name: 'tag_weapon', frames: [{ origin: [9, 9, 9] }] },
  ];
  const m = iq.load(buildMD3({ tags, surfaces: [quadSurface()] }).bytes);
  assert.deepEqual(m.tags, ['tag_weapon', 'tag_weapon']);
  assert.deepEqual(codes(m), ['duplicate_name']);
  assert.deepEqual(Array.from(m.tagMatrix('tag_weapon', 0).subarray(12, 15)), [1, 2, 3]);
});

test('tagMatrix places IQM joints: their world matrices from the independent reference', () => {
  const bytes = readFileSync(join(CORPUS, 'iqm/mrfixit/mrfixit.iqm'));
  const m = iq.load(bytes);
  const ref = parseIQM(bytes);
  assert.deepEqual(m.tags, []);
  const joints = ref.joints;
  for (const frame of [0, 10, 57.5, 100]) {
    const world = worldMatrices(joints, sampleFrame(ref, frame));
    for (const j of [0, 5, 30, 74]) {
      const rowMajor = world[j];
      const columnMajor = [0, 1, 2, 3].flatMap((c) => [0, 1, 2, 3].map((r) => rowMajor[4 * r + c]));
      // nlerp (ours) vs slerp (reference) differ by well under 1e-3 between adjacent frames
      near(m.tagMatrix(m.joints[j].name, frame), columnMajor, Number.isInteger(frame) ? 2e-5 : 1e-3, `joint ${j} at ${frame}`);
    }
  }
});

test('tagMatrix places IQE joints too: equal to the world matrices evaluate() computes', () => {
  const m = iq.load(readFileSync(join(CORPUS, 'iqe/unvanquished/weapons/level1/vwep_view.iqe')), { name: 'vwep_view.iqe' });
  assert.equal(m.format, 'iqe');
  assert.deepEqual(m.tags, []);
  assert.ok(m.joints.length > 0 && m.frameCount > 1);
  const frame = Math.min(7.5, m.frameCount - 1);
  m.evaluate(frame);
  const world = m.worldMatrices.slice();
  m.joints.forEach((joint, j) => {
    if (m.joints.findIndex((x) => x.name === joint.name) !== j) return; // repeated names find the first
    const w = world.subarray(12 * j, 12 * j + 12);
    near(m.tagMatrix(joint.name, frame), [0, 1, 2, 3].flatMap((c) => [w[c], w[4 + c], w[8 + c], c === 3 ? 1 : 0]), 1e-4, `joint ${joint.name}`);
  });
});

test('tagMatrix does not disturb the last evaluate() results', () => {
  const m = iq.load(readFileSync(join(CORPUS, 'iqm/mrfixit/mrfixit.iqm')));
  const e = m.evaluate(12.5);
  const positions = e.positions.slice(), world = m.worldMatrices.slice(), skin = m.skinMatrices.slice();
  // At the evaluated frame, a joint's tag matrix is the world matrix evaluate() computed.
  m.joints.forEach((joint, j) => {
    const w = world.subarray(12 * j, 12 * j + 12);
    const columnMajor = [0, 1, 2, 3].flatMap((c) => [w[c], w[4 + c], w[8 + c], c === 3 ? 1 : 0]);
    near(m.tagMatrix(joint.name, 12.5), columnMajor, 1e-5, `joint ${j}`);
  });
  for (const joint of m.joints) m.tagMatrix(joint.name, 80.25);
  assert.deepEqual(e.positions, positions);
  assert.deepEqual(m.worldMatrices, world);
  assert.deepEqual(m.skinMatrices, skin);
  const md3 = iq.load(readFileSync(join(SARGE, 'upper.md3')));
  const evaluated = md3.evaluate(20.5);
  const before = evaluated.positions.slice();
  md3.tagMatrix('tag_head', 100.5);
  assert.deepEqual(evaluated.positions, before);
});

// -- What shipped files do: load, and warn

test('tag records renamed after frame 0 are read by position, with a warning; too many tags hit the joint limit', () => {
  const tags = [{ name: 'tag_a', frames: [{ origin: [1, 0, 0] }, { name: 'tag_b', origin: [3, 0, 0] }] }];
  const m = iq.load(buildMD3({ frameCount: 2, tags }).bytes);
  assert.deepEqual(m.tags, ['tag_a']);
  assert.deepEqual(codes(m), ['nonstandard']);
  assert.deepEqual(Array.from(m.tagMatrix('tag_a', 0.5).subarray(12, 15)), [2, 0, 0]);
  const many = Array.from({ length: 4097 }, (_, i) => ({ name: `t${i}` }));
  rejects(buildMD3({ tags: many }).bytes, 'limit', '4097 tags');
});

test('a surface over the 4096-vertex limit loads with an over_limit warning', () => {
  const verts = Array.from({ length: 4832 }, (_, i) => ({ xyz: [i % 64, Math.floor(i / 64), 0], normal: 0 }));
  const m = iq.load(buildMD3({ surfaces: [{ name: 'big', shaders: [{ name: 's' }], triangles: [[0, 1, 4831]], frames: [verts] }] }).bytes);
  assert.equal(m.vertexCount, 4832);
  assert.deepEqual(codes(m), ['over_limit']);
  assert.match(m.warnings[0].message, /4096 vertices/);
});

test('29 surfaces load without a warning; 33 are over the written limit of 32 and load with one', () => {
  const surfaces = (n) => Array.from({ length: n }, (_, i) => quadSurface({ name: `s${i}` }));
  const m29 = iq.load(buildMD3({ surfaces: surfaces(29) }).bytes);
  assert.equal(m29.meshes.length, 29);
  assert.equal(m29.vertexCount, 29 * 4);
  assert.deepEqual(codes(m29), []);
  assert.deepEqual(m29.meshes.map((x) => x.firstVertex), Array.from({ length: 29 }, (_, i) => 4 * i));
  const m33 = iq.load(buildMD3({ surfaces: surfaces(33) }).bytes);
  assert.equal(m33.meshes.length, 33);
  assert.deepEqual(codes(m33), ['over_limit']);
});

test('an end offset one byte short of the file, or one past it, loads with a warning', () => {
  const { bytes } = buildMD3({ surfaces: [quadSurface()] });
  const short = iq.load(patchI32(bytes, HEADER.ofs_end, bytes.length - 1));
  assert.deepEqual(codes(short), ['trailing_bytes']);
  assert.equal(short.vertexCount, 4);
  const long = iq.load(patchI32(bytes, HEADER.ofs_end, bytes.length + 1));
  assert.deepEqual(codes(long), ['nonstandard']);
  assert.equal(long.vertexCount, 4);
  const trailing = iq.load(buildMD3({ surfaces: [quadSurface()], trailing: [1, 2, 3] }).bytes);
  assert.deepEqual(codes(trailing), ['trailing_bytes']);
});

test('a tag-only file (no surfaces) loads: tags work, there is no geometry', () => {
  const tags = [{ name: 'tag_flash', frames: [{ origin: [0, 0, 0] }, { origin: [4, 0, 0] }] }];
  const m = iq.load(buildMD3({ frameCount: 2, tags }).bytes);
  assert.equal(m.vertexCount, 0);
  assert.equal(m.meshes.length, 0);
  assert.equal(m.positions, null);
  assert.equal(m.frameCount, 2);
  assert.deepEqual(codes(m), []);
  assert.deepEqual(Array.from(m.tagMatrix('tag_flash', 0.5).subarray(12, 15)), [2, 0, 0]);
  assert.equal(m.evaluate(0.5).positions, null);
  // The offset of an empty section is never read, as in Quake 3.
  const stray = iq.load(patchI32(buildMD3({ frameCount: 2, tags }).bytes, HEADER.ofs_surfaces, -5));
  assert.equal(stray.meshes.length, 0);
  const empty = iq.load(buildMD3({ frameCount: 1 }).bytes);
  assert.deepEqual(codes(empty), ['empty']);
});

test('surfaces with no triangles or no shaders, and over-limit shaders and tags, load with warnings', () => {
  const noTris = quadSurface({ name: 'a' });
  noTris.triangles = [];
  const m = iq.load(buildMD3({ surfaces: [noTris, quadSurface({ name: 'b', shaders: [] })] }).bytes);
  assert.deepEqual(codes(m), ['empty', 'empty']);
  assert.deepEqual(m.meshes.map((x) => x.shaders), [['textures/quad.tga'], []]);
  assert.equal(m.meshes[1].material, '');
  assert.equal(m.triangleCount, 2);

  const shaders = Array.from({ length: 257 }, (_, i) => ({ name: `skin${i}`, index: i }));
  const many = iq.load(buildMD3({ surfaces: [quadSurface({ shaders })] }).bytes);
  assert.equal(many.meshes[0].shaders.length, 257);
  assert.equal(many.meshes[0].shaders[256], 'skin256');
  assert.deepEqual(codes(many), ['over_limit']);

  const tags = Array.from({ length: 17 }, (_, i) => ({ name: `tag_${i}` }));
  const manyTags = iq.load(buildMD3({ tags, surfaces: [quadSurface()] }).bytes);
  assert.equal(manyTags.tags.length, 17);
  assert.deepEqual(codes(manyTags), ['over_limit']);
});

test('names that fill their field, odd surface idents and inverted frame boxes load with warnings', () => {
  const long = 'x'.repeat(70);
  const m = iq.load(buildMD3({ surfaces: [quadSurface({ name: long })] }).bytes);
  assert.equal(m.meshes[0].name, 'x'.repeat(64));
  assert.deepEqual(codes(m), ['nonstandard']);

  const { bytes, layout } = buildMD3({ surfaces: [quadSurface()] });
  const ident = bytes.slice();
  ident.set([0x41, 0x42, 0x43, 0x44], layout.surfaces[0].at);
  assert.deepEqual(codes(iq.load(ident)), ['nonstandard']);

  const inverted = iq.load(buildMD3({ frames: [{ min: [1, 1, 1], max: [-1, -1, -1] }], surfaces: [quadSurface()] }).bytes);
  assert.deepEqual(codes(inverted), ['nonstandard']);
});

// -- Bad input: a specific error for each case of formats.md section 4, items 25-31

test('bad headers are rejected with specific codes (item 25)', () => {
  const { bytes } = buildMD3({ surfaces: [quadSurface()] });
  rejects(bytes.subarray(0, 107), 'truncated', 'shorter than the header');
  const magic = bytes.slice();
  magic[3] = 0x32;
  rejects(magic, 'bad_magic', 'IDP2');
  // IDP2 is Quake 2's MD2, which the MD2 reader reads (and refuses MD3's version 15).
  assert.throws(() => iq.load(magic), { code: 'bad_version', message: /MD2 is version 8/ });
  rejects(patchI32(bytes, HEADER.version, 14), 'bad_version', 'version 14');
  rejects(patchI32(bytes, HEADER.num_frames, 0), 'bad_animation', 'no frames');
  rejects(patchI32(bytes, HEADER.num_frames, -1), 'bad_value', 'negative frames');
  rejects(patchI32(bytes, HEADER.num_tags, -2), 'bad_value', 'negative tags');
  rejects(patchI32(bytes, HEADER.num_surfaces, -1), 'bad_value', 'negative surfaces');
  rejects(patchI32(bytes, HEADER.num_frames, 2000000), 'limit', 'frames over the loader limit');
  rejects(patchI32(bytes, HEADER.num_frames, 1025), 'out_of_range', '1025 frames need more bytes');
  rejects(patchI32(bytes, HEADER.num_surfaces, 1000000), 'truncated', 'a million surfaces in a small file');
  assert.throws(() => iq.load(patchI32(bytes, HEADER.num_frames, -1), { format: 'md3' }), (e) => e.offset === HEADER.num_frames);
});

test('sections outside the file are rejected (item 26)', () => {
  const { bytes } = buildMD3({ tags: [{ name: 'tag_a' }], surfaces: [quadSurface()] });
  rejects(patchI32(bytes, HEADER.ofs_frames, bytes.length), 'out_of_range', 'frames past EOF');
  rejects(patchI32(bytes, HEADER.ofs_frames, -56), 'out_of_range', 'negative frame offset');
  rejects(patchI32(bytes, HEADER.ofs_tags, bytes.length - 50), 'out_of_range', 'tags past EOF');
  rejects(patchI32(bytes, HEADER.ofs_tags, 0x7fffffff), 'out_of_range', 'tags at 2^31-1');
  rejects(patchI32(bytes, HEADER.ofs_surfaces, bytes.length - 10), 'out_of_range', 'surfaces past EOF');
  rejects(patchI32(bytes, HEADER.num_tags, 1000), 'out_of_range', '1000 tags do not fit');
  rejects(patchI32(bytes, HEADER.ofs_end, 0), 'bad_filesize', 'end offset 0');
  rejects(patchI32(bytes, HEADER.ofs_end, -1), 'bad_filesize', 'negative end offset');
});

test('broken surface chains are rejected (item 27)', () => {
  const { bytes, layout } = buildMD3({ surfaces: [quadSurface(), quadSurface({ name: 'second' })] });
  const s0 = layout.surfaces[0].at;
  rejects(patchI32(bytes, s0 + SURFACE.ofs_end, 0), 'bad_mesh', 'surface end 0 (would loop)');
  rejects(patchI32(bytes, s0 + SURFACE.ofs_end, -100), 'bad_mesh', 'negative surface end');
  rejects(patchI32(bytes, s0 + SURFACE.ofs_end, 50), 'bad_mesh', 'surface end inside its header');
  rejects(patchI32(bytes, s0 + SURFACE.ofs_end, bytes.length), 'truncated', 'next surface header past EOF');
  rejects(patchI32(bytes, HEADER.num_surfaces, 3), 'truncated', 'one surface more than the chain holds');
  rejects(patchI32(bytes, s0 + SURFACE.num_frames, 2), 'bad_animation', 'surface frames differ from the header');
  rejects(patchI32(bytes, s0 + SURFACE.num_frames, 0), 'bad_animation', 'surface with no frames');
});

test('surface sections out of range are rejected, vertices checked for every frame (item 28)', () => {
  const { bytes, layout } = buildMD3({ surfaces: [quadSurface({ frameZ: [0, 1, 2] })] });
  const s = layout.surfaces[0];
  rejects(patchI32(bytes, s.at + SURFACE.ofs_triangles, bytes.length), 'out_of_range', 'triangles past EOF');
  rejects(patchI32(bytes, s.at + SURFACE.ofs_shaders, bytes.length - s.at - 60), 'out_of_range', 'shaders past EOF');
  rejects(patchI32(bytes, s.at + SURFACE.ofs_st, -8), 'out_of_range', 'negative st offset');
  // Frame 0's vertices fit at the end of the file, the other two frames do not.
  rejects(patchI32(bytes, s.at + SURFACE.ofs_xyznormal, bytes.length - s.at - 32), 'out_of_range', 'later frames past EOF');
  rejects(patchI32(bytes, s.at + SURFACE.num_verts, 1 << 28), 'out_of_range', 'huge vertex count');
  rejects(patchI32(bytes, s.at + SURFACE.num_triangles, -1), 'bad_value', 'negative triangle count');
  rejects(patchI32(bytes, s.at + SURFACE.num_shaders, 0x10000000), 'out_of_range', 'huge shader count');
});

test('triangle indices outside their surface are rejected (item 29)', () => {
  const { bytes, layout } = buildMD3({ surfaces: [quadSurface(), quadSurface({ name: 'b' })] });
  const s = layout.surfaces[1];
  rejects(patchI32(bytes, s.at + s.ofsTriangles + 4, 4), 'bad_index', 'index == numVerts');
  rejects(patchI32(bytes, s.at + s.ofsTriangles, -1), 'bad_index', 'negative index');
  assert.throws(() => iq.load(patchI32(bytes, s.at + s.ofsTriangles + 4, 4)), (e) => e.offset === s.at + s.ofsTriangles + 4 && /surface 1/.test(e.message));
});

test('non-finite numbers are rejected (item 31)', () => {
  const { bytes, layout } = buildMD3({ tags: [{ name: 'tag_a' }], surfaces: [quadSurface()] });
  // Garbage frame records are recomputed with a warning now (a shipped Nexuiz MD3 has them), no longer refused.
  for (const [at, value, what] of [[8, NaN, 'NaN in frame bounds'], [36, Infinity, 'infinite radius']]) {
    const m = iq.load(patchF32(bytes, layout.ofsFrames + at, value), { name: what });
    assert.ok(m.warnings.some((w) => w.code === 'repaired'), what);
    assert.ok(m.frameBounds.every(Number.isFinite), what);
    m.dispose();
  }
  // Tags are repaired like frame records (Unvanquished ships garbage tag axes): see the tag repair test.
  for (const [at, value, what] of [[64, NaN, 'NaN tag origin'], [100, -Infinity, 'infinite tag axis'], [64 + 4, 3e38, 'tag origin 3e38']]) {
    const m = iq.load(patchF32(bytes, layout.ofsTags + at, value), { name: what });
    assert.deepEqual(codes(m), ['repaired'], what);
    assert.ok(m.tagMatrix('tag_a', 0).every(Number.isFinite), what);
    m.dispose();
  }
  const s = layout.surfaces[0];
  // Texture coordinates are optional data: repaired to (0,0) with a warning now (C: iq_numbers.c), no longer refused.
  const nanUV = iq.load(patchF32(bytes, s.at + s.ofsSt + 4, NaN), { name: 'NaN texture coordinate' });
  assert.deepEqual(codes(nanUV), ['repaired']);
  assert.deepEqual([...nanUV.texcoords.subarray(0, 2)], [0, 0]);
  nanUV.dispose();
  // zero-length tag axes are not an error: tagMatrix rebuilds a basis
  const zero = iq.load(buildMD3({ tags: [{ name: 't', frames: [{ axes: [[0, 0, 0], [0, 1, 0], [0, 0, 1]] }] }] }).bytes);
  assert.deepEqual(codes(zero), ['repaired']);
  const mat = zero.tagMatrix('t', 0);
  near(mat, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], 1e-7, 'rebuilt axes');
});

test('models free their memory on dispose', () => {
  const before = iq.liveBytes;
  const m = iq.load(readFileSync(join(SARGE, 'lower.md3')));
  assert.ok(iq.liveBytes > before);
  m.dispose();
  assert.equal(iq.liveBytes, before);
  assert.throws(() => m.tagMatrix('tag_torso', 0), { code: 'disposed' });
});

test('writeIQM refuses vertex-animated models: IQM stores skeletal animation only', () => {
  const model = iq.load(new Uint8Array(readFileSync(join(CORPUS, 'md3/openarena/models/players/sarge/upper.md3'))));
  assert.throws(() => iq.writeIQM(model), (e) => e.code === 'unsupported' && /155 frames/.test(e.message));
  model.dispose();
});

test('names that are not UTF-8 read as Latin-1, and lookups by that name or by index find the bytes the file holds', () => {
  const built = buildMD3({
    surfaces: [quadSurface({ name: 'body' })],
    tags: [{ name: 'tag_weapon', frames: [{ origin: [1, 2, 3] }] }, { name: 'tag_XXead', frames: [{ origin: [4, 5, 6] }] }],
  });
  const bytes = built.bytes.slice();
  // rename the second tag to "tag_\xe9\xadead" (two high bytes: not UTF-8)
  const at = bytes.findIndex((_, i) => String.fromCharCode(...bytes.subarray(i, i + 9)) === 'tag_XXead');
  bytes[at + 4] = 0xe9;
  bytes[at + 5] = 0xad;
  const m = iq.load(bytes);
  assert.deepEqual(m.tags, ['tag_weapon', 'tag_\u00e9\u00adead']);
  const byName = m.tagMatrix(m.tags[1]);
  assert.deepEqual([...byName.subarray(12, 15)], [4, 5, 6]);
  assert.deepEqual(m.tagMatrix(1), byName, 'by index: tags first');
  assert.equal(m.tagMatrix('tag_\ufffdead'), null, 'a replacement character is not the name');
  assert.equal(m.tagMatrix(2), null, 'past the tags and joints');
  m.dispose();
});

test('morph(a, b, t): any two frames lerped, normals renormalised; bad frames refused', async () => {
  const iq = await init();
  const model = iq.load(buildMD3({ surfaces: [quadSurface({ frameZ: [0, 4, 10] })] }).bytes, { name: 'q.md3' });
  const out = model.morph(2, 0, 0.25); // frame 2 toward frame 0: not neighbours
  assert.deepEqual([...out.positions].filter((_, i) => i % 3 === 2), [7.5, 7.5, 7.5, 7.5]);
  for (let v = 0; v < 4; v++) assert.ok(Math.abs(Math.hypot(...out.normals.subarray(v * 3, v * 3 + 3)) - 1) < 1e-6);
  assert.equal(model.morph(0, 2, 9).positions[2], 10, 't clamped to 1');
  assert.throws(() => model.morph(0, 3, 0.5), /invalid_argument|frames must be/);
  assert.throws(() => model.morph(0, 1, NaN), /frames must be/);
  model.dispose();
});

test('tag repair: the Unvanquished shape (a tag axis of 1.78e31 at byte 272) loads, the axes the identity, with a counted warning', () => {
  const { bytes } = garbageTagAxisMD3();
  assert.equal(new DataView(bytes.buffer, bytes.byteOffset).getFloat32(272, true), Math.fround(1.78264e31), 'the garbage sits where the shipped files have it');
  const m = iq.load(bytes, { name: 'tpweapon.md3' });
  assert.deepEqual(m.warnings.map((w) => w.code), ['repaired']);
  assert.match(m.warnings[0].message, /1 tag record\(s\) had axes that are not finite or beyond the magnitude limit/);
  // its origin is kept; the axes become the identity (no other frame of the tag to take them from)
  near(m.tagMatrix('tag_flash', 0), [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 12, 0, 2, 1], 0, 'tag_flash');
  near(m.tagMatrix('tag_hand', 0), [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1], 0, 'tag_hand untouched');
  m.dispose();
});

test('tag repair over frames: an unusable origin or axis set takes the nearest usable frame of the same tag', () => {
  const axes = (deg) => {
    const c = Math.cos((deg * Math.PI) / 180);
    const s = Math.sin((deg * Math.PI) / 180);
    return [[c, s, 0], [-s, c, 0], [0, 0, 1]];
  };
  const frames = [0, 1, 2, 3].map((f) => ({ origin: [f, 0, 0], axes: axes(10 * f) }));
  frames[1] = { origin: [NaN, 0, 0], axes: axes(10) }; // origin from frame 0 (nearest, earlier on a tie)
  frames[3] = { origin: [3, 0, 0], axes: [[Infinity, 0, 0], [0, 1, 0], [0, 0, 1]] }; // axes from frame 2
  const { bytes } = buildMD3({ surfaces: [quadSurface({ frameZ: [0, 1, 2, 3] })], tags: [{ name: 'tag_t', frames }] });
  const m = iq.load(bytes, { name: 'frames.md3' });
  assert.deepEqual(m.warnings.map((w) => w.code), ['repaired', 'repaired']);
  const at = (frame) => m.tagMatrix('tag_t', frame);
  near(at(1).slice(12, 15), [0, 0, 0], 0, 'frame 1 origin from frame 0');
  near(at(1).slice(0, 3), [Math.cos(Math.PI / 18), Math.sin(Math.PI / 18), 0], 1e-6, 'frame 1 keeps its own axes');
  near(at(3).slice(0, 11), at(2).slice(0, 11), 1e-7, 'frame 3 axes from frame 2');
  near(at(3).slice(12, 15), [3, 0, 0], 0, 'frame 3 keeps its own origin');
  m.dispose();
});
