// Parses every scripts/*.shader of the given .pk3 files and reports the scripts that fail and
// the notes (what Quake 3 accepts with a warning) by kind: how close the shader parser is to the
// engines on real data. Not a test (it reads game data that is not in the repository).
//   node tools/shader-report.mjs /usr/share/games/nexuiz/data/data.pk3 /usr/share/games/openarena/baseoa/*.pk3
import { readFile } from 'node:fs/promises';
import { init } from '../web/interquake.node.js';
import { parseShaders } from '../web/quake3/shaders.js';

const iq = await init();
let scripts = 0;
let blocks = 0;
const failures = [];
const notes = new Map();
for (const path of process.argv.slice(2)) {
  const archive = await iq.openArchive(await readFile(path), { name: path });
  const set = parseShaders(iq, archive);
  scripts += set.scripts.length + set.errors.length;
  for (const e of set.errors) failures.push(`${path.split('/').pop()}: ${e.error.message}`);
  for (const script of set.scripts) {
    blocks += script.shaders.length;
    for (const n of script.notes ?? []) {
      const key = `${n.kind}: ${n.keyword} ${String(n.detail ?? '').replace(/\d+(\.\d+)?/g, 'N')}`;
      notes.set(key, (notes.get(key) ?? 0) + 1);
    }
    if (script.noteCount > script.notes.length) notes.set('(notes not kept)', (notes.get('(notes not kept)') ?? 0) + script.noteCount - script.notes.length);
  }
}
console.log(`${scripts} scripts, ${blocks} blocks, ${failures.length} scripts refused`);
for (const f of failures) console.log(`  refused: ${f}`);
console.log(`notes (${[...notes.values()].reduce((a, b) => a + b, 0)}):`);
for (const [k, n] of [...notes].sort((a, b) => b[1] - a[1])) console.log(`  ${n}  ${k}`);
