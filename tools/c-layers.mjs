// The C's layers, read from the code itself: every src/**/iq_*.c compiled to an object, its
// defined (T/D/B/R) and undefined (U) symbols read with nm give the exact file-level call graph;
// the `#include "..."` lines give the include graph. A file's layer is its folder under src/
// (LAYERS, lowest first). Reports calls and includes that go up a layer, groups of files that
// call each other in a circle (Tarjan's strongly connected components), and includes that do not
// follow the project's style (a path from src/), and calls of malloc & co. outside the library's
// allocator (HEAP_FILES). `node tools/c-layers.mjs` prints the report;
// tests/js/core/layers.test.mjs fails on any finding.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join, relative, basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The layer folders under src/, lowest first: a file may call and include only its own layer and those below. */
export const LAYERS = ['base', 'formats', 'quake3', 'anim', 'load', 'write', 'render', 'wasm'];

/** The only files that call malloc, calloc, realloc or free: the library's allocator, and the WASM heap JS allocates with. */
export const HEAP_FILES = ['base/iq_core.c', 'base/iq_internal.h', 'wasm/iq_wasm_tables.c'];

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const run = async (cmd, args) => (await promisify(execFile)(cmd, args, { maxBuffer: 64 << 20 })).stdout;

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}

/** The layer of a path relative to src/ ("anim/iq_tags.c" -> "anim"); src/interquake.h, the public header, is base. */
export function layerOf(path) {
  const parts = path.split('/');
  return parts.length === 1 ? 'base' : parts[0];
}

async function compileAll(root, sources) {
  const dir = mkdtempSync(join(tmpdir(), 'iq-layers-'));
  try {
    // Each source to its own object (two compilers at a time), so that files with the same
    // basename (a problem reported on its own) do not overwrite each other's objects.
    const objects = sources.map((s, i) => [s, join(dir, `${i}.o`)]);
    let next = 0;
    const worker = async () => {
      while (next < objects.length) {
        const [s, o] = objects[next++];
        await run('cc', ['-std=c11', '-O0', '-w', '-c', '-I', join(root, 'src'), join(root, 'src', s), '-o', o]);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(2, cpus().length)) }, worker));
    const symbols = new Map(); // source -> { defined: Set, undefined: Set }
    for (const [s, o] of objects) {
      const defined = new Set(), undef = new Set();
      for (const line of (await run('nm', [o])).split('\n')) {
        const f = line.trim().split(/\s+/);
        if (f.length === 3 && 'TDBRCV'.includes(f[1])) defined.add(f[2]);
        else if (f.length === 2 && f[0] === 'U') undef.add(f[1]);
      }
      symbols.set(s, { defined, undefined: undef });
    }
    return symbols;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Tarjan's strongly connected components of a graph given as Map(node -> Set(node)). */
export function stronglyConnected(graph) {
  let index = 0;
  const idx = new Map(), low = new Map(), onStack = new Set(), stack = [], out = [];
  const visit = (v) => {
    idx.set(v, index); low.set(v, index); index++;
    stack.push(v); onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do { w = stack.pop(); onStack.delete(w); comp.push(w); } while (w !== v);
      out.push(comp.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v);
  return out;
}

/**
 * Reads src/ under `root` and resolves to the graphs and every finding:
 * { files, calls: Map(file -> Map(file -> [symbols])), includes: Map(file -> [paths]),
 *   upwardCalls: [{from, to, symbols}], upwardIncludes: [{from, to}], cycles: [[files]], problems: [string],
 *   rawHeap: [{file, line, call}] (malloc & co. outside HEAP_FILES) }
 */
export async function analyse(root = ROOT) {
  const src = join(root, 'src');
  const files = walk(src).map((p) => relative(src, p).split('\\').join('/'));
  const problems = [];
  const rank = (f) => LAYERS.indexOf(layerOf(f));
  const seen = new Map();
  for (const f of files) {
    if (!/\.[ch]$/.test(f)) continue;
    if (f !== 'interquake.h' && !/^iq_[a-z0-9_]+\.[ch]$/.test(basename(f))) problems.push(`${f}: C files are named iq_*.c / iq_*.h`);
    if (rank(f) < 0) problems.push(`${f}: '${layerOf(f)}' is not a layer (tools/c-layers.mjs LAYERS: ${LAYERS.join(', ')})`);
    const b = basename(f);
    if (seen.has(b)) problems.push(`${f} and ${seen.get(b)}: basenames must be unique (build.sh names objects by basename)`);
    seen.set(b, f);
  }

  // The heap only through the allocator (iqi_malloc/iqi_calloc/iqi_realloc/iqi_free), so the
  // allocation-failure sweeps reach every allocation.
  const rawHeap = [];
  for (const f of files.filter((x) => /\.[ch]$/.test(x) && !HEAP_FILES.includes(x))) {
    const code = readFileSync(join(src, f), 'utf8').replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/\/\/.*$/gm, '');
    code.split('\n').forEach((line, i) => {
      const m = line.match(/(?<![\w>.])(malloc|calloc|realloc|free)\s*\(/);
      if (m) rawHeap.push({ file: f, line: i + 1, call: m[1] });
    });
  }

  // Includes: quoted ones are paths from src/ ("base/iq_internal.h"; the public "interquake.h").
  const includes = new Map();
  const upwardIncludes = [];
  for (const f of files.filter((x) => /\.[ch]$/.test(x))) {
    const text = readFileSync(join(src, f), 'utf8');
    const list = [...text.matchAll(/^\s*#\s*include\s+"([^"]+)"/gm)].map((m) => m[1]);
    includes.set(f, list);
    for (const inc of list) {
      if (!existsSync(join(src, inc))) { problems.push(`${f}: #include "${inc}" is not a path from src/ (write "${dirname(files.find((x) => basename(x) === basename(inc)) ?? 'layer/x')}/${basename(inc)}")`); continue; }
      if (rank(inc) > rank(f)) upwardIncludes.push({ from: f, to: inc });
    }
  }

  // Calls, from the objects' symbols.
  const sources = files.filter((f) => f.endsWith('.c'));
  const symbols = await compileAll(root, sources);
  const owner = new Map();
  for (const [s, { defined }] of symbols) for (const d of defined) owner.set(d, s);
  const calls = new Map();
  for (const [s, { undefined: undef }] of symbols) {
    const to = new Map();
    for (const u of [...undef].sort()) {
      const o = owner.get(u);
      if (!o || o === s) continue;
      if (!to.has(o)) to.set(o, []);
      to.get(o).push(u);
    }
    calls.set(s, to);
  }
  const upwardCalls = [];
  for (const [from, to] of calls)
    for (const [t, syms] of to) if (rank(t) > rank(from)) upwardCalls.push({ from, to: t, symbols: syms });
  const graph = new Map([...calls].map(([f, to]) => [f, new Set(to.keys())]));
  const cycles = stronglyConnected(graph).filter((c) => c.length > 1);
  return { files, calls, includes, upwardCalls, upwardIncludes, cycles, problems, rawHeap };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = process.argv[2] ?? ROOT;
  const r = await analyse(root);
  const edges = [...r.calls.values()].reduce((n, to) => n + to.size, 0);
  console.log(`${r.files.filter((f) => f.endsWith('.c')).length} C files, ${edges} file-to-file call edges`);
  console.log(`call cycles: ${r.cycles.length} group(s)${r.cycles.length ? ' of ' + r.cycles.map((c) => c.length).join(', ') + ' files' : ''}`);
  for (const c of r.cycles) console.log('  ' + c.join(' '));
  const upward = r.upwardCalls.reduce((n, u) => n + u.symbols.length, 0);
  console.log(`upward calls: ${upward} (${r.upwardCalls.length} file pairs)`);
  for (const u of r.upwardCalls) console.log(`  ${u.from} -> ${u.to}: ${u.symbols.join(' ')}`);
  console.log(`upward includes: ${r.upwardIncludes.length}`);
  for (const u of r.upwardIncludes) console.log(`  ${u.from} -> ${u.to}`);
  console.log(`raw heap calls outside the allocator: ${r.rawHeap.length}`);
  for (const h of r.rawHeap) console.log(`  ${h.file}:${h.line} ${h.call}`);
  for (const p of r.problems) console.log('problem: ' + p);
}
