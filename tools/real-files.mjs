// Loads every MD2, MDL and .framegroups (with its model) in the games' data that Debian installs
// (ufoai-data: /usr/share/games/ufoai; nexuiz-data: /usr/share/games/nexuiz), inside their .pk3s,
// through the public API, and reports counts per format and source. Every model must load with
// finite positions and normals at every frame and mid-frame, and every MD2 frame's vertices must
// lie in its byte range (translate .. translate + 255 * scale, read by a separate decoder here).
// Not a test: the data is not in CI. `node tools/real-files.mjs` (the figures in docs/API-md2.md).
import { readFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { init } from '../web/interquake.node.js';

const iq = await init();
const SOURCES = [['UFO: Alien Invasion (ufoai-data)', '/usr/share/games/ufoai/base'], ['Nexuiz (nexuiz-data)', '/usr/share/games/nexuiz/data']];
const counts = {};
const problems = [];
const count = (source, kind, ok) => {
  const c = (counts[`${source}: ${kind}`] ??= { loaded: 0, failed: 0 });
  c[ok ? 'loaded' : 'failed']++;
};

function finite(model) {
  const frames = Math.max(model.frameCount, 1);
  for (let f = 0; f < frames; f += Math.max(1, Math.floor(frames / 16))) {
    for (const t of [f, f + 0.5]) {
      const { positions, normals } = model.evaluate(Math.min(t, frames - 1));
      if (!positions.every(Number.isFinite) || (normals && !normals.every(Number.isFinite))) return false;
    }
  }
  return true;
}

// A separate MD2 frame decoder: each frame's scale and translate, and the range its bytes reach.
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

function check(source, kind, path, bytes, options = {}) {
  try {
    const model = iq.load(bytes, { name: path, ...options });
    let ok = finite(model);
    if (ok && model.format === 'md2') {
      const ranges = md2Ranges(bytes);
      const n = model.vertexCount;
      ranges.forEach((r, f) => {
        for (let i = 0; i < n * 3; i++) {
          const v = model.framePositions[f * n * 3 + i];
          if (v < r.lo[i % 3] - 1e-3 || v > r.hi[i % 3] + 1e-3) ok = false;
        }
      });
    }
    if (!ok) problems.push(`${path}: values outside what the file holds`);
    count(source, `${kind} (${model.format})`, ok);
    model.dispose();
  } catch (err) {
    problems.push(`${path}: ${err.code} ${err.message}`);
    count(source, kind, false);
  }
}

for (const [source, dir] of SOURCES) {
  if (!existsSync(dir)) { console.log(`${source}: not installed (${dir})`); continue; }
  for (const pk3 of readdirSync(dir).filter((n) => /\.pk3$/i.test(n)).sort()) {
    const archive = await iq.openArchive(readFileSync(join(dir, pk3)), { name: pk3 });
    for (const path of archive.files) {
      const lower = path.toLowerCase();
      if (lower.endsWith('.md2')) check(source, 'MD2', `${pk3}:${path}`, archive.read(path));
      else if (lower.endsWith('.mdl') || (lower.endsWith('.md3') && iq.formatOf(archive.read(path)) === 'mdl')) {
        check(source, 'MDL', `${pk3}:${path}`, archive.read(path));
      } else if (lower.endsWith('.framegroups')) {
        const model = path.slice(0, -'.framegroups'.length);
        if (!archive.has(model)) { problems.push(`${pk3}:${path}: no ${model} beside it`); continue; }
        const bytes = archive.read(model);
        const format = iq.formatOf(bytes);
        if (!iq.readsFormat(format)) { count(source, `.framegroups beside ${format} (not read by this library)`, true); continue; }
        check(source, '.framegroups', `${pk3}:${path}`, bytes, { framegroups: archive.read(path) });
      }
    }
    archive.dispose?.();
  }
}
for (const [what, c] of Object.entries(counts)) console.log(`${what}: ${c.loaded} loaded${c.failed ? `, ${c.failed} failed` : ''}`);
for (const p of problems.slice(0, 20)) console.log(`  ${p}`);
process.exitCode = problems.length ? 1 : 0;
