// The adjacency writeIQM computes, against a reference written here from IQM's definition (edge k
// of a triangle runs from corner k to corner k+1, corners matched by position; its neighbour is
// the other triangle when exactly two triangles have that edge). Guards the writer's output while
// its algorithm changes (the speed is in tools/bench-iqm-write.mjs): polygons as fans, edges
// shared by three triangles, degenerate edges, split vertices, and corpus models.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { init } from 'interquake';

const iq = await init();
const corpus = (path) => readFileSync(fileURLToPath(new URL(`../../../../shared/corpus/${path}`, import.meta.url)));
const NONE = 0xffffffff;

/** IQM adjacency from positions and indices, the slow and obvious way. */
function referenceAdjacency(positions, indices) {
  const ids = new Map(); // position (as its three floats, -0 as 0) -> id
  const pid = (v) => {
    const key = [0, 1, 2].map((k) => (positions[3 * v + k] === 0 ? 0 : positions[3 * v + k])).join(',');
    if (!ids.has(key)) ids.set(key, ids.size);
    return ids.get(key);
  };
  const edges = new Map(); // "lo,hi" -> corners, in order
  for (let c = 0; c < indices.length; c++) {
    const t = Math.floor(c / 3);
    const a = pid(indices[c]);
    const b = pid(indices[3 * t + ((c % 3) + 1) % 3]);
    if (a === b) continue;
    const key = a < b ? `${a},${b}` : `${b},${a}`;
    if (!edges.has(key)) edges.set(key, []);
    edges.get(key).push(c);
  }
  const adj = new Array(indices.length).fill(NONE);
  for (const corners of edges.values()) {
    if (corners.length !== 2) continue;
    const [x, y] = corners;
    if (Math.floor(x / 3) === Math.floor(y / 3)) continue;
    adj[x] = Math.floor(y / 3);
    adj[y] = Math.floor(x / 3);
  }
  return adj;
}

function writtenAdjacency(model) {
  const written = iq.load(iq.writeIQM(model), { name: 'written.iqm' });
  const adj = [...written.adjacency];
  written.dispose();
  return adj;
}

function iqe(lines) {
  return iq.load(new TextEncoder().encode(`# Inter-Quake Export\n${lines.join('\n')}\n`), { name: 'test.iqe' });
}

test('a polygon of 2000 corners (one fa line, a fan): every inner edge has its neighbour', () => {
  const n = 2000;
  const lines = ['mesh polygon'];
  for (let i = 0; i < n; i++) lines.push(`vp ${Math.cos((2 * Math.PI * i) / n)} ${Math.sin((2 * Math.PI * i) / n)} 0`);
  lines.push(`fa ${Array.from({ length: n }, (_, i) => i).join(' ')}`);
  const model = iqe(lines);
  assert.equal(model.triangleCount, n - 2);
  const adj = writtenAdjacency(model);
  assert.deepEqual(adj, referenceAdjacency(model.positions, model.indices));
  assert.equal(adj.filter((t) => t !== NONE).length, 2 * (n - 3), 'n - 3 inner edges, each seen from both sides');
  model.dispose();
});

test('edges of three triangles, degenerate edges and split vertices (same position, other texcoords)', () => {
  const model = iqe([
    'mesh m',
    // 0..3: a quad; 4: a third triangle on edge 0-1; 5 repeats position 0 with another texcoord; 6 repeats 2
    'vp 0 0 0', 'vp 1 0 0', 'vp 1 1 0', 'vp 0 1 0', 'vp 0.5 -1 0', 'vp 0 0 0', 'vp 1 1 0',
    'vt 0 0', 'vt 1 0', 'vt 1 1', 'vt 0 1', 'vt 0.5 0', 'vt 0.2 0.2', 'vt 0.9 0.9',
    'fm 0 1 2', 'fm 5 6 3', // the quad's diagonal shared through split vertices
    'fm 1 0 4', 'fm 0 1 3', // edge 0-1 now in three triangles: no neighbour
    'fm 2 2 3', // a degenerate triangle: its 2-2 edge has none
  ]);
  const adj = writtenAdjacency(model);
  const reference = referenceAdjacency(model.positions, model.indices);
  assert.deepEqual(adj, reference);
  assert.equal(adj[0], NONE, 'edge 0-1 is shared by three triangles');
  assert.equal(adj[2], 1, 'the diagonal (corner 2: 2 -> 0) meets triangle 1 through its split vertices');
  assert.equal(adj[3], 0, 'triangle 1 (corner 3: 5 -> 6) sees triangle 0 across the same diagonal');
  model.dispose();
});

test('corpus IQE models (IQE has no adjacency: the writer computes it): the written adjacency is the reference', () => {
  for (const path of ['iqe/unvanquished/jetpack.iqe', 'iqe/unvanquished/weapons/level1/vwep_view.iqe', 'iqe/unvanquished/missiles/rocket/rocket.iqe']) {
    const model = iq.load(corpus(path), { name: path });
    assert.deepEqual(writtenAdjacency(model), referenceAdjacency(model.positions, model.indices), path);
    model.dispose();
  }
});
