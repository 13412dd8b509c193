// Where a player's skin files, head model and weapons are, in the order cgame looks for them
// (ioquake3's cg_players.c: CG_RegisterClientModelname, CG_FindClientModelFile,
// CG_FindClientHeadFile; cg_weapons.c: CG_RegisterWeapon), and where the renderer looks for a
// texture. Pure path lists: player.js asks its file source which exist.
//
// A player's body is read from models/players/<name>/ then models/players/characters/<name>/
// (archive.js's playerFolders), its head from models/players/<head>/ then heads/<head>/, and a
// skin that lacks a part falls back as CG_RegisterClientModelname and CG_LoadClientInfo do
// (skinAttempts; player.js settles which file each part uses).
//
// A skin name may carry a team folder, as cgame's team name does ("cyborgs/red": the files
// <folder>/cyborgs/lower_red.skin, ...). OpenArena's missionpack ships such folders
// (models/players/kyonshi/cyborgs/) and heads apart from their bodies (models/players/heads/kyonshi/).

import { normalizePath } from '../core/paths.js';

export const TEAMS = ['red', 'blue'];
// cg_local.h's DEFAULT_REDTEAM_NAME / DEFAULT_BLUETEAM_NAME: the team folders cgame retries a
// team skin in (CG_RegisterClientModelname; any team but blue counts as red there).
export const DEFAULT_TEAM_FOLDERS = { red: 'Stroggs', blue: 'Pagans' };

/** 'cyborgs/red' -> { teamFolder: 'cyborgs/', name: 'red' }; 'red' -> { teamFolder: '', name: 'red' }. */
export function splitSkin(skin) {
  const s = normalizePath(skin).replace(/\/$/, '');
  const slash = s.lastIndexOf('/');
  return { teamFolder: slash < 0 ? '' : s.slice(0, slash + 1), name: s.slice(slash + 1) };
}

/**
 * The head's folders in cgame's order, for head model name `head` (cgame's hmodel; a leading '*'
 * means the heads/ folder only): models/players/<head>/ then models/players/heads/<head>/
 * (CG_RegisterClientModelname for the model, CG_FindClientHeadFile for its skins; neither looks in
 * characters/). Returns [{ dir, stem }]: the folder and the model's file stem there (no LOD or
 * extension): <head>/head, heads/<head>/<head>.
 */
export function headFolders(root, head) {
  if (!head) return [{ dir: '', stem: 'head' }]; // a file set relative to the player
  const inHeads = head.startsWith('*');
  const h = inHeads ? head.slice(1) : head;
  const list = inHeads ? [] : [{ dir: `${root}${h}`, stem: `${root}${h}/head` }];
  list.push({ dir: `${root}heads/${h}`, stem: `${root}heads/${h}/${h}` });
  return list;
}

/**
 * The .skin paths part ('lower', 'upper', 'head') may use for `skin` on `team` ('red', 'blue' or
 * null), best first: { candidates }, and { wanted }: the file named in missingFiles when none exists.
 * `dirs`: the body's folders for lower/upper; the head's folders for the head.
 *
 * cgame (CG_FindClientModelFile, CG_FindClientHeadFile), per folder, with the team folder first and
 * then without it, <colour> being the team ('red', 'blue') in a team game and 'default' otherwise:
 *   lower/upper: <part>_<skin>_<colour>.skin, then <part>_<colour>.skin in a team game or
 *                <part>_<skin>.skin otherwise;
 *   head:        <skin>/head_<colour>.skin, then head_<colour>.skin in a team game or
 *                head_<skin>.skin otherwise.
 */
export function skinCandidates(part, skin, team, dirs) {
  const { teamFolder, name } = splitSkin(skin);
  const colour = team || 'default';
  const list = [];
  for (const dir of dirs) {
    const at = dir ? `${dir}/` : '';
    for (const tf of teamFolder ? [teamFolder, ''] : ['']) {
      list.push(part === 'head' ? `${at}${name}/${tf}${part}_${colour}.skin` : `${at}${tf}${part}_${name}_${colour}.skin`);
      list.push(team ? `${at}${tf}${part}_${team}.skin` : `${at}${tf}${part}_${name}.skin`);
    }
  }
  const first = dirs[0] ? `${dirs[0]}/` : '';
  return { candidates: [...new Set(list)], wanted: `${first}${teamFolder}${part}_${team || name}.skin` };
}

/**
 * The skins cgame tries, in order, until all three parts have a file: the skin asked; with a team
 * folder, the same skin in the default team's folder (CG_RegisterClientModelname's retry); then
 * the default skin (CG_LoadClientInfo: there cgame gives up on the model and loads its default
 * one, sarge with "default" outside team games; a viewer keeps its model and takes its default
 * skin, the team colour still applied).
 */
export function skinAttempts(skin, team) {
  const { teamFolder, name } = splitSkin(skin);
  const list = [normalizePath(skin).replace(/\/$/, '')];
  if (teamFolder) list.push(`${DEFAULT_TEAM_FOLDERS[team === 'blue' ? 'blue' : 'red']}/${name}`);
  list.push('default');
  const seen = new Set();
  return list.filter((s) => !seen.has(s.toLowerCase()) && seen.add(s.toLowerCase()));
}

/**
 * Skins kept in team folders under the player's folder (and the head's heads/ folder):
 * <folder>/<team>/<part>_<skin>.skin gives '<team>/<skin>', lower-cased as the game matches them.
 */
export function findTeamSkins(paths, folders) {
  const found = new Set();
  const teams = new Set();
  const prefixes = folders.filter((f) => f !== null).map((f) => (f ? `${f.toLowerCase()}/` : ''));
  for (const path of paths) {
    const p = normalizePath(path).toLowerCase();
    for (const prefix of prefixes) {
      if (!p.startsWith(prefix)) continue;
      const m = /^([^/]+)\/(?:lower|upper|head)_(.+)\.skin$/.exec(p.slice(prefix.length));
      if (m) {
        found.add(`${m[1]}/${m[2]}`);
        teams.add(m[1]);
      }
    }
  }
  return { skins: [...found], teams: [...teams].sort() };
}

// Weapons as cgame registers them: models/weapons2/<name>/<name>.md3 (CG_RegisterWeapon's
// weaponModel), listed by name with their path.
const WEAPON_PATH = /(^|\/)models\/weapons2\/([^/]+)\/([^/]+)\.md3$/i;
export function findWeapons(paths) {
  const out = new Map();
  for (const path of paths) {
    const m = WEAPON_PATH.exec(normalizePath(path));
    if (m && m[2].toLowerCase() === m[3].toLowerCase() && !out.has(m[2].toLowerCase())) {
      out.set(m[2].toLowerCase(), { name: m[3], path: normalizePath(path) });
    }
  }
  return [...out.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The files of a weapon named by `spec`: its name ('machinegun'), its folder or its main .md3.
 * Returns { main, barrel, flash, hand } game paths (the last three are candidates, looked up by
 * the caller): cgame's CG_RegisterWeapon strips ".md3" and appends "_barrel", "_flash", "_hand".
 */
export function weaponFiles(spec) {
  let main = normalizePath(String(spec)).replace(/\/$/, '');
  if (!/\.(md3|iqm)$/i.test(main)) {
    const name = main.slice(main.lastIndexOf('/') + 1);
    main = main.includes('/') ? `${main}/${name}.md3` : `models/weapons2/${name}/${name}.md3`;
  }
  const stem = main.replace(/\.(md3|iqm)$/i, '');
  return { main, barrel: `${stem}_barrel.md3`, flash: `${stem}_flash.md3`, hand: `${stem}_hand.md3` };
}
