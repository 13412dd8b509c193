// Quake 3's change of animation (clock.js q3Transition) against a step-by-step simulation of
// cgame's CG_SetLerpFrameAnimation + CG_RunLerpFrame, written from the game's rules in integer
// milliseconds: the old lerp is finished, then the old frame is lerped into the new animation's
// first frame over one of its frame times, then the new animation plays from its time 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init } from 'interquake';
import { Track, playerAnimations, q3Transition, transitionFrames } from '../../../web/scene/clock.js';
import { relativeFiles } from '../lib/q3-corpus.mjs';
import { LerpFrame } from '../lib/q3-lerpframe.mjs';

const iq = await init();
const player = iq.loadPlayer(relativeFiles());
const entries = playerAnimations(iq, player);
const byName = (name) => entries.find((e) => e.name === name);

// What is drawn: the frame itself at a blend of 0 or 1, else the pair and blend. The game's clock
// is sampled every STEP ms (a held frame's time follows the last sample, so the finer the steps the
// closer to the Track's continuous time); blends are compared to EPS.
const STEP = 1 / 32;
const EPS = 2e-3;
const shown = ({ a, b, t }) => (t < EPS || a === b ? { frame: a } : t > 1 - EPS ? { frame: b } : { a, b, t });
function same(got, expected) {
  const g = shown(got);
  const e = shown(expected);
  if ('frame' in e) return g.frame === e.frame;
  return g.a === e.a && g.b === e.b && Math.abs(g.t - e.t) < EPS;
}

function compare(fromName, toName, switchAt, part) {
  const from = byName(fromName);
  const to = byName(toName);
  const sim = new LerpFrame(from.q3);
  const track = new Track(part);
  track.start(from, { loop: from.loop ? 'repeat' : 'once' });
  let checked = 0;
  const end = switchAt + 3 * (from.q3.frameLerp + to.q3.frameLerp) + 400;
  for (let ms = 0; ms <= end; ms++) {
    if (ms > 0) track.advance(0.001, 1);
    for (let sub = ms > 0 ? ms - 1 + STEP : 0; sub < ms; sub += STEP) sim.run(sub);
    if (ms === switchAt) {
      sim.change(to.q3);
      track.start(to, { loop: to.loop ? 'repeat' : 'once', speed: 1, q3Transition: true });
    }
    const expected = sim.run(ms);
    const got = track.frames(true);
    assert.ok(same(got, expected), `${fromName} -> ${toName} switched at ${switchAt} ms, at ${ms} ms: ${JSON.stringify(got)} vs ${JSON.stringify(expected)}`);
    checked++;
  }
  return checked;
}

test('a change of animation matches cgame millisecond by millisecond', () => {
  let checked = 0;
  // Mid-lerp, on a frame edge, just after one; a looping and a once animation left; torso and legs.
  for (const at of [1, 37, 50, 51, 99, 100, 133, 999]) {
    checked += compare('TORSO_STAND', 'TORSO_GESTURE', at, 'torso');
    checked += compare('TORSO_GESTURE', 'TORSO_ATTACK', at, 'torso');
    checked += compare('LEGS_IDLE', 'LEGS_RUN', at, 'legs');
    checked += compare('LEGS_RUN', 'LEGS_BACK', at, 'legs'); // LEGS_BACK is reversed: first frame is its last
  }
  // The gesture has ended (held on its last frame): the change starts at once.
  checked += compare('TORSO_GESTURE', 'TORSO_STAND', 5000, 'torso');
  assert.ok(checked > 20000, `${checked} instants`);
});

test('the transition: rest of the old lerp, then one frame time into the first frame', () => {
  const stand = byName('TORSO_STAND');
  const gesture = byName('TORSO_GESTURE');
  const t = q3Transition({ frameA: 5, frameB: 6, blend: 0.25, finished: false }, stand, gesture, 'torso');
  assert.equal(t.first, gesture.q3.firstFrame);
  assert.ok(Math.abs(t.rest - 0.75 * stand.q3.frameLerp / 1000) < 1e-12);
  assert.equal(t.initial, gesture.q3.frameLerp / 1000);
  t.elapsed = t.rest / 3;
  const mid = transitionFrames(t);
  assert.deepEqual([mid.a, mid.b], [5, 6]);
  assert.ok(Math.abs(mid.t - 0.5) < 1e-9);
  t.elapsed = t.rest + t.initial / 4;
  const into = transitionFrames(t);
  assert.deepEqual([into.a, into.b], [6, gesture.q3.firstFrame]);
  assert.ok(Math.abs(into.t - 0.25) < 1e-9);
  assert.deepEqual(transitionFrames(t, false), { a: 6, b: 6, t: 0 });
  // A finished animation has no lerp left.
  assert.equal(q3Transition({ frameA: 9, frameB: 9, blend: 0, finished: true }, stand, gesture, 'torso').rest, 0);
});

test('without q3Transition the track starts the new animation at once (crossfade or not)', () => {
  const track = new Track('torso');
  track.start(byName('TORSO_STAND'), { loop: 'repeat' });
  track.advance(0.137, 1);
  track.start(byName('TORSO_GESTURE'), { loop: 'once' });
  assert.equal(track.transition, null);
  assert.equal(track.frames().a, byName('TORSO_GESTURE').q3.firstFrame);
});
