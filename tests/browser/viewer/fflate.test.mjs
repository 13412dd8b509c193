// The fflate attribute takes fflate's ESM build or its UMD build, told apart by trying (import()
// first, a classic <script> second), not by the file name: each build is served under a name that
// says nothing (vendor/inflater-a.js, vendor/inflater-b.js), and the places the viewer would
// otherwise look (node_modules/fflate/ beside the package, the dev server's /node_modules/fflate/)
// answer 404 (and so does the shipped interquake-inflate.min.js, except in its own test), so only the
// attribute can inflate. Without an inflater, the message names the attribute.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openBrowser } from '../lib/browser.mjs';
import { elementPage } from '../lib/viewer.mjs';
import { buildZip } from '../../js/lib/zip-build.mjs';

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => { await browser?.close(); });

const root = new URL('../../../', import.meta.url);
const ESM = readFileSync(new URL('node_modules/fflate/esm/browser.js', root));
const UMD = readFileSync(new URL('node_modules/fflate/umd/index.js', root));
// A UMD build as older bundlers wrote them: the global goes on `this`, which only a classic script
// has (in a module `this` is undefined, so import() fails and the <script> must be tried).
const THIS_UMD = UMD.toString('latin1').replace("(typeof self!='undefined'?self:this).fflate=", 'this.fflate=');
const critter = readFileSync(new URL('web/demo/critter.iqm', root));
const pk3 = buildZip([{ name: 'models/critter/critter.iqm', data: new Uint8Array(critter), deflate: true }]).bytes;

async function pageWith(name, fflate, options = {}) {
  const page = await elementPage(browser, name,
    `<interquake-viewer ${fflate ? `fflate="${fflate}"` : ''} style="width:80px;height:80px;display:block"></interquake-viewer>`);
  const requests = [];
  page.on('request', (request) => requests.push(new URL(request.url()).pathname));
  await page.route(/\/fflate\//, (route) => route.fulfill({ status: 404, body: 'not here' }));
  if (!options.shipped) await page.route(/interquake-inflate\.min\.js$/, (route) => route.fulfill({ status: 404, body: 'not here' }));
  await page.route(`${browser.base}vendor/inflater-a.js`, (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: ESM }));
  await page.route(`${browser.base}vendor/inflater-b.js`, (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: UMD }));
  await page.route(`${browser.base}vendor/inflater-c.js`, (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: THIS_UMD }));
  await page.waitForFunction(() => customElements.get('interquake-viewer'));
  const result = await page.evaluate(async (bytes) => {
    const v = document.querySelector('interquake-viewer');
    let error = null;
    try { await v.load({ 'critter.pk3': new Uint8Array(bytes) }); } catch (err) { error = { code: err.code, message: err.message }; }
    return { error, name: v.info?.name ?? null, triangles: v.info?.triangles ?? 0, global: typeof globalThis.fflate?.Inflate };
  }, [...pk3]);
  await page.close();
  return { ...result, requests };
}

test('the deflated .pk3 needs an inflater: with none, the message names the fflate attribute', { timeout: 120000 }, async () => {
  const none = await pageWith('iq-fflate-none.html', null);
  assert.equal(none.error?.code, 'unavailable');
  assert.match(none.error.message, /critter\.pk3: deflated entries need an inflater: set the fflate attribute/);
  const wrong = await pageWith('iq-fflate-wrong.html', 'vendor/nothing.js');
  assert.equal(wrong.error?.code, 'unavailable');
  assert.match(wrong.error.message, /fflate attribute.*vendor\/nothing\.js gave none/);
  assert.deepEqual(browser.errors, []);
});

test('with nothing installed or configured, the inflater shipped beside the element opens the .pk3', { timeout: 120000 }, async () => {
  const r = await pageWith('iq-fflate-shipped.html', null, { shipped: true });
  assert.equal(r.error, null, JSON.stringify(r.error));
  assert.equal(r.name, 'models/critter/critter.iqm');
  assert.ok(r.triangles > 1000);
  assert.ok(r.requests.some((p) => p.endsWith('/interquake-inflate.min.js')), r.requests.join(' '));
  assert.ok(!r.requests.some((p) => p.includes('/fflate/')), 'no fflate package was asked for');
});

test('fflate="<the ESM build>" is imported as a module', { timeout: 120000 }, async () => {
  const r = await pageWith('iq-fflate-esm.html', 'vendor/inflater-a.js');
  assert.equal(r.error, null, JSON.stringify(r.error));
  assert.equal(r.name, 'models/critter/critter.iqm');
  assert.ok(r.triangles > 1000, `the inflated critter is loaded (${r.triangles} triangles)`);
  assert.equal(r.global, 'undefined', 'the ESM build leaves no global: it came from import()');
  assert.ok(r.requests.includes('/vendor/inflater-a.js'));
  assert.deepEqual(browser.errors, []);
});

test('fflate="<the UMD build>" works too', { timeout: 120000 }, async () => {
  const r = await pageWith('iq-fflate-umd.html', 'vendor/inflater-b.js');
  assert.equal(r.error, null, JSON.stringify(r.error));
  assert.equal(r.name, 'models/critter/critter.iqm');
  assert.ok(r.triangles > 1000);
  assert.equal(r.global, 'function', 'the UMD build defines the fflate global');
  assert.deepEqual(browser.errors, []);
});

test('a UMD build that only runs as a classic script is loaded with a <script> after import() fails', { timeout: 120000 }, async () => {
  assert.ok(THIS_UMD.includes('this.fflate=') && THIS_UMD !== UMD.toString('latin1'), 'the test build was made');
  const r = await pageWith('iq-fflate-script.html', 'vendor/inflater-c.js');
  assert.equal(r.error, null, JSON.stringify(r.error));
  assert.equal(r.name, 'models/critter/critter.iqm');
  assert.equal(r.global, 'function');
  assert.equal(r.requests.filter((p) => p === '/vendor/inflater-c.js').length, 2, 'fetched by import() and then by the <script>');
  assert.deepEqual(browser.errors, []);
});
