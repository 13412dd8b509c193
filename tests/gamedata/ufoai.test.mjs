// UFO: Alien Invasion 2.5 (Debian's ufoai-data, base/0models.pk3): every MD2 loads, with finite
// positions and normals at frames and half-way between them, and every frame's vertices inside the
// range its bytes can reach (translate .. translate + 255 * scale, read here apart from the reader);
// the only warnings are Quake 2's limits (over_limit frames) and repaired normal indices.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init } from 'interquake';
import { gameFile, expectCount, expectFiniteFrames } from './lib.mjs';

const iq = await init();

// The MD2 header's frame size, frame count and frame offset, and each frame's scale and translate.
function md2Ranges(bytes) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const frameSize = dv.getInt32(16, true), frames = dv.getInt32(40, true), at = dv.getInt32(56, true);
  return Array.from({ length: frames }, (_, f) => {
    const r = at + f * frameSize;
    const scale = [0, 1, 2].map((k) => dv.getFloat32(r + 4 * k, true));
    const translate = [0, 1, 2].map((k) => dv.getFloat32(r + 12 + 4 * k, true));
    return { lo: translate.map((t, k) => Math.min(t, t + 255 * scale[k])), hi: translate.map((t, k) => Math.max(t, t + 255 * scale[k])) };
  });
}

test('every MD2 in 0models.pk3 loads with finite frames inside the range its bytes reach', async () => {
  const pk3 = gameFile('ufoai-data', '/usr/share/games/ufoai/base/0models.pk3');
  const archive = await iq.openArchive(readFileSync(pk3), { name: pk3 });
  let files = 0;
  const warnings = {};
  for (const path of archive.files.filter((p) => /\.md2$/i.test(p))) {
    const bytes = archive.read(path, { use: 'model' });
    const m = iq.load(bytes, { name: path });
    assert.equal(m.format, 'md2', path);
    files++;
    for (const w of m.warnings) warnings[w.code] = (warnings[w.code] ?? 0) + 1;
    expectFiniteFrames(m, path);
    const ranges = md2Ranges(bytes);
    assert.equal(m.frameCount, ranges.length, `${path}: frames`);
    const n = 3 * m.vertexCount;
    ranges.forEach((r, f) => {
      for (let i = 0; i < n; i++) {
        const v = m.framePositions[f * n + i];
        if (!(v >= r.lo[i % 3] - 1e-3 && v <= r.hi[i % 3] + 1e-3)) assert.fail(`${path} frame ${f} value ${i}: ${v} outside ${r.lo[i % 3]} .. ${r.hi[i % 3]}`);
      }
    });
    m.dispose();
  }
  console.log(`ufoai: ${files} MD2 files loaded; warnings by code: ${JSON.stringify(warnings)}`);
  expectCount('ufoai-data', 'MD2 files', files, 859);
  // what the files do that Quake 2 would not: frames over its limit, normal indices past its table
  assert.deepEqual(Object.keys(warnings).filter((c) => c !== 'over_limit' && c !== 'repaired'), [], 'no other kind of warning');
  archive.dispose?.();
});
