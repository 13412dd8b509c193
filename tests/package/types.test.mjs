// The packed package's declarations as a TypeScript consumer sees them: tests/package/types/
// consumer.ts compiled with tsc --strict --noEmit in an app that installed the tarball, under
// nodenext (exports, ESM), bundler (exports) and node10 (typesVersions and the subpath folders);
// an older lib (es2020); the element's typed event handlers; and interquake/three against
// @types/three (types/three-consumer.ts, in an app that also installed three and @types/three).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BIN, ROOT, makeApp, removeApps, run } from './lib/pack.mjs';

let app;
let threeApp;
const MODES = {
  nodenext: { module: 'nodenext', moduleResolution: 'nodenext' },
  bundler: { module: 'esnext', moduleResolution: 'bundler' },
  node10: { module: 'commonjs', moduleResolution: 'node10' },
};

before(async () => {
  const source = async (name) => readFile(new URL(`./types/${name}`, import.meta.url), 'utf8');
  const files = Object.fromEntries(await Promise.all(['consumer.ts', 'viewer-events.ts', 'old-lib.ts'].map(async (f) => [`src/${f}`, await source(f)])));
  app = await makeApp('types', files);
  const config = (options, file, lib = ['esnext', 'dom'], target = 'es2022') => JSON.stringify({
    compilerOptions: { ...options, target, lib, strict: true, noEmit: true, skipLibCheck: false, types: [] },
    files: [file],
  }, null, 2);
  for (const [mode, options] of Object.entries(MODES)) await writeFile(join(app.dir, `tsconfig.${mode}.json`), config(options, 'src/consumer.ts'));
  await writeFile(join(app.dir, 'tsconfig.events.json'), config(MODES.bundler, 'src/viewer-events.ts'));
  await writeFile(join(app.dir, 'tsconfig.old-lib.json'), config(MODES.nodenext, 'src/old-lib.ts', ['es2020', 'dom'], 'es2020'));
  // three and @types/three at the versions this repository pins (the peer dependency is optional)
  const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8')).packages;
  const pinned = (name) => `${name}@${lock[`node_modules/${name}`].version}`;
  threeApp = await makeApp('types-three', { 'src/three-consumer.ts': await source('three-consumer.ts') });
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', pinned('three'), pinned('@types/three')], { cwd: threeApp.dir });
  for (const mode of ['nodenext', 'bundler']) await writeFile(join(threeApp.dir, `tsconfig.${mode}.json`), config(MODES[mode], 'src/three-consumer.ts'));
});

const tsc = (project, dir = app.dir) => run(join(BIN, 'tsc'), ['-p', project], { cwd: dir, timeout: 120000 }).catch((err) => err);
after(removeApps);

for (const mode of Object.keys(MODES)) {
  test(`tsc --strict (${mode}): the consumer compiles, misspelled codes and user-made models do not`, async () => {
    const result = await tsc(`tsconfig.${mode}.json`);
    assert.ok(!(result instanceof Error), result.message);
  });
}

test('tsc --strict with lib es2020 (no Symbol.dispose in the lib): the declarations compile', async () => {
  const result = await tsc('tsconfig.old-lib.json');
  assert.ok(!(result instanceof Error), result.message);
});

test('tsc --strict: the element\'s events are added and removed with typed handlers', async () => {
  const result = await tsc('tsconfig.events.json');
  assert.ok(!(result instanceof Error), result.message);
});

for (const mode of ['nodenext', 'bundler']) {
  test(`tsc --strict (${mode}): interquake/three's loaders and player type-check against @types/three`, async () => {
    const result = await tsc(`tsconfig.${mode}.json`, threeApp.dir);
    assert.ok(!(result instanceof Error), result.message);
  });
}
