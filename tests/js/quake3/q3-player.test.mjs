// The OpenArena sarge player end to end through loadPlayer: from loose files and from a pk3
// built in the test. Answers come from independent sources: skin files split by hand, MD3
// headers and tags read straight from the bytes (lib/md3-tags.mjs), and a step-by-step
// simulation of cgame's CG_RunLerpFrame (lib/q3-lerpframe.mjs, written from formats.md section 2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init, InterquakeError } from 'interquake';
import { gameFiles, relativeFiles, sargePk3, SARGE, GRISM } from '../lib/q3-corpus.mjs';
import { readMd3Tags, tagMatrix4, mul4, apply4 } from '../lib/md3-tags.mjs';
import { LerpFrame } from '../lib/q3-lerpframe.mjs';

const iq = await init();
const files = gameFiles();
const bytesOf = (name) => files.get(`${SARGE}/${name}`);
const lowerInfo = readMd3Tags(bytesOf('lower.md3'));
const upperInfo = readMd3Tags(bytesOf('upper.md3'));
const SKINS = ['default', 'red', 'blue', 'classic', 'classicblue', 'classicred', 'indigo'];

function closeMatrix(actual, expected, tolerance, what) {
  for (let i = 0; i < 16; i++) {
    assert.ok(Math.abs(actual[i] - expected[i]) <= tolerance, `${what}: element ${i} is ${actual[i]}, expected ${expected[i]}`);
  }
}

test('sarge loads from loose files: parts, LODs, skins, no missing files', () => {
  const player = iq.loadPlayer(relativeFiles());
  assert.equal(player.skin, 'default');
  assert.deepEqual(player.skins, SKINS);
  assert.deepEqual(player.lods, [0, 1, 2]);
  assert.deepEqual(player.missingFiles, []);
  assert.deepEqual(player.warnings, []);
  assert.equal(player.parts.lower.model.frameCount, lowerInfo.frames);
  assert.equal(player.parts.upper.model.frameCount, upperInfo.frames);
  assert.equal(player.parts.head.model.format, 'md3');
  assert.deepEqual(player.config, { sex: 'm', footsteps: 'normal', headOffset: [0, 0, 0], fixedLegs: false, fixedTorso: false, legsSkip: 63, tableEntries: 25 });
  player.dispose();
});

test('every skin resolves every surface to the texture its .skin file names', () => {
  const player = iq.loadPlayer(relativeFiles());
  for (const skin of SKINS) {
    const resolved = player.resolveSkin(skin);
    assert.deepEqual(resolved.missingFiles, [], skin);
    for (const part of ['lower', 'upper', 'head']) {
      // the skin file split by hand: "surface,path" lines, tag lines skipped
      const text = new TextDecoder().decode(bytesOf(`${part}_${skin}.skin`));
      const lines = text.split(/\r?\n/).map((l) => l.split(',')).filter(([s, p]) => !s.includes('tag_') && p);
      assert.equal(lines.length, 1, `${part}_${skin}.skin`);
      const [surface, path] = lines[0];
      const surfaces = resolved.surfaces[part];
      assert.equal(surfaces.length, 1);
      assert.equal(surfaces[0].name.toLowerCase(), surface);
      assert.equal(surfaces[0].source, 'skin');
      assert.equal(surfaces[0].texture, path, `${skin} ${part}`);
      assert.ok(files.has(surfaces[0].texture) && path.startsWith(`${GRISM}/`));
      assert.ok(player.readFile(surfaces[0].texture).length > 0);
    }
  }
  player.dispose();
});

test('every animation fits its part, with the legs offset and derived animations as cgame makes them', () => {
  const player = iq.loadPlayer(relativeFiles());
  assert.equal(player.animations.length, 33);
  for (const a of player.animations) {
    const counts = a.part === 'legs' ? [lowerInfo.frames] : a.part === 'torso' ? [upperInfo.frames] : [lowerInfo.frames, upperInfo.frames];
    for (const count of counts) assert.ok(a.firstFrame >= 0 && a.firstFrame + a.frameCount <= count, `${a.name} in ${count} frames`);
    assert.equal(a.fits, true);
  }
  // from animation.cfg by hand: skip = 153 - 90 = 63
  const expect = {
    BOTH_DEATH1: [0, 30, 0, 40], TORSO_GESTURE: [90, 40, 0, 76], TORSO_STAND2: [152, 1, 0, 66],
    LEGS_WALKCR: [90, 8, 8, 50], LEGS_SWIM: [185 - 63, 10, 10, 66], LEGS_TURN: [191, 7, 7, 55],
    LEGS_BACKCR: [90, 8, 8, 50], LEGS_BACKWALK: [98, 12, 12, 50], TORSO_NEGATIVE: [90, 40, 0, 76],
  };
  for (const [name, [first, count, loop, lerp]] of Object.entries(expect)) {
    const a = player.animation(name);
    assert.deepEqual([a.firstFrame, a.frameCount, a.loopFrames, a.frameLerp], [first, count, loop, lerp], name);
  }
  assert.equal(player.animation('LEGS_BACKWALK').reversed, true);
  assert.equal(player.animation('LEGS_WALK').reversed, false);
  player.dispose();
});

// cgame's lerp frame stepped one millisecond at a time from the moment the animation starts, as a
// new entity's (no frame yet); what it shows at each millisecond.
function simulateLerpFrames(anim, until) {
  const lf = new LerpFrame(anim, { frame: -1, frameTime: -anim.frameLerp });
  const shown = [];
  for (let time = 0; time <= until; time++) {
    const { a, b, t } = lf.run(time);
    shown.push({ from: a, to: b, lerp: t });
  }
  return shown;
}

test('pose() steps frames exactly as CG_RunLerpFrame: loops, holds the last frame, runs reversed', () => {
  const player = iq.loadPlayer(relativeFiles());
  const cases = [
    ['legs', 'LEGS_RUN'], ['legs', 'LEGS_BACKWALK'], ['legs', 'LEGS_JUMP'], ['legs', 'LEGS_TURN'],
    ['torso', 'TORSO_GESTURE'], ['torso', 'TORSO_ATTACK'], ['torso', 'TORSO_STAND'], ['both', 'BOTH_DEATH2'],
  ];
  for (const [part, name] of cases) {
    const anim = player.animation(name);
    const until = Math.min(anim.frameCount * anim.frameLerp * 2 + 300, 4000);
    const expected = simulateLerpFrames(anim, until);
    for (let ms = 0; ms <= until; ms++) {
      const pose = player.pose({ [part === 'both' ? 'both' : part]: { animation: name, time: ms / 1000 } });
      const got = part === 'torso' ? pose.upper : pose.lower;
      // compare what is shown: one whole frame, or the same pair of frames at the same weight
      const shown = ({ from, to, lerp }) => (lerp === 0 || from === to ? [from] : lerp === 1 ? [to] : [from, to, lerp]);
      const want = shown(expected[ms]);
      const have = shown(got);
      assert.equal(have.length, want.length, `${name} at ${ms} ms: ${have} vs ${want}`);
      assert.deepEqual(have.slice(0, 2), want.slice(0, 2), `${name} at ${ms} ms`);
      if (want.length === 3) assert.ok(Math.abs(have[2] - want[2]) < 1e-9, `${name} at ${ms} ms: lerp ${have[2]} vs ${want[2]}`);
      if (part === 'both') assert.deepEqual([pose.upper.from, pose.upper.to], [pose.lower.from, pose.lower.to]);
    }
  }
  // spot checks by hand: LEGS_RUN (110, 9 frames, 66 ms) at 200 ms is 3 frames + 2/66 in
  const run = player.pose({ legs: { animation: 'LEGS_RUN', time: 0.2 } }).lower;
  assert.deepEqual([run.from, run.to], [113, 114]);
  assert.ok(Math.abs(run.frame - (113 + 2 / 66)) < 1e-9);
  // TORSO_GESTURE (90, 40 frames, no loop) holds 129 from 39 * 76 ms on
  assert.equal(player.pose({ torso: { animation: 'TORSO_GESTURE', time: 100 } }).upper.frame, 129);
  // LEGS_BACKWALK runs 109 down to 98, then loops: at one frame time in it shows 108
  assert.equal(player.pose({ legs: { animation: 'LEGS_BACKWALK', time: 0.05 } }).lower.frame, 108);
  assert.ok(Math.abs(player.pose({ legs: { animation: 'LEGS_BACKWALK', time: 0.075 } }).lower.frame - 107.5) < 1e-9);
  player.dispose();
});

test('tags place upper on lower\'s tag_torso and head on upper\'s tag_head, legs and torso independent', () => {
  const player = iq.loadPlayer(relativeFiles());
  const torsoTags = lowerInfo.tags.get('tag_torso');
  const headTags = upperInfo.tags.get('tag_head');
  for (const [lf, uf] of [[0, 0], [110, 130], [191, 151], [212, 154], [40, 10]]) {
    const pose = player.pose({ legs: { frame: lf }, torso: { frame: uf } });
    assert.equal(pose.lower.frame, lf);
    assert.equal(pose.upper.frame, uf);
    closeMatrix(pose.lower.matrix, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], 0, 'lower');
    const upper = tagMatrix4(torsoTags[lf]);
    const head = mul4(upper, tagMatrix4(headTags[uf]));
    closeMatrix(pose.upper.matrix, upper, 1e-3, `upper at legs frame ${lf}`);
    closeMatrix(pose.head.matrix, head, 1e-3, `head at ${lf}/${uf}`);
    for (const k of [12, 13, 14]) {
      assert.ok(Math.abs(pose.upper.matrix[k] - upper[k]) < 1e-4, 'torso origin');
      assert.ok(Math.abs(pose.head.matrix[k] - head[k]) < 2e-3, 'head origin');
    }
  }
  // the torso does not move when only the torso animation changes, and vice versa
  const a = player.pose({ legs: { animation: 'LEGS_RUN', time: 0.3 }, torso: { animation: 'TORSO_STAND', time: 0 } });
  const b = player.pose({ legs: { animation: 'LEGS_RUN', time: 0.3 }, torso: { animation: 'TORSO_ATTACK', time: 0.1 } });
  assert.deepEqual(a.upper.matrix, b.upper.matrix);
  assert.notDeepEqual(a.head.matrix, b.head.matrix);
  // between frames: the origin is the straight blend of the two frames' origins
  const mid = player.pose({ legs: { frame: 110.25 } });
  for (let k = 0; k < 3; k++) {
    const want = torsoTags[110].origin[k] * 0.75 + torsoTags[111].origin[k] * 0.25;
    assert.ok(Math.abs(mid.upper.matrix[12 + k] - want) < 1e-4);
  }
  player.dispose();
});

test('the loop seam (last frame back to the loop start) blends the two tags', () => {
  const player = iq.loadPlayer(relativeFiles());
  const run = player.animation('LEGS_RUN'); // frames 110..118, loops all 9
  const pose = player.pose({ legs: { animation: 'LEGS_RUN', time: (8.5 * run.frameLerp) / 1000 } });
  assert.deepEqual([pose.lower.from, pose.lower.to, pose.lower.lerp], [118, 110, 0.5]);
  const tags = lowerInfo.tags.get('tag_torso');
  for (let k = 0; k < 3; k++) {
    const want = (tags[118].origin[k] + tags[110].origin[k]) / 2;
    assert.ok(Math.abs(pose.upper.matrix[12 + k] - want) < 1e-4, 'seam origin');
  }
  const m = pose.upper.matrix; // axes stay orthonormal
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const dot = m[i * 4] * m[j * 4] + m[i * 4 + 1] * m[j * 4 + 1] + m[i * 4 + 2] * m[j * 4 + 2];
      assert.ok(Math.abs(dot - (i === j ? 1 : 0)) < 1e-5);
    }
  }
  player.dispose();
});

test('the head ends above the torso above the legs', () => {
  const player = iq.loadPlayer(relativeFiles());
  for (const state of [{}, { legs: { animation: 'LEGS_RUN', time: 0.4 }, torso: { animation: 'TORSO_ATTACK', time: 0.1 } }]) {
    const pose = player.pose(state);
    const stats = {};
    for (const part of ['lower', 'upper', 'head']) {
      const { model } = player.parts[part];
      const positions = model.evaluate(pose[part].frame).positions;
      let sum = 0;
      let min = Infinity;
      let max = -Infinity;
      for (let v = 0; v < model.vertexCount; v++) {
        const z = apply4(pose[part].matrix, [positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]])[2];
        sum += z;
        min = Math.min(min, z);
        max = Math.max(max, z);
      }
      stats[part] = { mean: sum / model.vertexCount, min, max };
    }
    assert.ok(stats.head.mean > stats.upper.mean && stats.upper.mean > stats.lower.mean, JSON.stringify(stats));
    assert.ok(stats.head.min > stats.lower.max, 'the head is clear of the legs');
  }
  player.dispose();
});

test('from a pk3: the same player, found by its game path', async () => {
  const archive = await iq.openArchive(sargePk3().bytes, { name: 'sarge.pk3' });
  const player = iq.loadPlayer(archive, { skin: 'red', lod: 1 });
  assert.equal(player.path, SARGE);
  assert.equal(player.name, 'sarge');
  assert.equal(player.skin, 'red');
  assert.equal(player.parts.lower.path, `${SARGE}/lower_1.md3`);
  assert.deepEqual(player.missingFiles, []);
  assert.equal(player.surfaces.upper[0].texture, `${GRISM}/redskin.tga`);
  assert.equal(player.pose({ legs: { animation: 'LEGS_IDLE', time: 0 } }).lower.frame, 234 - 63);
  player.dispose();
  // full game paths in a plain object work the same way
  const fromObject = iq.loadPlayer(Object.fromEntries(files), { skin: 'blue' });
  assert.equal(fromObject.path, SARGE);
  assert.equal(fromObject.surfaces.head[0].texture, `${GRISM}/blueskin.tga`);
  fromObject.dispose();
});

test('texture lookup the Quake 3 way: other extensions, appended extensions, backslashes, shader names', () => {
  const base = relativeFiles();
  const enki = base[`${GRISM}/enkiskin.tga`];
  const variant = (changes) => {
    const f = { ...base, ...changes };
    for (const [k, v] of Object.entries(changes)) if (v === undefined) delete f[k];
    return f;
  };
  // the skin names .tga, only a .jpg exists
  let player = iq.loadPlayer(variant({ [`${GRISM}/enkiskin.tga`]: undefined, [`${GRISM}/ENKISKIN.JPG`]: enki }));
  assert.equal(player.surfaces.lower[0].texture, `${GRISM}/ENKISKIN.JPG`);
  assert.deepEqual(player.missingFiles, []);
  player.dispose();
  // a custom skin: backslashes, no extension, "glass.tga" stored as "glass.tga.tga"
  const skin = (surface, path) => new TextEncoder().encode(`${surface},${path}\r\ntag_torso,\r\n`);
  player = iq.loadPlayer(variant({
    'lower_glass.skin': skin('l_legs', 'models\\Players\\grism\\enkiskin.tga'),
    'upper_glass.skin': skin('u_torso', 'models/players/grism/glass.tga'),
    'head_glass.skin': skin('h_head', 'models/players/grism/photo'),
    [`${GRISM}/glass.tga.tga`]: enki,
    [`${GRISM}/photo.png`]: enki,
  }), { skin: 'glass' });
  assert.deepEqual(player.skins, ['default', 'red', 'blue', 'classic', 'classicblue', 'classicred', 'glass', 'indigo']);
  assert.deepEqual(player.surfaces.lower[0].texture, `${GRISM}/enkiskin.tga`);
  assert.deepEqual(player.surfaces.upper[0].texture, `${GRISM}/glass.tga.tga`);
  assert.deepEqual(player.surfaces.head[0].texture, `${GRISM}/photo.png`);
  player.dispose();
  // no skin: the MD3's own shader names, which do not exist here: listed, never thrown
  player = iq.loadPlayer(base, { skin: null });
  assert.equal(player.skin, null);
  assert.deepEqual(player.surfaces.lower.map((s) => [s.source, s.shader, s.texture]), [['shader', 'models/players/grismlambert2SG', null]]);
  assert.ok(player.missingFiles.includes('models/players/grismlambert2SG'));
  assert.ok(player.missingFiles.some((f) => /lambert2SG$/.test(f) && f.includes('doom')));
  player.dispose();
});

test('missing files are listed, not thrown: textures, skins, animation.cfg, LODs', () => {
  const base = relativeFiles();
  const without = (...names) => Object.fromEntries(Object.entries(base).filter(([k]) => !names.includes(k)));
  let player = iq.loadPlayer(without(`${GRISM}/redskin.tga`), { skin: 'red' });
  assert.deepEqual(player.missingFiles, [`${GRISM}/redskin.tga`]);
  assert.equal(player.surfaces.lower[0].texture, null);
  assert.equal(player.resolveSkin('blue').missingFiles.length, 0);
  player.dispose();
  player = iq.loadPlayer(without('head_red.skin'), { skin: 'red' });
  // the head falls back to its default skin (cgame's last resort); the red one is still reported missing
  assert.deepEqual(player.missingFiles, ['head_red.skin']);
  assert.equal(player.skinFiles.head, 'head_default.skin');
  assert.equal(player.surfaces.head[0].source, 'skin');
  player.dispose();
  player = iq.loadPlayer(without('head_red.skin', 'head_default.skin'), { skin: 'red' });
  // no default either: the MD3 shader name, an artist's disk path that is not here either
  assert.deepEqual(player.missingFiles, ['head_red.skin', 'E:/projects/oa/baseq3/models/players/doom/lambert2SG']);
  assert.equal(player.skinFiles.head, null);
  assert.equal(player.surfaces.head[0].source, 'shader');
  player.dispose();
  player = iq.loadPlayer(base, { skin: 'purple' });
  assert.equal(player.skin, 'default');
  assert.match(player.warnings[0].message, /no skin 'purple'/);
  player.dispose();
  player = iq.loadPlayer(without('animation.cfg'));
  assert.deepEqual(player.animations, []);
  assert.deepEqual(player.missingFiles, ['animation.cfg']);
  assert.equal(player.pose({ legs: { frame: 3 }, torso: { frame: 4 } }).upper.frame, 4);
  assert.throws(() => player.pose({ legs: { animation: 'LEGS_RUN', time: 0 } }), (e) => e.code === 'invalid_argument');
  player.dispose();
  player = iq.loadPlayer(without('lower_2.md3'), { lod: 2 });
  assert.equal(player.parts.lower.path, 'lower.md3');
  assert.equal(player.parts.upper.path, 'upper_2.md3');
  assert.deepEqual(player.missingFiles, ['lower_2.md3']);
  player.dispose();
});

test('a part found only as another LOD is used, with a warning naming the file', () => {
  const base = relativeFiles();
  const onlyLod1 = Object.fromEntries(Object.entries(base).filter(([path]) => path !== 'upper.md3' && path !== 'upper_2.md3'));
  const player = iq.loadPlayer(onlyLod1);
  assert.equal(player.parts.upper.path, 'upper_1.md3');
  assert.ok(player.warnings.some((w) => w.code === 'repaired' && /upper\.md3 is missing; using upper_1\.md3/.test(w.message)),
    JSON.stringify(player.warnings));
  const reference = iq.load(base['upper_1.md3']);
  assert.equal(player.parts.upper.model.vertexCount, reference.vertexCount);
  const pose = player.pose({ torso: { animation: 'TORSO_STAND', time: 0.2 } });
  assert.ok(pose.head.matrix.every(Number.isFinite));
  reference.dispose();
  player.dispose();
});

test('bad player input: missing parts and bad animation.cfg throw with the file; wrong parts and times are argument errors', () => {
  const base = relativeFiles();
  // A part in no LOD at all is missing (one found only as head_1.md3 is used: the next test).
  const noHead = Object.fromEntries(Object.entries(base).filter(([path]) => !/^head(_\d)?\.md3$/.test(path)));
  assert.throws(() => iq.loadPlayer(noHead), (e) => e instanceof InterquakeError && e.code === 'missing_file' && e.file === 'head.md3');
  assert.throws(() => iq.loadPlayer({ 'readme.txt': new Uint8Array(1) }), (e) => e.code === 'missing_file');
  assert.throws(() => iq.loadPlayer('sarge'), (e) => e.code === 'invalid_argument');
  const badCfg = { ...base, 'animation.cfg': new TextEncoder().encode('sex m\n0 30 0 25\n29 1 zero 25\n') };
  assert.throws(() => iq.loadPlayer(badCfg), (e) => e.code === 'syntax' && e.file === 'animation.cfg' && e.line === 3);
  const badMd3 = { ...base, 'upper.md3': base['upper.md3'].subarray(0, 500) };
  assert.throws(() => iq.loadPlayer(badMd3), (e) => e instanceof InterquakeError && e.file === 'upper.md3');
  const before = iq.liveBytes;
  assert.throws(() => iq.loadPlayer(badMd3));
  assert.equal(iq.liveBytes, before, 'the parts loaded before the failure are freed');
  const player = iq.loadPlayer(base);
  assert.throws(() => player.pose({ legs: { animation: 'TORSO_ATTACK', time: 0 } }), (e) => e.code === 'invalid_argument' && /not legs/.test(e.message));
  assert.throws(() => player.pose({ torso: { animation: 'LEGS_RUN', time: 0 } }), (e) => e.code === 'invalid_argument');
  assert.throws(() => player.pose({ legs: { animation: 'LEGS_RUN', time: NaN } }), (e) => e.code === 'invalid_argument');
  assert.throws(() => player.pose({ legs: { animation: 'LEGS_FLY', time: 0 } }), (e) => e.code === 'invalid_argument');
  // absurd times still give frames of the animation
  for (const time of [1e300, 1e12, 5e-324]) {
    const f = player.pose({ legs: { animation: 'LEGS_RUN', time } }).lower;
    assert.ok(f.from >= 110 && f.from <= 118 && f.to >= 110 && f.to <= 118, `time ${time}: ${f.from}`);
  }
  // frames outside the part are clamped
  assert.equal(player.pose({ legs: { frame: 1e6 } }).lower.frame, lowerInfo.frames - 1);
  assert.equal(player.pose({ legs: { frame: -5 } }).lower.frame, 0);
  player.dispose();
  assert.equal(iq.liveBytes, before);
});

// Renames a tag in an MD3's bytes (every frame's copy), for the missing-tag cases.
function renameTag(bytes, from, to) {
  const out = bytes.slice();
  const v = new DataView(out.buffer);
  const frames = v.getInt32(76, true);
  const tags = v.getInt32(80, true);
  const ofs = v.getInt32(96, true);
  for (let i = 0; i < frames * tags; i++) {
    const at = ofs + i * 112;
    const name = new TextDecoder().decode(out.subarray(at, at + from.length));
    if (name === from && out[at + from.length] === 0) out.set(new TextEncoder().encode(to), at);
  }
  return out;
}

test('missing or renamed tags (case 35): the child sits at the parent\'s origin, with a warning', () => {
  const base = relativeFiles();
  let player = iq.loadPlayer({ ...base, 'lower.md3': renameTag(base['lower.md3'], 'tag_torso', 'torso_tag') });
  assert.match(player.warnings.map((w) => w.message).join('\n'), /lower\.md3 has no tag_torso/);
  const pose = player.pose({ legs: { frame: 120 }, torso: { frame: 10 } });
  closeMatrix(pose.upper.matrix, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], 0, 'upper at the origin');
  closeMatrix(pose.head.matrix, tagMatrix4(upperInfo.tags.get('tag_head')[10]), 1e-3, 'head on upper alone');
  player.dispose();
  player = iq.loadPlayer({ ...base, 'upper.md3': renameTag(base['upper.md3'], 'tag_head', 'head_tag') });
  assert.match(player.warnings.map((w) => w.message).join('\n'), /upper\.md3 has no tag_head/);
  const p2 = player.pose({ legs: { frame: 5 } });
  assert.deepEqual(p2.head.matrix, p2.upper.matrix);
  player.dispose();
});

test('a weapon attaches at tag_weapon of the torso', () => {
  const base = relativeFiles();
  // any MD3 serves as the weapon model; here the head, given as bytes, as a path and as a model
  const headModel = iq.load(base['head_1.md3']);
  for (const weapon of [base['head_2.md3'], 'head_2.md3', headModel]) {
    const player = iq.loadPlayer(base, { weapon });
    const pose = player.pose({ legs: { frame: 100 }, torso: { frame: 140 } });
    const want = mul4(tagMatrix4(lowerInfo.tags.get('tag_torso')[100]), tagMatrix4(upperInfo.tags.get('tag_weapon')[140]));
    closeMatrix(pose.weapon.matrix, want, 1e-3, 'weapon');
    for (const k of [12, 13, 14]) assert.ok(Math.abs(pose.weapon.matrix[k] - want[k]) < 2e-3);
    assert.ok(player.parts.weapon.model.meshes.length > 0);
    player.dispose();
  }
  assert.equal(headModel.vertexCount > 0, true, 'a model passed in is not disposed by the player');
  headModel.dispose();
  assert.throws(() => iq.loadPlayer(base, { weapon: 'models/weapons2/none/none.md3' }), (e) => e.code === 'missing_file');
});

test('mutated animation.cfg and skins: a player or an InterquakeError, and every pose of a loaded player works', () => {
  const base = relativeFiles();
  let seed = 12345;
  const random = (n) => { seed = (seed * 1103515245 + 12345) >>> 0; return seed % n; };
  const mutate = (bytes) => {
    const out = bytes.slice();
    for (let k = 1 + random(4); k > 0; k--) {
      const at = random(out.length);
      out[at] = random(4) === 0 ? random(256) : '0123456789-/*" \n,'.charCodeAt(random(17));
    }
    return out;
  };
  let loaded = 0;
  for (let round = 0; round < 150; round++) {
    const files = { ...base, 'animation.cfg': mutate(base['animation.cfg']), 'upper_default.skin': mutate(base['upper_default.skin']) };
    let player;
    try {
      player = iq.loadPlayer(files);
    } catch (e) {
      assert.ok(e instanceof InterquakeError, `round ${round}: ${e}`);
      continue;
    }
    loaded++;
    for (const a of player.animations) {
      const part = a.part === 'torso' ? 'torso' : a.part === 'legs' ? 'legs' : 'both';
      for (const time of [0, 0.05, 1, 10]) {
        const pose = player.pose({ [part]: { animation: a.name, time } });
        for (const p of ['lower', 'upper', 'head']) {
          assert.ok(Number.isFinite(pose[p].frame) && pose[p].matrix.every(Number.isFinite), `${a.name} at ${time}`);
          assert.ok(pose[p].frame >= 0 && pose[p].frame <= player.parts[p].model.frameCount - 1);
        }
      }
    }
    player.dispose();
  }
  assert.ok(loaded > 0, 'some mutations still load');
});
