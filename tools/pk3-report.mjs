// Reports what a .pk3 holds and how well its Quake 3 players resolve:
//   node tools/pk3-report.mjs path/to/pak.pk3 [--missing]
// Every entry is read (inflate + CRC-32), every player is loaded with every skin, and
// unresolved textures, animations outside their MD3 and other warnings are listed.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { init } from '../web/interquake.node.js';

const [path, flag] = process.argv.slice(2);
if (!path) {
  console.error('usage: node tools/pk3-report.mjs file.pk3 [--missing]');
  process.exit(2);
}
const iq = await init();
const bytes = new Uint8Array(readFileSync(path));
let t = performance.now();
const archive = await iq.openArchive(bytes, { name: path });
console.log(`${path}: ${archive.files.length} files, ${archive.models.length} models, ${archive.players.length} players (directory read in ${(performance.now() - t).toFixed(1)} ms)`);
for (const w of archive.warnings) console.log(`  warning: ${w.message}`);

t = performance.now();
let total = 0;
let unreadable = 0;
for (const file of archive.files) {
  try {
    total += archive.read(file).length;
  } catch (err) {
    unreadable++;
    console.log(`  unreadable: ${err.message}`);
  }
}
console.log(`read every file: ${(total / 1e6).toFixed(1)} MB in ${(performance.now() - t).toFixed(0)} ms, ${unreadable} unreadable`);

let references = 0;
let failed = 0;
const missing = new Set();
for (const info of archive.players) {
  let player;
  try {
    player = iq.loadPlayer(archive, { player: info.path });
  } catch (err) {
    failed++;
    console.log(`${info.path}: FAILED ${err.code}: ${err.message}`);
    continue;
  }
  const unresolved = new Set();
  for (const skin of player.skins) {
    const resolved = player.resolveSkin(skin);
    for (const part of ['lower', 'upper', 'head']) references += resolved.surfaces[part].length;
    for (const file of resolved.missingFiles) unresolved.add(file);
  }
  for (const file of unresolved) missing.add(file);
  const unfit = player.animations.filter((a) => !a.fits).map((a) => a.name);
  console.log(`${info.path}: skins ${info.skins.join(', ')}; LODs ${info.lods.join(', ')}; ` +
    `${player.animations.length} animations${unfit.length ? ` (${unfit.length} outside their MD3)` : ''}; ${unresolved.size} unresolved`);
  for (const w of player.warnings) console.log(`  warning: ${w.message}`);
  player.dispose();
}
console.log(`players: ${archive.players.length - failed} loaded, ${failed} failed; ${references} surface references over every skin, ${missing.size} distinct unresolved`);
if (flag === '--missing') for (const file of [...missing].sort()) console.log(`  missing: ${file}`);
process.exit(failed || unreadable ? 1 : 0);
