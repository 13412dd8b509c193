#!/usr/bin/env node
// The interquake command line: `interquake info FILE` prints a JSON summary of a model;
// `interquake convert IN OUT.iqm` writes it as IQM v2. Exit codes: 0 done, 1 bad input
// (the model or a file could not be read or written), 2 bad usage.
import { readFile, writeFile } from 'node:fs/promises';
import { init, InterquakeError } from '../web/interquake.js';

const USAGE = `usage: interquake info FILE [--format iqm|iqe|md3]
       interquake convert IN OUT.iqm [--format iqm|iqe|md3]

  info      print a JSON summary: format, meshes, counts, joints, animations
            (frame ranges and rates), bounds, custom arrays, warnings
  convert   read an IQM or IQE model and write it as IQM v2
  --format  read the input as this format instead of detecting it`;

class UsageError extends Error {}

function parseArgs(argv) {
  const positional = [];
  let format = 'auto';
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--format') {
      format = argv[++i];
      if (!['auto', 'iqm', 'iqe', 'md3'].includes(format)) throw new UsageError(`unknown format '${format}'`);
    } else if (arg.startsWith('--format=')) {
      format = arg.slice('--format='.length);
      if (!['auto', 'iqm', 'iqe', 'md3'].includes(format)) throw new UsageError(`unknown format '${format}'`);
    } else if (arg === '-h' || arg === '--help') {
      return { command: 'help' };
    } else if (arg.startsWith('-') && arg !== '-') {
      throw new UsageError(`unknown option '${arg}'`);
    } else {
      positional.push(arg);
    }
  }
  const [command, ...files] = positional;
  return { command, files, format };
}

async function loadModel(iq, path, format) {
  let bytes;
  try {
    bytes = await readFile(path);
  } catch (err) {
    throw new InputError(`${path}: cannot read: ${err.code || err.message}`);
  }
  return { model: iq.load(bytes, { name: path, format }), size: bytes.length };
}

class InputError extends Error {}

const round = (v) => Math.round(v * 1e6) / 1e6;

function summary(model, path, size) {
  const arrays = ['positions', 'texcoords', 'normals', 'tangents', 'colors', 'blendIndices', 'blendWeights']
    .filter((name) => model[name] !== null);
  return {
    file: path,
    bytes: size,
    format: model.format,
    vertexCount: model.vertexCount,
    triangleCount: model.triangleCount,
    arrays,
    meshes: model.meshes.map((m) => ({
      name: m.name, material: m.material,
      firstVertex: m.firstVertex, vertexCount: m.vertexCount,
      firstTriangle: m.firstTriangle, triangleCount: m.triangleCount,
    })),
    jointCount: model.joints.length,
    joints: model.joints.map((j) => ({ name: j.name, parent: j.parent })),
    frameCount: model.frameCount,
    animations: model.animations.map((a) => ({
      name: a.name,
      firstFrame: a.firstFrame,
      lastFrame: a.frameCount ? a.firstFrame + a.frameCount - 1 : null,
      frameCount: a.frameCount,
      framerate: a.framerate,
      seconds: a.framerate > 0 ? round(a.frameCount / a.framerate) : null,
      loop: a.loop,
    })),
    bounds: model.bounds
      ? { min: model.bounds.min.map(round), max: model.bounds.max.map(round), radius: round(model.bounds.radius) }
      : null,
    customArrays: model.customArrays.map((c) => ({ name: c.name, format: c.format, size: c.size })),
    commentBytes: new TextEncoder().encode(model.comment).length,
    extensions: model.extensions.map((e) => ({ name: e.name, bytes: e.data.length })),
    warnings: model.warnings,
  };
}

async function main(argv) {
  const { command, files = [], format } = parseArgs(argv);
  if (command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (command === 'info') {
    if (files.length !== 1) throw new UsageError('info takes one FILE');
    const iq = await init();
    const { model, size } = await loadModel(iq, files[0], format);
    try {
      process.stdout.write(`${JSON.stringify(summary(model, files[0], size), null, 2)}\n`);
    } finally {
      model.dispose();
    }
    return 0;
  }
  if (command === 'convert') {
    if (files.length !== 2) throw new UsageError('convert takes IN and OUT.iqm');
    const [input, output] = files;
    if (!/\.iqm$/i.test(output)) throw new UsageError(`the output must be an .iqm file, not '${output}'`);
    const iq = await init();
    const { model } = await loadModel(iq, input, format);
    let bytes;
    try {
      bytes = iq.writeIQM(model);
    } finally {
      model.dispose();
    }
    try {
      await writeFile(output, bytes);
    } catch (err) {
      throw new InputError(`${output}: cannot write: ${err.code || err.message}`);
    }
    const check = iq.load(bytes, { name: output });
    const line = `${output}: ${bytes.length} bytes, ${check.vertexCount} vertices, ${check.triangleCount} triangles, ` +
      `${check.joints.length} joints, ${check.frameCount} frames, ${check.animations.length} animations`;
    check.dispose();
    process.stdout.write(`${line}\n`);
    return 0;
  }
  throw new UsageError(command ? `unknown command '${command}'` : 'no command given');
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err) => {
    if (err instanceof UsageError) {
      process.stderr.write(`interquake: ${err.message}\n${USAGE}\n`);
      process.exitCode = 2;
    } else if (err instanceof InterquakeError || err instanceof InputError) {
      // InterquakeError messages already name the file, the code and the line/column or byte.
      process.stderr.write(`interquake: ${err.message}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`interquake: internal error: ${err && err.stack ? err.stack : err}\n`);
      process.exitCode = 70;
    }
  },
);
