// iq.render() and friends (web/render/): pictures with known answers from built models, the C's
// camera against the element's OrbitCamera, every corpus model and the corpus player, the PNG,
// APNG and sprite-sheet writers read back, and bad options refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';
import { init } from 'interquake';
import { buildIQM } from '../lib/iqm-build.mjs';
import { buildMD3 } from '../lib/md3-build.mjs';
import { gameFiles, gunFiles } from '../lib/q3-corpus.mjs';
import { OrbitCamera, parseOrbit, DEG } from '../../../web/scene/camera.js';
import { decodePNG } from '../../../web/core/images.js';
import { openTarget } from '../../../bin/cli/targets.mjs';

const iq = await init();
const corpus = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));
const MODELS = ['iqm/mrfixit/mrfixit.iqm', 'iqm/raylib/guy.iqm', 'iqm/raylib/vertex_colored_object.iqm', 'iqm/extension/door2.iqm',
  'md3/assimp/watercan.md3', 'md3/assimp/watercan_dmg.md3', 'md3/assimp/european_fnt_v2.md3', 'iqe/unvanquished/jetpack.iqe',
  'iqe/unvanquished/missiles/rocket/rocket.iqe', 'iqe/unvanquished/weapons/level1/vwep_view.iqe'];
const sarge = join(corpus, 'md3/openarena/models/players/sarge');
const filesBeside = (path) => (name) => { try { return readFileSync(join(dirname(path), name)); } catch { return null; } };

// A 10x10 square in the YZ plane facing +X (clockwise seen from +X: a Quake front face), one colour.
function square(color = [1, 0.5, 0.25, 1], material) {
  const position = [0, -5, -5, 0, -5, 5, 0, 5, 5, 0, 5, -5];
  return iq.load(buildIQM({
    vertexArrays: [
      { type: 'position', format: 'float', size: 3, data: position },
      { type: 'normal', format: 'float', size: 3, data: [1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0] },
      { type: 'texcoord', format: 'float', size: 2, data: [0, 1, 0, 0, 1, 0, 1, 1] },
      { type: 'color', format: 'float', size: 4, data: [...color, ...color, ...color, ...color] },
    ],
    triangles: [[0, 1, 2], [0, 2, 3]],
    meshes: [{ name: 'square', material }],
  }).bytes, { name: 'square.iqm' });
}
// From +X at 10 units with a 90-degree view: the square fills the middle half of the picture.
const FACING = { cameraOrbit: '0deg 90deg 10m', cameraTarget: '0m 0m 0m', fieldOfView: '90deg', lightDirection: '1 0 0', lightAmbient: 0, lightIntensity: 1 };

const at = (img, x, y) => Array.from(img.pixels.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4));

test('a square seen face on covers exactly the pixels the projection says, in its colour', async () => {
  const model = square();
  const img = await iq.render(model, { width: 100, height: 100, background: 'transparent', ...FACING });
  assert.equal(img.width, 100);
  assert.equal(img.pixels.length, 100 * 100 * 4);
  let covered = 0;
  for (let y = 0; y < 100; y++) {
    for (let x = 0; x < 100; x++) {
      const inside = x >= 25 && x < 75 && y >= 25 && y < 75;
      const a = img.pixels[(y * 100 + x) * 4 + 3];
      assert.equal(a, inside ? 255 : 0, `pixel ${x},${y}`);
      covered += a === 255;
    }
  }
  assert.equal(covered, 2500);
  assert.deepEqual(at(img, 50, 50), [255, 128, 64, 255]);
  // From behind (+180 degrees) the back face is culled: nothing drawn.
  const behind = await iq.render(model, { width: 100, height: 100, background: 'transparent', ...FACING, cameraOrbit: '180deg 90deg 10m' });
  assert.ok(behind.pixels.every((v) => v === 0));
  // The element's light model: with the light across the face only ambient * (0.62 + 0.38 * sky) is left.
  const side = await iq.render(model, { width: 100, height: 100, ...FACING, lightDirection: '0 1 0', lightAmbient: 0.5 });
  const level = 0.5 * (0.62 + 0.38 * 0.5); // the normal is horizontal: sky = 0.5
  assert.deepEqual(at(side, 50, 50).slice(0, 3), [1, 128 / 255, 64 / 255].map((c) => Math.round(c * level * 255)));
  model.dispose();
});

test('the background: the element\'s by default, a colour, or transparent', async () => {
  const model = square();
  const plain = await iq.render(model, { width: 16, height: 16, ...FACING });
  assert.deepEqual(at(plain, 0, 0), [33, 37, 43, 255]); // [0.13, 0.145, 0.17] as bytes
  const red = await iq.render(model, { width: 16, height: 16, ...FACING, background: '#ff0000' });
  assert.deepEqual(at(red, 0, 0), [255, 0, 0, 255]);
  const half = await iq.render(model, { width: 16, height: 16, ...FACING, background: 'rgba(0, 0, 255, 0.5)' });
  assert.deepEqual(at(half, 0, 0), [0, 0, 255, 128]);
  await assert.rejects(iq.render(model, { background: 'not a colour' }), { code: 'invalid_argument' });
  model.dispose();
});

test('textures come from options.files as writeGLB reads them; a missing one is the checker and listed', async () => {
  const model = square([1, 1, 1, 1], 'skin.png');
  const missing = await iq.render(model, { width: 64, height: 64, ...FACING });
  assert.deepEqual(missing.missingFiles, ['skin.png']);
  // A 1x1 PNG of our own writer: the square takes its colour.
  const png = await iq.encodePNG({ width: 1, height: 1, pixels: new Uint8Array([10, 200, 30, 255]) });
  const img = await iq.render(model, { width: 64, height: 64, ...FACING, files: { 'skin.png': png } });
  assert.deepEqual(img.missingFiles, []);
  assert.deepEqual(at(img, 32, 32), [10, 200, 30, 255]);
  model.dispose();
});

test('a JPEG texture (found for a .tga name, as the games look it up) is decoded and drawn', async () => {
  const model = square([1, 1, 1, 1], 'skin.tga');
  const jpeg = readFileSync(new URL('../../fixtures/jpeg/quadrants.jpg', import.meta.url));
  // Only skin.jpg exists: the texture candidates (web/core/paths.js) find it for skin.tga.
  const img = await iq.render(model, { width: 64, height: 64, ...FACING, supersample: 1, files: { 'skin.jpg': jpeg } });
  assert.deepEqual(img.missingFiles, []);
  // Seen from +X the square's texture runs left to right along +Y and top to bottom along -Z:
  // each quarter of the square shows one quadrant of the picture (the known colours, README).
  const quads = [[255, 0, 0], [0, 192, 0], [32, 64, 255], [255, 255, 255]];
  const spots = [[30, 30], [34, 30], [30, 34], [34, 34]].map(([dx, dy]) => [dx + (dx > 32 ? 8 : -8), dy + (dy > 32 ? 8 : -8)]);
  const seen = spots.map(([x, y]) => at(img, x, y).slice(0, 3));
  const match = quads.map((q) => seen.findIndex((c) => c.every((v, k) => Math.abs(v - q[k]) <= 10)));
  assert.ok(match.every((i) => i >= 0) && new Set(match).size === 4, `the four quadrants drawn: ${JSON.stringify(seen)}`);
  model.dispose();
});

test('the picture is seen by the element\'s own orbit camera (web/scene/camera.js): where it projects the square, the square is drawn', async () => {
  const model = square();
  for (const [orbit, fov, w, h] of [['30deg 70deg auto', 35, 120, 90], ['200deg 100deg 150%', 50, 80, 120], ['-45deg 20deg 40m', 20, 100, 100]]) {
    const camera = new OrbitCamera();
    camera.fov = fov * DEG;
    camera.aspect = w / h;
    camera.orbit = parseOrbit(orbit);
    camera.fit({ min: [0, -5, -5], max: [0, 5, 5] }); // the square's box, as framing finds it (one frame)
    const m = camera.matrices(w / h).viewProjection;
    const project = ([x, y, z]) => {
      const cw = m[3] * x + m[7] * y + m[11] * z + m[15];
      return [((m[0] * x + m[4] * y + m[8] * z + m[12]) / cw * 0.5 + 0.5) * w, (0.5 - (m[1] * x + m[5] * y + m[9] * z + m[13]) / cw * 0.5) * h];
    };
    const corners = [[0, -5, -5], [0, -5, 5], [0, 5, 5], [0, 5, -5]].map(project);
    const img = await iq.render(model, { width: w, height: h, cameraOrbit: orbit, fieldOfView: `${fov}deg`, background: 'transparent', supersample: 1 });
    const xs = corners.map((c) => c[0]);
    const ys = corners.map((c) => c[1]);
    let outside = 0;
    let drawn = 0;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        if (!img.pixels[(y * w + x) * 4 + 3]) continue;
        drawn++;
        if (x + 0.5 < Math.min(...xs) - 1 || x + 0.5 > Math.max(...xs) + 1 || y + 0.5 < Math.min(...ys) - 1 || y + 0.5 > Math.max(...ys) + 1) outside++;
      }
    }
    const [cx, cy] = project([0, 0, 0]);
    const front = Math.cos(camera.yaw) * Math.cos(camera.pitch) > 0; // the +X face toward the eye: drawn, else culled
    assert.equal(outside, 0, `${orbit}: every drawn pixel inside the projected square`);
    if (front) assert.equal(at(img, Math.floor(cx), Math.floor(cy))[3], 255, `${orbit}: the square's centre is drawn`);
    else assert.equal(drawn, 0, `${orbit}: the back face is culled`);
  }
  // A turntable's frame i is the orbit turned by 360 i / n degrees round Z.
  const turn = await iq.renderAnimation(model, { width: 40, height: 40, frames: 4, turntable: true, background: 'transparent' });
  const quarter = await iq.render(model, { width: 40, height: 40, cameraOrbit: `${35 + 90}deg auto auto`, background: 'transparent' });
  assert.deepEqual(turn.frames[1].pixels, quarter.pixels);
  model.dispose();
});

test('every corpus model renders, framed: something drawn, background around it', async () => {
  for (const file of MODELS) {
    const path = join(corpus, file);
    const model = iq.load(readFileSync(path), { name: file });
    const img = await iq.render(model, { width: 96, height: 64, background: 'transparent', files: filesBeside(path) });
    let drawn = 0;
    for (let i = 3; i < img.pixels.length; i += 4) drawn += img.pixels[i] > 0;
    assert.ok(drawn > 96 * 64 * 0.02, `${file}: only ${drawn} pixels drawn`);
    assert.ok(drawn < 96 * 64 * 0.9, `${file}: ${drawn} pixels drawn: the framing should leave background around it`);
    model.dispose();
  }
});

test('the corpus player: frame and time agree, animations by name, skins, and an unknown animation is refused', async () => {
  const { player } = await openTarget(iq, sarge);
  const options = { width: 128, height: 128, legsAnimation: 'LEGS_RUN', torsoAnimation: 'TORSO_STAND' };
  const a = await iq.render(player, { ...options, frame: 0 });
  const b = await iq.render(player, { ...options, time: 0 });
  assert.deepEqual(a.pixels, b.pixels);
  assert.deepEqual(a.missingFiles, []);
  const later = await iq.render(player, { ...options, frame: 4 });
  assert.notDeepEqual(a.pixels, later.pixels);
  const blue = await iq.render(player, { ...options, frame: 0, skin: 'blue' });
  assert.notDeepEqual(a.pixels, blue.pixels);
  await assert.rejects(iq.render(player, { legsAnimation: 'LEGS_FLY' }), { code: 'invalid_argument', message: /LEGS_FLY/ });
  player.dispose();
});

test('absurd sizes and unreadable options are refused with invalid_argument', async () => {
  const model = square();
  const max = iq._wasm.constants.limit.renderMaxDimension;
  for (const size of [{ width: 0 }, { width: 100000, height: 100000 }, { width: 'abc' }, { width: 1.5 }, { width: NaN }, { height: -3 }, { width: max + 1 }, { width: true }]) {
    await assert.rejects(iq.render(model, size), { code: 'invalid_argument' }, JSON.stringify(size));
  }
  await assert.rejects(iq.render(model, { width: max, height: max, supersample: 2 }), { code: 'invalid_argument', message: /samples/ });
  await assert.rejects(iq.render(model, { supersample: 5 }), { code: 'invalid_argument' });
  await assert.rejects(iq.render(model, { cameraOrbit: 'sideways' }), { code: 'invalid_argument' });
  await assert.rejects(iq.render(model, { fieldOfView: '200deg' }), { code: 'invalid_argument' });
  await assert.rejects(iq.render(model, { lightDirection: '0 0' }), { code: 'invalid_argument' });
  await assert.rejects(iq.render(model, { time: 'soon' }), { code: 'invalid_argument' });
  await assert.rejects(iq.render({}, {}), { code: 'invalid_argument' });
  await assert.rejects(iq.renderAnimation(model, { frames: 0 }), { code: 'invalid_argument' });
  await assert.rejects(iq.renderAnimation(model, { fps: -1 }), { code: 'invalid_argument' });
  model.dispose();
  await assert.rejects(iq.render(model, {}), { code: 'disposed' });
});

test('PNG, animated PNG and sprite sheet read back as the pixels that went in', async () => {
  const model = iq.load(readFileSync(join(corpus, 'iqm/mrfixit/mrfixit.iqm')), { name: 'mrfixit.iqm' });
  const anim = await iq.renderAnimation(model, { width: 40, height: 30, frames: 5, fps: 10, turntable: true, background: 'transparent' });
  assert.equal(anim.frames.length, 5);
  assert.deepEqual(anim.frames.map((f) => f.time), [0, 0.1, 0.2, 0.3, 0.4]);
  assert.notDeepEqual(anim.frames[0].pixels, anim.frames[1].pixels);
  const first = await iq.render(model, { width: 40, height: 30, background: 'transparent' });
  assert.deepEqual(anim.frames[0].pixels, first.pixels, 'a turntable starts where render() looks');

  const png = decodePNG(await iq.encodePNG(first));
  assert.deepEqual((await png).data, first.pixels);

  const apng = await iq.encodeAPNG(anim, { fps: 10 });
  const types = [];
  for (let at = 8; at < apng.length;) {
    const length = (apng[at] << 24) | (apng[at + 1] << 16) | (apng[at + 2] << 8) | apng[at + 3];
    types.push(String.fromCharCode(...apng.subarray(at + 4, at + 8)));
    at += 12 + length;
  }
  assert.equal(types[0], 'IHDR');
  assert.equal(types[1], 'acTL');
  assert.equal(types.filter((t) => t === 'fcTL').length, 5);
  assert.ok(types.includes('IDAT') && types.includes('fdAT'));
  assert.equal(types.at(-1), 'IEND');
  assert.deepEqual((await decodePNG(apng)).data, anim.frames[0].pixels, 'viewers without APNG show the first frame');

  const { png: sheet, atlas } = await iq.encodeSpriteSheet(anim);
  assert.equal(atlas.width, 120);
  assert.equal(atlas.height, 60);
  assert.deepEqual(atlas.frames[4], { x: 40, y: 30, w: 40, h: 30, time: 0.4 });
  const decoded = await decodePNG(sheet);
  for (let y = 0; y < 30; y++) {
    const row = decoded.data.subarray(((30 + y) * 120 + 40) * 4, ((30 + y) * 120 + 80) * 4);
    assert.deepEqual(row, anim.frames[4].pixels.subarray(y * 160, (y + 1) * 160));
  }
  await assert.rejects(iq.encodePNG({ width: 2, height: 2, pixels: new Uint8Array(3) }), { code: 'invalid_argument' });
  model.dispose();
});

test('decodePNG reads the corpus PNG and refuses bad ones', async () => {
  const bytes = readFileSync(join(corpus, 'iqm/raylib/guytex.png'));
  const img = await decodePNG(bytes);
  assert.ok(img.width > 0 && img.height > 0 && img.data.length === img.width * img.height * 4);
  await assert.rejects(decodePNG(bytes.subarray(0, 40)), { code: 'bad_value' });
  const bad = Uint8Array.from(bytes);
  bad[16] = 0x7f; // width 2^31
  await assert.rejects(decodePNG(bad), { code: 'bad_value' });
});

// A player whose legs are one 10x10 square facing +X drawn by a shader script (tests/js/lib builders).
// The legs: a 10 x 10 square facing +X (or `quad`: its four corners and two triangles).
async function scriptedPlayer(script, quad = {}) {
  const enc = new TextEncoder();
  const square = (name, shader, size, { xyz = [[0, -size, -size], [0, -size, size], [0, size, size], [0, size, -size]], triangles = [[0, 1, 2], [0, 2, 3]] } = {}) => ({
    name, shaders: [{ name: shader, index: 0 }], triangles, texcoords: [[0, 1], [0, 0], [1, 0], [1, 1]],
    frames: [xyz.map((p) => ({ xyz: p, normal: 0 }))],
  });
  const files = {
    'models/players/s/lower.md3': buildMD3({ tags: [{ name: 'tag_torso', frames: [{ origin: [-50, 0, 0] }] }], surfaces: [square('l_legs', 'models/players/s/glow', 5, quad)] }).bytes,
    'models/players/s/upper.md3': buildMD3({ tags: [{ name: 'tag_head', frames: [{ origin: [0, 0, 0] }] }], surfaces: [square('u_torso', 'models/players/s/glow', 0.01)] }).bytes,
    'models/players/s/head.md3': buildMD3({ surfaces: [square('h_head', 'models/players/s/glow', 0.01)] }).bytes,
    'models/players/s/animation.cfg': enc.encode(Array.from({ length: 25 }, () => '0 1 0 10').join('\n')),
    'scripts/player_s.shader': enc.encode(`models/players/s/glow\n{\n${script}\n}\n`),
  };
  return iq.loadPlayer(files);
}
const SCRIPTED = { width: 32, height: 32, cameraOrbit: '0deg 90deg 30m', cameraTarget: '0m 0m 0m', fieldOfView: '60deg', background: 'transparent' };

test('Quake 3 shader stages: colours, additive blending, the alpha test before it, waves at the picture\'s time', async () => {
  let player = await scriptedPlayer('{\nmap $whiteimage\nrgbGen const ( 1 0 0 )\n}\n{\nmap $whiteimage\nblendFunc add\nrgbGen const ( 0 0 1 )\n}');
  let img = await iq.render(player, SCRIPTED);
  assert.deepEqual(at(img, 16, 16), [255, 0, 255, 255], 'red, then blue added');
  player.dispose();
  player = await scriptedPlayer('{\nmap $whiteimage\nrgbGen const ( 0 1 0 )\n}\n{\nmap $whiteimage\nblendFunc GL_SRC_ALPHA GL_ONE_MINUS_SRC_ALPHA\nalphaGen const 0.25\nalphaFunc GE128\n}');
  img = await iq.render(player, SCRIPTED);
  assert.deepEqual(at(img, 16, 16), [0, 255, 0, 255], 'the second stage fails its alpha test: green stays');
  player.dispose();
  player = await scriptedPlayer('{\nmap $whiteimage\nrgbGen wave square 0 1 0 1\n}');
  const early = await iq.render(player, { ...SCRIPTED, time: 0.25 });
  const late = await iq.render(player, { ...SCRIPTED, time: 0.75 });
  assert.deepEqual([at(early, 16, 16)[0], at(late, 16, 16)[0]], [255, 0], 'a square wave: on in the first half second, off in the second');
  player.dispose();
});

test('a player\'s weapon, team and LOD as the element takes them: the player loaded again for the picture, unchanged itself', async () => {
  const files = gameFiles();
  for (const [path, bytes] of Object.entries(gunFiles())) files.set(path, bytes); // a gun on tag_weapon (the corpus has none)
  const plain = iq.loadPlayer(files);
  const armed = iq.loadPlayer(files, { weapon: 'gun' });
  const low = iq.loadPlayer(files, { lod: 2 });
  const options = { width: 96, height: 96, background: 'transparent', cameraOrbit: '90deg 80deg auto' };
  const same = (a, b) => a.pixels.length === b.pixels.length && a.pixels.every((v, i) => v === b.pixels[i]);
  const bare = await iq.render(plain, options);
  const withGun = await iq.render(plain, { ...options, weapon: 'gun' });
  assert.ok(same(withGun, await iq.render(armed, options)), 'weapon: as loadPlayer(..., { weapon }) draws it');
  assert.ok(!same(withGun, bare), 'the gun shows');
  assert.ok(same(await iq.render(armed, { ...options, weapon: null }), bare), 'weapon: null takes it away');
  assert.ok(same(await iq.render(plain, { ...options, lod: 2 }), await iq.render(low, options)), 'lod');
  const anim = await iq.renderAnimation(plain, { ...options, weapon: 'gun', frames: 2 });
  assert.ok(same(anim.frames[0], withGun), 'renderAnimation takes it too');
  assert.equal(plain.weapon, null, 'the player given is unchanged');
  assert.ok(same(await iq.render(plain, options), bare));
  await assert.rejects(iq.render(plain, { ...options, weapon: 'nothing' }), (err) => err.code === 'missing_file' && /render\(\)/.test(err.message));
  await assert.rejects(iq.render(plain, { ...options, team: 'green' }), { code: 'invalid_argument' });
  for (const p of [plain, armed, low]) p.dispose();
});

test('show: the element\'s overlays in the element\'s colours, as a string, an array or a Set; unknown words refused', async () => {
  const path = join(corpus, 'iqm/mrfixit/mrfixit.iqm');
  const model = iq.load(readFileSync(path), { name: 'mrfixit.iqm' });
  const options = { width: 96, height: 96, background: 'transparent', files: filesBeside(path) };
  const count = (img, rgb) => {
    let n = 0;
    for (let i = 0; i < img.pixels.length; i += 4) if (img.pixels[i + 3] === 255 && rgb.every((c, k) => img.pixels[i + k] === c)) n++;
    return n;
  };
  const byte = (c) => c.map((v) => Math.round(v * 255));
  const plain = await iq.render(model, options);
  const colours = { wireframe: byte([0.1, 0.9, 0.4]), skeleton: byte([1, 0.55, 0.1]), bounds: byte([0.95, 0.8, 0.2]), grid: byte([0.3, 0.3, 0.34]), normals: byte([0.4, 0.7, 1]) };
  for (const [flag, rgb] of Object.entries(colours)) {
    const img = await iq.render(model, { ...options, show: flag });
    assert.equal(count(plain, rgb), 0, `${flag}: not in the plain picture`);
    assert.ok(count(img, rgb) > 40, `${flag}: ${count(img, rgb)} pixels of its colour`);
  }
  // Lines on top (bones) stay over the model; the grid under it is hidden where the model is.
  const bones = await iq.render(model, { ...options, show: 'skeleton' });
  const centre = at(bones, 48, 48);
  assert.ok(count(bones, colours.skeleton) > 40 && plain.pixels[(48 * 96 + 48) * 4 + 3] === 255, `bones over the body (${centre})`);
  const all = await iq.render(model, { ...options, show: 'wireframe skeleton, bounds' });
  assert.deepEqual(all.pixels, (await iq.render(model, { ...options, show: ['wireframe', 'skeleton', 'bounds'] })).pixels);
  assert.deepEqual(all.pixels, (await iq.render(model, { ...options, show: new Set(['bounds', 'skeleton', 'wireframe']) })).pixels);
  assert.deepEqual((await iq.render(model, { ...options, show: '' })).pixels, plain.pixels);
  await assert.rejects(iq.render(model, { ...options, show: 'wires' }), (e) => e.code === 'invalid_argument' && /wires.*wireframe/.test(e.message));
  await assert.rejects(iq.render(model, { ...options, show: 42 }), (e) => e.code === 'invalid_argument');
  model.dispose();
  // A player's tags: each tag's three axes in red, green and blue, over the model.
  const { player } = await openTarget(iq, sarge);
  const tags = await iq.render(player, { ...options, width: 200, height: 200, show: 'tags' });
  for (const rgb of [[255, 51, 51], [51, 255, 51], [77, 128, 255]]) assert.ok(count(tags, rgb) > 5, `tag axis ${rgb}: ${count(tags, rgb)}`);
  player.dispose();
});

test('autosprite and autosprite2: quads turned toward the view by the C, as the element turns them', async () => {
  const pixels = (img) => { let n = 0; for (let i = 3; i < img.pixels.length; i += 4) n += img.pixels[i] > 0; return n; };
  const white = '{\nmap $whiteimage\n}';
  const view = { ...SCRIPTED, width: 64, height: 64 };
  const plain = await scriptedPlayer(`cull none\n${white}`);
  const faceOn = pixels(await iq.render(plain, view));
  const edgeOn = pixels(await iq.render(plain, { ...view, cameraOrbit: '90deg 90deg 30m' }));
  assert.ok(faceOn > 300 && edgeOn < 70, `the plain square: ${faceOn} pixels face on, ${edgeOn} edge on`);
  plain.dispose();
  // autosprite: the same square (radius |corner - centre| * 0.707) from any side.
  const sprite = await scriptedPlayer(`deformVertexes autosprite\n${white}`);
  for (const orbit of ['90deg 90deg 30m', '45deg 60deg 30m', '200deg 80deg 30m']) {
    const n = pixels(await iq.render(sprite, { ...view, cameraOrbit: orbit }));
    assert.ok(Math.abs(n - faceOn) <= faceOn * 0.06, `autosprite from ${orbit}: ${n} pixels, face on ${faceOn}`);
  }
  sprite.dispose();
  // autosprite2 pivots a strip about its long axis: a 2 x 10 strip along Z, seen from +Y, edge on
  // without it, is turned to face the view: about the pixels of the strip seen face on. Its corners
  // start on a short edge and its triangles are in RB_AddQuadStamp's order (0 1 3, 3 1 2), as
  // Autosprite2Deform expects (the direction they run along each short edge says which way its
  // ends go).
  const strip = { xyz: [[0, -1, -5], [0, 1, -5], [0, 1, 5], [0, -1, 5]], triangles: [[0, 1, 3], [3, 1, 2]] };
  const flat = await scriptedPlayer(`cull none\n${white}`, strip);
  const stripFaceOn = pixels(await iq.render(flat, view));
  flat.dispose();
  const sprite2 = await scriptedPlayer(`deformVertexes autosprite2\ncull none\n${white}`, strip);
  const turned = pixels(await iq.render(sprite2, { ...view, cameraOrbit: '90deg 90deg 30m' }));
  assert.ok(Math.abs(turned - stripFaceOn) <= stripFaceOn * 0.06, `autosprite2 from the side: ${turned} pixels, face on ${stripFaceOn}`);
  sprite2.dispose();
});
