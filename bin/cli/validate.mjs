// interquake validate: the main thread walks and schedules, workers (worker.mjs) load.
import { open, readdir, stat } from 'node:fs/promises';
import { availableParallelism, cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
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

/**
 * A predicate on file extensions: does the library read files of this kind? From the library's own
 * list of formats (iq.formats), so a reader added to the C is picked up here; "md5mesh" and
 * "md5anim" count as a format "md5".
 */
export function readableExtension(formats) {
  return (ext) => formats.some((f) => ext === f || ((ext === `${f}mesh` || ext === `${f}anim`)));
}

const extensionOfPath = (path) => {
  const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
};

// Bytes enough for the library to tell a format by its signature.
const SNIFF_BYTES = 64;
// Files of one extension asked about before it is taken for "not a model".
const SNIFF_TRIES = 3;

/**
 * Everything to check under the given paths: jobs for the workers, results known at once, and
 * the files skipped, by format. The archives of one folder are mounted together for their players,
 * as the game mounts a folder's pk3s (options.alone: each archive on its own).
 */
export async function walk(paths, iq, options = {}) {
  const jobs = [];
  const items = []; // results known without a worker (unreadable paths, archives that do not open)
  let bytes = 0; // of the models loaded (archive entries uncompressed)
  let inputBytes = 0; // of the files and archives on disk
  const canRead = readableExtension(iq.formats);
  const others = new Map(); // extension -> [{ path, peek() }]: files not opened, by kind
  const folders = new Map(); // folder -> [{ path, archive }]: the archives found there
  const skip = (ext, path, peek) => {
    if (!others.has(ext)) others.set(ext, []);
    others.get(ext).push({ path, peek });
  };
  const visit = async (path, given) => {
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
        const ext = extensionOfPath(entry.name);
        if (entry.isDirectory()) await visit(child, false);
        else if (!entry.isFile()) continue;
        else if (canRead(ext) || ARCHIVE_EXT.test(entry.name)) await visit(child, false);
        else skip(ext, child, () => readPrefix(child));
      }
      return;
    }
    const size = (await stat(path)).size;
    inputBytes += size;
    if (ARCHIVE_EXT.test(path)) {
      let archive;
      try {
        archive = await openArchiveFile(iq, path); // the directory only: entries are read by the workers
      } catch (err) {
        items.push({ path, kind: 'archive', ok: false, error: problemOf(err, path), warnings: [] });
        return;
      }
      items.push({ path, kind: 'archive', ok: true, warnings: archive.warnings.map((w) => ({ code: w.code, message: w.message })) });
      const folder = dirname(resolve(path));
      if (!folders.has(folder)) folders.set(folder, []);
      folders.get(folder).push({ path, archive });
      for (const m of archive.files) {
        const ext = extensionOfPath(m);
        if (!canRead(ext)) {
          skip(ext, `${path}:${m}`, () => archive.peek(m, SNIFF_BYTES));
          continue;
        }
        const entrySize = archive.entry(m).size || 0;
        bytes += entrySize;
        jobs.push({ type: 'archive-model', archive: path, entry: m, path: `${path}:${m}`, weight: entrySize });
      }
      return;
    }
    if (!given && !canRead(extensionOfPath(path))) return;
    bytes += size;
    jobs.push({ type: 'model', path, weight: size }); // a file named on the command line is always tried
  };
  for (const path of paths) await visit(path, true);

  // Players: a folder's archives as one file system (each player once, where the game finds it),
  // or each archive alone.
  for (const group of folders.values()) {
    if (options.alone || group.length === 1) {
      for (const { path, archive } of group) {
        for (const p of archive.players) jobs.push({ type: 'archive-player', archive: path, entry: p.path, path: `${path}:${p.path}`, weight: 0 });
      }
      continue;
    }
    const names = group.map((a) => a.path);
    const fs = iq.mountArchives(group.map((a) => a.archive));
    for (const p of fs.players) {
      const under = `${p.path.toLowerCase()}/`;
      const first = fs.models.find((m) => m.toLowerCase().startsWith(under)) ?? fs.files.find((f) => f.toLowerCase().startsWith(under));
      const source = (first && fs.sourceOf(first)) || names[0];
      jobs.push({ type: 'mounted-player', archives: names, archive: names.join('\n'), entry: p.path, path: `${source}:${p.path}`, weight: 0 });
    }
    fs.dispose();
  }

  // Files not opened: a kind the library names as a model format it does not read is reported
  // (its name from the library's own "unsupported" answer); other kinds (textures, sounds) are not.
  const skipped = [];
  for (const [ext, list] of [...others].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))) {
    let format = null;
    for (const file of list.slice(0, SNIFF_TRIES)) {
      try {
        const head = await file.peek();
        if (!head || !head.length) continue;
        iq.load(head, { name: file.path }).dispose();
      } catch (err) {
        if (err && err.code === 'unsupported') {
          format = problemOf(err, file.path).message.replace(/: interquake does not read it$/, '');
          break;
        }
      }
    }
    if (format) skipped.push({ extension: ext, format, count: list.length, paths: list.map((f) => f.path) });
  }
  for (const group of folders.values()) for (const { archive } of group) archive.dispose();
  return { jobs, items, bytes, inputBytes, skipped };
}

async function readPrefix(path) {
  const handle = await open(path, 'r');
  try {
    const out = new Uint8Array(SNIFF_BYTES);
    const { bytesRead } = await handle.read(out, 0, SNIFF_BYTES, 0);
    return out.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
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
  const { jobs, items, bytes, inputBytes, skipped } = await walk(positional, iq, options);
  // Loose files first, then each archive's entries together (a worker keeps two archives open);
  // big items first within each, so the last ones to finish are small.
  const group = (job) => job.archive || '';
  jobs.sort((a, b) => (group(a) < group(b) ? -1 : group(a) > group(b) ? 1 : b.weight - a.weight));
  const workerCount = Math.max(1, Math.min(options.workers || defaultWorkers(), jobs.length || 1));
  const results = [...items];
  const print = (item) => {
    if (!item.ok) process.exitCode = 1; // the code so far, should the pipe close before the end
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
  summary.skipped = skipped.reduce((n, s) => n + s.count, 0);
  if (options.json) {
    results.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    process.stdout.write(`${JSON.stringify({ schema: SCHEMA, kind: 'validate', items: results, skipped, summary }, null, 2)}\n`);
  } else {
    for (const s of skipped) {
      const examples = s.paths.slice(0, 2).join(', ');
      process.stdout.write(`skipped ${s.count} .${s.extension} (not read yet: ${s.format}), e.g. ${examples}${s.count > 2 ? ', ...' : ''}\n`);
    }
    process.stdout.write(`${summary.files} files: ${summary.ok} ok, ${summary.failed} failed, ${summary.warnings} warnings; ` +
      `${summary.megabytes} MB of models (${round(inputBytes / 1e6, 3)} MB on disk) in ${summary.seconds} s (${summary.filesPerSecond} files/s, ${summary.megabytesPerSecond} MB/s, ` +
      `${plural(workerCount, 'worker')})\n`);
  }
  return failed ? 1 : 0;
}
