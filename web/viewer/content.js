// What the element shows, built from the resolved input (sources.js): one model, or a Quake 3
// player assembled by the library (iq.loadPlayer), its geometry (the model's own arrays, never
// copied), textures per mesh, the animations as the clock plays them (clock.js), and the report
// the info panel shows. A content is { format, name, player, models, parts, animations, skins,
// lods, tags, missingFiles, warnings, bounds, info }; each part is { name, model, instance,
// geometry, textures, shaders, matrix, track, skin, morph }, `instance` being what poses it;
// shaders[i] is { block, images } when mesh i names a shader-script block (drawn by shaderdraw.js).

import { IDENTITY } from '../core/mat4.js';
import { loadShaderDrawer } from './renderer.js';
import { placeholderImage } from '../scene/light.js';
import { parseShaders, evaluateStage, shaderEnv, deformVertices, autospriteVertices } from '../quake3/shaders.js';
import { decodeImage, rerootPlayerFiles, addMissing, uniquePaths } from './assets.js';
import { ViewerError } from './errors.js';
import { MAX_DROPPED_BYTES } from './sources.js'; // a player assembled from dropped files is read into memory whole
import { modelAnimations, playerAnimations } from '../scene/clock.js';

export const PLACEHOLDER = placeholderImage();

/**
 * Parses the model(s) and prepares everything drawing needs. options: { format, skin, lod,
 * release(texture) } (release frees a texture a skin change no longer uses).
 */
export async function buildContent(iq, input, options) {
  if (input.player != null) return buildPlayer(iq, input, options);
  const { main, files } = input;
  if (main.kind === 'unknown') {
    throw new ViewerError('unknown_format', `${main.path}: not a model interquake reads (unrecognised first bytes)`, main.path);
  }
  // The one-file element reads MD5, MD2, MDL... (and .framegroups) with interquake-readers.wasm,
  // fetched the first time a file needs it: load() says 'unavailable' until then.
  const framegroups = await framegroupsBeside(files, main.path);
  const load = () => iq.load(main.bytes, { name: main.path, format: options.format || 'auto', framegroups });
  let model;
  try {
    model = load();
  } catch (err) {
    if (err.code !== 'unavailable') throw err;
    await iq.loadReaders();
    model = load();
  }
  try {
    const missingFiles = [];
    const warnings = [...(input.warnings ?? []), ...model.warnings.map((w) => ({ ...w, file: main.path }))];
    attachAnimationFiles(iq, model, input.animationFiles ?? [], warnings);
    const scripts = await scriptsBeside(iq, files, warnings);
    const shaders = await scriptShaders(iq, files, model.meshes, main.path, scripts, missingFiles, warnings);
    // A model cfg (Cube 2's iqm.cfg, ...) names each mesh's texture, else a DarkPlaces skin
    // (model.md3_0.skin, the first of the model's skins), else the mesh's own name.
    const skins = await modelSkinsBeside(iq, files, model, main.path, warnings);
    const named = input.config ? iq.configTextures(input.config, model) : skins[0]?.textures ?? [];
    const textures = await loadTextures(iq, files, model.meshes, main.path, missingFiles, warnings, shaders, named, model.images);
    const part = {
      // The content owns the model, so its own instance poses it (model.createInstance() would do
      // for a model drawn twice).
      name: main.path, model, instance: model, geometry: geometryOf(model), textures, shaders, matrix: IDENTITY, track: 'both',
      skin: null, morph: null,
    };
    const animations = modelAnimations(iq, model);
    const content = {
      format: model.format, name: main.path, player: null, choices: input.models ?? [main.path], models: [model], parts: [part], animations,
      skins: skins.map((s) => s.name), lods: [], tags: model.tags ? [...model.tags] : [], missingFiles, warnings,
      bounds: model.bounds ?? { min: [-1, -1, -1], max: [1, 1, 1] },
    };
    if (skins.length && !input.config) {
      content.skin = skins[0].name;
      content.modelSkins = { skins, files, path: main.path, shaders };
    }
    content.info = summarize(content);
    return content;
  } catch (err) {
    model.dispose();
    throw err;
  }
}


// DarkPlaces' `<model>.framegroups` beside the model (`foo.iqm.framegroups`) names its animations:
// its bytes, or undefined. Looked up among the files given (a folder, a .pk3), not fetched beside a
// URL (a request every page would pay for).
async function framegroupsBeside(files, path) {
  const key = files?.find?.(`${path}.framegroups`);
  return key ? files.entries.get(key).read() : undefined;
}

// Animation-only files beside the mesh (Cube 2's Frankie_Blink.iqm, Red Eclipse's idle.iqm) add
// their animations when their skeleton fits; one that does not is skipped with a warning.
function attachAnimationFiles(iq, model, files, warnings) {
  for (const file of files) {
    let source = null;
    try {
      source = iq.load(file.bytes, { name: file.path });
      model.attachAnimations(source);
    } catch (err) {
      warnings.push({ code: err.code || 'skeleton_mismatch', message: `${file.path}: not attached (${err.message})`, file: file.path });
    } finally {
      source?.dispose();
    }
  }
}

// A Quake 3 player: lower, upper and head MD3s placed by their tags every frame (iq.loadPlayer),
// legs and torso animated separately, textures from the chosen skin.
async function buildPlayer(iq, input, options) {
  if (typeof iq.loadPlayer !== 'function') {
    throw new ViewerError('unsupported', 'this build of interquake cannot assemble Quake 3 players (lower/upper/head.md3)');
  }
  // loadPlayer reads synchronously: give it the archive, or every dropped file's bytes.
  let source = input.archive;
  if (!source) {
    source = new Map();
    let total = 0;
    // Skins name game paths (models/players/grism/red.tga): a folder dropped from below the game's
    // root (players/sarge/..., or sarge/...) is re-rooted so those paths resolve.
    const reroot = rerootPlayerFiles(input.player);
    for (const [key, entry] of input.files.entries) {
      const bytes = await entry.read();
      total += bytes.length;
      if (total > MAX_DROPPED_BYTES) throw new ViewerError('limit', `the dropped files exceed ${MAX_DROPPED_BYTES >> 20} MiB`);
      source.set(reroot(key), bytes);
    }
    input = { ...input, player: reroot(input.player) };
  }
  const folder = input.player.replace(/\/$/, '');
  const skin = options.skin || undefined; // none asked: the library takes 'default', or the first skin there is
  const weapon = options.weapon || undefined;
  const loadWarnings = [];
  await shaderSupport(iq, source instanceof Map ? [...source.keys()] : source.files, loadWarnings);
  let player;
  const load = (opts) => iq.loadPlayer(source, { player: folder || undefined, lod: options.lod, team: options.team ?? null, ...opts });
  try {
    player = load({ skin, weapon });
  } catch (err) {
    if (err.code === 'invalid_argument' && /skin/.test(err.message)) player = load({ weapon });
    else if (weapon && (err.code === 'missing_file' || err.code === 'unknown_format') && err.file !== undefined && /weapon/.test(err.message + err.file)) {
      // A weapon that is not there leaves the player's hands empty, with a warning.
      loadWarnings.push({ code: err.code, message: err.message, file: err.file });
      player = load({ skin });
    } else throw err;
  }
  if (skin && !player.skins.some((s) => s.toLowerCase() === skin.toLowerCase())) {
    // A skin this player lacks (the page's skin="leth" on a player without it): its default skin,
    // with a warning, rather than three missing .skin files.
    loadWarnings.push({ code: 'invalid_argument', message: `this player has no skin '${skin}' (it has: ${player.skins.join(', ') || 'none'}): its default skin is shown` });
    const keptWeapon = player.weapon ? weapon : undefined;
    player.dispose();
    player = load({ weapon: keptWeapon });
  }
  try {
    const content = {
      format: 'md3', name: folder.split('/').pop() || 'player', player, choices: input.models ?? [folder], playerSource: source, playerFolder: folder,
      models: [], parts: [], animations: [], skins: [...player.skins], lods: [...player.lods], tags: [],
      // input.warnings: the load's own (an archive that did not open) kept for skin reloads
      missingFiles: uniquePaths(player.missingFiles), warnings: [...(input.warnings ?? []), ...player.warnings, ...loadWarnings], sourceWarnings: input.warnings ?? [], skin: player.skin ?? skin,
      weapons: (player.weapons ?? []).map((w) => w.name), weapon: player.weapon ? weapon : null,
    };
    for (const [name, part] of Object.entries(player.parts)) {
      if (name === 'flash') continue; // the muzzle flash only shows while firing
      content.parts.push({
        name: part.path ?? name, partName: name, model: part.model, instance: part.model, geometry: geometryOf(part.model), textures: [],
        matrix: IDENTITY, track: name === 'lower' ? 'legs' : name === 'upper' || name === 'weapon' ? 'torso' : 'none',
        skin: null, morph: { a: 0, b: 0, t: 0 }, frames: { a: 0, b: 0, t: 0 },
      });
      for (const tag of part.model.tags ?? []) if (!content.tags.includes(tag)) content.tags.push(tag);
    }
    content.animations = playerAnimations(iq, player);
    await playerTextures(iq, content, player.surfaces, content.missingFiles, content.warnings, options.release);
    content.info = summarize(content);
    return content;
  } catch (err) {
    player.dispose();
    throw err;
  }
}


// Textures of every player surface for the current skin (decoded once per path).
async function playerTextures(iq, content, surfaces, missingFiles, warnings, release) {
  const decoded = new Map();
  const image = (path) => {
    if (!decoded.has(path)) {
      decoded.set(path, (async () => {
        const bytes = content.player.readFile(path);
        if (!bytes) return PLACEHOLDER;
        try { return await decodeImage(iq, bytes, path); } catch (err) {
          warnings.push({ code: 'bad_texture', message: `${path}: ${err.message}`, file: path });
          return PLACEHOLDER;
        }
      })());
    }
    return decoded.get(path);
  };
  for (const part of content.parts) {
    const list = surfaces[part.partName] ?? [];
    const old = imagesOf(part);
    // Script blocks: every stage image decoded (a missing one is the placeholder; loadPlayer listed it).
    part.shaders = await Promise.all(part.model.meshes.map(async (mesh, i) => {
      const surface = list.find((s) => s.mesh === i);
      if (!mesh.triangleCount || !surface?.script) return null;
      const images = {};
      for (const [name, path] of Object.entries(surface.images)) images[name] = path ? await image(path) : PLACEHOLDER;
      return { block: surface.script, images };
    }));
    // What the info panel names as each surface's material: the skin's choice, not the MD3's leftover.
    part.materials = part.model.meshes.map((mesh, i) => {
      const surface = list.find((s) => s.mesh === i);
      return surface?.texture || surface?.shader || mesh.material;
    });
    part.textures = await Promise.all(part.model.meshes.map(async (mesh, i) => {
      if (!mesh.triangleCount) return null; // never drawn: its texture is not needed, so not missing
      const surface = list.find((s) => s.mesh === i);
      if (surface?.script && !surface.texture) return PLACEHOLDER; // a block without an image (drawn by its stages)
      if (!surface?.texture) {
        const name = surface?.shader || mesh.material;
        if (!name) return null; // references no texture: drawn plain (lit white), not as missing
        addMissing(missingFiles, name);
        return PLACEHOLDER;
      }
      return image(surface.texture);
    }));
    const now = imagesOf(part);
    for (const texture of old) if (texture !== PLACEHOLDER && !now.includes(texture)) release?.(texture);
  }
}

// Every image a part draws with: its textures and its script blocks' stage images.
function imagesOf(part) {
  const list = (part.textures ?? []).filter(Boolean);
  for (const shader of part.shaders ?? []) if (shader) list.push(...Object.values(shader.images));
  return [...new Set(list)];
}

const SCRIPT_PATH = /(^|\/)scripts\/[^/]+\.shader$/i;

// Whether shader scripts can be read, when some of `paths` are scripts. The one-file element's
// smaller WASM runs them in interquake-shaders.wasm, fetched here the first time; if that fails the
// surfaces are drawn plain (their images), with a warning.
async function shaderSupport(iq, paths, warnings) {
  if (iq.shaderSupport || !paths.some((p) => SCRIPT_PATH.test(p))) return iq.shaderSupport;
  try {
    await iq.loadShaderSupport();
  } catch (err) {
    warnings.push({ code: 'unavailable', message: `shader scripts are drawn plain: ${err.message}` });
  }
  return iq.shaderSupport;
}

// scripts/*.shader among the files beside a single model (a dropped folder, a .pk3), parsed; null
// when there are none. A script that cannot be read is a warning.
async function scriptsBeside(iq, files, warnings) {
  const paths = (files?.list?.() ?? []).filter((p) => SCRIPT_PATH.test(p));
  if (!paths.length || !await shaderSupport(iq, paths, warnings)) return null;
  const list = [];
  for (const path of paths) {
    const entry = files.entries.get(path);
    // Named from scripts/ on, as the game's file system sees them.
    list.push({ name: entry.name.slice(entry.name.toLowerCase().lastIndexOf('scripts/')), bytes: await entry.read() });
  }
  const set = parseShaders(iq, list);
  for (const e of set.errors) warnings.push({ code: e.error.code, message: e.error.message, file: e.file });
  return set;
}

// Per mesh: { block, images } when its material names a script block, its stage images decoded
// (missing ones listed and drawn as the placeholder; $whiteimage and $lightmap are built in).
async function scriptShaders(iq, files, meshes, modelPath, scripts, missingFiles, warnings) {
  if (!scripts) return meshes.map(() => null);
  const decoded = new Map();
  return Promise.all(meshes.map(async (mesh) => {
    const name = mesh.shaders?.[0] ?? mesh.material;
    const block = name && mesh.triangleCount ? scripts.find(name) : null;
    if (!block) return null;
    const images = {};
    for (const stage of block.stages) {
      if (stage.map !== 'image') continue;
      for (const image of stage.images) {
        if (!decoded.has(image)) decoded.set(image, readTexture(iq, files, image, modelPath, missingFiles, warnings));
        images[image] = await decoded.get(image);
      }
    }
    return { block, images };
  }));
}

/**
 * Loads the shader-script drawer into the renderer the first time a content has script blocks
 * (a page showing only plain models never fetches it).
 */
export async function prepareShaders(iq, content, renderer) {
  if (!renderer || renderer.shaders || !content.parts.some((p) => p.shaders?.some(Boolean))) return;
  let module;
  try {
    module = await loadShaderDrawer();
  } catch (err) { // drawn plain, with each block's first image
    content.warnings.push({ code: 'unavailable', message: `shader scripts are drawn plain: the shader drawer did not load (${err.message})` });
    return;
  }
  if (renderer.shaders || renderer.lost) return;
  const env = shaderEnv(iq);
  renderer.useShaders(module, {
    env,
    evaluateStage: (stage, e) => evaluateStage(iq, stage, e),
    deform: (block, e, positions, normals, texcoords) => deformVertices(iq, block, e, positions, normals, texcoords),
    autosprite: (kind, axes, arrays) => autospriteVertices(iq, kind, axes, arrays),
    posed: posedVertices,
  });
}

// A part's vertices as the renderer draws them, posed on the CPU by the library: MD3 morphed
// between its two frames, a skinned model skinned by its last pose, else the model's own.
function posedVertices(part) {
  const model = part.model;
  if (part.morph && model.frameCount) return part.instance.morph(part.morph.a, part.morph.b, part.morph.t);
  if (part.skin) return part.instance.skin();
  return { positions: model.positions, normals: model.normals };
}


// A plain model's DarkPlaces skins (<model>_<N>.skin among the files), [] when none.
async function modelSkinsBeside(iq, files, model, modelPath, warnings) {
  const paths = (files?.list?.() ?? []).filter((p) => /_\d+\.skin$/i.test(p));
  if (!paths.length || typeof iq.modelSkins !== 'function') return [];
  const bytes = new Map();
  for (const path of paths) bytes.set(files.entries.get(path).name, await files.entries.get(path).read());
  const skins = await iq.modelSkins(model, bytes, modelPath);
  for (const s of skins) warnings.push(...s.warnings);
  return skins;
}

/** Switches a player's textures, or a plain model's DarkPlaces skin, to skin `name`. */
export async function applySkin(iq, c, name, release) {
  if (!c.player && c.modelSkins) {
    const { skins, files, path, shaders } = c.modelSkins;
    const part = c.parts[0];
    const missingFiles = [];
    const warnings = c.warnings; // an image that cannot be decoded adds its warning
    const named = skins.find((s) => s.name === name)?.textures ?? [];
    const old = part.textures;
    part.textures = await loadTextures(iq, files, part.model.meshes, path, missingFiles, warnings, shaders, named);
    for (const texture of old ?? []) if (texture && texture !== PLACEHOLDER && !part.textures.includes(texture)) release?.(texture);
    c.skin = name;
    c.missingFiles = missingFiles;
    c.info = summarize(c);
    return;
  }
  const resolved = c.player.resolveSkin(name);
  const missing = uniquePaths(resolved.missingFiles);
  // The skin's own fallbacks (cgame's: another team folder, the default skin) are warnings of this skin.
  const warnings = [...(c.sourceWarnings ?? []), ...c.player.warnings, ...(resolved.warnings ?? [])];
  await playerTextures(iq, c, resolved.surfaces, missing, warnings, release);
  c.skin = name;
  c.missingFiles = missing;
  c.warnings = warnings;
  c.info = summarize(c);
}


// One texture per mesh: the mesh's material (IQM/IQE) or its first shader (MD3). Missing or
// undecodable images become the placeholder and are reported.
async function loadTextures(iq, files, meshes, modelPath, missingFiles, warnings, shaders, named = [], images = []) {
  return Promise.all(meshes.map(async (mesh, i) => {
    const name = named[i] ?? mesh.shaders?.[0] ?? mesh.material;
    if (!name) return null; // no material at all: vertex colours on white
    if (!mesh.triangleCount) return null; // never drawn: its texture is not needed, so not missing
    // A skin the file embeds (MDL), decoded by the library: { width, height, data } as decodeTGA gives.
    const embedded = images.find((img) => img.name === name);
    if (embedded) return { width: embedded.width, height: embedded.height, data: embedded.data };
    // A script block's name is not an image: the first stage image stands for it in a plain draw.
    if (shaders[i]) return Object.values(shaders[i].images).find((t) => t !== PLACEHOLDER) ?? PLACEHOLDER;
    return readTexture(iq, files, name, modelPath, missingFiles, warnings);
  }));
}

async function readTexture(iq, files, name, modelPath, missingFiles, warnings) {
  const found = await files.readImage(name, modelPath);
  if (!found) {
    addMissing(missingFiles, name);
    return PLACEHOLDER;
  }
  try {
    return await decodeImage(iq, found.bytes, found.path);
  } catch (err) {
    warnings.push({ code: 'bad_texture', message: `${found.path}: ${err.message}`, file: found.path });
    return PLACEHOLDER;
  }
}


export function publicAnimation(a) {
  return {
    name: a.name, part: a.part, firstFrame: a.firstFrame, frameCount: a.frameCount, fps: a.framerate,
    loop: a.loop, duration: a.duration,
  };
}

const NO_INDICES = new Uint32Array(0);

/**
 * What the renderer uploads: the model's own arrays (views of the WASM heap, read when uploading,
 * again after a lost context), never copies. Getters, because a view is re-made when the heap grows.
 */
export function geometryOf(model) {
  // vertex-animated (MD3, MD2, MDL): every frame's positions, morphed on the GPU
  const morph = model.frameCount > 0 && Boolean(model.framePositions);
  const skinned = model.joints.length > 0 && Boolean(model.blendIndices) && !morph;
  return {
    model,
    vertexCount: model.vertexCount,
    get positions() { return model.positions; },
    get normals() { return model.normals; },
    get texcoords() { return model.texcoords; },
    get colors() { return model.colors; },
    get joints() { return skinned ? model.blendIndices : null; },
    get weights() { return skinned ? model.blendWeights : null; },
    jointCount: model.joints.length,
    get indices() { return model.indices ?? NO_INDICES; },
    meshes: model.meshes.map((m) => ({ firstTriangle: m.firstTriangle, triangleCount: m.triangleCount })),
    frames: morph ? { get positions() { return model.framePositions; }, get normals() { return model.frameNormals; } } : null,
  };
}

export function disposeContent(content, renderer) {
  for (const part of content.parts) {
    renderer?.release(part.geometry);
    for (const texture of imagesOf(part)) if (texture !== PLACEHOLDER) renderer?.release(texture);
  }
  for (const model of content.models) model.dispose();
  content.player?.dispose();
}

/** The report the `load` event and the info panel show. */
export function summarize(content) {
  const models = content.parts.map((p) => p.model);
  const sum = (f) => models.reduce((s, m) => s + f(m), 0);
  return {
    format: content.format,
    name: content.name,
    vertices: sum((m) => m.vertexCount),
    triangles: sum((m) => m.triangleCount),
    meshes: content.parts.flatMap((p) => p.model.meshes.map((m, i) => ({
      name: p.partName ? `${p.partName}: ${m.name}` : m.name, material: p.materials?.[i] ?? m.shaders?.[0] ?? m.material, part: p.name,
      texture: p.textures[i] === PLACEHOLDER ? 'missing' : p.textures[i] ? 'loaded' : 'none',
    }))),
    joints: sum((m) => m.joints.length),
    jointNames: models.flatMap((m) => m.joints.map((j) => j.name)),
    frames: sum((m) => m.frameCount),
    animations: content.animations.map(publicAnimation),
    tags: content.tags,
    skins: content.skins,
    missingFiles: content.missingFiles,
    warnings: content.warnings,
  };
}
