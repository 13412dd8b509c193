// Quake 3 shader scripts through the WASM: web/quake3/shaders.js parses scripts into plain objects
// (enum names from the C tables), finds shaders across scripts as Quake 3 does, reports a bad script
// without losing the others, and evaluates a stage per frame. The parser's and the maths' rules are
// tested natively in tests/c/test_shader.c; these check the C/JS boundary carries them intact.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init, InterquakeError } from 'interquake';
import { parseShaderScript, parseShaders, shaderKey, shaderEnv, evaluateStage, waveValue, deformVertices, autospriteVertices, stageColors } from '../../../web/quake3/shaders.js';
import { buildZip } from '../lib/zip-build.mjs';

const iq = await init();
const fixture = (name) => readFileSync(new URL(`../../fixtures/shaders/${name}`, import.meta.url));

test('a script reads back with every enum named', () => {
  const s = parseShaderScript(iq, fixture('every_keyword.shader'), { name: 'every_keyword.shader' });
  assert.equal(s.shaders.length, 2);
  assert.equal(s.stageCount, 9);
  const [all, sprite] = s.shaders;
  assert.equal(all.name, 'models/test/all.tga');
  assert.equal(all.cull, 'none');
  assert.equal(all.sortName, 'additive');
  assert.deepEqual(all.flags, ['nomipmaps', 'nopicmip', 'polygonOffset', 'entityMergable']);
  assert.deepEqual(all.deforms.map((d) => d.type), ['wave', 'normal', 'bulge']);
  assert.ok(Math.abs(all.deforms[0].spread - 0.01) < 1e-7);
  const [lit, glow, anim, white] = all.stages;
  assert.equal(lit.rgbGen, 'lightingDiffuse');
  assert.equal(lit.alphaFunc, 'GE128');
  assert.equal(lit.depthWrite, true);
  assert.deepEqual(lit.images, ['models/test/skin.tga']);
  assert.equal(glow.clamp, true);
  assert.equal(glow.blendSrc, 'GL_ONE');
  assert.equal(glow.blendDst, 'GL_ONE');
  assert.equal(glow.depthWrite, false);
  assert.deepEqual(glow.rgbWave, { func: 'triangle', base: 0.25, amplitude: 0.75, phase: Math.fround(0.1), frequency: 2 });
  assert.equal(glow.tcGen, 'environment');
  assert.deepEqual(glow.tcMods.map((m) => m.type), ['scroll', 'scale', 'rotate', 'stretch']);
  assert.deepEqual(anim.images, ['models/test/f1.tga', 'models/test/f2.tga', 'models/test/f 3.tga']);
  assert.equal(anim.animFrequency, 4);
  assert.equal(anim.blendSrc, 'GL_SRC_ALPHA');
  assert.equal(anim.blendDst, 'GL_ONE_MINUS_SRC_ALPHA');
  assert.equal(anim.depthFunc, 'equal');
  assert.deepEqual(anim.tcMods.map((m) => m.type), ['transform', 'turb', 'entityTranslate']);
  assert.equal(white.map, 'white');
  assert.equal(white.alphaGen, 'vertex');
  assert.equal(sprite.cull, 'back');
  assert.equal(sprite.sort, 12.5);
  assert.equal(sprite.sortName, null);
  assert.deepEqual(s.notes, []);
});

test('unknown keywords are notes with their line; errors carry line and column', () => {
  const s = parseShaderScript(iq, 'a\n{\n  glowMap x 2\n  { map a.tga\n    rgbGen bogus }\n}\n');
  assert.equal(s.shaders[0].stages.length, 1);
  assert.deepEqual(s.notes.map((n) => [n.kind, n.keyword, n.line, n.shader]), [
    ['unknown_keyword', 'glowMap', 3, 'a'], ['unknown_value', 'bogus', 5, 'a']]);
  assert.match(s.notes[0].detail, /x 2/);
  assert.throws(() => parseShaderScript(iq, 'a {\n { map x\n   tcMod scroll fast 1\n } }', { name: 'bad.shader' }),
    (e) => e instanceof InterquakeError && e.code === 'syntax' && e.line === 3 && e.column === 17 && e.file === 'bad.shader' &&
      /fast/.test(e.message));
});

test('an archive\'s scripts: the later-listed script wins, extensions and case ignored, bad scripts reported', async () => {
  const zip = buildZip([
    { name: 'scripts/a.shader', data: 'models/players/x/band { { map first.tga } }\n', deflate: true },
    { name: 'scripts/sub/ignored.shader', data: 'models/players/x/skin { { map no.tga } }\n' },
    { name: 'scripts/b.shader', data: 'models/players/x/band { { map second.tga } }\nModels/Players/X/Band { { map dup.tga } }\n' },
    { name: 'scripts/broken.shader', data: 'models/players/x/broken { { map x\n' },
    { name: 'models/players/x/lower.md3', data: 'not a shader' },
  ]);
  const archive = await iq.openArchive(zip.bytes);
  const set = parseShaders(iq, archive);
  assert.deepEqual(set.scripts.map((s) => s.file), ['scripts/a.shader', 'scripts/b.shader']);
  assert.equal(set.errors.length, 1);
  assert.equal(set.errors[0].file, 'scripts/broken.shader');
  assert.equal(set.errors[0].error.code, 'truncated');
  // Quake 3 joins the files in reverse listing order and takes the first block: b's first one
  assert.deepEqual(set.find('MODELS\\players\\x\\BAND.tga').stages[0].images, ['second.tga']);
  assert.equal(set.find('models/players/x/skin'), null, 'only scripts/*.shader, not subfolders');
  assert.equal(set.find('models/players/x/none'), null);
  assert.equal(shaderKey('a/b.c/d.TGA'), 'a/b.c/d');
  // a file set works the same way
  const files = parseShaders(iq, { 'scripts/p.shader': fixture('player.shader'), 'other.txt': 'x' });
  assert.equal(files.find('models/players/sarge/visor.tga').stages[1].alphaGen, 'lightingSpecular');
});

test('per-frame maths through the WASM: a stage\'s colour, matrices and frame', () => {
  const sarge = parseShaderScript(iq, fixture('player.shader')).shaders[1];
  const env = shaderEnv(iq, { time: 0 });
  assert.deepEqual(env.ambientLight, [182, 182, 182]);
  // rgbGen wave sin 0.5 0.5 0 1. At t = 0.25: entry 256 = sin(90.088 deg) = 0.99999882, so
  // 0.5 + 0.5 * that = 0.99999941 -> 254.99985 -> byte 254 (not 255). At t = 0: 0.5 -> 127.
  // tcMod scroll 0 1 at t = 0.25: t translated by 0.25.
  const glow = evaluateStage(iq, sarge.stages[1], { ...env, time: 0.25 });
  assert.equal(glow.color[0], Math.fround(254 / 255));
  const atZero = evaluateStage(iq, sarge.stages[1], env);
  assert.equal(atZero.color[0], Math.fround(127 / 255));
  assert.equal(atZero.color[3], 1);
  assert.deepEqual(atZero.perVertex, { rgb: false, alpha: false });
  assert.deepEqual(glow.before, [1, 0, 0, 1, 0, 0.25]);
  const lit = evaluateStage(iq, sarge.stages[0], env);
  assert.deepEqual(lit.perVertex, { rgb: true, alpha: false });
  // animMap 4 fps, 3 frames at t = 0.6: (int64)(0.6 * 4 * 1024) >> 10 = 2
  const anim = parseShaderScript(iq, fixture('every_keyword.shader')).shaders[0].stages[2];
  assert.equal(evaluateStage(iq, anim, { ...env, time: 0.6 }).frame, 2);
  assert.equal(evaluateStage(iq, anim, { ...env, time: 0.6 }).turbCount, 1);
  assert.throws(() => evaluateStage(iq, anim, { ...env, time: NaN }), (e) => e.code === 'invalid_argument');
  // square 0 2 0 1 at t = 0.6: entry 614 -> -1 -> -2
  assert.equal(waveValue(iq, { func: 'square', base: 0, amplitude: 2, phase: 0, frequency: 1 }, 0.6), -2);
});

test('deformVertices: move and wave through the C, in place; autosprite left to the renderer', () => {
  const [shader] = parseShaderScript(iq, 'x\n{\n deformVertexes move 1 2 0 sin 0 3 0 0.25\n deformVertexes wave 100 square 1 0 0 0\n deformVertexes autosprite\n}\n').shaders;
  const positions = new Float32Array([0, 0, 0, 5, 0, 0]);
  const normals = new Float32Array([0, 0, 1, 0, 0, 1]);
  const env = { ...shaderEnv(iq), time: 1 };
  const skipped = deformVertices(iq, shader, env, positions, normals);
  const move = waveValue(iq, shader.deforms[0].wave, 1); // sin at a quarter turn
  assert.ok(move > 2.99);
  // move adds (1, 2, 0) * wave; wave (frequency 0: one value) moves 1 along the normal.
  assert.deepEqual([...positions].map((x) => +x.toFixed(4)), [move, 2 * move, 1, 5 + move, 2 * move, 1].map((x) => +x.toFixed(4)));
  assert.equal(skipped, 1);
  assert.throws(() => deformVertices(iq, shader, env, positions, new Float32Array(3)), TypeError);
});

test('stageColors: lightingDiffuse per vertex, ambient where the light does not reach', () => {
  const [stage] = parseShaderScript(iq, 'x\n{\n { map $whiteimage\n rgbGen lightingDiffuse\n }\n}\n').shaders[0].stages;
  const env = { ...shaderEnv(iq), lightDir: [0, 0, 1] };
  const c = stageColors(iq, stage, env, new Float32Array(6), new Float32Array([0, 0, 1, 0, 0, -1]));
  assert.deepEqual([...c].map((x) => Math.round(x * 255)), [255, 255, 255, 255, 182, 182, 182, 255]); // 182 + 150 clamped; ambient
});

test('autospriteVertices: quads turned toward the view by the C (iq_shader_autosprite), in place', () => {
  // Looking along +Y (left -X, up +Z): a flat square round (10, 20, 30) becomes a square facing the
  // view, radius |corner - centre| * 0.707, st at its corners, vertex 0's colour, two triangles.
  const axes = [[0, 1, 0], [-1, 0, 0], [0, 0, 1]];
  const positions = new Float32Array([12, 22, 30, 8, 22, 30, 8, 18, 30, 12, 18, 30]);
  const normals = new Float32Array(12);
  const texcoords = new Float32Array(8);
  const colors = Float32Array.from({ length: 16 }, (_, i) => i / 16);
  const triangles = autospriteVertices(iq, 'autosprite', axes, { positions, normals, texcoords, colors, indices: [0, 1, 2, 0, 2, 3] });
  const r = Math.fround(Math.fround(Math.sqrt(8)) * Math.fround(0.707));
  const want = [10 - r, 20, 30 + r, 10 + r, 20, 30 + r, 10 + r, 20, 30 - r, 10 - r, 20, 30 - r];
  positions.forEach((v, i) => assert.ok(Math.abs(v - want[i]) < 1e-5, `corner coordinate ${i}: ${v}, not ${want[i]}`));
  assert.deepEqual([...triangles], [0, 1, 3, 3, 1, 2]);
  assert.deepEqual([...texcoords], [0, 0, 1, 0, 1, 1, 0, 1]);
  assert.deepEqual([...normals.subarray(0, 3)], [-0, -1, -0]);
  assert.deepEqual([...colors.subarray(12, 16)], [...colors.subarray(0, 4)]);
  // autosprite2: a 2 x 10 strip along Z seen edge on pivots to face the view; only positions move,
  // and its own triangles are drawn.
  const strip = new Float32Array([0, -1, -5, 0, 1, -5, 0, 1, 5, 0, -1, 5]);
  const own = [0, 1, 3, 3, 1, 2];
  const drawn = autospriteVertices(iq, 'autosprite2', axes, { positions: strip, normals: new Float32Array(12), indices: own });
  assert.deepEqual([...drawn], own);
  // Short edges 0-1 and 2-3 (their middles (0, 0, -5) and (0, 0, 5): the long axis Z), minor axis
  // normalize(Z x forward) = -X; the triangles run 0 -> 1 (so 0 goes to middle - minor) but never
  // 2 -> 3 (so 2 goes to middle + minor): a rectangle in the XZ plane, facing the view.
  assert.deepEqual([...strip].map((v) => Math.round(v * 1e5) / 1e5 + 0), [1, 0, -5, -1, 0, -5, -1, 0, 5, 1, 0, 5]);
});
