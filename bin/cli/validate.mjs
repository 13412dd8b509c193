// interquake validate: the main thread walks and schedules, workers (worker.mjs) load.
import { readdir, stat } from 'node:fs/promises';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { init } from '../../web/interquake.node.js';
import { UsageError } from './errors.mjs';
import { plural, round, SCHEMA } from './info.mjs';
import { ARCHIVE_EXT, isPlayerFolder, kindOf, MODEL_EXT, openArchiveFile } from './targets.mjs';

export function defaultWorkers() {
  return typeof availableParallelism === 'function' ? availableParallelism() : cpus().length || 1;
}

/** An error as { code, where, message }: the API's "file: code (where): detail" taken apart. */
export function problemOf(err, path) {
  const code = err && typeof err.code === 'string' ? err.code : 'internal';
  let message = err && err.message ? String(err.message) : String(err);
  for (const prefix of [`${path}: `, err && err.file ? `${err.file}: ` : null]) {
    if (prefix && message.startsWith(prefix)) message = message.slice(prefix.length);
  }
  let where = null;
  if (message.startsWith(code)) {
    const located = /^ \(([^)]*)\): /.exec(message.slice(code.length));
    if (located) {
      where = located[1];
      message = message.slice(code.length + located[0].length);
    } else if (message.startsWith(`${code}: `)) {
      message = message.slice(code.length + 2);
    }
  }
  return { code, where, message };
}

const problemLine = (path, e) => `${path}: ${e.code}${e.where ? ` (${e.where})` : ''}: ${e.message}`;

/** Everything to check under the given paths: jobs for the workers, and archives the main thread lists. */
export async function walk(paths, iq) {
  const jobs = [];
  const items = []; // results known without a worker (unreadable paths, archives that do not open)
  let bytes = 0; // of the models loaded (archive entries uncompressed)
  let inputBytes = 0; // of the files and archives on disk
  const visit = async (path) => {
    const kind = await kindOf(path);
    if (!kind) {
      items.push({ path, kind: 'file', ok: false, error: { code: 'cannot_read', where: null, message: 'no such file or folder' }, warnings: [] });
      return;
    }
    if (kind === 'folder') {
      if (await isPlayerFolder(path)) jobs.push({ type: 'player-folder', path, weight: 0 });
      const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        const child = join(path, entry.name);
        if (entry.isDirectory()) await visit(child);
        else if (entry.isFile() && (MODEL_EXT.test(entry.name) || ARCHIVE_EXT.test(entry.name))) await visit(child);
      }
      return;
    }
    const size = (await stat(path)).size;
    inputBytes += size;
    if (ARCHIVE_EXT.test(path)) {
      let archive;
      try {
        archive = await openArchiveFile(iq, path);
      } catch (err) {
        items.push({ path, kind: 'archive', ok: false, error: problemOf(err, path), warnings: [] });
        return;
      }
      items.push({ path, kind: 'archive', ok: true, warnings: archive.warnings.map((w) => ({ code: w.code, message: w.message })) });
      for (const p of archive.players) jobs.push({ type: 'archive-player', archive: path, entry: p.path, path: `${path}:${p.path}`, weight: 0 });
      for (const m of archive.models) {
        const entrySize = archive.entry(m).size || 0;
        bytes += entrySize;
        jobs.push({ type: 'archive-model', archive: path, entry: m, path: `${path}:${m}`, weight: entrySize });
      }
      return;
    }
    bytes += size;
    jobs.push({ type: 'model', path, weight: size });
  };
  for (const path of paths) await visit(path);
  return { jobs, items, bytes, inputBytes };
}

// Runs jobs on a pool of workers (workerUrl: validate's worker.mjs, or render's); a job that takes
// longer than timeoutMs, or a worker that dies, costs that job only: the worker is replaced and the
// run goes on.
export function runPool(jobs, workerCount, timeoutMs, onResult, workerUrl = new URL('./worker.mjs', import.meta.url)) {
  return new Promise((resolveAll) => {
    let next = 0;
    let done = 0;
    let deadAtStart = 0;
    const pool = new Set();
    if (!jobs.length) return resolveAll();
    const finish = (slot, result) => {
      clearTimeout(slot.timer);
      slot.job = null;
      onResult(result);
      if (++done === jobs.length) {
        for (const s of pool) s.worker.terminate();
        resolveAll();
      } else if (!slot.dead) {
        give(slot);
      }
    };
    const give = (slot) => {
      if (next >= jobs.length) {
        pool.delete(slot);
        slot.worker.terminate();
        return;
      }
      const job = jobs[next++];
      slot.job = job;
      slot.timer = setTimeout(() => {
        const lost = slot;
        replace(lost);
        finish(lost, { path: job.path, kind: kindName(job), ok: false,
          error: { code: 'timeout', where: null, message: `no answer within ${timeoutMs / 1000} s; its worker was stopped` }, warnings: [] });
      }, timeoutMs);
      slot.worker.postMessage(job);
    };
    const replace = (slot) => {
      pool.delete(slot);
      slot.dead = true;
      slot.worker.removeAllListeners();
      slot.worker.on('error', () => {});
      slot.worker.terminate();
      if (next < jobs.length) start();
    };
    const start = () => {
      const slot = { worker: new Worker(workerUrl), job: null, timer: null, dead: false };
      pool.add(slot);
      slot.worker.on('message', (message) => {
        if (slot.dead) return;
        if (message.ready) give(slot);
        else if (slot.job) finish(slot, message);
      });
      const crashed = (why) => {
        if (slot.dead) return;
        const job = slot.job;
        if (!job && ++deadAtStart > 3) { // workers that cannot even start: fail what is left, once
          slot.dead = true;
          pool.delete(slot);
          while (next < jobs.length) {
            const lost = jobs[next++];
            finish(slot, { path: lost.path, kind: kindName(lost), ok: false, error: { code: 'crash', where: null, message: `no worker could start: ${why}` }, warnings: [] });
          }
          return;
        }
        replace(slot);
        if (job) finish(slot, { path: job.path, kind: kindName(job), ok: false, error: { code: 'crash', where: null, message: `the worker stopped: ${why}` }, warnings: [] });
      };
      slot.worker.on('error', (err) => crashed(err && err.message ? err.message : String(err)));
      slot.worker.on('exit', (code) => crashed(`exit code ${code}`));
    };
    for (let i = 0; i < Math.min(workerCount, jobs.length); i++) start();
  });
}

export const kindName = (job) => (job.type.endsWith('player') || job.type === 'player-folder' ? 'player' : 'model');

export async function commandValidate(positional, options) {
  if (!positional.length) throw new UsageError('validate takes one PATH or more', 'validate');
  const started = performance.now();
  const iq = await init();
  const { jobs, items, bytes, inputBytes } = await walk(positional, iq);
  // Loose files first, then each archive's entries together (a worker keeps two archives open);
  // big items first within each, so the last ones to finish are small.
  const group = (job) => job.archive || '';
  jobs.sort((a, b) => (group(a) < group(b) ? -1 : group(a) > group(b) ? 1 : b.weight - a.weight));
  const workerCount = Math.max(1, Math.min(options.workers || defaultWorkers(), jobs.length || 1));
  const results = [...items];
  const print = (item) => {
    if (options.json) return;
    const lines = [];
    if (!item.ok) lines.push(problemLine(item.path, item.error));
    if (options.warnings) for (const w of item.warnings) lines.push(`${item.path}: warning ${w.code}: ${w.message}`);
    if (lines.length) process.stdout.write(`${lines.join('\n')}\n`);
  };
  items.forEach(print);
  await runPool(jobs, workerCount, (options.timeout ?? 60) * 1000, (result) => {
    results.push(result);
    print(result);
  });
  const seconds = (performance.now() - started) / 1000;
  const failed = results.filter((r) => !r.ok).length;
  const summary = {
    files: results.length,
    ok: results.length - failed,
    failed,
    warnings: results.reduce((s, r) => s + r.warnings.length, 0),
    bytes,
    inputBytes,
    megabytes: round(bytes / 1e6, 3),
    seconds: round(seconds, 3),
    filesPerSecond: round(results.length / seconds, 1),
    megabytesPerSecond: round(bytes / 1e6 / seconds, 2),
    workers: workerCount,
  };
  if (options.json) {
    results.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    process.stdout.write(`${JSON.stringify({ schema: SCHEMA, kind: 'validate', items: results, summary }, null, 2)}\n`);
  } else {
    process.stdout.write(`${summary.files} files: ${summary.ok} ok, ${summary.failed} failed, ${summary.warnings} warnings; ` +
      `${summary.megabytes} MB of models (${round(inputBytes / 1e6, 3)} MB on disk) in ${summary.seconds} s (${summary.filesPerSecond} files/s, ${summary.megabytesPerSecond} MB/s, ` +
      `${plural(workerCount, 'worker')})\n`);
  }
  return failed ? 1 : 0;
}
