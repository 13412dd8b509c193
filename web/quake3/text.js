// Quake 3's text companion files, parsed by the C core (src/quake3/iq_q3text.c): animation.cfg and
// .skin. This module only copies the C's results (read by layout) into plain objects.

import { textBytes } from '../core/wasm.js';

/** 'legs', 'torso' or 'both': which part an animation.cfg animation moves. */
export function partOf(name) {
  return name.startsWith('BOTH_') ? 'both' : name.startsWith('TORSO_') ? 'torso' : 'legs';
}

// Runs a C text parser (an export's name) that fills a result record; returns read(address) of it.
function runParser(lib, record, parser, bytes, file, read = (at) => lib._wasm.read(record, at)) {
  const wasm = lib._wasm;
  return wasm.withRecord(record, null, (out) => {
    wasm.callWithBytes(bytes, parser, [out, wasm.errorPtr], { file });
    return read(out);
  });
}

/** Parses animation.cfg (text or bytes). See Interquake.parseAnimationConfig. */
export function parseAnimationConfig(lib, input, options = {}) {
  const file = options.name;
  const wasm = lib._wasm;
  const c = runParser(lib, 'iq_q3_config', 'iq_wasm_parse_animation_cfg',
    textBytes(input, 'parseAnimationConfig()'), file);
  const names = wasm.names.q3_animation;
  const animations = c.animations.map((a, i) => ({
    name: names[i], index: i, part: partOf(names[i]),
    firstFrame: a.firstFrame, frameCount: a.frameCount, loopFrames: a.loopFrames,
    fps: a.fps, frameLerp: a.frameLerp,
    reversed: a.reversed !== 0,
    fromFile: a.fromFile !== 0,
    line: a.line,
    loop: a.loopFrames > 0,
    duration: (a.frameCount * a.frameLerp) / 1000,
  }));
  return {
    animations,
    tableEntries: c.tableEntries,
    legsSkip: c.legsSkip,
    sex: c.sex ? String.fromCharCode(c.sex) : 'm',
    footsteps: wasm.names.footsteps[c.footsteps] || 'normal',
    headOffset: c.headOffset,
    fixedLegs: c.fixedLegs !== 0,
    fixedTorso: c.fixedTorso !== 0,
    warnings: c.warningCount ? [{ code: 'ignored_data', message: c.warning }] : [],
  };
}

/** Parses a .skin file (text or bytes). See Interquake.parseSkin. */
export function parseSkin(lib, input, options = {}) {
  const wasm = lib._wasm;
  // Only the surfaces the file gave are read (the record holds room for 256).
  return runParser(lib, 'iq_skin', 'iq_wasm_parse_skin', textBytes(input, 'parseSkin()'), options.name, (at) => {
    const { surfaceCount, warningCount, warning } = wasm.read('iq_skin', at, undefined, ['surfaceCount', 'warningCount', 'warning']);
    const surfaces = wasm.readArray('iq_skin_surface', at + wasm.offsetOf('iq_skin', 'surfaces'), surfaceCount);
    return { surfaces, warnings: warningCount ? [{ code: 'ignored_data', message: warning }] : [] };
  });
}
