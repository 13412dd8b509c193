// `interquake info|convert FOLDER` on a folder of models that is not a Quake 3 player: the model
// the game would show (by its cfg), each mesh's texture from the cfg, the cfg's animation files
// attached; the GLB embeds the same textures. The folder is built by tests/js/lib/cube-folder.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { creatureFolder } from '../lib/cube-folder.mjs';

const bin = fileURLToPath(new URL('../../../bin/interquake.mjs', import.meta.url));
const run = (...args) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

function withFolder(files, fn) {
  const root = mkdtempSync(join(tmpdir(), 'iq-cli-folder-'));
  try {
    for (const [path, bytes] of Object.entries(files)) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), bytes);
    }
    return fn(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('info on a Cube 2 model folder: the cfg\'s model, its textures per mesh, its animation files', () => withFolder(creatureFolder(), (root) => {
  const dir = join(root, 'creature');
  const r = run('info', dir, '--json');
  assert.equal(r.status, 0, r.stderr);
  const s = JSON.parse(r.stdout);
  assert.equal(s.path, join(dir, 'creature.iqm'), 'not the prop a_crate.iqm, which has more vertices');
  assert.equal(s.folder.reason, 'loaded by creature/iqm.cfg');
  assert.deepEqual(s.meshes.map((m) => [m.name, m.texture, m.textureFile]), [
    ['Body', 'creature/creature_body.tga', 'creature/creature_body.tga'], ['Tail', 'creature/tail.tga', 'creature/tail.tga']]);
  assert.deepEqual(s.missingFiles, []);
  assert.deepEqual(s.animations.map((a) => a.name), ['Run', 'Idle1'], 'the files its iqmanim lines name');
  const text = run('info', dir);
  assert.match(text.stdout, /opened from .*\(loaded by creature\/iqm\.cfg; models there: creature\/a_crate\.iqm, creature\/creature\.iqm\)/);
  assert.match(text.stdout, /Tail .*texture: creature\/tail\.tga/);

  const out = join(root, 'creature.glb');
  const c = run('convert', dir, out);
  assert.equal(c.status, 0, c.stderr);
  assert.match(c.stdout, /2 textures/);
  assert.doesNotMatch(c.stderr, /not found/);
  const glb = readFileSync(out);
  const json = JSON.parse(glb.subarray(20, 20 + glb.readUInt32LE(12)).toString());
  assert.equal(json.images.length, 2);
}));

test('info on a folder without a cfg: the model with the most joints, not the prop', () => {
  const files = creatureFolder();
  delete files['creature/iqm.cfg'];
  withFolder(files, (root) => {
    const s = JSON.parse(run('info', join(root, 'creature'), '--json').stdout);
    assert.equal(s.folder.reason, 'named as its folder');
    assert.match(s.path, /creature\.iqm$/);
    assert.equal(s.animations.length, 3, 'every animation-only file attached');
    assert.deepEqual(s.missingFiles, ['Body'], "'Tail' finds tail.tga; 'Body' is no file without the cfg");
  });
});
