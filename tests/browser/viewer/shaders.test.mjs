// <interquake-viewer> drawing Quake 3 shader-script stages (web/viewer/shaderdraw.js), in headless
// Chromium, checked by pixels: a quad MD3 facing the default camera, small TGAs built here, and
// scripts beside the model. Expected colours and texture shifts come from the C (waveValue,
// evaluateStage), loaded in the page.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from '../lib/browser.mjs';
import { shaderPage, YAW, U, corner, iqmQuad } from '../lib/shader-page.mjs';
import { buildMD3, packNormal } from '../../js/lib/md3-build.mjs';
import { buildTGA } from '../../js/lib/tga-build.mjs';

let browser;
let page;
before(async () => {
  browser = await openBrowser();
  page = await shaderPage(browser, 'iq-shaders.html');
  await page.evaluate(async () => {
    // Model pixels (not black), their mean colour, and the mean x (0..1 across the model's box) of
    // those matching `pick`.
    window.stats = ({ data, width, height }, pick = () => false) => {
      let n = 0; const sum = [0, 0, 0]; let minX = width; let maxX = -1; let picked = 0; let pickedX = 0;
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const i = (y * width + x) * 4;
          const c = [data[i], data[i + 1], data[i + 2]];
          if (Math.max(...c) <= 8) continue;
          n++; for (let k = 0; k < 3; k++) sum[k] += c[k];
          minX = Math.min(minX, x); maxX = Math.max(maxX, x);
          if (pick(c)) { picked++; pickedX += x; }
        }
      }
      return { count: n, mean: n ? sum.map((s) => s / n) : null, picked, pickedX: picked ? (pickedX / picked - minX) / (maxX - minX) : null };
    };
    // The centre pixel.
    window.centre = ({ data, width, height }) => {
      const i = ((height >> 1) * width + (width >> 1)) * 4;
      return [data[i], data[i + 1], data[i + 2]];
    };
  });
});
after(async () => { await page?.close(); await browser?.close(); });

// A vertical quad across the default view (yaw 35 degrees): u is the camera's right, texcoords
// s 0..1 from left to right, t 0..1 from top to bottom; front faces clockwise on screen, as Quake 3's.
const NORMAL = packNormal(Math.round(35 / 360 * 255), 64);
function quadSurface(name, shader, { back = false, offset = 0 } = {}) {
  const xyz = [corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, 1)]
    .map((p) => [p[0] + Math.cos(YAW) * offset, p[1] + Math.sin(YAW) * offset, p[2]]);
  return {
    name, shaders: [{ name: shader, index: 0 }],
    triangles: back ? [[1, 2, 3], [0, 1, 3]] : [[3, 2, 1], [3, 1, 0]],
    texcoords: [[0, 1], [1, 1], [1, 0], [0, 0]],
    frames: [xyz.map((p) => ({ xyz: p, normal: NORMAL }))],
  };
}
const md3 = (...surfaces) => [...buildMD3({ surfaces }).bytes];
const tga = (width, height, pixel) => {
  const pixels = [];
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels.push(...pixel(x, y));
  return [...buildTGA({ width, height, type: 2, depth: 32, alphaBits: 8, topLeft: true, pixels })];
};
const GREY = tga(4, 4, () => [100, 100, 100, 255]);

test('blendFunc add over a base: the pixels are brighter by the added colour', { timeout: 120000 }, async () => {
  const script = (extra) => `models/t/q\n{\n { map models/t/grey.tga\n rgbGen identity\n }\n${extra}}\n`;
  const files = (extra) => ({ 'models/t/q.md3': md3(quadSurface('q', 'models/t/q')), 'models/t/grey.tga': GREY, 'scripts/t.shader': script(extra) });
  const r = await page.evaluate(async ([base, added]) => {
    const a = await shoot(base);
    const b = await shoot(added);
    return { base: centre(a), added: centre(b), missing: a.missing, warnings: b.warnings };
  }, [files(''), files(' { map $whiteimage\n blendFunc add\n rgbGen const ( 0.2 0.4 0 )\n }\n')]);
  assert.deepEqual(r.missing, [], 'the block name is not a missing file');
  assert.deepEqual(r.warnings, []);
  for (const k of [0, 1, 2]) assert.ok(Math.abs(r.base[k] - 100) <= 2, `base stage drawn unlit with rgbGen identity: ${r.base}`);
  // const (0.2 0.4 0) is bytes 51, 102, 0 (the C's (int)(255 * c)), added to 100.
  assert.deepEqual(r.added.map((c, k) => Math.abs(c - [151, 202, 100][k]) <= 2), [true, true, true], `added: ${r.added}`);
  assert.deepEqual(browser.errors, []);
});

test('alphaFunc GE128: the cut-out half shows the background', { timeout: 120000 }, async () => {
  // Left half opaque white, right half alpha 100 (< 128).
  const cut = tga(4, 4, (x) => [255, 255, 255, x < 2 ? 255 : 100]);
  const files = (test) => ({
    'models/t/q.md3': md3(quadSurface('q', 'models/t/q')), 'models/t/cut.tga': cut,
    'scripts/t.shader': `models/t/q\n{\n { map models/t/cut.tga\n ${test}\n rgbGen identity\n }\n}\n`,
  });
  const r = await page.evaluate(async ([all, tested]) => {
    const white = (c) => c[0] > 200;
    return { all: stats(await shoot(all), white), cut: stats(await shoot(tested), white) };
  }, [files(''), files('alphaFunc GE128')]);
  assert.ok(r.all.count > 2000, `the quad is drawn (${r.all.count})`);
  const ratio = r.cut.count / r.all.count;
  assert.ok(ratio > 0.4 && ratio < 0.6, `about half the quad is cut away (${ratio})`);
  assert.ok(r.cut.pickedX < 0.3, `what is left is the left half (mean x ${r.cut.pickedX})`);
});

test('rgbGen wave: the colour at two times is the wave the C computes', { timeout: 120000 }, async () => {
  const files = {
    'models/t/q.md3': md3(quadSurface('q', 'models/t/q')),
    'scripts/t.shader': 'models/t/q\n{\n { map $whiteimage\n rgbGen wave sin 0.5 0.5 0 0.5\n }\n}\n',
  };
  const r = await page.evaluate(async (f) => {
    const out = [];
    for (const t of [0.3, 1.4]) {
      const v = shaders.waveValue(iq, { func: 'sin', base: 0.5, amplitude: 0.5, phase: 0, frequency: 0.5 }, t);
      out.push({ t, expected: Math.floor(255 * Math.min(Math.max(v, 0), 1)), got: centre(await shoot(f, t)) });
    }
    return out;
  }, files);
  assert.notEqual(r[0].expected, r[1].expected);
  for (const { t, expected, got } of r) {
    for (const c of got) assert.ok(Math.abs(c - expected) <= 2, `t=${t}: ${got} vs the C's ${expected}`);
  }
});

test('tcMod scroll: the texture is shifted as the C matrix says', { timeout: 120000 }, async () => {
  // Red first quarter of s, blue the rest.
  const stripe = tga(4, 1, (x) => (x === 0 ? [255, 0, 0, 255] : [0, 0, 255, 255]));
  const text = 'models/t/q\n{\n { map models/t/stripe.tga\n rgbGen identity\n tcMod scroll 0.25 0\n }\n}\n';
  const files = { 'models/t/q.md3': md3(quadSurface('q', 'models/t/q')), 'models/t/stripe.tga': stripe, 'scripts/t.shader': text };
  const r = await page.evaluate(async ([f, script]) => {
    const stage = shaders.parseShaderScript(iq, script).shaders[0].stages[0];
    const out = [];
    for (const t of [0, 2.2]) {
      const state = shaders.evaluateStage(iq, stage, { ...shaders.shaderEnv(iq), time: t });
      const red = stats(await shoot(f, t), (c) => c[0] > 150 && c[2] < 100);
      out.push({ t, shift: state.before[4], x: red.pickedX });
    }
    return out;
  }, [files, text]);
  for (const { t, shift, x } of r) {
    // Red where frac(s + shift) < 0.25: centred on s = frac(0.125 - shift).
    const expected = (((0.125 - shift) % 1) + 1) % 1;
    assert.ok(Math.abs(x - expected) < 0.07, `t=${t}: red centred at ${x}, the C's shift ${shift} puts it at ${expected}`);
  }
  assert.ok(Math.abs(r[1].x - r[0].x) > 0.4, 'it moved');
});

test('cull disable draws back faces; the default cull hides them', { timeout: 120000 }, async () => {
  const files = (cull) => ({
    'models/t/q.md3': md3(quadSurface('q', 'models/t/q', { back: true })),
    'scripts/t.shader': `models/t/q\n{\n ${cull}\n { map $whiteimage\n }\n}\n`,
  });
  const r = await page.evaluate(async ([culled, shown]) => ({ culled: stats(await shoot(culled)).count, shown: stats(await shoot(shown)).count }),
    [files(''), files('cull disable')]);
  assert.ok(r.culled < 10, `back faces culled by default (${r.culled})`);
  assert.ok(r.shown > 2000, `cull disable draws them (${r.shown})`);
});

test('translucent surfaces are drawn in the order of their sort values, not the model order', { timeout: 120000 }, async () => {
  // Two coplanar half-transparent quads, red listed first; the one drawn last dominates.
  const block = (name, rgb, sort) => `models/t/${name}\n{\n sort ${sort}\n { map $whiteimage\n blendFunc blend\n rgbGen const ( ${rgb} )\n alphaGen const 0.5\n }\n}\n`;
  const files = (redSort, blueSort) => ({
    'models/t/q.md3': md3(quadSurface('r', 'models/t/red'), quadSurface('b', 'models/t/blue')),
    'scripts/t.shader': block('red', '1 0 0', redSort) + block('blue', '0 0 1', blueSort),
  });
  const r = await page.evaluate(async ([a, b]) => ({ redLast: centre(await shoot(a)), blueLast: centre(await shoot(b)) }),
    [files(10, 6), files(6, 10)]);
  // Over black: the first gives 0.5 of its colour, the second halves it and adds 0.5 of its own.
  assert.ok(r.redLast[0] > 100 && r.redLast[2] < 80 && r.redLast[2] > 40, `red drawn last: ${r.redLast}`);
  assert.ok(r.blueLast[2] > 100 && r.blueLast[0] < 80 && r.blueLast[0] > 40, `blue drawn last: ${r.blueLast}`);
  assert.deepEqual(browser.errors, []);
});

test('the one-file bundle fetches the shader drawer and interquake-shaders.wasm only for a model with script blocks', { timeout: 120000 }, async () => {
  const p = await browser.newPage();
  const code = [];
  p.on('request', (request) => { if (/\.(js|wasm)$/.test(request.url())) code.push(new URL(request.url()).pathname); });
  const url = `${browser.base}iq-shaders-bundle.html`;
  await p.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: `<!doctype html><html><head>
    <link rel="icon" href="data:,"><script type="module" src="interquake-viewer.min.js"></script></head><body>
    <interquake-viewer background="black" style="width:120px;height:120px;display:block"></interquake-viewer></body></html>` }));
  await p.goto(url);
  const files = (script) => ({ 'models/t/q.md3': md3(quadSurface('q', 'models/t/q')), 'models/t/q.tga': GREY, ...script });
  // The scripted quad is an autosprite: turned by the C in interquake-shaders.wasm (autospriteVertices).
  const r = await p.evaluate(async ([plain, scripted]) => {
    await customElements.whenDefined('interquake-viewer');
    const v = document.querySelector('interquake-viewer');
    const bytes = (f) => Object.fromEntries(Object.entries(f).map(([k, a]) => [k, typeof a === 'string' ? new TextEncoder().encode(a) : new Uint8Array(a)]));
    const read = async () => {
      v.renderFrame(0);
      const bitmap = await createImageBitmap(await v.toBlob());
      const g = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d');
      g.drawImage(bitmap, 0, 0);
      const d = g.getImageData(bitmap.width >> 1, bitmap.height >> 1, 1, 1).data;
      return [d[0], d[1], d[2]];
    };
    await v.load(bytes(plain));
    const before = performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((n) => /\.(js|wasm)$/.test(n));
    await v.load(bytes(scripted));
    return { before, centre: await read() };
  }, [files({}), files({ 'scripts/t.shader': 'models/t/q\n{\n deformVertexes autosprite\n { map $whiteimage\n rgbGen const ( 0 1 0 )\n }\n}\n' })]);
  assert.deepEqual(r.before, ['/interquake-viewer.min.js', '/interquake-viewer.wasm'], 'a plain model fetches no drawer and no shader WASM');
  assert.deepEqual(code, ['/interquake-viewer.min.js', '/interquake-viewer.wasm', '/interquake-shaders.wasm', '/interquake-shaders.min.js']);
  assert.ok(r.centre[1] > 240 && r.centre[0] < 10 && r.centre[2] < 10, `the bundled drawer draws the stage (${r.centre})`);
  assert.deepEqual(browser.errors, []);
  await p.close();
});

test('rgbGen vertex, exactVertex and oneMinusVertex: the IQM\'s vertex colours as the C computes them', { timeout: 120000 }, async () => {
  const colors = [[40, 90, 150, 255], [60, 110, 170, 255], [80, 130, 190, 255], [100, 70, 130, 255]];
  const model = iqmQuad('models/t/q', colors);
  const script = (gen) => `models/t/q\n{\n cull none\n { map $whiteimage\n rgbGen ${gen}\n }\n}\n`;
  const r = await page.evaluate(async ([model, scripts]) => {
    const m = iq.load(new Uint8Array(model), { name: 'q.iqm' });
    const v = { positions: Float32Array.from(m.positions), normals: Float32Array.from(m.normals), colors: Float32Array.from(m.colors) };
    m.dispose();
    const out = {};
    for (const [gen, text] of Object.entries(scripts)) {
      const stage = shaders.parseShaderScript(iq, text).shaders[0].stages[0];
      const shot = await shoot({ 'models/t/q.iqm': model, 'scripts/t.shader': text });
      const c = shaders.stageColors(iq, stage, { ...shaders.shaderEnv(iq), viewOrigin: shot.eye }, v.positions, v.normals, v.colors);
      // The centre of the quad is the middle of the diagonal 1-3 its triangles share.
      out[gen] = { pixel: centre(shot), c: [0, 1, 2].map((k) => 255 * (c[4 + k] + c[12 + k]) / 2), warnings: shot.warnings };
    }
    return out;
  }, [model, Object.fromEntries(['vertex', 'exactVertex', 'oneMinusVertex'].map((g) => [g, script(g)]))]);
  // Identity light 1 (no overbright bits): vertex and exactVertex are the colours, oneMinusVertex 255 minus them.
  const mid = [0, 1, 2].map((k) => (colors[1][k] + colors[3][k]) / 2);
  assert.deepEqual(r.vertex.c.map((x, k) => Math.abs(x - mid[k]) < 0.6), [true, true, true], `the C: vertex ${r.vertex.c}`);
  assert.deepEqual(r.oneMinusVertex.c.map((x, k) => Math.abs(x - (255 - mid[k])) < 0.6), [true, true, true], `the C: oneMinusVertex ${r.oneMinusVertex.c}`);
  for (const [gen, { pixel, c, warnings }] of Object.entries(r)) {
    assert.deepEqual(warnings, []);
    assert.deepEqual(pixel.map((x, k) => Math.abs(x - c[k]) <= 3), [true, true, true], `${gen}: pixel ${pixel}, the C ${c.map((x) => x.toFixed(1))}`);
  }
  assert.deepEqual(browser.errors, []);
});

test('the shader clock runs while the animation is paused; renderFrame holds it until play()', { timeout: 120000 }, async () => {
  // Two identical frames (an animation that stays paused) and a sawtooth colour of period 2 s.
  const surface = quadSurface('q', 'models/t/q');
  surface.frames = [surface.frames[0], surface.frames[0]];
  const files = {
    'models/t/q.md3': md3(surface),
    'scripts/t.shader': 'models/t/q\n{\n { map $whiteimage\n rgbGen wave sawtooth 0.1 0.8 0 0.5\n }\n}\n',
  };
  const r = await page.evaluate(async (f) => {
    const v = document.createElement('interquake-viewer');
    v.setAttribute('background', 'black');
    v.style.cssText = 'width:120px;height:120px;display:inline-block';
    document.body.appendChild(v);
    await v.load(Object.fromEntries(Object.entries(f).map(([k, a]) => [k, typeof a === 'string' ? new TextEncoder().encode(a) : new Uint8Array(a)])));
    const wave = (t) => Math.floor(255 * Math.min(Math.max(shaders.waveValue(iq, { func: 'sawtooth', base: 0.1, amplitude: 0.8, phase: 0, frequency: 0.5 }, t), 0), 1));
    const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
    // toBlob draws synchronously with the shader time read just before.
    const look = async () => {
      const time = v._shaderNow();
      const bitmap = await createImageBitmap(await v.toBlob());
      const g = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d');
      g.drawImage(bitmap, 0, 0);
      const d = g.getImageData(bitmap.width >> 1, bitmap.height >> 1, 1, 1).data;
      return { time, expected: wave(time), pixel: d[0], paused: v.paused, currentTime: v.currentTime, draws: v._drawCount };
    };
    await sleep(200);
    const a = await look();
    await sleep(700);
    const b = await look();
    v.renderFrame(0);
    const c = await look();
    await sleep(400);
    const d = await look();
    v.play();
    v.pause();
    await sleep(400);
    const e = await look();
    const frames = v.frameCount;
    v.remove();
    return { frames, a, b, c, d, e };
  }, files);
  const { a, b, c, d, e } = r;
  assert.equal(r.frames, 2, 'the model has an animation');
  for (const shot of [a, b]) {
    assert.ok(shot.paused && shot.currentTime === 0, `the animation stays paused at 0 (${JSON.stringify(shot)})`);
    assert.ok(Math.abs(shot.pixel - shot.expected) <= 2, `the colour is the C's wave at the shader time (${JSON.stringify(shot)})`);
  }
  assert.ok(b.time - a.time > 0.3, `the shader clock ran while paused (${a.time} -> ${b.time})`);
  assert.ok(b.draws - a.draws > 3, `and the element kept drawing (${b.draws - a.draws} frames)`);
  assert.ok(Math.abs(b.pixel - a.pixel) > 40, `the picture changed (${a.pixel} -> ${b.pixel})`);
  assert.ok(c.time === 0 && d.time === 0 && Math.abs(c.pixel - c.expected) <= 2 && d.pixel === c.pixel,
    `renderFrame(0) holds the shader clock at the frame's time (${JSON.stringify([c, d])})`);
  assert.ok(d.draws - c.draws <= 1, `nothing moves, nothing is drawn (${d.draws - c.draws})`);
  assert.ok(e.time > b.time + 0.2 && Math.abs(e.pixel - e.expected) <= 2, `play() lets it run again from where it was (${JSON.stringify(e)})`);
  assert.deepEqual(browser.errors, []);
});
