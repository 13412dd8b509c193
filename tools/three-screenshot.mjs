// Takes docs/three.png: web/examples/three.html (the corpus's sarge through Q3PlayerLoader beside the
// demo critter through InterquakeLoader) in headless Chromium, after a fixed amount of play.
// Usage: node tools/three-screenshot.mjs [out.png]   (needs web/ built: bash build.sh wasm)
import { writeFile } from 'node:fs/promises';
import { openBrowser } from '../tests/browser/lib/browser.mjs';

const out = process.argv[2] ?? new URL('../docs/three.png', import.meta.url);
const browser = await openBrowser();
try {
  const page = await browser.newPage();
  await page.setViewportSize({ width: 480, height: 300 });
  await page.goto(`${browser.base}examples/three.html?legs=LEGS_RUN&torso=TORSO_ATTACK`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
  await page.waitForTimeout(700);
  const png = await page.screenshot({ type: 'png' });
  await writeFile(out, png);
  console.log(`${out}: ${png.length} bytes; ${await page.textContent('#status')}`);
  if (browser.errors.length) throw browser.errors[0];
} finally {
  await browser.close();
}
