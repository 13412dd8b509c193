// <interquake-viewer> drawing deformVertexes and the per-vertex shader forms, in headless Chromium,
// against the C: a quad moved by deformVertexes wave as deformVertices (iq_shader_deform_vertices)
// says at two times, an autosprite quad facing the camera from two orbits, and the GLSL's
// lightingDiffuse, lightingSpecular and tcGen environment against stageColors / stageTexcoords
// (iq_shader_colors / iq_shader_texcoords) for the quad's vertices.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from '../lib/browser.mjs';
import { shaderPage } from '../lib/shader-page.mjs';
import { buildMD3, packNormal } from '../../js/lib/md3-build.mjs';
import { buildTGA } from '../../js/lib/tga-build.mjs';

let browser;
let page;
before(async () => {
  browser = await openBrowser();
  page = await shaderPage(browser, 'iq-deforms.html');
  await page.evaluate(async () => {
    // The lit pixels' count, box and mean x.
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
      return { count: n, meanX: n ? sx / n : null, width: maxX - minX + 1, height: maxY - minY + 1 };
    };
    window.centre = ({ data, width, height }) => {
      const i = ((height >> 1) * width + (width >> 1)) * 4;
      return [data[i], data[i + 1], data[i + 2]];
    };
    // The model's vertices as the C decoded them (positions, normals, texcoords).
    window.vertices = (bytes) => {
      const m = iq.load(new Uint8Array(bytes), { name: 'q.md3' });
      const out = { positions: Float32Array.from(m.positions), normals: Float32Array.from(m.normals), texcoords: Float32Array.from(m.texcoords) };
      m.dispose();
      return out;
    };
  });
});
after(async () => { await page?.close(); await browser?.close(); });

// A vertical quad across the default view (yaw 35 degrees): U is the camera's right; front faces
// clockwise on screen, as Quake 3's. Its normals are given apart from its plane.
const YAW = 35 * Math.PI / 180;
const U = [-Math.sin(YAW), Math.cos(YAW), 0];
const corner = (a, b) => [U[0] * a * 10, U[1] * a * 10, b * 10];
const md3 = (surface) => [...buildMD3({ surfaces: [surface] }).bytes];
function quad(shader, normal, xyz = [corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, 1)]) {
  return md3({
    name: 'q', shaders: [{ name: shader, index: 0 }],
    triangles: [[3, 2, 1], [3, 1, 0]],
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
