// Runs in Chromium (tests/browser/gltf.test.mjs): interquake converts corpus models to GLB in the
// page, three.js's GLTFLoader loads each GLB with its textures (images decode in a browser), its
// AnimationMixer poses it, and the vertices are compared with the library's own answers; one GLB
// is drawn with a WebGLRenderer and its pixels compared with the source texture's texels.
// 'three' and 'three/addons/' come from the page's import map (node_modules/three).
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { init } from '../../../web/interquake.js';
import { mixerOf, worldPositions, partMeshes, maxDifference, shown, playerVertices } from '../../js/lib/gltf-three.mjs';

const iq = await init();
const corpus = async (path) => {
  const res = await fetch(`/corpus/${path}`);
  return res.ok ? new Uint8Array(await res.arrayBuffer()) : null;
};
// Textures next to the model, by file name (what options.files as a function is for).
const beside = (path) => (name) => corpus(path.replace(/[^/]*$/, '') + name.replace(/^.*\//, ''));

function parse(glb) {
  const buffer = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength);
  return new Promise((resolve, reject) => new GLTFLoader().parse(buffer, '', resolve, reject));
}

// The textures three decoded: per material name, the image's size (null: no texture).
function textures(gltf) {
  const out = {};
  gltf.scene.traverse((o) => {
    if (!o.isMesh) return;
    for (const m of [].concat(o.material)) out[m.name] = m.map ? [m.map.image.width, m.map.image.height] : null;
  });
  return out;
}

/** One model with its own clip (name or index): the largest vertex difference at each time (seconds). */
export async function checkModel(path, clipName, times, options = {}) {
  const model = iq.load(await corpus(path), { name: path });
  const { glb, warnings } = await iq.writeGLB(model, { ...options, files: beside(path) });
  const gltf = await parse(glb);
  const index = typeof clipName === 'number' ? clipName : model.findAnimation(clipName);
  const a = model.animations[index];
  const mixer = mixerOf(gltf);
  mixer.play(gltf.animations.find((c) => c.name === a.name).name, { loop: a.loop });
  const size = Math.max(1, model.bounds.radius);
  const skinned = model.joints?.length > 0;
  const out = { warnings: warnings.map((w) => w.code), textures: textures(gltf), size, differences: [], shownCounts: [] };
  for (const t of times) {
    mixer.at(t);
    const ours = model.sample(index, t, skinned ? { rotation: 'slerp' } : {}).positions;
    let mesh;
    if (skinned) mesh = gltf.scene.getObjectByProperty('isSkinnedMesh', true);
    else {
      const visible = partMeshes(gltf, gltf.scene.children.find((n) => n.name === 'interquake_z_up').children[0].name).filter(shown);
      out.shownCounts.push(visible.length);
      mesh = visible[0];
    }
    out.differences.push(maxDifference(worldPositions(mesh), ours));
  }
  model.dispose();
  return out;
}


async function loadSarge(names) {
  const files = new Map();
  for (const name of names) files.set(name, await corpus(`md3/openarena/${name}`));
  return iq.loadPlayer(files, {});
}

/** The sarge player: for each [legs, torso] pair and frame (of the legs clip), the largest difference per part. */
export async function checkPlayer(names, pairs, frames) {
  const player = await loadSarge(names);
  const { glb, warnings } = await iq.writeGLB(player);
  const gltf = await parse(glb);
  const mixer = mixerOf(gltf);
  const out = { warnings: warnings.map((w) => w.code), textures: textures(gltf), size: Math.max(1, player.parts.lower.model.bounds.radius * 2), samples: [] };
  for (const [legs, torso] of pairs) {
    mixer.play([...new Set([legs, torso])], { loop: (name) => player.animation(name).loopFrames > 0 });
    const la = player.animation(legs);
    for (const f of frames.filter((k) => la.loopFrames || k <= la.frameCount - 1)) {
      const t = f * la.frameLerp / 1000;
      mixer.at(t);
      const pose = player.pose({ legs: { animation: legs, time: t }, torso: { animation: torso, time: t } });
      for (const part of ['lower', 'upper', 'head']) {
        const visible = partMeshes(gltf, part).filter(shown);
        const d = visible.length === 1 ? maxDifference(worldPositions(visible[0]), playerVertices(player, part, pose[part]), pose[part].matrix) : Infinity;
        out.samples.push({ legs, torso, frame: f, part, shown: visible.length, difference: d });
      }
    }
  }
  player.dispose();
  return out;
}

/**
 * Draws mrfixit's GLB (its own materials, lit by an ambient light of intensity pi, which makes a
 * rough dielectric show about its base colour) on a transparent canvas, zoomed on the head so its
 * texture is magnified. At a grid of pixels covered by the model, a ray from the camera finds the
 * triangle and its texture coordinate; the pixel is compared with the source TGA (decoded by
 * iq.decodeTGA, not the PNG in the GLB) sampled bilinearly there.
 */
export async function drawTextured() {
  const path = 'iqm/mrfixit/mrfixit.iqm';
  const model = iq.load(await corpus(path), { name: path });
  const { glb } = await iq.writeGLB(model, { files: beside(path) });
  const gltf = await parse(glb);
  const tga = {};
  for (const name of ['Body.tga', 'Head.tga']) tga[name] = iq.decodeTGA(await corpus(`iqm/mrfixit/${name}`));
  model.dispose();

  const width = 400;
  const height = 400;
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  document.body.append(canvas);
  const renderer = new THREE.WebGLRenderer({ canvas, alpha: true, antialias: false, preserveDrawingBuffer: true });
  renderer.setClearColor(0x000000, 0);
  const scene = gltf.scene;
  scene.add(new THREE.AmbientLight(0xffffff, Math.PI));
  scene.updateMatrixWorld(true);
  // GLTFLoader makes one SkinnedMesh per primitive (per material here), sharing the vertices
  const meshes = [];
  scene.traverse((o) => { if (o.isSkinnedMesh) meshes.push(o); });
  const box = new THREE.Box3();
  for (const mesh of meshes) box.expandByObject(mesh, true);
  const size = box.getSize(new THREE.Vector3());
  // the head: the top sixth of the model, seen from its front (+Z in glTF's space; mrfixit faces -Y in its own Z-up one)
  const target = new THREE.Vector3((box.min.x + box.max.x) / 2, box.max.y - size.y / 12, (box.min.z + box.max.z) / 2);
  const camera = new THREE.PerspectiveCamera(30, width / height, size.y / 100, size.y * 10);
  const front = new THREE.Vector3(0, 0, 1);
  camera.position.copy(target).addScaledVector(front, size.y * 0.6);
  camera.lookAt(target);
  renderer.render(scene, camera);
  const gl = renderer.getContext();
  const pixels = new Uint8Array(width * height * 4);
  gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
  const at = (x, y) => pixels.subarray(((height - 1 - y) * width + x) * 4, ((height - 1 - y) * width + x) * 4 + 4);

  const raycaster = new THREE.Raycaster();
  const bilinear = (image, u, v) => { // glTF: u right, v down from the top row; texel centres at +0.5
    const x = u * image.width - 0.5;
    const y = v * image.height - 0.5;
    const x0 = Math.floor(x);
    const y0 = Math.floor(y);
    const fx = x - x0;
    const fy = y - y0;
    const texel = (i, j) => {
      const xx = ((i % image.width) + image.width) % image.width; // the sampler repeats
      const yy = ((j % image.height) + image.height) % image.height;
      return image.data.subarray((yy * image.width + xx) * 4, (yy * image.width + xx) * 4 + 3);
    };
    const out = [0, 0, 0];
    for (let c = 0; c < 3; c++) {
      out[c] = (texel(x0, y0)[c] * (1 - fx) + texel(x0 + 1, y0)[c] * fx) * (1 - fy)
        + (texel(x0, y0 + 1)[c] * (1 - fx) + texel(x0 + 1, y0 + 1)[c] * fx) * fy;
    }
    return out;
  };
  const result = { covered: 0, black: 0, magenta: 0, samples: [], materials: textures(gltf) };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = at(x, y);
      if (p[3] !== 255) continue;
      result.covered++;
      if (p[0] + p[1] + p[2] < 30) result.black++;
      if (p[0] > 150 && p[2] > 150 && p[1] < 60) result.magenta++;
    }
  }
  const step = 23; // a grid of probes; a probe counts only where the model covers its pixel and its neighbours
  for (let y = step; y < height; y += step) {
    for (let x = step; x < width; x += step) {
      let inside = true;
      for (const [dx, dy] of [[0, 0], [-2, 0], [2, 0], [0, -2], [0, 2]]) if (at(x + dx, y + dy)[3] !== 255) inside = false;
      if (!inside) continue;
      raycaster.setFromCamera(new THREE.Vector2(((x + 0.5) / width) * 2 - 1, 1 - ((y + 0.5) / height) * 2), camera);
      const hit = raycaster.intersectObjects(meshes, false)[0];
      if (!hit?.uv) continue;
      const material = hit.object.material;
      const expected = bilinear(tga[material.name], hit.uv.x, hit.uv.y);
      result.samples.push({ x, y, material: material.name, drawn: [...at(x, y).subarray(0, 3)], expected: expected.map(Math.round) });
    }
  }
  renderer.dispose();
  return result;
}
