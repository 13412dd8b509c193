// The smaller WASM builds of the one-file element (build.sh): interquake-viewer.wasm (no writers, no
// shader scripts; load-time code built for size) must read and pose every corpus model exactly as
// interquake.wasm does, say 'unsupported' for what it leaves out, and take shader scripts from
// interquake-shaders.wasm once loadShaderSupport() has fetched it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { init as initFull } from 'interquake';
import { init as initLite } from '../../../web/interquake-lite.js';
import { parseShaderScript, evaluateStage, shaderEnv, deformVertices } from '../../../web/quake3/shaders.js';
import { buildMD3 } from '../lib/md3-build.mjs';
import { handMadeDPM, handMadeZYM } from '../lib/darkplaces-build.mjs';
import { handMadeMDR } from '../lib/mdr-build.mjs';

const CORPUS = new URL('../../../../shared/corpus/', import.meta.url);
const full = await initFull();
// Options make a library of its own: init() with none would share the first library of the process.
const lite = await initLite({ simd: true });
const liteBaseline = await initLite({ simd: false });

function corpusModels(dir = CORPUS, out = []) {
  for (const name of readdirSync(dir)) {
    const url = new URL(name, dir);
    if (statSync(url).isDirectory()) corpusModels(new URL(`${name}/`, dir), out);
    else if (/\.(iqm|iqe|md3)$/i.test(name) && !url.pathname.includes('/invalid/')) out.push(url);
  }
  return out;
}

// What a load gives, and the vertices at a few frames, for comparing two builds.
function reading(iq, bytes, name) {
  let model;
  try {
    model = iq.load(bytes, { name });
  } catch (err) {
    return { error: err.code, message: err.message };
  }
  try {
    const summary = {
      format: model.format, vertices: model.vertexCount, triangles: model.triangleCount, frames: model.frameCount,
      joints: model.joints.map((j) => j.name), meshes: model.meshes.map((m) => m.name),
      animations: model.animations.map((a) => a.name), warnings: model.warnings.map((w) => w.code),
    };
    const frames = model.frameCount ? [0, model.frameCount / 3, model.frameCount - 1] : [0];
    summary.poses = frames.map((f) => Array.from(model.evaluate(f).positions ?? []));
    return summary;
  } finally {
    model.dispose();
  }
}

test('the viewer builds read and pose every corpus model as interquake.wasm does', () => {
  const models = corpusModels();
  assert.ok(models.length >= 20, `corpus models found: ${models.length}`);
  for (const url of models) {
    const bytes = new Uint8Array(readFileSync(url));
    const want = reading(full, bytes, url.pathname);
    for (const [which, iq] of [['simd', lite], ['baseline', liteBaseline]]) {
      const got = reading(iq, bytes, url.pathname);
      const { poses: gotPoses, ...gotRest } = got;
      const { poses: wantPoses, ...wantRest } = want;
      assert.deepEqual(gotRest, wantRest, `${url.pathname} (${which})`);
      let worst = 0;
      wantPoses?.forEach((pose, f) => pose.forEach((v, i) => { worst = Math.max(worst, Math.abs(v - gotPoses[f][i])); }));
      assert.ok(worst <= 1e-5, `${url.pathname} (${which}): vertices differ by ${worst}`);
    }
  }
});

test('the viewer build says unsupported for the writers it leaves out', async () => {
  assert.equal(full.shaderSupport, true, 'interquake.wasm has the shader scripts');
  const model = lite.load(buildMD3({ surfaces: [{ name: 's', shaders: [], triangles: [[0, 1, 2]], texcoords: [[0, 0], [1, 0], [0, 1]], frames: [[[0, 0, 0], [1, 0, 0], [0, 1, 0]].map((xyz) => ({ xyz, normal: 0 }))] }] }).bytes);
  try {
    assert.throws(() => lite.writeIQM(model), (err) => err.code === 'unsupported' && /writeIQM\(\)/.test(err.message));
    await assert.rejects(lite.writeGLB(model), (err) => err.code === 'unsupported' && /writeGLB\(\)/.test(err.message));
  } finally {
    model.dispose();
  }
});

test('the viewer build leaves the MD5, DPM, ZYM and MDR readers to interquake-readers.wasm: refused until loadReaders(), then read and posed as interquake.wasm does', async () => {
  const files = [
    [readFileSync(new URL('../../fixtures/md5/arm.md5mesh', import.meta.url)), 'md5', 'arm.md5mesh'],
    [handMadeDPM(), 'dpm', 'hand.dpm'],
    [handMadeZYM(), 'zym', 'hand.zym'],
    [handMadeMDR(), 'mdr', 'hand.mdr'],
  ];
  // libraries of their own: loadReaders() changes what a library reads
  for (const build of [await initLite({ simd: true }), await initLite({ simd: false })]) {
    for (const [bytes, format, name] of files) {
      assert.equal(build.formatOf(bytes), format, 'the C names the format whether or not the build reads it');
      assert.equal(build.readsFormat(format), false, `${format}: not in interquake-viewer.wasm`);
      assert.ok(!build.formats.includes(format));
      assert.throws(() => build.load(bytes, { name }), (err) => err.code === 'unavailable' && err.message.includes(`${format}: needs await iq.loadReaders()`));
    }
    await build.loadReaders();
    for (const [bytes, format, name] of files) {
      assert.ok(build.readsFormat(format) && build.formats.includes(format), `${format}: read once the readers are loaded`);
      const got = reading(build, bytes, name);
      const want = reading(full, bytes, name);
      assert.equal(got.format, format, JSON.stringify(got));
      assert.deepEqual(got, want, `${name}: the readers' build reads and poses it as interquake.wasm`);
    }
  }
  // the C itself, below the JS: the viewer build's load names the WASM that reads the format
  const wasm = lite._wasm;
  assert.throws(() => wasm.makeWithBytes(handMadeMDR(), 'iq_wasm_load', [0, 0, wasm.errorPtr], 'hand.mdr'),
    (e) => e.code === 'unsupported' && /mdr: not in this build \(interquake-readers\.wasm reads it\)/.test(e.message));
});

const SCRIPT = 'models/t/glow\n{\n deformVertexes wave 10 sin 0 2 0 1\n {\n  map models/t/glow.tga\n  rgbGen wave sin 0.5 0.5 0 1\n  tcMod scroll 1 0\n }\n}\n';

test('shader scripts: refused before loadShaderSupport(), then read from interquake-shaders.wasm as interquake.wasm reads them', async () => {
  const iq = await initLite({ wasm: readFileSync(new URL('../../../web/interquake-viewer.wasm', import.meta.url)) });
  assert.equal(iq.shaderSupport, false);
  assert.throws(() => parseShaderScript(iq, SCRIPT), (err) => err.code === 'unsupported' && /loadShaderSupport/.test(err.message));
  // A player with a script: loads, its surfaces fall back to images, and one warning says why.
  const files = {
    'models/players/s/lower.md3': buildMD3({ tags: [{ name: 'tag_torso', frames: [{ origin: [0, 0, 1] }] }], surfaces: [{ name: 'l', shaders: [{ name: 'models/t/glow', index: 0 }], triangles: [[0, 1, 2]], texcoords: [[0, 0], [1, 0], [0, 1]], frames: [[[0, 0, 0], [1, 0, 0], [0, 1, 0]].map((xyz) => ({ xyz, normal: 0 }))] }] }).bytes,
    'models/players/s/upper.md3': buildMD3({ tags: [{ name: 'tag_head', frames: [{ origin: [0, 0, 1] }] }], surfaces: [] }).bytes,
    'models/players/s/head.md3': buildMD3({ surfaces: [] }).bytes,
    'scripts/t.shader': new TextEncoder().encode(SCRIPT),
  };
  const before = iq.loadPlayer(files, { skin: null });
  try {
    assert.equal(before.surfaces.lower[0].script, null);
    assert.deepEqual(before.warnings.filter((w) => w.code === 'unsupported').map((w) => w.message), [
      '1 shader script(s) not read: this WASM build needs interquake-shaders.wasm for them (iq.loadShaderSupport())']);
  } finally {
    before.dispose();
  }
  await iq.loadShaderSupport();
  await iq.loadShaderSupport(); // once
  assert.equal(iq.shaderSupport, true);
  const after = iq.loadPlayer(files, { skin: null });
  try {
    assert.equal(after.surfaces.lower[0].script?.name, 'models/t/glow');
    assert.deepEqual(after.warnings.filter((w) => w.code === 'unsupported'), []);
  } finally {
    after.dispose();
  }
  const a = parseShaderScript(iq, SCRIPT).shaders[0];
  const b = parseShaderScript(full, SCRIPT).shaders[0];
  assert.deepEqual(a, b);
  const env = { ...shaderEnv(iq), time: 0.3 };
  assert.deepEqual(evaluateStage(iq, a.stages[0], env), evaluateStage(full, b.stages[0], env));
  const deformed = (lib, shader) => {
    const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    deformVertices(lib, shader, env, positions, new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1]));
    return Array.from(positions);
  };
  assert.deepEqual(deformed(iq, a), deformed(full, b));
  assert.notDeepEqual(deformed(iq, a), [0, 0, 0, 1, 0, 0, 0, 1, 0], 'the deform moved the vertices');
});

test('a shader WASM that does not load is an error naming it; one given as bytes loads', async () => {
  const { Interquake } = await import('interquake');
  const missing = new Interquake(lite._wasm, { shaders: new URL('./no-such-shaders.wasm', import.meta.url) });
  await assert.rejects(missing.loadShaderSupport(), (err) => err.code === 'wasm_unavailable' && /no-such-shaders\.wasm/.test(err.message));
  assert.equal(missing.shaderSupport, false);
  const given = new Interquake(lite._wasm, { shaders: readFileSync(new URL('../../../web/interquake-shaders.wasm', import.meta.url)) });
  await given.loadShaderSupport();
  assert.equal(given.shaderSupport, true);
  const none = new Interquake(lite._wasm);
  await assert.rejects(none.loadShaderSupport(), (err) => err.code === 'unsupported');
});
