// node tools/render-docs.mjs: the pictures of docs/RENDER.md, made by the renderer itself from the
// corpus (docs/render/*.png). Small on purpose: they are committed.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from '../web/interquake.node.js';
import { openTarget } from '../bin/cli/targets.mjs';

const corpus = fileURLToPath(new URL('../../shared/corpus/', import.meta.url));
const out = fileURLToPath(new URL('../docs/render/', import.meta.url));
mkdirSync(out, { recursive: true });
const iq = await init();
const dir = join(corpus, 'iqm/mrfixit');
const mrfixit = iq.load(readFileSync(join(dir, 'mrfixit.iqm')), { name: 'mrfixit.iqm' });
const files = (name) => { try { return readFileSync(join(dir, name)); } catch { return null; } };
writeFileSync(join(out, 'mrfixit.png'), await iq.encodePNG(await iq.render(mrfixit, { width: 200, height: 200, files, background: 'transparent', frame: 40 })));
writeFileSync(join(out, 'mrfixit-show.png'), await iq.encodePNG(await iq.render(mrfixit, { width: 200, height: 200, files, frame: 40, show: 'wireframe skeleton bounds grid' })));
const { player } = await openTarget(iq, join(corpus, 'md3/openarena/models/players/sarge'));
writeFileSync(join(out, 'sarge-show.png'), await iq.encodePNG(await iq.render(player, { width: 200, height: 200, legsAnimation: 'LEGS_RUN', time: 0.3, show: 'tags bounds grid' })));
writeFileSync(join(out, 'sarge.png'), await iq.encodePNG(await iq.render(player, { width: 200, height: 200, legsAnimation: 'LEGS_RUN', time: 0.3, background: 'transparent' })));
const turn = await iq.renderAnimation(player, { width: 96, height: 96, frames: 12, fps: 8, turntable: true, background: 'transparent' });
writeFileSync(join(out, 'sarge-turntable.png'), await iq.encodeAPNG(turn));
const walk = await iq.renderAnimation(player, { width: 64, height: 64, frames: 8, legsAnimation: 'LEGS_WALK', background: 'transparent' });
const sheet = await iq.encodeSpriteSheet(walk, { columns: 8 });
writeFileSync(join(out, 'sarge-walk-sheet.png'), sheet.png);
writeFileSync(join(out, 'sarge-walk-sheet.json'), `${JSON.stringify(sheet.atlas, null, 2)}\n`);
mrfixit.dispose();
player.dispose();
