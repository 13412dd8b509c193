// Paths as the games match them, and the one rule for each question about a path: its
// normalised form and key, its extension and kind (model, image, archive, script), whether it is
// a Quake 3 player part and of which LOD, and which files a texture name may be. The viewer, the
// glTF export, the Quake 3 player and the command line all ask here, so a model shows, exports
// and reports with the same textures. Pure string work: no WASM, no file access.

/** File extensions, lower case without the dot: the one list of each. */
export const MODEL_EXTENSIONS = ['iqm', 'iqe', 'md3',
  'md5mesh', 'md5anim', // MD5 (docs/MD5.md): an .md5anim beside its .md5mesh is attached to it
  'dpm', 'zym', // DarkPlaces (docs/DARKPLACES.md)
  'mdr', // ioquake3's skeletal format (docs/MDR.md)
  'md2', 'mdl', // Quake 2, Quake 1 (docs/API-md2.md)
  'mdc', // Return to Castle Wolfenstein, Enemy Territory
];
export const ARCHIVE_EXTENSIONS = ['pk3', 'zip'];
/** Images we decode, in the order Quake 3's texture lookup tries other extensions, then OpenArena's .jpeg. */
export const IMAGE_EXTENSIONS = ['tga', 'jpg', 'png', 'jpeg'];
/**
 * The extensions a texture lookup tries in place of a missing one or appended, in the renderer's
 * order (R_LoadImage: .tga, then .jpg, then .png; a name written .jpeg is taken as written).
 */
export const LOOKUP_EXTENSIONS = ['tga', 'jpg', 'png'];
/** Quake 3's shader scripts: scripts/<name>.shader. */
export const SCRIPT_EXTENSIONS = ['shader'];

/** A game path for matching: '\' -> '/', no leading './' or '/', no doubled slashes. */
export function normalizePath(path) {
  return String(path).replace(/\\/g, '/').replace(/\/{2,}/g, '/').replace(/^(\.\/|\/)+/, '');
}

/** The key a path is matched by (case-insensitive, as the games match them). */
export const pathKey = (path) => normalizePath(path).toLowerCase();

/** A path's extension, lower case, without the dot ('' when none). */
export function extensionOf(path) {
  const base = baseName(path);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** The file name of a path ('\' or '/' separated). */
export function baseName(path) {
  const p = String(path).replace(/\\/g, '/');
  return p.slice(p.lastIndexOf('/') + 1);
}

/** The folder of a normalised path with its trailing '/', or '' for a bare name. */
export function folderOf(path) {
  const p = normalizePath(path);
  return p.slice(0, p.lastIndexOf('/') + 1);
}

/** 'model', 'image', 'archive', 'script' or null, by extension. */
export function kindOf(path) {
  const ext = extensionOf(path);
  if (MODEL_EXTENSIONS.includes(ext)) return 'model';
  if (IMAGE_EXTENSIONS.includes(ext)) return 'image';
  if (ARCHIVE_EXTENSIONS.includes(ext)) return 'archive';
  if (SCRIPT_EXTENSIONS.includes(ext)) return 'script';
  return null;
}

// -- Quake 3 players: lower/upper/head, LODs as _1, _2

/** The parts of a Quake 3 player, in the order they hang from each other. */
export const PLAYER_PARTS = ['lower', 'upper', 'head'];
const PLAYER_PART = /^(lower|upper|head)(?:_(\d+))?\.(md3|iqm)$/i;
const PLAYER_SKIN = /^(lower|upper|head)_(.+)\.skin$/i;

/**
 * The player part a file name is: 'upper_1.md3' -> { part: 'upper', lod: 1, ext: 'md3' };
 * null for anything else. Only the name counts (folders are ignored).
 */
export function playerPartOf(path) {
  const m = PLAYER_PART.exec(baseName(path));
  return m ? { part: m[1].toLowerCase(), lod: m[2] ? Number(m[2]) : 0, ext: m[3].toLowerCase() } : null;
}

/** A part's file name at a LOD: ('head', 2, 'md3') -> 'head_2.md3' (LOD 0 has no suffix). */
export function playerPartName(part, lod = 0, ext = 'md3') {
  return `${part}${lod ? `_${lod}` : ''}.${ext}`;
}

/** The skin a .skin file name gives a part: 'lower_red.skin' -> { part: 'lower', skin: 'red' }; else null. */
export function playerSkinOf(path) {
  const m = PLAYER_SKIN.exec(baseName(path));
  return m ? { part: m[1].toLowerCase(), skin: m[2] } : null;
}

// -- Skin surface names

/** What Quake 3 matches .skin lines against: lower case, a trailing "_<char>" cut (R_LoadMD3). */
export function skinSurfaceName(name) {
  const lower = String(name).toLowerCase();
  return lower.length > 2 && lower[lower.length - 2] === '_' ? lower.slice(0, -2) : lower;
}

// -- Texture names: which files a name may be

/**
 * The files a texture (or shader, or material) name may be, best first; a reader takes the
 * first that exists. The rule is Quake 3's renderer's (R_FindImageFile), which the Quake-family
 * engines share:
 *   1. the name as written;
 *   2. a .tga/.jpg/.png name that is missing: the same stem with the other ones, in that order;
 *   3. each of them appended: 'clothes.001' -> 'clothes.001.tga', 'glass.tga' -> 'glass.tga.tga';
 * then the same for the name from its models/ or textures/ folder on, when it is an absolute path
 * from the artist's disk ('E:\\q3\\baseq3\\models\\...'). For a loose model (`{ loose: true }`: an
 * IQM, IQE or MD3 on its own, not a Quake 3 player, whose names are game paths), last the file
 * name alone: a texture lying next to the model, which the reader looks for in the model's
 * folder.
 */
export function textureCandidates(reference, { loose = false } = {}) {
  const ref = normalizePath(reference);
  if (!ref) return [];
  const list = imageNames(ref);
  const inGame = /(^|\/)(models|textures)\//i.exec(ref);
  if (inGame && inGame.index > 0) list.push(...imageNames(ref.slice(inGame.index + 1)));
  if (loose && baseName(ref) !== ref) list.push(...imageNames(baseName(ref)));
  const seen = new Set();
  return list.filter((p) => !seen.has(pathKey(p)) && seen.add(pathKey(p)));
}

function imageNames(ref) {
  const ext = extensionOf(ref);
  const list = [ref];
  if (LOOKUP_EXTENSIONS.includes(ext) || ext === 'jpeg') {
    const stem = ref.slice(0, ref.length - ext.length - 1);
    for (const e of LOOKUP_EXTENSIONS) if (e !== ext) list.push(`${stem}.${e}`);
  }
  for (const e of LOOKUP_EXTENSIONS) list.push(`${ref}.${e}`);
  return list;
}

/**
 * The texture name a mesh of a loose model asks for: its first shader (MD3), else its material
 * (IQM, IQE); null when it names none (drawn plain, never missing). A model cfg's skin for the mesh
 * (web/core/modelcfg.js configTextures) comes before this.
 */
export function meshTextureName(mesh) {
  return (Array.isArray(mesh.shaders) && mesh.shaders[0]) || mesh.material || null;
}

/**
 * The texture each mesh of `model` takes from `config` (web/core/modelcfg.js readModelConfig): the last skin command
 * naming the mesh or '*', as the engines apply them in order; null where none does.
 */
export function configTextures(config, model) {
  return model.meshes.map((mesh) => {
    let found = null;
    for (const s of config?.skins ?? []) if (s.mesh === '*' || s.mesh === mesh.name) found = s.texture;
    return found;
  });
}

/**
 * The first of `reference`'s candidates (textureCandidates, with `options`) that `exists(path)`
 * accepts: { path, candidates } with path null when none does. `exists` may be async; then so is
 * the answer.
 */
export function findTexture(reference, exists, options = {}) {
  const candidates = textureCandidates(reference, options);
  const step = (i) => {
    for (; i < candidates.length; i++) {
      const hit = exists(candidates[i]);
      if (hit && typeof hit.then === 'function') return hit.then((ok) => (ok ? { path: candidates[i], candidates } : step(i + 1)));
      if (hit) return { path: candidates[i], candidates };
    }
    return { path: null, candidates };
  };
  return step(0);
}
