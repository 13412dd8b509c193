// interquake/three from the packed tarball, with three installed beside it (the optional peer
// dependency, at the version this repository pins), in apps built as users build them: Vite,
// webpack 5 and Parcel 2 with the plain entry (the WASM as a file the tool copies), esbuild and
// Rollup with interquake/embedded (the WASM inside the JS, handed to the loader with setLibrary).
// Each page loads the demo model with InterquakeLoader (textures through three's LoadingManager)
// and a Quake 3 player from a .pk3 with Q3PlayerLoader, plays both, and reports what it got.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openBrowser } from '../browser/lib/browser.mjs';
import { startServer } from '../../tools/serve.mjs';
import { assets } from './lib/apps.mjs';
import { BIN, ROOT, makeApp, removeApps, run } from './lib/pack.mjs';
import { loadApp } from './lib/page.mjs';
import { buildMD3 } from '../js/lib/md3-build.mjs';
import { buildZip } from '../js/lib/zip-build.mjs';

// A small player: three one-triangle parts on their tags, an animation.cfg of 25 one-frame entries.
function playerPk3() {
  const tri = (name) => ({
    name, shaders: [{ name: `models/players/tiny/${name}.tga`, index: 0 }], triangles: [[0, 1, 2]], texcoords: [[0, 0], [1, 0], [0, 1]],
    frames: [[[0, 0, 0], [10, 0, 0], [0, 10, 0]].map((xyz) => ({ xyz, normal: 0 })), [[0, 0, 1], [10, 0, 1], [0, 10, 1]].map((xyz) => ({ xyz, normal: 0 }))],
  });
  const I = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  const tag = (name, z) => ({ name, frames: [{ origin: [0, 0, z], axes: I }, { origin: [0, 0, z + 1], axes: I }] });
  const files = [
    { name: 'models/players/tiny/lower.md3', data: buildMD3({ tags: [tag('tag_torso', 10)], surfaces: [tri('l_legs')] }).bytes },
    { name: 'models/players/tiny/upper.md3', data: buildMD3({ tags: [tag('tag_head', 8), tag('tag_weapon', 4)], surfaces: [tri('u_torso')] }).bytes },
    { name: 'models/players/tiny/head.md3', data: buildMD3({ surfaces: [{ ...tri('h_head'), frames: [tri('h_head').frames[0]] }] }).bytes },
    { name: 'models/players/tiny/animation.cfg', data: Array(25).fill('0 2 2 10').join('\n') },
  ];
  return buildZip(files.map((f) => ({ ...f, deflate: true }))).bytes;
}

const mainJs = (embedded) => `import * as THREE from 'three';
import { InterquakeLoader, Q3PlayerLoader } from 'interquake/three';
${embedded ? "import { init } from 'interquake/embedded';" : ''}

async function run() {
  const manager = new THREE.LoadingManager();
  const loader = new InterquakeLoader(manager);
  const players = new Q3PlayerLoader(manager);
  ${embedded ? 'const iq = await init(); loader.setLibrary(iq); players.setLibrary(iq);' : ''}
  const gltfLike = await loader.loadAsync('critter.iqm');
  const mixer = new THREE.AnimationMixer(gltfLike.scene);
  mixer.clipAction(gltfLike.animations[0]).play();
  mixer.update(0.1);
  let skinned = 0;
  gltfLike.scene.traverse((o) => { if (o.isSkinnedMesh) skinned++; });
  const sarge = await players.loadAsync('tiny.pk3');
  sarge.setLegsAnimation('LEGS_RUN');
  sarge.update(0.05);
  const renderer = new THREE.WebGLRenderer();
  const scene = new THREE.Scene();
  scene.add(gltfLike.scene, sarge.root, new THREE.AmbientLight(0xffffff, 1));
  renderer.render(scene, new THREE.PerspectiveCamera());
  return {
    vertexCount: gltfLike.model.vertexCount, clips: gltfLike.animations.map((c) => c.name), skinned,
    textures: gltfLike.missingFiles.length === 0, player: sarge.root.name, parts: Object.keys(sarge.parts),
    frames: sarge.frames().legs, threeInstances: window.__THREE__ ? 1 : 0,
  };
}
window.interquakeResult = run().catch((err) => ({ error: String((err && err.stack) || err) }));
`;

const html = (script) => `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>interquake/three</title>${script}</head><body></body></html>\n`;
const MODULE_PAGE = html('<script type="module" src="./main.js"></script>');

const APPS = {
  vite: { embedded: false, files: { 'index.html': MODULE_PAGE }, main: 'main.js', build: (dir) => run(join(BIN, 'vite'), ['build', '--logLevel', 'warn'], { cwd: dir }), out: 'dist', public: true },
  webpack: { embedded: false, files: {}, main: 'src/index.js', build: (dir) => run(join(BIN, 'webpack'), ['--mode', 'production'], { cwd: dir }), out: 'dist', page: html('<script defer src="./main.js"></script>') },
  parcel: { embedded: false, files: { 'index.html': MODULE_PAGE }, main: 'main.js', build: (dir) => run(join(BIN, 'parcel'), ['build', 'index.html', '--no-autoinstall'], { cwd: dir }), out: 'dist' },
  esbuild: { embedded: true, files: {}, main: 'main.js', build: (dir) => run(join(BIN, 'esbuild'), ['main.js', '--bundle', '--format=esm', '--outdir=dist', '--log-level=warning'], { cwd: dir }), out: 'dist', page: MODULE_PAGE },
  rollup: { embedded: true, files: {}, main: 'main.js', build: (dir) => run(join(BIN, 'rollup'), ['main.js', '--dir', 'dist', '--format', 'es', '--plugin', '@rollup/plugin-node-resolve', '--silent'], { cwd: dir }), out: 'dist', page: MODULE_PAGE },
};

let browser;
let expected;
const built = {};
const servers = [];

async function buildApp(name, three) {
  const app = APPS[name];
  const { 'critter.iqm': iqm } = await assets();
  const served = { 'critter.iqm': iqm, 'tiny.pk3': playerPk3(), 'critter.png': await readFile(join(ROOT, 'web', 'demo', 'critter.png')) };
  const files = { ...app.files, [app.main]: mainJs(app.embedded) };
  if (app.public) for (const [k, v] of Object.entries(served)) files[`public/${k}`] = v;
  const { dir, installMs } = await makeApp(`three-${name}`, files);
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', three], { cwd: dir });
  const { ms: buildMs } = await app.build(dir);
  const out = join(dir, app.out);
  if (app.page) await writeFile(join(out, 'index.html'), app.page);
  for (const [k, v] of Object.entries(served)) await writeFile(join(out, k), v);
  return { dir, out, installMs, buildMs };
}

before(async () => {
  const { init } = await import('../../web/interquake.node.js');
  const iq = await init();
  const model = iq.load(new Uint8Array(await readFile(join(ROOT, 'web', 'demo', 'critter.iqm'))));
  expected = { vertexCount: model.vertexCount, clips: model.animations.map((a) => a.name) };
  model.dispose();
  const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8')).packages;
  const three = `three@${lock['node_modules/three'].version}`;
  // two at a time: the machine is shared
  const names = Object.keys(APPS);
  for (let i = 0; i < names.length; i += 2) {
    for (const name of names.slice(i, i + 2)) built[name] = buildApp(name, three);
    await Promise.allSettled(names.slice(i, i + 2).map((n) => built[n]));
  }
  browser = await openBrowser();
});

after(async () => {
  await browser?.close();
  await Promise.all(servers.map((close) => close()));
  await removeApps();
});

for (const [name, app] of Object.entries(APPS)) {
  test(`${name} (${app.embedded ? 'interquake/embedded + ' : ''}interquake/three, three installed beside it): both loaders work in Chromium`, async (t) => {
    const made = await built[name];
    const server = await startServer(0, '127.0.0.1', { root: made.out });
    servers.push(() => new Promise((done) => server.close(done)));
    const loaded = await loadApp(browser, `http://127.0.0.1:${server.address().port}/`);
    assert.deepEqual(loaded.problems, [], `${name}: errors in the page`);
    const r = loaded.result;
    assert.equal(r.error, undefined, r.error);
    assert.equal(r.vertexCount, expected.vertexCount);
    assert.deepEqual(r.clips, expected.clips);
    assert.ok(r.skinned >= 1, 'skinned meshes');
    assert.equal(r.textures, true, 'critter.png found beside the model');
    assert.equal(r.player, 'tiny');
    assert.deepEqual(r.parts, ['lower', 'upper', 'head']);
    assert.equal(r.frames.a, 0);
    const wasm = loaded.responses.filter((x) => new URL(x.url).pathname.endsWith('.wasm'));
    assert.equal(wasm.length, app.embedded ? 0 : 1, wasm.map((x) => x.url).join(', '));
    t.diagnostic(`${name}: install ${made.installMs} ms, build ${made.buildMs} ms`);
  });
}
