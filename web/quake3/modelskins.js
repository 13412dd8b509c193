// Skins of a plain model as DarkPlaces (Nexuiz, Xonotic) reads them: `<model>_<N>.skin` beside
// the model (models/ctf/flags.md3_0.skin, _1.skin, ...), each line `surfacename,texturepath`, the
// syntax of Quake 3's .skin files (parsed by the C: src/iq_q3text.c). Skin N is the model's skin
// number N; the first is the default.

// Loaded on demand (web/quake3/library.js; the one-file element fetches it as
// interquake-modelskins.min.js): it imports no module with state.
import { normalizePath, pathKey, skinSurfaceName } from '../core/paths.js';
import { parseSkin } from './text.js';

const MODEL_SKIN = /^(.*\.(?:md3|iqm|iqe|mdl|md2|zym|dpm|psk))_(\d+)\.skin$/i;

/** 'models/ctf/flags.md3_1.skin' -> { model: 'models/ctf/flags.md3', number: 1 }; null for other names. */
export function modelSkinOf(path) {
  const m = MODEL_SKIN.exec(normalizePath(path));
  return m ? { model: m[1], number: Number(m[2]) } : null;
}

/**
 * The `_N.skin` files of `modelPath` among `paths`, by skin number: [{ name: '0', number, path }].
 * Paths are matched as the games match them (case, '\').
 */
export function findModelSkins(paths, modelPath) {
  const wanted = pathKey(modelPath);
  const found = new Map();
  for (const path of paths) {
    const skin = modelSkinOf(path);
    if (skin && pathKey(skin.model) === wanted && !found.has(skin.number)) found.set(skin.number, { name: String(skin.number), number: skin.number, path });
  }
  return [...found.values()].sort((a, b) => a.number - b.number);
}

/**
 * The model's skins with the texture each mesh takes from each: [{ name, path, textures, warnings }]
 * (textures: one name per mesh, null where the skin names none). files: a Map or object of path
 * -> bytes holding the .skin files. A skin that cannot be read is a warning of that skin.
 */
export function modelSkins(lib, model, files, modelPath) {
  const entries = files instanceof Map ? [...files.entries()] : Object.entries(files);
  const bytesOf = new Map(entries.map(([p, b]) => [pathKey(p), b]));
  return findModelSkins(entries.map(([p]) => p), modelPath).map((skin) => {
    const warnings = [];
    let surfaces = [];
    try {
      const parsed = parseSkin(lib, bytesOf.get(pathKey(skin.path)) ?? new Uint8Array(0), { name: skin.path });
      surfaces = parsed.surfaces;
      for (const w of parsed.warnings) warnings.push({ code: w.code, message: `${skin.path}: ${w.message}` });
    } catch (err) {
      warnings.push({ code: err.code || 'syntax', message: err.message, file: skin.path });
    }
    // Surface names as the skin file lower-cases them; a Quake 3 LOD suffix (_1) is dropped as for players.
    const textures = model.meshes.map((mesh) => {
      const name = String(mesh.name || '').toLowerCase();
      const entry = surfaces.find((s) => s.name === name) ?? surfaces.find((s) => s.name === skinSurfaceName(name));
      return entry && entry.shader ? entry.shader : null;
    });
    return { name: skin.name, path: skin.path, textures, warnings };
  });
}
