// three.js as a consumer of our GLB, in Node: GLTFLoader parses it (images stripped: three needs a
// DOM to decode them), AnimationMixer plays it, and getVertexPosition applies morph targets and
// skinning on the CPU. Positions are compared with the library's own in glTF's Y-up space.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { editGLBJson } from '../../../web/core/gltf.js';

/** The GLB without images, textures and samplers (geometry and animation untouched). */
export function stripImages(glb) {
  return editGLBJson(glb, (json) => {
    delete json.images;
    delete json.textures;
    delete json.samplers;
    for (const m of json.materials || []) if (m.pbrMetallicRoughness) delete m.pbrMetallicRoughness.baseColorTexture;
  });
}

/** Parses a GLB with three's GLTFLoader: resolves to the gltf ({ scene, animations, ... }). */
export function parseGLB(glb) {
  const bytes = stripImages(glb);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return new Promise((resolve, reject) => new GLTFLoader().parse(buffer, '', resolve, reject));
}

/** A player of the gltf's clips: play(names) starts them together, at(t) poses the scene at t seconds. */
export function mixerOf(gltf) {
  const mixer = new THREE.AnimationMixer(gltf.scene);
  let actions = [];
  return {
    /** Starts the named clips together; loop false (or loop(name) false) plays once and holds the last frame. */
    play(names, { loop = true } = {}) {
      mixer.stopAllAction();
      actions = [];
      for (const name of [].concat(names)) {
        const clip = gltf.animations.find((a) => a.name === name);
        if (!clip) throw new Error(`no clip ${name} (have ${gltf.animations.map((a) => a.name).join(', ')})`);
        const action = mixer.clipAction(clip).reset();
        if (!(typeof loop === 'function' ? loop(name) : loop)) {
          action.setLoop(THREE.LoopOnce, 1);
          action.clampWhenFinished = true;
        }
        action.play();
        actions.push(action);
      }
    },
    at(t) {
      // a clip that played once and finished is paused: start every clip again, then jump to t
      for (const action of actions) action.reset();
      mixer.setTime(t);
      gltf.scene.updateMatrixWorld(true);
    },
  };
}

const v = new THREE.Vector3();

/** World positions (Y up) of every vertex of a mesh as three draws it now. */
export function worldPositions(mesh) {
  const n = mesh.geometry.attributes.position.count;
  const out = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    mesh.getVertexPosition(i, v);
    v.applyMatrix4(mesh.matrixWorld);
    out[3 * i] = v.x;
    out[3 * i + 1] = v.y;
    out[3 * i + 2] = v.z;
  }
  return out;
}

/** Is the mesh shown (no zero scale on its way to the root)? (decompose() reports 1 for a zero matrix) */
export const shown = (object) => Math.abs(object.matrixWorld.determinant()) > 1e-12;

/**
 * The meshes that belong to a part node (its rest and morph-chunk meshes), not those of the
 * parts hanging from its tags.
 */
export function partMeshes(gltf, partName) {
  const part = gltf.scene.getObjectByName(partName);
  if (!part) throw new Error(`no node ${partName}`);
  const meshes = [];
  for (const child of part.children) {
    if (child.name.startsWith('tag_')) continue;
    child.traverse((o) => { if (o.isMesh) meshes.push(o); });
  }
  return meshes;
}

/** The largest difference between three's Y-up positions and the library's Z-up ones (x, y, z) -> (x, z, -y). */
export function maxDifference(threePositions, zUp, matrix = null) {
  let worst = 0;
  for (let i = 0; i < threePositions.length / 3; i++) {
    let x = zUp[3 * i];
    let y = zUp[3 * i + 1];
    let z = zUp[3 * i + 2];
    if (matrix) { // column-major 4x4 (tagMatrix, player.pose)
      const m = matrix;
      [x, y, z] = [m[0] * x + m[4] * y + m[8] * z + m[12], m[1] * x + m[5] * y + m[9] * z + m[13], m[2] * x + m[6] * y + m[10] * z + m[14]];
    }
    worst = Math.max(worst, Math.abs(threePositions[3 * i] - x), Math.abs(threePositions[3 * i + 1] - z), Math.abs(threePositions[3 * i + 2] + y));
  }
  return worst;
}

// The library's player at a moment: each part's vertices lerped between its frames, placed by its matrix.
export function playerVertices(player, part, p) {
  const model = player.parts[part].model;
  const n = model.vertexCount * 3;
  const all = model.framePositions;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = all[p.from * n + i] * (1 - p.lerp) + all[p.to * n + i] * p.lerp;
  return out;
}
