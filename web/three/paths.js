// The one place interquake/three decides which file a model's texture name means. It asks the
// element's own lookup (web/viewer/assets.js's FileSet, over web/core/paths.js's textureCandidates,
// the rule the element, writeGLB and the CLI share; a Quake 3 player's textures are resolved by
// loadPlayer with the same candidates), so a loader finds exactly the files the element finds.

import { FileSet } from '../viewer/assets.js';
import { textureCandidates } from '../core/paths.js';

/**
 * A texture source for a model at `url` (its companions are fetched beside it, and game paths
 * from the folder above its models/ folder) through `fetchBytes(url)` -> Promise<Uint8Array|null>,
 * or for a { path: bytes } map (`files`). Returns find(name, modelPath) -> Promise<{ path, bytes } | null>.
 */
export function textureFinder({ url = null, files = null, fetchBytes = null } = {}) {
  let set = null;
  if (files) set = FileSet.fromObject(files instanceof Map ? Object.fromEntries(files) : files);
  else if (url) set = FileSet.fromUrl(url, fetchBytes);
  return async (name, modelPath = '') => (set ? set.readImage(name, modelPath) : null);
}

/**
 * A player's files fetched from its folder URL (a web server lists no folders): the parts at
 * options.lod and LOD 0, animation.cfg, the .skin files of options.skin, 'default', 'red' and 'blue', and every
 * texture those skins and the parts' shader names point at, at Quake 3's candidate paths
 * (web/core/paths.js) under the game's root (the URL before models/). Resolves to a Map of
 * game path -> bytes for iq.loadPlayer.
 */
export async function playerFolderFiles(iq, folderUrl, fetchBytes, options = {}) {
  const at = folderUrl.toLowerCase().lastIndexOf('/models/');
  const root = at >= 0 ? folderUrl.slice(0, at + 1) : folderUrl;
  const prefix = folderUrl.slice(root.length); // 'models/players/sarge/' (or '' outside a game tree)
  const files = new Map();
  const get = async (path) => {
    const key = path.toLowerCase();
    if (files.has(key)) return files.get(key).bytes;
    const bytes = await fetchBytes(new URL(path, root).href);
    files.set(key, { path, bytes });
    return bytes;
  };
  const lod = options.lod ? `_${options.lod}` : '';
  const parts = ['lower', 'upper', 'head'];
  const names = [...new Set([lod, ''])].flatMap((l) => parts.map((p) => `${prefix}${p}${l}.md3`));
  // A server lists no folder: the skin asked, the default and the team colours are looked for.
  const skins = [...new Set([options.skin, 'default', 'red', 'blue'].filter(Boolean))];
  const skinFiles = skins.flatMap((s) => parts.map((p) => `${prefix}${p}_${s}.skin`));
  await Promise.all([...names, `${prefix}animation.cfg`, ...skinFiles].map(get));
  const references = new Set();
  for (const path of skinFiles) {
    const bytes = files.get(path.toLowerCase())?.bytes;
    if (!bytes) continue;
    try { for (const s of iq.parseSkin(bytes, { name: path }).surfaces) if (s.shader) references.add(s.shader); } catch { /* loadPlayer reports it */ }
  }
  for (const path of names) {
    const bytes = files.get(path.toLowerCase())?.bytes;
    if (!bytes) continue;
    try {
      const model = iq.load(bytes, { name: path });
      for (const mesh of model.meshes) for (const shader of mesh.shaders ?? []) references.add(shader);
      model.dispose();
    } catch { /* loadPlayer reports it */ }
  }
  await Promise.all([...references].map(async (ref) => {
    for (const candidate of textureCandidates(ref)) if (await get(candidate)) return;
  }));
  const out = new Map();
  for (const { path, bytes } of files.values()) if (bytes) out.set(path, bytes);
  return out;
}
