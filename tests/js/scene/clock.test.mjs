// The viewer's playback clock (web/scene/clock.js) asks the C for every frame: checked here over
// every animation of every corpus model and of the sarge player, against the library's own calls
// (model.frameAt, model.clipAt, q3Playhead) made directly, and on a built model with answers
// worked out by hand (the expectations the old JS clock was tested with, where they still hold).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { init } from 'interquake';
import { Track, modelAnimations, playerAnimations, naturalLoop, poseContent } from '../../../web/scene/clock.js';
import { publicAnimation } from '../../../web/viewer/content.js';
import { q3Playhead } from '../../../web/quake3/player.js';
import { buildIQM } from '../lib/iqm-build.mjs';
import { relativeFiles } from '../lib/q3-corpus.mjs';

const iq = await init();
const CORPUS = new URL('../../../../shared/corpus/', import.meta.url);
const close = (a, b, msg, eps = 1e-9) => assert.ok(Math.abs(a - b) < eps, `${msg}: ${a} vs ${b}`);

function corpusFiles(dir = CORPUS, out = []) {
  for (const name of readdirSync(dir).sort()) {
    const url = new URL(name, dir);
    if (statSync(url).isDirectory()) corpusFiles(new URL(`${name}/`, dir), out);
    else if (/\.(iqm|iqe|md3)$/i.test(name)) out.push(url);
  }
  return out;
}

// Times at which clock and library are compared: around frame edges, past the first pass, and
// multiples of the duration (the loop seam).
function timesFor(duration) {
  const d = duration > 0 ? duration : 1;
  const list = [0, 0.001, 0.0137, 0.05, 0.1, 0.25, 0.333, 0.5, 0.77, 1.01, 2.5, 7.3];
  for (const k of [0.25, 0.5, 0.999, 1, 1.0001, 1.5, 2, 2.75, 4]) list.push(d * k);
  return [...new Set(list)].sort((a, b) => a - b);
}

// The library's answer, asked directly (not through clock.js): what the clock must agree with.
function libraryHead(entry, part, time, loop, direction, interpolate) {
  const options = { loop, speed: direction, interpolate };
  if (entry.kind === 'animation') return entry.model.frameAt(entry.index, time, options);
  if (entry.kind === 'clip') {
    const framerate = entry.model.format === 'md3' ? iq.md3Framerate : iq.defaultFramerate;
    return entry.model.clipAt({ firstFrame: 0, frameCount: entry.model.frameCount, framerate, loop: true }, time, options);
  }
  const model = entry.models[part];
  const a = entry.q3;
  if ((direction > 0 && loop === (a.loop ? 'repeat' : 'once')) || !a.fits) {
    const h = q3Playhead(iq, a, time, model.frameCount);
    return { frameA: h.from, frameB: interpolate ? h.to : h.from, blend: interpolate ? h.lerp : 0, position: h.position, duration: h.duration, loops: h.loops, finished: h.finished };
  }
  // Other modes and backwards: the frames as a clip at the animation's fps (documented in VIEWER.md).
  return model.clipAt({ firstFrame: a.firstFrame, frameCount: Math.max(a.frameCount, 1), framerate: a.fps, loop: a.loop }, time,
    { ...options, speed: a.reversed ? -direction : direction });
}

// Plays `entry` on a track from 0 through the times (advancing by the differences, as the ticker
// does) and returns the first disagreement with the library, or null.
function disagreement(entry, part, loop, direction, interpolate) {
  const track = new Track(part);
  track.start(entry, { loop, speed: direction });
  let now = 0;
  let loops = 0;
  let finished = false;
  const first = libraryHead(entry, part, 0, loop, direction, interpolate);
  if (track.duration !== first.duration) return `duration ${track.duration} vs ${first.duration}`;
  for (const time of timesFor(first.duration)) {
    const dt = time - now;
    const events = track.advance(dt, direction);
    now = time;
    // JS keeps the time (summed steps: equal up to rounding; compared at the clock's own time, since
    // a rounding at a loop seam is a whole period of position)...
    if (!track.finished && Math.abs(track.time - time) > 1e-9) return `at ${time}s: the clock's time is ${track.time}`;
    // ...and the C answers everything else.
    const expected = libraryHead(entry, part, track.finished ? time : track.time, loop, direction, interpolate);
    const frames = track.frames(interpolate);
    if (frames.a !== expected.frameA || frames.b !== expected.frameB || Math.abs(frames.t - expected.blend) > 1e-6
      || Math.abs(track.frame - expected.position) > 1e-4) {
      return `at ${time}s: clock ${JSON.stringify(frames)} @${track.frame}, library ${expected.frameA}->${expected.frameB} ${expected.blend} @${expected.position}`;
    }
    if (dt === 0) continue; // no step, no events
    // Events are the changes in the library's loops and finished.
    const loopEvents = events.filter((e) => e.type === 'loop').length;
    if ((expected.loops !== loops) !== (loopEvents === 1)) return `at ${time}s: loop events ${loopEvents}, library loops ${loops} -> ${expected.loops}`;
    if (expected.finished !== finished && !events.some((e) => e.type === 'finished')) return `at ${time}s: no finished event`;
    if (expected.finished === finished && events.some((e) => e.type === 'finished')) return `at ${time}s: a finished event too many`;
    loops = expected.loops;
    finished = expected.finished;
    if (track.finished !== finished) return `at ${time}s: finished ${track.finished} vs ${finished}`;
  }
  return null;
}

// Every (mode, direction, interpolation) an entry can play in; the default mode first.
function variants(entry) {
  const out = [];
  for (const loop of [naturalLoop(entry), ...['repeat', 'once', 'pingpong'].filter((m) => m !== naturalLoop(entry))]) {
    for (const direction of [1, -1]) for (const interpolate of [true, false]) out.push({ loop, direction, interpolate });
  }
  return out;
}

function sweep(entries, partsOf) {
  const differing = [];
  let checked = 0;
  for (const entry of entries) {
    for (const part of partsOf(entry)) {
      for (const v of variants(entry)) {
        checked++;
        const why = disagreement(entry, part, v.loop, v.direction, v.interpolate);
        if (why) { differing.push(`${entry.name} [${part} ${v.loop} ${v.direction} ${v.interpolate}]: ${why}`); break; }
      }
    }
  }
  return { differing, checked };
}

test('every animation of every corpus model: the clock\'s duration, frames, position and events are the library\'s', (t) => {
  const models = [];
  for (const url of corpusFiles()) {
    try {
      models.push(iq.load(readFileSync(url), { name: url.pathname }));
    } catch (err) {
      assert.match(url.pathname, /invalid\//, `${url.pathname} loads (${err.message})`);
    }
  }
  // guy.iqm plays the animations of guyanim.iqm, as the viewer attaches them.
  const guy = models.find((m) => m.name.endsWith('/guy.iqm'));
  const guyanim = models.find((m) => m.name.endsWith('/guyanim.iqm'));
  guy.attachAnimations(guyanim);
  const entries = models.flatMap((m) => modelAnimations(iq, m));
  const named = models.reduce((n, m) => n + m.animations.filter((a) => a.frameCount > 0).length, 0);
  assert.equal(entries.filter((e) => e.kind === 'animation').length, named, 'every named animation is played');
  assert.ok(named >= 20, `the corpus has ${named} named animations`);
  assert.ok(entries.some((e) => e.model.format === 'md3' && e.frameCount > 100), 'MD3 frames play (the C names them "all")');
  const { differing, checked } = sweep(entries, () => ['both']);
  t.diagnostic(`${entries.length} animations (${named} named), ${checked} mode/direction/interpolation runs; differing: ${differing.length}`);
  assert.deepEqual(differing, [], 'animations whose clock and library timing differ');
  // The default loop mode is the one availableAnimations reports, and the file's flag when it sets one.
  for (const model of models) {
    const list = modelAnimations(iq, model).filter((e) => e.kind === 'animation');
    const flagged = list.some((e) => model.animations[e.index].loop);
    for (const e of list) {
      assert.equal(e.loop, flagged ? model.animations[e.index].loop : true, `${model.name} ${e.name}: loop flag obeyed`);
      assert.equal(publicAnimation(e).loop, naturalLoop(e) === 'repeat');
      assert.equal(publicAnimation(e).duration, model.frameAt(e.index, 0, { loop: naturalLoop(e) }).duration);
    }
  }
  // The example: vwep_view.iqe's "fire" lasts 0.5 s in the library and so in the viewer.
  const fire = entries.find((e) => e.name === 'fire' && e.model.name.endsWith('vwep_view.iqe'));
  const track = new Track();
  track.start(fire, { loop: naturalLoop(fire) });
  close(track.duration, 0.5, 'fire');
  close(fire.model.frameAt('fire', 0).duration, 0.5, 'library fire');
  for (const m of models) m.dispose();
});

test('every animation.cfg animation of sarge, on each part it moves, and its raw frames without animation.cfg', (t) => {
  const player = iq.loadPlayer(relativeFiles());
  const entries = playerAnimations(iq, player);
  assert.equal(entries.length, player.animations.length);
  assert.ok(entries.length >= 25 && entries.every((e) => e.kind === 'q3'));
  const partsOf = (e) => (e.part === 'both' ? ['legs', 'torso'] : [e.part]);
  const { differing, checked } = sweep(entries, partsOf);
  t.diagnostic(`${entries.length} animation.cfg animations, ${checked} runs; differing: ${differing.length}`);
  assert.deepEqual(differing, []);
  // Quake 3's stepping in the default mode: the clock's frames are player.pose's.
  for (const e of entries.filter((x) => x.part !== 'torso')) {
    const track = new Track('legs');
    track.start(e, { loop: naturalLoop(e) });
    track.advance(0.4321, 1);
    const pose = player.pose({ legs: { animation: e.name, time: 0.4321 } });
    const f = track.frames();
    assert.deepEqual([f.a, f.b], [pose.lower.from, pose.lower.to], e.name);
    close(f.t, pose.lower.lerp, e.name, 1e-6);
  }
  player.dispose();

  const files = relativeFiles();
  delete files['animation.cfg'];
  const bare = iq.loadPlayer(files);
  const clips = playerAnimations(iq, bare);
  assert.deepEqual(clips.map((c) => [c.name, c.part, c.kind, c.frameCount, c.framerate]), [
    ['all frames', 'legs', 'clip', bare.parts.lower.model.frameCount, iq.md3Framerate],
    ['all frames', 'torso', 'clip', bare.parts.upper.model.frameCount, iq.md3Framerate],
  ]);
  const raw = sweep(clips, (e) => [e.part]);
  assert.deepEqual(raw.differing, []);
  bare.dispose();
});

// -- By hand: a one-joint model whose every frame differs, animation "run" = frames 100..109 at 10 fps.

const I = { translate: [0, 0, 0], rotate: [0, 0, 0, 1], scale: [1, 1, 1] };
function handModel({ loopFlags = [true, true] } = {}) {
  return iq.load(buildIQM({
    vertexArrays: [
      { type: 'position', format: 'float', size: 3, data: [0, 0, 0, 1, 0, 0, 0, 0, 1] },
      { type: 'blendindexes', format: 'ubyte', size: 4, data: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
      { type: 'blendweights', format: 'ubyte', size: 4, data: [255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0] },
    ],
    triangles: [[0, 1, 2]],
    meshes: [{ name: 'body' }],
    joints: [{ name: 'root', parent: -1, ...I }],
    frames: Array.from({ length: 110 }, (_, f) => [{ ...I, translate: [0, 0, f * 0.1] }]),
    anims: [
      { name: 'walk', firstFrame: 0, frameCount: 10, framerate: 10, loop: loopFlags[0] },
      { name: 'run', firstFrame: 100, frameCount: 10, framerate: 10, loop: loopFlags[1] },
    ],
  }).bytes, { name: 'hand.iqm' });
}
const model = handModel();
const [walk, anim] = modelAnimations(iq, model);

test('repeat: the play head wraps after frameCount frames and blends the last frame into the first', () => {
  const t = new Track();
  t.start(anim, { loop: 'repeat' });
  close(t.duration, 1, 'one period is 10 frames / 10 fps');
  t.advance(0.95, 1);
  close(t.frame, 9.5, 'frame at 0.95 s', 1e-6);
  const f = t.frames();
  assert.deepEqual([f.a, f.b], [109, 100], 'last frame blends into the first');
  close(f.t, 0.5, 'halfway', 1e-6);
  const events = t.advance(0.2, 1); // 1.15 s
  close(t.frame, 1.5, 'wrapped', 1e-6);
  assert.deepEqual(events, [{ type: 'loop', detail: { animation: 'run', part: 'both', count: 1 } }]);
  assert.deepEqual(t.advance(0.1, 1), [], 'no second loop event inside the same period');
  assert.equal(t.advance(3, 1)[0].detail.count, 4, 'a long step (hidden tab) reports the loops passed');
});

test('once: stops on the last frame and reports finished exactly once, whatever the step sizes', () => {
  const t = new Track();
  t.start(anim, { loop: 'once' });
  close(t.duration, 0.9, 'once lasts (n-1)/fps');
  assert.deepEqual(t.advance(0.5, 1), []);
  const events = t.advance(10, 1);
  assert.deepEqual(events, [{ type: 'finished', detail: { animation: 'run', part: 'both' } }]);
  assert.equal(t.finished, true);
  close(t.frame, 9, 'held on the last frame');
  assert.deepEqual(t.advance(1, 1), [], 'nothing more after finishing');
  // (The old JS clock said b: 100 here, a wrap that a once animation never shows; the C holds 109.)
  assert.deepEqual(t.frames(), { a: 109, b: 109, t: 0 });
});

test('once backwards starts at the end and finishes at frame 0', () => {
  const t = new Track('torso');
  t.start(anim, { loop: 'once', speed: -2 });
  close(t.frame, 9, 'starts on the last frame');
  t.advance(0.2, -2);
  close(t.frame, 5, '0.2 s at speed -2 is 4 frames back', 1e-6);
  const events = t.advance(1, -2);
  assert.deepEqual(events, [{ type: 'finished', detail: { animation: 'run', part: 'torso' } }]);
  close(t.frame, 0, 'ends on the first frame');
});

test('pingpong goes 0..9..0; a loop is a whole period (there and back), as the C counts it', () => {
  const t = new Track();
  t.start(anim, { loop: 'pingpong' });
  close(t.duration, 1.8, 'there and back');
  t.advance(0.6, 1);
  close(t.frame, 6, 'forward', 1e-6);
  // (The old JS clock fired `loop` at each bounce; the C's loops count whole periods.)
  assert.deepEqual(t.advance(0.6, 1), [], 'the bounce at 0.9 s is not a loop');
  close(t.frame, 6, 'on its way back', 1e-6);
  const events = t.advance(0.6, 1); // 1.8 s: back at 0
  close(t.frame, 0, 'back at the start', 1e-6);
  assert.deepEqual(events, [{ type: 'loop', detail: { animation: 'run', part: 'both', count: 1 } }]);
});

test('turning round mid-play keeps the frame shown, in every mode', () => {
  for (const loop of ['repeat', 'once', 'pingpong']) {
    const t = new Track();
    t.start(anim, { loop });
    t.advance(1.3, 1);
    const before = t.frame;
    t.setDirection(-1);
    close(t.frame, before, `${loop}: same frame after turning`, 1e-5);
    t.advance(0.1, -1);
    close(t.frame, loop === 'pingpong' && before > 0 && t.frame > before ? t.frame : before - 1, `${loop}: one frame back`, 1e-5);
  }
});

test('stepped playback holds whole frames; seekFrame clamps; step wraps in repeat', () => {
  const t = new Track();
  t.start(anim, { loop: 'repeat' });
  t.seekFrame(3.7);
  // (The old JS clock gave b: 104 with t: 0; stepped, the C names the held frame twice.)
  assert.deepEqual(t.frames(false), { a: 103, b: 103, t: 0 });
  assert.equal(t.frames(true).t.toFixed(6), '0.700000');
  t.seekFrame(3);
  assert.deepEqual(t.frames(), { a: 103, b: 104, t: t.frames().t });
  assert.ok(t.frames().t < 1e-6, 'an exact whole frame');
  t.seekFrame(50);
  close(t.frame, 0, 'seeking to the end of a repeating animation is its start again');
  t.seekFrame(0);
  t.stepFrames(-1);
  close(t.frame, 9, 'one step back from the first frame is the last', 1e-6);
  t.stepFrames(1);
  close(t.frame, 0, 'and forward again the first', 1e-6);
  t.loop = 'once';
  t.seekFrame(50);
  close(t.frame, 9, 'clamped to the last frame in once mode', 1e-6);
  t.seekFrame(-3);
  assert.deepEqual(t.frames(), { a: 100, b: 101, t: 0 }, 'below the first frame: the first');
});

test('a crossfade remembers where the previous animation was and fades out over its duration', () => {
  const t = new Track();
  t.start(anim);
  t.advance(0.3, 1);
  t.start(walk, { crossfade: 0.2 });
  assert.equal(t.fade.animation, anim);
  close(t.fadeHead().position, 3, 'frame of the previous animation', 1e-6);
  assert.equal(t.fadeHead().frameA, 103);
  close(t.fadeWeight, 1, 'all of the previous animation at first');
  t.advance(0.05, 1);
  close(t.fadeWeight, 0.75, 'a quarter through');
  t.advance(0.2, 1);
  assert.equal(t.fade, null, 'done');
});

test('posing a crossfade: the skin matrices are the library\'s pose with the previous animation held', () => {
  const t = new Track();
  t.start(anim);
  t.advance(0.3, 1);
  t.start(walk, { crossfade: 0.2 });
  t.advance(0.05, 1);
  const instance = model.createInstance();
  const part = { model, instance, track: 'both', skin: null };
  poseContent({ parts: [part] }, [t], true);
  const other = model.createInstance();
  const expected = other.pose('walk', 0.05, { crossfade: { animation: 'run', time: 0.3, interpolate: false, weight: 0.75 } }).skinMatrices;
  assert.deepEqual([...part.skin], [...expected]);
  assert.equal(part.skin.buffer, instance.skinMatrices.buffer, 'the instance\'s own matrices, not a copy');
  instance.dispose();
  other.dispose();
});

test('a reversed animation (Quake 3 LEGS_BACKWALK) plays its stored frames from the last down', () => {
  const cfg = { name: 'LEGS_BACKWALK', part: 'legs', firstFrame: 100, frameCount: 10, loopFrames: 10, fps: 10, frameLerp: 100, reversed: true, loop: true, fits: true };
  const [back] = playerAnimations(iq, { parts: { lower: { model }, upper: { model } }, animations: [cfg] });
  const t = new Track('legs');
  t.start(back, { loop: 'repeat' });
  assert.deepEqual(t.frames(), { a: 109, b: 108, t: 0 });
  t.advance(0.25, 1);
  const f = t.frames();
  assert.deepEqual([f.a, f.b], [107, 106]);
  close(f.t, 0.5, '2.5 frames in', 1e-9);
  t.advance(0.7, 1);
  const wrap = t.frames();
  assert.deepEqual([wrap.a, wrap.b], [100, 109], 'the wrap blends back to the first played frame');
  close(wrap.t, 0.5, '9.5 frames in', 1e-9);
});

test('files that flag no animation as looping repeat them all; a file that flags some obeys its flags', () => {
  const none = handModel({ loopFlags: [false, false] });
  assert.deepEqual(modelAnimations(iq, none).map((a) => a.loop), [true, true]);
  const some = handModel({ loopFlags: [true, false] });
  const list = modelAnimations(iq, some);
  assert.deepEqual(list.map((a) => a.loop), [true, false]);
  close(list[1].duration, 0.9, 'the non-looping one plays once: (n-1)/fps');
  none.dispose();
  some.dispose();
});
