// loadPlayer resolves a surface's shader name as Quake 3's R_FindShader does: a block of a
// scripts/*.shader first, then an image. A name a script defines is never a missing file; the
// images its stages name are, when they exist nowhere ($whiteimage and $lightmap are built in).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init } from 'interquake';
import { buildMD3 } from '../lib/md3-build.mjs';
import { buildZip } from '../lib/zip-build.mjs';

const iq = await init();
const enc = new TextEncoder();

const quad = (name, shader) => ({
  name, shaders: [{ name: shader, index: 0 }], triangles: [[0, 1, 2]], texcoords: [[0, 0], [1, 0], [0, 1]],
  frames: [[[0, 0, 0], [1, 0, 0], [0, 1, 0]].map((xyz) => ({ xyz, normal: 0 }))],
});

const SCRIPT = `
models/players/s/glow
{
	{
		map models/players/s/glow.tga
		rgbGen lightingDiffuse
	}
	{
		map textures/effects/nowhere.tga
		blendFunc add
		tcGen environment
	}
	{
		map $whiteimage
		blendFunc filter
	}
	{
		map $lightmap
	}
}
models/players/s/shell
{
	{
		animMap 4 models/players/s/shell1.tga models/players/s/shell2.tga
	}
}
`;

function files(extra = {}) {
  return {
    'models/players/s/lower.md3': buildMD3({ tags: [{ name: 'tag_torso', frames: [{ origin: [0, 0, 1] }] }], surfaces: [quad('l_legs', 'models/players/s/glow.tga')] }).bytes,
    'models/players/s/upper.md3': buildMD3({ tags: [{ name: 'tag_head', frames: [{ origin: [0, 0, 1] }] }], surfaces: [quad('u_torso', 'models/players/s/plain')] }).bytes,
    'models/players/s/head.md3': buildMD3({ surfaces: [quad('h_head', 'models/players/s/face')] }).bytes,
    'models/players/s/head_default.skin': enc.encode('h_head,models/players/s/shell.tga\n'),
    'models/players/s/glow.tga': new Uint8Array([1]),
    'models/players/s/plain.jpg': new Uint8Array([2]),
    'models/players/s/shell2.tga': new Uint8Array([3]),
    'models/players/s/animation.cfg': enc.encode(Array.from({ length: 25 }, () => '0 1 0 10').join('\n')),
    'scripts/player_s.shader': enc.encode(SCRIPT),
    ...extra,
  };
}

test('surfaces resolve to script blocks before images; missingFiles lists only stage images that exist nowhere', () => {
  const player = iq.loadPlayer(files(), { skin: null });
  try {
    const legs = player.surfaces.lower[0];
    assert.equal(legs.shader, 'models/players/s/glow.tga');
    assert.equal(legs.script?.name, 'models/players/s/glow', 'the block wins over the image of the same name');
    assert.equal(legs.script.stages.length, 4);
    assert.equal(legs.texture, 'models/players/s/glow.tga', "the first stage's image stands for the block");
    assert.deepEqual(legs.images, { 'models/players/s/glow.tga': 'models/players/s/glow.tga', 'textures/effects/nowhere.tga': null });
    const torso = player.surfaces.upper[0];
    assert.equal(torso.script, null, 'a name no script defines resolves to its image as before');
    assert.equal(torso.texture, 'models/players/s/plain.jpg');
    // The head names a shader no script defines and no image is found for.
    assert.deepEqual(player.missingFiles.sort(), ['models/players/s/face', 'textures/effects/nowhere.tga']);
  } finally {
    player.dispose();
  }
});

test('a skin naming a block: animMap images resolved one by one, the block name never missing', () => {
  const player = iq.loadPlayer(files(), { skin: 'default' });
  try {
    const head = player.surfaces.head[0];
    assert.equal(head.source, 'skin');
    assert.equal(head.script?.name, 'models/players/s/shell', 'the skin path with .tga finds the block (extension dropped)');
    assert.equal(head.script.stages[0].images.length, 2);
    assert.deepEqual(head.images, { 'models/players/s/shell1.tga': null, 'models/players/s/shell2.tga': 'models/players/s/shell2.tga' });
    assert.equal(head.texture, 'models/players/s/shell2.tga');
    assert.ok(player.missingFiles.includes('models/players/s/shell1.tga'));
    assert.ok(!player.missingFiles.some((f) => /shell(\.tga)?$/.test(f)), `no block name in ${player.missingFiles}`);
    // The same files without the script: the names are images again, and missing.
    const noScript = files();
    delete noScript['scripts/player_s.shader'];
    const plain = iq.loadPlayer(noScript, { skin: 'default' });
    try {
      assert.equal(plain.surfaces.head[0].script, null);
      assert.ok(plain.missingFiles.includes('models/players/s/shell.tga'));
      assert.equal(plain.surfaces.lower[0].texture, 'models/players/s/glow.tga');
    } finally {
      plain.dispose();
    }
  } finally {
    player.dispose();
  }
});

test('from an archive, a later script overrides an earlier one; an unreadable script is a warning', async () => {
  const set = files();
  const entries = Object.entries(set).map(([name, data]) => ({ name, data }));
  entries.push({ name: 'scripts/zz_override.shader', data: 'models/players/s/glow { { map $whiteimage } }\n' });
  entries.push({ name: 'scripts/broken.shader', data: 'models/players/s/broken { { map x\n' });
  const archive = await iq.openArchive(buildZip(entries).bytes);
  const player = iq.loadPlayer(archive, { skin: null });
  try {
    const legs = player.surfaces.lower[0];
    assert.equal(legs.script.stages.length, 1, 'the later-listed file wins, as Quake 3 joins them in reverse');
    assert.equal(legs.script.stages[0].map, 'white');
    assert.equal(legs.texture, null);
    assert.ok(!player.missingFiles.includes('textures/effects/nowhere.tga'));
    assert.ok(player.warnings.some((w) => w.file === 'scripts/broken.shader' && w.code === 'truncated'), JSON.stringify(player.warnings));
  } finally {
    player.dispose();
  }
});

test('an archive\'s scripts are parsed once for every player loaded from it; a file set\'s each time', async () => {
  const entries = Object.entries(files()).map(([name, data]) => ({ name, data }));
  entries.push({ name: 'scripts/broken.shader', data: 'models/players/s/broken { { map x\n' });
  const archive = await iq.openArchive(buildZip(entries).bytes);
  const reads = [];
  const read = archive.read.bind(archive);
  archive.read = (path, options) => { if (options?.use === 'shader') reads.push(path); return read(path, options); };
  const load = (source, options = {}) => {
    const player = iq.loadPlayer(source, { skin: null, ...options });
    try {
      return { script: player.surfaces.lower[0].script?.name, broken: player.warnings.filter((w) => w.file === 'scripts/broken.shader').length };
    } finally {
      player.dispose();
    }
  };
  const first = load(archive);
  assert.equal(reads.length, 2, `both scripts read: ${reads}`);
  const again = load(archive);
  assert.deepEqual(again, first, 'the same blocks, and the broken script still a warning');
  assert.equal(first.script, 'models/players/s/glow');
  assert.equal(first.broken, 1);
  assert.equal(reads.length, 2, 'the second player parsed nothing');
  load(archive, { limits: { shader: { maxBytes: 1 << 20 } } });
  assert.equal(reads.length, 4, 'other caps read the scripts again');
  const set = files();
  load(set);
  const before = reads.length;
  set['scripts/player_s.shader'] = new TextEncoder().encode('models/players/s/glow { { map $whiteimage } }\n');
  const changed = iq.loadPlayer(set, { skin: null });
  try {
    assert.equal(changed.surfaces.lower[0].script.stages[0].map, 'white', 'a file set may change between loads: parsed each time');
  } finally {
    changed.dispose();
  }
  assert.equal(reads.length, before);
});
