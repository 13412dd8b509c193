// Folders of models as Cube 2 / Tesseract / Red Eclipse and Nexuiz ship them, built for tests
// from hand-written descriptions (no game file): a creature with two meshes (Body, Tail) whose
// textures only its iqm.cfg names, a prop with more vertices and no joints, animation-only
// files, and coloured TGA textures.
import { buildIQM } from './iqm-build.mjs';
import { buildTGA } from './tga-build.mjs';

const I = { translate: [0, 0, 0], rotate: [0, 0, 0, 1], scale: [1, 1, 1] };
const JOINTS = [{ name: 'root', parent: -1, ...I }, { name: 'tail', parent: 0, ...I, translate: [0, -1, 0] }];

/** A flat-colour 4x4 TGA. */
export function colourTGA([r, g, b]) {
  return buildTGA({ width: 4, height: 4, type: 2, depth: 24, pixels: new Uint8Array(Array.from({ length: 16 }, () => [r, g, b, 255]).flat()) });
}

/** The creature: Body (a quad facing -Y, material 'Body') and Tail (a quad, material 'Tail'), two joints. */
export function creatureIQM() {
  // Two quads in the XZ plane, side by side, facing the viewer's default camera.
  const quad = (x0) => [x0, 0, 0, x0 + 1, 0, 0, x0 + 1, 0, 2, x0, 0, 2];
  return buildIQM({
    vertexArrays: [
      { type: 'position', format: 'float', size: 3, data: [...quad(-1), ...quad(0)] },
      { type: 'normal', format: 'float', size: 3, data: Array.from({ length: 8 }, () => [0, -1, 0]).flat() },
      { type: 'texcoord', format: 'float', size: 2, data: Array.from({ length: 2 }, () => [0, 0, 1, 0, 1, 1, 0, 1]).flat() },
      { type: 'blendindexes', format: 'ubyte', size: 4, data: [...Array(16).fill(0), ...[1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]] },
      { type: 'blendweights', format: 'ubyte', size: 4, data: Array.from({ length: 8 }, () => [255, 0, 0, 0]).flat() },
    ],
    triangles: [[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7]],
    meshes: [
      { name: 'Body', material: 'Body', firstVertex: 0, vertexCount: 4, firstTriangle: 0, triangleCount: 2 },
      { name: 'Tail', material: 'Tail', firstVertex: 4, vertexCount: 4, firstTriangle: 2, triangleCount: 2 },
    ],
    joints: JOINTS,
  }).bytes;
}

/** Animation-only: the creature's joints, `frames` frames of an animation called `name`. */
export function creatureAnimation(name, frames = 4) {
  return buildIQM({
    joints: JOINTS,
    frames: Array.from({ length: frames }, (_, f) => [I, { ...I, translate: [0, -1, f * 0.1] }]),
    anims: [{ name, firstFrame: 0, frameCount: frames, framerate: 10, loop: true }],
  }).bytes;
}

/** A prop: more vertices than the creature, no joints (a folder's character is not its prop). */
export function propIQM() {
  const positions = [];
  for (let i = 0; i < 12; i++) positions.push(i, 0, 0, i + 1, 0, 0, i, 0, 1);
  return buildIQM({
    vertexArrays: [{ type: 'position', format: 'float', size: 3, data: positions }],
    triangles: Array.from({ length: 12 }, (_, i) => [3 * i, 3 * i + 1, 3 * i + 2]),
    meshes: [{ name: 'crate', material: 'crate.tga' }],
  }).bytes;
}

export const CREATURE_CFG = `// the creature (hand-written for interquake's tests)
iqmload "creature.iqm" creature
iqmskin "Body" "<compress:2>creature_body.tga" "<compress:2>creature_spec.tga" // .9 .8
iqmbumpmap "Body" "creature_nor.tga"
iqmskin "Tail" "<dds>tail.tga"
mdlscale 250
mdltrans 0 0 0.5
mdlyaw 90
iqmtag "tail" "tag_weapon"
iqmanim "forward" "creature_run.iqm" 70 1
iqmanim "idle|mapmodel" "creature_idle.iqm" 0 -1
`;

/** A Cube 2 model folder: creature + its cfg + textures + animation files, and a prop. Keys under `prefix`. */
export function creatureFolder(prefix = 'creature/') {
  return {
    [`${prefix}creature.iqm`]: creatureIQM(),
    [`${prefix}a_crate.iqm`]: propIQM(),
    [`${prefix}creature_run.iqm`]: creatureAnimation('Run'),
    [`${prefix}creature_idle.iqm`]: creatureAnimation('Idle1', 2),
    [`${prefix}creature_blink.iqm`]: creatureAnimation('Blink', 2),
    [`${prefix}iqm.cfg`]: new TextEncoder().encode(CREATURE_CFG),
    [`${prefix}creature_body.tga`]: colourTGA([220, 40, 40]),
    [`${prefix}tail.tga`]: colourTGA([40, 40, 220]),
  };
}
