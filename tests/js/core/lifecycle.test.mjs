// Lifetime: models and instances dropped without dispose() give their WASM memory back when
// collected; Symbol.dispose works; a disposed model throws on every member; instances pose
// independently of their model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { init, InterquakeError } from 'interquake';

const mrfixitPath = new URL('../../../../shared/corpus/iqm/mrfixit/mrfixit.iqm', import.meta.url);
const mrfixit = new Uint8Array(readFileSync(mrfixitPath));
const iq = await init();

test('200 models dropped without dispose() are freed when collected (FinalizationRegistry)', () => {
  // A child with --expose-gc, so the collection is forced and measured, not hoped for.
  const script = `
    import { init } from 'interquake';
    import { readFileSync } from 'node:fs';
    const iq = await init();
    const bytes = new Uint8Array(readFileSync(new URL(${JSON.stringify(mrfixitPath.href)})));
    const one = iq.load(bytes); const perModel = iq.liveBytes; one.dispose();
    // (in a function: a variable of module-level code can stay reachable from the module's scope)
    const drop = () => { for (let i = 0; i < 200; i++) { const m = iq.load(bytes); m.createInstance().pose('idle', i / 10); } };
    drop();
    const before = iq.liveBytes;
    for (let i = 0; i < 20 && iq.liveBytes > 0; i++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 10)); }
    console.log(JSON.stringify({ perModel, before, after: iq.liveBytes, memory: iq.memoryBytes }));
  `;
  const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
    cwd: new URL('../../../', import.meta.url), encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  const { perModel, before, after, memory } = JSON.parse(r.stdout);
  assert.ok(before > 100 * perModel, `200 live models before collection (${before} bytes)`);
  assert.equal(after, 0, `every dropped model was freed (${after} bytes left of ${before})`);
  assert.ok(memory < 400 * 2 ** 20, `WASM memory ${memory}`);
});

test('Symbol.dispose disposes models, instances, players and archives', () => {
  assert.equal(typeof Symbol.dispose, 'symbol');
  const m = iq.load(mrfixit);
  const inst = m.createInstance();
  inst[Symbol.dispose]();
  assert.throws(() => inst.pose('idle', 0), (e) => e.code === 'disposed');
  m[Symbol.dispose]();
  assert.throws(() => m.vertexCount, (e) => e.code === 'disposed');
  assert.equal(iq.liveBytes, 0);
});

test('a disposed model throws disposed on every member but name; its instances are disposed with it', () => {
  const m = iq.load(mrfixit, { name: 'mrfixit.iqm' });
  const inst = m.createInstance();
  m.dispose();
  for (const key of ['format', 'vertexCount', 'triangleCount', 'frameCount', 'meshes', 'joints', 'animations', 'bounds',
    'warnings', 'extensions', 'comment', 'tags', 'frames', 'positions', 'indices', 'skinMatrices', 'customArrays']) {
    assert.throws(() => m[key], (e) => e instanceof InterquakeError && e.code === 'disposed', key);
  }
  assert.throws(() => m.evaluate(0), (e) => e.code === 'disposed');
  assert.throws(() => m.tagMatrix('x'), (e) => e.code === 'disposed');
  assert.throws(() => inst.sample('idle', 0), (e) => e.code === 'disposed');
  assert.equal(m.name, 'mrfixit.iqm');
  m.dispose();
  inst.dispose();
});

test('a disposed player throws disposed on every method, as a model does; its parts are disposed; twice is fine', async () => {
  const { gameFiles, SARGE } = await import('../lib/q3-corpus.mjs');
  const player = iq.loadPlayer(gameFiles(), { player: SARGE });
  assert.equal(player.constructor.name, 'Player');
  assert.ok(player.pose({ legs: { animation: 'LEGS_RUN', time: 0.1 } }).upper.matrix.length === 16);
  const live = iq.liveBytes;
  assert.ok(live > 0);
  player.dispose();
  assert.equal(iq.liveBytes, 0, 'the part models are freed');
  for (const [name, call] of [['pose', () => player.pose()], ['animation', () => player.animation('LEGS_RUN')],
    ['resolveSkin', () => player.resolveSkin('red')], ['readFile', () => player.readFile('animation.cfg')]]) {
    assert.throws(call, (e) => e instanceof InterquakeError && e.code === 'disposed' && /was disposed/.test(e.message), name);
  }
  assert.throws(() => player.parts.lower.model.vertexCount, (e) => e.code === 'disposed');
  assert.equal(player.path, SARGE, 'what was read at load stays readable');
  player.dispose();
  const again = iq.loadPlayer(gameFiles(), { player: SARGE });
  again[Symbol.dispose]();
  assert.throws(() => again.pose(), (e) => e.code === 'disposed');
});

test('instances pose one model several ways at once, without copying its geometry', () => {
  const m = iq.load(mrfixit);
  const a = m.createInstance();
  const b = m.createInstance();
  const pa = a.sample('idle', 0.5).positions.slice();
  const pb = b.sample('idle', 2.0).positions.slice();
  assert.notDeepEqual(pa, pb);
  assert.deepEqual(a.sample('idle', 0.5).positions, pa, 'posing b left a alone');
  assert.deepEqual(m.sample('idle', 2.0).positions.slice(), pb, 'the model\'s own pose agrees with an instance');
  assert.deepEqual(a.skinMatrices.slice(), m.pose('idle', 0.5).skinMatrices.slice());
  assert.deepEqual(a.jointMatrix(10), m.jointMatrix(10), 'last-pose joint matrices agree');
  const before = iq.liveBytes;
  const c = m.createInstance();
  assert.equal(iq.liveBytes, before, 'an instance is not counted as model memory (it holds no geometry copy)');
  c.dispose();
  a.dispose();
  b.dispose();
  m.dispose();
});
