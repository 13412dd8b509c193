// The path rules (web/core/paths.js): one home for extensions, player parts and LODs and the
// texture lookup, and the core layer's independence from the Quake 3 layer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { paths } from 'interquake';

const core = new URL('../../../web/core/', import.meta.url);

test('core/ imports nothing from quake3/, viewer/ or the entries (static or dynamic imports)', () => {
  const files = readdirSync(core).filter((n) => n.endsWith('.js'));
  assert.ok(files.includes('paths.js') && files.includes('library.js') && files.includes('crc32.js'));
  for (const name of files) {
    const text = readFileSync(new URL(name, core), 'utf8');
    const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm)].map((m) => m[1]);
    for (const spec of specifiers) {
      assert.ok(!spec.startsWith('..'), `web/core/${name} imports ${spec}: core/ reaches nothing above itself`);
    }
  }
});

test('textureCandidates: the name, the other extensions in the renderer\'s order, each appended, the artist-disk path', () => {
  assert.deepEqual(paths.textureCandidates('models/players/sarge/band.tga'), [
    'models/players/sarge/band.tga', 'models/players/sarge/band.jpg', 'models/players/sarge/band.png',
    'models/players/sarge/band.tga.tga', 'models/players/sarge/band.tga.jpg', 'models/players/sarge/band.tga.png',
  ]);
  assert.deepEqual(paths.textureCandidates('skin').slice(0, 4), ['skin', 'skin.tga', 'skin.jpg', 'skin.png']);
  assert.deepEqual(paths.textureCandidates('a/clothes.001').slice(1, 2), ['a/clothes.001.tga']);
  const disk = paths.textureCandidates('E:\\q3\\baseq3\\models\\mapobjects\\x.tga');
  assert.equal(disk[0], 'E:/q3/baseq3/models/mapobjects/x.tga');
  assert.ok(disk.includes('models/mapobjects/x.tga') && disk.includes('models/mapobjects/x.jpg'));
  // A loose model's texture may lie beside it: the file name alone comes last.
  const loose = paths.textureCandidates('C:\\art\\Body.png', { loose: true });
  assert.equal(loose[0], 'C:/art/Body.png');
  assert.deepEqual(loose.slice(-6), ['Body.png', 'Body.tga', 'Body.jpg', 'Body.png.tga', 'Body.png.jpg', 'Body.png.png']);
  assert.ok(!paths.textureCandidates('C:\\art\\Body.png').includes('Body.png'), 'a player\'s names are game paths only');
  // Each file once, compared as the game compares paths.
  const all = paths.textureCandidates('A/B.TGA', { loose: true });
  assert.equal(new Set(all.map(paths.pathKey)).size, all.length);
  assert.deepEqual(paths.textureCandidates(''), []);
});

test('player parts and LODs, skins, extensions and kinds', () => {
  assert.deepEqual(paths.playerPartOf('models/players/sarge/upper_1.md3'), { part: 'upper', lod: 1, ext: 'md3' });
  assert.deepEqual(paths.playerPartOf('HEAD.IQM'), { part: 'head', lod: 0, ext: 'iqm' });
  assert.equal(paths.playerPartOf('lower.iqe'), null);
  assert.equal(paths.playerPartOf('lowerx.md3'), null);
  assert.equal(paths.playerPartName('head', 2), 'head_2.md3');
  assert.equal(paths.playerPartName('lower', 0, 'iqm'), 'lower.iqm');
  assert.deepEqual(paths.playerSkinOf('upper_red_blue.skin'), { part: 'upper', skin: 'red_blue' });
  assert.equal(paths.extensionOf('a\\b.C/d.TGA'), 'tga');
  assert.equal(paths.extensionOf('.hidden'), '');
  assert.equal(paths.kindOf('x.pk3'), 'archive');
  assert.equal(paths.kindOf('scripts/a.shader'), 'script');
  assert.equal(paths.kindOf('a.jpeg'), 'image');
  assert.equal(paths.kindOf('a.md3'), 'model');
  assert.equal(paths.normalizePath('.//a\\\\b//c'), 'a/b/c');
  assert.equal(paths.folderOf('a/b/c.iqm'), 'a/b/');
});

test('findTexture takes the first candidate that exists, sync or async', async () => {
  const have = new Set(['models/x/skin.jpg']);
  assert.deepEqual(paths.findTexture('models/x/skin.tga', (p) => have.has(p)).path, 'models/x/skin.jpg');
  assert.equal((await paths.findTexture('models/x/skin', async (p) => have.has(p))).path, 'models/x/skin.jpg');
  assert.equal(paths.findTexture('models/y/none.tga', (p) => have.has(p)).path, null);
});
