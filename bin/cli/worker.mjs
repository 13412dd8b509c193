// The validate worker (started by validate.mjs's pool): one init() each; answers one job per message.
import { parentPort } from 'node:worker_threads';
import { init } from '../../web/interquake.node.js';
import { framegroupsBeside, loadPlayerFolder, missingOverSkins, openArchiveFile, readBytes } from './targets.mjs';
import { kindName, problemOf } from './validate.mjs';

async function workerMain() {
  const iq = await init();
  // What this worker has open, by key (entries of one archive, and players of one folder, come
  // together): an archive read from its file on demand (its directory in memory, not its bytes), or
  // a folder's archives mounted as one file system. The two last used stay open.
  const open = new Map(); // key -> { source, archives }
  const keep = async (key, make) => {
    if (!open.has(key)) {
      if (open.size >= 2) {
        const [oldest, value] = open.entries().next().value;
        open.delete(oldest);
        for (const a of value.archives) a.dispose();
      }
      open.set(key, await make());
    }
    return open.get(key).source;
  };
  const archiveAt = (path) => keep(path, async () => {
    const archive = await openArchiveFile(iq, path);
    return { source: archive, archives: [archive] };
  });
  const mountedAt = (paths) => keep(paths.join('\n'), async () => {
    const archives = [];
    try {
      for (const path of paths) archives.push(await openArchiveFile(iq, path));
    } catch (err) {
      for (const a of archives) a.dispose();
      throw err;
    }
    return { source: iq.mountArchives(archives), archives };
  });
  const check = async (job) => {
    const result = { path: job.path, kind: kindName(job), ok: true, warnings: [] };
    try {
      if (job.type === 'model' || job.type === 'archive-model') {
        const bytes = job.type === 'model' ? await readBytes(job.path) : (await archiveAt(job.archive)).read(job.entry);
        const framegroups = job.type === 'model' ? await framegroupsBeside(job.path)
          : (await archiveAt(job.archive)).has(`${job.entry}.framegroups`) ? (await archiveAt(job.archive)).read(`${job.entry}.framegroups`) : undefined;
        const model = iq.load(bytes, { name: job.path, framegroups });
        result.warnings = model.warnings.map((w) => ({ code: w.code, message: w.message }));
        model.dispose();
      } else {
        const player = job.type === 'player-folder'
          ? (await loadPlayerFolder(iq, job.path)).player
          : iq.loadPlayer(job.type === 'mounted-player' ? await mountedAt(job.archives) : await archiveAt(job.archive), { player: job.entry });
        const missing = missingOverSkins(player);
        result.warnings = [...player.warnings.map((w) => ({ code: w.code, message: w.message })),
          ...[...missing].map((f) => ({ code: 'missing_file', message: `${f} (referenced, not found)` }))];
        player.dispose();
      }
    } catch (err) {
      result.ok = false;
      result.error = problemOf(err, job.path);
    }
    return result;
  };
  parentPort.on('message', async (job) => parentPort.postMessage(await check(job)));
  parentPort.postMessage({ ready: true });
}

if (parentPort) workerMain();
