// The library object init() resolves to: the core (web/core/library.js: loading, writing, images,
// shader support) and the Quake 3 entry points (archives, file systems, players, their text files).

import { CoreLibrary } from '../core/library.js';
import { Model } from '../core/model.js';
import { openArchive } from './archive.js';
import { mountArchives } from './filesystem.js';
import { loadPlayer } from './player.js';
import { parseAnimationConfig, parseSkin } from './text.js';

// DarkPlaces skins' code, loaded the first time a model has some (the one-file element fetches it).
let skinsCode = null;

export class Interquake extends CoreLibrary {
  /**
   * glTF 2.0 binary of a loaded model or of a player from loadPlayer() (docs/GLTF.md); models go
   * to the core's writer, players to web/quake3/gltf.js (loaded on first use).
   */
  async writeGLB(target, options = {}) {
    if (!(target instanceof Model)) {
      this._wasm.need('iq_wasm_write_glb', 'writeGLB()');
      const { isPlayer, writePlayerGLB } = await import('./gltf.js');
      if (isPlayer(target)) return writePlayerGLB(this, target, options);
    }
    return super.writeGLB(target, options);
  }

  /** Opens a .pk3/.zip: resolves to an Archive with files, players, models and read(path). */
  openArchive(bytes, options) { return openArchive(this, bytes, options); }

  /**
   * Joins archives (openArchive) and loose file sets into one Quake 3 file system, the one that
   * wins for a path chosen as ioquake3 does (options.order); a FileSystem reads like an Archive.
   */
  mountArchives(sources, options) { return mountArchives(sources, options); }

  /** Assembles a Quake 3 player from an Archive, a FileSystem or an object of path -> bytes. */
  loadPlayer(files, options) { return loadPlayer(this, files, options); }

  /** Parses animation.cfg text or bytes with Quake 3's rules. */
  parseAnimationConfig(input, options) { return parseAnimationConfig(this, input, options); }

  /**
   * A plain model's DarkPlaces skins (Nexuiz): `<model>_<N>.skin` beside it, each with the texture
   * name per mesh: [{ name: '0', path, textures, warnings }]. files: Map or object of path -> bytes.
   */
  async modelSkins(model, files, modelPath) {
    skinsCode ??= import('./modelskins.js').catch((err) => { skinsCode = null; throw err; });
    return (await skinsCode).modelSkins(this, model, files, modelPath ?? model.name);
  }

  /** Parses a .skin file: { surfaces: [{ name, shader, line }], warnings }. */
  parseSkin(input, options) { return parseSkin(this, input, options); }
}
