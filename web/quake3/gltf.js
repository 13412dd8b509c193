// A Quake 3 player as one glTF scene (docs/GLTF.md, "Players"): lower -> tag_torso -> upper ->
// tag_head -> head (+ the weapon on tag_weapon), one glTF animation per animation.cfg entry
// (legs clips drive lower, torso clips upper, BOTH_* both), materials from the skin, and in
// `extras` what glTF cannot say (loopFrames, fps, the legs offset, sex, footsteps, headOffset).

import { InterquakeError } from '../core/wasm.js';
import { Materials, checkOptions, editGLBJson, placement, writeScene } from '../core/gltf.js';

// The bottom of Quake 3's player box: bg_public.h's MINS_Z, 24 units below the origin, where the
// game's floor is under a standing player (pmove keeps the box on the ground, whatever the legs do).
export const PLAYER_MINS_Z = -24;

const PARTS = ['lower', 'upper', 'head'];
// Where each part hangs (CG_AddPlayerWeapon: the gun on tag_weapon, its spinning barrel on the
// gun's tag_barrel). The muzzle flash is drawn only while firing: it is not written.
const ATTACH = { upper: ['lower', 'tag_torso'], head: ['upper', 'tag_head'], weapon: ['upper', 'tag_weapon'], barrel: ['weapon', 'tag_barrel'] };
const LEFT_OUT = new Set(['flash']);
const ORDER = ['lower', 'upper', 'head', 'weapon', 'barrel'];

// The surface name a skin matches: lower case without the "_1"/"_2" LOD suffix (R_LoadMD3).
function surfaceKey(name) {
  const n = String(name || '').toLowerCase();
  return n.length > 2 && n[n.length - 2] === '_' ? n.slice(0, -2) : n;
}

/** Is this what loadPlayer() returns? */
export function isPlayer(target) {
  return !!target && typeof target === 'object' && typeof target.resolveSkin === 'function' && target.parts && target.parts.lower;
}

// Where a part hangs: a tag (MD3) or joint (IQM) index of its parent, or -1 when it has none.
function attachIndex(model, tag) {
  return model.tags.length ? model.tags.indexOf(tag) : model.findJoint(tag);
}

/** A player as GLB. See Interquake.writeGLB. */
export async function writePlayerGLB(lib, player, options = {}) {
  checkOptions(lib, options);
  const { lod } = options;
  if (lod !== undefined && (!Number.isInteger(lod) || lod < 0 || lod > 9)) {
    throw new InterquakeError('invalid_argument', `lod must be a whole number 0..9, got ${lod}`);
  }
  const skin = options.skin !== undefined ? options.skin : player.skin;
  if (skin !== null && typeof skin !== 'string') throw new InterquakeError('invalid_argument', 'skin must be a skin name or null');
  const warnings = [];
  const missing = new Set();
  const loadedHere = [];
  try {
    // The parts: the player's own, or those of another LOD read from its files.
    const models = {};
    for (const [part, { model }] of Object.entries(player.parts)) if (!LEFT_OUT.has(part)) models[part] = model;
    if (lod !== undefined && lod !== player.lod) {
      for (const part of PARTS) {
        const path = `${part}${lod ? `_${lod}` : ''}.md3`;
        const bytes = player.readFile(path);
        if (!bytes) {
          warnings.push({ code: 'repaired', message: `${path} is missing; ${part} keeps LOD ${player.lod}` });
          missing.add(player.path ? `${player.path}/${path}` : path);
          continue;
        }
        const model = lib.load(bytes, { name: path });
        loadedHere.push(model);
        if (model.frameCount !== models[part].frameCount) {
          warnings.push({ code: 'repaired', message: `${path} has ${model.frameCount} frames, LOD ${player.lod} has ${models[part].frameCount}; clips may be clamped` });
        }
        models[part] = model;
      }
    }

    // Materials from the skin: one per shader name, its texture embedded when it is there.
    if (skin !== null && !player.skins.includes(skin)) {
      warnings.push({ code: 'repaired', message: `no skin '${skin}' (available: ${player.skins.join(', ') || 'none'}); surfaces use their shader names` });
    }
    const resolved = skin === player.skin ? { surfaces: player.surfaces, missingFiles: player.missingFiles } : player.resolveSkin(skin);
    const materials = new Materials(lib, warnings, missing);
    const read = async (path) => player.readFile(path);
    const rank = (part) => (ORDER.includes(part) ? ORDER.indexOf(part) : ORDER.length);
    const names = Object.keys(models).sort((x, y) => rank(x) - rank(y)); // a parent before its children
    const parts = [];
    for (const part of names) {
      const model = models[part];
      const surfaces = resolved.surfaces[part] || [];
      const byKey = new Map(surfaces.map((s) => [surfaceKey(s.name), s]));
      const meshMaterials = [];
      for (const [i, mesh] of model.meshes.entries()) {
        const surface = byKey.get(surfaceKey(mesh.name)) || surfaces[i];
        const shader = (surface && surface.shader) || mesh.material || mesh.name || `${part}${i}`;
        if (surface && surface.shader && !surface.texture) missing.add(surface.shader);
        meshMaterials.push(await materials.add(shader, surface && surface.texture ? [surface.texture] : [], read));
      }
      let parent = -1;
      let index = 0;
      if (ATTACH[part]) {
        const [parentPart, tag] = ATTACH[part];
        index = attachIndex(models[parentPart], tag);
        if (index >= 0) parent = names.indexOf(parentPart);
        else warnings.push({ code: 'repaired', message: `${parentPart} has no ${tag}: ${part} sits at the scene's origin` });
      }
      parts.push({ model, name: part, parent, attachIndex: Math.max(index, 0), meshMaterials });
    }

    // Clips: animation.cfg, or one clip per animated part over all its frames.
    const clips = [];
    const clipExtras = [];
    const lowerAt = names.indexOf('lower');
    const upperAt = names.indexOf('upper');
    const none = () => names.map(() => ({ firstFrame: 0, frameCount: 0 }));
    if (player.config) {
      for (const a of player.animations) {
        if (!a.fits || a.frameCount < 1) continue;
        const ranges = none();
        const range = { firstFrame: a.firstFrame, frameCount: a.frameCount };
        if (a.part !== 'torso') ranges[lowerAt] = range;
        if (a.part !== 'legs') ranges[upperAt] = range;
        if (ranges.some((r, p) => r.frameCount && r.firstFrame + r.frameCount > parts[p].model.frameCount)) {
          warnings.push({ code: 'repaired', message: `${a.name}: frames outside this LOD's models; left out` });
          continue;
        }
        // glTF has one loop seam: back to the first frame. Quake 3 loops the last loopFrames.
        // Quake 3 steps frames every frameLerp = floor(1000 / fps) milliseconds (CG_RunLerpFrame, the
        // library's Q3 clock): keys go at k * frameLerp ms, so 15 fps is 1000 / 66 frames a second.
        const framerate = a.frameLerp > 0 ? 1000 / a.frameLerp : a.fps > 0 ? a.fps : lib.md3Framerate;
        clips.push({ name: a.name, framerate, loop: a.loopFrames === a.frameCount, ranges });
        clipExtras.push({
          part: a.part, firstFrame: a.firstFrame, frameCount: a.frameCount, loopFrames: a.loopFrames, fps: a.fps,
          reversed: a.reversed, fromFile: a.fromFile,
        });
      }
    } else {
      for (const [p, part] of parts.entries()) {
        if (part.model.frameCount < 2) continue;
        const ranges = none();
        ranges[p] = { firstFrame: 0, frameCount: part.model.frameCount };
        clips.push({ name: part.name, framerate: lib.md3Framerate, loop: true, ranges });
        clipExtras.push({ part: part.name, firstFrame: 0, frameCount: part.model.frameCount });
      }
    }

    let glb = writeScene(lib, {
      parts, materials: materials.list, clips, maxMorphTargets: options.maxMorphTargets, placement: placement(lib, options, () => PLAYER_MINS_Z),
    }, player.path);
    const config = player.config || {};
    glb = editGLBJson(glb, (json) => {
      const scene = json.scenes[json.scene ?? 0];
      scene.extras = {
        ...scene.extras,
        quake3Player: {
          name: player.name, path: player.path, skin, lod: lod ?? player.lod,
          ...(player.config ? {
            sex: config.sex, footsteps: config.footsteps, headOffset: config.headOffset, fixedLegs: config.fixedLegs,
            fixedTorso: config.fixedTorso, legsOffset: config.legsSkip,
          } : { animationCfg: false }),
        },
      };
      // The C writes a clip only when it drives something, in order: match by name.
      const byName = new Map(clips.map((c, i) => [c.name, clipExtras[i]]));
      for (const anim of json.animations || []) {
        const extra = byName.get(anim.name);
        if (extra) anim.extras = { ...anim.extras, quake3: extra };
      }
    });
    if (missing.size) warnings.push({ code: 'missing_file', message: `not found, not embedded: ${[...missing].join(', ')}` });
    return { glb, warnings, missingFiles: [...missing], textures: materials.list.map((m) => ({ material: m.name, texture: m.texture ?? null })) };
  } finally {
    for (const model of loadedHere) model.dispose();
  }
}
