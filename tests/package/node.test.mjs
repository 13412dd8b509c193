// Every entry of the packed package in Node, as an app that installed it uses them: ESM import,
// require() (require(esm), Node 20.19+), and the server-side case (the element's module imported
// where there is no DOM: it must not throw, and must not define anything).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEMO } from './lib/apps.mjs';
import { makeApp, removeApps, run } from './lib/pack.mjs';

let app;
let expected;

// Each script prints one JSON line: what it found.
const ESM = `import { readFile } from 'node:fs/promises';
import * as main from 'interquake';
import * as embedded from 'interquake/embedded';
import pkg from 'interquake/package.json' with { type: 'json' };
const bytes = await readFile(process.argv[2]);
const out = { version: pkg.version };
for (const [name, entry] of Object.entries({ main, embedded })) {
  const iq = await entry.init();
  const model = iq.load(bytes, { name: 'critter.iqm' });
  out[name] = { exports: Object.keys(entry).sort(), simd: iq.simd, vertexCount: model.vertexCount, isModel: model instanceof entry.Model,
    error: (() => { try { iq.load(new Uint8Array(8)); } catch (err) { return [err instanceof entry.InterquakeError, err.code]; } })() };
  model.dispose();
}
out.sameLibrary = (await main.init()) === (await embedded.init());
// The software renderer decodes a JPEG texture in Node (jpeg-js, installed as a dependency):
// drawn with it, the model differs from the missing-texture checker a bad JPEG gives.
{
  const iq = await main.init();
  const model = iq.load(bytes, { name: 'critter.iqm' });
  const jpeg = await readFile(process.argv[3]);
  const draw = async (texture) => (await iq.render(model, { width: 48, height: 48, supersample: 1, files: () => texture })).pixels;
  const good = await draw(jpeg);
  const bad = await draw(jpeg.subarray(0, 4));
  out.jpegDrawn = good.some((v, i) => v !== bad[i]);
  model.dispose();
}
// Files the exports map names (resolved, not imported: they are for pages and bundlers)
out.files = ['interquake/interquake.wasm', 'interquake/interquake-baseline.wasm', 'interquake/interquake-viewer.wasm',
  'interquake/interquake-viewer-baseline.wasm', 'interquake/interquake-shaders.wasm', 'interquake/viewer.min.js',
  'interquake/interquake-viewer.min.js', 'interquake/embed.html'].map((s) => import.meta.resolve(s).replace(/^.*node_modules\\//, ''));
console.log(JSON.stringify(out));
`;

const CJS = `const fs = require('node:fs');
const main = require('interquake');
const embedded = require('interquake/embedded');
(async () => {
  const bytes = fs.readFileSync(process.argv[2]);
  const out = {};
  for (const [name, entry] of Object.entries({ main, embedded })) {
    const iq = await entry.init();
    const model = iq.load(bytes);
    out[name] = { vertexCount: model.vertexCount, isModel: model instanceof entry.Model };
  }
  console.log(JSON.stringify(out));
})().catch((err) => { console.error(err); process.exit(1); });
`;

const SSR = `let error = null;
let mod = null;
try { mod = await import('interquake/viewer'); } catch (err) { error = String(err && err.stack || err); }
console.log(JSON.stringify({ error, exports: mod ? Object.keys(mod).sort() : null, customElements: typeof customElements }));
`;
const SSR_CJS = SSR.replace("await import('interquake/viewer')", "require('interquake/viewer')").replace(/^/, '(async () => {\n') + '})();\n';

before(async () => {
  app = await makeApp('node', { 'esm.mjs': ESM, 'cjs.cjs': CJS, 'ssr.mjs': SSR, 'ssr.cjs': SSR_CJS });
  const { init } = await import('../../web/interquake.node.js');
  const model = (await init()).load(new Uint8Array(await readFile(DEMO)));
  expected = model.vertexCount;
  model.dispose();
});
after(removeApps);

const node = async (script) => {
  const jpeg = new URL('../fixtures/jpeg/quadrants.jpg', import.meta.url).pathname;
  const { stdout } = await run(process.execPath, [join(app.dir, script), DEMO, jpeg], { cwd: app.dir });
  return JSON.parse(stdout.trim().split('\n').pop());
};

test('ESM: interquake (the node condition: the WASM read from disk) and interquake/embedded load a model', async () => {
  const out = await node('esm.mjs');
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));
  assert.equal(out.version, pkg.version);
  for (const name of ['main', 'embedded']) {
    assert.equal(out[name].vertexCount, expected, name);
    assert.equal(out[name].isModel, true, name);
    assert.equal(out[name].simd, true, `${name}: Node runs WASM SIMD`);
    assert.deepEqual(out[name].error, [true, 'unknown_format'], name);
    for (const e of ['init', 'InterquakeError', 'Model', 'Instance', 'Interquake', 'simdSupported', 'DEFAULT_FRAMERATE']) {
      assert.ok(out[name].exports.includes(e), `${name} exports ${e}`);
    }
  }
  assert.deepEqual(out.main.exports, out.embedded.exports, 'the two entries export the same names');
  assert.equal(out.sameLibrary, true, 'one library per process, whichever entry asks');
  assert.equal(out.jpegDrawn, true, 'a JPEG texture is decoded in Node (jpeg-js installed with the package)');
  assert.deepEqual(out.files, ['interquake/web/interquake.wasm', 'interquake/web/interquake-baseline.wasm', 'interquake/web/interquake-viewer.wasm',
    'interquake/web/interquake-viewer-baseline.wasm', 'interquake/web/interquake-shaders.wasm', 'interquake/web/interquake-viewer.min.js',
    'interquake/web/interquake-viewer.min.js', 'interquake/web/embed.html']);
});

test('require(): interquake and interquake/embedded from CommonJS (require(esm))', async () => {
  const out = await node('cjs.cjs');
  assert.deepEqual(out.main, { vertexCount: expected, isModel: true });
  assert.deepEqual(out.embedded, { vertexCount: expected, isModel: true });
});

for (const script of ['ssr.mjs', 'ssr.cjs']) {
  const how = script.endsWith('.mjs') ? 'import' : 'require()';
  test(`server side: interquake/viewer by ${how} in Node does not throw and defines nothing`, async () => {
    const out = await node(script);
    assert.equal(out.error, null, out.error);
    assert.ok(out.exports.includes('InterquakeViewerElement'), String(out.exports));
    assert.equal(out.customElements, 'undefined', 'no element registry appeared');
  });
}

test('the command line as installed: node_modules/.bin/interquake runs info, and validate on a worker (bin/cli/ is packed)', async () => {
  const cli = join(app.dir, 'node_modules', '.bin', 'interquake');
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));
  assert.equal((await run(cli, ['--version'], { cwd: app.dir })).stdout.trim(), `interquake ${pkg.version}`);
  const info = JSON.parse((await run(cli, ['info', DEMO, '--json'], { cwd: app.dir })).stdout);
  assert.equal(info.kind, 'model');
  assert.equal(info.vertexCount, expected);
  const validate = JSON.parse((await run(cli, ['validate', DEMO, '--json', '--workers', '1'], { cwd: app.dir })).stdout);
  assert.deepEqual([validate.summary.files, validate.summary.ok, validate.summary.workers], [1, 1, 1]);
  assert.equal(validate.items[0].ok, true);
});
