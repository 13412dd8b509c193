// One test per bad-input case of shared/docs/formats.md section 4, items 1-14
// (IQM), each asserting the error code (or, where shipped files do it, that
// the model loads with a warning), plus truncation sweeps over the corpus.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init } from 'interquake';
import { buildIQM, fieldOffset, patchU32, patchI32, patchF32, readU32 } from '../lib/iqm-build.mjs';

const iq = await init();
const CORPUS = new URL('../../../../shared/corpus/iqm/', import.meta.url);
const corpus = (path) => new Uint8Array(readFileSync(new URL(path, CORPUS)));

const identity = { translate: [0, 0, 0], rotate: [0, 0, 0, 1], scale: [1, 1, 1] };
const turned = { translate: [0, 0, 1], rotate: [0, 0, Math.SQRT1_2, Math.SQRT1_2], scale: [1, 2, 1] };

// A small but complete file: 2 meshes, 6 vertices, 2 triangles, adjacency, 3 joints, 3 frames,
// 2 animations, bounds, a comment and an extension.
function base(overrides = {}) {
  return buildIQM({
    meshes: [
      { name: 'a', material: 'm1', firstVertex: 0, vertexCount: 3, firstTriangle: 0, triangleCount: 1 },
      { name: 'b', material: 'm2', firstVertex: 3, vertexCount: 3, firstTriangle: 1, triangleCount: 1 },
    ],
    vertexArrays: [
      { type: 'position', format: 'float', size: 3, data: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1] },
      { type: 'normal', format: 'float', size: 3, data: [0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1] },
      { type: 'blendindexes', format: 'ubyte', size: 4, data: [0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 0, 1, 2, 0, 0, 2, 0, 0, 0] },
      { type: 'blendweights', format: 'ubyte', size: 4, data: [255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 128, 127, 0, 0, 200, 55, 0, 0, 255, 0, 0, 0] },
    ],
    triangles: [[0, 1, 2], [3, 4, 5]],
    adjacency: [[0xffffffff, 1, 0xffffffff], [0, 0xffffffff, 0xffffffff]],
    joints: [
      { name: 'root', parent: -1, ...identity },
      { name: 'mid', parent: 0, ...identity, translate: [0, 0, 1] },
      { name: 'tip', parent: 1, ...identity, translate: [0, 0, 1] },
    ],
    frames: [[identity, identity, identity], [turned, identity, turned], [identity, turned, identity]],
    anims: [{ name: 'one', firstFrame: 0, frameCount: 2 }, { name: 'two', firstFrame: 1, frameCount: 2, loop: true }],
    bounds: [[0, 0, 0, 1, 1, 1, 1, 1.7], [0, 0, 0, 1, 1, 1, 1, 1.7], [0, 0, 0, 1, 1, 1, 1, 1.7]],
    comment: 'base',
    extensions: [{ name: 'EXT', data: new Uint8Array([9, 9, 9, 9]) }],
    ...overrides,
  });
}

function rejects(bytes, code, what, check) {
  assert.throws(() => iq.load(bytes, { name: what }), (err) => {
    assert.equal(err.name, 'InterquakeError', what);
    assert.equal(err.code, code, `${what}: got ${err.code}: ${err.message}`);
    assert.ok(err.message.length > 10, what);
    if (check) check(err);
    return true;
  }, what);
}

function loadsWithWarning(bytes, warning, what) {
  const model = iq.load(bytes, { name: what });
  try {
    if (warning) assert.ok(model.warnings.some((w) => w.code === warning), `${what}: ${JSON.stringify(model.warnings)}`);
    return model;
  } finally {
    model.dispose();
  }
}

const good = base();
const h = good.header;

test('the base fixture loads cleanly', () => {
  const model = iq.load(good.bytes);
  assert.equal(model.vertexCount, 6);
  assert.equal(model.joints.length, 3);
  assert.equal(model.frameCount, 3);
  assert.deepEqual(model.warnings, []);
  model.dispose();
});

test('1: short files, wrong magic, other versions', () => {
  rejects(good.bytes.slice(0, 123), 'truncated', 'shorter than the header');
  rejects(good.bytes.slice(0, 10), 'truncated', 'a few bytes of the magic');
  rejects(new Uint8Array(0), 'truncated', 'empty');
  const badMagic = good.bytes.slice();
  badMagic[0] = 'X'.charCodeAt(0);
  rejects(badMagic, 'unknown_format', 'wrong magic');
  const noNul = good.bytes.slice();
  noNul[15] = 'X'.charCodeAt(0);
  rejects(noNul, 'bad_magic', 'magic without its NUL');
  rejects(patchU32(good.bytes, 'version', 1), 'bad_version', 'version 1', (e) => assert.equal(e.offset, fieldOffset('version')));
  rejects(patchU32(good.bytes, 'version', 3), 'bad_version', 'version 3');
});

test('2: filesize larger than the data, smaller than a header, and trailing bytes', () => {
  rejects(patchU32(good.bytes, 'filesize', good.bytes.length + 1), 'truncated', 'filesize > buffer');
  rejects(patchU32(good.bytes, 'filesize', 100), 'bad_filesize', 'filesize < header');
  loadsWithWarning(base({ trailing: 16 }).bytes, 'trailing_bytes', 'trailing bytes (ioq3 accepts them)');
});

test('3: section offsets past the end, overflowing, zero with data, and stray offsets', () => {
  rejects(patchU32(good.bytes, 'ofs_joints', good.bytes.length), 'out_of_range', 'joints past EOF',
    (e) => assert.equal(e.offset, fieldOffset('ofs_joints')));
  rejects(patchU32(good.bytes, 'ofs_joints', good.bytes.length - 20), 'out_of_range', 'joints running past EOF');
  // 0x15555556 * 12 = 0x1_0000_0008: wraps to 8 in 32-bit arithmetic
  rejects(patchU32(good.bytes, 'num_triangles', 0x15555556), 'out_of_range', 'num*size overflowing 32 bits');
  rejects(patchU32(good.bytes, 'ofs_meshes', 0), 'out_of_range', 'ofs 0 with meshes');
  rejects(patchU32(good.bytes, 'ofs_anims', 8), 'out_of_range', 'an offset inside the header');
  const noComment = patchU32(good.bytes, 'num_comment', 0);
  loadsWithWarning(noComment, 'stray_offset', 'empty comment with a stray offset');
  // Misaligned sections are read anyway (real files ship them): corpus door2.iqm.
  loadsWithWarning(corpus('extension/door2.iqm'), 'misaligned', 'misaligned sections');
});

test('4: text table not terminated, not starting empty, names outside it', () => {
  const lastText = h.ofs_text + h.num_text - 1;
  const unterminated = good.bytes.slice();
  unterminated[lastText] = 0x41;
  rejects(unterminated, 'bad_string', 'text without a final NUL', (e) => assert.equal(e.offset, lastText));
  const notEmpty = good.bytes.slice();
  notEmpty[h.ofs_text] = 0x41;
  rejects(notEmpty, 'bad_string', 'text[0] != 0');
  rejects(patchU32(good.bytes, h.ofs_meshes, h.num_text), 'bad_string', 'mesh name offset = num_text');
  rejects(patchU32(good.bytes, h.ofs_meshes + 4, 1 << 30), 'bad_string', 'material offset far out');
  rejects(patchU32(good.bytes, h.ofs_joints, h.num_text + 5), 'bad_string', 'joint name');
  rejects(patchU32(good.bytes, h.ofs_anims, h.num_text), 'bad_string', 'animation name');
  const custom = buildIQM({ vertexArrays: [
    { type: 'position', format: 'float', size: 3, data: [0, 0, 0] },
    { type: { custom: 'mine' }, format: 'float', size: 1, data: [1] }] });
  rejects(patchU32(custom.bytes, custom.header.ofs_vertexarrays + 20, 0x10 + custom.header.num_text), 'bad_string', 'custom type name');
});

test('5: vertex arrays with bad formats, sizes, duplicates, no position, data out of range', () => {
  const va = (i, field) => h.ofs_vertexarrays + 20 * i + { type: 0, format: 8, size: 12, offset: 16 }[field];
  rejects(patchU32(good.bytes, va(0, 'format'), 9), 'bad_vertex_array', 'format 9', (e) => assert.equal(e.offset, va(0, 'format')));
  rejects(patchU32(good.bytes, va(1, 'size'), 0), 'bad_vertex_array', 'size 0');
  rejects(patchU32(good.bytes, va(1, 'size'), 5), 'bad_vertex_array', 'size 5');
  rejects(patchU32(good.bytes, va(1, 'type'), 0), 'bad_vertex_array', 'a second position array');
  rejects(patchU32(good.bytes, va(0, 'type'), 1), 'bad_vertex_array', 'no position array');
  rejects(patchU32(good.bytes, va(0, 'offset'), good.bytes.length - 8), 'out_of_range', 'array data past EOF');
  rejects(patchU32(good.bytes, 'num_vertexes', 0x40000000), 'out_of_range', 'num_vertexes in the billions');
  // An element offset not aligned to its size is read anyway, with a warning.
  const shifted = buildIQM({ vertexArrays: [{ type: 'position', format: 'float', size: 3, data: [1, 2, 3] }] });
  const at = readU32(shifted.bytes, shifted.header.ofs_vertexarrays + 16);
  const bytes = new Uint8Array(shifted.bytes.length + 2);
  bytes.set(shifted.bytes);
  bytes.copyWithin(at + 2, at, at + 12);
  const moved = patchU32(patchU32(bytes, shifted.header.ofs_vertexarrays + 16, at + 2), 'filesize', bytes.length);
  const model = iq.load(moved);
  assert.deepEqual([...model.positions], [1, 2, 3]);
  assert.ok(model.warnings.some((w) => w.code === 'misaligned'));
  model.dispose();
  // Reserved types 7..15 are skipped with a warning.
  loadsWithWarning(patchU32(good.bytes, va(1, 'type'), 9), 'ignored_data', 'reserved vertex array type');
});

test('6: triangle indices at num_vertexes, outside the owning mesh; degenerate triangles load', () => {
  rejects(patchU32(good.bytes, h.ofs_triangles + 4, 6), 'bad_index', 'index == num_vertexes (the ioq3 off-by-one)',
    (e) => assert.equal(e.offset, h.ofs_triangles + 4));
  rejects(patchU32(good.bytes, h.ofs_triangles, 4), 'bad_index', "index in another mesh's range");
  const degenerate = patchU32(good.bytes, h.ofs_triangles + 4, 0);
  const model = iq.load(degenerate);
  assert.deepEqual([...model.indices.slice(0, 3)], [0, 0, 2]);
  model.dispose();
});

test('7: mesh ranges overflowing or past the totals; empty, overlapping and missing meshes', () => {
  rejects(patchU32(good.bytes, h.ofs_meshes + 8, 0xfffffffe), 'bad_mesh', 'first_vertex + num_vertexes overflows');
  rejects(patchU32(good.bytes, h.ofs_meshes + 24 + 12, 4), 'bad_mesh', 'vertices past the total');
  rejects(patchU32(good.bytes, h.ofs_meshes + 24 + 20, 2), 'bad_mesh', 'triangles past the total');
  loadsWithWarning(patchU32(good.bytes, h.ofs_meshes + 20, 0), 'empty', 'an empty mesh');
  // mesh b also claims all vertices: overlapping ranges are accepted
  const overlap = patchU32(patchU32(good.bytes, h.ofs_meshes + 24 + 8, 0), h.ofs_meshes + 24 + 12, 6);
  iq.load(overlap).dispose();
  const noMeshes = patchU32(patchU32(good.bytes, 'num_meshes', 0), 'ofs_meshes', 0);
  const model = iq.load(noMeshes);
  assert.equal(model.meshes.length, 1);
  assert.deepEqual(model.meshes[0], { name: '', material: '', firstVertex: 0, vertexCount: 6, firstTriangle: 0, triangleCount: 2 });
  assert.ok(model.warnings.some((w) => w.code === 'repaired'));
  model.dispose();
});

test('8: joint parents out of range, self, forward, cycles; limits; unusable rotations and scales', () => {
  const parent = (i) => h.ofs_joints + 48 * i + 4;
  const posesParent = (i) => h.ofs_poses + 88 * i;
  const withParent = (i, p) => patchI32(patchI32(good.bytes, parent(i), p), posesParent(i), p);
  rejects(withParent(2, 3), 'bad_hierarchy', 'parent >= count', (e) => assert.equal(e.offset, parent(2)));
  rejects(withParent(1, 1), 'bad_hierarchy', 'own parent');
  rejects(withParent(0, 2), 'bad_hierarchy', 'parent after the joint');
  rejects(withParent(1, 2), 'bad_hierarchy', 'a cycle 1 -> 2 -> 1');
  const model = iq.load(withParent(0, -7));
  assert.equal(model.joints[0].parent, -1);
  assert.ok(model.warnings.some((w) => w.code === 'repaired'), 'parent -7 is a root (the spec: < 0)');
  model.dispose();
  rejects(patchU32(good.bytes, 'num_joints', 100000), 'limit', 'joint count over the limit');
  const rot = (i, k) => h.ofs_joints + 48 * i + 20 + 4 * k;
  let zero = good.bytes;
  for (let k = 0; k < 4; k++) zero = patchF32(zero, rot(1, k), 0);
  rejects(zero, 'bad_value', 'zero quaternion');
  rejects(patchF32(good.bytes, rot(1, 2), NaN), 'bad_value', 'NaN quaternion');
  rejects(patchF32(good.bytes, h.ofs_joints + 48 + 8, Infinity), 'bad_value', 'infinite translation');
  let flat = good.bytes;
  for (let k = 0; k < 3; k++) flat = patchF32(flat, h.ofs_joints + 48 + 36 + 4 * k, 0);
  rejects(flat, 'bad_value', 'zero scale: the bind pose cannot be inverted');
});

test('9: blend indices past the joints; zero, unnormalised and Noesis-style weights', () => {
  const blendIndexAt = readU32(good.bytes, h.ofs_vertexarrays + 40 + 16);
  rejects(patchU32(good.bytes, blendIndexAt, 3), 'bad_index', 'blend index == num_joints (ioq3 reads out of bounds)',
    (e) => assert.equal(e.offset, blendIndexAt));
  // The blend-data variants (ubyte, int + float, zero and unnormalised weights) are in iqm-load.test.mjs;
  // here: blend data with no skeleton is ignored, not trusted.
  const noSkeleton = buildIQM({ vertexArrays: [
    { type: 'position', format: 'float', size: 3, data: [0, 0, 0] },
    { type: 'blendindexes', format: 'ubyte', size: 4, data: [5, 0, 0, 0] },
    { type: 'blendweights', format: 'ubyte', size: 4, data: [255, 0, 0, 0] }] });
  const model = iq.load(noSkeleton.bytes);
  assert.equal(model.blendIndices, null);
  assert.ok(model.warnings.some((w) => w.code === 'ignored_data'));
  model.dispose();
  const negative = buildIQM({ joints: [{ name: 'j', parent: -1, ...identity }], vertexArrays: [
    { type: 'position', format: 'float', size: 3, data: [0, 0, 0] },
    { type: 'blendindexes', format: 'int', size: 4, data: [-1, 0, 0, 0] },
    { type: 'blendweights', format: 'float', size: 4, data: [1, 0, 0, 0] }] });
  rejects(negative.bytes, 'bad_index', 'negative int blend index');
  const fractional = buildIQM({ joints: [{ name: 'j', parent: -1, ...identity }], vertexArrays: [
    { type: 'position', format: 'float', size: 3, data: [0, 0, 0] },
    { type: 'blendindexes', format: 'float', size: 4, data: [0.5, 0, 0, 0] },
    { type: 'blendweights', format: 'float', size: 4, data: [1, 0, 0, 0] }] });
  rejects(fractional.bytes, 'bad_index', 'fractional float blend index');
});

test('10: poses that do not match the joints, bad masks, channel counts, NaN channels', () => {
  rejects(patchU32(good.bytes, 'num_poses', 2), 'bad_animation', 'num_poses != num_joints');
  rejects(patchI32(good.bytes, h.ofs_poses + 88 * 2, 0), 'bad_hierarchy', 'pose parent != joint parent');
  rejects(patchU32(good.bytes, h.ofs_poses + 4, 1 << 10), 'bad_animation', 'mask bit 10');
  rejects(patchU32(good.bytes, 'num_framechannels', h.num_framechannels + 1), 'bad_animation', 'sum of popcounts != num_framechannels');
  rejects(patchF32(good.bytes, h.ofs_poses + 8, NaN), 'bad_value', 'NaN channel offset');
  rejects(patchF32(good.bytes, h.ofs_poses + 48 + 4 * 3, Infinity), 'bad_value', 'infinite channel scale');
});

test('11: frames out of range; poses without frames', () => {
  rejects(patchU32(good.bytes, 'num_frames', 1000), 'out_of_range', 'frames past EOF');
  rejects(patchU32(good.bytes, 'ofs_frames', good.bytes.length - 4), 'out_of_range', 'frame data past EOF');
  const noFrames = patchU32(patchU32(patchU32(patchU32(patchU32(patchU32(good.bytes, 'num_frames', 0), 'num_anims', 0),
    'ofs_bounds', 0), 'ofs_frames', 0), 'ofs_anims', 0), 'num_framechannels', 0);
  // With no frames the pose channel count no longer matches; a file that has poses but no frames
  // and no channels loads with a warning.
  rejects(noFrames, 'bad_animation', 'poses whose channels have no frames');
});

test('12: animations past the frames, bad framerates, zero length', () => {
  rejects(patchU32(good.bytes, h.ofs_anims + 20 + 8, 3), 'bad_animation', 'first_frame + num_frames > num_frames',
    (e) => assert.equal(e.offset, h.ofs_anims + 20 + 4));
  rejects(patchU32(good.bytes, h.ofs_anims + 4, 0xffffffff), 'bad_animation', 'first_frame near 2^32');
  rejects(patchF32(good.bytes, h.ofs_anims + 12, NaN), 'bad_value', 'NaN framerate');
  rejects(patchF32(good.bytes, h.ofs_anims + 12, -24), 'bad_value', 'negative framerate');
  loadsWithWarning(patchU32(good.bytes, h.ofs_anims + 8, 0), 'empty', 'zero-length animation');
});

test('13: bounds, adjacency, comment and extension ranges; adjacency values; extension cycles', () => {
  rejects(patchU32(good.bytes, 'ofs_bounds', good.bytes.length - 40), 'out_of_range', 'bounds past EOF');
  // Garbage file bounds are recomputed with a warning now (C: iq_numbers.c), no longer refused.
  const nanBounds = iq.load(patchF32(good.bytes, h.ofs_bounds, NaN), { name: 'NaN bounds' });
  assert.ok(nanBounds.warnings.some((w) => w.code === 'repaired' && /frame bound/.test(w.message)), 'NaN bounds: warning');
  assert.ok(nanBounds.frameBounds.every(Number.isFinite), 'NaN bounds: recomputed');
  nanBounds.dispose();
  rejects(patchU32(good.bytes, 'ofs_adjacency', good.bytes.length - 4), 'out_of_range', 'adjacency past EOF');
  rejects(patchU32(good.bytes, h.ofs_adjacency, 2), 'bad_index', 'adjacency names triangle == num_triangles');
  rejects(patchU32(good.bytes, 'num_comment', 1 << 20), 'out_of_range', 'comment past EOF');
  const ext = h.ofs_extensions;
  rejects(patchU32(good.bytes, ext + 12, ext), 'bad_extension', 'an extension pointing at itself');
  rejects(patchU32(good.bytes, ext + 8, good.bytes.length - 2), 'out_of_range', 'extension data past EOF');
  rejects(patchU32(good.bytes, 'ofs_extensions', good.bytes.length), 'out_of_range', 'extension header past EOF');
  rejects(patchU32(good.bytes, 'num_extensions', 1 << 30), 'bad_extension', 'more extensions than bytes');
  loadsWithWarning(patchU32(good.bytes, 'num_extensions', 2), 'repaired', 'a list shorter than num_extensions');
});

test('14: huge counts fail fast without allocating', () => {
  const before = iq.memoryBytes;
  rejects(patchU32(good.bytes, 'num_vertexes', 0x80000000), 'out_of_range', '2^31 vertices in a small file');
  // Frames without channels cost no file bytes, so only the memory budget stops them:
  // 1,000,000 frames x 3 joints x 40 bytes = 120 MB for a file of under 2 KB.
  const noChannels = buildIQM({
    joints: [{ name: 'a', parent: -1, ...identity }, { name: 'b', parent: 0, ...identity }, { name: 'c', parent: 1, ...identity }],
    frames: [[identity, identity, identity]],
  });
  rejects(patchU32(noChannels.bytes, 'num_frames', 1000000), 'limit', 'a million empty frames',
    (e) => assert.match(e.message, /budget/));
  rejects(patchU32(noChannels.bytes, 'num_frames', 5000000), 'limit', 'over the frame limit');
  assert.ok(iq.memoryBytes - before < 32 << 20, `memory grew by ${iq.memoryBytes - before}`);
});

test('every prefix of every corpus IQM fails cleanly, with and without a matching filesize; the whole file loads', () => {
  for (const path of ['mrfixit/mrfixit.iqm', 'raylib/guy.iqm', 'raylib/guyanim.iqm', 'raylib/vertex_colored_object.iqm', 'extension/door2.iqm']) {
    const bytes = corpus(path);
    // every prefix of the small files; for the large one, every prefix of the first 4 KiB,
    // every 16th byte of the first 64 KiB and every 61st after
    const lengths = [];
    for (let n = 0; n < bytes.length; n += n < 4096 || bytes.length < 65536 ? 1 : n < 65536 ? 16 : 61) lengths.push(n);
    let loaded = 0;
    for (const n of lengths) {
      const prefix = bytes.slice(0, n);
      for (const input of [prefix, n >= 124 ? patchU32(prefix, 'filesize', n) : prefix]) {
        try {
          iq.load(input).dispose();
          loaded++;
        } catch (err) {
          assert.equal(err.name, 'InterquakeError', `${path} prefix ${n}: ${err}`);
        }
      }
    }
    assert.equal(loaded, 0, `${path}: some prefixes loaded`);
    iq.load(bytes).dispose();
  }
});
