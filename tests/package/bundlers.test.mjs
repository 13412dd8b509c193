// The packed package in apps built as users build them, each with the tool's default configuration:
// Vite (build and dev server), webpack 5, Parcel 2 (the plain import: the WASM as files the tool
// copies), esbuild and Rollup with node-resolve only (interquake/embedded: the WASM inside the JS),
// and no bundler at all (the installed files by URL, the one-file element). Each page loads the demo
// model and a .pk3 with a deflated entry through the library, and the .pk3 through the element, in
// Chromium; the test checks what loaded, which WASM was fetched, and that nothing went wrong.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { openBrowser } from '../browser/lib/browser.mjs';
import { startServer } from '../../tools/serve.mjs';
import { APPS, DEMO, buildApp } from './lib/apps.mjs';
import { ROOT, removeApps, tarball } from './lib/pack.mjs';
import { loadApp, downloaded } from './lib/page.mjs';

const WASM_SIZE = (await stat(join(ROOT, 'web', 'interquake.wasm'))).size;
const BASELINE_SIZE = (await stat(join(ROOT, 'web', 'interquake-baseline.wasm'))).size;
// The one-file element's own, smaller build (web/interquake-lite.js).
const VIEWER_SIZE = (await stat(join(ROOT, 'web', 'interquake-viewer.wasm'))).size;

let browser;
let expected; // the demo model's vertex count, as the Node entry of this worktree reads it
const built = {}; // name -> Promise<{ dir, out, installMs, buildMs }>
const servers = [];

before(async () => {
  const { init } = await import('../../web/interquake.node.js');
  const iq = await init();
  const model = iq.load(new Uint8Array(await readFile(DEMO)));
  expected = model.vertexCount;
  model.dispose();
  await tarball();
  // Every app is installed and built at once (the tools wait on each other's I/O more than on the CPU).
  for (const name of Object.keys(APPS)) built[name] = buildApp(name);
  await Promise.allSettled(Object.values(built));
  browser = await openBrowser();
});

after(async () => {
  await browser?.close();
  await Promise.all(servers.map((s) => (typeof s.close === 'function' ? s.close() : null)));
  await removeApps();
});

async function serve(dir) {
  const server = await startServer(0, '127.0.0.1', { root: dir });
  servers.push({ close: () => new Promise((done) => server.close(done)) });
  return `http://127.0.0.1:${server.address().port}/`;
}

// What a page must show: the library loaded both models and the element fired load; nothing logged
// an error; the right WASM came (by size: a file for the two-file layout, none when embedded).
function check(name, { result, problems, responses }, { simd, embedded, withElementBundle = false }) {
  assert.deepEqual(problems, [], `${name}: errors in the page`);
  assert.equal(result.library.error, undefined, `${name}: library: ${result.library.error}`);
  assert.equal(result.element.error, undefined, `${name}: element: ${result.element.error}`);
  assert.equal(result.library.simd, simd);
  assert.equal(result.library.isModel, true, 'instanceof Model holds for what load() returns');
  assert.equal(result.library.vertexCount, expected);
  assert.equal(result.library.packedVertexCount, expected, 'the deflated .pk3 entry inflated to the same model');
  assert.deepEqual(result.element, { vertices: expected, format: 'iqm' });
  const wasm = responses.filter((r) => r.type.includes('application/wasm') || new URL(r.url).pathname.endsWith('.wasm'));
  if (embedded) {
    assert.deepEqual(wasm.map((r) => r.url), [], 'the embedded entry fetches no WASM, for the library or the element');
  } else {
    // one WASM for the library and the element together (they share one library), unless the page
    // holds the one-file element beside the unbundled modules: that one brings its smaller build
    const want = [simd ? WASM_SIZE : BASELINE_SIZE, ...(withElementBundle ? [VIEWER_SIZE] : [])];
    assert.deepEqual(wasm.map((r) => r.bytes).sort(), want.sort(), wasm.map((r) => r.url).join(', '));
  }
}

function report(t, name, app, loaded) {
  const d = downloaded(loaded.responses);
  t.diagnostic(`${name}: install ${app.installMs} ms, build ${app.buildMs} ms; the page fetched ${d.files} JS/WASM files, `
    + `${(d.bytes / 1024).toFixed(1)} KB, ${(d.gzip / 1024).toFixed(1)} KB gzipped`);
}

for (const [name, app] of Object.entries(APPS)) {
  const embedded = app.entry === 'interquake/embedded';
  test(`${name} (${app.entry}): the library and the element load the model and the .pk3 in Chromium`, async (t) => {
    const made = await built[name];
    const base = await serve(made.out);
    const loaded = await loadApp(browser, base);
    report(t, name, made, loaded);
    check(name, loaded, { simd: true, embedded, withElementBundle: name === 'plain' });
    // without a bundler to find 'fflate', both copies inflate with the shipped interquake-inflate.min.js
    const inflaters = loaded.responses.filter((r) => r.url.endsWith('/interquake-inflate.min.js'));
    assert.equal(inflaters.length, name === 'plain' ? 1 : 0, inflaters.map((r) => r.url).join(', '));
    if (name === 'vite' || name === 'esbuild') {
      // init({ simd: false }): the baseline build, from its own file or from the embedded base64
      check(`${name} ?simd=0`, await loadApp(browser, `${base}?simd=0`), { simd: false, embedded });
    }
  });
}

// The dev server serves dependencies from node_modules through its optimizer: the WASM URL once
// came back as index.html there.
test('vite dev server: the WASM is served as WebAssembly, the library and the element load', async (t) => {
  const made = await built.vite;
  const { createServer } = await import('vite');
  const server = await createServer({ root: made.dir, configFile: false, logLevel: 'error', server: { port: 0, host: '127.0.0.1' } });
  await server.listen();
  servers.push(server);
  const base = server.resolvedUrls.local[0];
  const loaded = await loadApp(browser, base);
  report(t, 'vite dev', made, loaded);
  check('vite dev', loaded, { simd: true, embedded: false });
  const wasm = loaded.responses.find((r) => r.url.endsWith('.wasm'));
  assert.match(wasm.type, /application\/wasm/);
});
