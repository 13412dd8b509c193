// The element's playback methods (play, pause, seek, step, setAnimation, playGesture) and the
// track helpers they share, as functions of the viewer: element.js keeps the public methods and
// calls these. The clocks themselves are clock.js's Tracks; every frame answer comes from the C.

import { Track, naturalLoop } from './clock.js';
import { ViewerError } from './errors.js';

export const PLAYER_DEFAULT_ANIMATIONS = { legs: 'LEGS_IDLE', torso: 'TORSO_STAND' }; // what the game shows at rest

/** New tracks for `content` (legs and torso for a player), each on its attribute's or the standard animation. */
export function startTracks(viewer, content) {
  viewer._tracks = content.player ? [new Track('legs'), new Track('torso')] : [new Track('both')];
  const speed = viewer.timeScale;
  for (const track of viewer._tracks) {
    const wanted = track.part === 'legs' ? viewer.getAttribute('legs-animation')
      : track.part === 'torso' ? viewer.getAttribute('torso-animation') : viewer.getAttribute('animation-name');
    const standard = PLAYER_DEFAULT_ANIMATIONS[track.part];
    const animation = (wanted && findAnimation(viewer, wanted, track.part))
      || (standard && content.animations.find((a) => a.name === standard))
      || content.animations.find((a) => a.part === track.part)
      || content.animations.find((a) => a.part === 'both' || track.part === 'both') || null;
    if (animation) track.start(animation, { speed, loop: loopFor(viewer, animation) });
  }
}

/** Each part's play head (the element's `frames`). */
export function framesOf(viewer) {
  const out = {};
  for (const track of viewer._tracks) {
    const h = track.head();
    out[track.part] = {
      animation: track.animation?.name ?? null, frame: h?.position ?? 0, globalFrame: h?.frameA ?? 0,
      frameCount: h?.frameCount ?? 0, time: track.time, duration: h?.duration ?? 0, loop: track.loop, finished: track.finished,
    };
  }
  return out;
}

export function play(viewer, options = {}) {
  if (!viewer._content) return;
  if (options.repetitions === 1) viewer.loop = 'once';
  if (options.pingpong) viewer.loop = 'pingpong';
  const speed = viewer.timeScale;
  for (const track of viewer._tracks) if (track.finished) track.rewind(speed);
  if (!viewer._paused) return;
  viewer._paused = false;
  viewer._ticker.lastTick = 0;
  viewer._emit('play');
  viewer._invalidate();
  viewer._ui?.update();
}

export function pause(viewer) {
  if (viewer._paused) return;
  viewer._paused = true;
  viewer._ticker.stop();
  viewer._emit('pause');
  viewer._invalidate();
  viewer._ui?.update();
}

export function seek(viewer, seconds) {
  for (const track of viewer._tracks) track.seek(Number(seconds) || 0);
  viewer._timeChanged();
}

export function seekFrame(viewer, n, { part } = {}) {
  for (const track of viewer._tracks) if (!part || part === track.part) track.seekFrame(Number(n) || 0);
  viewer._timeChanged();
}

export function step(viewer, n = 1, { part } = {}) {
  pause(viewer);
  for (const track of viewer._tracks) if (!part || part === track.part) track.stepFrames(n);
  viewer._timeChanged();
}

export function setAnimation(viewer, name, { part, crossfade } = {}) {
  const c = viewer._content;
  if (!c) throw new ViewerError('not_loaded', 'setAnimation(): no model is loaded');
  const animation = findAnimation(viewer, name, part);
  if (!animation) {
    const names = c.animations.map((a) => a.name).join(', ') || 'none';
    throw new ViewerError('invalid_argument', `no animation named '${name}' (this model has: ${names})`);
  }
  const fadeMs = crossfade ?? viewer.animationCrossfadeDuration;
  // A player changes animation as the game does unless q3-transition="false" or a crossfade is asked for.
  const q3Transition = crossfade === undefined && viewer.q3Transition;
  for (const track of tracksFor(viewer, animation)) {
    track.returnTo = null;
    const previous = track.animation?.name ?? null;
    track.start(animation, { speed: viewer.timeScale, loop: loopFor(viewer, animation), crossfade: Math.max(0, fadeMs) / 1000, q3Transition });
    viewer._emit('animation-change', { animation: animation.name, part: track.part, previous });
  }
  viewer._invalidate();
  viewer._ui?.update(true);
}

/** The torso animations a player can play once as a gesture (TORSO_GESTURE, TORSO_ATTACK, ...). */
export function gesturesOf(viewer) {
  return (viewer._content?.animations ?? []).filter((a) => a.part === 'torso' && !/^TORSO_STAND/.test(a.name)).map((a) => a.name);
}

export function playGesture(viewer, name = 'TORSO_GESTURE') {
  const c = viewer._content;
  if (!c?.player) throw new ViewerError('invalid_argument', 'playGesture() needs a Quake 3 player');
  const animation = findAnimation(viewer, name, 'torso');
  if (!animation || animation.part !== 'torso') throw new ViewerError('invalid_argument', `no torso animation '${name}'`);
  const track = trackFor(viewer, 'torso');
  const stand = findAnimation(viewer, PLAYER_DEFAULT_ANIMATIONS.torso, 'torso');
  viewer.setAnimation(animation.name, { part: 'torso' });
  track.loop = 'once';
  track.returnTo = stand && stand !== animation ? stand.name : null;
  viewer.play();
}

export function findAnimation(viewer, name, part) {
  const list = viewer._content?.animations ?? [];
  const lower = String(name).toLowerCase();
  return list.find((a) => a.name === name && (!part || part === 'both' || a.part === part || a.part === 'both'))
    || list.find((a) => a.name.toLowerCase() === lower) || null;
}

// The tracks an animation plays on: its own part, or all of them for 'both' (BOTH_* on a player).
export function tracksFor(viewer, animation) {
  return viewer._tracks.filter((t) => animation.part === 'both' || t.part === animation.part || t.part === 'both');
}

export function trackFor(viewer, part) {
  return viewer._tracks.find((t) => t.part === part) ?? null;
}

// The loop attribute wins; otherwise what the data says (availableAnimations' `loop`): the IQM/IQE
// loop flag (all repeat when a file flags none), animation.cfg's looping count on Quake 3 players.
export function loopFor(viewer, animation) {
  return viewer.loop ?? (animation ? naturalLoop(animation) : 'repeat');
}
