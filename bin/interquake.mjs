#!/usr/bin/env node
// The interquake command line, for modders and mod-site pipelines (docs/CLI.md):
//   interquake info TARGET       a readable summary (or --json) of a model, a .pk3/.zip, an entry
//                                inside one (archive.pk3:path), or a Quake 3 player folder
//   interquake validate PATH...  every model and player under files, folders and archives, on
//                                every core; one line per problem and a summary
//   interquake convert IN OUT.iqm|OUT.glb
//   interquake render IN OUT.png | --out-dir DIR PATH...   pictures (software renderer)
// Exit codes: 0 done (validate: nothing failed), 1 bad input, 2 bad usage.
// Only the public JS API is used (init, load, openArchive, loadPlayer, writeIQM, model members).
// This file parses the arguments, prints help and dispatches; each concern is a module of bin/cli/:
// targets (what a path names), info, validate (with its worker), convert, errors.
import { readFileSync } from 'node:fs';
import { InterquakeError } from '../web/interquake.node.js';
import { commandConvert } from './cli/convert.mjs';
import { InputError, UsageError } from './cli/errors.mjs';
import { commandInfo } from './cli/info.mjs';
import { commandValidate, defaultWorkers } from './cli/validate.mjs';
import { commandRender } from './cli/render.mjs';

const VERSION = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

// -- Usage

const HELP = {
  main: `usage: interquake info TARGET [--json] [--full] [--skin NAME] [--format iqm|iqe|md3|md5|dpm|zym|mdr|md2|mdl|mdc] [--pk3 ARCHIVE]...
       interquake validate PATH... [--json] [--warnings] [--alone] [--workers N] [--timeout SECONDS]
       interquake convert IN OUT.iqm|OUT.glb [--format iqm|iqe|md3|md5|dpm|zym|mdr|md2|mdl|mdc] [--skin NAME] [--lod N] [--pk3 ARCHIVE]...
                  [--weapon NAME] [--anim FILE]... [--front x|z] [--ground] [--scale N|metres]
       interquake render IN OUT.png [--size WxH] [--animation NAME] [--time S] [--orbit "T P R"] [--turntable N] [--sheet] ...
       interquake render --out-dir DIR PATH... [render flags] [--workers N]
       interquake --version | --help | COMMAND --help

  info      what a model, archive or Quake 3 player holds
  validate  load every model and player under files, folders and .pk3/.zip archives
  convert   write a model as IQM v2, or a model or player as glTF 2.0 (.glb)
  render    draw a model or player to PNG (a turntable as animated PNG, a sprite sheet), no browser

Exit codes: 0 done, 1 bad input (validate: something failed), 2 bad usage.`,
  info: `usage: interquake info TARGET [--json] [--full] [--skin NAME] [--format iqm|iqe|md3|md5|dpm|zym|mdr|md2|mdl|mdc] [--pk3 ARCHIVE]...

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
  --format F      read a model as this format instead of detecting it
  --pk3 ARCHIVE   with an archive TARGET: read it and ARCHIVE as one Quake 3 file system (repeat
                  for more; a later file name wins, as the game sorts pk3s)`,
  validate: `usage: interquake validate PATH... [--json] [--warnings] [--alone] [--workers N] [--timeout SECONDS]

Walks files, folders and .pk3/.zip archives; loads every model (.iqm, .iqe, .md3, .md5mesh,
.md5anim, .dpm, .zym, .mdr) and every
Quake 3 player (a folder with lower, upper and head models, loose or inside an archive, checked
with every skin; the .pk3s of one folder are read together, as the game mounts them). Prints one
line per problem, "PATH: CODE: MESSAGE", a line per model format skipped ("skipped 859 .md2 (not
read yet: ...)"), then a summary. Exits 1 when something failed, 0 otherwise.

  --json          one JSON document with every item, the skipped files and the summary (docs/CLI.md)
  --warnings      print warnings too ("PATH: warning CODE: MESSAGE")
  --alone         check each .pk3's players on their own, not with the other .pk3s of its folder
  --workers N     worker threads (default: every core, ${defaultWorkers()} here)
  --timeout S     seconds one item may take before its worker is stopped (default 60)`,
  convert: `usage: interquake convert IN OUT.iqm|OUT.glb [--format iqm|iqe|md3|md5|dpm|zym|mdr|md2|mdl|mdc] [--skin NAME] [--lod N] [--pk3 ARCHIVE]...
                  [--weapon NAME] [--anim FILE]... [--front x|z] [--ground] [--scale N|metres]

OUT.glb: writes IN (an IQM, IQE, MD3, MD5, DPM, ZYM or MDR model, a Quake 3 player folder, or
ARCHIVE:PATH naming a model or a player inside a .pk3) as binary glTF 2.0 with its animations and
embedded textures (docs/GLTF.md). Textures not found are reported on stderr; the GLB is written
anyway. A model on disk gets the animations of the animation-only files beside it (as the viewer
attaches them); an .md5mesh brings the .md5anim files of its folder.

  --skin NAME     the player's skin (default: 'default')
  --lod N         the player's level of detail (0, 1, 2)
  --weapon NAME   the player holds this weapon on tag_weapon (models/weapons2/NAME/NAME.md3, or a path)
  --anim FILE     attach this file's animations to the model (joints matched by name; repeatable)
  --front x|z     z: turn the model so its front (Quake's +X) faces glTF's front (+Z); x: as it is
  --ground        stand it on y = 0: a player's feet where the game puts the floor (24 units
                  below its origin), a model's lowest point over its animations
  --scale N       multiply by N; 'metres': a Quake unit as 3.2 cm (a 56-unit player is 1.79 m)
  --pk3 ARCHIVE   with ARCHIVE:PATH as IN: read that archive and ARCHIVE as one Quake 3 file
                  system (textures and shader scripts from other pk3s; repeat for more)

OUT.iqm: writes IN (an IQM, IQE, MD3, MD5, DPM, ZYM or MDR model, or ARCHIVE:PATH) as IQM v2. An MD3 converts when it has one
frame, or frames that are all the same (it becomes a static IQM); vertex animation is refused
(IQM holds skeletal animation only). The file is written under a temporary name and renamed, so
OUT is never left half written.

  --format F      read IN as this format instead of detecting it`,
  render: `usage: interquake render IN OUT.png [options]
       interquake render --out-dir DIR PATH... [options] [--workers N] [--timeout SECONDS] [--warnings]

Draws IN (a model, a Quake 3 player folder, ARCHIVE:PATH naming a model or a player inside a
.pk3, or a whole .pk3: its first player, else its main model, as the element opens it) with the
software renderer, as the <interquake-viewer> element draws it (docs/RENDER.md).
With --out-dir: one PNG per model and player found under the PATHs (files, folders, .pk3s), on
worker threads, then a summary; exits 1 when something failed. Files are written under a
temporary name and renamed: never a partial file.

  --size WxH            picture size (default 512x512; N for NxN; at most 8192 each)
  --animation NAME      the animation (a player: --legs-animation, --torso-animation)
  --time S | --frame N  where in it (default: its start)
  --orbit "T P R"       camera-orbit: "45deg 60deg auto", "auto auto 120%"
  --target "X Y Z"      camera-target; --fov ANGLE field-of-view (default 35deg)
  --background COLOR    a CSS colour or 'transparent' (default the element's dark grey)
  --light-direction "X Y Z", --light-intensity N, --light-ambient N
  --show "FLAGS"        overlays, as the element's show: wireframe skeleton tags bounds normals grid
                        (tag names are left out: the element shows them as HTML, not in its canvas)
  --skin NAME, --weapon NAME, --lod N   a player's skin, weapon (models/weapons2/NAME), level of detail
  --team red|blue       a player's team skins (cgame's team game), as the element's team attribute
  --turntable N         N frames of one turn around the model, as an animated PNG
  --sheet               frames as one PNG sprite sheet and OUT.json (the atlas); --frames N (default 16), --fps N
  --supersample N       samples per pixel along each axis (1..4, default 2)
  --pk3 ARCHIVE         with ARCHIVE:PATH as IN: more archives joined as the game joins them
  --format F            read a model as this format instead of detecting it`,
};

const OPTIONS = {
  info: { json: 'flag', full: 'flag', skin: 'value', format: 'value', pk3: 'list' },
  validate: { json: 'flag', warnings: 'flag', workers: 'value', timeout: 'value', alone: 'flag' },
  convert: {
    format: 'value', skin: 'value', lod: 'value', pk3: 'list', weapon: 'value', anim: 'list', front: 'value', ground: 'flag', scale: 'value',
  },
  render: {
    size: 'value', animation: 'value', 'legs-animation': 'value', 'torso-animation': 'value', time: 'value', frame: 'value',
    orbit: 'value', target: 'value', fov: 'value', background: 'value', 'light-direction': 'value', 'light-intensity': 'value',
    'light-ambient': 'value', show: 'value', skin: 'value', weapon: 'value', lod: 'value', team: 'value', turntable: 'value', sheet: 'flag', fps: 'value',
    frames: 'value', supersample: 'value', pk3: 'list', format: 'value', 'out-dir': 'value', workers: 'value', timeout: 'value',
    warnings: 'flag',
  },
};
const FORMATS = ['auto', 'iqm', 'iqe', 'md3',
  'md5', 'dpm', 'zym', 'mdr',
  'md2', 'mdl', 'mdc'];

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
      if (spec[name] === 'list') (options[name] ??= []).push(value); // repeatable
      else options[name] = value;
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
  if (options.team !== undefined && !['red', 'blue'].includes(options.team)) {
    throw new UsageError(`--team takes red or blue, not '${options.team}'`, command);
  }
  if (options.front !== undefined && !['x', 'z'].includes(options.front)) {
    throw new UsageError(`--front takes x (as the model is) or z (glTF's front), not '${options.front}'`, command);
  }
  if (options.scale !== undefined) {
    const named = ['metres', 'meters'].includes(options.scale);
    const n = Number(options.scale);
    if (!named && !(Number.isFinite(n) && n > 0)) throw new UsageError(`--scale takes a number above 0 or 'metres', not '${options.scale}'`, command);
    options.scale = named ? 'metres' : n;
  }
  if (options.timeout !== undefined) {
    const s = Number(options.timeout);
    if (!Number.isFinite(s) || s <= 0) throw new UsageError(`--timeout takes a number of seconds above 0, not '${options.timeout}'`, command);
    options.timeout = s;
  }
  return { command, positional, options };
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
  if (command === 'render') return commandRender(positional, options);
  return commandConvert(positional, options);
}

// A closed pipe (`interquake validate DIR --warnings | head -1`): the reader wants no more, so the
// run ends at once and quietly (no stack), with the exit code of what was done so far (validate
// sets 1 as soon as something failed; else 0), as a producer in a pipeline should.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err && err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    process.exitCode = 70;
    throw err;
  });
}

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
