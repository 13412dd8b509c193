// Runs in Chromium for tools/bench-three.mjs: load-to-first-frame and per-frame update of
// interquake/three against the glTF route (iq.writeGLB + GLTFLoader.parse), side by side.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { init } from '../web/interquake.js';
import { InterquakeLoader, Q3PlayerLoader } from '../web/three/index.js';

const iq = await init();
const bytes = async (path) => new Uint8Array(await (await fetch(`/corpus/${path}`)).arrayBuffer());
const median = (list) => [...list].sort((a, b) => a - b)[list.length >> 1];

const canvas = document.createElement('canvas');
canvas.width = 256;
canvas.height = 256;
document.body.append(canvas);
const renderer = new THREE.WebGLRenderer({ canvas });
const camera = new THREE.PerspectiveCamera(40, 1, 1, 1000);
camera.position.set(0, 20, 150);
camera.lookAt(0, 0, 0);

function frame(scene) {
  const s = new THREE.Scene();
  s.add(new THREE.AmbientLight(0xffffff, 2), scene);
  renderer.render(s, camera);
  renderer.getContext().finish();
}

const parseGLB = (glb) => new Promise((resolve, reject) => new GLTFLoader()
  .parse(glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength), '', resolve, reject));

/** One model: { ours: { first, update }, gltf: { first, update } } in ms (medians of reps), interleaved. */
export async function model(path, clipName, { textures = false, reps = 5, frames = 600 } = {}) {
  const data = await bytes(path);
  const dir = path.replace(/[^/]*$/, '');
  const files = textures ? async (name) => bytes(dir + name.split('/').pop()).catch(() => null) : {};
  const loader = new InterquakeLoader().setLibrary(iq);
  const out = { ours: { first: [], update: [] }, gltf: { first: [], update: [] } };
  for (let r = 0; r < reps; r++) {
    for (const route of ['ours', 'gltf']) {
      const t0 = performance.now();
      let scene;
      let clips;
      let dispose;
      if (route === 'ours') {
        const result = await loader.parseAsync(data, textures ? `/corpus/${path}` : '', { name: path });
        ({ scene } = result);
        clips = result.animations;
        dispose = () => result.dispose();
      } else {
        const m = iq.load(data, { name: path });
        const { glb } = await iq.writeGLB(m, { files });
        m.dispose();
        const gltf = await parseGLB(glb);
        scene = gltf.scene;
        clips = gltf.animations;
        dispose = () => scene.traverse((o) => { o.geometry?.dispose(); [].concat(o.material ?? []).forEach((x) => { x.map?.dispose(); x.dispose(); }); });
      }
      const mixer = new THREE.AnimationMixer(scene);
      mixer.clipAction(clips.find((c) => c.name === clipName) ?? clips[0]).play();
      mixer.update(0);
      frame(scene);
      out[route].first.push(performance.now() - t0);
      const t1 = performance.now();
      for (let i = 0; i < frames; i++) { mixer.update(1 / 60); scene.updateMatrixWorld(true); }
      out[route].update.push((performance.now() - t1) / frames);
      dispose();
    }
  }
  return { ours: { first: median(out.ours.first), update: median(out.ours.update) }, gltf: { first: median(out.gltf.first), update: median(out.gltf.update) } };
}

/** The sarge player: Q3PlayerLoader (update() and the mixer) against writeGLB(player) + GLTFLoader. */
export async function player(names, { reps = 5, frames = 600 } = {}) {
  const files = new Map();
  for (const n of names) files.set(n, await bytes(`md3/openarena/${n}`));
  const loader = new Q3PlayerLoader().setLibrary(iq);
  const out = { update: { first: [], update: [] }, mixer: { first: [], update: [] }, gltf: { first: [], update: [] } };
  for (let r = 0; r < reps; r++) {
    for (const route of ['update', 'mixer', 'gltf']) {
      const t0 = performance.now();
      let step;
      let root;
      let dispose;
      if (route === 'gltf') {
        const p = iq.loadPlayer(files, {});
        const { glb } = await iq.writeGLB(p);
        p.dispose();
        const gltf = await parseGLB(glb);
        root = gltf.scene;
        const mixer = new THREE.AnimationMixer(root);
        for (const n of ['LEGS_RUN', 'TORSO_STAND']) mixer.clipAction(gltf.animations.find((c) => c.name === n)).play();
        step = (dt) => { mixer.update(dt); root.updateMatrixWorld(true); };
        dispose = () => root.traverse((o) => { o.geometry?.dispose(); });
      } else {
        const q3 = await loader.parseAsync(files, {});
        root = q3.root;
        if (route === 'update') {
          q3.setLegsAnimation('LEGS_RUN');
          step = (dt) => q3.update(dt);
        } else {
          const mixer = new THREE.AnimationMixer(root);
          for (const n of ['LEGS_RUN', 'TORSO_STAND']) mixer.clipAction(q3.animations.find((c) => c.name === n)).play();
          step = (dt) => { mixer.update(dt); root.updateMatrixWorld(true); };
        }
        dispose = () => q3.dispose();
      }
      step(0);
      frame(root);
      out[route].first.push(performance.now() - t0);
      const t1 = performance.now();
      for (let i = 0; i < frames; i++) step(1 / 60);
      out[route].update.push((performance.now() - t1) / frames);
      dispose();
    }
  }
  const m = (k) => ({ first: median(out[k].first), update: median(out[k].update) });
  return { update: m('update'), mixer: m('mixer'), gltf: m('gltf') };
}
