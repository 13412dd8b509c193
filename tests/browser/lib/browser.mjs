// Starts the dev server on a free port and a headless Chromium (Debian's, driven
// by playwright-core) with the flags that work on these machines.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../../../tools/serve.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export async function openBrowser() {
  const server = await startServer(0);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const profile = await mkdtemp(join(tmpdir(), 'iq-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--enable-unsafe-swiftshader',
      '--use-angle=swiftshader', '--ignore-gpu-blocklist',
    ],
    viewport: { width: 800, height: 600 },
  });
  const errors = [];
  const newPage = async () => {
    const page = await context.newPage();
    page.on('pageerror', (err) => errors.push(err));
    return page;
  };
  return {
    base,
    context,
    errors,
    newPage,
    async close() {
      await context.close();
      await new Promise((done) => server.close(done));
      await rm(profile, { recursive: true, force: true });
    },
  };
}
