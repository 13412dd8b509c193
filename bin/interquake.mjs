#!/usr/bin/env node
// The interquake command line, for modders and mod-site pipelines (docs/CLI.md):
//   interquake info TARGET       a readable summary (or --json) of a model, a .pk3/.zip, an entry
//                                inside one (archive.pk3:path), or a Quake 3 player folder
//   interquake validate PATH...  every model and player under files, folders and archives, on
//                                every core; one line per problem and a summary
//   interquake convert IN OUT.iqm|OUT.glb
// Exit codes: 0 done (validate: nothing failed), 1 bad input, 2 bad usage.
// Only the public JS API is used (init, load, openArchive, loadPlayer, writeIQM, model members).
// This one file is also the validate worker (worker_threads), so the package ships one file.
import { readFile, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { init, InterquakeError } from '../web/interquake.node.js';

const VERSION = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
const SCHEMA = 1; // of every --json document; docs/CLI.md
const MODEL_EXT = /\.(iqm|iqe|md3)$/i;
const ARCHIVE_EXT = /\.(pk3|zip)$/i;
const PART_FILE = /^(lower|upper|head)\.(md3|iqm)$/i;

class UsageError extends Error {
  constructor(message, command) {
    super(message);
    this.command = command;
  }
}
class InputError extends Error {
  constructor(message, code = 'cannot_read') {
    super(message);
    this.code = code;
  }
}

// -- Usage

const HELP = {
  main: `usage: interquake info TARGET [--json] [--full] [--skin NAME] [--format iqm|iqe|md3]
       interquake validate PATH... [--json] [--warnings] [--workers N] [--timeout SECONDS]
       interquake convert IN OUT.iqm|OUT.glb [--format iqm|iqe|md3] [--skin NAME] [--lod N]
       interquake --version | --help | COMMAND --help

  info      what a model, archive or Quake 3 player holds
  validate  load every model and player under files, folders and .pk3/.zip archives
  convert   write a model as IQM v2, or a model or player as glTF 2.0 (.glb)

Exit codes: 0 done, 1 bad input (validate: something failed), 2 bad usage.`,
  info: `usage: interquake info TARGET [--json] [--full] [--skin NAME] [--format iqm|iqe|md3]

TARGET is
  a model (.iqm, .iqe, .md3)       format, counts, meshes with every material or shader,
                                   the joint tree (short), animations (frames, fps, loop), tags, warnings
  an archive (.pk3, .zip)          its players and models
  ARCHIVE:PATH                     one entry of an archive: a model, or a player folder
  a player folder                  a Quake 3 player (lower/upper/head): parts, skins, surfaces and
                                   textures, animations from animation.cfg, missing files

  --json          one JSON document (schema in docs/CLI.md)
  --full          every joint and every archive entry, not the short view
  --skin NAME     the player's skin to resolve (default: 'default')
  --format F      read a model as this format instead of detecting it`,
  validate: `usage: interquake validate PATH... [--json] [--warnings] [--workers N] [--timeout SECONDS]

Walks files, folders and .pk3/.zip archives; loads every model (.iqm, .iqe, .md3) and every
Quake 3 player (a folder with lower, upper and head models, loose or inside an archive, checked
with every skin). Prints one line per problem, "PATH: CODE: MESSAGE", then a summary.
Exits 1 when something failed, 0 otherwise.

  --json          one JSON document with every item and the summary (docs/CLI.md)
  --warnings      print warnings too ("PATH: warning CODE: MESSAGE")
  --workers N     worker threads (default: every core, ${defaultWorkers()} here)
  --timeout S     seconds one item may take before its worker is stopped (default 60)`,
  convert: `usage: interquake convert IN OUT.iqm|OUT.glb [--format iqm|iqe|md3] [--skin NAME] [--lod N]

OUT.glb: writes IN (an IQM, IQE or MD3 model, a Quake 3 player folder, or ARCHIVE:PATH naming a
model or a player inside a .pk3) as binary glTF 2.0 with its animations and embedded textures
(docs/GLTF.md). Textures not found are reported on stderr; the GLB is written anyway.

  --skin NAME     the player's skin (default: 'default')
  --lod N         the player's level of detail (0, 1, 2)

OUT.iqm: writes IN (an IQM, IQE or MD3 model, or ARCHIVE:PATH) as IQM v2. An MD3 converts when it has one
frame, or frames that are all the same (it becomes a static IQM); vertex animation is refused
(IQM holds skeletal animation only). The file is written under a temporary name and renamed, so
OUT is never left half written.

  --format F      read IN as this format instead of detecting it`,
};

const OPTIONS = {
  info: { json: 'flag', full: 'flag', skin: 'value', format: 'value' },
  validate: { json: 'flag', warnings: 'flag', workers: 'value', timeout: 'value' },
  convert: { format: 'value', skin: 'value', lod: 'value' },
};
const FORMATS = ['auto', 'iqm', 'iqe', 'md3'];

function defaultWorkers() {
  return typeof availableParallelism === 'function' ? availableParallelism() : cpus().length || 1;
}

function parseArgs(argv) {
  const [command, ...rest] = argv;
  const help = argv.includes('--help') || argv.includes('-h');
  if (command === undefined) throw new UsageError('no command given');
  if (command.startsWith('-')) {
    if (command === '--version' || command === '-V') return { command: 'version' };
    if (help) return { command: 'help' };
    throw new UsageError(`unknown option '${command}' (a command comes first)`);
  }
  if (!OPTIONS[command]) throw new UsageError(`unknown command '${command}'`);
  if (help) return { command: 'help', topic: command };
  const spec = OPTIONS[command];
  const options = {};
  const positional = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (!arg.startsWith('--')) {
      if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option '${arg}'`, command);
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    if (!spec[name]) throw new UsageError(`unknown option '${arg}' for ${command}`, command);
    if (spec[name] === 'flag') {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`, command);
      options[name] = true;
    } else {
      const value = eq >= 0 ? arg.slice(eq + 1) : rest[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`, command);
      options[name] = value;
    }
  }
  if (options.format !== undefined && !FORMATS.includes(options.format)) {
    throw new UsageError(`unknown format '${options.format}' (iqm, iqe or md3)`, command);
  }
  if (options.workers !== undefined) {
    const n = Number(options.workers);
    if (!Number.isInteger(n) || n < 1 || n > 256) throw new UsageError(`--workers takes a whole number 1..256, not '${options.workers}'`, command);
    options.workers = n;
  }
  if (options.lod !== undefined) {
    const n = Number(options.lod);
    if (!Number.isInteger(n) || n < 0 || n > 9) throw new UsageError(`--lod takes a whole number 0..9, not '${options.lod}'`, command);
    options.lod = n;
  }
  if (options.timeout !== undefined) {
    const s = Number(options.timeout);
    if (!Number.isFinite(s) || s <= 0) throw new UsageError(`--timeout takes a number of seconds above 0, not '${options.timeout}'`, command);
    options.timeout = s;
  }
  return { command, positional, options };
}

// -- Reading what a path names: a file, a folder, or ARCHIVE:PATH

async function readBytes(path) {
  try {
    return await readFile(path);
  } catch (err) {
    throw new InputError(`${path}: cannot read: ${err.code || err.message}`, err.code === 'EISDIR' ? 'cannot_read' : 'cannot_read');
  }
}

const isZip = (bytes) => bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5);

async function kindOf(path) {
  let info;
  try {
    info = await stat(path);
  } catch (err) {
    return null;
  }
  return info.isDirectory() ? 'folder' : info.isFile() ? 'file' : null;
}

/** Splits "archive.pk3:path/in/archive" at the first ':' whose left side is a file (the whole path wins when it exists). */
async function splitArchivePath(target) {
  if (await kindOf(target)) return { path: target, inner: null };
  for (let at = target.indexOf(':'); at > 0; at = target.indexOf(':', at + 1)) {
    if ((await kindOf(target.slice(0, at))) === 'file') return { path: target.slice(0, at), inner: target.slice(at + 1) };
  }
  return { path: target, inner: null };
}

async function openArchiveFile(iq, path, bytes) {
  return iq.openArchive(bytes || (await readBytes(path)), { name: path });
}

/** The files of a player folder on disk, keyed by game path when the folder sits under models/players/. */
async function loadPlayerFolder(iq, dir, options = {}) {
  const abs = resolve(dir).split(sep).join('/');
  const game = /^(.*\/)(models\/players\/[^/]+)$/i.exec(abs);
  const root = game ? game[1] : null;
  const prefix = game ? game[2] : '';
  const files = {};
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isFile()) files[prefix ? `${prefix}/${entry.name}` : entry.name] = await readBytes(join(dir, entry.name));
  }
  const load = () => iq.loadPlayer(files, { player: prefix || undefined, skin: options.skin, lod: options.lod });
  let player = load();
  // Textures often live in other folders of the game tree (sarge's in models/players/grism):
  // read the files each skin's missing references could be, then assemble again.
  if (root && (await addTextures(root, missingOverSkins(player), files))) {
    player.dispose();
    player = load();
  }
  return { player, files };
}

function missingOverSkins(player) {
  const missing = new Set(player.missingFiles);
  for (const skin of player.skins) for (const f of player.resolveSkin(skin).missingFiles) missing.add(f);
  return missing;
}

// A reference's folder is listed once and files whose name starts with its stem are read
// (the loader then picks among .tga/.jpg/.png as the game does).
async function addTextures(root, missing, files) {
  const listings = new Map();
  let added = 0;
  for (const reference of missing) {
    const inGame = /(^|\/)(models|textures)\//i.exec(reference);
    const path = inGame ? reference.slice(inGame.index + inGame[1].length) : reference;
    if (path.startsWith('/') || path.split('/').includes('..')) continue;
    const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    const base = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
    const stem = base.includes('.') ? base.slice(0, base.indexOf('.')) : base;
    if (!listings.has(folder)) {
      listings.set(folder, await readdir(join(root, folder), { withFileTypes: true }).catch(() => []));
    }
    for (const entry of listings.get(folder)) {
      const key = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isFile() && entry.name.toLowerCase().startsWith(stem) && !(key in files)) {
        files[key] = await readBytes(join(root, folder, entry.name));
        added++;
      }
    }
  }
  return added;
}

async function isPlayerFolder(dir) {
  const names = await readdir(dir).catch(() => []);
  const parts = new Set(names.filter((n) => PART_FILE.test(n)).map((n) => n.toLowerCase().replace(/\.\w+$/, '')));
  return parts.has('lower') && parts.has('upper') && parts.has('head');
}

/** Loads what TARGET names: { kind: 'model' | 'archive' | 'player', ... }. */
async function openTarget(iq, target, options = {}) {
  const { path, inner } = await splitArchivePath(target);
  const kind = await kindOf(path);
  if (!kind) throw new InputError(`${path}: cannot read: ENOENT`);
  if (kind === 'folder') {
    if (inner !== null) throw new InputError(`${path}: is a folder, not an archive`);
    if (!(await isPlayerFolder(path))) {
      throw new InputError(`${path}: not a Quake 3 player folder (no lower, upper and head models); 'interquake validate ${path}' checks every model in it`, 'not_a_player');
    }
    const { player } = await loadPlayerFolder(iq, path, options);
    return { kind: 'player', path, player, source: 'folder' };
  }
  const bytes = await readBytes(path);
  if (inner === null && (ARCHIVE_EXT.test(path) || (isZip(bytes) && !MODEL_EXT.test(path)))) {
    return { kind: 'archive', path, bytes: bytes.length, archive: await openArchiveFile(iq, path, bytes) };
  }
  if (inner !== null) {
    const archive = await openArchiveFile(iq, path, bytes);
    const name = `${path}:${inner}`;
    const folder = inner.replace(/\\/g, '/').replace(/\/+$/, '');
    const player = archive.players.find((p) => p.path.toLowerCase() === folder.toLowerCase());
    if (player) {
      return { kind: 'player', path: name, player: iq.loadPlayer(archive, { player: player.path, skin: options.skin, lod: options.lod }), source: 'archive' };
    }
    const entryBytes = archive.has(inner) ? archive.read(inner) : null;
    if (!entryBytes) {
      const under = archive.models.filter((m) => m.toLowerCase().startsWith(`${folder.toLowerCase()}/`));
      throw new InputError(`${name}: no such entry${under.length ? `; models under it: ${under.slice(0, 5).join(', ')}${under.length > 5 ? ', ...' : ''}` : ''}`, 'missing_file');
    }
    // textures of a model inside an archive: by game path, or beside the model
    const dir = inner.includes('/') ? inner.slice(0, inner.lastIndexOf('/') + 1) : '';
    const textures = (path) => (archive.has(path) ? archive.read(path) : archive.has(dir + path) ? archive.read(dir + path) : null);
    return { kind: 'model', path: name, bytes: entryBytes.length, model: iq.load(entryBytes, { name, format: options.format }), textures };
  }
  return { kind: 'model', path, bytes: bytes.length, model: iq.load(bytes, { name: path, format: options.format }), textures: diskTextures(path) };
}

// Textures of a model on disk: the path as the model names it from the model's folder, from the
// game folder above a models/ or textures/ folder, or the file name beside the model.
function diskTextures(modelPath) {
  const dir = dirname(resolve(modelPath));
  const game = /^(.*?)[\\/](models|textures)[\\/]/i.exec(dir + sep);
  return async (path) => {
    if (path.startsWith('/') || path.split('/').includes('..')) return null;
    const tries = [join(dir, path), join(dir, basename(path))];
    if (game) tries.splice(1, 0, join(game[1], path));
    for (const file of tries) {
      try {
        return await readFile(file);
      } catch {
        // next
      }
    }
    return null;
  };
}

// -- info: plain data first (the --json document), then the readable text from the same data

const round = (v, digits = 6) => Math.round(v * 10 ** digits) / 10 ** digits;

function modelSummary(model, path, size) {
  const arrays = ['positions', 'texcoords', 'normals', 'tangents', 'colors', 'blendIndices', 'blendWeights']
    .filter((name) => model[name] !== null);
  // MD3 stores no animations: the clip the library offers over its frames is not in the file.
  const animations = model.format === 'md3' ? [] : model.animations;
  return {
    schema: SCHEMA,
    kind: 'model',
    path,
    bytes: size,
    format: model.format,
    vertexCount: model.vertexCount,
    triangleCount: model.triangleCount,
    frameCount: model.frameCount,
    arrays,
    meshes: model.meshes.map((m) => ({
      name: m.name,
      material: m.material,
      shaders: Array.isArray(m.shaders) ? [...m.shaders] : m.material ? [m.material] : [],
      firstVertex: m.firstVertex, vertexCount: m.vertexCount,
      firstTriangle: m.firstTriangle, triangleCount: m.triangleCount,
    })),
    joints: model.joints.map((j) => ({ name: j.name, parent: j.parent })),
    animations: animations.map((a) => ({
      name: a.name,
      firstFrame: a.firstFrame,
      lastFrame: a.frameCount ? a.firstFrame + a.frameCount - 1 : null,
      frameCount: a.frameCount,
      framerate: a.framerate,
      seconds: a.framerate > 0 ? round(a.frameCount / a.framerate) : null,
      loop: a.loop,
    })),
    tags: Array.isArray(model.tags) ? [...model.tags] : [],
    bounds: model.bounds
      ? { min: model.bounds.min.map((v) => round(v)), max: model.bounds.max.map((v) => round(v)), radius: round(model.bounds.radius) }
      : null,
    customArrays: model.customArrays.map((c) => ({ name: c.name, format: c.format, size: c.size })),
    commentBytes: new TextEncoder().encode(model.comment).length,
    extensions: model.extensions.map((e) => ({ name: e.name, bytes: e.data.length })),
    warnings: model.warnings.map((w) => ({ code: w.code, message: w.message })),
  };
}

function archiveSummary(archive, path, size) {
  return {
    schema: SCHEMA,
    kind: 'archive',
    path,
    bytes: size,
    entryCount: archive.files.length,
    players: archive.players.map((p) => ({ path: p.path, name: p.name, skins: [...p.skins], lods: [...p.lods] })),
    models: [...archive.models],
    warnings: archive.warnings.map((w) => ({ code: w.code, message: w.message })),
  };
}

function playerSummary(player, path, source) {
  const skins = player.skins.map((skin) => ({ name: skin, missingFiles: player.resolveSkin(skin).missingFiles }));
  return {
    schema: SCHEMA,
    kind: 'player',
    path,
    source,
    player: player.path,
    name: player.name,
    skin: player.skin,
    skins,
    lods: [...player.lods],
    parts: Object.entries(player.parts).map(([part, { path: file, model }]) => ({
      part, path: file, format: model.format, vertexCount: model.vertexCount, triangleCount: model.triangleCount,
      frameCount: model.frameCount, tags: Array.isArray(model.tags) ? [...model.tags] : [],
    })),
    surfaces: Object.entries(player.surfaces).flatMap(([part, list]) =>
      list.map((s) => ({ part, name: s.name, shader: s.shader, source: s.source, texture: s.texture }))),
    animations: player.animations.map((a) => ({
      name: a.name, part: a.part, firstFrame: a.firstFrame, frameCount: a.frameCount, loopFrames: a.loopFrames,
      fps: a.fps, reversed: a.reversed, loop: a.loop, seconds: round(a.duration), fits: a.fits,
    })),
    config: player.config,
    missingFiles: [...player.missingFiles],
    warnings: player.warnings.map((w) => ({ code: w.code, message: w.message })),
  };
}

const plural = (n, word, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;
const kb = (n) => (n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${(n / 1e3).toFixed(1)} KB`);
const vec = (v) => `(${v.map((x) => round(x, 2)).join(', ')})`;
const table = (rows, indent = '  ') => {
  const widths = [];
  for (const row of rows) row.forEach((cell, i) => { widths[i] = Math.max(widths[i] || 0, String(cell).length); });
  return rows.map((row) => indent + row.map((cell, i) => (i === row.length - 1 ? cell : String(cell).padEnd(widths[i]))).join('  ').trimEnd());
};

const TREE_DEPTH = 4; // lines of nesting before a subtree is folded into a count
const TREE_WIDTH = 4; // children shown per joint before the rest are folded
const CHAIN = 4; // single-child joints joined on one line

/**
 * The joint tree as indented lines. Short form: chains of single children share a line
 * ("a > b > c"), subtrees deeper than TREE_DEPTH lines and children beyond TREE_WIDTH are
 * folded into counts, so a 75-joint skeleton stays within a screen. full: one joint a line.
 */
function jointTree(joints, full) {
  const children = joints.map(() => []);
  const roots = [];
  joints.forEach((j, i) => (j.parent >= 0 && j.parent < joints.length ? children[j.parent].push(i) : roots.push(i)));
  const sizes = new Array(joints.length).fill(0);
  for (let i = joints.length - 1; i >= 0; i--) sizes[i] = 1 + children[i].reduce((s, c) => s + sizes[c], 0);
  const label = (i) => joints[i].name || `#${i}`;
  const lines = [];
  const visitAll = (list, level) => {
    const shown = full ? list : list.slice(0, TREE_WIDTH);
    for (const i of shown) visit(i, level);
    if (shown.length < list.length) {
      const rest = list.slice(shown.length);
      const count = rest.reduce((s, i) => s + sizes[i], 0);
      lines.push(`${'  '.repeat(level)}... ${rest.length} more: ${rest.map(label).join(', ')} (${plural(count, 'joint')})`);
    }
  };
  const visit = (i, level) => {
    const names = [label(i)];
    let end = i;
    while (!full && children[end].length === 1 && names.length < CHAIN) {
      end = children[end][0];
      names.push(label(end));
    }
    const line = `${'  '.repeat(level)}${names.join(' > ')}`;
    if (!full && children[end].length && level + 1 >= TREE_DEPTH) {
      lines.push(`${line}  (+${plural(sizes[end] - 1, 'joint')} below)`);
      return;
    }
    lines.push(line);
    visitAll(children[end], level + 1);
  };
  visitAll(roots, 0);
  return lines;
}

function modelText(s, full) {
  const out = [];
  out.push(`${s.path}: ${s.format.toUpperCase()} model, ${kb(s.bytes)}`);
  out.push(`  ${plural(s.meshes.length, 'mesh', 'meshes')}, ${plural(s.vertexCount, 'vertex', 'vertices')}, ` +
    `${plural(s.triangleCount, 'triangle')}, ${plural(s.joints.length, 'joint')}, ${plural(s.frameCount, 'frame')}, ` +
    `${plural(s.animations.length, 'animation')}${s.tags.length ? `, ${plural(s.tags.length, 'tag')}` : ''}`);
  out.push(`  arrays: ${s.arrays.join(', ') || 'none'}`);
  if (s.bounds) out.push(`  bounds: min ${vec(s.bounds.min)} max ${vec(s.bounds.max)} radius ${round(s.bounds.radius, 2)}`);
  if (s.customArrays.length) out.push(`  custom arrays: ${s.customArrays.map((c) => `${c.name} (${c.size})`).join(', ')}`);
  if (s.extensions.length) out.push(`  extensions: ${s.extensions.map((e) => `${e.name || '(unnamed)'} (${e.bytes} bytes)`).join(', ')}`);
  if (s.commentBytes) out.push(`  comment: ${s.commentBytes} bytes`);
  out.push(`meshes (${s.meshes.length})`);
  const rows = s.meshes.map((m) => [m.name || '(unnamed)', plural(m.vertexCount, 'vertex', 'vertices'), plural(m.triangleCount, 'triangle'),
    s.format === 'md3' ? (m.shaders.length > 1 ? `shaders: ${m.shaders.join(', ')}` : `shader: ${m.shaders[0] || '(none)'}`)
      : `material: ${m.material || '(none)'}`]);
  out.push(...table(rows));
  if (s.joints.length) {
    out.push(`joints (${s.joints.length})`);
    out.push(...jointTree(s.joints, full).map((l) => `  ${l}`));
  }
  out.push(`animations (${s.animations.length})`);
  if (s.animations.length) {
    out.push(...table(s.animations.map((a) => [a.name || '(unnamed)',
      a.frameCount ? `frames ${a.firstFrame}-${a.lastFrame} (${a.frameCount})` : 'no frames',
      `${round(a.framerate, 3)} fps`, a.seconds !== null ? `${round(a.seconds, 3)} s` : '', a.loop ? 'loop' : 'once'])));
  }
  const covered = new Set();
  for (const a of s.animations) for (let f = a.firstFrame; f < a.firstFrame + a.frameCount && f < s.frameCount; f++) covered.add(f);
  if (s.frameCount && covered.size < s.frameCount) {
    const note = s.format === 'md3' ? ' (MD3 stores none; a Quake 3 player names them in animation.cfg)' : '';
    out.push(s.animations.length
      ? `  ${plural(s.frameCount - covered.size, 'frame')} of ${s.frameCount} in no named animation`
      : `  frames 0-${s.frameCount - 1}, no named animation${note}`);
  }
  if (s.tags.length) {
    out.push(`tags (${s.tags.length})`);
    out.push(`  ${s.tags.join(', ')}`);
  }
  out.push(...warningLines(s.warnings));
  return out;
}

function warningLines(warnings) {
  if (!warnings.length) return ['warnings: none'];
  return [`warnings (${warnings.length})`, ...warnings.map((w) => `  ${w.code}: ${w.message}`)];
}

const SHORT_LIST = 20;
function archiveText(s, full) {
  const out = [`${s.path}: archive, ${kb(s.bytes)}, ${plural(s.entryCount, 'entry', 'entries')}`];
  out.push(`players (${s.players.length})`);
  out.push(...table(s.players.map((p) => [p.path, `skins: ${p.skins.join(', ') || 'none'}`, `LODs ${p.lods.join(', ')}`])));
  const inPlayer = (m) => s.players.some((p) => m.toLowerCase().startsWith(`${p.path.toLowerCase()}/`));
  const models = s.models.filter((m) => !inPlayer(m));
  out.push(`models (${s.models.length}; ${models.length} outside player folders)`);
  const shown = full ? models : models.slice(0, SHORT_LIST);
  out.push(...shown.map((m) => `  ${m}`));
  if (shown.length < models.length) out.push(`  ... ${models.length - shown.length} more (--full lists them)`);
  out.push(`  (one entry: interquake info ${s.path}:PATH)`);
  out.push(...warningLines(s.warnings));
  return out;
}

function playerText(s) {
  const out = [`${s.path}: Quake 3 player '${s.name}' (${s.source === 'archive' ? 'in an archive' : 'folder'})`];
  out.push(...table(s.parts.map((p) => [p.part, p.path, `${p.format.toUpperCase()}`, plural(p.frameCount, 'frame'),
    plural(p.vertexCount, 'vertex', 'vertices'), p.tags.length ? `tags: ${p.tags.join(', ')}` : 'no tags'])));
  out.push(`  skins: ${s.skins.map((k) => k.name).join(', ') || 'none'}; LODs ${s.lods.join(', ')}`);
  out.push(`surfaces (skin ${s.skin === null ? 'none: MD3 shader names' : s.skin})`);
  out.push(...table(s.surfaces.map((f) => [f.part, f.name || '(unnamed)', f.source, f.shader || '(none)', f.texture ? '' : 'MISSING'])));
  out.push(`animations (${s.animations.length}${s.animations.length ? ' from animation.cfg' : ': no animation.cfg'})`);
  out.push(...table(s.animations.map((a) => [a.name, a.part, a.frameCount ? `frames ${a.firstFrame}-${a.firstFrame + a.frameCount - 1} (${a.frameCount})` : 'no frames',
    `${a.fps} fps`, a.loopFrames ? `loop ${a.loopFrames}` : 'once', a.reversed ? 'reversed' : '', a.fits ? '' : 'OUTSIDE THE MODEL\'S FRAMES'])));
  const others = s.skins.filter((k) => k.name !== s.skin && k.missingFiles.length);
  out.push(`missing files (${s.missingFiles.length}${s.skin !== null ? ` with skin ${s.skin}` : ''})`);
  out.push(...s.missingFiles.map((f) => `  ${f}`));
  for (const k of others) out.push(`  skin ${k.name}: ${k.missingFiles.join(', ')}`);
  out.push(...warningLines(s.warnings));
  return out;
}

async function commandInfo(positional, options) {
  if (positional.length !== 1) throw new UsageError('info takes one TARGET', 'info');
  const iq = await init();
  const target = await openTarget(iq, positional[0], options);
  let summary;
  let text;
  try {
    if (target.kind === 'model') {
      summary = modelSummary(target.model, target.path, target.bytes);
      text = () => modelText(summary, options.full);
    } else if (target.kind === 'archive') {
      summary = archiveSummary(target.archive, target.path, target.bytes);
      text = () => archiveText(summary, options.full);
    } else {
      summary = playerSummary(target.player, target.path, target.source);
      text = () => playerText(summary);
    }
  } finally {
    if (target.model) target.model.dispose();
    if (target.player) target.player.dispose();
  }
  process.stdout.write(options.json ? `${JSON.stringify(summary, null, 2)}\n` : `${text().join('\n')}\n`);
  return 0;
}

// -- convert

/** Writes bytes under a temporary name in OUT's folder, then renames it to OUT. */
async function writeAtomically(output, bytes) {
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

async function commandConvert(positional, options) {
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

// -- validate: the main thread walks and schedules, workers load

/** An error as { code, where, message }: the API's "file: code (where): detail" taken apart. */
function problemOf(err, path) {
  const code = err && typeof err.code === 'string' ? err.code : 'internal';
  let message = err && err.message ? String(err.message) : String(err);
  for (const prefix of [`${path}: `, err && err.file ? `${err.file}: ` : null]) {
    if (prefix && message.startsWith(prefix)) message = message.slice(prefix.length);
  }
  let where = null;
  if (message.startsWith(code)) {
    const located = /^ \(([^)]*)\): /.exec(message.slice(code.length));
    if (located) {
      where = located[1];
      message = message.slice(code.length + located[0].length);
    } else if (message.startsWith(`${code}: `)) {
      message = message.slice(code.length + 2);
    }
  }
  return { code, where, message };
}

const problemLine = (path, e) => `${path}: ${e.code}${e.where ? ` (${e.where})` : ''}: ${e.message}`;

/** Everything to check under the given paths: jobs for the workers, and archives the main thread lists. */
async function walk(paths, iq) {
  const jobs = [];
  const items = []; // results known without a worker (unreadable paths, archives that do not open)
  let bytes = 0; // of the models loaded (archive entries uncompressed)
  let inputBytes = 0; // of the files and archives on disk
  const visit = async (path) => {
    const kind = await kindOf(path);
    if (!kind) {
      items.push({ path, kind: 'file', ok: false, error: { code: 'cannot_read', where: null, message: 'no such file or folder' }, warnings: [] });
      return;
    }
    if (kind === 'folder') {
      if (await isPlayerFolder(path)) jobs.push({ type: 'player-folder', path, weight: 0 });
      const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        const child = join(path, entry.name);
        if (entry.isDirectory()) await visit(child);
        else if (entry.isFile() && (MODEL_EXT.test(entry.name) || ARCHIVE_EXT.test(entry.name))) await visit(child);
      }
      return;
    }
    const size = (await stat(path)).size;
    inputBytes += size;
    if (ARCHIVE_EXT.test(path)) {
      let archive;
      try {
        archive = await openArchiveFile(iq, path);
      } catch (err) {
        items.push({ path, kind: 'archive', ok: false, error: problemOf(err, path), warnings: [] });
        return;
      }
      items.push({ path, kind: 'archive', ok: true, warnings: archive.warnings.map((w) => ({ code: w.code, message: w.message })) });
      for (const p of archive.players) jobs.push({ type: 'archive-player', archive: path, entry: p.path, path: `${path}:${p.path}`, weight: 0 });
      for (const m of archive.models) {
        const entrySize = archive.entry(m).size || 0;
        bytes += entrySize;
        jobs.push({ type: 'archive-model', archive: path, entry: m, path: `${path}:${m}`, weight: entrySize });
      }
      return;
    }
    bytes += size;
    jobs.push({ type: 'model', path, weight: size });
  };
  for (const path of paths) await visit(path);
  return { jobs, items, bytes, inputBytes };
}

// Runs jobs on a pool of workers; a job that takes longer than timeoutMs, or a worker that dies,
// costs that job only: the worker is replaced and the run goes on.
function runPool(jobs, workerCount, timeoutMs, onResult) {
  return new Promise((resolveAll) => {
    let next = 0;
    let done = 0;
    let deadAtStart = 0;
    const pool = new Set();
    if (!jobs.length) return resolveAll();
    const finish = (slot, result) => {
      clearTimeout(slot.timer);
      slot.job = null;
      onResult(result);
      if (++done === jobs.length) {
        for (const s of pool) s.worker.terminate();
        resolveAll();
      } else if (!slot.dead) {
        give(slot);
      }
    };
    const give = (slot) => {
      if (next >= jobs.length) {
        pool.delete(slot);
        slot.worker.terminate();
        return;
      }
      const job = jobs[next++];
      slot.job = job;
      slot.timer = setTimeout(() => {
        const lost = slot;
        replace(lost);
        finish(lost, { path: job.path, kind: kindName(job), ok: false,
          error: { code: 'timeout', where: null, message: `no answer within ${timeoutMs / 1000} s; its worker was stopped` }, warnings: [] });
      }, timeoutMs);
      slot.worker.postMessage(job);
    };
    const replace = (slot) => {
      pool.delete(slot);
      slot.dead = true;
      slot.worker.removeAllListeners();
      slot.worker.on('error', () => {});
      slot.worker.terminate();
      if (next < jobs.length) start();
    };
    const start = () => {
      const slot = { worker: new Worker(new URL(import.meta.url), { workerData: { role: 'validate' } }), job: null, timer: null, dead: false };
      pool.add(slot);
      slot.worker.on('message', (message) => {
        if (slot.dead) return;
        if (message.ready) give(slot);
        else if (slot.job) finish(slot, message);
      });
      const crashed = (why) => {
        if (slot.dead) return;
        const job = slot.job;
        if (!job && ++deadAtStart > 3) { // workers that cannot even start: fail what is left, once
          slot.dead = true;
          pool.delete(slot);
          while (next < jobs.length) {
            const lost = jobs[next++];
            finish(slot, { path: lost.path, kind: kindName(lost), ok: false, error: { code: 'crash', where: null, message: `no worker could start: ${why}` }, warnings: [] });
          }
          return;
        }
        replace(slot);
        if (job) finish(slot, { path: job.path, kind: kindName(job), ok: false, error: { code: 'crash', where: null, message: `the worker stopped: ${why}` }, warnings: [] });
      };
      slot.worker.on('error', (err) => crashed(err && err.message ? err.message : String(err)));
      slot.worker.on('exit', (code) => crashed(`exit code ${code}`));
    };
    for (let i = 0; i < Math.min(workerCount, jobs.length); i++) start();
  });
}

const kindName = (job) => (job.type.endsWith('player') || job.type === 'player-folder' ? 'player' : 'model');

async function commandValidate(positional, options) {
  if (!positional.length) throw new UsageError('validate takes one PATH or more', 'validate');
  const started = performance.now();
  const iq = await init();
  const { jobs, items, bytes, inputBytes } = await walk(positional, iq);
  // Loose files first, then each archive's entries together (a worker keeps two archives open);
  // big items first within each, so the last ones to finish are small.
  const group = (job) => job.archive || '';
  jobs.sort((a, b) => (group(a) < group(b) ? -1 : group(a) > group(b) ? 1 : b.weight - a.weight));
  const workerCount = Math.max(1, Math.min(options.workers || defaultWorkers(), jobs.length || 1));
  const results = [...items];
  const print = (item) => {
    if (options.json) return;
    const lines = [];
    if (!item.ok) lines.push(problemLine(item.path, item.error));
    if (options.warnings) for (const w of item.warnings) lines.push(`${item.path}: warning ${w.code}: ${w.message}`);
    if (lines.length) process.stdout.write(`${lines.join('\n')}\n`);
  };
  items.forEach(print);
  await runPool(jobs, workerCount, (options.timeout ?? 60) * 1000, (result) => {
    results.push(result);
    print(result);
  });
  const seconds = (performance.now() - started) / 1000;
  const failed = results.filter((r) => !r.ok).length;
  const summary = {
    files: results.length,
    ok: results.length - failed,
    failed,
    warnings: results.reduce((s, r) => s + r.warnings.length, 0),
    bytes,
    inputBytes,
    megabytes: round(bytes / 1e6, 3),
    seconds: round(seconds, 3),
    filesPerSecond: round(results.length / seconds, 1),
    megabytesPerSecond: round(bytes / 1e6 / seconds, 2),
    workers: workerCount,
  };
  if (options.json) {
    results.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    process.stdout.write(`${JSON.stringify({ schema: SCHEMA, kind: 'validate', items: results, summary }, null, 2)}\n`);
  } else {
    process.stdout.write(`${summary.files} files: ${summary.ok} ok, ${summary.failed} failed, ${summary.warnings} warnings; ` +
      `${summary.megabytes} MB of models (${round(inputBytes / 1e6, 3)} MB on disk) in ${summary.seconds} s (${summary.filesPerSecond} files/s, ${summary.megabytesPerSecond} MB/s, ` +
      `${plural(workerCount, 'worker')})\n`);
  }
  return failed ? 1 : 0;
}

// The worker: one init() each; answers one job per message.
async function workerMain() {
  const iq = await init();
  const archives = new Map(); // the archives this worker has open, by path (entries of one archive come together)
  const archiveAt = async (path) => {
    if (!archives.has(path)) {
      if (archives.size >= 2) archives.delete(archives.keys().next().value);
      archives.set(path, await openArchiveFile(iq, path));
    }
    return archives.get(path);
  };
  const check = async (job) => {
    const result = { path: job.path, kind: kindName(job), ok: true, warnings: [] };
    try {
      if (job.type === 'model' || job.type === 'archive-model') {
        const bytes = job.type === 'model' ? await readBytes(job.path) : (await archiveAt(job.archive)).read(job.entry);
        const model = iq.load(bytes, { name: job.path });
        result.warnings = model.warnings.map((w) => ({ code: w.code, message: w.message }));
        model.dispose();
      } else {
        const player = job.type === 'player-folder'
          ? (await loadPlayerFolder(iq, job.path)).player
          : iq.loadPlayer(await archiveAt(job.archive), { player: job.entry });
        const missing = missingOverSkins(player);
        result.warnings = [...player.warnings.map((w) => ({ code: w.code, message: w.message })),
          ...[...missing].map((f) => ({ code: 'missing_file', message: `${f} (referenced, not found)` }))];
        player.dispose();
      }
    } catch (err) {
      result.ok = false;
      result.error = problemOf(err, job.path);
    }
    return result;
  };
  parentPort.on('message', async (job) => parentPort.postMessage(await check(job)));
  parentPort.postMessage({ ready: true });
}

// -- main

async function main(argv) {
  const { command, topic, positional, options } = parseArgs(argv);
  if (command === 'version') {
    process.stdout.write(`interquake ${VERSION}\n`);
    return 0;
  }
  if (command === 'help') {
    process.stdout.write(`${HELP[topic || 'main']}\n`);
    return 0;
  }
  if (command === 'info') return commandInfo(positional, options);
  if (command === 'validate') return commandValidate(positional, options);
  return commandConvert(positional, options);
}

if (!isMainThread && workerData && workerData.role === 'validate') {
  workerMain();
} else {
  main(process.argv.slice(2)).then(
    (code) => { process.exitCode = code; },
    (err) => {
      if (err instanceof UsageError) {
        process.stderr.write(`interquake: ${err.message}\n${HELP[err.command || 'main']}\n`);
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
}
