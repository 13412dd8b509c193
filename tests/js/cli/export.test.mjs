// `interquake convert IN OUT.glb` as a modder uses it (issue 17, item 6): animation files attached
// (beside the model, and --anim), mesh names not taken for texture names, a weapon in the player's
// hand, and the placement options. Fixtures are built here; GLBs are read back as JSON, by the
// Khronos validator and by three.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import validator from 'gltf-validator';
import { buildIQM } from '../lib/iqm-build.mjs';
import { buildMD3, quadSurface } from '../lib/md3-build.mjs';
import { buildZip } from '../lib/zip-build.mjs';

const bin = fileURLToPath(new URL('../../../bin/interquake.mjs', import.meta.url));
const corpus = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));
const sarge = join(corpus, 'md3/openarena/models/players/sarge');
const run = (...args) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
const json = (glb) => JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + new DataView(glb.buffer, glb.byteOffset).getUint32(12, true))));

async function withDir(fn) {
  const dir = mkdtempSync(join(tmpdir(), 'iq-cli-export-'));
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function validate(glb, what) {
  const { numErrors, messages } = (await validator.validateBytes(glb)).issues;
  assert.equal(numErrors, 0, `${what}: ${JSON.stringify(messages.filter((m) => m.severity === 0).slice(0, 5))}`);
}

// A Frankie-like pair: a skinned mesh whose meshes have names and no material, and an
// animation-only file (joints and an animation, no triangles) for the same skeleton.
const I = { translate: [0, 0, 0], rotate: [0, 0, 0, 1], scale: [1, 1, 1] };
const skeleton = [{ name: 'root', parent: -1, ...I }, { name: 'arm', parent: 0, ...I, translate: [1, 0, 0] }];
const zQuat = (deg) => [0, 0, Math.sin((deg * Math.PI) / 360), Math.cos((deg * Math.PI) / 360)];
const motion = [0, 1, 2].map((f) => [{ ...I }, { ...I, translate: [1, 0, 0], rotate: zQuat(30 * f) }]);
function creature() {
  return buildIQM({
    vertexArrays: [
      { type: 'position', format: 'float', size: 3, data: [0, 0, 0, 2, 0, 0, 1, 1, 0, 0, 0, 1, 2, 0, 1, 1, 1, 1] },
      { type: 'blendindexes', format: 'ubyte', size: 4, data: [0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0] },
      { type: 'blendweights', format: 'ubyte', size: 4, data: Array.from({ length: 6 }, () => [255, 0, 0, 0]).flat() },
    ],
    triangles: [[0, 1, 2], [3, 4, 5]],
    meshes: [{ name: 'Tail', firstVertex: 0, vertexCount: 3, firstTriangle: 0, triangleCount: 1 }, { name: 'Body', firstVertex: 3, vertexCount: 3, firstTriangle: 1, triangleCount: 1 }],
    joints: skeleton,
  }).bytes;
}
const animation = (name) => buildIQM({ joints: skeleton, frames: motion, anims: [{ name, firstFrame: 0, frameCount: 3, framerate: 10 }] }).bytes;

test('convert to GLB attaches the animation-only files beside the model, as the viewer does, and --anim files', () => withDir(async (dir) => {
  writeFileSync(join(dir, 'creature.iqm'), creature());
  writeFileSync(join(dir, 'creature_wave.iqm'), animation('wave'));
  writeFileSync(join(dir, 'elsewhere.iqm'), creature()); // a mesh: not an animation file, left alone
  const other = join(dir, 'more');
  writeFileSync(`${other}.iqm`, animation('spin')); // beside it too, but also named with --anim: attached once
  const out = join(dir, 'creature.glb');
  const r = run('convert', join(dir, 'creature.iqm'), out, '--anim', `${other}.iqm`);
  assert.equal(r.status, 0, r.stderr);
  const doc = json(readFileSync(out));
  assert.deepEqual(doc.animations.map((a) => a.name).sort(), ['spin', 'wave']);
  assert.match(r.stderr, /creature_wave\.iqm: 1 animation\(s\) attached/);
  assert.match(r.stdout, /2 animations/);
  await validate(readFileSync(out), 'creature.glb');
  // a file named with --anim that does not fit is the command's failure (exit 1, named)
  writeFileSync(join(dir, 'alien.iqm'), buildIQM({ joints: [{ name: 'tentacle', parent: -1, ...I }], frames: [[I]], anims: [{ name: 'x', firstFrame: 0, frameCount: 1 }] }).bytes);
  const bad = run('convert', join(dir, 'creature.iqm'), join(dir, 'bad.glb'), '--anim', join(dir, 'alien.iqm'));
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /skeleton_mismatch/);
  // one beside the model that does not fit is a note, and the rest is written
  writeFileSync(join(dir, 'creature_alien.iqm'), readFileSync(join(dir, 'alien.iqm')));
  const noted = run('convert', join(dir, 'creature.iqm'), out);
  assert.equal(noted.status, 0, noted.stderr);
  assert.match(noted.stderr, /alien\.iqm: not attached \(skeleton_mismatch/);
  assert.ok(json(readFileSync(out)).animations.some((a) => a.name === 'wave'));
}));

test('a mesh without a material gets a plain material named after it; its name is not looked up as a texture', () => withDir((dir) => {
  writeFileSync(join(dir, 'creature.iqm'), creature());
  writeFileSync(join(dir, 'Tail.png'), new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10])); // would be found by the mesh name
  const out = join(dir, 'creature.glb');
  const r = run('convert', join(dir, 'creature.iqm'), out);
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /not found|Tail|Body/, r.stderr);
  const doc = json(readFileSync(out));
  assert.deepEqual(doc.materials.map((m) => m.name), ['Tail', 'Body']);
  assert.equal(doc.images, undefined, 'nothing embedded');
}));

// sarge in a pk3 with a weapon at models/weapons2/gun/ (an MD3 with a barrel tag) and its texture.
function playerWithWeapon() {
  const files = readdirSync(sarge).map((f) => ({ name: `models/players/sarge/${f}`, data: readFileSync(join(sarge, f)) }));
  const tag = (name, x) => ({ name, frames: [{ origin: [x, 0, 0], axes: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] }] });
  files.push({
    name: 'models/weapons2/gun/gun.md3',
    data: buildMD3({ surfaces: [quadSurface({ name: 'gun', shaders: [{ name: 'models/weapons2/gun/gun.tga', index: 0 }] })], tags: [tag('tag_barrel', 8), tag('tag_flash', 12)] }).bytes,
  });
  files.push({ name: 'models/weapons2/gun/gun_barrel.md3', data: buildMD3({ surfaces: [quadSurface({ name: 'barrel', shaders: [{ name: 'models/weapons2/gun/gun.tga', index: 0 }] })] }).bytes });
  return buildZip(files).bytes;
}

test('convert a player with --weapon: the weapon hangs from upper\'s tag_weapon and its barrel from the weapon\'s tag_barrel', () => withDir(async (dir) => {
  writeFileSync(join(dir, 'sarge.pk3'), playerWithWeapon());
  const out = join(dir, 'sarge.glb');
  const r = run('convert', `${join(dir, 'sarge.pk3')}:models/players/sarge`, out, '--weapon', 'gun');
  assert.equal(r.status, 0, r.stderr);
  const glb = readFileSync(out);
  const doc = json(glb);
  const node = (name) => doc.nodes.findIndex((n) => n.name === name);
  const parentOf = (i) => doc.nodes.findIndex((n) => (n.children || []).includes(i));
  const weapon = node('weapon');
  assert.ok(weapon >= 0, `a weapon node: ${doc.nodes.map((n) => n.name).join(', ')}`);
  assert.equal(doc.nodes[parentOf(weapon)].name, 'tag_weapon');
  assert.equal(doc.nodes[parentOf(parentOf(weapon))].name, 'upper');
  assert.equal(doc.nodes[parentOf(node('barrel'))].name, 'tag_barrel');
  assert.equal(node('flash'), -1, 'the muzzle flash (drawn only while firing) is left out');
  await validate(glb, 'sarge.glb with a weapon');
  const missing = run('convert', `${join(dir, 'sarge.pk3')}:models/players/sarge`, join(dir, 'x.glb'), '--weapon', 'railgun');
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /railgun/);
  const onModel = run('convert', `${join(dir, 'sarge.pk3')}:models/weapons2/gun/gun.md3`, join(dir, 'y.glb'), '--weapon', 'gun');
  assert.equal(onModel.status, 2, 'a weapon is for a player');
}));

test('convert --front z --ground --scale metres: the root node turns, lifts and scales a player; bad values are usage errors', () => withDir(async (dir) => {
  writeFileSync(join(dir, 'sarge.pk3'), playerWithWeapon());
  const out = join(dir, 'placed.glb');
  const r = run('convert', `${join(dir, 'sarge.pk3')}:models/players/sarge`, out, '--front', 'z', '--ground', '--scale', 'metres');
  assert.equal(r.status, 0, r.stderr);
  const glb = readFileSync(out);
  await validate(glb, 'placed sarge');
  const root = json(glb).nodes.find((n) => n.name === 'interquake_z_up');
  assert.deepEqual(root.rotation, [-0.5, -0.5, -0.5, 0.5]);
  const near = (a, b) => a.length === b.length && a.every((v, i) => Math.abs(v - b[i]) < 1e-7);
  assert.ok(near(root.scale, [0.032, 0.032, 0.032]), `metres: 3.2 cm a unit: ${root.scale}`);
  assert.ok(near(root.translation, [0, 24 * 0.032, 0]), `the box bottom, 24 units below the origin, at y = 0: ${root.translation}`);
  const scaled = run('convert', `${join(dir, 'sarge.pk3')}:models/players/sarge`, join(dir, 'x2.glb'), '--scale', '2');
  assert.equal(scaled.status, 0, scaled.stderr);
  assert.deepEqual(json(readFileSync(join(dir, 'x2.glb'))).nodes.find((n) => n.name === 'interquake_z_up').scale, [2, 2, 2]);
  for (const bad of [['--front', 'y'], ['--scale', '0'], ['--scale', 'feet'], ['--scale', '-2']]) {
    const u = run('convert', `${join(dir, 'sarge.pk3')}:models/players/sarge`, join(dir, 'bad.glb'), ...bad);
    assert.equal(u.status, 2, `${bad.join(' ')}: ${u.stderr}`);
  }
  const iqm = run('convert', `${join(dir, 'sarge.pk3')}:models/weapons2/gun/gun.md3`, join(dir, 'gun.iqm'), '--ground');
  assert.equal(iqm.status, 2, 'placement is for .glb output');
}));
