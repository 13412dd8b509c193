// Cube 2 (Debian's cube2-data) and Red Eclipse (redeclipse-data) MD5 files: every .md5mesh and
// .md5anim loads with finite outputs, every mesh equals Doom 3's bind pose computed apart from the
// library (tests/js/lib/md5-reference.mjs), and Red Eclipse's drone plays its walk in three.js as in
// the library. The native side (ASan/UBSan, the weight rule, the anims' stored boxes) is md5.c here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init } from 'interquake';
import { doomBindPositions } from '../js/lib/md5-reference.mjs';
import { expectValidGLB, expectMixerMatches } from '../js/lib/mixer-match.mjs';
import { gameFile, expectCount, filesUnder } from './lib.mjs';

const iq = await init();
const near = (a, b, eps, what) => assert.ok(Math.abs(a - b) <= eps, `${what}: ${a} vs ${b}`);

const ROOTS = [['cube2-data', '/usr/share/games/cube2', 2, 1], ['redeclipse-data', '/usr/share/games/redeclipse', 38, 102]];

for (const [pkg, root, expectedMeshes, expectedAnims] of ROOTS) {
  test(`${pkg}: every MD5 file loads with finite outputs; meshes match Doom 3's bind pose`, () => {
    let meshes = 0;
    let anims = 0;
    for (const path of filesUnder(gameFile(pkg, root), /\.md5(mesh|anim)$/)) {
      const bytes = readFileSync(path);
      const m = iq.load(bytes, { name: path });
      const out = m.evaluate(m.frameCount ? m.frameCount / 2 : 0);
      assert.ok((out.positions ?? []).every(Number.isFinite) && m.skinMatrices.every(Number.isFinite), `${path}: finite`);
      if (path.endsWith('.md5mesh')) {
        meshes++;
        const doom = doomBindPositions(bytes.toString('latin1'));
        assert.equal(doom.length, m.positions.length, `${path}: vertex count`);
        const size = Math.max(1, m.bounds.radius);
        for (let i = 0; i < doom.length; i++) near(m.positions[i], doom[i], 1e-4 * size, `${path} component ${i}`);
      } else anims++;
      m.dispose();
    }
    console.log(`md5: ${root}: ${meshes} md5mesh and ${anims} md5anim files loaded`);
    expectCount(pkg, '.md5mesh files', meshes, expectedMeshes);
    expectCount(pkg, '.md5anim files', anims, expectedAnims);
  });
}

test('redeclipse-data: the drone with its walk plays the same in three.js', async () => {
  const dir = gameFile('redeclipse-data', '/usr/share/games/redeclipse/data/actors/drone/');
  const m = iq.load(readFileSync(dir + 'mesh.md5mesh'), { name: 'mesh.md5mesh' });
  const anim = iq.load(readFileSync(dir + 'forward.md5anim'), { name: 'forward.md5anim' });
  m.attachAnimations(anim);
  anim.dispose();
  const { glb } = await iq.writeGLB(m);
  await expectValidGLB(glb);
  await expectMixerMatches(iq, m, glb, 'forward');
  m.dispose();
});
