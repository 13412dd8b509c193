// Runs in Chromium (tests/browser/three.test.mjs): interquake/three's loaders load corpus models and
// the corpus player by URL (textures through three's LoadingManager), three's AnimationMixer and
// Q3Player.update pose them, and every vertex three would draw (getVertexPosition, matrixWorld) is
// compared with the library's own answer (sample, player.pose), as are tags, weapons and textures.
// 'three' comes from the page's import map (node_modules/three).
import * as THREE from 'three';
import { init } from '../../../web/interquake.js';
import { InterquakeLoader, Q3PlayerLoader, yUpMatrix } from '../../../web/three/index.js';
import { maxDifference, worldPositions, playerVertices } from '../../js/lib/gltf-three.mjs';
import { buildMD3 } from '../../js/lib/md3-build.mjs';
import { buildTGA } from '../../js/lib/tga-build.mjs';

const iq = await init();
const corpusBytes = async (path) => new Uint8Array(await (await fetch(`/corpus/${path}`)).arrayBuffer());

/** Meshes drawn now (visible on their whole way up), under `root` or a part group. */
function drawn(root, { own = false } = {}) {
  const out = [];
  const visible = (o) => { for (let p = o; p; p = p.parent) if (!p.visible) return false; return true; };
  const visit = (o) => {
    if (o.isMesh && visible(o)) out.push(o);
    for (const c of o.children) if (!own || !c.isGroup) visit(c);
  };
  if (own) for (const c of root.children) { if (c.isMesh && visible(c)) out.push(c); } else visit(root);
  return out;
}

/** How far three's mesh is from the library's Z-up positions, as a fraction of `size`. */
const away = (mesh, zUp, size, matrix = null) => maxDifference(worldPositions(mesh), zUp, matrix) / size;

function playClip(mixer, clip) {
  const action = mixer.clipAction(clip);
  if (clip.userData.loop === 'once') {
    action.setLoop(THREE.LoopOnce, 1);
    action.clampWhenFinished = true;
  }
  return action;
}

/**
 * One corpus model through InterquakeLoader.loadAsync: for each clip, at each frame and between
 * frames, the largest distance between the mesh three draws and model.sample (with no clips:
 * the rest pose against model.positions). Also what was found: textures, warnings, missing files.
 */
export async function checkModel(path, { attach = null } = {}) {
  const loader = new InterquakeLoader();
  const result = await loader.loadAsync(`/corpus/${path}`);
  if (attach) await loader.loadAnimations(`/corpus/${attach}`, result);
  const model = result.model;
  const size = Math.max(1, model.bounds?.radius ?? 1);
  const out = {
    vertexCount: model.vertexCount, clips: result.animations.map((c) => c.name), size, onFrames: 0, between: 0, samples: 0,
    warnings: result.warnings.map((w) => w.code), missing: result.missingFiles, meshes: 0,
    textures: [], skinned: Boolean(result.skeleton), bones: result.skeleton?.bones.map((b) => b.name) ?? [],
    joints: model.joints.map((j) => j.name), parentsMatch: true,
  };
  if (result.skeleton) {
    out.parentsMatch = model.joints.every((j, i) => (j.parent < 0 ? result.skeleton.bones[i].parent.name === 'interquake_z_up'
      : result.skeleton.bones[i].parent === result.skeleton.bones[j.parent]));
  }
  result.scene.traverse((o) => { for (const m of [].concat(o.material ?? [])) if (m.map && !out.textures.includes(m.name)) out.textures.push(m.name); });
  const mixer = new THREE.AnimationMixer(result.scene);
  if (!result.animations.length) {
    result.scene.updateMatrixWorld(true);
    for (const mesh of drawn(result.scene)) out.onFrames = Math.max(out.onFrames, away(mesh, model.positions, size));
    out.meshes = drawn(result.scene).length;
  }
  result.animations.forEach((clip, index) => {
    const { framerate, frameCount } = clip.userData;
    const action = playClip(mixer, clip);
    const frames = [...new Set([0, 0.5, 1, 1.25, Math.floor(frameCount / 2) + 0.6, frameCount - 1, frameCount - 0.5])].filter((f) => f >= 0);
    for (const f of frames) {
      const t = f / framerate;
      mixer.stopAllAction();
      action.reset().play();
      mixer.setTime(t);
      result.scene.updateMatrixWorld(true);
      const ours = model.sample(index, t, result.skeleton && Number.isInteger(f) ? { rotation: 'slerp' } : {}).positions;
      const meshes = drawn(result.scene);
      out.meshes = Math.max(out.meshes, meshes.length);
      let worst = 0;
      for (const mesh of meshes) worst = Math.max(worst, away(mesh, ours, size));
      if (!meshes.length) worst = Infinity;
      if (Number.isInteger(f)) out.onFrames = Math.max(out.onFrames, worst); else out.between = Math.max(out.between, worst);
      out.samples++;
    }
  });
  // MD3 tags: each tag object against tagMatrix at a frame and between two
  out.tags = {};
  for (const [name, object] of Object.entries(result.tags)) {
    const clip = result.animations[0];
    let worst = 0;
    if (clip) {
      for (const f of [0, 1.5, clip.userData.frameCount - 1]) {
        mixer.stopAllAction();
        playClip(mixer, clip).reset().play();
        mixer.setTime(f / clip.userData.framerate);
        result.scene.updateMatrixWorld(true);
        const expected = yUpMatrix(model.tagMatrix(name, f)).elements;
        worst = Math.max(worst, ...object.matrixWorld.elements.map((v, i) => Math.abs(v - expected[i]) / (i >= 12 ? size : 1)));
      }
    }
    out.tags[name] = worst;
  }
  result.dispose();
  return out;
}

/** mrfixit's textures, as three holds them, against the library's decoding of the TGA files. */
export async function textures() {
  const result = await new InterquakeLoader().loadAsync('/corpus/iqm/mrfixit/mrfixit.iqm');
  const out = {};
  for (const mesh of drawn(result.scene)) {
    const map = mesh.material.map;
    const tga = iq.decodeTGA(await corpusBytes(`iqm/mrfixit/${map.name.split('/').pop()}`));
    const same = map.image.width === tga.width && map.image.height === tga.height && map.image.data.every((v, i) => v === tga.data[i]);
    out[mesh.material.name] = { size: [map.image.width, map.image.height], same, flipY: map.flipY, colorSpace: map.colorSpace };
  }
  result.dispose();
  return out;
}

/**
 * A dropped folder: the files become blob URLs, a LoadingManager's URL modifier maps each
 * requested file name to its blob; the model and its textures load through it.
 */
export async function droppedFolder() {
  const blobs = new Map();
  for (const name of ['mrfixit.iqm', 'Body.tga', 'Head.tga']) {
    blobs.set(name.toLowerCase(), URL.createObjectURL(new Blob([await corpusBytes(`iqm/mrfixit/${name}`)])));
  }
  const asked = [];
  const manager = new THREE.LoadingManager();
  manager.setURLModifier((url) => {
    const name = url.split('/').pop().toLowerCase();
    asked.push(name);
    return blobs.get(name) ?? url;
  });
  let started = 0;
  manager.onStart = () => { started++; };
  const result = await new InterquakeLoader(manager).loadAsync('dropped/mrfixit.iqm');
  const maps = [];
  result.scene.traverse((o) => { if (o.material?.map) maps.push(o.material.map.name); });
  const out = { maps: maps.sort(), missing: result.missingFiles, warnings: result.warnings.map((w) => w.code), asked, started };
  result.dispose();
  return out;
}

/** What onError receives for a file that is not a model, and for a corpus file the library refuses. */
export async function errors() {
  const loader = new InterquakeLoader();
  const failure = (url) => new Promise((resolve) => loader.load(url, () => resolve({ loaded: true }), undefined,
    (err) => resolve({ code: err.code, message: err.message, isError: err instanceof Error })));
  return {
    text: await failure('/corpus/iqe/unvanquished/missiles/rocket/license.txt'),
    invalid: await failure('/corpus/iqm/invalid/InvalidMeshOffset.iqm'),
    absent: await failure('/corpus/nothing-here.iqm'),
  };
}

/** A model parsed with no path: its textures cannot be found; a warning each, and the model loads. */
export async function missingTexture() {
  const result = await new InterquakeLoader().parseAsync(await corpusBytes('iqm/mrfixit/mrfixit.iqm'));
  const out = { warnings: result.warnings.map((w) => w.code), missing: result.missingFiles, meshes: drawn(result.scene).length };
  result.dispose();
  return out;
}

const SARGE = '/corpus/md3/openarena/models/players/sarge/';

/**
 * The corpus player loaded from its folder URL: Q3Player.update (the element's clock) and an
 * AnimationMixer over player.animations, each part's drawn vertices against player.pose; the tag
 * objects against the library's placement; the textures against the decoded TGA.
 */
export async function checkPlayer() {
  const sarge = await new Q3PlayerLoader().loadAsync(SARGE);
  const player = sarge.player;
  const size = player.parts.lower.model.bounds.radius * 2;
  const out = {
    skins: sarge.skins, skin: sarge.skin, warnings: sarge.warnings.map((w) => w.code), missing: sarge.missingFiles,
    update: { on: 0, between: 0, samples: 0, tags: 0 }, mixer: { on: 0, between: 0, samples: 0, shown: [] }, textures: {},
  };
  // update(): the element's clock; after each step, every part where player.pose puts it
  const steps = [['LEGS_RUN', 'TORSO_STAND'], ['LEGS_IDLE', 'TORSO_ATTACK'], ['BOTH_DEATH1', 'BOTH_DEATH1']];
  for (const [legs, torso] of steps) {
    sarge.setLegsAnimation(legs);
    sarge.setTorsoAnimation(torso);
    for (let i = 0; i < 30; i++) {
      sarge.update(0.0217);
      const pose = sarge.pose();
      const frames = sarge.frames();
      for (const part of ['lower', 'upper', 'head']) {
        const d = away(sarge.parts[part].live, playerVertices(player, part, pose[part]), size, pose[part].matrix);
        const f = part === 'lower' ? frames.legs : part === 'upper' ? frames.torso : { t: 0 };
        if (f.t === 0) out.update.on = Math.max(out.update.on, d); else out.update.between = Math.max(out.update.between, d);
        out.update.samples++;
      }
      // tag objects: lower's tag_torso is where the upper part hangs (pose.upper.matrix), upper's tag_head the head's
      const tagTorso = yUpMatrix(pose.upper.matrix).elements;
      const tagHead = yUpMatrix(pose.head.matrix).elements;
      const e1 = sarge.tags.lower.tag_torso.matrixWorld.elements;
      const e2 = sarge.tags.upper.tag_head.matrixWorld.elements;
      for (let k = 0; k < 16; k++) {
        const scale = k >= 12 ? size : 1;
        out.update.tags = Math.max(out.update.tags, Math.abs(e1[k] - tagTorso[k]) / scale, Math.abs(e2[k] - tagHead[k]) / scale);
      }
    }
  }
  // The mixer: clips named as animation.cfg names them, a legs and a torso clip together
  const mixer = new THREE.AnimationMixer(sarge.root);
  const clips = sarge.animations;
  out.clipNames = clips.map((c) => c.name);
  for (const [legs, torso] of [['LEGS_RUN', 'TORSO_STAND'], ['BOTH_DEATH1', 'BOTH_DEATH1'], ['LEGS_IDLE', 'TORSO_ATTACK'], ['LEGS_WALK', 'TORSO_GESTURE']]) {
    const la = player.animation(legs);
    for (const f of [0, 0.5, 1, 3.25, 8, 8.5]) {
      const t = (f * la.frameLerp) / 1000;
      mixer.stopAllAction();
      for (const name of new Set([legs, torso])) playClip(mixer, clips.find((c) => c.name === name)).reset().play();
      mixer.setTime(t);
      sarge.root.updateMatrixWorld(true);
      const pose = player.pose({ legs: { animation: legs, time: t }, torso: { animation: torso, time: t } });
      for (const part of ['lower', 'upper', 'head']) {
        const meshes = drawn(sarge.parts[part].group, { own: true });
        out.mixer.shown.push(meshes.length);
        const d = meshes.length === 1 ? away(meshes[0], playerVertices(player, part, pose[part]), size, pose[part].matrix) : Infinity;
        if (Number.isInteger(f)) out.mixer.on = Math.max(out.mixer.on, d); else out.mixer.between = Math.max(out.mixer.between, d);
        out.mixer.samples++;
      }
    }
  }
  mixer.stopAllAction();
  for (const part of ['lower', 'upper', 'head']) {
    for (const m of sarge.parts[part].materials) {
      if (!m.map || out.textures[m.map.name]) continue;
      const tga = iq.decodeTGA(await corpusBytes(`md3/openarena/${m.map.name}`));
      out.textures[m.map.name] = m.map.image.width === tga.width && m.map.image.data.every((v, i) => v === tga.data[i]);
    }
  }
  // setSkin: the library's resolution of another skin, its textures decoded
  await sarge.setSkin('red');
  out.redTextures = [...new Set(sarge.parts.upper.materials.map((m) => m.map?.name).filter(Boolean))];
  sarge.dispose();
  return out;
}

// A gun with a barrel: built here (the corpus has no weapon), tags where a test can see them.
function weaponFiles() {
  const tri = (name, shader, scale) => ({
    name, shaders: [{ name: shader, index: 0 }], triangles: [[0, 1, 2]], texcoords: [[0, 0], [1, 0], [0, 1]],
    frames: [[[0, 0, 0], [scale, 0, 0], [0, scale, 3]].map((xyz) => ({ xyz, normal: 0 }))],
  });
  const X90 = [[1, 0, 0], [0, 0, 1], [0, -1, 0]];
  return {
    'models/weapons2/gun/gun.md3': buildMD3({
      tags: [{ name: 'tag_barrel', frames: [{ origin: [8, 0, 1], axes: X90 }] }], surfaces: [tri('w_gun', 'models/weapons2/gun/gun.tga', 10)],
    }).bytes,
    'models/weapons2/gun/gun_barrel.md3': buildMD3({ surfaces: [tri('w_barrel', 'models/weapons2/gun/barrel.tga', 4)] }).bytes,
  };
}

/**
 * A weapon where the element draws it: Q3Player's setWeapon puts the gun (and its barrel) on
 * tag_weapon, each vertex where player.pose's weapon and barrel matrices put it; an object a user
 * adds to tags.upper.tag_weapon sits at pose.weapon.matrix too.
 */
export async function checkWeapon() {
  const files = new Map();
  const list = await (await fetch('/three-test-files')).json();
  for (const path of list) files.set(path, await corpusBytes(`md3/openarena/${path}`));
  for (const [path, bytes] of Object.entries(weaponFiles())) files.set(path, bytes);
  const sarge = await new Q3PlayerLoader().parseAsync(files, { player: 'models/players/sarge' });
  const out = { weapons: sarge.weapons, before: Boolean(sarge.parts.weapon) };
  await sarge.setWeapon('bfg');
  out.absent = { weapon: Boolean(sarge.parts.weapon), warnings: sarge.warnings.map((w) => w.code) };
  // a user's object hung on tag_weapon before the weapon changes stays on the new player's tag_weapon
  const mine = new THREE.Object3D();
  sarge.tags.upper.tag_weapon.add(mine);
  await sarge.setWeapon('gun');
  out.kept = mine.parent === sarge.tags.upper.tag_weapon;
  sarge.setLegsAnimation('LEGS_RUN');
  sarge.setTorsoAnimation('TORSO_ATTACK');
  const player = sarge.player;
  const size = player.parts.lower.model.bounds.radius * 2;
  let worst = 0;
  let user = 0;
  for (let i = 0; i < 20; i++) {
    sarge.update(0.031);
    const pose = sarge.pose();
    for (const part of ['weapon', 'barrel']) {
      const model = player.parts[part].model;
      worst = Math.max(worst, away(sarge.parts[part].live, model.positions, size, pose[part].matrix));
    }
    const expected = yUpMatrix(pose.weapon.matrix).elements;
    user = Math.max(user, ...mine.matrixWorld.elements.map((v, k) => Math.abs(v - expected[k]) / (k >= 12 ? size : 1)));
  }
  out.after = Boolean(sarge.parts.weapon) && Boolean(sarge.parts.barrel);
  out.weaponPath = player.weapon?.path;
  out.worst = worst;
  out.user = user;
  sarge.dispose();
  return out;
}

/** Draws the player with a WebGLRenderer: how many pixels it covers, and that nothing drew magenta or black. */
export async function draw() {
  const sarge = await new Q3PlayerLoader().loadAsync(SARGE);
  const canvas = document.createElement('canvas');
  canvas.width = 320;
  canvas.height = 320;
  document.body.append(canvas);
  const renderer = new THREE.WebGLRenderer({ canvas, alpha: true, preserveDrawingBuffer: true });
  renderer.setClearColor(0x000000, 0);
  const scene = new THREE.Scene();
  scene.add(new THREE.AmbientLight(0xffffff, 1.5), sarge.root);
  const light = new THREE.DirectionalLight(0xffffff, 2);
  light.position.set(1, 2, 3);
  scene.add(light);
  sarge.setLegsAnimation('LEGS_RUN');
  sarge.update(0.1);
  const camera = new THREE.PerspectiveCamera(35, 1, 1, 1000);
  camera.position.set(0, 10, 110);
  camera.lookAt(0, 0, 0);
  renderer.render(scene, camera);
  const gl = renderer.getContext();
  const pixels = new Uint8Array(320 * 320 * 4);
  gl.readPixels(0, 0, 320, 320, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
  let covered = 0;
  let dark = 0;
  for (let i = 0; i < pixels.length; i += 4) {
    if (pixels[i + 3] === 0) continue;
    covered++;
    if (pixels[i] + pixels[i + 1] + pixels[i + 2] < 20) dark++;
  }
  renderer.dispose();
  sarge.dispose();
  return { covered, dark };
}

/**
 * A player whose surfaces name shader-script blocks (built here): what each three material takes
 * of its block (texture, blending, alpha test, cull), as docs/THREE.md lists.
 */
export async function shaderBlocks() {
  const tri = (name, shader) => ({
    name, shaders: [{ name: shader, index: 0 }], triangles: [[0, 1, 2]], texcoords: [[0, 0], [1, 0], [0, 1]],
    frames: [[[0, 0, 0], [10, 0, 0], [0, 10, 0]].map((xyz) => ({ xyz, normal: 0 }))],
  });
  const enc = new TextEncoder();
  const tga = (rgba, alpha = 255) => buildTGA({ width: 2, height: 2, type: 2, depth: 32, alphaBits: 8, pixels: new Uint8Array(Array(4).fill([...rgba, alpha]).flat()) });
  const files = {
    'models/players/fx/lower.md3': buildMD3({ tags: [{ name: 'tag_torso', frames: [{ origin: [0, 0, 10], axes: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] }] }], surfaces: [tri('l_legs', 'models/players/fx/glow')] }).bytes,
    'models/players/fx/upper.md3': buildMD3({ surfaces: [tri('u_torso', 'models/players/fx/fence')] }).bytes,
    'models/players/fx/head.md3': buildMD3({ surfaces: [tri('h_head', 'models/players/fx/plain.tga')] }).bytes,
    'models/players/fx/animation.cfg': enc.encode(Array(25).fill('0 1 0 10').join('\n')),
    'models/players/fx/glow.tga': tga([255, 200, 0]),
    'models/players/fx/fence.tga': tga([0, 255, 0], 0),
    'models/players/fx/plain.tga': tga([9, 9, 9]),
    'scripts/fx.shader': enc.encode(`models/players/fx/glow
{
  cull none
  {
    map models/players/fx/glow.tga
    blendFunc GL_ONE GL_ONE
  }
}
models/players/fx/fence
{
  cull back
  {
    map models/players/fx/fence.tga
    alphaFunc GE128
    depthWrite
  }
}
`),
  };
  const fx = await new Q3PlayerLoader().parseAsync(files, {});
  const describe = (m) => ({
    map: m.map?.name ?? null, blending: m.blending, transparent: m.transparent, side: m.side, alphaTest: m.alphaTest, depthWrite: m.depthWrite,
  });
  const out = {
    lower: describe(fx.parts.lower.materials[0]), upper: describe(fx.parts.upper.materials[0]), head: describe(fx.parts.head.materials[0]),
    constants: { additive: THREE.AdditiveBlending, normal: THREE.NormalBlending, double: THREE.DoubleSide, back: THREE.BackSide, front: THREE.FrontSide },
    missing: fx.missingFiles,
  };
  fx.dispose();
  return out;
}
