// The characters/ folder and cgame's skin fallbacks (web/quake3/resolve.js and player.js after
// ioquake3's CG_RegisterClientModelname, CG_FindClientModelFile, CG_FindClientHeadFile and
// CG_LoadClientInfo), on file sets built here: every .skin names its own texture and every part
// its own height, so which file won shows in the textures and the positions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init } from 'interquake';
import { buildMD3 } from '../lib/md3-build.mjs';
import { buildZip } from '../lib/zip-build.mjs';
import { findPlayers } from '../../../web/quake3/archive.js';
import { skinAttempts } from '../../../web/quake3/resolve.js';

const iq = await init();
const enc = new TextEncoder();
const P = 'models/players';
const I = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
const SURFACE = { lower: 'l_legs', upper: 'u_torso', head: 'h_head' };

// A part whose one triangle sits at height z (what evaluate() shows), with its tag where it needs one.
function part(which, z) {
  const surface = {
    name: SURFACE[which],
    shaders: [{ name: 'none', index: 0 }],
    triangles: [[0, 1, 2]],
    texcoords: [[0, 0], [1, 0], [0, 1]],
    frames: [[[0, 0, z], [1, 0, z], [0, 1, z]].map((xyz) => ({ xyz, normal: 0 }))],
  };
  const tag = { lower: 'tag_torso', upper: 'tag_head' }[which];
  return buildMD3({ tags: tag ? [{ name: tag, frames: [{ origin: [0, 0, 1], axes: I }] }] : [], surfaces: [surface] }).bytes;
}
const heightOf = (player, which) => player.parts[which].model.evaluate(0).positions[2];

// 25 entries of one frame each, with a sex line that tells which file was read.
const animationCfg = (sex) => enc.encode(`sex ${sex}\n${'0 1 0 10\n'.repeat(25)}`);

/** path -> bytes: '<dir>/<part>.md3': height, '<dir>/<part>_<skin>.skin': texture name, else bytes. */
function fileSet(spec) {
  const out = {};
  for (const [path, value] of Object.entries(spec)) {
    const full = `${P}/${path}`;
    const md3 = /(lower|upper|head)(?:_\d)?\.md3$|\/([^/]+)\/\2\.md3$/.exec(path);
    const skin = /(lower|upper|head)_[^/]*\.skin$/.exec(path);
    if (md3) out[full] = part(md3[1] || 'head', value);
    else if (skin) {
      out[full] = enc.encode(`${SURFACE[skin[1]]},textures/${value}.tga\n`);
      out[`textures/${value}.tga`] = new Uint8Array([1]);
    } else out[full] = value;
  }
  return out;
}
const textures = (player) => Object.fromEntries(['lower', 'upper', 'head'].map((p) => [p, player.surfaces[p][0].texture?.replace(/^textures\/|\.tga$/g, '')]));
const skinsMissing = (player) => player.missingFiles.filter((f) => f.endsWith('.skin'));
const repaired = (player) => player.warnings.filter((w) => w.code === 'repaired').map((w) => w.message);

test('a player only under characters/: listed by findPlayers and Archive.players, loaded with its head and skins from heads/', async () => {
  const set = fileSet({
    'characters/james/lower.md3': 1, 'characters/james/upper.md3': 2, 'characters/james/animation.cfg': animationCfg('f'),
    'characters/james/lower_default.skin': 'c-ld', 'characters/james/upper_default.skin': 'c-ud', 'characters/james/upper_red.skin': 'c-ur',
    'heads/james/james.md3': 3, 'heads/james/head_default.skin': 'h-hd',
  });
  const listed = [{ path: `${P}/characters/james`, name: 'james', skins: ['default', 'red'], lods: [0] }];
  assert.deepEqual(findPlayers(Object.keys(set)), listed);
  const archive = await iq.openArchive(buildZip(Object.entries(set).map(([name, data]) => ({ name, data }))).bytes);
  assert.deepEqual(archive.players, listed);
  // By its listed path, by the name cgame gives it (models/players/james), and from the archive.
  for (const [files, options] of [[set, {}], [set, { player: `${P}/james` }], [archive, { player: archive.players[0].path }]]) {
    const player = iq.loadPlayer(files, options);
    assert.equal(player.name, 'james');
    assert.deepEqual(Object.fromEntries(Object.entries(player.parts).map(([k, v]) => [k, v.path])), {
      lower: `${P}/characters/james/lower.md3`, upper: `${P}/characters/james/upper.md3`, head: `${P}/heads/james/james.md3`,
    });
    assert.deepEqual([heightOf(player, 'lower'), heightOf(player, 'upper'), heightOf(player, 'head')], [1, 2, 3]);
    assert.equal(player.config.sex, 'f'); // animation.cfg from characters/james/
    assert.deepEqual(player.skinFiles, {
      lower: `${P}/characters/james/lower_default.skin`, upper: `${P}/characters/james/upper_default.skin`, head: `${P}/heads/james/head_default.skin`,
    });
    assert.deepEqual(textures(player), { lower: 'c-ld', upper: 'c-ud', head: 'h-hd' });
    assert.deepEqual(player.missingFiles, []);
    assert.deepEqual(player.warnings, []);
    player.dispose();
  }
  archive.dispose();
});

test('models/players/<name>/ before characters/<name>/, file by file; one player listed', () => {
  const set = fileSet({
    'james/lower.md3': 1, 'james/lower_default.skin': 'ld', 'james/head.md3': 3, 'james/head_default.skin': 'hd',
    'characters/james/lower.md3': 10, 'characters/james/upper.md3': 20, 'characters/james/animation.cfg': animationCfg('n'),
    'characters/james/lower_default.skin': 'c-ld', 'characters/james/upper_default.skin': 'c-ud',
    'characters/james/lower_blue.skin': 'c-lb', 'characters/james/upper_blue.skin': 'c-ub', 'james/head_blue.skin': 'hb',
    'characters/james/lower_green.skin': 'c-lg',
  });
  assert.deepEqual(findPlayers(Object.keys(set)), [{ path: `${P}/james`, name: 'james', skins: ['default', 'blue', 'green'], lods: [0] }]);
  const player = iq.loadPlayer(set);
  assert.equal(player.path, `${P}/james`);
  assert.deepEqual([heightOf(player, 'lower'), heightOf(player, 'upper'), heightOf(player, 'head')], [1, 20, 3]);
  assert.equal(player.config.sex, 'n');
  assert.deepEqual(textures(player), { lower: 'ld', upper: 'c-ud', head: 'hd' });
  // Body skins found only under characters/ (CG_FindClientModelFile's second folder); the head's
  // in its own folder (CG_FindClientHeadFile never looks in characters/).
  const blue = player.resolveSkin('blue');
  assert.deepEqual(blue.files, { lower: `${P}/characters/james/lower_blue.skin`, upper: `${P}/characters/james/upper_blue.skin`, head: `${P}/james/head_blue.skin` });
  assert.equal(blue.used, 'blue');
  assert.deepEqual(blue.warnings, []);
  // A skin for the legs only: cgame's default skin for every part.
  const green = player.resolveSkin('green');
  assert.equal(green.used, 'default');
  assert.deepEqual(green.files, { lower: `${P}/james/lower_default.skin`, upper: `${P}/characters/james/upper_default.skin`, head: `${P}/james/head_default.skin` });
  assert.deepEqual(green.missingFiles, [`${P}/james/upper_green.skin`, `${P}/james/head_green.skin`]);
  player.dispose();
  // Nothing in either folder: the error names the first and where else cgame looked.
  const legless = Object.fromEntries(Object.entries(set).filter(([k]) => !/lower\.md3$/.test(k)));
  assert.throws(() => iq.loadPlayer(legless, { player: `${P}/james` }), (e) => e.code === 'missing_file' && e.file === `${P}/james/lower.md3`
    && e.message === `${P}/james/lower.md3 is missing (also looked for ${P}/characters/james/lower.md3)`);
});

test('a head only in characters/<name>/: loaded with a warning, as cgame would not find it; none at all: missing_file', () => {
  const set = fileSet({
    'characters/james/lower.md3': 1, 'characters/james/upper.md3': 2, 'characters/james/head.md3': 3,
    'characters/james/lower_default.skin': 'ld', 'characters/james/upper_default.skin': 'ud', 'characters/james/head_default.skin': 'hd',
  });
  const player = iq.loadPlayer(set);
  assert.equal(player.parts.head.path, `${P}/characters/james/head.md3`);
  assert.equal(player.skinFiles.head, `${P}/characters/james/head_default.skin`);
  assert.deepEqual(repaired(player), [
    `${P}/characters/james/head.md3: cgame looks for the head and its skins only in ${P}/james/ and ${P}/heads/james/; loaded from the characters folder`,
  ]);
  assert.deepEqual(player.missingFiles, [`${P}/characters/james/animation.cfg`]);
  player.dispose();
  const headless = Object.fromEntries(Object.entries(set).filter(([k]) => !/head\.md3$/.test(k)));
  assert.throws(() => iq.loadPlayer(headless), (e) => e.code === 'missing_file' && e.file === `${P}/characters/james/head.md3`
    && e.message === `${P}/characters/james/head.md3 is missing (also looked for ${P}/james/head.md3, ${P}/heads/james/james.md3)`);
});

test("a head name starting with '*' is looked for in heads/ only, model and skins", () => {
  const set = fileSet({
    'built/lower.md3': 1, 'built/upper.md3': 2, 'built/head.md3': 3, 'built/lower_default.skin': 'ld', 'built/upper_default.skin': 'ud',
    'other/head.md3': 4, 'other/head_default.skin': 'o-hd', 'heads/other/other.md3': 5, 'heads/other/head_default.skin': 'ho-hd',
  });
  let player = iq.loadPlayer(set, { player: `${P}/built`, head: 'other' });
  assert.equal(heightOf(player, 'head'), 4);
  assert.equal(textures(player).head, 'o-hd');
  player.dispose();
  player = iq.loadPlayer(set, { player: `${P}/built`, head: '*other' });
  assert.equal(player.parts.head.path, `${P}/heads/other/other.md3`);
  assert.equal(heightOf(player, 'head'), 5);
  assert.equal(textures(player).head, 'ho-hd');
  player.dispose();
});

// A body in models/players/built with a head of its own; `skins`: path under built/ -> texture.
const built = (skins) => fileSet({
  'built/lower.md3': 1, 'built/upper.md3': 2, 'built/head.md3': 3,
  ...Object.fromEntries(Object.entries(skins).map(([k, v]) => [`built/${k}`, v])),
});
const D = `${P}/built`;
const DEFAULTS = { 'lower_default.skin': 'ld', 'upper_default.skin': 'ud', 'head_default.skin': 'hd' };

test('skinAttempts: the skin asked, the default team folder for a team skin, then the default skin', () => {
  assert.deepEqual(skinAttempts('red', null), ['red', 'default']);
  assert.deepEqual(skinAttempts('default', 'blue'), ['default']);
  assert.deepEqual(skinAttempts('cyborgs/lily', 'red'), ['cyborgs/lily', 'Stroggs/lily', 'default']);
  assert.deepEqual(skinAttempts('cyborgs/lily', 'blue'), ['cyborgs/lily', 'Pagans/lily', 'default']);
  assert.deepEqual(skinAttempts('cyborgs/lily', null), ['cyborgs/lily', 'Stroggs/lily', 'default']); // cgame: any team but blue
  assert.deepEqual(skinAttempts('stroggs/red', 'red'), ['stroggs/red', 'default']);
});

test('a skin missing a part: the default team folder, as CG_RegisterClientModelname retries', () => {
  const set = built({
    ...DEFAULTS,
    'cyborgs/lower_lily_red.skin': 'c-l', 'cyborgs/upper_lily_red.skin': 'c-u',
    'Stroggs/lower_red.skin': 's-l', 'Stroggs/upper_red.skin': 's-u', 'Stroggs/head_red.skin': 's-h',
    'Pagans/lower_blue.skin': 'p-l', 'Pagans/upper_blue.skin': 'p-u', 'Pagans/head_blue.skin': 'p-h',
  });
  let player = iq.loadPlayer(set, { skin: 'cyborgs/lily', team: 'red' });
  assert.equal(player.skin, 'Stroggs/lily');
  assert.deepEqual(textures(player), { lower: 's-l', upper: 's-u', head: 's-h' });
  assert.deepEqual(repaired(player), [`skin 'cyborgs/lily' for the red team: no ${D}/cyborgs/head_red.skin; using 'Stroggs/lily' (cgame's default red team folder)`]);
  assert.deepEqual(skinsMissing(player), [`${D}/cyborgs/head_red.skin`]);
  const blue = player.resolveSkin('cyborgs/lily', { team: 'blue' });
  assert.equal(blue.used, 'Pagans/lily');
  assert.deepEqual(blue.files, { lower: `${D}/Pagans/lower_blue.skin`, upper: `${D}/Pagans/upper_blue.skin`, head: `${D}/Pagans/head_blue.skin` });
  assert.deepEqual(blue.warnings, [{ code: 'repaired', message: `no skin 'cyborgs/lily' for the blue team (available: default, cyborgs/lily_red, pagans/blue, stroggs/red); using 'Pagans/lily' (cgame's default blue team folder)` }]);
  assert.deepEqual(blue.missingFiles.filter((f) => f.endsWith('.skin')), ['lower', 'upper', 'head'].map((p) => `${D}/cyborgs/${p}_blue.skin`));
  player.dispose();
});

test('a skin missing a part: the default skin for every part, as cgame takes its default model\'s', () => {
  const set = built({
    ...DEFAULTS, 'lower_red.skin': 'lr', 'upper_red.skin': 'ur',
    'lower_lily_red.skin': 'llr', 'upper_lily_red.skin': 'ulr', 'lower_default_red.skin': 'ldr', 'upper_red_x.skin': 'x', 'default/head_red.skin': 'dhr',
  });
  let player = iq.loadPlayer(set, { skin: 'red' });
  assert.equal(player.skin, 'default');
  assert.deepEqual(textures(player), { lower: 'ld', upper: 'ud', head: 'hd' });
  assert.deepEqual(repaired(player), [`skin 'red': no ${D}/head_red.skin; using 'default' for every part (cgame uses a skin only when all three parts have one)`]);
  assert.deepEqual(skinsMissing(player), [`${D}/head_red.skin`]);
  player.dispose();
  // In a team game the head's skin name only picks a folder (<skin>/head_red.skin), so lily has no
  // head; the default skin's head is default/head_red.skin, and the team colour stays.
  player = iq.loadPlayer(set, { skin: 'lily', team: 'red' });
  assert.equal(player.skin, 'default');
  assert.deepEqual(textures(player), { lower: 'ldr', upper: 'ur', head: 'dhr' });
  assert.deepEqual(player.skinFiles, { lower: `${D}/lower_default_red.skin`, upper: `${D}/upper_red.skin`, head: `${D}/default/head_red.skin` });
  assert.deepEqual(repaired(player), [`skin 'lily' for the red team: no ${D}/head_red.skin; using 'default' for every part (cgame uses a skin only when all three parts have one)`]);
  player.dispose();
  // A skin no part has: named with what there is.
  player = iq.loadPlayer(set, { skin: 'purple' });
  assert.equal(player.skin, 'default');
  // (default/head_red.skin is listed as the folder 'default' holding a skin 'red', as team folders are)
  assert.deepEqual(repaired(player), [`no skin 'purple' (available: default, red, default/red, default_red, lily_red, red_x); using 'default'`]);
  assert.deepEqual(skinsMissing(player), ['lower', 'upper', 'head'].map((p) => `${D}/${p}_purple.skin`));
  player.dispose();
});

test('no skin with all three parts (cgame gives up on the model there): each part its first file, then none', () => {
  // the default skin lacks a head too: each part takes the first file found
  let player = iq.loadPlayer(built({ 'lower_default.skin': 'ld', 'upper_default.skin': 'ud', 'lower_red.skin': 'lr', 'upper_red.skin': 'ur' }), { skin: 'red' });
  assert.equal(player.skin, 'red');
  assert.deepEqual(textures(player), { lower: 'lr', upper: 'ur', head: undefined });
  assert.deepEqual(player.skinFiles, { lower: `${D}/lower_red.skin`, upper: `${D}/upper_red.skin`, head: null });
  assert.equal(player.surfaces.head[0].source, 'shader');
  assert.deepEqual(repaired(player), [`skin 'red': no ${D}/head_red.skin, and no skin has all three parts; each part uses the first skin file found: lower ${D}/lower_red.skin, upper ${D}/upper_red.skin, head none (its MD3 shader names)`]);
  assert.deepEqual(player.missingFiles, [`${D}/animation.cfg`, `${D}/head_red.skin`, 'none']);
  player.dispose();
  // A team game with no team skin for upper and head: the default skin without team colour last.
  player = iq.loadPlayer(built({ ...DEFAULTS, 'lower_red.skin': 'lr' }), { team: 'red' });
  assert.equal(player.skin, 'default');
  assert.deepEqual(textures(player), { lower: 'lr', upper: 'ud', head: 'hd' });
  assert.deepEqual(repaired(player), [`skin 'default' for the red team: no ${D}/upper_red.skin, ${D}/head_red.skin, and no skin has all three parts; each part uses the first skin file found: lower ${D}/lower_red.skin, upper ${D}/upper_default.skin, head ${D}/head_default.skin`]);
  assert.deepEqual(skinsMissing(player), [`${D}/upper_red.skin`, `${D}/head_red.skin`]);
  player.dispose();
  // No skin file at all and a skin asked: no skin, the MD3 shader names.
  player = iq.loadPlayer(built({}), { skin: 'red' });
  assert.equal(player.skin, null);
  assert.deepEqual(player.skinFiles, { lower: null, upper: null, head: null });
  assert.deepEqual(repaired(player), [`no skin 'red' (available: none); each part uses the first skin file found: lower none (its MD3 shader names), upper none (its MD3 shader names), head none (its MD3 shader names)`]);
  player.dispose();
});

test("an empty head name is the body's own head, as cgame reads an empty headmodel", () => {
  const set = fileSet({ 'built/lower.md3': 1, 'built/upper.md3': 2, 'heads/built/built.md3': 4 });
  const player = iq.loadPlayer(set, { head: '' });
  assert.equal(player.parts.head.path, `${P}/heads/built/built.md3`);
  player.dispose();
});
