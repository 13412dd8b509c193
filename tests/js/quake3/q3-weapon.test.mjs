// Weapons on a player as cgame's CG_AddPlayerWeapon places them: the gun on the torso's
// tag_weapon, the barrel on the gun's tag_barrel, the flash on its tag_flash, with matrices
// worked out on paper. The weapon is built here (md3-build.mjs): the corpus has none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init } from 'interquake';
import { buildMD3 } from '../lib/md3-build.mjs';
import { weaponFiles } from '../../../web/quake3/player.js';

const iq = await init();
const enc = new TextEncoder();
const I = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
const Z90 = [[0, 1, 0], [-1, 0, 0], [0, 0, 1]]; // x -> +y
const X90 = [[1, 0, 0], [0, 0, 1], [0, -1, 0]]; // y -> +z
const tri = (name, shader) => ({
  name, shaders: [{ name: shader, index: 0 }], triangles: [[0, 1, 2]], texcoords: [[0, 0], [1, 0], [0, 1]],
  frames: [[[0, 0, 0], [1, 0, 0], [0, 1, 0]].map((xyz) => ({ xyz, normal: 0 }))],
});
const one = (name, origin, axes = I) => ({ name, frames: [{ origin, axes }] });

function files({ barrel = true, flash = true, hand = true, tagless = false } = {}) {
  const lower = buildMD3({ tags: [one('tag_torso', [0, 0, 10])], surfaces: [tri('l_legs', 'models/players/p/legs.tga')] }).bytes;
  const upper = buildMD3({
    tags: [one('tag_head', [0, 0, 5]), one('tag_weapon', [3, 0, 1], Z90)],
    surfaces: [tri('u_torso', 'models/players/p/torso.tga')],
  }).bytes;
  const head = buildMD3({ surfaces: [tri('h_head', 'models/players/p/head.tga')] }).bytes;
  const gunTags = tagless ? [] : [one('tag_barrel', [8, 0, 0], X90), one('tag_flash', [12, 0, 1])];
  const out = {
    'models/players/p/lower.md3': lower,
    'models/players/p/upper.md3': upper,
    'models/players/p/head.md3': head,
    'models/players/p/animation.cfg': enc.encode(Array(25).fill('0 1 0 10').join('\n')),
    'models/weapons2/gun/gun.md3': buildMD3({ tags: gunTags, surfaces: [tri('w_gun', 'models/weapons2/gun/gun.tga')] }).bytes,
    'models/weapons2/gun/gun.tga': new Uint8Array([1]),
    'models/weapons2/other/other.md3': buildMD3({ surfaces: [tri('w_o', 'models/weapons2/other/o.tga')] }).bytes,
    'models/weapons2/other/other_hand.md3': buildMD3({ tags: [one('tag_weapon', [1, 2, 3])] }).bytes,
  };
  if (barrel) out['models/weapons2/gun/gun_barrel.md3'] = buildMD3({ surfaces: [tri('w_barrel', 'models/weapons2/gun/barrel.tga')] }).bytes;
  if (flash) out['models/weapons2/gun/gun_flash.md3'] = buildMD3({ surfaces: [tri('w_flash', 'models/weapons2/gun/flash.jpg')] }).bytes;
  if (hand) out['models/weapons2/gun/gun_hand.md3'] = buildMD3({ tags: [one('tag_weapon', [0, 0, 0])] }).bytes;
  return out;
}

const close = (got, want, what) => want.forEach((v, i) => assert.ok(Math.abs(got[i] - v) < 1e-5, `${what}[${i}] = ${got[i]}, want ${v}`));

test('weapon file names: a name, a folder or the main md3', () => {
  const gun = { main: 'models/weapons2/gun/gun.md3', barrel: 'models/weapons2/gun/gun_barrel.md3', flash: 'models/weapons2/gun/gun_flash.md3', hand: 'models/weapons2/gun/gun_hand.md3' };
  assert.deepEqual(weaponFiles('gun'), gun);
  assert.deepEqual(weaponFiles('models/weapons2/gun/'), gun);
  assert.deepEqual(weaponFiles('models\\weapons2\\gun\\gun.md3'), gun);
});

test('the weapons found, and the gun, barrel and flash placed on paper', () => {
  const player = iq.loadPlayer(files(), { weapon: 'gun' });
  assert.deepEqual(player.weapons.map((w) => w.name), ['gun', 'other']);
  assert.deepEqual(player.weapon, {
    path: 'models/weapons2/gun/gun.md3', barrel: 'models/weapons2/gun/gun_barrel.md3', flash: 'models/weapons2/gun/gun_flash.md3',
    hand: 'models/weapons2/gun/gun_hand.md3',
  });
  assert.deepEqual(Object.keys(player.parts).sort(), ['barrel', 'flash', 'head', 'lower', 'upper', 'weapon']);
  const pose = player.pose();
  // torso at (0,0,10); gun at (3,0,1) on it, turned 90 degrees about z
  close(pose.weapon.matrix, [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 3, 0, 11, 1], 'weapon');
  // barrel: (8,0,0) along the gun's x (= world +y): (3, 8, 11); axes: gun's then X90 (y -> z)
  close(pose.barrel.matrix, [0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 3, 8, 11, 1], 'barrel');
  // flash: (12,0,1) on the gun: (3, 12, 12), the gun's axes
  close(pose.flash.matrix, [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 3, 12, 12, 1], 'flash');
  // weapon surfaces keep their MD3 shaders (no player skin); the missing ones are listed
  assert.equal(player.surfaces.weapon[0].texture, 'models/weapons2/gun/gun.tga');
  assert.deepEqual(player.missingFiles.filter((f) => f.includes('weapons2')).sort(),
    ['models/weapons2/gun/barrel.tga', 'models/weapons2/gun/flash.jpg']);
  player.dispose();
});

test('a weapon without barrel, flash, hand or tags: the gun alone, warned', () => {
  const player = iq.loadPlayer(files({ barrel: false, flash: false, hand: false, tagless: true }), { weapon: 'gun' });
  assert.deepEqual(player.weapon, { path: 'models/weapons2/gun/gun.md3', barrel: null, flash: null, hand: null });
  assert.equal(player.pose().barrel, undefined);
  player.dispose();
  const tagless = iq.loadPlayer(files({ tagless: true }), { weapon: 'gun' });
  assert.ok(tagless.warnings.some((w) => /no tag_barrel/.test(w.message)));
  assert.ok(tagless.warnings.some((w) => /no tag_flash/.test(w.message)));
  // no tag: at the gun's origin
  close(tagless.pose().barrel.matrix, tagless.pose().weapon.matrix, 'barrel at the gun');
  tagless.dispose();
});

test('a weapon that is not there is a missing_file error, and no weapon is the default', () => {
  assert.throws(() => iq.loadPlayer(files(), { weapon: 'railgun' }), (e) => e.code === 'missing_file' && /railgun\.md3/.test(e.message));
  const bare = iq.loadPlayer(files());
  assert.equal(bare.weapon, null);
  assert.equal(bare.pose().weapon, undefined);
  bare.dispose();
});
