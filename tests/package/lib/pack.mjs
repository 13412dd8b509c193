// The package as users get it: `npm pack` of this worktree (prepack runs build.sh web), installed
// from the tarball into small throwaway apps. One tarball per test run: the files under
// tests/package/ run as separate processes of one `node --test`, so the first to get here packs
// into a folder named by the runner's pid, the others wait for it and reuse it.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile, stat, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('../../../', import.meta.url)));
/** The project's tools (vite, webpack, parcel, rollup, esbuild, tsc): run with an app as cwd. */
export const BIN = join(ROOT, 'node_modules', '.bin');

/** Runs a command; resolves to { stdout, stderr, ms }, rejects with both outputs in the message. */
export function run(command, args, { cwd, env, timeout = 180000 } = {}) {
  const started = performance.now();
  return new Promise((done, fail) => {
    execFile(command, args, { cwd, env: { ...process.env, ...env }, timeout, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      const ms = Math.round(performance.now() - started);
      if (err) fail(new Error(`${command} ${args.join(' ')} (in ${cwd}) failed: ${err.message}\n${stdout}\n${stderr}`));
      else done({ stdout, stderr, ms });
    });
  });
}

const alive = (pid) => { try { process.kill(pid, 0); return true; } catch (err) { return err.code === 'EPERM'; } };
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const exists = (path) => stat(path).then(() => true, () => false);

const SHARED = join(tmpdir(), 'interquake-package-tests');
let packed;

/**
 * The tarball's path, packed once per `node --test` run (by runner pid; once per process when the
 * file runs alone). Folders left by earlier runs whose runner has exited are removed.
 */
export function tarball() {
  packed ??= (async () => {
    await mkdir(SHARED, { recursive: true });
    for (const name of await readdir(SHARED)) {
      const pid = Number(name.split('-')[1]);
      if (pid && pid !== process.ppid && pid !== process.pid && !alive(pid)) await rm(join(SHARED, name), { recursive: true, force: true });
    }
    const underRunner = Boolean(process.env.NODE_TEST_CONTEXT);
    const dir = join(SHARED, `run-${underRunner ? process.ppid : process.pid}`);
    const lock = join(dir, 'lock');
    const ready = join(dir, 'ready');
    await mkdir(dir, { recursive: true });
    let mine = false;
    try { await mkdir(lock); mine = true; } catch { /* another file of this run is packing */ }
    if (mine) {
      const { stdout, ms } = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: ROOT, timeout: 600000 });
      const [info] = JSON.parse(stdout.slice(stdout.indexOf('[')));
      await writeFile(ready, JSON.stringify({ file: join(dir, info.filename), ms, size: info.size, entries: info.entryCount }));
    } else {
      for (let waited = 0; !(await exists(ready)); waited += 200) {
        if (waited > 600000) throw new Error(`gave up waiting for ${ready}`);
        await sleep(200);
      }
    }
    return JSON.parse(await readFile(ready, 'utf8'));
  })();
  return packed;
}

const made = [];

/**
 * A throwaway app: a folder with package.json, `files` ({ relative path: text or bytes }) and the
 * packed interquake installed from the tarball (npm, offline when the cache has fflate).
 */
export async function makeApp(name, files = {}, { type = 'module' } = {}) {
  const { file } = await tarball();
  const dir = await mkdtemp(join(tmpdir(), `iq-app-${name}-`));
  made.push(dir);
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: `iq-app-${name}`, private: true, version: '0.0.0', type }, null, 2));
  for (const [path, body] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), body);
  }
  const { ms } = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', file], { cwd: dir });
  return { dir, installMs: ms };
}

/** Removes every app this process made. */
export async function removeApps() {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}
