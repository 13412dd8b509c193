// The JS API contract: init once, argument errors, dispose semantics, a flat
// heap over many loads, and views that survive memory growth.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init, InterquakeError } from 'interquake';

const mrfixit = new Uint8Array(readFileSync(new URL('../../../../shared/corpus/iqm/mrfixit/mrfixit.iqm', import.meta.url)));
const iq = await init();

test('init() compiles once: later calls resolve to the same library; other options make a separate one', async () => {
  assert.equal(await init(), iq);
  assert.equal(await init({ simd: iq.simd !== false }), iq, 'the same options: the same library');
  // Options are never silently ignored: another WASM is another library (or its own error).
  await assert.rejects(init({ wasm: new URL('../../../web/no-such-file.wasm', import.meta.url) }),
    (e) => e instanceof InterquakeError && e.code === 'wasm_unavailable' && /no-such-file\.wasm/.test(e.message));
  const bytes = readFileSync(new URL('../../../web/interquake-baseline.wasm', import.meta.url));
  const other = await init({ wasm: bytes });
  assert.notEqual(other, iq);
  assert.equal(other.simd, undefined);
  const m = other.load(mrfixit);
  assert.equal(m.vertexCount, 1861);
  m.dispose();
  assert.equal(await init(), iq, 'init() without options: still the first library');
  const fromResponse = await init({ wasm: new Response(bytes, { headers: { 'content-type': 'application/wasm' } }) });
  assert.equal(fromResponse.load(mrfixit).vertexCount, 1861, 'a Response is read');
});

test('init() in Node does not load the fetch machinery (undici) for its own file', async () => {
  // Node's fetch, Response and friends are lazy globals: their first use loads undici, about 12 ms
  // of every CLI command's start-up. process.moduleLoadList names the internal modules loaded.
  const { spawnSync } = await import('node:child_process');
  const probe = spawnSync(process.execPath, ['--input-type=module', '-e',
    "import { init } from 'interquake'; await init(); process.stdout.write(process.moduleLoadList.filter((m) => /undici/.test(m)).join());"],
  { encoding: 'utf8', cwd: new URL('../../../', import.meta.url) });
  assert.equal(probe.status, 0, probe.stderr);
  assert.equal(probe.stdout, '', 'undici was loaded');
});

test('load() accepts Uint8Array, ArrayBuffer and other views, and names the file in errors', () => {
  const copy = mrfixit.slice();
  for (const input of [copy, copy.buffer, new DataView(copy.buffer)]) {
    const model = iq.load(input);
    assert.equal(model.vertexCount, 1861);
    model.dispose();
  }
  assert.throws(() => iq.load('not bytes'), (e) => e instanceof InterquakeError && e.code === 'invalid_argument');
  assert.throws(() => iq.load(copy, { format: 'obj' }), (e) => e.code === 'invalid_argument');
  assert.throws(() => iq.load(new Uint8Array(200), { name: 'zeros.bin' }), (e) =>
    e.code === 'unknown_format' && e.file === 'zeros.bin' && e.message.startsWith('zeros.bin: '));
  // a forced format reads the bytes with that parser
  assert.throws(() => iq.load(new Uint8Array(200), { format: 'iqm' }), (e) => e.code === 'truncated' || e.code === 'bad_magic');
});

test('dispose() frees the model; twice is fine; any later use throws "disposed"', () => {
  const model = iq.load(mrfixit, { name: 'mrfixit.iqm' });
  const before = iq.liveBytes;
  assert.ok(before > 0);
  model.dispose();
  model.dispose();
  assert.ok(iq.liveBytes < before);
  for (const use of [() => model.positions, () => model.evaluate(0), () => model.skinMatrices, () => model.customArrays]) {
    assert.throws(use, (e) => e instanceof InterquakeError && e.code === 'disposed');
  }
});

test('evaluate() rejects non-numeric frames', () => {
  const model = iq.load(mrfixit);
  assert.throws(() => model.evaluate(NaN), (e) => e.code === 'invalid_argument');
  assert.throws(() => model.evaluate('3'), (e) => e.code === 'invalid_argument');
  model.dispose();
});

test('1000 load/dispose cycles leave the WASM heap flat', () => {
  const live = iq.liveBytes;
  // warm up so the allocator has reached its working size
  for (let i = 0; i < 10; i++) iq.load(mrfixit).dispose();
  const memory = iq.memoryBytes;
  for (let i = 0; i < 1000; i++) {
    const model = iq.load(mrfixit);
    model.evaluate(i % 101);
    model.dispose();
    // failed loads must not leak either
    try { iq.load(mrfixit.subarray(0, 5000)); } catch { /* expected */ }
  }
  assert.equal(iq.liveBytes, live);
  assert.equal(iq.memoryBytes, memory, 'the WASM memory did not grow');
});

test('typed arrays stay valid after memory grows: getters hand out fresh views', () => {
  const model = iq.load(mrfixit);
  const held = model.positions;
  const copy = held.slice();
  const startMemory = iq.memoryBytes;
  const others = [];
  while (iq.memoryBytes === startMemory) others.push(iq.load(mrfixit));
  assert.equal(held.length, 0, 'the old view was detached by growth');
  assert.deepEqual(model.positions, copy, 'the getter returns a live view with the same data');
  const { positions } = model.evaluate(0);
  assert.equal(positions.length, 1861 * 3);
  for (const o of others) o.dispose();
  model.dispose();
});

test('skinMatrices and worldMatrices reflect the last evaluate()', () => {
  const model = iq.load(mrfixit);
  assert.equal(model.skinMatrices.length, 75 * 12);
  // before any evaluate: identity skin matrices
  assert.deepEqual([...model.skinMatrices.slice(0, 12)], [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]);
  model.evaluate(50);
  const moved = model.skinMatrices.some((v, i) => Math.abs(v - [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0][i % 12]) > 1e-3);
  assert.ok(moved, 'frame 50 moves some joint');
  // world = skin * bind world: check joint 0 reproduces its frame pose translation when it is a root
  const root = model.joints.findIndex((j) => j.parent === -1);
  const poses = model.framePoses;
  const w = model.worldMatrices;
  const base = (50 * model.joints.length + root) * 10;
  assert.ok(Math.abs(w[12 * root + 3] - poses[base]) < 1e-5);
  assert.ok(Math.abs(w[12 * root + 7] - poses[base + 1]) < 1e-5);
  assert.ok(Math.abs(w[12 * root + 11] - poses[base + 2]) < 1e-5);
  model.dispose();
});

test('init() picks the SIMD build where the engine runs SIMD', () => {
  assert.equal(iq.simd, true);
});
