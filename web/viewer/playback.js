// The element's playback state, owned by one object the element holds (`viewer._playback`): the
// tracks (one 'both', or a player's 'legs' and 'torso'), whether it is paused, and what play,
// pause, seek, step, setAnimation and playGesture do to them. The clocks themselves are
// clock.js's Tracks; every frame answer comes from the C. The element reads its attributes
// (timeScale, loop, ...) through `settings` and hears what happened through `events`; nothing
// here reaches into the element's private state.

import { Track, naturalLoop, PLAYER_DEFAULT_ANIMATIONS } from '../scene/clock.js';
import { ViewerError } from './errors.js';


export class Playback {
  /**
   * settings(): { timeScale, loop, crossfadeMs, q3Transition, wanted(part) } read when needed (the
   * element's attributes); events: { emit(type, detail), changed(rebuild) (redraw and update the controls), progressed() (the
   * controls only), animationChanged(), stopped() }.
   */
  constructor(settings, events) {
    this.settings = settings;
    this.events = events;
    this.content = null;
    this.tracks = [];
    this.paused = true;
  }

  /** New tracks for `content` (legs and torso for a player), each on its attribute's or the standard animation; paused. */
  start(content) {
    this.content = content;
    this.paused = true;
    this.tracks = content?.player ? [new Track('legs'), new Track('torso')] : content ? [new Track('both')] : [];
    const s = this.settings();
    for (const track of this.tracks) {
      const wanted = s.wanted(track.part);
      const standard = PLAYER_DEFAULT_ANIMATIONS[track.part];
      const animation = (wanted && this.find(wanted, track.part))
        || (standard && content.animations.find((a) => a.name === standard))
        || content.animations.find((a) => a.part === track.part)
        || content.animations.find((a) => a.part === 'both' || track.part === 'both') || null;
      if (animation) track.start(animation, { speed: s.timeScale, loop: this.loopFor(animation) });
    }
  }

  /** Forgets the content (it was disposed). */
  clear() {
    this.content = null;
    this.tracks = [];
    this.paused = true;
  }

  /** Each part's { part, animation, time }: what restore() puts back on a rebuilt content. */
  snapshot() {
    return this.tracks.map((t) => ({ part: t.part, animation: t.animation?.name, time: t.time }));
  }

  restore(state) {
    const speed = this.settings().timeScale;
    for (const s of state) {
      const track = this.trackFor(s.part);
      const animation = s.animation && this.find(s.animation, s.part);
      if (track && animation) {
        track.start(animation, { speed, loop: this.loopFor(animation) });
        track.seek(s.time);
      }
    }
  }

  get main() { return this.tracks[0] ?? null; }

  /** Each part's play head (the element's `frames`). */
  frames() {
    const out = {};
    for (const track of this.tracks) {
      const h = track.head();
      out[track.part] = {
        animation: track.animation?.name ?? null, frame: h?.position ?? 0, globalFrame: h?.frameA ?? 0,
        frameCount: h?.frameCount ?? 0, time: track.time, duration: h?.duration ?? 0, loop: track.loop, finished: track.finished,
      };
    }
    return out;
  }

  /** Whether anything moves by itself: playing, or a crossfade under way. */
  get moving() { return !this.paused || this.tracks.some((t) => t.fade); }

  get hasAnimation() { return this.tracks.some((t) => t.animation); }

  play() {
    if (!this.content) return;
    const speed = this.settings().timeScale;
    for (const track of this.tracks) if (track.finished) track.rewind(speed);
    if (!this.paused) return;
    this.paused = false;
    this.events.emit('play');
    this.events.changed(false);
  }

  pause() {
    if (this.paused) return;
    this.paused = true;
    this.events.stopped();
    this.events.emit('pause');
    this.events.changed(false);
  }

  /** Stops without a `pause` event (a drawing failure). */
  halt() { this.paused = true; }

  seek(seconds) {
    for (const track of this.tracks) track.seek(Number(seconds) || 0);
    this.events.changed(false);
  }

  seekFrame(n, { part } = {}) {
    for (const track of this.tracks) if (!part || part === track.part) track.seekFrame(Number(n) || 0);
    this.events.changed(false);
  }

  step(n = 1, { part } = {}) {
    this.pause();
    for (const track of this.tracks) if (!part || part === track.part) track.stepFrames(n);
    this.events.changed(false);
  }

  /** Drops crossfades (renderFrame: a picture that depends only on its arguments). */
  settle() {
    for (const track of this.tracks) { track.fade = null; track.transition = null; }
  }

  setAnimation(name, { part, crossfade } = {}) {
    const c = this.content;
    if (!c) throw new ViewerError('not_loaded', 'setAnimation(): no model is loaded');
    const animation = this.find(name, part);
    if (!animation) {
      const names = c.animations.map((a) => a.name).join(', ') || 'none';
      throw new ViewerError('invalid_argument', `no animation named '${name}' (this model has: ${names})`);
    }
    const s = this.settings();
    const fadeMs = crossfade ?? s.crossfadeMs;
    // A player changes animation as the game does unless q3-transition="false" or a crossfade is
    // asked for. Paused, time does not move, so the change would never finish: the new animation
    // shows at once (a finished death followed by LEGS_IDLE draws the idle pose, not the corpse).
    const q3Transition = crossfade === undefined && s.q3Transition && !this.paused;
    for (const track of this.tracksFor(animation)) {
      track.returnTo = null;
      const previous = track.animation?.name ?? null;
      track.start(animation, { speed: s.timeScale, loop: this.loopFor(animation), crossfade: this.paused ? 0 : Math.max(0, fadeMs) / 1000, q3Transition });
      this.events.emit('animation-change', { animation: animation.name, part: track.part, previous });
    }
    this.events.animationChanged();
    this.events.changed(true);
  }

  /** The torso animations a player can play once as a gesture (TORSO_GESTURE, TORSO_ATTACK, ...). */
  gestures() {
    return (this.content?.animations ?? []).filter((a) => a.part === 'torso' && !/^TORSO_STAND/.test(a.name)).map((a) => a.name);
  }

  playGesture(name = 'TORSO_GESTURE') {
    if (!this.content?.player) throw new ViewerError('invalid_argument', 'playGesture() needs a Quake 3 player');
    const animation = this.find(name, 'torso');
    if (!animation || animation.part !== 'torso') throw new ViewerError('invalid_argument', `no torso animation '${name}'`);
    const track = this.trackFor('torso');
    const stand = this.find(PLAYER_DEFAULT_ANIMATIONS.torso, 'torso');
    this.paused = false; // the gesture starts playing now (with the game's change of animation)
    this.setAnimation(animation.name, { part: 'torso' });
    this.paused = true;
    track.loop = 'once';
    track.returnTo = stand && stand !== animation ? stand.name : null;
    this.play();
  }

  /** The loop attribute changed: every track in the new mode, at the same time. */
  reloop() {
    for (const track of this.tracks) {
      track.loop = this.loopFor(track.animation);
      track.seek(track.time); // the same time in the new mode (clamped to the pass in once mode)
    }
  }

  /**
   * Moves every track by `dt` seconds (the ticker's step); fires loop/finished, a gesture's return,
   * pause when every part has finished, and timeupdate when `visible`.
   */
  advance(dt, visible) {
    const tracks = this.tracks;
    if (this.paused || !dt) {
      if (tracks.some((t) => t.fade)) for (const t of tracks) t.advance(dt, 0);
      return;
    }
    const speed = this.settings().timeScale;
    let finished = 0;
    for (const track of tracks) {
      for (const event of track.advance(dt, speed)) this.events.emit(event.type, event.detail);
      // A gesture (playGesture) that has played once goes back to what the part stands in.
      if (track.finished && track.returnTo) this.setAnimation(track.returnTo, { part: track.part });
      if (track.finished || !track.animation) finished++;
    }
    if (finished === tracks.length) {
      this.paused = true;
      this.events.emit('pause');
    } else if (visible) {
      const main = this.main;
      this.events.emit('timeupdate', { time: main?.time ?? 0, frame: main?.frame ?? 0, part: main?.part });
    }
    this.events.progressed();
  }

  find(name, part) {
    const list = this.content?.animations ?? [];
    const lower = String(name).toLowerCase();
    return list.find((a) => a.name === name && (!part || part === 'both' || a.part === part || a.part === 'both'))
      || list.find((a) => a.name.toLowerCase() === lower) || null;
  }

  // The tracks an animation plays on: its own part, or all of them for 'both' (BOTH_* on a player).
  tracksFor(animation) {
    return this.tracks.filter((t) => animation.part === 'both' || t.part === animation.part || t.part === 'both');
  }

  trackFor(part) {
    return this.tracks.find((t) => t.part === part) ?? null;
  }

  // The loop attribute wins; otherwise what the data says (availableAnimations' `loop`): the IQM/IQE
  // loop flag (all repeat when a file flags none), animation.cfg's looping count on Quake 3 players.
  loopFor(animation) {
    return this.settings().loop ?? (animation ? naturalLoop(animation) : 'repeat');
  }
}
