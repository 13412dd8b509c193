// Loads a built app in headless Chromium and reports what a user would see: the page's result
// (window.interquakeResult, see apps.mjs), console errors, uncaught errors, failed requests, and
// every response (URL, size, gzip size) so a test can say which WASM was fetched and what it cost.
import { gzipSync } from 'node:zlib';

export async function loadApp(browser, url, { timeout = 60000 } = {}) {
  const page = await browser.context.newPage();
  const problems = [];
  const responses = [];
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console: ${msg.text()}`); });
  page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));
  page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} (${req.failure()?.errorText})`));
  page.on('response', async (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
    const entry = { url: res.url(), type: res.headers()['content-type'] || '', status: res.status() };
    responses.push(entry);
    entry.body = res.body().then((b) => ({ bytes: b.length, gzip: gzipSync(b, { level: 9 }).length }), () => null);
  });
  try {
    await page.goto(url);
    const result = await page.evaluate((ms) => Promise.race([
      window.interquakeResult ?? Promise.resolve({ error: 'the page set no window.interquakeResult' }),
      new Promise((done) => setTimeout(() => done({ error: `no result after ${ms} ms` }), ms)),
    ]), timeout);
    for (const r of responses) Object.assign(r, await r.body);
    return { result, problems, responses };
  } finally {
    await page.close();
  }
}

/** The sum of gzip sizes of the scripts and WASM a page fetched (what the package costs the page). */
export function downloaded(responses) {
  const counted = responses.filter((r) => /\.(m?js|wasm)(\?|$)/.test(new URL(r.url).pathname) && r.gzip !== undefined);
  return {
    files: counted.length,
    bytes: counted.reduce((a, r) => a + r.bytes, 0),
    gzip: counted.reduce((a, r) => a + r.gzip, 0),
  };
}
