// The model .cfg files of Cube 2 (Sauerbraten), Tesseract and Red Eclipse (iqm.cfg, md5.cfg,
// md3.cfg, ... beside a model): which model the folder is, the texture each mesh takes, the
// animations and their files, and the transform, as the engines read them (docs/MODELCFG.md).
// The C splits the text into commands and words (src/iq_cubecfg.c: the untrusted text is parsed
// there, with located errors and a fuzzer); this module gives the commands their meaning, follows
// `exec` and evaluates the `if` conditions model cfgs use. The answer is format-neutral: file
// paths and names per mesh, whatever the format (IQM, MD5, MD3, ...) the model is in.

// Loaded on demand (web/core/library.js imports it when a cfg or a folder is read; the one-file
// element fetches it as interquake-modelcfg.min.js), so it raises errors through the library's
// wasm.fail and tells them by their code: its own copy of the error class would not be the page's.
import { textBytes, decodeText } from './wasm.js';
import { baseName, folderOf, normalizePath, pathKey } from './paths.js';

/** The formats a model cfg can name (its commands' prefixes: iqmskin, md5anim, md3load, ...). */
export const CONFIG_FORMATS = ['iqm', 'md5', 'md3', 'md2', 'obj', 'smd'];
const CONFIG_NAME = /^(iqm|md5|md3|md2|obj|smd)\.cfg$/i;
const COMMAND = /^(iqm|md5|md3|md2|obj|smd)(load|dir|skin|anim|tag)$/i;
const TRANSFORMS = { mdlscale: 'scale', mdltrans: 'translate', mdlyaw: 'yaw', mdlpitch: 'pitch', mdlroll: 'roll' };
const MAX_EXEC_DEPTH = 8;
const MAX_COMMANDS_RUN = 100000;

// An InterquakeError (of whichever copy of the class): a code the library knows.
const isLibraryError = (err) => !!err && typeof err.code === 'string' && err.name === 'InterquakeError';

/** Whether a file name is a model cfg (iqm.cfg, md5.cfg, ...). */
export const isModelConfig = (path) => CONFIG_NAME.test(baseName(path));

// -- The C's split: commands and words

const KINDS = ['word', 'string', 'block', 'expression'];

/**
 * Splits a model cfg into commands (src/iq_cubecfg.c). Returns { commands, warnings }: each
 * command { words: [{ text, kind, line, column, commands? }], line, column }, a block's or an
 * expression's word carrying the commands inside it.
 */
export function parseModelConfigText(lib, input, options = {}) {
  const file = options.name;
  // The parser is in the WASM of the text parsers: interquake.wasm, or, for the one-file element,
  // interquake-shaders.wasm (the library loads it before calling here).
  const wasm = lib._shaderWasm();
  wasm.need('iq_wasm_parse_cubecfg', 'model .cfg files');
  const bytes = textBytes(input, 'parseModelConfig()');
  return wasm.withRecord('iq_cubecfg', null, (out) => {
    wasm.callWithBytes(bytes, 'iq_wasm_parse_cubecfg', [out, wasm.errorPtr], { file });
    const head = wasm.read('iq_cubecfg', out, undefined, ['wordCount', 'commandCount', 'warningCount', 'warning']);
    const words = wasm.readArray('iq_cubecfg_word', out + wasm.offsetOf('iq_cubecfg', 'words'), head.wordCount);
    const records = wasm.readArray('iq_cubecfg_command', out + wasm.offsetOf('iq_cubecfg', 'commands'), head.commandCount);
    const commands = records.map((c) => ({ words: [], line: c.line, column: c.column, parent: c.parent }));
    const wordObjects = words.map((w) => {
      const word = { text: decodeText(bytes.subarray(w.offset, w.offset + w.length)), kind: KINDS[w.kind], line: w.line, column: w.column };
      if (w.kind >= 2) word.commands = [];
      commands[w.command].words.push(word);
      return word;
    });
    const top = [];
    for (const c of commands) {
      (c.parent < 0 ? top : wordObjects[c.parent].commands).push(c);
      delete c.parent;
    }
    const warnings = head.warningCount ? [{ code: 'repaired', message: `${file ? `${file}: ` : ''}${head.warning}` }] : [];
    return { commands: top, warnings };
  });
}

// -- Meaning: the commands the engines read for a model

/**
 * The model a cfg describes. `files`: a Map (or object) of path -> bytes holding the cfg and
 * whatever it may name (other cfgs it executes; the model, textures and animation files are only
 * looked up, never read). Paths are matched as the games match them (case, '\'), and by their
 * tail, since a folder may be dropped from anywhere inside the game's tree (exec
 * "actors/player/player.cfg" finds player/player.cfg). Returns:
 *   { path, format, model, models, skins: [{ mesh, texture, masks, line, file }],
 *     animations: [{ names, file, frame, frames, fps, priority, line, source }], tags, scale,
 *     translate, yaw, pitch, roll, ignored: { command: count }, missingFiles, warnings }
 * where model is the file the engine loads (its *load command, else tris.<format> beside the
 * cfg), and every path is one of `files`' keys as given, or, when absent, the path the cfg names
 * (then in missingFiles).
 */
export function readModelConfig(lib, files, cfgPath) {
  const index = fileIndex(files);
  const cfg = index.find(cfgPath);
  if (!cfg) throw lib._wasm.fail('missing_file', `${cfgPath}: no such file`, { file: cfgPath });
  const format = CONFIG_NAME.exec(baseName(cfg))?.[1]?.toLowerCase() ?? 'iqm';
  const state = {
    lib, index, format, cfgPath: cfg, dir: folderOf(cfg), mdlname: folderOf(cfg).replace(/\/$/, ''),
    models: [], skins: [], animations: [], tags: [], transform: {}, ignored: {}, missing: [], warnings: [], run: 0, execs: [],
  };
  runFile(state, cfg, 0);
  let models = state.models;
  if (!models.length) {
    const tris = index.find(`${state.dir}tris.${format}`) ?? index.find(`${folderOf(cfg)}tris.${format}`);
    if (tris) models = [tris];
  }
  return {
    path: cfg, format, model: models[0] ?? null, models,
    skins: state.skins, animations: state.animations, tags: state.tags,
    scale: state.transform.scale ?? null, translate: state.transform.translate ?? null,
    yaw: state.transform.yaw ?? null, pitch: state.transform.pitch ?? null, roll: state.transform.roll ?? null,
    executed: state.execs, ignored: state.ignored, missingFiles: [...new Set(state.missing)], warnings: state.warnings,
  };
}

function runFile(state, path, depth) {
  if (depth > MAX_EXEC_DEPTH) {
    state.warnings.push({ code: 'limit', message: `${path}: exec nested more than ${MAX_EXEC_DEPTH} deep; not read` });
    return;
  }
  state.execs.push(path);
  let parsed;
  try {
    parsed = parseModelConfigText(state.lib, state.index.bytes(path), { name: path });
  } catch (err) {
    if (!isLibraryError(err) || err.code === 'unsupported') throw err;
    state.warnings.push({ code: err.code, message: err.message, file: path });
    return;
  }
  state.warnings.push(...parsed.warnings);
  runCommands(state, parsed.commands, path, depth);
}

function runCommands(state, commands, file, depth) {
  for (const command of commands) {
    if (++state.run > MAX_COMMANDS_RUN) {
      if (state.run === MAX_COMMANDS_RUN + 1) state.warnings.push({ code: 'limit', message: `${file}: more than ${MAX_COMMANDS_RUN} commands run; the rest is ignored` });
      return;
    }
    runCommand(state, command, file, depth);
  }
}

// Texture names carry the engines' loading hints: '<compress:2>', '<dds>', '<ffmask:25>'.
const stripHints = (name) => name.replace(/^(<[^>]*>)+/, '');

function runCommand(state, command, file, depth) {
  const [head, ...args] = command.words;
  const name = head.text.toLowerCase();
  const text = args.map((a) => a.text);
  const at = `${file}:${command.line}`;
  const number = (i, fallback = null) => {
    const v = Number.parseFloat(text[i]);
    return Number.isFinite(v) ? v : fallback;
  };
  if (name === 'exec') {
    const target = text[0] ? state.index.find(text[0], state.cfgPath) : null;
    if (target) runFile(state, target, depth + 1);
    else if (text[0]) {
      state.missing.push(normalizePath(text[0]));
      state.warnings.push({ code: 'missing_file', message: `${at}: exec ${text[0]}: not among the files; its commands are not read` });
    }
    return;
  }
  if (name === 'if') {
    const value = condition(state, args[0], at);
    const branch = value ? args[1] : args[2];
    if (branch?.commands) runCommands(state, branch.commands, file, depth);
    return;
  }
  if (TRANSFORMS[name]) {
    const key = TRANSFORMS[name];
    state.transform[key] = key === 'translate' ? [number(0, 0), number(1, 0), number(2, 0)] : number(0, key === 'scale' ? 100 : 0);
    return;
  }
  const m = COMMAND.exec(name);
  if (!m) {
    state.ignored[name] = (state.ignored[name] ?? 0) + 1;
    return;
  }
  const [, format, what] = m;
  switch (what) {
    case 'dir':
      state.dir = text[0] ? state.index.folder(text[0]) : folderOf(state.cfgPath);
      break;
    case 'load': {
      if (!text[0]) break;
      const path = state.index.find(`${state.dir}${normalizePath(text[0])}`) ?? state.index.find(text[0], state.cfgPath);
      if (path) state.models.push(path);
      else {
        state.missing.push(`${state.dir}${normalizePath(text[0])}`);
        state.warnings.push({ code: 'missing_file', message: `${at}: ${head.text} ${text[0]}: not among the files` });
      }
      break;
    }
    case 'skin': {
      if (args.length < 2) break;
      const texture = state.index.resolve(state.dir, stripHints(text[1]));
      const masks = text[2] ? state.index.resolve(state.dir, stripHints(text[2])) : null;
      state.skins.push({ mesh: text[0], texture, masks, line: command.line, file, format });
      break;
    }
    case 'anim': {
      if (!text[0]) break;
      const names = text[0].split('|').map((s) => s.trim()).filter(Boolean);
      if (format === 'md3' || format === 'md2' || format === 'obj') {
        // Frame-numbered: md3anim NAME FRAME RANGE [SPEED [PRIORITY]]
        state.animations.push({
          names, file: null, frame: number(1, 0), frames: number(2, 0), fps: number(3, null), priority: number(4, 0), line: command.line, source: file,
        });
      } else {
        // From a file: iqmanim / md5anim / smdanim NAME FILE [SPEED [PRIORITY [START [END]]]]
        const animFile = text[1] ? state.index.resolve(state.dir, normalizePath(text[1])) : null;
        state.animations.push({
          names, file: animFile, frame: number(4, 0), frames: number(5, 0), fps: number(2, null), priority: number(3, 0), line: command.line, source: file,
        });
      }
      break;
    }
    case 'tag':
      if (text[0] && text[1]) state.tags.push({ joint: text[0], tag: text[1], line: command.line });
      break;
    default:
      break;
  }
}

// `if` conditions as model cfgs write them: a number, or a block/expression holding one
// command of stringcmp / strcmp / =s / !=s, || / && of such blocks, ! and = / != on numbers, whose
// arguments are literals or (mdlname). mdlname, the model's name (its folder from the game's
// root), is compared by tail: a folder dropped from inside the game's tree matches the name its
// cfg gives. Anything else is false, with a warning.
function condition(state, word, at) {
  if (!word) return false;
  if (word.kind === 'word' || word.kind === 'string') return truthy(word.text);
  if (word.commands?.length !== 1) return unknown(state, word, at);
  const result = evaluate(state, word.commands[0], at);
  return result === undefined ? unknown(state, word, at) : truthy(result);
}

function evaluate(state, command, at) {
  const [head, ...args] = command.words;
  const op = head.text.toLowerCase();
  const value = (w) => {
    if (!w) return '';
    if (w.kind === 'word' || w.kind === 'string') return w.text;
    if (w.commands?.length === 1) {
      const inner = w.commands[0];
      if (inner.words.length === 1 && inner.words[0].text.toLowerCase() === 'mdlname') return { mdlname: state.mdlname };
      return evaluate(state, inner, at);
    }
    return undefined;
  };
  const vals = args.map(value);
  if (vals.some((v) => v === undefined)) return undefined;
  const same = (a, b) => {
    if (typeof a === 'object' || typeof b === 'object') {
      const name = typeof a === 'object' ? a.mdlname : b.mdlname;
      const other = typeof a === 'object' ? b : a;
      return typeof other === 'string' && sameByTail(name, other);
    }
    return String(a) === String(b);
  };
  switch (op) {
    case 'stringcmp': case 'strcmp': case '=s': return same(vals[0], vals[1]) ? 1 : 0;
    case '!=s': return same(vals[0], vals[1]) ? 0 : 1;
    case '||': return vals.some((v) => truthy(v)) ? 1 : 0;
    case '&&': return vals.every((v) => truthy(v)) ? 1 : 0;
    case '!': return truthy(vals[0]) ? 0 : 1;
    case '=': return Number.parseFloat(vals[0]) === Number.parseFloat(vals[1]) ? 1 : 0;
    case '!=': return Number.parseFloat(vals[0]) !== Number.parseFloat(vals[1]) ? 1 : 0;
    default: return undefined;
  }
}

function unknown(state, word, at) {
  state.warnings.push({ code: 'ignored_data', message: `${at}: if [${word.text.trim().slice(0, 60)}]: not a condition interquake evaluates; the else branch is taken` });
  return false;
}

function truthy(v) {
  if (typeof v === 'object') return !!v.mdlname;
  if (typeof v === 'number') return v !== 0;
  const s = String(v).trim();
  if (s === '') return false;
  const n = Number(s);
  return Number.isNaN(n) ? true : n !== 0;
}

// Two model names are the same when one is the other's tail at a '/' (case ignored).
function sameByTail(a, b) {
  const x = pathKey(a).replace(/\/$/, '');
  const y = pathKey(b).replace(/\/$/, '');
  if (!x || !y) return x === y;
  return x === y || x.endsWith(`/${y}`) || y.endsWith(`/${x}`);
}

// -- Finding files: exact, beside the cfg, or by the longest tail

function fileIndex(files) {
  const entries = files instanceof Map ? [...files.entries()] : Object.entries(files);
  const keys = new Map();
  for (const [path, bytes] of entries) keys.set(pathKey(path), { path, bytes });
  const folders = new Set([...keys.keys()].map((k) => folderOf(k)));
  const byTail = (wanted) => {
    const parts = pathKey(wanted).split('/').filter(Boolean);
    for (let skip = 0; skip < parts.length; skip++) {
      const tail = parts.slice(skip).join('/');
      if (keys.has(tail)) return keys.get(tail).path;
      for (const [key, entry] of keys) if (key.endsWith(`/${tail}`)) return entry.path;
    }
    return null;
  };
  return {
    /** A file's key as given, or null: the path, then beside `from`, then by its tail. */
    find(path, from = null) {
      const p = pathKey(path);
      if (keys.has(p)) return keys.get(p).path;
      if (from && keys.has(pathKey(folderOf(from) + normalizePath(path)))) return keys.get(pathKey(folderOf(from) + normalizePath(path))).path;
      return byTail(path);
    },
    bytes(path) { return keys.get(pathKey(path))?.bytes ?? null; },
    /** A game folder ('actors/player') as a folder of these files ('player/'), by its tail. */
    folder(gamePath) {
      const wanted = pathKey(gamePath).replace(/\/+$/, '');
      let best = null;
      for (const f of folders) {
        const g = f.replace(/\/$/, '');
        if (g && (wanted === g || wanted.endsWith(`/${g}`) || g.endsWith(`/${wanted}`)) && (!best || g.length > best.length)) best = g;
      }
      return best !== null ? `${best}/` : `${normalizePath(gamePath).replace(/\/+$/, '')}/`;
    },
    /** A file named relative to a folder: its key when it is among the files, else the path as named. */
    resolve(dir, name) {
      const wanted = `${dir}${normalizePath(name)}`;
      return keys.get(pathKey(wanted))?.path ?? byTail(wanted) ?? wanted;
    },
  };
}

// -- Which model a folder shows

/**
 * The model a folder of models would show as its character, and what goes with it. `models`:
 * [{ path, bytes }] (IQM, IQE, MD3, ...: whatever lib.load reads); `files`: every path of the
 * folder (a Map or object of path -> bytes, where the .cfg files' bytes must be given; others may
 * be null). The rule, in order:
 *   1. a model a model cfg loads (iqm.cfg's iqmload, or tris.<format> beside the cfg), the cfg
 *      then giving its textures and animation files; among several, the one with the most joints,
 *      then vertices;
 *   2. else a model named as its folder (frankie/Frankie.iqm) or 'tris';
 *   3. else the model with the most joints, then the most vertices (a character over a prop).
 * Animation-only files (joints and animations, no triangles) are never the main model; they are
 * returned to attach (all of them, or, with a cfg, the files its animations name).
 * Resolves to { main: { path, bytes } | null, config (readModelConfig) | null, animationFiles,
 * meshes: [{ path, bytes, vertexCount, jointCount }], reason, warnings }.
 */
export async function chooseFolderModel(lib, models, files) {
  // Formats the library's build leaves out (the one-file element's: MD5, DPM, MD2...): their readers first.
  if (models.some((m) => { const f = lib.formatOf(m.bytes); return f !== 'unknown' && !lib.readsFormat(f); })) await lib.loadReaders();
  const meshes = [];
  const animationOnly = [];
  const unreadable = [];
  for (const entry of models) {
    let model = null;
    try {
      model = lib.load(entry.bytes, { name: entry.path });
    } catch {
      unreadable.push(entry); // reported when opened
      continue;
    }
    const info = { ...entry, vertexCount: model.vertexCount, jointCount: model.joints.length };
    (model.triangleCount === 0 && model.joints.length > 0 && model.animations.length > 0 ? animationOnly : meshes).push(info);
    model.dispose();
  }
  const warnings = [];
  const byKey = new Map([...meshes, ...animationOnly, ...unreadable].map((m) => [pathKey(m.path), m]));
  const rank = (a, b) => b.jointCount - a.jointCount || b.vertexCount - a.vertexCount || depth(a.path) - depth(b.path) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  // 1. models their cfg loads
  const configured = [];
  const entries = files instanceof Map ? [...files.keys()] : Object.keys(files);
  for (const cfgPath of entries.filter(isModelConfig)) {
    let config;
    try {
      config = readModelConfig(lib, files, cfgPath);
    } catch (err) { // a cfg that cannot be read (or a WASM build without the reader) is a warning
      if (!isLibraryError(err)) throw err;
      warnings.push({ code: err.code, message: err.message, file: cfgPath });
      continue;
    }
    const mesh = config.model && byKey.get(pathKey(config.model));
    if (mesh && meshes.includes(mesh)) configured.push({ mesh, config });
  }
  if (configured.length) {
    configured.sort((a, b) => rank(a.mesh, b.mesh));
    const { mesh, config } = configured[0];
    warnings.push(...config.warnings);
    const animationFiles = [];
    for (const a of config.animations) {
      const file = a.file && byKey.get(pathKey(a.file));
      if (file && file !== mesh && !animationFiles.includes(file)) animationFiles.push(file);
    }
    return { main: mesh, config, animationFiles, meshes, unreadable, reason: `loaded by ${config.path}`, warnings };
  }
  const sorted = [...meshes].sort(rank);
  // 2. named as its folder, or tris
  const named = sorted.find((m) => {
    const stem = baseName(m.path).replace(/\.[^.]*$/, '').toLowerCase();
    const folder = baseName(folderOf(m.path).replace(/\/$/, '')).toLowerCase();
    return stem === 'tris' || (folder && stem === folder);
  });
  const main = named ?? sorted[0] ?? unreadable[0] ?? animationOnly[0] ?? null;
  const reason = !main ? 'no model' : named ? 'named as its folder' : meshes.length ? 'the most joints and vertices' : 'the only model';
  return { main, config: null, animationFiles: main && meshes.includes(main) ? animationOnly : [], meshes, unreadable, reason, warnings };
}

const depth = (path) => normalizePath(path).split('/').length;
