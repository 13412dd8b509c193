// The element's playback state, owned by one object (web/viewer/playback.js's Playback), driven
// without a DOM: which animations a new content starts on, what play, pause, setAnimation, a
// gesture and the ticker's steps do to it, and the events it reports. Sarge from the corpus.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init } from 'interquake';
import { Playback } from '../../../web/viewer/playback.js';
import { playerAnimations } from '../../../web/scene/clock.js';
import { relativeFiles } from '../lib/q3-corpus.mjs';

const iq = await init();
const player = iq.loadPlayer(relativeFiles());
const content = { player, animations: playerAnimations(iq, player) };

function playback(attributes = {}) {
  const events = [];
  const calls = { changed: 0, refits: 0, stops: 0 };
  const settings = () => ({
    timeScale: 1, loop: null, crossfadeMs: 300, q3Transition: true,
    wanted: (part) => attributes[part] ?? null, ...attributes.settings,
  });
  const p = new Playback(settings, {
    emit: (type, detail) => events.push({ type, ...detail }),
    changed: () => calls.changed++,
    progressed: () => {},
    animationChanged: () => calls.refits++,
    stopped: () => calls.stops++,
  });
  return { p, events, calls };
}

const heads = (p) => Object.fromEntries(Object.entries(p.frames()).map(([part, f]) => [part, f.animation]));

test('a new content starts paused on the attributes\' animations, else the game\'s standing ones', () => {
  const { p } = playback();
  p.start(content);
  assert.equal(p.paused, true);
  assert.deepEqual(heads(p), { legs: 'LEGS_IDLE', torso: 'TORSO_STAND' });
  const wanted = playback({ legs: 'LEGS_RUN', torso: 'torso_attack' }).p;
  wanted.start(content);
  assert.deepEqual(heads(wanted), { legs: 'LEGS_RUN', torso: 'TORSO_ATTACK' }, 'names as the attributes give them, any case');
  p.clear();
  assert.deepEqual(p.tracks, []);
  assert.throws(() => p.setAnimation('LEGS_RUN'), /no model is loaded/);
});

test('a death played out, then a change while paused: the new animation shows at once, no transition waiting for time', () => {
  const { p, events, calls } = playback();
  p.start(content);
  p.play();
  p.setAnimation('BOTH_DEATH1');
  assert.ok(p.tracks.every((t) => t.transition), 'playing: the game\'s change of animation runs');
  for (let i = 0; i < 400 && !p.paused; i++) p.advance(0.05, true);
  assert.equal(p.paused, true, 'every part finished: paused');
  assert.deepEqual(events.filter((e) => e.type === 'finished').map((e) => e.part).sort(), ['legs', 'torso']);
  assert.equal(events.at(-1).type, 'pause');
  const death = content.animations.find((a) => a.name === 'BOTH_DEATH1');
  assert.equal(p.trackFor('legs').frames().a, death.firstFrame + death.frameCount - 1, 'the corpse');
  const refits = calls.refits;
  p.setAnimation('LEGS_IDLE');
  p.setAnimation('TORSO_STAND');
  const legs = p.trackFor('legs');
  assert.equal(legs.transition, null);
  assert.equal(legs.fade, null);
  const idle = content.animations.find((a) => a.name === 'LEGS_IDLE');
  assert.equal(legs.frames().a, idle.firstFrame, 'the frame drawn is the idle pose\'s first');
  assert.equal(calls.refits, refits + 2, 'each change of animation asks for framing');
  assert.deepEqual(events.filter((e) => e.type === 'animation-change').slice(-2).map((e) => [e.part, e.animation, e.previous]),
    [['legs', 'LEGS_IDLE', 'BOTH_DEATH1'], ['torso', 'TORSO_STAND', 'BOTH_DEATH1']]);
});

test('a gesture plays once with the game\'s change of animation, then the torso stands again; timeupdate only when visible', () => {
  const { p, events, calls } = playback();
  p.start(content);
  p.playGesture();
  assert.equal(p.paused, false);
  const torso = p.trackFor('torso');
  assert.equal(torso.animation.name, 'TORSO_GESTURE');
  assert.ok(torso.transition, 'from paused, a gesture still changes animation as the game does');
  assert.equal(torso.returnTo, 'TORSO_STAND');
  p.advance(0.05, false);
  assert.equal(events.filter((e) => e.type === 'timeupdate').length, 0, 'off screen: no timeupdate');
  for (let i = 0; i < 200 && torso.animation.name === 'TORSO_GESTURE'; i++) p.advance(0.05, true);
  assert.equal(torso.animation.name, 'TORSO_STAND');
  assert.ok(events.some((e) => e.type === 'timeupdate'));
  p.pause();
  assert.equal(calls.stops, 1);
  p.pause();
  assert.equal(events.filter((e) => e.type === 'pause').length, 1, 'pause twice: one event');
  assert.throws(() => p.playGesture('LEGS_RUN'), /no torso animation/);
});

test('snapshot and restore keep each part\'s animation and time across a rebuilt content (a skin, LOD or team reload)', () => {
  const { p } = playback();
  p.start(content);
  p.setAnimation('LEGS_WALK');
  p.trackFor('legs').seek(0.4);
  const state = p.snapshot();
  p.start(content);
  assert.equal(p.trackFor('legs').animation.name, 'LEGS_IDLE');
  p.restore(state);
  assert.equal(p.trackFor('legs').animation.name, 'LEGS_WALK');
  assert.ok(Math.abs(p.trackFor('legs').time - 0.4) < 1e-9);
});
