// interquake render: pictures of a model or a player with the software renderer (docs/RENDER.md),
// one (IN OUT.png: a PNG, an animated PNG with --turntable, a sprite sheet and its atlas with
// --sheet) or a whole upload (--out-dir DIR PATH...: one PNG per model and player, on worker
// threads). Every file is written under a temporary name and renamed: never a partial file.
import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { init } from '../../web/interquake.node.js';
import { writeAtomically } from './convert.mjs';
import { InputError, UsageError } from './errors.mjs';
import { plural, round } from './info.mjs';
import { openTarget, openArchiveMain } from './targets.mjs';
import { defaultWorkers, kindName, problemOf, runPool, walk } from './validate.mjs';

/** The flags as iq.render() options (the element's attributes in camelCase). */
export function renderOptions(options) {
  const out = {};
  if (options.size !== undefined) {
    const m = /^(\d+)(?:x(\d+))?$/i.exec(options.size);
    if (!m) throw new UsageError(`--size takes WIDTHxHEIGHT or N, not '${options.size}'`, 'render');
    out.width = Number(m[1]);
    out.height = Number(m[2] ?? m[1]);
  }
  const copy = { animation: 'animation', 'legs-animation': 'legsAnimation', 'torso-animation': 'torsoAnimation', orbit: 'cameraOrbit',
    target: 'cameraTarget', fov: 'fieldOfView', background: 'background', 'light-direction': 'lightDirection', skin: 'skin',
    show: 'show' };
  for (const [flag, name] of Object.entries(copy)) if (options[flag] !== undefined) out[name] = options[flag];
  const numbers = { time: 'time', frame: 'frame', 'light-intensity': 'lightIntensity', 'light-ambient': 'lightAmbient', supersample: 'supersample', fps: 'fps', frames: 'frames' };
  for (const [flag, name] of Object.entries(numbers)) {
    if (options[flag] === undefined) continue;
    const v = Number(options[flag]);
    if (!Number.isFinite(v)) throw new UsageError(`--${flag} takes a number, not '${options[flag]}'`, 'render');
    out[name] = v;
  }
  if (options.turntable !== undefined) {
    const n = Number(options.turntable);
    if (!Number.isInteger(n) || n < 1 || n > 3600) throw new UsageError(`--turntable takes a number of frames 1..3600, not '${options.turntable}'`, 'render');
    out.turntable = true;
    out.frames = n;
  }
  return out;
}

// Renders what a target names into bytes: { files: [{ path, bytes }], line }.
async function picture(iq, target, output, options, opts) {
  const subject = target.player ?? target.model;
  const what = target.player ? { ...opts } : { ...opts, files: target.textures };
  if (opts.turntable || options.sheet) {
    const anim = await iq.renderAnimation(subject, what);
    if (options.sheet) {
      const { png, atlas } = await iq.encodeSpriteSheet(anim);
      const json = output.replace(/\.png$/i, '') + '.json';
      return { files: [{ path: output, bytes: png }, { path: json, bytes: new TextEncoder().encode(`${JSON.stringify({ image: basename(output), fps: anim.fps, ...atlas }, null, 2)}\n`) }],
        line: `${output}: ${atlas.width}x${atlas.height} sprite sheet of ${plural(anim.frames.length, 'frame')} (atlas ${basename(json)})`, missing: anim.frames[0]?.missingFiles ?? [] };
    }
    const apng = await iq.encodeAPNG(anim);
    return { files: [{ path: output, bytes: apng }], line: `${output}: ${anim.frames[0].width}x${anim.frames[0].height} animated PNG, ${plural(anim.frames.length, 'frame')} at ${anim.fps} fps`, missing: anim.frames[0]?.missingFiles ?? [] };
  }
  const image = await iq.render(subject, what);
  return { files: [{ path: output, bytes: await iq.encodePNG(image) }], line: `${output}: ${image.width}x${image.height} PNG`, missing: image.missingFiles };
}

/** One item of a batch, in a worker: renders and writes OUT, returns a validate-like result. */
export async function renderJob(iq, job) {
  const result = { path: job.path, kind: kindName(job), ok: true, warnings: [], output: job.output };
  let target = null;
  try {
    const name = job.type === 'archive-model' || job.type === 'archive-player' ? `${job.archive}:${job.entry}` : job.path;
    target = await openTarget(iq, name, job.options);
    if (target.kind === 'archive') throw new InputError(`${name}: is an archive`, 'invalid_argument');
    const out = await picture(iq, target, job.output, job.options, job.render);
    for (const f of out.files) await writeAtomically(f.path, f.bytes);
    result.warnings = out.missing.map((f) => ({ code: 'missing_file', message: `${f} (referenced, not found: drawn as the checker)` }));
  } catch (err) {
    result.ok = false;
    result.error = problemOf(err, job.path);
  } finally {
    target?.model?.dispose();
    target?.player?.dispose();
  }
  return result;
}

// An output name for an item of the batch: its path below the folder given, separators as '_'.
function outputName(path, roots) {
  let rel = path.replace(/\\/g, '/');
  for (const root of roots) {
    const r = root.replace(/\\/g, '/').replace(/\/+$/, '');
    if (rel.startsWith(`${r}/`)) { rel = rel.slice(r.length + 1); break; }
    if (rel.startsWith(`${r}:`)) { rel = `${basename(r).replace(/\.\w+$/, '')}/${rel.slice(r.length + 1)}`; break; } // an archive given itself
  }
  return `${rel.replace(/\.(iqm|iqe|md3)$/i, '').replace(/^[./]+/, '').replace(/[/:\\]+/g, '_') || 'model'}.png`;
}

async function batch(positional, options, opts) {
  const started = performance.now();
  const iq = await init();
  const outDir = options['out-dir'];
  try {
    await mkdir(outDir, { recursive: true });
  } catch (err) {
    throw new InputError(`${outDir}: cannot create: ${err.code || err.message}`, 'cannot_write');
  }
  const { jobs, items } = await walk(positional, iq, { alone: true }); // players archive by archive: the render worker opens one
  const failedItems = items.filter((i) => !i.ok); // archives that did not open, paths that are not there
  const used = new Set();
  for (const job of jobs) {
    let name = outputName(job.path, positional);
    for (let k = 2; used.has(name.toLowerCase()); k++) name = name.replace(/(-\d+)?\.png$/, `-${k}.png`);
    used.add(name.toLowerCase());
    job.output = join(outDir, name);
    job.options = { format: options.format, skin: options.skin, lod: options.lod, weapon: options.weapon, team: options.team };
    job.render = opts;
    job.options.sheet = Boolean(options.sheet);
  }
  const workerCount = Math.max(1, Math.min(options.workers || defaultWorkers(), jobs.length || 1));
  const results = [...failedItems];
  const print = (r) => {
    if (!r.ok) process.stdout.write(`${r.path}: ${r.error.code}${r.error.where ? ` (${r.error.where})` : ''}: ${r.error.message}\n`);
    else if (options.warnings) for (const w of r.warnings) process.stdout.write(`${r.path}: warning ${w.code}: ${w.message}\n`);
  };
  failedItems.forEach(print);
  await runPool(jobs, workerCount, (options.timeout ?? 120) * 1000, (r) => { results.push(r); print(r); }, new URL('./render-worker.mjs', import.meta.url));
  const seconds = (performance.now() - started) / 1000;
  const failed = results.filter((r) => !r.ok).length;
  const written = results.length - failed;
  process.stdout.write(`${plural(results.length, 'item')}: ${written} pictures in ${outDir}, ${failed} failed; ${round(seconds, 3)} s ` +
    `(${round(results.length / seconds, 1)} files/s, ${plural(workerCount, 'worker')})\n`);
  return failed ? 1 : 0;
}

export async function commandRender(positional, options) {
  const opts = renderOptions(options);
  if (options.sheet && opts.turntable === undefined && opts.frames === undefined && opts.fps === undefined) opts.frames = 16;
  if (options['out-dir'] !== undefined) {
    if (!positional.length) throw new UsageError('render --out-dir DIR takes one PATH or more', 'render');
    return batch(positional, options, opts);
  }
  if (positional.length !== 2) throw new UsageError('render takes IN and OUT.png (or --out-dir DIR PATH...)', 'render');
  const [input, output] = positional;
  if (!/\.png$/i.test(output)) throw new UsageError(`the output must be a .png file, not '${output}'`, 'render');
  const iq = await init();
  let target = await openTarget(iq, input, options);
  if (target.kind === 'archive') {
    // A whole archive: what the element opens for it (its first player, else its main model).
    const main = await openArchiveMain(iq, target.archive, target.path, options);
    if (!main) throw new InputError(`${target.path}: holds no model to draw`, 'missing_main_file');
    target = main;
  }
  let out;
  try {
    out = await picture(iq, target, output, options, opts);
  } finally {
    target.model?.dispose();
    target.player?.dispose();
  }
  for (const f of out.files) await writeAtomically(f.path, f.bytes);
  for (const f of out.missing) process.stderr.write(`interquake: warning missing_file: ${f} (drawn as the checker)\n`);
  process.stdout.write(`${out.line}${target.choice ? ` (${target.choice}, the archive's ${target.kind === 'player' ? 'first player' : 'main model'})` : ''}\n`);
  return 0;
}
