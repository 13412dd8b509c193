// What the game-data suites share: the Debian packages they read (tests/gamedata/packages.txt, also
// read by build.sh's `gamedata` command, which installs what is missing), files that must be there
// (a missing one fails the test, naming the package to install: never a skip), and counts checked
// exactly on the package version they were taken from and as lower bounds on any other.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** package -> { version (the one counted), path (a file it installs) } */
export const PACKAGES = new Map(readFileSync(new URL('packages.txt', import.meta.url), 'latin1').split('\n')
  .filter((line) => line.trim() && !line.startsWith('#'))
  .map((line) => { const [name, version, path] = line.trim().split(/\s+/); return [name, { version, path }]; }));

function known(pkg) {
  const p = PACKAGES.get(pkg);
  if (!p) throw new Error(`${pkg} is not in tests/gamedata/packages.txt`);
  return p;
}

/** path, asserted to exist: a missing file fails with the package that installs it. */
export function gameFile(pkg, path) {
  known(pkg);
  assert.ok(existsSync(path), `${path} is missing: install Debian's ${pkg} (npm run test:gamedata installs it when run as root)`);
  return path;
}

const installed = new Map();
/** The installed version of a Debian package (dpkg-query), or null when dpkg cannot say. */
export function installedVersion(pkg) {
  if (!installed.has(pkg)) {
    let v = null;
    try { v = execFileSync('dpkg-query', ['-W', '-f=${Version}', pkg], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null; } catch { /* not dpkg */ }
    installed.set(pkg, v);
  }
  return installed.get(pkg);
}

/**
 * A count from the package's data: exactly `expected` on the version packages.txt names (the figures
 * the docs quote), at least `expected` on another version (a newer release may ship more files).
 */
export function expectCount(pkg, what, actual, expected) {
  const { version } = known(pkg);
  const have = installedVersion(pkg);
  if (have === version) assert.equal(actual, expected, `${pkg} ${version}: ${what}`);
  else assert.ok(actual >= expected, `${pkg} ${have ?? '(version unknown)'}: ${what}: ${actual}, fewer than the ${expected} of ${version}`);
}

/** Every file under dir (recursively) whose name matches re, sorted. */
export function filesUnder(dir, re) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path, re));
    else if (re.test(name)) out.push(path);
  }
  return out;
}

/** The model evaluated at 16 frames spread over its frames and half-way after each: every position and normal finite. */
export function expectFiniteFrames(model, what) {
  const frames = Math.max(model.frameCount, 1);
  for (let f = 0; f < frames; f += Math.max(1, Math.floor(frames / 16))) {
    for (const t of [f, f + 0.5]) {
      const { positions, normals } = model.evaluate(Math.min(t, frames - 1));
      assert.ok(positions.every(Number.isFinite), `${what} at frame ${t}: positions finite`);
      if (normals) assert.ok(normals.every(Number.isFinite), `${what} at frame ${t}: normals finite`);
    }
  }
}
