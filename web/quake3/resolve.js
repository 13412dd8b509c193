// Where a player's skin files, head model and weapons are, in the order cgame looks for them
// (ioquake3's cg_players.c: CG_RegisterClientModelname, CG_FindClientModelFile,
// CG_FindClientHeadFile; cg_weapons.c: CG_RegisterWeapon), and where the renderer looks for a
// texture. Pure path lists: player.js asks its file source which exist.
//
// A skin name may carry a team folder, as cgame's team name does ("cyborgs/red": the files
// <folder>/cyborgs/lower_red.skin, ...). OpenArena's missionpack ships such folders
// (models/players/kyonshi/cyborgs/) and heads apart from their bodies (models/players/heads/kyonshi/).

import { IMAGE_EXTENSIONS, normalizePath } from './archive.js';

export const TEAMS = ['red', 'blue'];

/** 'cyborgs/red' -> { teamFolder: 'cyborgs/', name: 'red' }; 'red' -> { teamFolder: '', name: 'red' }. */
export function splitSkin(skin) {
  const s = normalizePath(skin).replace(/\/$/, '');
  const slash = s.lastIndexOf('/');
  return { teamFolder: slash < 0 ? '' : s.slice(0, slash + 1), name: s.slice(slash + 1) };
}

/** The folder cgame's heads/ lookup uses for a player folder: models/players/heads/<head>. */
export function headsFolder(folder, head) {
  if (!head) return null;
  const slash = folder.lastIndexOf('/');
  return `${slash < 0 ? '' : `${folder.slice(0, slash)}/`}heads/${head}`;
}

/**
 * The head model's file stems (no LOD suffix or extension), in cgame's order: head.md3 in the
 * head model's own player folder, then models/players/heads/<head>/<head>.md3.
 */
export function headModelStems(folder, name, head) {
  const slash = folder.lastIndexOf('/');
  const own = head === name ? folder : `${slash < 0 ? '' : `${folder.slice(0, slash)}/`}${head}`;
  const stems = [`${own ? `${own}/` : ''}head`];
  const heads = headsFolder(folder, head);
  if (heads) stems.push(`${heads}/${head}`);
  return stems;
}

/**
 * The .skin paths part ('lower', 'upper', 'head') may use for `skin` on `team` ('red', 'blue' or
 * null), best first, then { fallback }: <part>_default.skin in the first folder, used when no
 * candidate exists. `dirs`: the body's folder for lower/upper; for the head, the head model's
 * player folder then its heads/ folder (CG_FindClientHeadFile tries both whichever held the model).
 *
 * cgame, per folder, with the team folder first and then without it:
 *   <part>_<skin>_<team>.skin, then <part>_<team>.skin in a team game (the team's colour as skin),
 *   <part>_<skin>_default.skin, then <part>_<skin>.skin otherwise;
 * the head also tries <skin>/<part>_<team>.skin (a folder per head skin) first.
 */
export function skinCandidates(part, skin, team, dirs) {
  const { teamFolder, name } = splitSkin(skin);
  const colour = team || 'default';
  const list = [];
  for (const dir of dirs) {
    const at = dir ? `${dir}/` : '';
    for (const tf of teamFolder ? [teamFolder, ''] : ['']) {
      if (part === 'head') list.push(`${at}${name}/${tf}${part}_${colour}.skin`);
      list.push(`${at}${tf}${part}_${name}_${colour}.skin`);
      list.push(team ? `${at}${tf}${part}_${team}.skin` : `${at}${tf}${part}_${name}.skin`);
    }
  }
  const first = dirs[0] ? `${dirs[0]}/` : '';
  return { candidates: [...new Set(list)], fallback: `${first}${part}_default.skin`, wanted: `${first}${teamFolder}${part}_${team || name}.skin` };
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

/**
 * The paths a shader name or skin path may be found at, in Quake 3's order: as written,
 * the other image extensions in place of a missing one, then each extension appended.
 * An absolute path from the artist's disk ("E:\\q3\\baseq3\\models\\...") is also tried
 * from its models/ or textures/ folder on.
 */
export function textureCandidates(reference) {
  const list = pathCandidates(normalizePath(reference));
  const inGame = /(^|\/)(models|textures)\//i.exec(normalizePath(reference));
  if (inGame && inGame.index > 0) list.push(...pathCandidates(normalizePath(reference).slice(inGame.index + 1)));
  return list;
}

const LOOKUP_EXTENSIONS = IMAGE_EXTENSIONS.filter((e) => e !== 'jpeg').map((e) => `.${e}`);

function pathCandidates(ref) {
  const dot = ref.lastIndexOf('.');
  const ext = dot > ref.lastIndexOf('/') ? ref.slice(dot).toLowerCase() : '';
  const list = [ref];
  // A known image extension that is missing: the same name with the other ones.
  if (IMAGE_EXTENSIONS.includes(ext.slice(1))) {
    const stem = ref.slice(0, dot);
    for (const e of LOOKUP_EXTENSIONS) if (e !== ext) list.push(stem + e);
  }
  // No or another extension ("clothes.001"), and names like "glass.tga.tga": append each one.
  for (const e of LOOKUP_EXTENSIONS) list.push(ref + e);
  return list;
}
