// The C's layers (CONTRIBUTING.md, "Layout"): a lower layer never calls or includes an upper
// one, no two files call each other in a circle, includes are paths from src/, basenames are
// unique, and the heap is reached only through the library's allocator. The graphs come from the code itself (tools/c-layers.mjs: nm on each object, the
// #include lines); a second part checks that the checker sees what it must, on a small tree of
// its own, so a broken reading of nm cannot pass for a clean graph.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyse, LAYERS, stronglyConnected } from '../../../tools/c-layers.mjs';

const describeCalls = (list) => list.map((u) => `${u.from} -> ${u.to} (${u.symbols.join(', ')})`).join('\n');

test('src/: no upward call or include, no call cycle, includes from src/, unique basenames', async () => {
  const r = await analyse();
  assert.ok(r.files.filter((f) => f.endsWith('.c')).length > 20, 'the C sources were found');
  // The checker read real edges: the pipeline calls a reader and the readers the base.
  assert.ok(r.calls.get('load/iq_load.c')?.has('formats/iq_iqm.c'), 'load/iq_load.c calls the IQM reader');
  assert.ok(r.calls.get('formats/iq_md3.c')?.has('base/iq_core.c'), 'the MD3 reader calls the base');
  assert.deepEqual(r.problems, [], r.problems.join('\n'));
  assert.equal(r.upwardCalls.length, 0, 'calls from a lower layer to an upper one:\n' + describeCalls(r.upwardCalls));
  assert.equal(r.upwardIncludes.length, 0,
    'includes of an upper layer:\n' + r.upwardIncludes.map((u) => `${u.from} includes ${u.to}`).join('\n'));
  assert.deepEqual(r.cycles, [], 'files that call each other in a circle:\n' + r.cycles.map((c) => c.join(' ')).join('\n'));
  assert.deepEqual(r.rawHeap, [], 'the heap is reached only through iqi_malloc/iqi_calloc/iqi_realloc/iqi_free:\n' +
    r.rawHeap.map((h) => `${h.file}:${h.line} ${h.call}()`).join('\n'));
});

test('the checker finds an upward call, an upward include, a cycle, a bad include and a duplicate basename', async () => {
  const root = mkdtempSync(join(tmpdir(), 'iq-layers-test-'));
  try {
    const put = (path, text) => { mkdirSync(join(root, 'src', path, '..'), { recursive: true }); writeFileSync(join(root, 'src', path), text); };
    put('interquake.h', '/* public */\n');
    put('base/iq_b.h', 'int iq_b(void);\n');
    put('base/iq_b.c', '#include "base/iq_b.h"\nint iq_a(void);\nint iq_b(void) { return iq_a(); }\n'); // base calls anim
    put('anim/iq_a.c', '#include "base/iq_b.h"\nint iq_a(void) { return iq_b() + 1; }\n');             // and back: a cycle
    put('formats/iq_f.c', '#include "write/iq_w.h"\nint iq_f(void) { return 0; }\n');    // an upward include
    put('formats/iq_g.h', '#include "iq_b.h"\n');                                                   // not a path from src/
    put('write/iq_w.h', 'int iq_w(void);\n');
    put('write/iq_f.c', '#include <stdlib.h>\n/* free(x) in a comment is fine */ void iqi_free(void *p);\nvoid iq_f2(void *p) { iqi_free(p); free(p); }\n'); // basename taken; a raw free
    const r = await analyse(root);
    assert.deepEqual(r.upwardCalls.map((u) => [u.from, u.to, u.symbols]), [['base/iq_b.c', 'anim/iq_a.c', ['iq_a']]]);
    assert.deepEqual(r.upwardIncludes, [{ from: 'formats/iq_f.c', to: 'write/iq_w.h' }]);
    assert.deepEqual(r.cycles, [['anim/iq_a.c', 'base/iq_b.c']]);
    assert.ok(r.problems.some((p) => p.includes('#include "iq_b.h" is not a path from src/')), r.problems.join('\n'));
    assert.ok(r.problems.some((p) => p.includes('basenames must be unique')), r.problems.join('\n'));
    assert.deepEqual(r.rawHeap, [{ file: 'write/iq_f.c', line: 3, call: 'free' }]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('strongly connected components: a ring of three, a pair, and a chain that is not a cycle', () => {
  const g = new Map([['a', new Set(['b'])], ['b', new Set(['c'])], ['c', new Set(['a', 'd'])], ['d', new Set(['e'])], ['e', new Set(['d'])], ['f', new Set(['a'])]]);
  const comps = stronglyConnected(g).filter((c) => c.length > 1).sort();
  assert.deepEqual(comps, [['a', 'b', 'c'], ['d', 'e']]);
  assert.equal(LAYERS[0], 'base');
  assert.equal(LAYERS.at(-1), 'wasm');
});
