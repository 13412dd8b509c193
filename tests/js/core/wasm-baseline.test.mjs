// The baseline (no SIMD) build that init() falls back to on engines without
// WASM SIMD: it must give the same answers as the reference. Its own file, so
// its own process: init() loads one build per process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init, simdSupported } from 'interquake';
import { parseIQM, skin } from '../lib/iqm-reference.mjs';

const bytes = new Uint8Array(readFileSync(new URL('../../../../shared/corpus/iqm/mrfixit/mrfixit.iqm', import.meta.url)));

test('the SIMD probe needs SIMD: it validates, and fails once its v128 result is declared i32', () => {
  assert.equal(simdSupported(), true, 'Node 20 runs WASM SIMD');
  const probe = [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 17, 11];
  assert.equal(WebAssembly.validate(new Uint8Array(probe)), true);
  const i32Result = probe.slice();
  i32Result[13] = 0x7f;
  assert.equal(WebAssembly.validate(new Uint8Array(i32Result)), false);
});

test('init({ simd: false }) loads the baseline build, which skins mrfixit like the reference', async () => {
  const iq = await init({ simd: false });
  assert.equal(iq.simd, false);
  const model = iq.load(bytes);
  const ref = parseIQM(bytes);
  let worst = 0;
  for (const frame of [0, 17.5, 50, 100]) {
    const got = model.evaluate(frame).positions;
    const want = skin(ref, frame).positions;
    for (let i = 0; i < got.length; i++) worst = Math.max(worst, Math.abs(got[i] - want[i]));
  }
  assert.ok(worst < 1e-4, `worst position error ${worst}`);
  model.dispose();
});
