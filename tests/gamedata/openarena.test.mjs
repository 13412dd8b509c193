// OpenArena 0.8.8 (Debian's openarena-data with its 0.8.1 and 0.8.5 parts, and openarena-088-data:
// the nine pk3s of baseoa). Every player of pak2-players.pk3 loads with every skin, from that pk3
// alone and mounted with pak0.pk3, and the files its skins name that nothing provides are the ones
// docs/API-q3.md lists; every animation fits its MD3s (merman's LEGS_TURN, with no frames, warns); every shader
// script of the mounted baseoa parses with no keyword unknown; and `interquake validate` over baseoa
// passes every archive, model and player, with the missing files docs/CLI.md quotes (mounted and
// --alone).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { init } from 'interquake';
import { parseShaders } from '../../web/quake3/shaders.js';
import { gameFile, expectCount, installedVersion } from './lib.mjs';

const iq = await init();
const BASEOA = '/usr/share/games/openarena/baseoa/';
gameFile('openarena-data', BASEOA + 'pak0.pk3');
gameFile('openarena-081-players', BASEOA + 'pak2-players.pk3');
gameFile('openarena-088-data', BASEOA + 'pak6-patch088.pk3');
const open = async (name) => iq.openArchive(readFileSync(BASEOA + name), { name });
const pak0 = await open('pak0.pk3');
const players = await open('pak2-players.pk3');

// Every player of a source with every skin: the counts, and the files the skins name that are not there.
function everyPlayerAndSkin(source) {
  let pairs = 0;
  let references = 0;
  const missing = new Set();
  const playersMissing = new Set();
  const unfit = [];
  const empty = [];
  for (const info of source.players) {
    const player = iq.loadPlayer(source, { player: info.path });
    for (const a of player.animations) if (!a.fits) unfit.push(`${info.name}:${a.name}`);
    for (const w of player.warnings) if (/ has no frames/.test(w.message)) empty.push(`${info.name}:${w.message.match(/(\w+) has no frames/)[1]}`);
    for (const skin of player.skins) {
      pairs++;
      const resolved = player.resolveSkin(skin);
      for (const part of ['lower', 'upper', 'head']) {
        for (const s of resolved.surfaces[part]) assert.ok(typeof s.name === 'string', `${info.path} ${skin}: surfaces`);
      }
      references += resolved.missingFiles.length;
      for (const f of resolved.missingFiles) { missing.add(f); playersMissing.add(info.name); }
    }
    // running and standing: each part's frame evaluated to finite vertices, placed by finite matrices
    const pose = player.pose({ legs: { animation: 'LEGS_RUN', time: 0.37 }, torso: { animation: 'TORSO_STAND', time: 0.37 } });
    for (const part of ['lower', 'upper', 'head']) {
      assert.ok(pose[part].matrix.every(Number.isFinite), `${info.path} ${part}: matrix finite`);
      assert.ok(player.parts[part].model.evaluate(pose[part].frame).positions.every(Number.isFinite), `${info.path} ${part}: vertices finite`);
    }
    player.dispose();
  }
  return { players: source.players.length, pairs, references, missing: [...missing].sort(), playersMissing: playersMissing.size, unfit, empty };
}

test('pak2-players.pk3 alone: every player loads with every skin; what is missing is pak0.pk3\'s effect textures', () => {
  const r = everyPlayerAndSkin(players);
  console.log(`openarena: pak2-players.pk3 alone: ${r.players} players, ${r.pairs} player + skin pairs, ${r.references} unresolved references ` +
    `(${r.missing.length} distinct, in ${r.playersMissing} players): ${r.missing.join(', ')}`);
  expectCount('openarena-081-players', 'players', r.players, 12);
  expectCount('openarena-081-players', 'player + skin pairs', r.pairs, 49);
  assert.deepEqual(r.unfit, [], 'every animation fits its MD3s');
  assert.deepEqual(r.empty, ['merman:LEGS_TURN'], 'merman\'s LEGS_TURN has 0 frames (a warning; it shows its first frame)');
  // the shader stages' images (in pak0.pk3) and beret's skins giving u_vest the shader "tag_head"
  for (const f of r.missing) assert.match(f, /^(textures\/(effects|oafx)\/|tag_head$)/, f);
  expectCount('openarena-081-players', 'distinct missing files', r.missing.length, 11);
});

test('pak0.pk3 + pak2-players.pk3 mounted: every player with every skin; only beret\'s "tag_head" is missing', () => {
  const fs = iq.mountArchives([pak0, players]);
  const r = everyPlayerAndSkin(fs);
  console.log(`openarena: pak0 + pak2-players mounted: ${r.players} players, ${r.pairs} pairs, ${r.references} unresolved references: ${r.missing.join(', ')}`);
  expectCount('openarena-data', 'players of pak0.pk3 + pak2-players.pk3', r.players, 14);
  assert.deepEqual(r.missing, ['tag_head']);
  assert.equal(r.references, 2, 'beret\'s cooldude and macho skins');
});

test('every shader script of baseoa mounted parses, with no unknown keyword', async () => {
  const archives = [];
  for (const name of readdirSync(BASEOA).filter((n) => /\.pk3$/.test(n)).sort()) archives.push(name === 'pak0.pk3' ? pak0 : name === 'pak2-players.pk3' ? players : await open(name));
  const set = parseShaders(iq, iq.mountArchives(archives));
  assert.deepEqual(set.errors.map((e) => e.error.message), [], 'no script refused');
  let blocks = 0;
  let stages = 0;
  const kinds = {};
  for (const script of set.scripts) {
    blocks += script.shaders.length;
    for (const s of script.shaders) stages += s.stages.length;
    assert.equal(script.notes.length, script.noteCount, `${script.file}: every note kept`);
    for (const n of script.notes) kinds[n.kind] = (kinds[n.kind] ?? 0) + 1;
  }
  console.log(`openarena: ${set.scripts.length} shader scripts, ${blocks} blocks, ${stages} stages; notes by kind: ${JSON.stringify(kinds)}`);
  assert.equal(kinds.unknown_keyword ?? 0, 0, 'no unknown keyword');
  expectCount('openarena-088-data', 'shader scripts (baseoa mounted)', set.scripts.length, 104);
  expectCount('openarena-088-data', 'shader blocks', blocks, 2223);
  expectCount('openarena-088-data', 'shader stages', stages, 4808);
});

const CLI = fileURLToPath(new URL('../../bin/interquake.mjs', import.meta.url));
function validate(...args) {
  const doc = JSON.parse(execFileSync(process.execPath, [CLI, 'validate', BASEOA, '--json', ...args], { encoding: 'utf8', maxBuffer: 64 << 20 }));
  const kinds = {};
  for (const item of doc.items) kinds[item.kind] = (kinds[item.kind] ?? 0) + 1;
  const missing = new Set();
  for (const item of doc.items) for (const w of item.warnings) if (w.code === 'missing_file') missing.add(w.message);
  return { doc, kinds, missing };
}

test('interquake validate baseoa: every archive, model and player passes; 21 distinct missing files mounted', () => {
  const { doc, kinds, missing } = validate();
  console.log(`openarena: validate baseoa: ${JSON.stringify(kinds)}, ${missing.size} distinct missing files, ${doc.summary.seconds} s`);
  assert.deepEqual(doc.items.filter((i) => !i.ok).map((i) => `${i.path}: ${i.error?.message}`), []);
  assert.equal(doc.summary.failed, 0);
  assert.equal(kinds.archive, 9);
  expectCount('openarena-088-data', 'models', kinds.model, 331);
  expectCount('openarena-088-data', 'players (mounted)', kinds.player, 18);
  // exact on any version: a release that provides a file or drops one should update docs/CLI.md
  assert.equal(missing.size, 21, `distinct missing files on ${installedVersion('openarena-088-data')}:\n${[...missing].join('\n')}`);
});

test('interquake validate --alone baseoa: each pk3 on its own; 61 distinct missing files', () => {
  const { doc, kinds, missing } = validate('--alone');
  console.log(`openarena: validate --alone baseoa: ${JSON.stringify(kinds)}, ${missing.size} distinct missing files, ${doc.summary.seconds} s`);
  assert.equal(doc.summary.failed, 0);
  expectCount('openarena-088-data', 'players (alone: some folders span pk3s)', kinds.player, 21);
  assert.equal(missing.size, 61, `distinct missing files on ${installedVersion('openarena-088-data')}:\n${[...missing].join('\n')}`);
});
