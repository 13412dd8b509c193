// interquake info: plain data first (the --json document), then the readable text from the same data.
import { init, paths } from '../../web/interquake.node.js';
import { UsageError } from './errors.mjs';
import { openTarget } from './targets.mjs';

export const SCHEMA = 1; // of every --json document; docs/CLI.md

export const round = (v, digits = 6) => Math.round(v * 10 ** digits) / 10 ** digits;

/**
 * The texture file each mesh of a model target resolves to, by the library's one rule (the
 * viewer's and writeGLB's): the name a model cfg or skin gives the mesh (target.textureNames),
 * else its shader or material (paths.meshTextureName), looked up through paths.textureCandidates
 * with the target's reader. [{ reference, file }] (file null: not found; reference null: none named).
 */
export async function meshTextures(target) {
  const out = [];
  for (const [i, mesh] of target.model.meshes.entries()) {
    const reference = target.textureNames?.[i] ?? paths.meshTextureName(mesh);
    let file = null;
    if (reference && target.textures) {
      for (const candidate of paths.textureCandidates(reference, { loose: true })) {
        if (await target.textures(candidate)) { file = candidate; break; }
      }
    }
    out.push({ reference, file });
  }
  return out;
}

function modelSummary(model, path, size) {
  const arrays = ['positions', 'texcoords', 'normals', 'tangents', 'colors', 'blendIndices', 'blendWeights']
    .filter((name) => model[name] !== null);
  // MD3 stores no animations: the clip the library offers over its frames is not in the file.
  const animations = model.format === 'md3' || model.format === 'mdc' ? [] : model.animations;
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

export const plural = (n, word, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;
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
    s.format === 'md3' || s.format === 'mdc' ? (m.shaders.length > 1 ? `shaders: ${m.shaders.join(', ')}` : `shader: ${m.shaders[0] || '(none)'}`)
      : s.format === 'md2' || s.format === 'mdl' ? `skins: ${m.shaders.join(', ') || '(none)'}`
      : `material: ${m.material || '(none)'}`,
    m.texture ? `texture: ${m.textureFile ?? `${m.texture} MISSING`}` : '']);
  out.push(...table(rows));
  if (s.folder) out.splice(1, 0, `  opened from ${s.folder.path} (${s.folder.reason}; models there: ${s.folder.models.join(', ')})${s.folder.skins.length ? `; skins ${s.folder.skins.join(', ')}` : ''}`);
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

export async function commandInfo(positional, options) {
  if (positional.length !== 1) throw new UsageError('info takes one TARGET', 'info');
  const iq = await init();
  const target = await openTarget(iq, positional[0], options);
  let summary;
  let text;
  try {
    if (target.kind === 'model') {
      summary = modelSummary(target.model, target.path, target.bytes);
      const textures = await meshTextures(target);
      summary.meshes.forEach((m, i) => { m.texture = textures[i].reference; m.textureFile = textures[i].file; });
      summary.missingFiles = [...new Set(textures.filter((t) => t.reference && !t.file && summary.meshes[textures.indexOf(t)].triangleCount).map((t) => t.reference))];
      if (target.choice) summary.folder = { path: target.folder, ...target.choice };
      if (target.warnings?.length) summary.warnings.push(...target.warnings.map((w) => ({ code: w.code, message: w.message })));
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
