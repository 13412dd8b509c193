// The games' own model configuration: Cube 2 / Tesseract / Red Eclipse model .cfg files (split
// by the C, src/iq_cubecfg.c; read by web/core/modelcfg.js), DarkPlaces' <model>_<N>.skin, and
// which model a folder opens. Folders are built by tests/js/lib/cube-folder.mjs (no game file).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init, InterquakeError } from 'interquake';
import { FileSet } from '../../../web/viewer/assets.js';
import { meshTextures } from '../../../bin/cli/info.mjs';
import { creatureFolder, creatureIQM, creatureAnimation, colourTGA } from '../lib/cube-folder.mjs';

const iq = await init();
const fixture = (name) => readFileSync(new URL(`../../fixtures/cubecfg/${name}`, import.meta.url));
const text = (s) => new TextEncoder().encode(s);

test('parseModelConfig: commands and words as CubeScript splits them, blocks with their own commands', async () => {
  const { commands, warnings } = await iq.parseModelConfig(fixture('player.cfg'), { name: 'player.cfg' });
  assert.deepEqual(warnings, []);
  assert.deepEqual(commands.map((c) => c.words[0].text), ['iqmdir', 'exec', 'if', 'if', 'md5anim', 'iqmanim']);
  const [, , if1, if2] = commands;
  assert.deepEqual(if1.words.map((w) => w.kind), ['word', 'word', 'block', 'block']);
  assert.deepEqual(if1.words[2].commands[0].words.map((w) => w.text), ['iqmpitchtarget', 'ribs', 'idle.iqm', '0']);
  assert.equal(if1.words[2].commands[0].line, 4);
  const cond = if2.words[1].commands[0];
  assert.deepEqual(cond.words.map((w) => [w.text, w.kind]), [['stringcmp', 'word'], ['mdlname', 'expression'], ['actors/hero/hud', 'string']]);
  assert.equal(commands[5].words[1].text, 'say ^"hi^"', 'the ^ escape keeps the quote inside');
});

test('parseModelConfig: a located syntax error for an unclosed block or a stray bracket', async () => {
  await assert.rejects(() => iq.parseModelConfig('iqmskin a b\nif 1 [\n x', { name: 'bad.cfg' }),
    (e) => e instanceof InterquakeError && e.code === 'syntax' && e.line === 2 && e.column === 6 && /bad\.cfg/.test(e.message) && /missing '\]'/.test(e.message));
  await assert.rejects(() => iq.parseModelConfig('a )'), (e) => e.code === 'syntax' && e.line === 1 && e.column === 3);
  const { warnings } = await iq.parseModelConfig('iqmskin Body "body.jpg\n');
  assert.equal(warnings.length, 1, 'a string left open at the line end is accepted with a warning');
});

test('readModelConfig: the model, each mesh\'s texture (hints stripped, relative to the cfg), animations, transform', async () => {
  const files = creatureFolder('packages/models/creature/');
  const config = await iq.readModelConfig(files, 'packages/models/creature/iqm.cfg');
  assert.equal(config.format, 'iqm');
  assert.equal(config.model, 'packages/models/creature/creature.iqm');
  assert.deepEqual(config.skins.map((s) => [s.mesh, s.texture, s.masks, s.line]), [
    ['Body', 'packages/models/creature/creature_body.tga', 'packages/models/creature/creature_spec.tga', 3],
    ['Tail', 'packages/models/creature/tail.tga', null, 5],
  ]);
  assert.deepEqual(config.animations.map((a) => [a.names, a.file, a.fps, a.priority]), [
    [['forward'], 'packages/models/creature/creature_run.iqm', 70, 1],
    [['idle', 'mapmodel'], 'packages/models/creature/creature_idle.iqm', 0, -1],
  ]);
  assert.equal(config.scale, 250);
  assert.deepEqual(config.translate, [0, 0, 0.5]);
  assert.equal(config.yaw, 90);
  assert.deepEqual(config.tags, [{ joint: 'tail', tag: 'tag_weapon', line: 9 }]);
  assert.deepEqual(config.ignored, { iqmbumpmap: 1 });
  const model = iq.load(files['packages/models/creature/creature.iqm']);
  assert.deepEqual(iq.configTextures(config, model), ['packages/models/creature/creature_body.tga', 'packages/models/creature/tail.tga']);
  model.dispose();
});

test('readModelConfig: exec by game path, iqmdir, and if on stringcmp (mdlname) as Red Eclipse writes them', async () => {
  // A folder dropped from inside the game tree: 'hero/' is the game's actors/hero/.
  const shared = `iqmdir "actors/hero"
if 1 [ iqmanim "idle" "idle.iqm" 10 ] [ iqmanim "idle" "never.iqm" ]
if [stringcmp (mdlname) "actors/hero/hud"] [
    iqmskin * "<dds>hud.tga"
] [
    if (|| [stringcmp (mdlname) "actors/hero/headless"] [stringcmp (mdlname) "actors/hero/male/headless"]) [
        iqmskin * "<dds>headless.tga"
    ] [
        iqmskin * "<dds>diffuse.tga" "<dds>mask.tga" 0.125 0.0
    ]
]
mdlscale 365
mdlpitch (+ 1 2)
`;
  const files = {
    'hero/male/iqm.cfg': text('iqmload "hero_male.iqm" player\nexec "actors/hero/shared.cfg"\n'),
    'hero/hud/iqm.cfg': text('iqmload "hud.iqm"\nexec "actors/hero/shared.cfg"\n'),
    'hero/shared.cfg': text(shared),
    'hero/male/hero_male.iqm': creatureIQM(),
    'hero/hud/hud.iqm': creatureIQM(),
    'hero/idle.iqm': creatureAnimation('idle'),
    'hero/diffuse.tga': colourTGA([1, 2, 3]),
    'hero/hud.tga': colourTGA([1, 2, 3]),
  };
  const male = await iq.readModelConfig(files, 'hero/male/iqm.cfg');
  assert.equal(male.model, 'hero/male/hero_male.iqm', 'loaded from the cfg\'s folder, before iqmdir');
  assert.deepEqual(male.executed, ['hero/male/iqm.cfg', 'hero/shared.cfg']);
  assert.deepEqual(male.skins.map((s) => [s.mesh, s.texture, s.masks]), [['*', 'hero/diffuse.tga', 'hero/mask.tga']]);
  assert.deepEqual(male.animations.map((a) => a.file), ['hero/idle.iqm'], 'iqmdir: from the game folder; if 1: the first block');
  assert.deepEqual(male.missingFiles, []);
  assert.equal(male.scale, 365);
  assert.equal(male.pitch, 0, 'an expression it does not evaluate reads as 0');
  const hud = await iq.readModelConfig(files, 'hero/hud/iqm.cfg');
  assert.deepEqual(hud.skins.map((s) => s.texture), ['hero/hud.tga'], 'mdlname matches by its tail');
  // exec of a file that is not there: a warning and a missing file, never a failure
  const lone = await iq.readModelConfig({ 'm/iqm.cfg': text('exec "data/x.cfg"\niqmskin * a.tga\nif [$unknown] [iqmskin * b.tga]') }, 'm/iqm.cfg');
  assert.deepEqual(lone.missingFiles, ['data/x.cfg']);
  assert.deepEqual(lone.skins.map((s) => s.texture), ['m/a.tga']);
  assert.ok(lone.warnings.some((w) => /else branch/.test(w.message)));
  // no such cfg: missing_file, an InterquakeError of the page's class although the cfg code is loaded apart
  await assert.rejects(() => iq.readModelConfig({}, 'none/iqm.cfg'), (e) => e instanceof InterquakeError && e.code === 'missing_file');
  // exec of itself: stops, with a warning
  const loop = await iq.readModelConfig({ 'l/iqm.cfg': text('exec "l/iqm.cfg"\n') }, 'l/iqm.cfg');
  assert.ok(loop.warnings.some((w) => w.code === 'limit'));
});

test('chooseFolderModel: the cfg\'s model over a prop with more vertices; its animation files to attach', async () => {
  const files = creatureFolder();
  const models = Object.entries(files).filter(([p]) => p.endsWith('.iqm')).map(([path, bytes]) => ({ path, bytes }));
  const picked = await iq.chooseFolderModel(models, files);
  assert.equal(picked.main.path, 'creature/creature.iqm');
  assert.equal(picked.reason, 'loaded by creature/iqm.cfg');
  assert.deepEqual(picked.animationFiles.map((f) => f.path), ['creature/creature_run.iqm', 'creature/creature_idle.iqm']);
  assert.deepEqual(picked.meshes.map((m) => m.path), ['creature/creature.iqm', 'creature/a_crate.iqm']);
  // Without the cfg: the most joints (the creature), every animation-only file attached.
  const bare = { ...files };
  delete bare['creature/iqm.cfg'];
  const rename = (p) => p.replace('creature/creature.iqm', 'creature/beast.iqm');
  const noName = models.map((m) => ({ ...m, path: rename(m.path) }));
  const second = await iq.chooseFolderModel(noName, Object.fromEntries(Object.entries(bare).map(([k, v]) => [rename(k), v])));
  assert.equal(second.main.path, 'creature/beast.iqm');
  assert.equal(second.reason, 'the most joints and vertices');
  assert.equal(second.animationFiles.length, 3);
  // Named as its folder beats the most joints.
  const named = await iq.chooseFolderModel([{ path: 'crate/crate.iqm', bytes: files['creature/a_crate.iqm'] }, { path: 'crate/x.iqm', bytes: files['creature/creature.iqm'] }], {});
  assert.equal(named.main.path, 'crate/crate.iqm');
  assert.equal(named.reason, 'named as its folder');
});

test('one texture rule: the viewer\'s FileSet, writeGLB and the CLI resolve the same files for a cfg-textured folder', async () => {
  const files = creatureFolder();
  const config = await iq.readModelConfig(files, 'creature/iqm.cfg');
  const model = iq.load(files['creature/creature.iqm'], { name: 'creature/creature.iqm' });
  const named = iq.configTextures(config, model);
  const set = FileSet.fromObject(files);
  const viewer = [];
  for (const [i, mesh] of model.meshes.entries()) viewer.push((await set.readImage(named[i] ?? mesh.material, 'creature/creature.iqm'))?.path ?? null);
  const { textures, missingFiles } = await iq.writeGLB(model, { files, textures: named });
  const cli = await meshTextures({ model, textureNames: named, textures: async (p) => files[p] ?? null });
  assert.deepEqual(viewer, ['creature/creature_body.tga', 'creature/tail.tga']);
  assert.deepEqual(textures.map((t) => t.texture), viewer);
  assert.deepEqual(cli.map((t) => t.file), viewer);
  assert.deepEqual(missingFiles, []);
  // Without the cfg the meshes name 'Body' and 'Tail': nothing found, and all three agree.
  const plain = await iq.writeGLB(model, { files });
  assert.deepEqual(plain.textures.map((t) => t.texture), [null, null]);
  assert.deepEqual((await meshTextures({ model, textures: async (p) => files[p] ?? null })).map((t) => t.file), [null, null]);
  assert.equal(await set.readImage('Body', 'creature/creature.iqm'), null);
  model.dispose();
});

test('DarkPlaces skins: <model>_<N>.skin listed by number, each with its texture per mesh', async () => {
  const model = iq.load(creatureIQM(), { name: 'models/flag/flag.iqm' });
  const files = {
    'models/flag/flag.iqm_1.skin': text('body,textures/flags/blue\ntail,textures/flags/blue_tail\n'),
    'models/flag/flag.iqm_0.skin': text('Body,textures/flags/red\n'),
    'models/flag/other.md3_0.skin': text('body,x\n'),
    'models/flag/flag.iqm_2.skin': text('body "unclosed\n'),
  };
  const skins = await iq.modelSkins(model, files);
  assert.deepEqual(skins.map((s) => [s.name, s.path]), [
    ['0', 'models/flag/flag.iqm_0.skin'], ['1', 'models/flag/flag.iqm_1.skin'], ['2', 'models/flag/flag.iqm_2.skin']]);
  assert.deepEqual(skins[0].textures, ['textures/flags/red', null]);
  assert.deepEqual(skins[1].textures, ['textures/flags/blue', 'textures/flags/blue_tail']);
  assert.equal(skins[2].warnings.length, 1, 'a skin that cannot be read is a warning of that skin');
  model.dispose();
});
