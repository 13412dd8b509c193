// The games' model folders opened as the viewer and the CLI open them (docs/MODELCFG.md): the model
// the game shows as its character, picked by the folder's model .cfg, with the cfg's textures and
// animation files. `interquake info FOLDER --json` on Cube 2's frankie (cube2-data) and Red Eclipse's
// player (redeclipse-data).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { gameFile, expectCount } from './lib.mjs';

const CLI = fileURLToPath(new URL('../../bin/interquake.mjs', import.meta.url));
const info = (dir) => JSON.parse(execFileSync(process.execPath, [CLI, 'info', dir, '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 }));
const textures = (doc) => Object.fromEntries(doc.meshes.map((m) => [m.name, m.texture]));

test('Cube 2\'s frankie/: Frankie.iqm from its iqm.cfg, with the cfg\'s textures and its 12 animation files', () => {
  const dir = gameFile('cube2-data', '/usr/share/games/cube2/packages/models/frankie');
  const doc = info(dir);
  assert.equal(doc.path, join(dir, 'Frankie.iqm'));
  assert.equal(doc.folder.reason, 'loaded by frankie/iqm.cfg');
  assert.equal(doc.joints.length, 52);
  assert.equal(doc.vertexCount, 2746);
  // the material names (Body, Tail) are no files: the textures come from the cfg
  assert.deepEqual(textures(doc), { Body: 'frankie/flyingsquirrel_skin_col.jpg', Tail: 'frankie/frankie_tail2.png' });
  for (const t of Object.values(textures(doc))) assert.ok(existsSync(join(dir, '..', t)), `${t} is there`);
  assert.deepEqual(doc.missingFiles, []);
  expectCount('cube2-data', 'animation files attached to Frankie.iqm', doc.animations.length, 12);
});

test('Red Eclipse\'s actors/player/: the female player from female/iqm.cfg, textured by player.cfg, 58 animation files', () => {
  const dir = gameFile('redeclipse-data', '/usr/share/games/redeclipse/data/actors/player');
  const doc = info(dir);
  assert.equal(doc.path, join(dir, 'female/RE_Player_female.iqm'));
  assert.equal(doc.folder.reason, 'loaded by player/female/iqm.cfg');
  assert.equal(doc.joints.length, 78);
  assert.equal(doc.vertexCount, 3110);
  // player.cfg's `iqmskin *` in the else branch of its `if [stringcmp (mdlname) ...]`
  assert.deepEqual(Object.values(textures(doc)), ['player/diffuse.png']);
  assert.ok(existsSync(join(dir, '..', 'player/diffuse.png')));
  assert.deepEqual(doc.missingFiles, []);
  expectCount('redeclipse-data', 'animation files attached to the female player', doc.animations.length, 58);
});
