// When the element moves its clock and draws. Nothing is drawn unless something changed
// (_invalidate) or moves (playing, auto-rotate, a crossfade, shaders that change with time), and
// nothing at all while the element is off screen or its tab is hidden: then the playback clock
// keeps running on a coarse timer (browsers throttle it in hidden tabs, but it runs), so loop and
// finished still fire on time; the shader clock stops there and resumes where it was.

import { asError } from './errors.js';

const OFFSCREEN_TICK_MS = 250;

export class Ticker {
  constructor(viewer) {
    this.viewer = viewer;
    this.raf = 0;
    this.lastTick = 0;
    this.visible = true;
    this.offscreenTimer = 0;
    this.intersection = null;
    this.intersecting = true;
    this.onPageVisibility = () => this.updateVisibility();
  }

  /** Draws on the next animation frame (once, however often it is asked). */
  schedule() {
    const v = this.viewer;
    if (this.raf || !this.visible || !v.isConnected) return;
    this.raf = requestAnimationFrame((t) => this.tick(t));
  }

  stop() {
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = 0;
    this.lastTick = 0;
  }

  tick(now) {
    const v = this.viewer;
    this.raf = 0;
    const dt = this.lastTick ? Math.min(Math.max((now - this.lastTick) / 1000, 0), 0.25) : 0;
    this.lastTick = now;
    try {
      if (v._shaderClockRuns()) v._shaderClock += dt; // shaders run while the animation is paused
      this.advance(dt);
      if (v.autoRotate) v._camera.autoRotate(dt, now);
      v._renderNow();
    } catch (err) {
      // A failure while drawing (a driver refusing a shader, say) is shown once, not thrown every frame.
      const error = asError(err);
      v._playback.halt();
      v._fail(error, 'renderfailure');
      return;
    }
    if (this.animating()) this.schedule();
  }

  /** Moves the play heads (the element's Playback: loop, finished, pause and timeupdate events). */
  advance(dt) {
    this.viewer._playback.advance(dt, this.visible);
  }

  animating() {
    const v = this.viewer;
    if (!this.visible || !v._content) return false;
    return v._playback.moving || (v.autoRotate && !v._camera.autoRotateFrozen) || v._shaderClockRuns();
  }

  observe() {
    if (this.intersection || typeof IntersectionObserver === 'undefined') return;
    this.intersecting = true;
    this.intersection = new IntersectionObserver((entries) => {
      this.intersecting = entries[entries.length - 1].isIntersecting;
      this.updateVisibility();
    });
    this.intersection.observe(this.viewer);
    document.addEventListener('visibilitychange', this.onPageVisibility);
  }

  /** Stops everything (the element left the page); observe() starts again. */
  disconnect() {
    this.intersection?.disconnect();
    this.intersection = null;
    document.removeEventListener('visibilitychange', this.onPageVisibility);
    clearInterval(this.offscreenTimer);
    this.offscreenTimer = 0;
    this.visible = true;
    this.stop();
  }

  updateVisibility() {
    const visible = this.intersecting !== false && !document.hidden;
    if (visible === this.visible) return;
    this.visible = visible;
    if (visible) {
      clearInterval(this.offscreenTimer);
      this.offscreenTimer = 0;
      this.lastTick = 0;
      this.viewer._invalidate();
    } else {
      this.stop();
      let last = performance.now();
      this.offscreenTimer = setInterval(() => {
        const now = performance.now();
        this.advance((now - last) / 1000);
        last = now;
      }, OFFSCREEN_TICK_MS);
    }
  }
}
