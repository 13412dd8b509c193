// The viewer's playback clock (web/viewer/clock.js) and file resolution (web/viewer/assets.js):
// plain JS, so they are checked here in Node with answers worked out by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Track, framesOf } from '../../../web/viewer/clock.js';
import { FileSet, rerootPlayerFiles, sniff } from '../../../web/viewer/assets.js';
import { pathKey } from '../../../web/quake3/archive.js';

// 10 frames at 10 fps, starting at global frame 100.
const anim = { name: 'run', index: 0, firstFrame: 100, frameCount: 10, framerate: 10, loop: true };
const close = (a, b, msg) => assert.ok(Math.abs(a - b) < 1e-9, `${msg}: ${a} vs ${b}`);

test('repeat: the play head wraps after frameCount frames and blends the last frame into the first', () => {
  const t = new Track();
  t.start(anim, { loop: 'repeat' });
  close(t.duration, 1, 'one period is 10 frames / 10 fps');
  t.advance(0.95, 1);
  close(t.frame, 9.5, 'frame at 0.95 s');
  assert.deepEqual(t.frames(), { a: 109, b: 100, t: 0.5 }, 'last frame blends into the first');
  const events = t.advance(0.2, 1); // 1.15 s
  close(t.frame, 1.5, 'wrapped');
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
  assert.deepEqual(t.frames(), { a: 109, b: 100, t: 0 });
});

test('once backwards starts at the end and finishes at frame 0', () => {
  const t = new Track('torso');
  t.start(anim, { loop: 'once', speed: -2 });
  close(t.frame, 9, 'starts on the last frame');
  t.advance(0.2, -2);
  close(t.frame, 5, '0.2 s at speed -2 is 4 frames back');
  const events = t.advance(1, -2);
  assert.deepEqual(events, [{ type: 'finished', detail: { animation: 'run', part: 'torso' } }]);
  close(t.frame, 0, 'ends on the first frame');
});

test('pingpong goes 0..9..0 and counts each bounce', () => {
  const t = new Track();
  t.start(anim, { loop: 'pingpong' });
  t.advance(0.6, 1);
  close(t.frame, 6, 'forward');
  const events = t.advance(0.6, 1); // 1.2 s: 0.9 up, 0.3 back
  close(t.frame, 6, 'on its way back');
  assert.equal(events[0].type, 'loop');
  t.advance(0.6, 1); // 1.8 s: back at 0
  close(t.frame, 0, 'back at the start');
});

test('stepped playback holds whole frames; seekFrame clamps; framesOf clamps out-of-range frames', () => {
  const t = new Track();
  t.start(anim, { loop: 'repeat' });
  t.seekFrame(3.7);
  assert.deepEqual(t.frames(false), { a: 103, b: 104, t: 0 });
  assert.deepEqual(t.frames(true).t.toFixed(6), '0.700000');
  t.seekFrame(50);
  close(t.frame, 0, 'seeking to the end of a repeating animation is its start again');
  t.loop = 'once';
  t.seekFrame(50);
  close(t.frame, 9, 'clamped to the last frame in once mode');
  assert.deepEqual(framesOf(anim, -3), { a: 100, b: 101, t: 0 });
});

test('a crossfade remembers where the previous animation was and fades out over its duration', () => {
  const t = new Track();
  const other = { ...anim, name: 'walk', index: 1, firstFrame: 0 };
  t.start(anim);
  t.advance(0.3, 1);
  t.start(other, { crossfade: 0.2 });
  assert.equal(t.fade.from.animation, anim);
  close(t.fade.from.frame, 3, 'frame of the previous animation');
  close(t.fadeWeight, 1, 'all of the previous animation at first');
  t.advance(0.05, 1);
  close(t.fadeWeight, 0.75, 'a quarter through');
  t.advance(0.2, 1);
  assert.equal(t.fade, null, 'done');
});

test('file sets find Quake paths case-insensitively, with backslashes, by their longest matching tail', async () => {
  const bytes = (s) => new TextEncoder().encode(s);
  const files = FileSet.fromObject({
    'sarge/Band.TGA': bytes('band'),
    'models/players/sarge/lower.md3': bytes('lower'),
    'textures/skin.jpg': bytes('jpg'),
  });
  assert.equal(pathKey('.\\Models\\Players\\x.TGA'), 'models/players/x.tga');
  assert.equal(files.find('models\\players\\sarge\\band.tga'), 'sarge/band.tga');
  assert.equal(files.find('MODELS/PLAYERS/SARGE/LOWER.MD3'), 'models/players/sarge/lower.md3');
  assert.equal(files.find('other/none.tga'), null);
  const image = await files.readImage('textures/skin.tga');
  assert.equal(image.path, 'textures/skin.jpg', 'a .tga name finds the .jpg the game would also try');
  assert.equal(new TextDecoder().decode(image.bytes), 'jpg');
  assert.equal(await files.readImage('textures/nothing'), null);
});

test('sniff tells formats by their magic bytes before their names', () => {
  const magic = (s) => new TextEncoder().encode(s);
  assert.equal(sniff(magic('INTERQUAKEMODEL\0rest'), 'a.md3'), 'iqm');
  assert.equal(sniff(magic('IDP3....'), 'a.iqm'), 'md3');
  assert.equal(sniff(magic('# Inter-Quake Export\n'), 'x'), 'iqe');
  assert.equal(sniff(new Uint8Array([0x50, 0x4b, 3, 4, 0]), 'x.bin'), 'archive');
  assert.equal(sniff(magic('????'), 'player.PK3'), 'archive');
  assert.equal(sniff(magic('????'), 'notes.txt'), 'unknown');
});

test('a reversed animation (Quake 3 LEGS_BACKWALK) plays its stored frames from the last down', () => {
  const back = { ...anim, reversed: true };
  assert.deepEqual(framesOf(back, 0), { a: 109, b: 108, t: 0 });
  assert.deepEqual(framesOf(back, 2.5), { a: 107, b: 106, t: 0.5 });
  assert.deepEqual(framesOf(back, 9.5), { a: 100, b: 109, t: 0.5 }, 'the wrap blends back to the first played frame');
});

test('dropped player folders are re-rooted so skin paths (models/players/...) resolve', () => {
  assert.equal(rerootPlayerFiles('base/models/players/sarge/')('base/models/players/grism/red.tga'), 'models/players/grism/red.tga');
  assert.equal(rerootPlayerFiles('players/sarge/')('players/grism/red.tga'), 'models/players/grism/red.tga');
  assert.equal(rerootPlayerFiles('sarge/')('grism/red.tga'), 'models/players/grism/red.tga');
  assert.equal(rerootPlayerFiles('')('lower.md3'), 'models/players/player/lower.md3');
  assert.equal(rerootPlayerFiles('models/players/sarge/')('models/players/sarge/head.md3'), 'models/players/sarge/head.md3');
});

test('a model opened by URL fetches game paths from the folder above its models/, then beside it, then by file name', async () => {
  const asked = [];
  const present = new Set(['https://x.example/q3/models/players/grism/red.tga']);
  const fetcher = async (url) => {
    asked.push(url);
    if (!present.has(url)) throw new Error('404');
    return new Uint8Array([1]);
  };
  const files = FileSet.fromUrl('https://x.example/q3/models/players/sarge/lower.md3', fetcher);
  assert.equal(files.gameRoot, 'https://x.example/q3/');
  assert.equal((await files.readImage('models\\players\\grism\\red.tga')).path, 'models/players/grism/red.tga');
  assert.deepEqual(asked, ['https://x.example/q3/models/players/grism/red.tga']);
  asked.length = 0;
  assert.equal(await files.read('skin.tga'), null);
  assert.deepEqual(asked, ['https://x.example/q3/models/players/sarge/skin.tga'], 'a bare name is looked for beside the model, once');
  assert.equal(await files.read('skin.tga'), null);
  assert.equal(asked.length, 1, 'answers are remembered');
  const given = FileSet.fromUrl('https://x.example/a/b/thing.md3', fetcher, '/base/');
  assert.equal(given.gameRoot, 'https://x.example/base/', 'the base-url attribute sets the game root');
});
