// The render --out-dir worker (started by validate.mjs's pool for render.mjs): one init() each;
// renders and writes one job per message.
import { parentPort } from 'node:worker_threads';
import { init } from '../../web/interquake.node.js';
import { renderJob } from './render.mjs';

async function workerMain() {
  const iq = await init();
  parentPort.on('message', async (job) => parentPort.postMessage(await renderJob(iq, job)));
  parentPort.postMessage({ ready: true });
}

if (parentPort) workerMain();
