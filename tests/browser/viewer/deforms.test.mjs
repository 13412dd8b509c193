// <interquake-viewer> drawing deformVertexes and the per-vertex shader forms, in headless Chromium,
// against the C: a quad moved by deformVertexes wave, move and bulge as deformVertices
// (iq_shader_deform_vertices) says at two times, deformVertexes normal seen through lightingDiffuse,
// an autosprite quad facing the camera from two orbits and taking its first vertex's colour, an
// autosprite2 quad pivoting about its long axis where the projected corners say, and the GLSL's
// lightingDiffuse, lightingSpecular and tcGen environment against stageColors / stageTexcoords
// (iq_shader_colors / iq_shader_texcoords) for the quad's vertices.
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
  page = await shaderPage(browser, 'iq-deforms.html');
  await page.evaluate(async () => {
    // The lit pixels' count, box (minX..maxX, minY..maxY, inclusive) and mean x.
    window.box = ({ data, width, height }) => {
      let n = 0; let sx = 0; let minX = width; let maxX = -1; let minY = height; let maxY = -1;
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const i = (y * width + x) * 4;
          if (Math.max(data[i], data[i + 1], data[i + 2]) <= 8) continue;
          n++; sx += x;
          minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
        }
      }
      return { count: n, meanX: n ? sx / n : null, width: maxX - minX + 1, height: maxY - minY + 1, minX, maxX, minY, maxY };
    };
    window.centre = ({ data, width, height }) => {
      const i = ((height >> 1) * width + (width >> 1)) * 4;
      return [data[i], data[i + 1], data[i + 2]];
    };
    // The model's vertices as the C decoded them (positions, normals, texcoords, colours or null).
    window.vertices = (bytes, name = 'q.md3') => {
      const m = iq.load(new Uint8Array(bytes), { name });
      const out = { positions: Float32Array.from(m.positions), normals: Float32Array.from(m.normals), texcoords: Float32Array.from(m.texcoords), colors: m.colors ? Float32Array.from(m.colors) : null };
      m.dispose();
      return out;
    };
    // Each vertex's displacement by the block's deforms at `time`, as the C computes it.
    window.displaced = (model, script, time) => {
      const block = shaders.parseShaderScript(iq, script).shaders[0];
      const v = vertices(model);
      const before = Float32Array.from(v.positions);
      shaders.deformVertices(iq, block, { ...shaders.shaderEnv(iq), time }, v.positions, v.normals, v.texcoords);
      return [...v.positions].map((x, i) => x - before[i]);
    };
  });
});
after(async () => { await page?.close(); await browser?.close(); });

// shader-page.mjs's quad across the default view as an MD3, its normals given apart from its plane.
const md3 = (surface) => [...buildMD3({ surfaces: [surface] }).bytes];
function quad(shader, normal, xyz = [corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, 1)], triangles = [[3, 2, 1], [3, 1, 0]]) {
  return md3({
    name: 'q', shaders: [{ name: shader, index: 0 }],
    triangles,
    texcoords: [[0, 1], [1, 1], [1, 0], [0, 0]],
    frames: [xyz.map((p) => ({ xyz: p, normal }))],
  });
}
// A horizontal normal: MD3's high byte is the azimuth, the low byte the angle from +Z (64: 90 degrees).
const azimuth = (deg) => packNormal(Math.round(((deg % 360) + 360) % 360 / 360 * 255), 64);
const tga = (width, height, pixel) => {
  const pixels = [];
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels.push(...pixel(x, y));
  return [...buildTGA({ width, height, type: 2, depth: 32, alphaBits: 8, topLeft: true, pixels })];
};

test('deformVertexes wave: the quad moves along its normals by what the C says, at two times', { timeout: 120000 }, async () => {
  // Normals along the camera's right (azimuth 35 + 90): the wave slides the quad sideways on screen
  // (by at most 2 units, so it stays inside the picture).
  const script = 'models/t/q\n{\n deformVertexes wave 1000 sin 0 2 0 0.25\n { map $whiteimage\n rgbGen identity\n }\n}\n';
  const model = quad('models/t/q', azimuth(125));
  const r = await page.evaluate(async ([model, script]) => {
    const files = { 'models/t/q.md3': model, 'scripts/t.shader': script };
    const block = shaders.parseShaderScript(iq, script).shaders[0];
    // The C's displacement of the quad's centre, along the camera's right, at each time.
    const moved = (time) => {
      const v = vertices(model);
      const before = [0, 1, 2].map((k) => (v.positions[k] + v.positions[3 + k] + v.positions[6 + k] + v.positions[9 + k]) / 4);
      shaders.deformVertices(iq, block, { ...shaders.shaderEnv(iq), time }, v.positions, v.normals, v.texcoords);
      const after = [0, 1, 2].map((k) => (v.positions[k] + v.positions[3 + k] + v.positions[6 + k] + v.positions[9 + k]) / 4);
      return after.map((x, k) => x - before[k]);
    };
    const shots = {};
    for (const t of [0, 1, 3]) shots[t] = { box: box(await shoot(files, t)), moved: moved(t) };
    return shots;
  }, [model, script]);
  const along = (d) => d[0] * U[0] + d[1] * U[1] + d[2] * U[2];
  assert.ok(Math.abs(along(r[0].moved)) < 0.1, `the C: no move at t 0 (${r[0].moved})`);
  assert.ok(along(r[1].moved) > 1.95 && along(r[3].moved) < -1.95, `the C: +2 at t 1, -2 at t 3 (${r[1].moved}, ${r[3].moved})`);
  const pxPerUnit = r[0].box.width / 20;
  for (const t of [1, 3]) {
    const shift = r[t].box.meanX - r[0].box.meanX;
    const want = (along(r[t].moved) - along(r[0].moved)) * pxPerUnit;
    assert.ok(Math.abs(shift - want) < 1.5, `t ${t}: the quad moved ${shift.toFixed(2)} px, the C says ${want.toFixed(2)} px`);
    assert.ok(Math.abs(r[t].box.width - r[0].box.width) <= 1, 'moved, not resized');
  }
  assert.deepEqual(browser.errors, []);
});

test('deformVertexes autosprite: a flat quad faces the camera from two orbits', { timeout: 120000 }, async () => {
  // A 20x20 quad lying flat (Z up), seen from just above the horizon: nearly edge-on unless turned.
  const flat = [[-10, -10, 0], [10, -10, 0], [10, 10, 0], [-10, 10, 0]];
  const model = () => quad('models/t/q', packNormal(0, 0), flat);
  const script = (deform) => `models/t/q\n{\n ${deform}\n { map $whiteimage\n rgbGen identity\n }\n}\n`;
  const r = await page.evaluate(async ([model, sprite, plain]) => {
    const out = {};
    for (const orbit of ['0deg 85deg auto', '70deg 85deg auto']) {
      out[orbit] = {
        sprite: box(await shoot({ 'models/t/q.md3': model, 'scripts/t.shader': sprite }, 0, { 'camera-orbit': orbit })),
        plain: box(await shoot({ 'models/t/q.md3': model, 'scripts/t.shader': plain }, 0, { 'camera-orbit': orbit })),
      };
    }
    return out;
  }, [model(), script('deformVertexes autosprite'), script('cull none')]);
  const [a, b] = Object.values(r);
  for (const shot of [a, b]) {
    assert.ok(shot.plain.height < shot.plain.width / 4, `without autosprite the quad is nearly edge-on (${JSON.stringify(shot.plain)})`);
    assert.ok(Math.abs(shot.sprite.width - shot.sprite.height) <= 2, `with autosprite a square facing the camera (${JSON.stringify(shot.sprite)})`);
    assert.ok(shot.sprite.count > 0.9 * shot.sprite.width * shot.sprite.height, 'filled (front faces drawn)');
  }
  assert.ok(Math.abs(a.sprite.count - b.sprite.count) <= 0.05 * a.sprite.count, `the same square from both orbits (${a.sprite.count}, ${b.sprite.count})`);
  assert.deepEqual(browser.errors, []);
});

test('GLSL rgbGen lightingDiffuse equals the C\'s iq_shader_colors for three normals', { timeout: 120000 }, async () => {
  const script = 'models/t/q\n{\n { map $whiteimage\n rgbGen lightingDiffuse\n }\n}\n';
  const light = [0.3, 0.5, 0.8];
  const r = await page.evaluate(async ([models, script, light]) => {
    const out = [];
    const stage = shaders.parseShaderScript(iq, script).shaders[0].stages[0];
    const length = Math.hypot(...light);
    const env = { ...shaders.shaderEnv(iq), lightDir: light.map((x) => x / length) };
    for (const model of models) {
      const shot = await shoot({ 'models/t/q.md3': model, 'scripts/t.shader': script }, 0, { 'light-direction': light.join(' ') });
      const v = vertices(model);
      const c = shaders.stageColors(iq, stage, { ...env, viewOrigin: shot.eye }, v.positions, v.normals, null);
      out.push({ pixel: centre(shot), c: [...c.slice(0, 3)].map((x) => Math.round(x * 255)) });
    }
    return out;
  }, [[35, 100, 215].map((deg) => quad('models/t/q', azimuth(deg))), script, light]);
  const seen = new Set();
  for (const { pixel, c } of r) {
    seen.add(c[0]);
    assert.deepEqual(pixel.map((x, k) => Math.abs(x - c[k]) <= 1), [true, true, true], `pixel ${pixel}, the C ${c}`);
  }
  assert.equal(seen.size, 3, 'three normals, three colours');
});

test('GLSL alphaGen lightingSpecular and tcGen environment equal the C\'s per-vertex results', { timeout: 120000 }, async () => {
  // Specular alpha blended over black on white: the pixel is the alpha. Environment: a texture whose
  // red and green are s and t, so the pixel shows the texture coordinate.
  const ramp = tga(64, 64, (x, y) => [x * 4 + 2, y * 4 + 2, 0, 255]);
  const specular = 'models/t/q\n{\n { map $whiteimage\n blendFunc blend\n rgbGen identity\n alphaGen lightingSpecular\n }\n}\n';
  const environment = 'models/t/q\n{\n { clampMap models/t/ramp.tga\n rgbGen identity\n tcGen environment\n }\n}\n';
  const r = await page.evaluate(async ([models, specular, environment, ramp]) => {
    const out = [];
    const spec = shaders.parseShaderScript(iq, specular).shaders[0].stages[0];
    const env = shaders.parseShaderScript(iq, environment).shaders[0].stages[0];
    for (const model of models) {
      const a = await shoot({ 'models/t/q.md3': model, 'scripts/t.shader': specular });
      const b = await shoot({ 'models/t/q.md3': model, 'scripts/t.shader': environment, 'models/t/ramp.tga': ramp });
      const v = vertices(model);
      const e = { ...shaders.shaderEnv(iq), viewOrigin: a.eye };
      const alpha = shaders.stageColors(iq, spec, e, v.positions, v.normals, null);
      const st = shaders.stageTexcoords(iq, env, e, v.positions, v.normals, v.texcoords);
      // The centre of the quad is the middle of the diagonal 1-3 its triangles share.
      out.push({ alphaPixel: centre(a)[0], alpha: 255 * (alpha[7] + alpha[15]) / 2, envPixel: centre(b), st: [(st[2] + st[6]) / 2, (st[3] + st[7]) / 2] });
    }
    return out;
  }, [[20, 60].map((deg) => quad('models/t/q', azimuth(deg))), specular, environment, ramp]);
  for (const { alphaPixel, alpha, envPixel, st } of r) {
    assert.ok(Math.abs(alphaPixel - alpha) <= 3, `specular alpha: pixel ${alphaPixel}, the C ${alpha.toFixed(1)}`);
    const want = st.map((x) => Math.min(Math.max(x * 256, 2), 254));
    assert.ok(Math.abs(envPixel[0] - want[0]) <= 4 && Math.abs(envPixel[1] - want[1]) <= 4, `environment: pixel ${envPixel}, the C's st ${st} (${want})`);
  }
  assert.ok(r.some((x) => x.alpha > 10), `some specular light reaches the camera (${r.map((x) => x.alpha.toFixed(1))})`);
  assert.deepEqual(browser.errors, []);
});

// Along the camera's right (U), the component of vertex i's displacement.
const alongU = (d, i) => d[i * 3] * U[0] + d[i * 3 + 1] * U[1] + d[i * 3 + 2] * U[2];
const block = (lines) => `models/t/q\n{\n ${lines.join('\n ')}\n}\n`;
const WHITE_STAGE = '{ map $whiteimage\n rgbGen identity\n }';

test('deformVertexes move: the quad moves by the C\'s vector times the wave, at two times', { timeout: 120000 }, async () => {
  // The vector is the camera's right: the quad slides sideways on screen by 2 * sin(2 pi t / 4).
  const script = block([`deformVertexes move ${U[0].toFixed(6)} ${U[1].toFixed(6)} 0 sin 0 2 0 0.25`, WHITE_STAGE]);
  const plain = block([WHITE_STAGE]);
  const model = quad('models/t/q', azimuth(35));
  const r = await page.evaluate(async ([model, script, plain]) => {
    const files = (text) => ({ 'models/t/q.md3': model, 'scripts/t.shader': text });
    const out = { plain: box(await shoot(files(plain))) };
    for (const t of [0.5, 3]) out[t] = { box: box(await shoot(files(script), t)), moved: displaced(model, script, t) };
    return out;
  }, [model, script, plain]);
  const pxPerUnit = r.plain.width / 20;
  for (const t of [0.5, 3]) {
    const d = r[t].moved;
    for (let i = 1; i < 4; i++) assert.ok(Math.abs(alongU(d, i) - alongU(d, 0)) < 1e-4, 'move: every vertex by the same vector');
    assert.ok(Math.abs(d[2]) < 1e-4, 'move: nothing along z');
    const shift = r[t].box.meanX - r.plain.meanX;
    const want = alongU(d, 0) * pxPerUnit;
    assert.ok(Math.abs(alongU(d, 0)) > 1.3, `the C moves the quad (${alongU(d, 0)})`);
    assert.ok(Math.abs(shift - want) < 1.5, `t ${t}: the quad moved ${shift.toFixed(2)} px, the C says ${want.toFixed(2)} px`);
    assert.ok(Math.abs(r[t].box.width - r.plain.width) <= 1, 'moved, not resized');
  }
  assert.deepEqual(browser.errors, []);
});

test('deformVertexes bulge: each edge moves along its normals by the C\'s bulge for its s, at two times', { timeout: 120000 }, async () => {
  // Normals along the camera's right: the left edge (s 0) and the right edge (s 1) move sideways by
  // different amounts (width pi/2: a quarter period apart), so the quad moves and changes width.
  const script = block(['deformVertexes bulge 1.5708 2 1', WHITE_STAGE]);
  const plain = block([WHITE_STAGE]);
  const model = quad('models/t/q', azimuth(125));
  const r = await page.evaluate(async ([model, script, plain]) => {
    const files = (text) => ({ 'models/t/q.md3': model, 'scripts/t.shader': text });
    const out = { plain: box(await shoot(files(plain))) };
    for (const t of [0.5, 2]) out[t] = { box: box(await shoot(files(script), t)), moved: displaced(model, script, t) };
    return out;
  }, [model, script, plain]);
  const pxPerUnit = r.plain.width / 20;
  const widths = new Set();
  for (const t of [0.5, 2]) {
    const d = r[t].moved;
    // Vertices 0 and 3 have s 0 (left), 1 and 2 have s 1 (right).
    assert.ok(Math.abs(alongU(d, 0) - alongU(d, 3)) < 1e-4 && Math.abs(alongU(d, 1) - alongU(d, 2)) < 1e-4, 'one bulge per s');
    const left = alongU(d, 0) * pxPerUnit;
    const right = alongU(d, 1) * pxPerUnit;
    assert.ok(Math.abs(left - right) > 2, `t ${t}: the C moves the edges apart differently (${left.toFixed(2)}, ${right.toFixed(2)} px)`);
    const moved = [r[t].box.minX - r.plain.minX, r[t].box.maxX - r.plain.maxX];
    assert.ok(Math.abs(moved[0] - left) < 1.5 && Math.abs(moved[1] - right) < 1.5,
      `t ${t}: the edges moved ${moved} px, the C says ${left.toFixed(2)}, ${right.toFixed(2)} px`);
    widths.add(r[t].box.width);
  }
  assert.equal(widths.size, 2, 'the bulge differs between the two times');
  assert.deepEqual(browser.errors, []);
});

test('deformVertexes normal: lightingDiffuse lights the quad by the C\'s deformed normals', { timeout: 120000 }, async () => {
  // The light mostly from above, so that tilted normals light the quad more or less without saturating.
  const light = [0.2, 0.1, 1];
  const stage = '{ map $whiteimage\n rgbGen lightingDiffuse\n }';
  const script = block(['deformVertexes normal 0.9 1', stage]);
  const plain = block([stage]);
  const model = quad('models/t/q', azimuth(35));
  const r = await page.evaluate(async ([model, script, plain, light]) => {
    const files = (text) => ({ 'models/t/q.md3': model, 'scripts/t.shader': text });
    const parsed = shaders.parseShaderScript(iq, script).shaders[0];
    const length = Math.hypot(...light);
    const attributes = { 'light-direction': light.join(' ') };
    // The C's colours at the quad's centre (the middle of the diagonal 1-3 both triangles share).
    const expected = (time, eye, deform) => {
      const v = vertices(model);
      const env = { ...shaders.shaderEnv(iq), time, viewOrigin: eye, lightDir: light.map((x) => x / length) };
      if (deform) shaders.deformVertices(iq, parsed, env, v.positions, v.normals, v.texcoords);
      const c = shaders.stageColors(iq, parsed.stages[0], env, v.positions, v.normals, null);
      return [0, 1, 2].map((k) => 255 * (c[4 + k] + c[12 + k]) / 2);
    };
    const still = await shoot(files(plain), 0, attributes);
    const out = { plain: { pixel: centre(still), c: expected(0, still.eye, false) } };
    for (const t of [0.5, 3.5]) {
      const shot = await shoot(files(script), t, attributes);
      out[t] = { pixel: centre(shot), c: expected(t, shot.eye, true) };
    }
    return out;
  }, [model, script, plain, light]);
  for (const [key, { pixel, c }] of Object.entries(r)) {
    assert.deepEqual(pixel.map((x, k) => Math.abs(x - c[k]) <= 2), [true, true, true], `${key}: pixel ${pixel}, the C ${c.map((x) => x.toFixed(1))}`);
  }
  for (const t of [0.5, 3.5]) assert.ok(Math.abs(r[t].c[0] - r.plain.c[0]) > 8, `t ${t}: the deformed normals change the light (${r[t].c[0]} vs ${r.plain.c[0]})`);
  assert.ok(Math.abs(r[0.5].c[0] - r[3.5].c[0]) > 4, 'and differently at the two times');
  assert.deepEqual(browser.errors, []);
});

test('deformVertexes autosprite2: a long quad pivots about its long axis toward the camera, from two orbits', { timeout: 120000 }, async () => {
  // 8 wide (along y) and 40 tall (along z), facing +x: face-on from theta 0, nearly edge-on from
  // 70deg; the camera a little further than the framing distance, so that the whole quad is seen.
  // Its triangles are in RB_AddQuadStamp's order (0 1 3, 3 1 2): with it, Autosprite2Deform's
  // direction test (the short edge 0-1 used as it runs, 2-3 not) keeps the quad a rectangle; the
  // order our other quads use would fold it into a bow tie, in Quake 3 as here.
  const xyz = [[0, -4, -20], [0, 4, -20], [0, 4, 20], [0, -4, 20]];
  const model = quad('models/t/q', packNormal(0, 64), xyz, [[0, 1, 3], [3, 1, 2]]);
  const sprite = block(['deformVertexes autosprite2', WHITE_STAGE]);
  const plain = block(['cull none', WHITE_STAGE]);
  const r = await page.evaluate(async ([model, sprite, plain]) => {
    const out = {};
    for (const orbit of ['0deg 78deg 150%', '70deg 78deg 150%']) {
      const shot = await shoot({ 'models/t/q.md3': model, 'scripts/t.shader': sprite }, 0, { 'camera-orbit': orbit });
      out[orbit] = {
        sprite: box(shot), viewProjection: shot.viewProjection, forward: shot.axes.forward, width: shot.width, height: shot.height,
        plain: box(await shoot({ 'models/t/q.md3': model, 'scripts/t.shader': plain }, 0, { 'camera-orbit': orbit })),
      };
    }
    return out;
  }, [model, sprite, plain]);
  // Worked out here: the short edges (0-1 at z -20, 2-3 at z 20) keep their middles; their ends
  // go half their length (4) either way along normalize(major x forward), major = +z. Projected
  // by the camera's matrix, the four corners give the silhouette's box in pixels.
  const expectedBox = ({ viewProjection: m, forward, width, height }) => {
    const minor = [-forward[1], forward[0], 0]; // (0, 0, 40) x forward, normalised
    const length = Math.hypot(minor[0], minor[1]);
    const corners = [];
    for (const z of [-20, 20]) {
      for (const sign of [-1, 1]) {
        const p = [sign * 4 * minor[0] / length, sign * 4 * minor[1] / length, z];
        const clip = [0, 1, 2, 3].map((k) => m[k] * p[0] + m[4 + k] * p[1] + m[8 + k] * p[2] + m[12 + k]);
        corners.push([(clip[0] / clip[3] + 1) / 2 * width, (1 - clip[1] / clip[3]) / 2 * height]);
      }
    }
    return {
      minX: Math.min(...corners.map((c) => c[0])), maxX: Math.max(...corners.map((c) => c[0])),
      minY: Math.min(...corners.map((c) => c[1])), maxY: Math.max(...corners.map((c) => c[1])),
    };
  };
  for (const [orbit, shot] of Object.entries(r)) {
    const want = expectedBox(shot);
    const got = shot.sprite;
    // A lit pixel [x, x + 1) lies at least partly inside [min, max].
    const near = (pixelEdge, edge) => Math.abs(pixelEdge - edge) <= 1.5;
    assert.ok(near(got.minX, want.minX) && near(got.maxX + 1, want.maxX) && near(got.minY, want.minY) && near(got.maxY + 1, want.maxY),
      `${orbit}: drawn ${JSON.stringify(got)}, worked out ${JSON.stringify(want)}`);
    assert.ok(got.count > 0.85 * got.width * got.height, `${orbit}: filled (front faces drawn): ${got.count} of ${got.width * got.height}`);
  }
  const [face, side] = Object.values(r);
  assert.ok(Math.abs(face.sprite.width - face.plain.width) <= 1, `face-on, the pivot changes nothing (${face.sprite.width}, ${face.plain.width})`);
  assert.ok(side.plain.width < 0.6 * side.sprite.width, `from 70deg the plain quad is narrow, the pivoted one is not (${side.plain.width}, ${side.sprite.width})`);
  assert.deepEqual(browser.errors, []);
});

test('deformVertexes autosprite: the rebuilt quad takes its first vertex\'s colour (rgbGen vertex)', { timeout: 120000 }, async () => {
  const colors = [[200, 40, 40, 255], [40, 200, 40, 255], [40, 40, 200, 255], [200, 200, 40, 255]];
  const model = iqmQuad('models/t/q', colors);
  const stage = '{ map $whiteimage\n rgbGen vertex\n }';
  const r = await page.evaluate(async ([model, sprite, plain]) => {
    // Each lit pixel's distance (largest channel difference) from vertex 0's colour.
    const spread = ({ data, width, height }, colour) => {
      const far = [];
      for (let i = 0; i < width * height * 4; i += 4) {
        if (Math.max(data[i], data[i + 1], data[i + 2]) <= 8) continue;
        far.push(Math.max(...[0, 1, 2].map((k) => Math.abs(data[i + k] - colour[k]))));
      }
      return { count: far.length, near: far.filter((d) => d <= 4).length };
    };
    const c0 = [...vertices(model, 'q.iqm').colors.slice(0, 3)].map((x) => Math.round(x * 255));
    const a = await shoot({ 'models/t/q.iqm': model, 'scripts/t.shader': sprite });
    const b = await shoot({ 'models/t/q.iqm': model, 'scripts/t.shader': plain });
    return { c0, sprite: spread(a, c0), centre: centre(a), plain: spread(b, c0) };
  }, [model, block(['deformVertexes autosprite', stage]), block(['cull none', stage])]);
  assert.deepEqual(r.c0, [200, 40, 40], 'the C read the IQM colours');
  assert.ok(r.plain.count > 1000 && r.plain.near < 0.5 * r.plain.count, `without autosprite the colours blend across the quad (${JSON.stringify(r.plain)})`);
  assert.ok(r.sprite.count > 1000, `the sprite is drawn (${r.sprite.count})`);
  assert.ok(r.sprite.near > 0.95 * r.sprite.count, `with autosprite the whole quad is vertex 0's colour (${JSON.stringify(r.sprite)}, centre ${r.centre})`);
  assert.deepEqual(browser.errors, []);
});
