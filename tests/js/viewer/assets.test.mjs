// The viewer's file resolution (web/viewer/assets.js): plain JS, checked here in Node with answers
// worked out by hand. (The playback clock asks the C: tests/js/scene/clock.test.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init } from 'interquake';
import { FileSet, rerootPlayerFiles, sniff } from '../../../web/viewer/assets.js';
import { pathKey } from '../../../web/core/paths.js';

test('file sets find Quake paths case-insensitively, with backslashes, by their longest matching tail', async () => {
  const bytes = (s) => new TextEncoder().encode(s);
  const files = FileSet.fromObject({
    'sarge/Band.TGA': bytes('band'),
    'models/players/sarge/lower.md3': bytes('lower'),
    'textures/skin.jpg': bytes('jpg'),
  });
  assert.equal(pathKey('.\\Models\\Players\\x.TGA'), 'models/players/x.tga');
  assert.equal(files.find('models\\players\\sarge\\band.tga'), 'sarge/band.tga');
  assert.equal(files.find('MODELS/PLAYERS/SARGE/LOWER.MD3'), 'models/players/sarge/lower.md3');
  assert.equal(files.find('other/none.tga'), null);
  const image = await files.readImage('textures/skin.tga');
  assert.equal(image.path, 'textures/skin.jpg', 'a .tga name finds the .jpg the game would also try');
  assert.equal(new TextDecoder().decode(image.bytes), 'jpg');
  assert.equal(await files.readImage('textures/nothing'), null);
});

test('sniff tells formats by their magic bytes (the library\'s) before their names', async () => {
  const iq = await init();
  const magic = (s) => new TextEncoder().encode(s);
  assert.equal(sniff(magic('INTERQUAKEMODEL\0rest'), 'a.md3', iq), 'iqm');
  assert.equal(sniff(magic('IDP3....'), 'a.iqm', iq), 'md3');
  assert.equal(sniff(magic('# Inter-Quake Export\n'), 'x', iq), 'iqe');
  assert.equal(sniff(magic('IDP2....'), 'a.md3', iq), 'md2');
  assert.equal(sniff(magic('IDPO....'), 'a.md3', iq), 'mdl', 'Xonotic ships Quake 1 MDL files named .md3');
  assert.equal(sniff(magic('IDP3....'), 'a.iqm'), 'iqm', 'without the library: by name');
  assert.equal(sniff(new Uint8Array([0x50, 0x4b, 3, 4, 0]), 'x.bin'), 'archive');
  assert.equal(sniff(magic('????'), 'player.PK3'), 'archive');
  assert.equal(sniff(magic('????'), 'notes.txt'), 'unknown');
});

test('dropped player folders are re-rooted so skin paths (models/players/...) resolve', () => {
  assert.equal(rerootPlayerFiles('base/models/players/sarge/')('base/models/players/grism/red.tga'), 'models/players/grism/red.tga');
  assert.equal(rerootPlayerFiles('players/sarge/')('players/grism/red.tga'), 'models/players/grism/red.tga');
  assert.equal(rerootPlayerFiles('sarge/')('grism/red.tga'), 'models/players/grism/red.tga');
  assert.equal(rerootPlayerFiles('')('lower.md3'), 'models/players/player/lower.md3');
  assert.equal(rerootPlayerFiles('models/players/sarge/')('models/players/sarge/head.md3'), 'models/players/sarge/head.md3');
});

test('a model opened by URL asks the network once per missing texture: game paths from the folder above its models/, other names beside it', async () => {
  const asked = [];
  const present = new Set(['https://x.example/q3/models/players/grism/red.tga', 'https://x.example/q3/models/players/sarge/beside.jpg']);
  const fetcher = async (url) => {
    asked.push(url);
    if (!present.has(url)) throw new Error('404');
    return new Uint8Array([1]);
  };
  const files = FileSet.fromUrl('https://x.example/q3/models/players/sarge/lower.md3', fetcher);
  assert.equal(files.gameRoot, 'https://x.example/q3/');
  assert.equal((await files.readImage('models\\players\\grism\\red.tga')).path, 'models/players/grism/red.tga');
  assert.deepEqual(asked, ['https://x.example/q3/models/players/grism/red.tga']);
  asked.length = 0;
  assert.equal(await files.read('skin.tga'), null);
  assert.deepEqual(asked, ['https://x.example/q3/models/players/sarge/skin.tga'], 'a bare name is looked for beside the model, once');
  assert.equal(await files.read('skin.tga'), null);
  assert.equal(asked.length, 1, 'answers are remembered');
  asked.length = 0;
  // A texture that is not there: one request (the name as written), not one per extension and folder.
  assert.equal(await files.readImage('models/players/sarge/nothing'), null);
  assert.equal(await files.readImage('textures/other/gone.tga'), null);
  assert.deepEqual(asked, ['https://x.example/q3/models/players/sarge/nothing.tga', 'https://x.example/q3/textures/other/gone.tga']);
  assert.deepEqual(files.requested.slice(-2), asked, 'what was tried is listed');
  asked.length = 0;
  // Known files are looked through first, with every extension; the network is not asked.
  const known = FileSet.fromUrl('https://x.example/q3/models/players/sarge/lower.md3', fetcher);
  known.entries.set('models/players/sarge/band.png', { name: 'models/players/sarge/band.png', read: async () => new Uint8Array([2]) });
  assert.equal((await known.readImage('models/players/sarge/band.tga')).path, 'models/players/sarge/band.png');
  assert.deepEqual(asked, []);
  const given = FileSet.fromUrl('https://x.example/a/b/thing.md3', fetcher, '/base/');
  assert.equal(given.gameRoot, 'https://x.example/base/', 'the base-url attribute sets the game root');
});
