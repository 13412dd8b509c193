// DarkPlaces .framegroups through the library (iq.load(bytes, { framegroups })) and the format facts
// the C owns (formatOf, formats, readsFormat); the CLI finds <model>.framegroups beside a model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { init } from 'interquake';
import { buildMD2 } from '../lib/md2-build.mjs';

const iq = await init();
const DEMO = new URL('../../../web/demo/critter.iqm', import.meta.url);
const quad = (frames) => buildMD2({
  st: [[0, 0]], triangles: [{ xyz: [0, 1, 2], st: [0, 0, 0] }],
  frames: frames.map((name, i) => ({ name, translate: [0, 0, i], verts: [[0, 0, 0, 5], [9, 0, 0, 5], [0, 9, 0, 5]] })),
}).bytes;

test('framegroups name the animations as DarkPlaces reads them: defaults, comments, quotes, clamping', () => {
  const bytes = quad(['a1', 'a2', 'a3', 'a4', 'a5']);
  const text = '0 2 10 1 walk // a comment\n\n2 9 0 0 "big jump" extra\n/* skipped */ 4\n-1 1 20\n';
  const m = iq.load(bytes, { framegroups: text });
  assert.deepEqual(m.animations, [
    { name: 'walk', firstFrame: 0, frameCount: 2, framerate: 10, loop: true },
    { name: 'big jump', firstFrame: 2, frameCount: 3, framerate: 1, loop: false },
    { name: 'groupified_2_anim', firstFrame: 0, frameCount: 1, framerate: 20, loop: true },
  ]);
  assert.deepEqual(m.warnings.map((w) => w.code), ['ignored_data', 'repaired']);
  assert.equal(m.frameAt('walk', 0.15).frameA, 1);
  m.dispose();
  // bytes work as text does; no group at all keeps the file's clips, with a warning
  const same = iq.load(bytes, { framegroups: new TextEncoder().encode('1 3 5') });
  assert.deepEqual(same.animations.map((a) => [a.name, a.firstFrame, a.frameCount, a.framerate]), [['groupified_0_anim', 1, 3, 5]]);
  same.dispose();
  const none = iq.load(bytes, { framegroups: '// nothing\n' });
  assert.deepEqual(none.animations.map((a) => a.name), ['a']);
  assert.deepEqual(none.warnings.map((w) => w.code), ['empty']);
  none.dispose();
});

test('framegroups on an IQM replace its own clips; on a model without frames they are refused', () => {
  const demo = readFileSync(DEMO);
  const m = iq.load(demo, { framegroups: '0 3 12 1 first\n3 2 6 0 second\n' });
  assert.deepEqual(m.animations.map((a) => a.name), ['first', 'second']);
  assert.equal(m.sample('second', 0.1).positions.every(Number.isFinite), true);
  m.dispose();
  const still = new TextEncoder().encode('# Inter-Quake Export\nmesh m\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfm 0 1 2\n');
  assert.throws(() => iq.load(still, { framegroups: '0 1' }), { code: 'bad_animation' });
});

test('format facts come from the C: formatOf by magic, formats and readsFormat for this build', () => {
  assert.equal(iq.formatOf(quad(['a'])), 'md2');
  assert.equal(iq.formatOf(readFileSync(DEMO)), 'iqm');
  assert.equal(iq.formatOf(new TextEncoder().encode('IDPO')), 'mdl');
  assert.equal(iq.formatOf(new Uint8Array(10)), 'unknown');
  assert.deepEqual(iq.formats.sort(), ['dpm', 'iqe', 'iqm', 'md2', 'md3', 'md5', 'mdc', 'mdl', 'mdr', 'zym']);
  assert.ok(iq.readsFormat('md2') && iq.readsFormat('framegroups'));
});

test('the CLI finds <model>.framegroups beside a model (info)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iq-fg-'));
  const path = join(dir, 'quad.md2');
  writeFileSync(path, quad(['a1', 'a2', 'a3']));
  writeFileSync(`${path}.framegroups`, '0 2 10 1 named\n');
  const bin = new URL('../../../bin/interquake.mjs', import.meta.url).pathname;
  const out = JSON.parse(execFileSync(process.execPath, [bin, 'info', '--json', path], { encoding: 'utf8' }));
  const animations = out.model?.animations ?? out.animations;
  assert.deepEqual(animations.map((a) => a.name), ['named']);
});
