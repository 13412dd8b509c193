// cgame's lerp frame (CG_SetLerpFrameAnimation + CG_RunLerpFrame), written for the tests from the
// game's rules in integer milliseconds (docs/formats.md section 2): the independent reference the C
// clock (iq_q3_playhead) and the viewer's change of animation (clock.js) are checked against.
// anim: an animation.cfg entry { firstFrame, frameCount, loopFrames, frameLerp, reversed }.
export class LerpFrame {
  // `frame`/`frameTime`: the state before the first run (the viewer's Track starts on the first
  // frame at 0; a new entity has no frame yet and steps at once: frame -1, frameTime -frameLerp).
  constructor(anim, { frame = anim.firstFrame, frameTime = 0 } = {}) {
    this.anim = anim;
    this.oldFrame = this.frame = frame;
    this.oldFrameTime = this.frameTime = frameTime;
    this.animationTime = 0; // the first animation starts at 0
  }

  change(anim) { // CG_SetLerpFrameAnimation
    this.anim = anim;
    this.animationTime = this.frameTime + anim.frameLerp;
  }

  /** What is shown at `time` ms, one call per cg.time: { a: old frame, b: frame, t: 0..1 toward b }. */
  run(time) { // CG_RunLerpFrame
    const a = this.anim;
    if (time >= this.frameTime) {
      this.oldFrame = this.frame;
      this.oldFrameTime = this.frameTime;
      this.frameTime = time < this.animationTime ? this.animationTime : this.oldFrameTime + a.frameLerp;
      let f = Math.floor((this.frameTime - this.animationTime) / a.frameLerp);
      const count = a.frameCount;
      if (f >= count) {
        f -= count;
        if (a.loopFrames) f = (f % a.loopFrames) + count - a.loopFrames;
        else { f = count - 1; this.frameTime = time; }
      }
      this.frame = a.reversed ? a.firstFrame + count - 1 - f : a.firstFrame + f;
      if (time > this.frameTime) this.frameTime = time;
    }
    if (this.frameTime > time + 200) this.frameTime = time;
    if (this.oldFrameTime > time) this.oldFrameTime = time;
    const lerp = this.frameTime === this.oldFrameTime ? 0 : (time - this.oldFrameTime) / (this.frameTime - this.oldFrameTime);
    return { a: this.oldFrame, b: this.frame, t: lerp };
  }
}
