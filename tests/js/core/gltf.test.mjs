// glTF export (iq.writeGLB) proven by real consumers: the Khronos validator reports nothing for
// every corpus model and player, and three.js's GLTFLoader + AnimationMixer put every vertex where
// the library's own evaluate / sample / player.pose puts it, on frames, between them and across
// the loop seam.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import validator from 'gltf-validator';
import { inflateSync, unzlibSync } from 'fflate';
import { init } from 'interquake';
import { encodePNG, alphaModeOf } from '../../../web/core/images.js';
import { parseGLB, mixerOf, worldPositions, partMeshes, maxDifference, shown, playerVertices } from '../lib/gltf-three.mjs';
import { gameFiles } from '../lib/q3-corpus.mjs';

const iq = await init();
const CORPUS = new URL('../../../../shared/corpus/', import.meta.url);
const read = (path) => new Uint8Array(readFileSync(new URL(path, CORPUS)));
const load = (path) => iq.load(read(path), { name: path });
// Textures next to the model (what options.files as a function is for).
const beside = (path) => (name) => {
  try {
    return read(path.replace(/[^/]*$/, '') + name.replace(/^.*\//, ''));
  } catch {
    return null;
  }
};

async function validate(glb, what) {
  const report = await validator.validateBytes(glb);
  const { numErrors, numWarnings, messages } = report.issues;
  assert.equal(numErrors + numWarnings, 0, `${what}: ${JSON.stringify(messages.filter((m) => m.severity < 2).slice(0, 5))}`);
  return report;
}

const json = (glb) => JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + (glb[12] | (glb[13] << 8) | (glb[14] << 16) | (glb[15] << 24)))));

const MODELS = [
  'iqm/mrfixit/mrfixit.iqm', 'iqm/extension/door2.iqm', 'iqe/unvanquished/weapons/level1/vwep_view.iqe',
  'iqe/unvanquished/missiles/rocket/rocket.iqe', 'iqe/unvanquished/missiles/spike/spike.iqe',
  'iqe/unvanquished/missiles/lockblob/lockblob.iqe', 'md3/assimp/watercan.md3', 'md3/assimp/european_fnt_v2.md3',
];

test('the Khronos validator reports no error and no warning for every corpus model', async () => {
  for (const path of MODELS) {
    const model = load(path);
    const { glb, warnings } = await iq.writeGLB(model, { files: beside(path) });
    await validate(glb, path);
    assert.equal(json(glb).animations?.length ?? 0, model.animations.length, path);
    if (path.includes('mrfixit')) {
      assert.equal(json(glb).images.length, 2, 'Body.tga and Head.tga embedded');
      assert.deepEqual(warnings, []);
    }
    model.dispose();
  }
  // guy + guyanim: animations attached from an animation-only file, and a PNG passed through
  const guy = load('iqm/raylib/guy.iqm');
  const anim = load('iqm/raylib/guyanim.iqm');
  guy.attachAnimations(anim);
  const png = read('iqm/raylib/guytex.png');
  const { glb } = await iq.writeGLB(guy, { files: { Materialcube: png } });
  await validate(glb, 'guy+guyanim');
  const doc = json(glb);
  assert.deepEqual(doc.animations.map((a) => a.name), guy.animations.map((a) => a.name));
  assert.equal(doc.animations.length, 4, "guy's own jump and dance, then guyanim's");
  assert.equal(doc.images[0].mimeType, 'image/png');
  const view = doc.bufferViews[doc.images[0].bufferView];
  assert.equal(view.byteLength, png.length, 'the PNG is embedded byte for byte');
  guy.dispose();
  anim.dispose();
});

test('a missing texture is a warning and a plain material, never a failure', async () => {
  const model = load('md3/assimp/european_fnt_v2.md3');
  const { glb, warnings, missingFiles } = await iq.writeGLB(model, { files: {} });
  await validate(glb, 'european_fnt_v2 without textures');
  assert.ok(missingFiles.includes('models/mapobjects/kt_kubalwagon/european_fnt.tga'), missingFiles.join());
  assert.equal(warnings[0].code, 'missing_file');
  const doc = json(glb);
  assert.equal(doc.images, undefined);
  assert.equal(doc.materials.length, 3, 'one material per shader name (5 surfaces, 3 shaders)');
  model.dispose();
  await assert.rejects(iq.writeGLB({}), { code: 'invalid_argument' });
  const m = load('md3/assimp/watercan.md3');
  await assert.rejects(iq.writeGLB(m, { maxMorphTargets: 0 }), { code: 'invalid_argument' });
  m.dispose();
  await assert.rejects(iq.writeGLB(m), { code: 'disposed' });
});

test('PNG encoder: the pixels come back, RGB when opaque, and the alpha mode follows the pixels', async () => {
  const w = 5;
  const h = 3;
  const rgba = new Uint8Array(w * h * 4).map((_, i) => (i * 37 + (i >> 3) * 11) & 255);
  for (const alpha of [true, false]) {
    const png = await encodePNG(w, h, rgba, { alpha });
    // an independent reader: chunks, inflate, unfilter (filters 0-4)
    const u32 = (at) => ((png[at] << 24) | (png[at + 1] << 16) | (png[at + 2] << 8) | png[at + 3]) >>> 0;
    assert.equal(u32(16), w);
    assert.equal(u32(20), h);
    assert.equal(png[25], alpha ? 6 : 2);
    let at = 8;
    let idat = null;
    while (at < png.length) {
      const len = u32(at);
      const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
      if (type === 'IDAT') idat = png.subarray(at + 8, at + 8 + len);
      at += 12 + len;
    }
    assert.equal(at, png.length);
    const raw = unzlibSync(idat);
    const c = alpha ? 4 : 3;
    const stride = w * c;
    const out = new Uint8Array(h * stride);
    for (let y = 0; y < h; y++) {
      const f = raw[y * (stride + 1)];
      for (let i = 0; i < stride; i++) {
        const a = i >= c ? out[y * stride + i - c] : 0;
        const b = y ? out[(y - 1) * stride + i] : 0;
        const d = i >= c && y ? out[(y - 1) * stride + i - c] : 0;
        const p = a + b - d;
        const pr = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - d) ? a : Math.abs(p - b) <= Math.abs(p - d) ? b : d;
        const pred = [0, a, b, (a + b) >> 1, pr][f];
        out[y * stride + i] = (raw[y * (stride + 1) + 1 + i] + pred) & 255;
      }
    }
    for (let p = 0; p < w * h; p++) for (let k = 0; k < c; k++) assert.equal(out[p * c + k], rgba[p * 4 + k]);
  }
  assert.equal(alphaModeOf(new Uint8Array([1, 2, 3, 255, 4, 5, 6, 255])), 'OPAQUE');
  assert.equal(alphaModeOf(new Uint8Array([1, 2, 3, 0, 4, 5, 6, 255])), 'MASK');
  assert.equal(alphaModeOf(new Uint8Array([1, 2, 3, 128, 4, 5, 6, 255])), 'BLEND');
  assert.ok(inflateSync);
});

// Sample times of a clip: on frames, between them, and across the loop seam.
// (a clip that plays once ends on its last frame: no time past it)
const times = (frames, fps, loop) => [0, 0.5, 1, 2.25, frames / 2 + 0.4, frames - 1, frames - 0.5, frames - 0.1]
  .filter((f) => loop || f <= frames - 1).map((f) => f / fps);

test('three.js: skinned models (mrfixit, vwep_view, guy+guyanim) match sample() at every time', async () => {
  const cases = [['iqm/mrfixit/mrfixit.iqm', 'idle'], ['iqe/unvanquished/weapons/level1/vwep_view.iqe', 'idle'],
    ['iqe/unvanquished/weapons/level1/vwep_view.iqe', 'fire2'], ['iqm/raylib/guy.iqm', 'dance']];
  for (const [path, clipName] of cases) {
    const model = load(path);
    let anim = null;
    if (path.includes('guy')) {
      anim = load('iqm/raylib/guyanim.iqm');
      model.attachAnimations(anim);
    }
    const gltf = await parseGLB((await iq.writeGLB(model)).glb);
    const mixer = mixerOf(gltf);
    mixer.play(clipName, { loop: model.animations[model.findAnimation(clipName)].loop });
    const mesh = gltf.scene.getObjectByProperty('isSkinnedMesh', true);
    assert.equal(mesh.geometry.attributes.position.count, model.vertexCount);
    const a = model.animations[model.findAnimation(clipName)];
    const size = Math.max(1, model.bounds.radius);
    for (const t of times(a.frameCount, a.framerate, a.loop)) {
      mixer.at(t);
      const ours = model.sample(clipName, t, { rotation: 'slerp' }).positions;
      const d = maxDifference(worldPositions(mesh), ours);
      assert.ok(d < 1e-4 * size, `${path} ${clipName} at ${t}: off by ${d} (size ${size})`);
    }
    model.dispose();
    anim?.dispose();
  }
});

test('three.js: an MD3 animation in morph chunks matches sample(), across chunk boundaries and the loop seam', async () => {
  const model = load('md3/openarena/models/players/sarge/upper.md3');
  const a = model.animations[0];
  assert.ok(a.loop && a.frameCount > 100);
  for (const maxMorphTargets of [undefined, 40]) {
    const { glb } = await iq.writeGLB(model, { maxMorphTargets });
    await validate(glb, `upper.md3 max ${maxMorphTargets}`);
    const gltf = await parseGLB(glb);
    const clip = gltf.animations[0];
    // the seam key: a looping clip lasts frameCount / fps, its last step blends the last frame into the first
    assert.ok(Math.abs(clip.duration - a.frameCount / a.framerate) < 1e-5, `duration ${clip.duration}`);
    const mixer = mixerOf(gltf);
    mixer.play(clip.name);
    const size = Math.max(1, model.bounds.radius);
    const chunk = maxMorphTargets ?? 255;
    const frames = [0, 0.5, chunk - 0.5, chunk, chunk + 0.25, a.frameCount - 1, a.frameCount - 0.5, a.frameCount - 0.2];
    for (const f of frames) {
      const t = f / a.framerate;
      mixer.at(t);
      const visible = partMeshes(gltf, 'upper').filter(shown);
      assert.equal(visible.length, 1, `one mesh shown at ${t}`);
      const ours = model.sample(0, t).positions;
      const d = maxDifference(worldPositions(visible[0]), ours);
      assert.ok(d < 1e-4 * size, `upper.md3 (max ${maxMorphTargets}) at frame ${f}: off by ${d}`);
    }
  }
  model.dispose();
});


test('three.js: the sarge player (lower -> upper -> head on tags) matches player.pose, legs and torso clips at once', async () => {
  const files = gameFiles();
  const player = iq.loadPlayer(files, {});
  const { glb, warnings } = await iq.writeGLB(player);
  assert.deepEqual(warnings, []);
  const doc = json(glb);
  const ex = doc.scenes[0].extras.quake3Player;
  assert.equal(ex.sex, player.config.sex);
  assert.equal(ex.footsteps, player.config.footsteps);
  assert.equal(ex.legsOffset, player.config.legsSkip);
  const run = doc.animations.find((a) => a.name === 'LEGS_RUN');
  const cfgRun = player.animation('LEGS_RUN');
  assert.equal(run.extras.quake3.loopFrames, cfgRun.loopFrames);
  assert.equal(run.extras.quake3.fps, cfgRun.fps);
  assert.equal(run.extras.quake3.part, 'legs');
  assert.equal(doc.images.length, 1, 'one texture (grism/enkiskin.tga) shared by the three surfaces, embedded once');
  assert.equal(doc.materials.length, 1);
  const gltf = await parseGLB(glb);
  const mixer = mixerOf(gltf);
  const size = Math.max(1, player.parts.lower.model.bounds.radius * 2);
  for (const [legs, torso] of [['LEGS_RUN', 'TORSO_STAND'], ['BOTH_DEATH1', 'BOTH_DEATH1'], ['LEGS_IDLE', 'TORSO_ATTACK']]) {
    mixer.play([...new Set([legs, torso])], { loop: (name) => player.animation(name).loopFrames > 0 });
    const la = player.animation(legs);
    const lerpMs = la.frameLerp / 1000;
    for (const f of [0, 0.5, 1, 3.25, la.frameCount - 1, la.frameCount - 0.5].filter((k) => la.loopFrames || k <= la.frameCount - 1)) {
      const t = f * lerpMs;
      mixer.at(t);
      const pose = player.pose({ legs: { animation: legs, time: t }, torso: { animation: torso, time: t } });
      for (const part of ['lower', 'upper', 'head']) {
        const visible = partMeshes(gltf, part).filter(shown);
        assert.equal(visible.length, 1, `${legs}/${torso} ${part} at ${t}: ${visible.length} meshes shown`);
        const d = maxDifference(worldPositions(visible[0]), playerVertices(player, part, pose[part]), pose[part].matrix);
        // between frames glTF slerps the tags where Quake 3 lerps and re-orthonormalises
        assert.ok(d < 1e-4 * size, `${legs}/${torso} ${part} at frame ${f}: off by ${d} (size ${size})`);
      }
    }
  }
  for (const skin of ['red', 'blue']) await validate((await iq.writeGLB(player, { skin })).glb, `sarge ${skin}`);
  await validate((await iq.writeGLB(player, { lod: 1 })).glb, 'sarge lod 1');
  await validate(glb, 'sarge default');
  player.dispose();
});

test('a player without animation.cfg gets one looping clip per animated part', async () => {
  const files = gameFiles();
  files.delete('models/players/sarge/animation.cfg');
  const player = iq.loadPlayer(files, {});
  const { glb } = await iq.writeGLB(player, { skin: null });
  await validate(glb, 'sarge without animation.cfg');
  const doc = json(glb);
  assert.deepEqual(doc.animations.map((a) => a.name), ['lower', 'upper']);
  assert.equal(doc.scenes[0].extras.quake3Player.animationCfg, false);
  player.dispose();
});
