// Quake 3 shader scripts, parsed by the C core (src/quake3/iq_shader*.c) and evaluated by it each frame
// (src/quake3/iq_shader_eval.c). This module only copies the C's records (read by layout) into plain
// objects with enum names, finds shaders the way Quake 3 does across several scripts, and passes
// records back for the per-frame maths. docs/SHADERS.md describes the subset.

import { textBytes } from '../core/wasm.js';
import { normalizePath } from '../core/paths.js';

// Enum fields and the constant group that names their values.
const NAMED = {
  map: 'shader_map', blendSrc: 'shader_blend', blendDst: 'shader_blend', alphaFunc: 'shader_alpha_func',
  depthFunc: 'shader_depth_func', rgbGen: 'shader_rgbgen', alphaGen: 'shader_alphagen', tcGen: 'shader_tcgen',
};

function wave(names, w) {
  return { func: names.shader_wave[w.func], base: w.base, amplitude: w.amplitude, phase: w.phase, frequency: w.frequency };
}

function plainStage(names, raw) {
  const stage = { images: raw.images.slice(0, raw.frameCount).map((i) => i.name).filter(Boolean) };
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'images' || key === 'tcMods' || key === 'tcModCount') continue;
    if (NAMED[key]) stage[key] = names[NAMED[key]][value];
    else if (key === 'rgbWave' || key === 'alphaWave') stage[key] = wave(names, value);
    else if (key === 'clamp' || key === 'depthWrite' || key === 'detail') stage[key] = value !== 0;
    else stage[key] = value;
  }
  stage.tcMods = raw.tcMods.slice(0, raw.tcModCount).map((m) => ({ type: names.shader_tcmod[m.type], params: m.params, wave: wave(names, m.wave) }));
  // The record as the C reads it (numbers only), for evaluateStage.
  const record = { ...raw };
  delete record.images;
  Object.defineProperty(stage, 'record', { value: record });
  return stage;
}

function plainShader(wasm, raw) {
  const names = wasm.names;
  const flags = Object.entries(wasm.constants.shader_flag).filter(([, bit]) => raw.flags & bit).map(([flag]) => flag);
  const shader = {
    name: raw.name, line: raw.line, column: raw.column, flags,
    cull: names.shader_cull[raw.cull],
    sort: raw.sort, sortName: names.shader_sort[raw.sort] ?? null, sortGiven: raw.sortGiven,
    deforms: raw.deforms.slice(0, raw.deformCount).map((d) => ({
      type: names.shader_deform[d.type], spread: d.spread, wave: wave(names, d.wave), vector: d.vector,
      bulgeWidth: d.bulgeWidth, bulgeHeight: d.bulgeHeight, bulgeSpeed: d.bulgeSpeed,
    })),
    stages: raw.stages.slice(0, raw.stageCount).map((s) => plainStage(names, s)),
  };
  // The deforms as the C reads them (numbers only), for deformVertices.
  Object.defineProperty(shader, 'record', { value: { deformCount: raw.deformCount, deforms: raw.deforms } });
  return shader;
}

/**
 * Parses one .shader script (text or bytes): { shaders, notes } with enum values as names. Throws
 * an InterquakeError (line and column) for what cannot be read; unknown keywords are notes.
 */
export function parseShaderScript(lib, input, options = {}) {
  const wasm = lib._shaderWasm();
  const file = options.name;
  const names = wasm.names;
  const script = wasm.makeWithBytes(textBytes(input, 'parseShaderScript()'), 'iq_wasm_shader_parse', [wasm.errorPtr], file);
  try {
    const head = wasm.read('iq_shader_script', script, undefined, ['shaderCount', 'stageCount', 'shaders', 'noteCount', 'notesKept']);
    const shaders = wasm.readArray('iq_q3_shader', head.shaders, head.shaderCount).map((raw) => plainShader(wasm, raw));
    const notes = wasm.readArray('iq_shader_note', script + wasm.offsetOf('iq_shader_script', 'notes'), head.notesKept)
      .map((n) => ({ kind: names.shader_note[n.kind], keyword: n.keyword, detail: n.detail, shader: shaders[n.shader]?.name ?? null, line: n.line, column: n.column }));
    return { file, shaders, stageCount: head.stageCount, notes, noteCount: head.noteCount };
  } finally {
    wasm.value('iq_wasm_shader_free', script);
  }
}

/** Quake 3's R_FindShader name rule: the extension dropped, case ignored, '\' read as '/'. */
export function shaderKey(name) {
  const path = normalizePath(name);
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  return (dot > slash ? path.slice(0, dot) : path).toLowerCase();
}

/** Whether a game path is a shader script, scripts/*.shader (where Quake 3's renderer lists them). */
export const isShaderScript = (path) => /^scripts\/[^/]+\.shader$/i.test(normalizePath(path));

/**
 * Parses every scripts/*.shader of an Archive (openArchive) or a file set (a Map or an object of
 * path -> bytes or text, or an array of { name, bytes }). Returns { scripts, errors, find(name) }:
 * find follows Quake 3, which joins the scripts in the reverse of the order its file system lists
 * them (an archive's directory order; a file set's order) and takes the first block of a name.
 * A script that cannot be read goes to errors (with its InterquakeError) and the others load.
 */
export function parseShaders(lib, source, options = {}) {
  const files = [];
  if (source && typeof source.read === 'function' && Array.isArray(source.files)) {
    for (const path of source.files) if (isShaderScript(path)) files.push({ name: path, read: () => source.read(path, { use: 'shader' }) });
  } else {
    const entries = source instanceof Map ? [...source] : Array.isArray(source) ? source.map((f) => [f.name, f.bytes ?? f.text]) : Object.entries(source ?? {});
    for (const [path, data] of entries) if (isShaderScript(path)) files.push({ name: normalizePath(path), read: () => data });
  }
  const scripts = [];
  const errors = [];
  for (const f of files) {
    try {
      scripts.push(parseShaderScript(lib, f.read(), { name: f.name }));
    } catch (error) {
      if (!error || !error.code) throw error;
      errors.push({ file: f.name, error });
    }
  }
  const index = new Map();
  for (const script of [...scripts].reverse()) {
    for (const shader of script.shaders) {
      const key = shaderKey(shader.name);
      if (!index.has(key)) index.set(key, shader);
    }
  }
  return {
    scripts, errors,
    /** The shader a surface or skin names, or null (then fall back to the image of that name). */
    find(name) { return index.get(shaderKey(name)) ?? null; },
  };
}

// Parsed script sets of immutable sources (an Archive, a FileSystem) per library, so a player
// loaded again from the same archives (another weapon, LOD or team) does not parse them again.
const parsedScripts = new WeakMap();

/**
 * Script blocks for a model's surfaces, as Quake 3's R_FindShader looks (a block first; the caller
 * falls back to an image of that name). `scripts()` gives the script files (as parseShaders takes
 * them); they are parsed on the first find, so never when no surface names a shader, and scripts
 * that cannot be read become warnings. `resolveImage(name)` is a texture's path or null.
 * `cacheKey`: the source the scripts come from when it cannot change (its parse is kept), or null.
 * Returns { find(name): block or null, images(block): { image: path or null },
 * texture(images): the path a plain draw of the block shows, or null }.
 */
export function shaderLookup(lib, scripts, resolveImage, warnings, cacheKey = null) {
  let set;
  const parse = () => {
    const cached = cacheKey ? parsedScripts.get(cacheKey)?.get(lib) : undefined;
    if (cached !== undefined) return cached;
    const files = scripts();
    if (files.length && !lib.shaderSupport) { // the smaller WASM before interquake-shaders.wasm is loaded
      warnings.push({ code: 'unsupported', message: `${files.length} shader script(s) not read: this WASM build needs interquake-shaders.wasm for them (iq.loadShaderSupport())` });
      return null;
    }
    const parsed = files.length ? parseShaders(lib, files) : null;
    if (cacheKey) {
      if (!parsedScripts.has(cacheKey)) parsedScripts.set(cacheKey, new WeakMap());
      parsedScripts.get(cacheKey).set(lib, parsed);
    }
    return parsed;
  };
  return {
    find(name) {
      if (set === undefined) {
        set = parse();
        for (const e of set?.errors ?? []) warnings.push({ code: e.error.code, message: e.error.message, file: e.file });
      }
      return set ? set.find(name) : null;
    },
    // A block's stage images ($whiteimage and $lightmap are built in), each resolved like a texture.
    images(block) {
      const images = {};
      for (const stage of block.stages) {
        if (stage.map !== 'image') continue;
        for (const image of stage.images) if (!(image in images)) images[image] = resolveImage(image);
      }
      return images;
    },
    // The first of the block's stage images that exists.
    texture(images) { return Object.values(images).find(Boolean) ?? null; },
  };
}

/** Quake 3's lighting and colours for an entity without a world (iq_shader_env_default), with overrides. */
export function shaderEnv(lib, overrides = {}) {
  const wasm = lib._shaderWasm();
  return wasm.withRecord('iq_shader_env', null, (ptr) => {
    wasm.value('iq_wasm_shader_env_default', ptr);
    return { ...wasm.read('iq_shader_env', ptr), ...overrides };
  });
}

/**
 * A stage at env.time (seconds): { color: [r, g, b, a] 0..1, perVertex: { rgb, alpha }, before, after
 * (column-major 2x3 texture matrices, turb between them), turbCount, turbPhase, turbAmplitude, frame }.
 */
export function evaluateStage(lib, stage, env) {
  const wasm = lib._shaderWasm();
  return wasm.withRecord('iq_shader_stage', stage.record, (stagePtr) =>
    wasm.withRecord('iq_shader_env', env, (envPtr) =>
      wasm.withRecord('iq_shader_stage_state', null, (out) => {
        wasm.call('iq_wasm_shader_stage_eval', [stagePtr, envPtr, out], { message: 'evaluateStage(): the time is not a finite number' });
        const s = wasm.read('iq_shader_stage_state', out);
        return { ...s, perVertex: { rgb: (s.perVertex & 1) !== 0, alpha: (s.perVertex & 2) !== 0 } };
      })));
}

/** The value of a wave ({ func: 'sin', base, amplitude, phase, frequency }) at time seconds. */
export function waveValue(lib, w, time) {
  const wasm = lib._shaderWasm();
  const func = wasm.constants.shader_wave[w.func] ?? w.func;
  return wasm.withRecord('iq_shader_wave', { ...w, func }, (ptr) => wasm.value('iq_wasm_shader_wave_value', ptr, time));
}

// Float32Arrays copied into the heap for one call; fn gets their addresses (0 for a missing one)
// and reads results through `out(i)` (a view of array i, made after every allocation).
function withFloats(wasm, arrays, fn) {
  const arena = wasm.arena();
  try {
    const ptrs = arrays.map((a) => (a ? arena.alloc(4 * a.length) : 0));
    arrays.forEach((a, i) => { if (a) wasm.array(Float32Array, ptrs[i], a.length).set(a); });
    return fn(ptrs, (i) => wasm.array(Float32Array, ptrs[i], arrays[i].length));
  } finally {
    arena.free();
  }
}

function vertexCount(positions, what) {
  if (!(positions instanceof Float32Array) || positions.length % 3) throw new TypeError(`${what}: positions must be a Float32Array of x, y, z`);
  return positions.length / 3;
}

/**
 * Applies a shader block's deforms (wave, normal, bulge, move, in order) at env.time to positions
 * and normals (Float32Arrays, 3 per vertex, changed in place), as iq_shader_deform_vertices does;
 * texcoords (2 per vertex) feed bulge. Returns how many deforms were left to the renderer
 * (autosprite, autosprite2, and the ones never evaluated).
 */
export function deformVertices(lib, shader, env, positions, normals, texcoords = null) {
  const wasm = lib._shaderWasm();
  const n = vertexCount(positions, 'deformVertices()');
  if (!(normals instanceof Float32Array) || normals.length !== 3 * n) throw new TypeError('deformVertices(): normals must match positions');
  if (texcoords && texcoords.length !== 2 * n) throw new TypeError('deformVertices(): texcoords must have 2 per vertex');
  return wasm.withRecord('iq_q3_shader', shader.record, (shaderPtr) =>
    wasm.withRecord('iq_shader_env', env, (envPtr) =>
      withFloats(wasm, [positions, normals, texcoords && Float32Array.from(texcoords)], ([p, nr, st], out) => {
        const skipped = wasm.value('iq_wasm_shader_deform', shaderPtr, envPtr, n, p, nr, st);
        positions.set(out(0));
        normals.set(out(1));
        return skipped;
      })));
}

/**
 * autosprite and autosprite2 (iq_shader_autosprite, as ioquake3's AutospriteDeform and
 * Autosprite2Deform): a surface's quads (each 4 consecutive vertices) turned toward the view, in
 * place. kind: 'autosprite' or 'autosprite2'; axes: [forward, left, up] of the view (unit, in the
 * arrays' space); positions and normals: 3 per vertex; texcoords (2) and colors (4 per vertex, RGBA)
 * or null, rewritten by autosprite (its corners' st, the first vertex's colour); indices: the
 * surface's triangles over these vertices. Returns the triangles to draw (a Uint32Array):
 * autosprite's rebuilt quads, or autosprite2's own indices.
 */
export function autospriteVertices(lib, kind, axes, { positions, normals, texcoords = null, colors = null, indices }) {
  const wasm = lib._shaderWasm();
  const n = vertexCount(positions, 'autospriteVertices()');
  const sprite = wasm.constants.shader_deform[kind];
  const quads = sprite === wasm.constants.shader_deform.autosprite ? n >> 2 : 0;
  return withFloats(wasm, [positions, normals, texcoords, colors, axes.flat()], ([p, nr, st, c, ax], out) => {
    const arena = wasm.arena();
    try {
      const index = arena.u32s(indices);
      const rebuilt = arena.alloc(24 * quads + 4);
      const triangles = wasm.value('iq_wasm_shader_autosprite', sprite, ax, n, p, nr, st, c, index, indices.length, rebuilt);
      [positions, normals, texcoords, colors].forEach((a, i) => a?.set(out(i)));
      return quads ? wasm.array(Uint32Array, rebuilt, triangles * 3).slice() : Uint32Array.from(indices);
    } finally {
      arena.free();
    }
  });
}

/**
 * A stage's colours per vertex at env (iq_shader_colors): RGBA 0..1 (bytes/255), 4 per vertex, from
 * positions and normals (3 per vertex) and the vertex colours (RGBA 0..1, or null: white).
 */
export function stageColors(lib, stage, env, positions, normals, colors = null) {
  const wasm = lib._shaderWasm();
  const n = vertexCount(positions, 'stageColors()');
  return wasm.withRecord('iq_shader_stage', stage.record, (stagePtr) =>
    wasm.withRecord('iq_shader_env', env, (envPtr) =>
      withFloats(wasm, [positions, normals, colors && Float32Array.from(colors), new Float32Array(4 * n)], ([p, nr, c, out], view) => {
        wasm.value('iq_wasm_shader_colors', stagePtr, envPtr, n, p, nr, c, out);
        return view(3).slice();
      })));
}

/** A stage's texture coordinates per vertex at env (iq_shader_texcoords: tcGen, then the whole tcMod chain), 2 per vertex. */
export function stageTexcoords(lib, stage, env, positions, normals, texcoords) {
  const wasm = lib._shaderWasm();
  const n = vertexCount(positions, 'stageTexcoords()');
  return wasm.withRecord('iq_shader_stage', stage.record, (stagePtr) =>
    wasm.withRecord('iq_shader_env', env, (envPtr) =>
      withFloats(wasm, [positions, normals, Float32Array.from(texcoords), new Float32Array(2 * n)], ([p, nr, st, out], view) => {
        wasm.value('iq_wasm_shader_texcoords', stagePtr, envPtr, n, p, nr, st, out);
        return view(3).slice();
      })));
}
