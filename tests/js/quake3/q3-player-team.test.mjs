// Team skins and heads/ as cgame finds them (web/quake3/resolve.js after ioquake3's
// CG_FindClientModelFile / CG_FindClientHeadFile), on built file sets: every .skin names its
// own texture, so which file won shows in the surfaces' textures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init } from 'interquake';
import { buildMD3 } from '../lib/md3-build.mjs';
import { skinCandidates } from '../../../web/quake3/resolve.js';

const iq = await init();
const enc = new TextEncoder();
const DIR = 'models/players/built';
const I = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];

const quad = (name, shader) => ({
  name,
  shaders: [{ name: shader, index: 0 }],
  triangles: [[0, 1, 2]],
  texcoords: [[0, 0], [1, 0], [0, 1]],
  frames: [[[0, 0, 0], [1, 0, 0], [0, 1, 0]].map((xyz) => ({ xyz, normal: 0 }))],
});
const tagged = (tag, surface, z) => buildMD3({ tags: [{ name: tag, frames: [{ origin: [0, 0, z], axes: I }] }], surfaces: [surface] }).bytes;
const SURFACE = { lower: 'l_legs', upper: 'u_torso', head: 'h_head' };

// A .skin for part whose one surface uses the texture `texture` (given as a path; the texture exists).
const skinFile = (part, texture) => enc.encode(`${SURFACE[part]},${texture}\n`);

/** A body in DIR; `skins`: { '<path under models/players/>': texture } adds that .skin and its texture. */
function files(skins, { head = true } = {}) {
  const out = {
    [`${DIR}/lower.md3`]: tagged('tag_torso', quad('l_legs', 'none'), 10),
    [`${DIR}/upper.md3`]: tagged('tag_head', quad('u_torso', 'none'), 5),
  };
  if (head) out[`${DIR}/head.md3`] = buildMD3({ surfaces: [quad('h_head', 'none')] }).bytes;
  for (const [path, texture] of Object.entries(skins)) {
    const part = /(lower|upper|head)_[^/]*\.skin$/.exec(path)[1];
    out[`models/players/${path}`] = skinFile(part, `textures/${texture}.tga`);
    out[`textures/${texture}.tga`] = new Uint8Array([1]);
  }
  return out;
}
const textures = (player) => Object.fromEntries(['lower', 'upper', 'head'].map((p) => [p, player.surfaces[p][0].texture?.replace(/^textures\/|\.tga$/g, '')]));
const skinsMissing = (player) => player.missingFiles.filter((f) => f.endsWith('.skin')); // no animation.cfg here
const BASE = {
  'built/lower_default.skin': 'ld', 'built/upper_default.skin': 'ud', 'built/head_default.skin': 'hd',
};

test('the candidate order is cgame\'s: team folder, then the model folder; skin and team colour, then the colour alone', () => {
  const { candidates, wanted } = skinCandidates('lower', 'cyborgs/lily', 'red', [DIR]);
  assert.deepEqual(candidates, [
    `${DIR}/cyborgs/lower_lily_red.skin`, `${DIR}/cyborgs/lower_red.skin`, `${DIR}/lower_lily_red.skin`, `${DIR}/lower_red.skin`,
  ]);
  assert.equal(wanted, `${DIR}/cyborgs/lower_red.skin`);
  // Outside a team game the colour is "default" and the skin's own file comes second.
  assert.deepEqual(skinCandidates('upper', 'lily', null, [DIR]).candidates, [`${DIR}/upper_lily_default.skin`, `${DIR}/upper_lily.skin`]);
  // The head (CG_FindClientHeadFile): a folder per head skin first, then head_<team>.skin in a
  // team game (never head_<skin>_<team>.skin), in the head model's folder and then in heads/.
  assert.deepEqual(skinCandidates('head', 'lily', 'blue', [DIR, 'models/players/heads/built']).candidates, [
    `${DIR}/lily/head_blue.skin`, `${DIR}/head_blue.skin`,
    'models/players/heads/built/lily/head_blue.skin', 'models/players/heads/built/head_blue.skin',
  ]);
  // Outside a team game: <skin>/head_default.skin, then head_<skin>.skin; the team folder first.
  assert.deepEqual(skinCandidates('head', 'cyborgs/lily', null, [DIR]).candidates, [
    `${DIR}/lily/cyborgs/head_default.skin`, `${DIR}/cyborgs/head_lily.skin`, `${DIR}/lily/head_default.skin`, `${DIR}/head_lily.skin`,
  ]);
});

test('team option: <part>_<skin>_<team>.skin, then <part>_<team>.skin, then the default skin', () => {
  const all = {
    ...BASE,
    'built/lower_default_red.skin': 'ldr', 'built/lower_red.skin': 'lr', 'built/upper_red.skin': 'ur',
    'built/lower_blue.skin': 'lb',
  };
  let player = iq.loadPlayer(files(all), { team: 'red' });
  assert.equal(player.team, 'red');
  assert.equal(player.skin, 'default');
  // lower: default_red beats red; upper: red; head: no head_red.skin, so head_default.skin
  assert.deepEqual(textures(player), { lower: 'ldr', upper: 'ur', head: 'hd' });
  assert.deepEqual(player.skinFiles, { lower: `${DIR}/lower_default_red.skin`, upper: `${DIR}/upper_red.skin`, head: `${DIR}/head_default.skin` });
  assert.deepEqual(skinsMissing(player), [`${DIR}/head_red.skin`]);
  // The same player on the other team, without reloading: only lower has a blue file.
  const blue = player.resolveSkin('default', { team: 'blue' });
  assert.deepEqual(Object.fromEntries(Object.entries(blue.files).map(([k, v]) => [k, v.slice(DIR.length + 1)])),
    { lower: 'lower_blue.skin', upper: 'upper_default.skin', head: 'head_default.skin' });
  assert.deepEqual(blue.missingFiles.sort(), [`${DIR}/head_blue.skin`, `${DIR}/upper_blue.skin`]);
  player.dispose();
  // No team: the default skin everywhere, the team files unused.
  player = iq.loadPlayer(files(all));
  assert.equal(player.team, null);
  assert.deepEqual(textures(player), { lower: 'ld', upper: 'ud', head: 'hd' });
  player.dispose();
  assert.throws(() => iq.loadPlayer(files(all), { team: 'green' }), (e) => e.code === 'invalid_argument' && /team/.test(e.message));
});

test('team folders: listed as "<team>/<skin>", searched before the model folder', () => {
  const set = files({
    ...BASE,
    'built/lower_red.skin': 'lr', 'built/upper_red.skin': 'ur', 'built/head_red.skin': 'hr',
    'built/cyborgs/lower_red.skin': 'c-lr', 'built/cyborgs/head_red.skin': 'c-hr',
    'built/cyborgs/lower_blue.skin': 'c-lb', 'built/summer/upper_default.skin': 's-ud',
  });
  let player = iq.loadPlayer(set, { skin: 'cyborgs/red' });
  assert.deepEqual(player.teams, ['cyborgs', 'summer']);
  assert.deepEqual(player.skins, ['default', 'red', 'cyborgs/blue', 'cyborgs/red', 'summer/default']);
  // upper has no cyborgs/upper_red.skin: cgame's second pass, without the team folder
  assert.deepEqual(textures(player), { lower: 'c-lr', upper: 'ur', head: 'c-hr' });
  assert.deepEqual(skinsMissing(player), []);
  player.dispose();
  // A team colour inside a team folder: cyborgs/lower_blue.skin for the blue team.
  player = iq.loadPlayer(set, { skin: 'cyborgs/default', team: 'blue' });
  assert.equal(player.skinFiles.lower, `${DIR}/cyborgs/lower_blue.skin`);
  assert.equal(player.skinFiles.upper, `${DIR}/upper_default.skin`); // nothing blue: the default skin
  player.dispose();
  // A team folder that is not there: cgame's second pass finds the model folder's red skin.
  player = iq.loadPlayer(set, { skin: 'pagans/red' });
  assert.equal(player.skin, 'pagans/red');
  assert.deepEqual(textures(player), { lower: 'lr', upper: 'ur', head: 'hr' });
  player.dispose();
  // A skin that exists nowhere: a warning and the default skin, as before.
  player = iq.loadPlayer(set, { skin: 'pagans/purple' });
  assert.equal(player.skin, 'default');
  assert.ok(player.warnings.some((w) => /no skin 'pagans\/purple'/.test(w.message)));
  player.dispose();
});

test('heads/: the head model and its skins from models/players/heads/<head>/ when the body folder has none', () => {
  const set = files({
    'built/lower_default.skin': 'ld', 'built/upper_default.skin': 'ud', 'built/lower_red.skin': 'lr', 'built/upper_red.skin': 'ur',
    'heads/built/head_default.skin': 'H-hd', 'heads/built/head_red.skin': 'H-hr', 'heads/built/cyborgs/head_red.skin': 'H-c-hr',
    'built/cyborgs/lower_red.skin': 'c-lr',
  }, { head: false });
  const headMd3 = (z) => buildMD3({ surfaces: [{ ...quad('h_head', 'none'), frames: [[[0, 0, z], [1, 0, z], [0, 1, z]].map((xyz) => ({ xyz, normal: 0 }))] }] }).bytes;
  set['models/players/heads/built/built.md3'] = headMd3(1);
  set['models/players/heads/built/built_1.md3'] = headMd3(2);
  set['models/players/heads/other/other.md3'] = headMd3(3);
  set['models/players/heads/other/head_red.skin'] = skinFile('head', 'textures/other-red.tga');
  set['textures/other-red.tga'] = new Uint8Array([1]);
  let player = iq.loadPlayer(set);
  assert.equal(player.parts.head.path, 'models/players/heads/built/built.md3');
  assert.equal(player.parts.head.model.evaluate(0).positions[2], 1);
  assert.deepEqual(textures(player), { lower: 'ld', upper: 'ud', head: 'H-hd' });
  assert.ok(!player.missingFiles.some((f) => /head/.test(f)), JSON.stringify(player.missingFiles));
  player.dispose();
  // LODs of the heads/ model, and a team skin in the heads/ folder's team folder
  player = iq.loadPlayer(set, { lod: 1, skin: 'cyborgs/red' });
  assert.equal(player.parts.head.path, 'models/players/heads/built/built_1.md3');
  assert.deepEqual(textures(player), { lower: 'c-lr', upper: 'ur', head: 'H-c-hr' });
  assert.ok(player.skins.includes('cyborgs/red'));
  player.dispose();
  // Another head model by name (cgame's headmodel), with its own skins
  player = iq.loadPlayer(set, { head: 'other', skin: 'red' });
  assert.equal(player.parts.head.path, 'models/players/heads/other/other.md3');
  assert.equal(textures(player).head, 'other-red');
  player.dispose();
  // The body folder's head.md3 wins over heads/
  const withHead = { ...set, [`${DIR}/head.md3`]: headMd3(7) };
  player = iq.loadPlayer(withHead);
  assert.equal(player.parts.head.path, `${DIR}/head.md3`);
  assert.equal(textures(player).head, 'H-hd'); // its skin still found in heads/, as CG_FindClientHeadFile does
  player.dispose();
  // No head anywhere: the error names the body folder's head.md3
  const headless = Object.fromEntries(Object.entries(set).filter(([k]) => !/heads\/built\/built/.test(k)));
  assert.throws(() => iq.loadPlayer(headless), (e) => e.code === 'missing_file' && e.file === `${DIR}/head.md3`);
});
