// IQM loading through the same WASM exports the browser uses: the corpus,
// every component format, custom arrays, blend data variants, and the
// evaluate() results against an independent double-precision reference and
// rigs whose answers are worked out on paper.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init, InterquakeError } from 'interquake';
import { buildIQM, FORMATS } from '../lib/iqm-build.mjs';
import { parseIQM, readComponent, skin } from '../lib/iqm-reference.mjs';
import { assertNear as close } from '../lib/assert-near.mjs';

const CORPUS = new URL('../../../../shared/corpus/iqm/', import.meta.url);
const corpus = (path) => new Uint8Array(readFileSync(new URL(path, CORPUS)));
const iq = await init();


// Counts read straight from the header with a DataView, not through our loader.
function headerCounts(bytes) {
  const v = new DataView(bytes.buffer, bytes.byteOffset);
  return { meshes: v.getUint32(36, true), vertexes: v.getUint32(48, true), triangles: v.getUint32(56, true),
    joints: v.getUint32(68, true), poses: v.getUint32(76, true), anims: v.getUint32(84, true), frames: v.getUint32(92, true) };
}

test('mrfixit.iqm loads with the documented counts', () => {
  const model = iq.load(corpus('mrfixit/mrfixit.iqm'), { name: 'mrfixit.iqm' });
  assert.equal(model.format, 'iqm');
  assert.equal(model.meshes.length, 2);
  assert.deepEqual(model.meshes.map((m) => [m.name, m.vertexCount, m.triangleCount]), [['Body', 1476, 2386], ['Head', 385, 602]]);
  assert.equal(model.vertexCount, 1861);
  assert.equal(model.triangleCount, 2988);
  assert.equal(model.joints.length, 75);
  assert.equal(model.frameCount, 101);
  assert.deepEqual(model.animations, [{ name: 'idle', firstFrame: 0, frameCount: 101, framerate: 24, loop: false }]);
  assert.equal(model.positions.length, 1861 * 3);
  assert.equal(model.normals.length, 1861 * 3);
  assert.equal(model.texcoords.length, 1861 * 2);
  assert.equal(model.tangents.length, 1861 * 4);
  assert.equal(model.colors, null);
  assert.equal(model.indices.length, 2988 * 3);
  assert.equal(model.adjacency.length, 2988 * 3);
  assert.equal(model.frameBounds.length, 101 * 8);
  assert.deepEqual(model.warnings, []);
  // quaternions are unit length and the hierarchy is parent-first
  model.joints.forEach((j, i) => {
    assert.ok(j.parent < i && j.parent >= -1);
    assert.ok(Math.abs(Math.hypot(...j.rotate) - 1) < 1e-6);
  });
  model.dispose();
});

test('every corpus IQM loads with the counts its header declares', () => {
  for (const path of ['mrfixit/mrfixit.iqm', 'raylib/guy.iqm', 'raylib/guyanim.iqm', 'raylib/vertex_colored_object.iqm', 'extension/door2.iqm']) {
    const bytes = corpus(path);
    const h = headerCounts(bytes);
    const model = iq.load(bytes, { name: path });
    assert.equal(model.vertexCount, h.vertexes, path);
    assert.equal(model.triangleCount, h.triangles, path);
    assert.equal(model.meshes.length, h.meshes, path);
    assert.equal(model.joints.length, h.joints || h.poses, path);
    assert.equal(model.frameCount, h.frames, path);
    assert.equal(model.animations.length, h.anims, path);
    for (let i = 0; i < model.indices?.length; i++) assert.ok(model.indices[i] < model.vertexCount);
    model.dispose();
  }
});

test('corpus oddities load with warnings: misaligned door2, animation-only guyanim, colours', () => {
  const door = iq.load(corpus('extension/door2.iqm'));
  assert.ok(door.warnings.some((w) => w.code === 'misaligned'), JSON.stringify(door.warnings));
  assert.deepEqual(door.extensions.map((e) => [e.name, e.data.length]), [['FTE_MESH', 28]]);
  assert.deepEqual(door.animations.map((a) => a.name), ['open', 'idle', 'close']);
  door.dispose();

  const anim = iq.load(corpus('raylib/guyanim.iqm'));
  assert.equal(anim.vertexCount, 0);
  assert.equal(anim.joints.length, 14);
  assert.ok(anim.joints.every((j) => j.name === ''));
  assert.ok(anim.warnings.some((w) => w.code === 'no_bind_pose'));
  assert.equal(anim.framePoses.length, 122 * 14 * 10);
  // guyanim animates scale: some scale channel differs from 1 somewhere
  let scaled = false;
  for (let i = 0; i < anim.framePoses.length; i += 10) {
    if (Math.abs(anim.framePoses[i + 7] - 1) > 1e-3) scaled = true;
  }
  assert.ok(scaled, 'guyanim.iqm animates scale');
  anim.dispose();

  const colored = iq.load(corpus('raylib/vertex_colored_object.iqm'));
  assert.equal(colored.colors.length, 24 * 4);
  const raw = parseIQM(corpus('raylib/vertex_colored_object.iqm'));
  close(colored.colors, raw.arrays[6].values, 1e-6, 'colors');
  assert.equal(colored.blendIndices, null);
  colored.dispose();
});

test('InvalidMeshOffset.iqm fails with out_of_range pointing at ofs_meshes', () => {
  assert.throws(() => iq.load(corpus('invalid/InvalidMeshOffset.iqm'), { name: 'InvalidMeshOffset.iqm' }), (err) => {
    assert.ok(err instanceof InterquakeError);
    assert.equal(err.code, 'out_of_range');
    assert.equal(err.offset, 40); // the ofs_meshes header field
    assert.match(err.message, /InvalidMeshOffset\.iqm: out_of_range \(byte 40\): meshes/);
    return true;
  });
});

test('evaluate matches the double-precision reference at every frame and half frame of every animated corpus model', () => {
  const report = [];
  for (const path of ['mrfixit/mrfixit.iqm', 'raylib/guy.iqm', 'extension/door2.iqm']) {
    const bytes = corpus(path);
    const model = iq.load(bytes);
    const ref = parseIQM(bytes);
    const scale = Math.max(...model.bounds.max.map(Math.abs), ...model.bounds.min.map(Math.abs));
    let worstPosition = 0;
    let worstNormal = 0;
    for (let frame = 0; frame < model.frameCount; frame += 0.5) {
      const got = model.evaluate(frame);
      const want = skin(ref, frame);
      for (let i = 0; i < got.positions.length; i++) worstPosition = Math.max(worstPosition, Math.abs(got.positions[i] - want.positions[i]) / scale);
      for (let i = 0; i < got.normals.length; i++) worstNormal = Math.max(worstNormal, Math.abs(got.normals[i] - want.normals[i]));
    }
    report.push(`${path}: worst position error ${worstPosition.toExponential(2)} of model size, worst normal error ${worstNormal.toExponential(2)}`);
    assert.ok(worstPosition < 1e-5, `${path} positions ${worstPosition}`);
    assert.ok(worstNormal < 1e-4, `${path} normals ${worstNormal}`);
    model.dispose();
  }
  console.log(report.join('\n'));
});

// -- Fixtures for what the corpus lacks

// Values in each format's own domain, and the float the spec's conversion gives.
const SAMPLE_VALUES = {
  byte: [-128, -1, 0, 127], ubyte: [0, 1, 128, 255], short: [-32768, -2, 5, 32767], ushort: [0, 7, 40000, 65535],
  int: [-2147483648, -3, 9, 2147483647], uint: [0, 11, 3000000000, 4294967295], half: [-2.5, 0.099976, 1, 65504],
  float: [-1.5, 0.25, 3, 1e-3], double: [-2.25, 0.5, 123.456, 1e-7],
};

function expectedFloats(format, size, values) {
  // Independent conversion: write the values with the builder's encoder, read them back with DataView.
  const { bytes } = buildIQM({ vertexArrays: [{ type: 'position', format, size, data: values }] });
  const ref = parseIQM(bytes);
  return ref.arrays[0].values;
}

test('positions in every component format and size 1..4 convert as the spec says', () => {
  for (const format of Object.keys(FORMATS)) {
    for (let size = 1; size <= 4; size++) {
      const vertexCount = 3;
      const data = [];
      for (let i = 0; i < vertexCount * size; i++) data.push(SAMPLE_VALUES[format][i % 4]);
      const { bytes } = buildIQM({ vertexArrays: [{ type: 'position', format, size, data }], triangles: [[0, 1, 2]], meshes: [{ name: 'm' }] });
      const model = iq.load(bytes, { name: `${format}x${size}` });
      const converted = expectedFloats(format, size, data);
      const expected = [];
      for (let v = 0; v < vertexCount; v++) for (let k = 0; k < 3; k++) expected.push(k < size ? converted[v * size + k] : 0);
      close(model.positions, expected.map((x) => Math.fround(x)), Math.abs(Math.max(...expected.map(Math.abs))) * 1e-6, `${format}x${size}`);
      model.dispose();
    }
  }
});

test('integer formats normalise the way the IQM SDK writes them', () => {
  const view = new DataView(new ArrayBuffer(8));
  view.setUint8(0, 255);
  assert.equal(readComponent(view, 0, FORMATS.ubyte), 1);
  const data = [0, 255, 128, 255, 0, 255, 255, 255, 255, 0, 0, 255];
  const { bytes } = buildIQM({ vertexArrays: [
    { type: 'position', format: 'float', size: 3, data: [0, 0, 0, 1, 0, 0, 0, 1, 0] },
    { type: 'color', format: 'ubyte', size: 4, data },
    { type: 'normal', format: 'byte', size: 3, data: [-128, 0, 127, 127, 127, -128, 0, 0, 0] },
  ] });
  const model = iq.load(bytes);
  close(model.colors, data.map((c) => c / 255), 1e-7, 'colors');
  // signed: (2c + 1) / 255, so -128 -> -1, 127 -> 1, 0 -> 1/255
  close(model.normals, [-1, 1 / 255, 1, 1, 1, -1, 1 / 255, 1 / 255, 1 / 255], 1e-7, 'normals');
  model.dispose();
});

test('texcoords, tangents and colours fill missing components with the documented defaults', () => {
  const { bytes } = buildIQM({ vertexArrays: [
    { type: 'position', format: 'float', size: 3, data: [0, 0, 0, 1, 0, 0] },
    { type: 'texcoord', format: 'half', size: 1, data: [0.5, 0.25] },
    { type: 'tangent', format: 'float', size: 3, data: [1, 0, 0, 0, 1, 0] },
    { type: 'color', format: 'float', size: 3, data: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6] },
  ] });
  const model = iq.load(bytes);
  close(model.texcoords, [0.5, 0, 0.25, 0], 1e-7, 'texcoords');
  close(model.tangents, [1, 0, 0, 1, 0, 1, 0, 1], 1e-7, 'tangents: w defaults to 1');
  close(model.colors, [0.1, 0.2, 0.3, 1, 0.4, 0.5, 0.6, 1], 1e-6, 'colors: alpha defaults to 1');
  model.dispose();
});

test('custom vertex arrays keep their name, format and raw values', () => {
  const { bytes } = buildIQM({ vertexArrays: [
    { type: 'position', format: 'float', size: 3, data: [0, 0, 0, 1, 0, 0] },
    { type: { custom: 'wind' }, format: 'ubyte', size: 4, data: [1, 2, 3, 4, 5, 6, 7, 8] },
    { type: { custom: 'lightmap uv' }, format: 'float', size: 2, data: [0.5, 0.25, 0.75, 1] },
    { type: { custom: 'heat' }, format: 'half', size: 1, data: [1, -2] },
  ] });
  const model = iq.load(bytes);
  const customs = model.customArrays;
  assert.deepEqual(customs.map((c) => [c.name, c.format, c.size]), [['wind', 'ubyte', 4], ['lightmap uv', 'float', 2], ['heat', 'half', 1]]);
  assert.deepEqual([...customs[0].data], [1, 2, 3, 4, 5, 6, 7, 8]);
  assert.deepEqual([...customs[1].data], [0.5, 0.25, 0.75, 1]);
  assert.deepEqual([...customs[2].data], [0x3c00, 0xc000]); // raw IEEE half bits
  model.dispose();
});

const twoJoints = [
  { name: 'root', parent: -1, translate: [0, 0, 0], rotate: [0, 0, 0, 1], scale: [1, 1, 1] },
  { name: 'arm', parent: 0, translate: [1, 0, 0], rotate: [0, 0, 0, 1], scale: [1, 1, 1] },
];

test('blend data loads the same from ubyte pairs, int indices with float weights (Noesis), and ushort pairs', () => {
  const positions = { type: 'position', format: 'float', size: 3, data: [0, 0, 0, 1, 0, 0, 2, 0, 0] };
  const variants = [
    [{ format: 'ubyte', data: [0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0] }, { format: 'ubyte', data: [128, 127, 0, 0, 255, 0, 0, 0, 51, 204, 0, 0] }],
    [{ format: 'int', data: [0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0] }, { format: 'float', data: [128 / 255, 127 / 255, 0, 0, 1, 0, 0, 0, 0.2, 0.8, 0, 0] }],
    [{ format: 'ushort', data: [0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0] }, { format: 'ushort', data: [32896, 32639, 0, 0, 65535, 0, 0, 0, 13107, 52428, 0, 0] }],
  ];
  const results = variants.map(([indices, weights]) => {
    const { bytes } = buildIQM({ joints: twoJoints, vertexArrays: [positions,
      { type: 'blendindexes', size: 4, ...indices }, { type: 'blendweights', size: 4, ...weights }] });
    const model = iq.load(bytes);
    const out = { indices: [...model.blendIndices], weights: [...model.blendWeights] };
    model.dispose();
    return out;
  });
  for (const r of results) {
    assert.deepEqual(r.indices, [0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0]);
    close(r.weights, [128 / 255, 127 / 255, 0, 0, 1, 0, 0, 0, 0.2, 0.8, 0, 0], 2e-5, 'weights');
  }
});

test('blend weights that do not sum to one are renormalised; all-zero weights bind to the first joint', () => {
  const { bytes } = buildIQM({ joints: twoJoints, vertexArrays: [
    { type: 'position', format: 'float', size: 3, data: [0, 0, 0, 1, 0, 0] },
    { type: 'blendindexes', format: 'ubyte', size: 4, data: [1, 0, 0, 0, 0, 1, 0, 0] },
    { type: 'blendweights', format: 'ubyte', size: 4, data: [100, 100, 0, 0, 0, 0, 0, 0] },
  ] });
  const model = iq.load(bytes);
  close(model.blendWeights, [0.5, 0.5, 0, 0, 1, 0, 0, 0], 1e-6, 'weights');
  assert.ok(model.warnings.some((w) => w.code === 'repaired' && /all blend weights zero/.test(w.message)));
  model.dispose();
});

// -- Rigs whose answers are worked out on paper

const Z90 = [0, 0, Math.SQRT1_2, Math.SQRT1_2]; // 90 degrees about +Z
const identity = { translate: [0, 0, 0], rotate: [0, 0, 0, 1], scale: [1, 1, 1] };

test('a 90-degree turn: frame 1 maps +X to +Y, frame 0.5 to 45 degrees', () => {
  const { bytes } = buildIQM({
    joints: [{ name: 'j', parent: -1, ...identity }],
    vertexArrays: [
      { type: 'position', format: 'float', size: 3, data: [1, 0, 0] },
      { type: 'normal', format: 'float', size: 3, data: [1, 0, 0] },
      { type: 'blendindexes', format: 'ubyte', size: 4, data: [0, 0, 0, 0] },
      { type: 'blendweights', format: 'ubyte', size: 4, data: [255, 0, 0, 0] },
    ],
    frames: [[identity], [{ ...identity, rotate: Z90 }]],
    anims: [{ name: 'turn', firstFrame: 0, frameCount: 2, framerate: 10, loop: true }],
  });
  const model = iq.load(bytes);
  assert.deepEqual(model.animations, [{ name: 'turn', firstFrame: 0, frameCount: 2, framerate: 10, loop: true }]);
  close(model.evaluate(0).positions, [1, 0, 0], 1e-6, 'frame 0');
  close(model.evaluate(1).positions, [0, 1, 0], 1e-4, 'frame 1');
  close(model.evaluate(0.5).positions, [Math.SQRT1_2, Math.SQRT1_2, 0], 1e-4, 'frame 0.5');
  close(model.evaluate(0.5).normals, [Math.SQRT1_2, Math.SQRT1_2, 0], 1e-4, 'normal at 0.5');
  close(model.evaluate(7).positions, [0, 1, 0], 1e-4, 'past the end clamps');
  close(model.evaluate(-3).positions, [1, 0, 0], 1e-6, 'before the start clamps');
  model.dispose();
});

test('a non-uniformly scaled parent over a rotated child shears, and normals follow the inverse transpose', () => {
  // world(child) = S(2,1,1) * R(90 about Z). (1,0,0) -> (0,1,0); (0,1,0) -> (-2,0,0).
  // Normal (1,1,0)/sqrt2: R gives (-1,1,0)/sqrt2, S^-1 gives (-0.5,1,0), normalised (-0.4472,0.8944,0).
  const { bytes } = buildIQM({
    joints: [{ name: 'parent', parent: -1, ...identity }, { name: 'child', parent: 0, ...identity }],
    vertexArrays: [
      { type: 'position', format: 'float', size: 3, data: [1, 0, 0, 0, 1, 0] },
      { type: 'normal', format: 'float', size: 3, data: [Math.SQRT1_2, Math.SQRT1_2, 0, Math.SQRT1_2, Math.SQRT1_2, 0] },
      { type: 'blendindexes', format: 'ubyte', size: 4, data: [1, 0, 0, 0, 1, 0, 0, 0] },
      { type: 'blendweights', format: 'ubyte', size: 4, data: [255, 0, 0, 0, 255, 0, 0, 0] },
    ],
    frames: [[identity, identity], [{ ...identity, scale: [2, 1, 1] }, { ...identity, rotate: Z90 }]],
  });
  const model = iq.load(bytes);
  const { positions, normals } = model.evaluate(1);
  close(positions, [0, 1, 0, -2, 0, 0], 1e-4, 'sheared positions');
  close(normals.slice(0, 3), [-1 / Math.sqrt(5), 2 / Math.sqrt(5), 0], 1e-4, 'normal');
  model.dispose();
});

test('a bind pose away from the origin: skinning is relative to the bind, and animated scale applies', () => {
  // Joint bound at z=5 with scale 1. A vertex at z=6 is 1 above the joint. In the frame the joint
  // sits at z=7 with scale 3, so the vertex lands at 7 + 3*1 = 10.
  const bind = { translate: [0, 0, 5], rotate: [0, 0, 0, 1], scale: [1, 1, 1] };
  const { bytes } = buildIQM({
    joints: [{ name: 'j', parent: -1, ...bind }],
    vertexArrays: [
      { type: 'position', format: 'float', size: 3, data: [0, 0, 6] },
      { type: 'blendindexes', format: 'ubyte', size: 4, data: [0, 0, 0, 0] },
      { type: 'blendweights', format: 'ubyte', size: 4, data: [255, 0, 0, 0] },
    ],
    frames: [[bind], [{ translate: [0, 0, 7], rotate: [0, 0, 0, 1], scale: [3, 3, 3] }]],
    anims: [{ name: 'grow', frameCount: 2 }, { name: 'hold', firstFrame: 1, frameCount: 1, framerate: 0 }],
  });
  const model = iq.load(bytes);
  close(model.evaluate(0).positions, [0, 0, 6], 1e-5, 'bind');
  close(model.evaluate(1).positions, [0, 0, 10], 1e-4, 'frame 1');
  close(model.evaluate(0.5).positions, [0, 0, 8], 1e-4, 'half way: joint at 6, scale 2');
  assert.deepEqual(model.animations.map((a) => [a.name, a.firstFrame, a.frameCount, a.framerate]), [['grow', 0, 2, 24], ['hold', 1, 1, 0]]);
  model.dispose();
});

test('a model without frames evaluates to its bind pose', () => {
  const model = iq.load(corpus('raylib/vertex_colored_object.iqm'));
  const before = model.positions.slice();
  close(model.evaluate(3).positions, before, 0, 'static');
  model.dispose();
});

test('comment, extensions and trailing bytes', () => {
  const { bytes } = buildIQM({
    vertexArrays: [{ type: 'position', format: 'float', size: 3, data: [0, 0, 0] }],
    comment: 'made by hand \u00e9',
    extensions: [{ name: 'EXT_ONE', data: new Uint8Array([1, 2, 3]) }, { name: 'EXT_TWO', data: new Uint8Array(0) }],
    trailing: 5,
  });
  const model = iq.load(bytes);
  assert.equal(model.comment, 'made by hand \u00e9');
  assert.deepEqual(model.extensions.map((e) => [e.name, [...e.data]]), [['EXT_ONE', [1, 2, 3]], ['EXT_TWO', []]]);
  assert.ok(model.warnings.some((w) => w.code === 'trailing_bytes'));
  model.dispose();
});
