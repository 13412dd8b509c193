// Writes the committed seed corpus of the binary fuzzers (tests/c/seeds/<harness>/): small files
// built by the project's own generators (tests/js/lib/*-build.mjs), each reaching a different part
// of its parser. Small seeds keep the harnesses fast (thousands of runs a second) while the shared
// corpus's real files, hundreds of kilobytes each, are kept for long campaigns (`npm run fuzz`).
//   node tools/make-fuzz-seeds.mjs          rewrite the seeds
//   node tools/make-fuzz-seeds.mjs --check  exit 1 when a committed seed differs from what it writes
import { mkdir, readFile, writeFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { buildIQM, FORMATS } from '../tests/js/lib/iqm-build.mjs';
import { buildMD3, quadSurface, packNormal } from '../tests/js/lib/md3-build.mjs';
import { buildTGA } from '../tests/js/lib/tga-build.mjs';
import { buildZip } from '../tests/js/lib/zip-build.mjs';
import { buildMD2 } from '../tests/js/lib/md2-build.mjs';
import { buildMDL } from '../tests/js/lib/mdl-build.mjs';
import { buildMDC, packOffset } from '../tests/js/lib/mdc-build.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const OUT = join(ROOT, 'tests/c/seeds');

const I = { translate: [0, 0, 0], rotate: [0, 0, 0, 1], scale: [1, 1, 1] };
const zQuat = (deg) => [0, 0, Math.sin((deg * Math.PI) / 360), Math.cos((deg * Math.PI) / 360)];

// -- IQM
function iqmSeeds() {
  const tri = {
    vertexArrays: [
      { type: 'position', format: 'float', size: 3, data: [0, 0, 0, 1, 0, 0, 0, 1, 0] },
      { type: 'texcoord', format: 'float', size: 2, data: [0, 0, 1, 0, 0, 1] },
      { type: 'normal', format: 'float', size: 3, data: [0, 0, 1, 0, 0, 1, 0, 0, 1] },
    ],
    triangles: [[0, 1, 2]],
    meshes: [{ name: 'tri', material: 'skin.tga' }],
  };
  const skinArrays = [
    { type: 'blendindexes', format: 'ubyte', size: 4, data: [0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0] },
    { type: 'blendweights', format: 'ubyte', size: 4, data: [200, 55, 0, 0, 255, 0, 0, 0, 128, 127, 0, 0] },
  ];
  const joints = [
    { name: 'root', parent: -1, ...I },
    { name: 'arm', parent: 0, translate: [1, 0, 0], rotate: zQuat(30), scale: [1, 1, 1] },
  ];
  const frames = [0, 90, 180].map((a) => [
    { translate: [0, 0, a / 90], rotate: zQuat(a), scale: [1, 1, 1] },
    { translate: [1, 0, 0], rotate: zQuat(-a), scale: [1, 1 + a / 180, 1] },
  ]);
  const anims = [
    { name: 'wave', firstFrame: 0, frameCount: 3, framerate: 10, loop: true },
    { name: 'hold', firstFrame: 2, frameCount: 1, framerate: 0, loop: false },
  ];
  const bounds = frames.map((_, f) => [-1, -1, -1, 2, 2, 1 + f, 2, 3]);
  const skinned = { ...tri, vertexArrays: [...tri.vertexArrays, ...skinArrays], joints, frames, anims, bounds };
  return {
    'static.iqm': buildIQM(tri).bytes,
    'skinned.iqm': buildIQM(skinned).bytes,
    'animation-only.iqm': buildIQM({ joints, frames, anims }).bytes,
    'poses-no-joints.iqm': buildIQM({ poseParents: [-1, 0], frames, anims }).bytes,
    'formats.iqm': buildIQM({
      vertexArrays: [
        { type: 'position', format: 'half', size: 3, data: [0, 0, 0, 1, 0, 0, 0, 1, 0] },
        { type: 'texcoord', format: 'ushort', size: 2, data: [0, 0, 65535, 0, 0, 65535] },
        { type: 'normal', format: 'byte', size: 3, data: [0, 0, 127, 0, 0, 127, 0, 0, 127] },
        { type: 'tangent', format: 'short', size: 4, data: [32767, 0, 0, 32767, 32767, 0, 0, 32767, 32767, 0, 0, -32767] },
        { type: 'color', format: 'ubyte', size: 4, data: [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255] },
        { type: { custom: 'extra' }, format: 'double', size: 1, data: [1, 2, 3] },
        ...skinArrays.map((a) => ({ ...a, format: a.type === 'blendweights' ? 'float' : 'int', data: a.type === 'blendweights' ? [0.75, 0.25, 0, 0, 1, 0, 0, 0, 0.5, 0.5, 0, 0] : a.data })),
      ],
      triangles: [[0, 1, 2]],
      adjacency: [[0xffffffff, 0xffffffff, 0xffffffff]],
      meshes: [{ name: 'tri', material: 'skin' }],
      joints,
      comment: 'seed comment',
      extensions: [{ name: 'FTE_TEST', data: new Uint8Array([1, 2, 3, 4]) }],
    }).bytes,
  };
}
void FORMATS;

// -- MD3
function md3Seeds() {
  const up = packNormal(0, 0), east = packNormal(0, 64);
  const moving = quadSurface({ name: 'u_torso', frameZ: [0, 4, 10] });
  moving.frames[1].forEach((v) => { v.normal = east; });
  const tagFrames = [0, 1, 2].map((f) => ({ origin: [f, 0, 8], axes: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] }));
  void up;
  return {
    'quad.md3': buildMD3({ surfaces: [quadSurface()] }).bytes,
    'frames-tags.md3': buildMD3({
      surfaces: [moving, quadSurface({ name: 'h_head', frameZ: [1, 2, 3], shaders: [{ name: 'a.tga', index: 0 }, { name: 'b', index: 1 }] })],
      tags: [{ name: 'tag_head', frames: tagFrames }, { name: 'tag_weapon', frames: tagFrames }],
    }).bytes,
  };
}

// -- TGA
function tgaSeeds() {
  const pixels = [255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 255, 255, 255, 255];
  const grey = [10, 10, 10, 255, 200, 200, 200, 255, 10, 10, 10, 255, 200, 200, 200, 255];
  const palette = [[255, 0, 0, 255], [0, 0, 255, 255]];
  return {
    'rgb24.tga': buildTGA({ width: 2, height: 2, type: 2, depth: 24, pixels }),
    'rgba32-topleft.tga': buildTGA({ width: 2, height: 2, type: 2, depth: 32, pixels, topLeft: true }),
    'rle32.tga': buildTGA({ width: 2, height: 2, type: 10, depth: 32, pixels }),
    'rgb16.tga': buildTGA({ width: 2, height: 2, type: 2, depth: 16, pixels, alphaBits: 1 }),
    'grey-rle.tga': buildTGA({ width: 2, height: 2, type: 11, depth: 8, pixels: grey }),
    'mapped.tga': buildTGA({ width: 2, height: 2, type: 1, depth: 8, palette, indices: [0, 1, 1, 0], mapBits: 24, pixels }),
    'mapped-rle.tga': buildTGA({ width: 2, height: 2, type: 9, depth: 8, palette, indices: [0, 0, 1, 1], mapBits: 32, pixels, id: new Uint8Array([7, 7]) }),
  };
}

// -- zip
function zipSeeds() {
  const text = new TextEncoder().encode('a b c\n'.repeat(8));
  return {
    'stored.zip': buildZip([{ name: 'models/a.md3', data: text }, { name: 'scripts/a.shader', data: text }], { comment: 'seed' }).bytes,
    'deflated.zip': buildZip([{ name: 'textures/a.tga', data: text, deflate: true }, { name: 'b.tga', sameAs: 0 }]).bytes,
    'descriptor.zip': buildZip([{ name: 'a/', data: '' }, { name: 'a/b.cfg', data: text, deflate: true, descriptor: true }]).bytes,
  };
}

// -- MD2, MDL, MDC: a quad over frames named as clips (MD2), with a skin, a seam and a frame group (MDL),
// base and compressed frames with a tag (MDC)
function md2Seeds() {
  const frame = (name, dz, n) => ({ name, scale: [0.5, 0.25, 2], translate: [-8, 4, dz], verts: [[0, 0, 0, n], [64, 0, 1, n], [64, 128, 2, n], [0, 128, 3, n]] });
  const quad = {
    skinWidth: 32, skinHeight: 16, skins: ['models/test/skin.pcx'], st: [[0, 0], [32, 0], [32, 16], [0, 16], [8, 4]],
    triangles: [{ xyz: [0, 1, 2], st: [0, 1, 2] }, { xyz: [0, 2, 3], st: [4, 2, 3] }],
  };
  return {
    'one-frame.md2': buildMD2({ ...quad, frames: [frame('stand1', 0, 5)] }).bytes,
    'clips.md2': buildMD2({ ...quad, frames: [frame('run1', 0, 5), frame('run2', 4, 52), frame('pain101', 8, 100), frame('pain102', 12, 161)] }).bytes,
  };
}
function mdlSeeds() {
  const base = {
    scale: [0.5, 0.25, 2], origin: [-10, 4, -1], skinWidth: 8, skinHeight: 4,
    stverts: [{ s: 0, t: 0 }, { onseam: 32, s: 2, t: 1 }, { s: 6, t: 3 }, { s: 4, t: 2 }],
    triangles: [{ facesfront: 1, verts: [0, 1, 2] }, { facesfront: 0, verts: [0, 3, 1] }],
  };
  const pose = (name, z, n = 5) => ({ name, box: [[0, 0, z], [200, 100, z + 3]], verts: [[0, 0, z, n], [200, 0, z + 1, n], [200, 100, z + 2, n], [0, 100, z + 3, n]] });
  const pixels = Uint8Array.from({ length: 32 }, (_, i) => i * 8);
  const group = { group: [pose('fly1', 4), pose('fly2', 6)], intervals: [0.1, 0.2], box: [[0, 0, 4], [200, 100, 9]] };
  return {
    'skinned.mdl': buildMDL({ ...base, skins: [pixels], frames: [pose('walk1', 0), pose('walk2', 10, 52)] }).bytes,
    'group.mdl': buildMDL({ ...base, skins: [pixels], frames: [pose('stand1', 0), group, pose('die1', 2)] }).bytes,
  };
}
function mdcSeeds() {
  const surface = {
    name: 'body', shaders: ['models/x/body.tga'], triangles: [[0, 1, 2]], st: [[0, 0], [1, 0], [0, 1]],
    base: [[{ xyz: [0, 0, 0] }, { xyz: [640, 0, 0] }, { xyz: [0, 640, 64] }], [{ xyz: [64, 64, 64] }, { xyz: [640, 64, 64] }, { xyz: [64, 640, 128] }]],
    comp: [[0, 8, 32].map((n, i) => packOffset(127 + i, 107, 200, n))],
    baseOf: [0, 0, 1], compOf: [-1, 0, -1],
  };
  return {
    'tagged.mdc': buildMDC({
      frames: [{ name: 'a' }, { name: 'b' }, { name: 'c' }],
      tags: [{ name: 'tag_weapon', frames: [0, 1, 2].map((f) => ({ xyz: [64 * f, 128, -32], angles: [0, 8175, 0] })) }],
      surfaces: [surface],
    }).bytes,
  };
}

const SEEDS = { fuzz_iqm: { ...iqmSeeds(), ...md3Seeds() }, fuzz_anim: iqmSeeds(), fuzz_iqe: { 'static.iqm': iqmSeeds()['static.iqm'], 'skinned.iqm': iqmSeeds()['skinned.iqm'] },
  fuzz_md3: md3Seeds(), fuzz_tga: tgaSeeds(), fuzz_zip: zipSeeds(), fuzz_md2: md2Seeds(), fuzz_mdl: mdlSeeds(), fuzz_mdc: mdcSeeds() };

const check = process.argv.includes('--check');
let differ = 0;
for (const [harness, files] of Object.entries(SEEDS)) {
  const dir = join(OUT, harness);
  if (!check) { await rm(dir, { recursive: true, force: true }); await mkdir(dir, { recursive: true }); }
  for (const [name, bytes] of Object.entries(files)) {
    const data = bytes instanceof Uint8Array ? bytes : Uint8Array.from(bytes);
    if (check) {
      const old = await readFile(join(dir, name)).catch(() => null);
      if (!old || Buffer.compare(old, Buffer.from(data)) !== 0) { console.error(`differs: ${harness}/${name}`); differ++; }
    } else {
      await writeFile(join(dir, name), data);
    }
  }
  if (check) {
    for (const name of await readdir(dir).catch(() => [])) if (!(name in files)) { console.error(`extra: ${harness}/${name}`); differ++; }
  }
}
if (differ) process.exit(1);
