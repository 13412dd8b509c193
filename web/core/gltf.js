// glTF 2.0 export (docs/GLTF.md): a model, or a scene of parts hanging from tags (a Quake 3
// player, built by web/quake3/gltf.js), as one GLB. The C writes the GLB (src/write/iq_gltf.c through
// iq_wasm_write_glb); this module builds the scene records, embeds textures (TGA decoded by the
// C and re-encoded as PNG here, PNG and JPEG passed through) and adds to `extras` what glTF has
// no field for. A texture that cannot be found or read is a warning, never a failure.

import { InterquakeError, toBytes } from './wasm.js';
import { imageKind, encodePNG, decodePNG, alphaModeOf } from './images.js';
import { meshTextureName, pathKey, textureCandidates } from './paths.js';

// -- Options

/**
 * What options.scale 'metres' multiplies by: a Quake unit taken as 3.2 cm, so the Quake 3 player
 * box, 56 units from its feet (24 below the origin) to the top (32 above), is 1.79 m (sarge's
 * mesh, 54 units, 1.73 m), and a 64-unit door 2.05 m.
 */
export const METRES_PER_QUAKE_UNIT = 0.032;

/** Checks the options writeGLB() shares between models and players. */
export function checkOptions(lib, options) {
  if (options === null || typeof options !== 'object') throw new InterquakeError('invalid_argument', 'writeGLB() options must be an object');
  const { maxMorphTargets, files, front, scale, ground } = options;
  if (front !== undefined && front !== 'x' && front !== 'z') {
    throw new InterquakeError('invalid_argument', `front must be 'x' (as the model is) or 'z' (glTF's front), got ${JSON.stringify(front)}`);
  }
  if (scale !== undefined && scale !== 'metres' && !(typeof scale === 'number' && Number.isFinite(scale) && scale > 0 && scale <= 1e6)) {
    throw new InterquakeError('invalid_argument', `scale must be a number in (0, 1e6] or 'metres', got ${JSON.stringify(scale)}`);
  }
  if (ground !== undefined && typeof ground !== 'boolean' && !(typeof ground === 'number' && Number.isFinite(ground) && Math.abs(ground) <= 1e6)) {
    throw new InterquakeError('invalid_argument', `ground must be true, false or the height (model units, Z up) to put at y = 0, got ${JSON.stringify(ground)}`);
  }
  const limit = lib._wasm.constants.limit.gltfMaxTargets;
  if (maxMorphTargets !== undefined && (!Number.isInteger(maxMorphTargets) || maxMorphTargets < 1 || maxMorphTargets > limit)) {
    throw new InterquakeError('invalid_argument', `maxMorphTargets must be a whole number 1..${limit}, got ${maxMorphTargets}`);
  }
  if (options.textures !== undefined && options.textures !== null && !Array.isArray(options.textures)) {
    throw new InterquakeError('invalid_argument', 'options.textures must be an array: one texture name (or null) per mesh');
  }
  if (files !== undefined && files !== null && typeof files !== 'function' && typeof files !== 'object') {
    throw new InterquakeError('invalid_argument', 'options.files must be an object or Map of path -> bytes, or a function(path) -> bytes');
  }
}

// -- Where texture bytes come from for a loose model: options.files

/** A reader path -> bytes | null over an object, a Map or a function (which may return a promise). */
export function fileReader(files) {
  if (!files) return null;
  if (typeof files === 'function') {
    return async (path) => {
      const bytes = await files(path);
      return bytes == null ? null : toBytes(bytes, `options.files('${path}')`);
    };
  }
  const index = new Map();
  for (const [path, bytes] of files instanceof Map ? files.entries() : Object.entries(files)) {
    if (bytes != null) index.set(pathKey(path), bytes);
  }
  return async (path) => {
    const bytes = index.get(pathKey(path));
    return bytes == null ? null : toBytes(bytes, `options.files['${path}']`);
  };
}

// -- Images: PNG/JPEG passed through, TGA to PNG; the alpha mode from the pixels

// The alpha mode of a PNG passed through, from its pixels (BLEND when it cannot be read: a viewer
// then blends what it manages to show).
async function pngAlphaMode(bytes) {
  try {
    return alphaModeOf((await decodePNG(bytes)).data);
  } catch {
    return 'BLEND';
  }
}

/**
 * A texture file as an image glTF can embed: { bytes, mime, alphaMode }. TGA is decoded by the C
 * and re-encoded as PNG; PNG and JPEG are kept as they are. Throws InterquakeError when the bytes
 * are none of these.
 */
export async function embeddableImage(lib, bytes, path) {
  const kind = imageKind(bytes);
  if (kind === 'jpeg') return { bytes, mime: 'image/jpeg', alphaMode: 'OPAQUE' };
  if (kind === 'png') return { bytes, mime: 'image/png', alphaMode: await pngAlphaMode(bytes) };
  const image = lib.decodeTGA(bytes, { name: path });
  const alphaMode = alphaModeOf(image.data);
  const png = await encodePNG(image.width, image.height, image.data, { alpha: alphaMode !== 'OPAQUE' });
  return { bytes: png, mime: 'image/png', alphaMode };
}

/**
 * The scene's materials: one per name, each with its texture embedded when one is found.
 * add(name, candidates, read) returns the material's index; read(path) -> bytes | null is tried
 * on each candidate path in turn.
 */
export class Materials {
  constructor(lib, warnings, missing) {
    this._lib = lib;
    this._warnings = warnings;
    this._missing = missing;
    this._byName = new Map();
    this._images = new Map(); // path key -> embeddable image or null
    this.list = [];
  }

  async add(name, candidates, read) {
    if (this._byName.has(name)) return this._byName.get(name);
    const material = { name, image: null };
    let found = null;
    for (const path of read ? candidates : []) {
      const key = pathKey(path);
      if (this._images.has(key)) {
        found = { path, image: this._images.get(key) };
        break;
      }
      const bytes = await read(path);
      if (!bytes) continue;
      let image = null;
      try {
        image = await embeddableImage(this._lib, bytes, path);
      } catch (err) {
        if (!(err instanceof InterquakeError) || err.code === 'unavailable') throw err;
        this._warnings.push({ code: err.code, message: `${path}: not embedded: ${err.message}` });
      }
      this._images.set(key, image);
      found = { path, image };
      break;
    }
    if (found && found.image) {
      material.image = found.image;
      material.texture = found.path;
    } else if (!found && candidates.length) {
      this._missing.add(candidates[0]);
    }
    const index = this.list.length;
    this.list.push(material);
    this._byName.set(name, index);
    return index;
  }
}

/**
 * The scene's placement on its root node (the data itself is written unchanged): { front, scale,
 * floor } for the C's scene record. floorOf() gives the height to put on the ground when
 * options.ground is true (a player's feet, a model's lowest point); a number is taken as it is.
 */
export function placement(lib, options, floorOf) {
  const scale = options.scale === 'metres' ? METRES_PER_QUAKE_UNIT : options.scale ?? 1;
  const floor = typeof options.ground === 'number' ? options.ground : options.ground ? floorOf() : 0;
  return { front: lib._wasm.constants.gltf_front[options.front ?? 'x'], scale, floor };
}

/**
 * The lowest height (Z, model units) a model reaches: over every frame's vertices (MD3 frames; a
 * skeleton's frames as the library skins them), or its bind pose without frames.
 */
export function lowestPoint(model) {
  let low = Infinity;
  const scan = (positions) => {
    for (let i = 2; i < positions.length; i += 3) if (positions[i] < low) low = positions[i];
  };
  if (model.framePositions) scan(model.framePositions);
  else if (model.frameCount && model.joints.length) {
    const instance = model.createInstance(); // the model's own last evaluate() stays as it was
    try {
      for (let f = 0; f < model.frameCount; f++) scan(instance.evaluate(f).positions);
    } finally {
      instance.dispose();
    }
  }
  if (model.positions) scan(model.positions);
  return Number.isFinite(low) ? low : 0;
}

// -- The C call

/**
 * GLB bytes of a scene: spec.parts [{ model, name, parent (index or -1), attachIndex,
 * meshMaterials }], spec.materials (from Materials.list), spec.clips [{ name, framerate, loop,
 * ranges: [{ firstFrame, frameCount }] per part }] or none for the models' own animations,
 * spec.maxMorphTargets, spec.placement (from placement()).
 */
export function writeScene(lib, spec, file) {
  const wasm = lib._wasm;
  const heap = wasm.arena(file);
  const alpha = wasm.constants.gltf_alpha;
  try {
    const materials = heap.records('iq_gltf_material', spec.materials.map((m) => ({
      name: heap.string(m.name),
      image: m.image ? heap.bytes(m.image.bytes) : 0,
      imageSize: m.image ? m.image.bytes.length : 0,
      imageMime: m.image ? heap.string(m.image.mime) : 0,
      alphaMode: alpha[m.image ? m.image.alphaMode : 'OPAQUE'],
      baseColor: [1, 1, 1, 1],
    })));
    const parts = heap.records('iq_gltf_part', spec.parts.map((p) => {
      p.model._check();
      return {
        model: p.model._handle, // iq_wasm_write_glb looks the handle up
        name: heap.string(p.name),
        attached: p.parent >= 0 ? 1 : 0,
        parent: Math.max(p.parent, 0),
        attachIndex: p.attachIndex ?? 0,
        meshMaterials: p.meshMaterials ? heap.u32s(p.meshMaterials) : 0,
      };
    }));
    const clips = spec.clips || [];
    const clipRecords = heap.records('iq_gltf_clip', clips.map((c) => ({
      name: heap.string(c.name), framerate: c.framerate, loop: c.loop ? 1 : 0, ranges: heap.records('iq_gltf_range', c.ranges),
    })));
    const scene = heap.records('iq_gltf_scene', [{
      parts, partCount: spec.parts.length, materials, materialCount: spec.materials.length,
      clips: clipRecords, clipCount: clips.length, maxMorphTargets: spec.maxMorphTargets ?? 0,
      front: spec.placement?.front ?? 0, scale: spec.placement?.scale ?? 1, floor: spec.placement?.floor ?? 0,
    }]);
    const sizePtr = heap.alloc(4);
    const ptr = wasm.make('iq_wasm_write_glb', [scene, sizePtr, wasm.errorPtr], file);
    const bytes = wasm.copy(ptr, wasm.u32(sizePtr));
    wasm.free(ptr);
    return bytes;
  } finally {
    heap.free();
  }
}

// -- extras the C does not write: the JSON chunk is read, changed and written back

const u32le = (b, at) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
const putU32le = (b, at, v) => {
  b[at] = v & 255;
  b[at + 1] = (v >>> 8) & 255;
  b[at + 2] = (v >>> 16) & 255;
  b[at + 3] = v >>> 24;
};

/** The GLB with its JSON changed by edit(json) (the BIN chunk kept byte for byte). */
export function editGLBJson(glb, edit) {
  const jsonLength = u32le(glb, 12);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
  edit(json);
  const text = new TextEncoder().encode(JSON.stringify(json));
  const padded = (text.length + 3) & ~3;
  const rest = glb.subarray(20 + jsonLength); // the BIN chunk, header included
  const out = new Uint8Array(20 + padded + rest.length);
  out.set(glb.subarray(0, 12));
  putU32le(out, 8, out.length);
  putU32le(out, 12, padded);
  out.set(glb.subarray(16, 20), 16); // 'JSON'
  out.set(text, 20);
  out.fill(0x20, 20 + text.length, 20 + padded);
  out.set(rest, 20 + padded);
  return out;
}

// -- Models

/** A material's name: its texture's, else the mesh's own name (a plain material is named after its mesh). */
function materialName(mesh, index) {
  return mesh.material || (Array.isArray(mesh.shaders) && mesh.shaders[0]) || mesh.name || `material${index}`;
}

/** A model (IQM, IQE, MD3) with its own animations, as GLB. See Interquake.writeGLB. */
/** RGBA8 pixels (top row first) as an uncompressed 32-bit TGA with a top-left origin. */
function tgaOf({ width, height, data }) {
  const out = new Uint8Array(18 + data.length);
  out.set([0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, width & 255, width >> 8, height & 255, height >> 8, 32, 0x28]);
  for (let i = 0; i < data.length; i += 4) out.set([data[i + 2], data[i + 1], data[i], data[i + 3]], 18 + i);
  return out;
}

export async function writeModelGLB(lib, model, options = {}) {
  checkOptions(lib, options);
  model._check();
  const warnings = [];
  const missing = new Set();
  const files = fileReader(options.files);
  // Skins the file embeds (MDL: model.images, decoded by the C) are found first, as uncompressed
  // 32-bit TGA bytes the material code reads like any texture file.
  const embedded = new Map(model.images.map((img) => [img.name, img]));
  const read = embedded.size ? async (path) => (embedded.has(path) ? tgaOf(embedded.get(path)) : files ? files(path) : null) : files;
  const materials = new Materials(lib, warnings, missing);
  const meshMaterials = [];
  for (const [i, mesh] of model.meshes.entries()) {
    // The texture: options.textures' name for the mesh (a model cfg's skin), else the mesh's own
    // (paths.js meshTextureName: never its mesh name), looked up by the one rule (textureCandidates).
    const texture = options.textures?.[i] ?? meshTextureName(mesh);
    const name = options.textures?.[i] ?? materialName(mesh, i);
    meshMaterials.push(await materials.add(name, texture ? textureCandidates(texture, { loose: true }) : [], read));
  }
  const name = model.name ? String(model.name).replace(/^.*[\\/:]/, '').replace(/\.\w+$/, '') || 'model' : 'model';
  const glb = writeScene(lib, {
    parts: [{ model, name, parent: -1, meshMaterials }], materials: materials.list, maxMorphTargets: options.maxMorphTargets,
    placement: placement(lib, options, () => lowestPoint(model)),
  }, model.name);
  if (!read && missing.size) warnings.push({ code: 'missing_file', message: `${missing.size} texture(s) not embedded: no options.files to read them from` });
  else if (missing.size) warnings.push({ code: 'missing_file', message: `texture(s) not found: ${[...missing].join(', ')}` });
  return { glb, warnings, missingFiles: [...missing], textures: materials.list.map((m) => ({ material: m.name, texture: m.texture ?? null })) };
}
