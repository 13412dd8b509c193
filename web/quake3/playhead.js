// Quake 3's clock for animation.cfg animations (cgame's CG_RunLerpFrame), from the C: which two
// frames show at a time and how far between them. Its own module so that what plays players
// (web/scene/clock.js, interquake/three) needs nothing else of the player's code.

/**
 * The frames a part shows `time` seconds after `anim` (an animation.cfg entry) started, clamped
 * to the part's partFrames frames: { from, to, lerp } plus the C's duration, loops and finished.
 */
export function q3Playhead(lib, anim, time, partFrames) {
  const wasm = lib._wasm;
  const at = wasm.scratchRecord('iq_q3_animation');
  wasm.fill('iq_q3_animation', at, {
    firstFrame: anim.firstFrame, frameCount: anim.frameCount, loopFrames: anim.loopFrames, fps: anim.fps,
    frameLerp: anim.frameLerp, reversed: anim.reversed ? 1 : 0,
  });
  wasm.call('iq_wasm_q3_playhead', [at, time, partFrames, wasm.headPtr], { message: `time must be a finite number, got ${time}` });
  const h = wasm.read('iq_playhead', wasm.headPtr);
  return {
    from: h.frameA, to: h.frameB, lerp: h.blend, position: h.position, duration: h.duration, loops: h.loops,
    finished: h.finished !== 0,
  };
}
