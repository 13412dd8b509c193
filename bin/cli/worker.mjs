// The validate worker (started by validate.mjs's pool): one init() each; answers one job per message.
import { parentPort } from 'node:worker_threads';
import { init } from '../../web/interquake.node.js';
import { framegroupsBeside, loadPlayerFolder, missingOverSkins, openArchiveFile, readBytes } from './targets.mjs';
import { kindName, problemOf } from './validate.mjs';

async function workerMain() {
  const iq = await init();
  const archives = new Map(); // the archives this worker has open, by path (entries of one archive come together)
  const archiveAt = async (path) => {
    if (!archives.has(path)) {
      if (archives.size >= 2) archives.delete(archives.keys().next().value);
      archives.set(path, await openArchiveFile(iq, path));
    }
    return archives.get(path);
  };
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
          : iq.loadPlayer(await archiveAt(job.archive), { player: job.entry });
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
