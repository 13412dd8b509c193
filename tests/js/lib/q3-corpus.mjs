// The OpenArena sarge player from the shared corpus, as game paths, as paths relative to
// the player folder, and as a .pk3 written by zip-build.mjs (deflated models and text,
// stored images, so both methods are read).
import { readdirSync, readFileSync } from 'node:fs';
import { buildZip } from './zip-build.mjs';
import { buildMD3 } from './md3-build.mjs';

export const ROOT = new URL('../../../../shared/corpus/md3/openarena/', import.meta.url);
export const SARGE = 'models/players/sarge';
export const GRISM = 'models/players/grism';

/** Map of game path -> bytes for sarge and the grism textures its skins use. */
export function gameFiles() {
  const files = new Map();
  for (const folder of [SARGE, GRISM]) {
    for (const name of readdirSync(new URL(folder, ROOT)).sort()) {
      files.set(`${folder}/${name}`, new Uint8Array(readFileSync(new URL(`${folder}/${name}`, ROOT))));
    }
  }
  return files;
}

/** sarge's own files relative to its folder, the textures by full game path. */
export function relativeFiles() {
  const out = {};
  for (const [path, bytes] of gameFiles()) out[path.startsWith(`${SARGE}/`) ? path.slice(SARGE.length + 1) : path] = bytes;
  return out;
}

export function sargePk3() {
  const files = [...gameFiles()].map(([name, data]) => ({ name, data, deflate: !name.endsWith('.tga') }));
  return buildZip(files);
}

// A gun on tag_weapon (the corpus has no weapon): a box 20 units long, both windings, untextured.
export function gunFiles() {
  const box = (name, x0, x1) => ({
    name, shaders: [{ name: '', index: 0 }],
    triangles: [[0, 1, 2], [0, 2, 3], [0, 2, 1], [0, 3, 2]], texcoords: [[0, 0], [1, 0], [1, 1], [0, 1]],
    frames: [[[x0, -2, -2], [x1, -2, -2], [x1, 2, 2], [x0, 2, 2]].map((xyz) => ({ xyz, normal: 0 }))],
  });
  return { 'models/weapons2/gun/gun.md3': buildMD3({ surfaces: [box('w_gun', 0, 20)] }).bytes };
}
