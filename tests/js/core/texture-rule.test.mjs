// One texture rule (web/core/paths.js textureCandidates): the viewer's file set, writeGLB and
// `interquake info` find the same texture files for every corpus model and for the corpus player
// (sarge) in each of its skins. Before the rule had one home, a model could show textured in the
// viewer and export untextured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { init } from 'interquake';
import { FileSet } from '../../../web/viewer/assets.js';
import { openTarget } from '../../../bin/cli/targets.mjs';
import { meshTextures } from '../../../bin/cli/info.mjs';

const iq = await init();
const CORPUS = new URL('../../../../shared/corpus/', import.meta.url);

function modelsIn(url, rel = '') {
  const out = [];
  for (const entry of readdirSync(url, { withFileTypes: true })) {
    if (entry.isDirectory()) out.push(...modelsIn(new URL(`${entry.name}/`, url), `${rel}${entry.name}/`));
    else if (/\.(iqm|iqe|md3)$/i.test(entry.name)) out.push(`${rel}${entry.name}`);
  }
  return out.sort();
}
const MODELS = modelsIn(CORPUS);

// The model's folder as a dropped folder: its files keyed from the folder's name on.
function droppedFolder(path) {
  const dir = path.slice(0, path.lastIndexOf('/') + 1);
  const name = dir.split('/').at(-2);
  const files = {};
  for (const entry of readdirSync(new URL(dir, CORPUS), { withFileTypes: true })) {
    if (entry.isFile()) files[`${name}/${entry.name}`] = new Uint8Array(readFileSync(new URL(`${dir}${entry.name}`, CORPUS)));
  }
  return { files, modelPath: `${name}/${path.slice(dir.length)}` };
}

test('every corpus model: the viewer, writeGLB and info find the same texture files', async () => {
  assert.ok(MODELS.length >= 20, `${MODELS.length} corpus models`);
  let compared = 0;
  let found = 0;
  for (const path of MODELS) {
    const target = await openTarget(iq, fileURLToPath(new URL(path, CORPUS))).catch((err) => ({ error: err }));
    if (target.error) continue; // a file the library refuses (iqm/invalid) has no textures to compare
    try {
      // info: the CLI's reader (the model's folder, the game folder above models/, the file name beside it)
      const cli = (await meshTextures(target)).map((t) => t.file);
      // writeGLB with that reader, as `interquake convert` calls it
      const { textures } = await iq.writeGLB(target.model, { files: target.textures });
      // the viewer: the model's folder dropped, the texture of each mesh read as content.js reads it
      const { files, modelPath } = droppedFolder(path);
      const set = FileSet.fromObject(files);
      const viewer = [];
      for (const mesh of target.model.meshes) {
        const name = mesh.shaders?.[0] || mesh.material || null;
        viewer.push(name ? (await set.readImage(name, modelPath))?.path ?? null : null);
      }
      const seen = (list) => [...new Set(list.filter(Boolean))].sort();
      assert.deepEqual(seen(viewer), seen(cli), `${path}: viewer and info`);
      assert.deepEqual(seen(textures.map((t) => t.texture)), seen(cli), `${path}: writeGLB and info`);
      compared++;
      found += seen(cli).length;
    } finally {
      target.model?.dispose();
      target.player?.dispose();
    }
  }
  assert.ok(compared >= 20, `${compared} models compared`);
  assert.ok(found >= 2, `${found} textures found (mrfixit's Body.tga and Head.tga; the corpus ships few textures)`);
});

test('the corpus player in each of its skins: the viewer, writeGLB and info find the same texture files', async () => {
  const folder = fileURLToPath(new URL('md3/openarena/models/players/sarge', CORPUS));
  const target = await openTarget(iq, folder);
  const { player } = target;
  try {
    assert.deepEqual(player.skins, ['default', 'red', 'blue', 'classic', 'classicblue', 'classicred', 'indigo']);
    for (const skin of player.skins) {
      const resolved = player.resolveSkin(skin);
      // the viewer draws surface.texture (content.js playerTextures); info lists the same surfaces
      const viewer = Object.values(resolved.surfaces).flat().map((s) => s.texture);
      const { textures } = await iq.writeGLB(player, { skin });
      const seen = (list) => [...new Set(list.filter(Boolean))].sort();
      assert.ok(seen(viewer).length >= 1, `${skin}: some texture found`);
      assert.deepEqual(seen(textures.map((t) => t.texture)), seen(viewer), `${skin}: writeGLB and the viewer`);
      // info: the CLI opens the folder with --skin and lists player.surfaces
      const cli = await openTarget(iq, folder, { skin });
      try {
        assert.deepEqual(seen(Object.values(cli.player.surfaces).flat().map((s) => s.texture)), seen(viewer), `${skin}: info`);
      } finally {
        cli.player.dispose();
      }
    }
  } finally {
    player.dispose();
  }
});
