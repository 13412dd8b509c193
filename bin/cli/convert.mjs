// interquake convert: a model as IQM v2, or a model or player as GLB, written under a temporary
// name and renamed so OUT is never left half written.
import { readdir, rename, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { init } from '../../web/interquake.node.js';
import { InputError, UsageError } from './errors.mjs';
import { plural } from './info.mjs';
import { openTarget, readBytes } from './targets.mjs';

/** Writes bytes under a temporary name in OUT's folder, then renames it to OUT. */
export async function writeAtomically(output, bytes) {
  const temporary = join(dirname(output), `.${basename(output)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  try {
    await writeFile(temporary, bytes);
    await rename(temporary, output);
  } catch (err) {
    await unlink(temporary).catch(() => {});
    throw new InputError(`${output}: cannot write: ${err.code || err.message}`, 'cannot_write');
  }
}

/** How the GLB sits in a glTF viewer: --front, --ground, --scale as writeGLB's options. */
export function placementOptions(options) {
  const out = {};
  if (options.front !== undefined) out.front = options.front;
  if (options.ground) out.ground = true;
  if (options.scale !== undefined) out.scale = options.scale;
  return out;
}

// Animation-only files (joints and animations, no triangles) beside a model on disk, as the viewer
// attaches them (Cube 2's Frankie_Blink.iqm, Red Eclipse's door01_idle.iqm); and the --anim files.
async function attachAnimations(iq, target, options, notes) {
  const { model } = target;
  const attach = (bytes, path, explicit) => {
    let source = null;
    try {
      source = iq.load(bytes, { name: path });
      if (!explicit && !(source.triangleCount === 0 && source.joints.length > 0 && source.animations.length > 0)) return;
      model.attachAnimations(source);
      notes.push(`${path}: ${source.animations.length} animation(s) attached`);
    } catch (err) {
      if (explicit) throw err; // asked for by name: its failure is the command's
      notes.push(`${path}: not attached (${err.code}: ${err.message})`);
    } finally {
      source?.dispose();
    }
  };
  if (target.folder && model.joints.length) {
    const names = (await readdir(target.folder, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name).sort();
    const self = basename(target.path);
    const readable = new Set(iq.formats);
    for (const name of names) {
      if (name === self || !readable.has(name.slice(name.lastIndexOf('.') + 1).toLowerCase())) continue;
      if (options.anim?.some((a) => resolve(a) === resolve(join(target.folder, name)))) continue;
      attach(await readBytes(join(target.folder, name)), join(target.folder, name), false);
    }
  }
  for (const path of options.anim ?? []) attach(await readBytes(path), path, true);
}

// Animation files beside the model that did not attach (an .md5mesh's .md5anim files: targets.mjs).
function warnAttached(target) {
  for (const w of target.warnings ?? []) process.stderr.write(`interquake: warning ${w.code}: ${w.message}\n`);
}

async function convertGLB(iq, input, output, options) {
  const target = await openTarget(iq, input, options);
  if (target.kind === 'archive') throw new InputError(`${target.path}: is an archive (name an entry: ARCHIVE:PATH)`, 'invalid_argument');
  if (target.kind === 'model' && options.weapon !== undefined) {
    target.model.dispose();
    throw new UsageError('--weapon is for a Quake 3 player', 'convert');
  }
  if (target.kind === 'player' && options.anim) {
    target.player.dispose();
    throw new UsageError('--anim is for a model (a player\'s animations come from its animation.cfg)', 'convert');
  }
  if (target.kind === 'player' && options.weapon !== undefined && !target.player.parts.weapon) {
    target.player.dispose();
    throw new InputError(`${target.path}: weapon '${options.weapon}' not found`, 'missing_file');
  }
  warnAttached(target);
  let result;
  const notes = [];
  try {
    if (target.kind === 'model') await attachAnimations(iq, target, options, notes);
    result = target.kind === 'player'
      ? await iq.writeGLB(target.player, { skin: options.skin, lod: options.lod, ...placementOptions(options) })
      : await iq.writeGLB(target.model, { files: target.textures, textures: target.textureNames, ...placementOptions(options) });
  } finally {
    if (target.model) target.model.dispose();
    if (target.player) target.player.dispose();
  }
  await writeAtomically(output, result.glb);
  for (const note of notes) process.stderr.write(`interquake: note: ${note}\n`);
  for (const w of result.warnings) process.stderr.write(`interquake: warning ${w.code}: ${w.message}\n`);
  const doc = JSON.parse(new TextDecoder().decode(result.glb.subarray(20, 20 + new DataView(result.glb.buffer, result.glb.byteOffset).getUint32(12, true))));
  process.stdout.write(`${output}: ${result.glb.length} bytes, ${doc.meshes?.length ?? 0} meshes, ${plural(doc.animations?.length ?? 0, 'animation')}, ` +
    `${plural(doc.images?.length ?? 0, 'texture')}${result.missingFiles.length ? `, ${result.missingFiles.length} missing` : ''}\n`);
  return 0;
}

export async function commandConvert(positional, options) {
  if (positional.length !== 2) throw new UsageError('convert takes IN and OUT.iqm or OUT.glb', 'convert');
  const [input, output] = positional;
  if (/\.glb$/i.test(output)) return convertGLB(await init(), input, output, options);
  if (!/\.iqm$/i.test(output)) throw new UsageError(`the output must be an .iqm or .glb file, not '${output}'`, 'convert');
  for (const flag of ['skin', 'lod', 'weapon', 'anim', 'front', 'ground', 'scale']) {
    if (options[flag] !== undefined) throw new UsageError(`--${flag} is for .glb output`, 'convert');
  }
  const iq = await init();
  const target = await openTarget(iq, input, options);
  if (target.kind !== 'model') {
    if (target.player) target.player.dispose();
    throw new InputError(`${target.path}: is ${target.kind === 'player' ? 'a player (convert its parts one by one)' : 'an archive (name an entry: ARCHIVE:PATH)'}, not a model`, 'invalid_argument');
  }
  const { model } = target;
  warnAttached(target);
  let bytes;
  let tags = [];
  try {
    bytes = iq.writeIQM(model);
    tags = Array.isArray(model.tags) ? model.tags : [];
  } finally {
    model.dispose();
  }
  const check = iq.load(bytes, { name: output }); // what we write must load
  const line = `${output}: ${bytes.length} bytes, ${check.vertexCount} vertices, ${check.triangleCount} triangles, ` +
    `${check.joints.length} joints, ${check.frameCount} frames, ${check.animations.length} animations`;
  check.dispose();
  await writeAtomically(output, bytes);
  if (tags.length) process.stderr.write(`interquake: note: ${plural(tags.length, 'tag')} (${tags.join(', ')}) not written: IQM has no tags\n`);
  process.stdout.write(`${line}\n`);
  return 0;
}
