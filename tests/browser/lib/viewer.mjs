// Helpers for the viewer's browser tests: test pages served at the dev server's origin, and
// pixel statistics of an <interquake-viewer>'s picture (taken through its public toBlob()).

/** Serves `html` at base + name (same origin as web/, so module imports work). */
export async function testPage(browser, name, html) {
  const page = await browser.newPage();
  const url = `${browser.base}${name}`;
  await page.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
  await page.goto(url);
  return page;
}

/** A page with the element script loaded and `body` as its content. */
export function elementPage(browser, name, body, style = '') {
  return testPage(browser, name, `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<style>body { margin: 0; background: #000; } ${style}</style>
<script type="module" src="interquake-viewer.js"></script></head><body>${body}</body></html>`);
}

/**
 * A function measuring the page's JS heap after garbage collection (bytes in use), for the
 * create/remove cycle tests: a CDP session of the page, collected three times before each reading.
 */
export async function heapMeter(page) {
  const cdp = await page.context().newCDPSession(page);
  return async () => {
    for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).usedSize;
  };
}

/** Waits until every element matching `selector` has a model loaded. */
export async function waitLoaded(page, selector = 'interquake-viewer', timeout = 60000) {
  await page.waitForFunction((s) => {
    const all = [...document.querySelectorAll(s)];
    return customElements.get('interquake-viewer') && all.length && all.every((v) => v.loaded);
  }, selector, { timeout });
}

// Runs in the page: installs window.iqPixels(selector) -> statistics of the element's picture.
// "Model pixels" are those that differ from the corner pixel (the background) by more than 24 in
// any channel. Each capture is kept under an id so two pictures can be compared (iqDiff).
export async function installPixelTools(page) {
  await page.evaluate(() => {
    if (window.iqPixels) return;
    window.iqCaptures = [];
    window.iqPixels = async (target, options = {}) => {
      const viewer = typeof target === 'string' ? document.querySelector(target) : target;
      const blob = await viewer.toBlob(options);
      const bitmap = await createImageBitmap(blob);
      const { width, height } = bitmap;
      const canvas = new OffscreenCanvas(width, height);
      const g = canvas.getContext('2d', { willReadFrequently: true });
      g.drawImage(bitmap, 0, 0);
      const data = g.getImageData(0, 0, width, height).data;
      const bg = [data[0], data[1], data[2]];
      let count = 0;
      let minX = width; let minY = height; let maxX = -1; let maxY = -1;
      const sum = [0, 0, 0];
      let magenta = 0;
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const i = (y * width + x) * 4;
          const r = data[i]; const gg = data[i + 1]; const b = data[i + 2];
          if (Math.abs(r - bg[0]) > 24 || Math.abs(gg - bg[1]) > 24 || Math.abs(b - bg[2]) > 24) {
            count++;
            sum[0] += r; sum[1] += gg; sum[2] += b;
            if (x < minX) minX = x; if (x > maxX) maxX = x;
            if (y < minY) minY = y; if (y > maxY) maxY = y;
            if (r > 150 && b > 150 && gg < 60) magenta++;
          }
        }
      }
      window.iqCaptures.push(data);
      return {
        id: window.iqCaptures.length - 1, width, height, background: bg, count, magenta,
        box: count ? { minX, minY, maxX, maxY } : null,
        mean: count ? sum.map((s) => Math.round(s / count)) : null,
      };
    };
    // Pixels whose colour differs by more than 24 in any channel between two captures.
    window.iqDiff = (a, b) => {
      const x = window.iqCaptures[a];
      const y = window.iqCaptures[b];
      if (x.length !== y.length) return Infinity;
      let n = 0;
      for (let i = 0; i < x.length; i += 4) {
        if (Math.abs(x[i] - y[i]) > 24 || Math.abs(x[i + 1] - y[i + 1]) > 24 || Math.abs(x[i + 2] - y[i + 2]) > 24) n++;
      }
      return n;
    };
    // Mean colour of model pixels in a horizontal band [y0, y1) of a capture (fractions of the height).
    window.iqBand = (id, width, y0, y1) => {
      const d = window.iqCaptures[id];
      const height = d.length / 4 / width;
      const bg = [d[0], d[1], d[2]];
      let n = 0;
      for (let y = Math.floor(y0 * height); y < Math.floor(y1 * height); y++) {
        for (let x = 0; x < width; x++) {
          const i = (y * width + x) * 4;
          if (Math.abs(d[i] - bg[0]) > 24 || Math.abs(d[i + 1] - bg[1]) > 24 || Math.abs(d[i + 2] - bg[2]) > 24) n++;
        }
      }
      return n;
    };
  });
}
