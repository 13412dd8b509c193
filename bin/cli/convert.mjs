// interquake convert: a model as IQM v2, or a model or player as GLB, written under a temporary
// name and renamed so OUT is never left half written.
import { rename, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { init } from '../../web/interquake.node.js';
import { InputError, UsageError } from './errors.mjs';
import { plural } from './info.mjs';
import { openTarget } from './targets.mjs';

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

async function convertGLB(iq, input, output, options) {
  const target = await openTarget(iq, input, options);
  if (target.kind === 'archive') throw new InputError(`${target.path}: is an archive (name an entry: ARCHIVE:PATH)`, 'invalid_argument');
  let result;
  try {
    result = target.kind === 'player'
      ? await iq.writeGLB(target.player, { skin: options.skin, lod: options.lod })
      : await iq.writeGLB(target.model, { files: target.textures });
  } finally {
    if (target.model) target.model.dispose();
    if (target.player) target.player.dispose();
  }
  await writeAtomically(output, result.glb);
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
  if (options.skin !== undefined || options.lod !== undefined) throw new UsageError('--skin and --lod are for .glb output (players)', 'convert');
  const iq = await init();
  const target = await openTarget(iq, input, options);
  if (target.kind !== 'model') {
    if (target.player) target.player.dispose();
    throw new InputError(`${target.path}: is ${target.kind === 'player' ? 'a player (convert its parts one by one)' : 'an archive (name an entry: ARCHIVE:PATH)'}, not a model`, 'invalid_argument');
  }
  const { model } = target;
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
