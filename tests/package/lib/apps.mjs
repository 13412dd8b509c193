// The apps the package is tried in: one page (a library load of the demo model and of a .pk3 with a
// deflated entry, and an <interquake-viewer> opening that .pk3), built by each bundler with its
// default configuration, and served as each tool outputs it.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildZip } from '../../js/lib/zip-build.mjs';
import { BIN, ROOT, makeApp, run } from './pack.mjs';

/** The demo model the pages load, and the .pk3 holding it deflated (proves the inflater path). */
export const DEMO = join(ROOT, 'web', 'demo', 'critter.iqm');
export const PK3_ENTRY = 'models/critter/critter.iqm';

export async function assets() {
  const iqm = new Uint8Array(await readFile(DEMO));
  const zip = buildZip([{ name: PK3_ENTRY, data: iqm, deflate: true }, { name: 'readme.txt', data: 'interquake package test\n' }]);
  return { 'critter.iqm': iqm, 'critter.pk3': zip.bytes };
}

/**
 * The page's script: `entry` is what it imports init from ('interquake' or 'interquake/embedded'),
 * `viewer` what registers the element.
 * It sets window.interquakeResult to a promise of { library, element }: what the library loaded
 * (?simd=0 asks init for the baseline build) and what the element's load event reported.
 */
export function mainJs(entry, viewer = 'interquake/viewer') {
  return `import { init, Model } from '${entry}';
import '${viewer}';

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(url + ': HTTP ' + response.status);
  return new Uint8Array(await response.arrayBuffer());
}

async function library() {
  const simd = new URLSearchParams(location.search).get('simd') !== '0';
  const iq = await init(simd ? undefined : { simd: false });
  const model = iq.load(await fetchBytes('critter.iqm'), { name: 'critter.iqm' });
  const archive = await iq.openArchive(await fetchBytes('critter.pk3'), { name: 'critter.pk3' });
  const packed = iq.load(archive.read('${PK3_ENTRY}'), { name: 'critter.pk3' });
  const result = { simd: iq.simd, isModel: model instanceof Model, vertexCount: model.vertexCount, packedVertexCount: packed.vertexCount };
  model.dispose();
  packed.dispose();
  return result;
}

function element() {
  return new Promise((done) => {
    const viewer = document.createElement('interquake-viewer');
    viewer.addEventListener('load', (event) => done({ vertices: event.detail.info.vertices, format: event.detail.format }));
    viewer.addEventListener('error', (event) => done({ error: event.detail.code + ': ' + event.detail.message }));
    viewer.setAttribute('src', 'critter.pk3');
    viewer.style.width = '320px';
    viewer.style.height = '240px';
    document.body.append(viewer);
  });
}

const settle = (promise) => promise.then((value) => value, (err) => ({ error: String((err && err.stack) || err) }));
window.interquakeResult = Promise.all([settle(library()), settle(element())])
  .then(([library, element]) => ({ library, element }));
`;
}

const html = (script) => `<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>interquake package test</title>
${script}</head><body></body></html>
`;
const MODULE_PAGE = html('<script type="module" src="./main.js"></script>');

// Each app: its source files, how the tool builds it (cwd = the app), where the output is, and
// what goes beside the output (the page when the tool does not make one; the assets always).
export const APPS = {
  vite: {
    entry: 'interquake',
    files: { 'index.html': MODULE_PAGE, 'main.js': mainJs('interquake') },
    build: (dir) => run(join(BIN, 'vite'), ['build', '--logLevel', 'warn'], { cwd: dir }),
    out: 'dist',
  },
  webpack: {
    entry: 'interquake',
    files: { 'src/index.js': mainJs('interquake') },
    build: (dir) => run(join(BIN, 'webpack'), ['--mode', 'production'], { cwd: dir }),
    out: 'dist',
    page: html('<script defer src="./main.js"></script>'),
  },
  parcel: {
    entry: 'interquake',
    files: { 'index.html': MODULE_PAGE, 'main.js': mainJs('interquake') },
    build: (dir) => run(join(BIN, 'parcel'), ['build', 'index.html', '--no-autoinstall'], { cwd: dir }),
    out: 'dist',
  },
  esbuild: {
    entry: 'interquake/embedded',
    files: { 'main.js': mainJs('interquake/embedded') },
    build: (dir) => run(join(BIN, 'esbuild'), ['main.js', '--bundle', '--format=esm', '--outdir=dist', '--log-level=warning'], { cwd: dir }),
    out: 'dist',
    page: MODULE_PAGE,
  },
  // No bundler: the page imports the installed package's files by URL (the library's modules and the
  // one-file element), so deflated entries go through interquake-inflate.min.js beside them.
  plain: {
    entry: 'interquake (unbundled) + interquake-viewer.min.js',
    files: {
      'index.html': MODULE_PAGE,
      'main.js': mainJs('./node_modules/interquake/web/interquake.js', './node_modules/interquake/web/interquake-viewer.min.js'),
    },
    build: async () => ({ ms: 0 }),
    out: '.',
  },
  rollup: {
    entry: 'interquake/embedded',
    files: { 'main.js': mainJs('interquake/embedded') },
    build: (dir) => run(join(BIN, 'rollup'), ['main.js', '--dir', 'dist', '--format', 'es', '--plugin', '@rollup/plugin-node-resolve', '--silent'], { cwd: dir }),
    out: 'dist',
    page: MODULE_PAGE,
  },
};

/** Makes, installs and builds one app; resolves to { dir, out, installMs, buildMs }. */
export async function buildApp(name) {
  const app = APPS[name];
  const files = await assets();
  const { dir, installMs } = await makeApp(name, { ...app.files, ...(name === 'vite' ? prefix('public/', files) : {}) });
  const { ms: buildMs } = await app.build(dir);
  const out = join(dir, app.out);
  if (app.page) await writeFile(join(out, 'index.html'), app.page);
  for (const [path, bytes] of Object.entries(files)) await writeFile(join(out, path), bytes);
  return { dir, out, installMs, buildMs };
}

const prefix = (p, files) => Object.fromEntries(Object.entries(files).map(([k, v]) => [p + k, v]));
