// The IQE reader and writeIQM through the JS API (the same WASM the browser uses):
// corpus files against an independent scan of their lines, located errors, IQE -> IQM -> load
// at every frame, and a cross-check of written files with a reader we did not write (assimpjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { init, InterquakeError } from 'interquake';

const corpus = new URL('../../../../shared/corpus/iqe/unvanquished/', import.meta.url);
const fixtures = new URL('../../fixtures/iqe/', import.meta.url);
const read = (base, name) => new Uint8Array(readFileSync(new URL(name, base)));
const CORPUS_FILES = ['jetpack.iqe', 'weapons/level1/vwep_view.iqe', 'missiles/spike/spike.iqe',
  'missiles/lockblob/lockblob.iqe', 'missiles/rocket/rocket.iqe'];

// What the file says, counted line by line without our parser.
function scan(bytes) {
  const lines = new TextDecoder().decode(bytes).split('\n').map((l) => l.trim().split(/\s+/));
  const count = (word) => lines.filter((l) => l[0] === word).length;
  const firstAnim = lines.findIndex((l) => l[0] === 'animation');
  const animPoses = firstAnim < 0 ? 0 : lines.slice(firstAnim).filter((l) => /^p[qma]$/.test(l[0])).length;
  const joints = count('joint');
  return {
    vertices: count('vp'),
    triangles: lines.filter((l) => l[0] === 'fa' || l[0] === 'fm').reduce((n, l) => n + l.length - 3, 0),
    joints,
    frames: joints ? animPoses / joints : 0,
    animations: lines.filter((l) => l[0] === 'animation').map((l) => l.slice(1).join(' ').replace(/"/g, '')),
    framerates: lines.filter((l) => l[0] === 'framerate').map((l) => Number(l[1])),
  };
}

test('every corpus IQE loads and matches an independent scan of its lines', async () => {
  const iq = await init();
  for (const name of CORPUS_FILES) {
    const bytes = read(corpus, name);
    const expected = scan(bytes);
    const model = iq.load(bytes, { name });
    assert.equal(model.format, 'iqe');
    assert.equal(model.vertexCount, expected.vertices, `${name} vertices`);
    assert.equal(model.triangleCount, expected.triangles, `${name} triangles`);
    assert.equal(model.joints.length, expected.joints, `${name} joints`);
    assert.equal(model.frameCount, expected.frames, `${name} frames`);
    assert.deepEqual(model.animations.map((a) => a.name), expected.animations, `${name} animation names`);
    assert.deepEqual(model.animations.map((a) => a.framerate), expected.framerates, `${name} rates`);
    assert.deepEqual(model.warnings, [], `${name} warnings`);
    model.dispose();
  }
});

test('IQE errors are InterquakeErrors with a code, line, column and the token', async () => {
  const iq = await init();
  const bad = new TextEncoder().encode('# Inter-Quake Export\r\nmesh "a"\r\nvp 1 2\tthree\r\n');
  assert.throws(() => iq.load(bad, { name: 'bad.iqe' }), (err) => {
    assert.ok(err instanceof InterquakeError);
    assert.equal(err.code, 'syntax');
    assert.equal(err.line, 3);
    assert.equal(err.column, 8);
    assert.match(err.message, /bad\.iqe: syntax \(line 3, column 8\): vp: 'three' is not a number/);
    return true;
  });
  const outOfRange = new TextEncoder().encode('# Inter-Quake Export\nvp\nvp\nvp\nfm 0 1 7\n');
  assert.throws(() => iq.load(outOfRange), { code: 'bad_index', line: 5, column: 8 });
});

function channelTolerance(values) {
  let lo = Infinity; let hi = -Infinity;
  for (const v of values) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  return (hi - lo) / 131070 * 1.01 + 1e-6 * (1 + Math.abs(lo) + Math.abs(hi));
}

test('IQE -> writeIQM -> load equals IQE -> load within the quantisation, at every frame', async () => {
  const iq = await init();
  for (const [base, name] of [[corpus, 'jetpack.iqe'], [corpus, 'weapons/level1/vwep_view.iqe'], [fixtures, 'anim.iqe'], [fixtures, 'poses.iqe']]) {
    const a = iq.load(read(base, name), { name });
    const bytes = iq.writeIQM(a);
    assert.ok(bytes instanceof Uint8Array);
    assert.equal(new TextDecoder().decode(bytes.subarray(0, 15)), 'INTERQUAKEMODEL');
    const b = iq.load(bytes, { name: `${name}.iqm` });
    assert.equal(b.format, 'iqm');
    for (const key of ['vertexCount', 'triangleCount', 'frameCount']) assert.equal(b[key], a[key], `${name} ${key}`);
    assert.deepEqual(b.meshes, a.meshes);
    assert.deepEqual(b.animations, a.animations);
    assert.equal(b.comment, a.comment);
    assert.deepEqual(b.joints.map((j) => [j.name, j.parent]), a.joints.map((j) => [j.name, j.parent]));
    // local poses: translation and scale channels within half a quantisation step of their range
    const nj = a.joints.length;
    const pa = a.framePoses; const pb = b.framePoses;
    for (let j = 0; j < nj; j++) {
      for (const k of [0, 1, 2, 7, 8, 9]) {
        const values = [];
        for (let f = 0; f < a.frameCount; f++) values.push(pa[(f * nj + j) * 10 + k]);
        const tol = channelTolerance(values);
        for (let f = 0; f < a.frameCount; f++) {
          const i = (f * nj + j) * 10 + k;
          assert.ok(Math.abs(pa[i] - pb[i]) <= tol, `${name} frame ${f} joint ${j} channel ${k}: ${pa[i]} vs ${pb[i]}`);
        }
      }
      for (let f = 0; f < a.frameCount; f++) { // rotations, up to sign
        const i = (f * nj + j) * 10 + 3;
        const dot = pa[i] * pb[i] + pa[i + 1] * pb[i + 1] + pa[i + 2] * pb[i + 2] + pa[i + 3] * pb[i + 3];
        assert.ok(Math.abs(Math.abs(dot) - 1) < 1e-6, `${name} frame ${f} joint ${j} rotation`);
      }
    }
    // and the skinned mesh at every frame (poses.iqe has a skeleton but no mesh)
    const span = Math.max(1, a.bounds ? a.bounds.radius : 1);
    for (let f = 0; f < (a.vertexCount ? a.frameCount : 0); f++) {
      const sa = a.evaluate(f).positions.slice();
      const sb = b.evaluate(f).positions;
      for (let i = 0; i < sa.length; i++) assert.ok(Math.abs(sa[i] - sb[i]) <= 2e-3 * span, `${name} frame ${f} value ${i}`);
      if (b.frameBounds && sa.length) { // written bounds hold the skinned positions
        const bb = b.frameBounds.subarray(f * 8, f * 8 + 8);
        for (let i = 0; i < sa.length; i++) {
          assert.ok(sa[i] >= bb[i % 3] - 1e-3 * span && sa[i] <= bb[3 + (i % 3)] + 1e-3 * span, `${name} frame ${f} bounds`);
        }
      }
    }
    a.dispose();
    b.dispose();
  }
});

test('writeIQM refuses what is not a live model', async () => {
  const iq = await init();
  assert.throws(() => iq.writeIQM({}), { code: 'invalid_argument' });
  const m = iq.load(read(fixtures, 'faces.iqe'));
  m.dispose();
  assert.throws(() => iq.writeIQM(m), { code: 'disposed' });
});

test('assimp (assimpjs) reads the same vertex and triangle counts from our IQM files', async () => {
  const require = createRequire(import.meta.url);
  const assimpjs = require('assimpjs');
  const ajs = await assimpjs();
  const iq = await init();
  const statics = [[corpus, 'missiles/spike/spike.iqe'], [corpus, 'missiles/lockblob/lockblob.iqe'],
    [fixtures, 'faces.iqe'], [fixtures, 'faceless.iqe'], [fixtures, 'custom.iqe'], [fixtures, 'smooth_split.iqe']];
  for (const [base, name] of statics) {
    const model = iq.load(read(base, name), { name });
    const bytes = iq.writeIQM(model);
    const fileList = new ajs.FileList();
    let result;
    try {
      fileList.AddFile('model.iqm', bytes);
      result = ajs.ConvertFileList(fileList, 'assjson');
      assert.ok(result.IsSuccess(), `${name}: assimp failed: ${result.GetErrorCode()}`);
      const json = JSON.parse(new TextDecoder().decode(result.GetFile(0).GetContent()));
      const theirs = json.meshes.map((m) => [m.vertices.length / 3, m.faces.length]);
      const ours = model.meshes.map((m) => [m.vertexCount, m.triangleCount]);
      assert.deepEqual(theirs, ours, `${name}: assimp counts`);
    } finally {
      if (result) result.delete();
      fileList.delete();
      model.dispose();
    }
  }
});
