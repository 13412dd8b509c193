// three.js objects from the library's models: geometry (the library's arrays, filled once),
// skeletons and skinned meshes (IQM, IQE), morph meshes cut into chunks three can hold (MD3),
// tag objects, materials with decoded textures, and AnimationClips whose keys are the library's
// own frames and placements. Nothing here knows a file format: a model with joints and blend data
// is skinned, a model with morph frames is morphed, whatever format the library read it from.

import {
  AnimationClip, Bone, BooleanKeyframeTrack, BufferAttribute, BufferGeometry, DataTexture, DoubleSide, Group, Matrix4,
  Mesh, MeshLambertMaterial, NumberKeyframeTrack, Object3D, PropertyBinding, Quaternion, QuaternionKeyframeTrack,
  RGBAFormat, SRGBColorSpace, Skeleton, SkinnedMesh, Texture, UnsignedByteType, Vector3, VectorKeyframeTrack,
  RepeatWrapping, LinearMipmapLinearFilter, LinearFilter, AdditiveBlending, CustomBlending, AddEquation,
  OneFactor, ZeroFactor, DstColorFactor, OneMinusDstColorFactor, SrcAlphaFactor, OneMinusSrcAlphaFactor,
  DstAlphaFactor, OneMinusDstAlphaFactor, SrcAlphaSaturateFactor, SrcColorFactor, OneMinusSrcColorFactor, BackSide,
} from 'three';

/** Morph targets per three.js mesh: frames of a clip are cut into meshes of at most this many + 1. */
export const MAX_MORPH_TARGETS = 64;
/** Keys per frame step of a tag track (three slerps where the library lerps and orthonormalises). */
export const TAG_STEPS = 4;

/** The library's space is Z up; three's is Y up: a group turned -90 degrees about X holds the model. */
export function zUpGroup() {
  const group = new Group();
  group.name = 'interquake_z_up';
  group.rotation.x = -Math.PI / 2;
  group.updateMatrix();
  return group;
}

/** A column-major 4x4 (tagMatrix, player.pose) as a Matrix4. */
export const matrixOf = (m, out = new Matrix4()) => out.fromArray(m);

/** Three keys a node name may not hold ('.', ':', '[', ']', '/'), made safe and unique within `used`. */
export function nodeName(name, used) {
  const base = PropertyBinding.sanitizeNodeName(String(name)) || 'node';
  let out = base;
  for (let i = 2; used.has(out); i++) out = `${base}_${i}`;
  used.add(out);
  return out;
}

// Quake's front faces are clockwise, three's counter-clockwise: two indices of every triangle swapped.
function swappedIndices(indices) {
  const out = new Uint32Array(indices.length);
  for (let i = 0; i < indices.length; i += 3) {
    out[i] = indices[i];
    out[i + 1] = indices[i + 2];
    out[i + 2] = indices[i + 1];
  }
  return out;
}

/** The attributes every mesh of a model shares (copied once from the library's arrays). */
export function sharedAttributes(model, { skinned = false, positions = model.positions, normals = model.normals } = {}) {
  const a = { position: new BufferAttribute(Float32Array.from(positions), 3) };
  if (normals) a.normal = new BufferAttribute(Float32Array.from(normals), 3);
  if (model.texcoords) a.uv = new BufferAttribute(model.texcoords.slice(), 2);
  if (model.colors) a.color = new BufferAttribute(model.colors.slice(), 4);
  if (skinned) {
    a.skinIndex = new BufferAttribute(model.blendIndices.slice(), 4);
    a.skinWeight = new BufferAttribute(model.blendWeights.slice(), 4);
  }
  return { attributes: a, index: new BufferAttribute(swappedIndices(model.indices), 1) };
}

/** One geometry over the shared attributes with a group per library mesh (material index = mesh index). */
export function modelGeometry(model, shared) {
  const geometry = new BufferGeometry();
  for (const [name, attribute] of Object.entries(shared.attributes)) geometry.setAttribute(name, attribute);
  geometry.setIndex(shared.index);
  model.meshes.forEach((m, i) => { if (m.triangleCount) geometry.addGroup(m.firstTriangle * 3, m.triangleCount * 3, i); });
  geometry.computeBoundingSphere();
  geometry.computeBoundingBox();
  return geometry;
}

// -- Skeletons (IQM, IQE)

/** Whether the model is skinned (joints and blend data) rather than morphed. */
export const isSkinned = (model) => model.joints.length > 0 && Boolean(model.blendIndices) && model.vertexCount > 0;
/** Whether the model has morph frames (MD3, and any format that stores whole frames). */
export const isMorphed = (model) => !isSkinned(model) && model.frameCount > 0 && model.vertexCount > 0 && Boolean(model.framePositions);

/**
 * Bones named and parented as the model's joints, in its bind pose, under `holder`; the skeleton's
 * inverses are the library's inverse bind matrices (in the holder's space).
 */
export function buildSkeleton(model, holder, names) {
  const bones = model.joints.map((j) => {
    const bone = new Bone();
    bone.name = nodeName(j.name || 'joint', names);
    bone.position.fromArray(j.translate);
    bone.quaternion.fromArray(j.rotate);
    bone.scale.fromArray(j.scale);
    return bone;
  });
  model.joints.forEach((j, i) => (j.parent >= 0 ? bones[j.parent] : holder).add(bones[i]));
  const inverse = model.inverseBindMatrices;
  const inverses = bones.map((_, i) => {
    const r = inverse.subarray(12 * i, 12 * i + 12); // row-major 3x4
    return new Matrix4().set(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], 0, 0, 0, 1);
  });
  return new Skeleton(bones, inverses);
}

/** Skinned meshes, one per library mesh, sharing the attributes and one skeleton. */
export function skinnedMeshes(model, shared, skeleton, materials, names) {
  const out = [];
  model.meshes.forEach((m, i) => {
    if (!m.triangleCount) return;
    const geometry = new BufferGeometry();
    for (const [name, attribute] of Object.entries(shared.attributes)) geometry.setAttribute(name, attribute);
    geometry.setIndex(shared.index);
    geometry.setDrawRange(m.firstTriangle * 3, m.triangleCount * 3);
    const mesh = new SkinnedMesh(geometry, materials[i]);
    mesh.name = nodeName(m.name || `mesh${i}`, names);
    // The bones live in the mesh's own space (both under the z-up group), so the bind matrix is
    // the identity and the library's inverse binds are the bone inverses ('attached' mode takes
    // the mesh's world matrix out again every frame).
    mesh.bind(skeleton, new Matrix4());
    mesh.frustumCulled = false; // the bind pose's bounds do not hold an animated pose
    out.push(mesh);
  });
  return out;
}

/** The model's animation as a clip of bone tracks keyed on every frame (and the repeat seam). */
export function skeletalClip(iq, model, index, bones) {
  const a = model.animations[index];
  const fps = a.framerate > 0 ? a.framerate : iq.defaultFramerate;
  const n = a.frameCount;
  const J = model.joints.length;
  const loop = a.loop ? 'repeat' : 'once';
  // The C's period: n/fps, or (n-1)/fps for a loop whose last pose is its first (no seam key).
  const duration = n > 0 ? model.frameAt(index, 0, { loop }).duration : 0;
  const frames = Array.from({ length: n }, (_, k) => a.firstFrame + k);
  const times = frames.map((_, k) => k / fps);
  if (loop === 'repeat' && n > 1 && duration > (n - 1) / fps * (1 + 1e-6)) {
    frames.push(a.firstFrame);
    times.push(duration);
  }
  const poses = model.framePoses;
  const tracks = [];
  for (let j = 0; j < J; j++) {
    const t = new Float32Array(frames.length * 3);
    const r = new Float32Array(frames.length * 4);
    const s = new Float32Array(frames.length * 3);
    frames.forEach((f, k) => {
      const p = poses.subarray((f * J + j) * 10, (f * J + j) * 10 + 10);
      t.set(p.subarray(0, 3), 3 * k);
      r.set(p.subarray(3, 7), 4 * k);
      s.set(p.subarray(7, 10), 3 * k);
    });
    // A channel whose every key is the bind value is left out (as the glTF export does): three
    // keeps a property no track drives at the bone's own value, the bind pose.
    const bone = bones[j];
    const name = bone.name;
    if (!constant(t, bone.position.toArray())) tracks.push(new VectorKeyframeTrack(`${name}.position`, times, t));
    if (!constant(r, bone.quaternion.toArray())) tracks.push(new QuaternionKeyframeTrack(`${name}.quaternion`, times, r));
    if (!constant(s, bone.scale.toArray())) tracks.push(new VectorKeyframeTrack(`${name}.scale`, times, s));
  }
  const clip = new AnimationClip(a.name, frames.length > 1 ? times[times.length - 1] : (n > 0 ? duration : 0), tracks);
  clip.userData = { loop, framerate: fps, firstFrame: a.firstFrame, frameCount: n };
  return clip;
}

// Whether every key of `values` (stride = value.length) is exactly `value` (as float32).
function constant(values, value) {
  const n = value.length;
  for (let i = 0; i < values.length; i++) if (values[i] !== Math.fround(value[i % n])) return false;
  return true;
}

// -- Morph frames (MD3)

/**
 * Meshes that play `sequence` (global frames, in order) by morph targets: chunk c holds frames
 * sequence[c*K .. c*K+K] as absolute targets (K = MAX_MORPH_TARGETS; neighbouring chunks share a
 * frame, so every step lies inside one mesh). Hidden until a clip shows them.
 */
export function morphChunks(model, shared, materials, sequence, label, names) {
  const V = model.vertexCount * 3;
  const positions = model.framePositions;
  const normals = model.frameNormals;
  const chunks = [];
  const K = MAX_MORPH_TARGETS;
  for (let start = 0; start === 0 || start < sequence.length - 1; start += K) {
    const frames = sequence.slice(start, Math.min(start + K + 1, sequence.length));
    const geometry = new BufferGeometry();
    for (const [name, attribute] of Object.entries(shared.attributes)) if (name !== 'position' && name !== 'normal') geometry.setAttribute(name, attribute);
    geometry.setAttribute('position', new BufferAttribute(positions.slice(frames[0] * V, frames[0] * V + V), 3));
    if (normals) geometry.setAttribute('normal', new BufferAttribute(normals.slice(frames[0] * V, frames[0] * V + V), 3));
    geometry.setIndex(shared.index);
    model.meshes.forEach((m, i) => { if (m.triangleCount) geometry.addGroup(m.firstTriangle * 3, m.triangleCount * 3, i); });
    geometry.morphTargetsRelative = false;
    geometry.morphAttributes.position = frames.map((f) => new BufferAttribute(positions.slice(f * V, f * V + V), 3));
    if (normals) geometry.morphAttributes.normal = frames.map((f) => new BufferAttribute(normals.slice(f * V, f * V + V), 3));
    geometry.computeBoundingSphere();
    const mesh = new Mesh(geometry, materials);
    mesh.name = nodeName(`${label}_${chunks.length}`, names);
    mesh.visible = false;
    mesh.frustumCulled = false;
    chunks.push({ mesh, start, count: frames.length });
    if (sequence.length <= 1) break;
  }
  return chunks;
}

/**
 * Tracks that play `chunks` over `times` (one per entry of the sequence): the influences of the
 * chunk's targets (one at 1 on its frame, linear between) and which chunk is visible.
 */
export function morphTracks(chunks, times) {
  const tracks = [];
  chunks.forEach((c, ci) => {
    const keyTimes = times.slice(c.start, c.start + c.count);
    const values = new Float32Array(keyTimes.length * c.count);
    keyTimes.forEach((_, k) => { values[k * c.count + k] = 1; });
    tracks.push(new NumberKeyframeTrack(`${c.mesh.name}.morphTargetInfluences`, keyTimes, values));
    const vt = [];
    const vv = [];
    if (ci > 0) { vt.push(0); vv.push(false); }
    vt.push(times[c.start]); vv.push(true);
    if (ci < chunks.length - 1) { vt.push(times[chunks[ci + 1].start]); vv.push(false); }
    tracks.push(new BooleanKeyframeTrack(`${c.mesh.name}.visible`, vt, vv));
  });
  return tracks;
}

/** A track that hides an object for the whole clip (the rest mesh a clip's chunks replace). */
export const hideTrack = (object) => new BooleanKeyframeTrack(`${object.name}.visible`, [0], [false]);

const m4 = new Matrix4();
const pos = new Vector3();
const quat = new Quaternion();
const scl = new Vector3();

/** Puts an Object3D where a column-major 4x4 says (its local matrix). */
export function place(object, matrix) {
  matrixOf(matrix, m4).decompose(object.position, object.quaternion, object.scale);
}

/**
 * Tracks moving `object` as `matrixAt(a, b, t)` (the library's placement between frames a and b)
 * along the sequence: TAG_STEPS keys per step.
 */
export function placementTracks(name, sequence, times, matrixAt) {
  const kt = [];
  const p = [];
  const q = [];
  const s = [];
  let mirrored = false;
  const add = (time, matrix) => {
    matrixOf(matrix, m4).decompose(pos, quat, scl);
    if (m4.determinant() < 0) mirrored = true;
    if (q.length && q[q.length - 4] * quat.x + q[q.length - 3] * quat.y + q[q.length - 2] * quat.z + q[q.length - 1] * quat.w < 0) {
      quat.set(-quat.x, -quat.y, -quat.z, -quat.w); // one hemisphere key to key
    }
    kt.push(time); p.push(pos.x, pos.y, pos.z); q.push(quat.x, quat.y, quat.z, quat.w); s.push(scl.x, scl.y, scl.z);
  };
  for (let i = 0; i < sequence.length; i++) {
    if (i === sequence.length - 1 || TAG_STEPS <= 1) { add(times[i], matrixAt(sequence[i], sequence[i], 0)); continue; }
    for (let k = 0; k < TAG_STEPS; k++) add(times[i] + (times[i + 1] - times[i]) * k / TAG_STEPS, matrixAt(sequence[i], sequence[i + 1], k / TAG_STEPS));
  }
  const tracks = [new VectorKeyframeTrack(`${name}.position`, kt, p), new QuaternionKeyframeTrack(`${name}.quaternion`, kt, q)];
  if (mirrored) tracks.push(new VectorKeyframeTrack(`${name}.scale`, kt, s));
  return tracks;
}

/** An Object3D per tag of an MD3 (named as the tag), placed at frame 0, under `holder`. */
export function tagObjects(model, holder) {
  const tags = {};
  for (const tag of model.tags ?? []) {
    const object = new Object3D();
    object.name = tag;
    place(object, model.tagMatrix(tag, 0));
    holder.add(object);
    tags[tag] = object;
  }
  return tags;
}

// -- Materials and textures

/** A texture from an image the library decoded (TGA: RGBA8, top row first) or an ImageBitmap. */
export function textureOf(image, name) {
  const texture = image.data
    ? new DataTexture(image.data, image.width, image.height, RGBAFormat, UnsignedByteType)
    : new Texture(image);
  texture.name = name;
  texture.flipY = false; // the library's texture origin is the top-left, like the images' first row
  texture.colorSpace = SRGBColorSpace;
  texture.wrapS = RepeatWrapping;
  texture.wrapT = RepeatWrapping;
  texture.magFilter = LinearFilter;
  texture.minFilter = LinearMipmapLinearFilter;
  texture.generateMipmaps = true;
  texture.needsUpdate = true;
  return texture;
}

/** 'opaque', 'mask' (every alpha 0 or 255) or 'blend', from decoded RGBA8 pixels. */
export function alphaOf(image) {
  if (!image.data) return 'opaque';
  let mask = false;
  for (let i = 3; i < image.data.length; i += 4) {
    const a = image.data[i];
    if (a === 255) continue;
    if (a !== 0) return 'blend';
    mask = true;
  }
  return mask ? 'mask' : 'opaque';
}

/** The material a mesh gets: lit diffuse (Quake's lightingDiffuse), its texture when found. */
export function materialFor(name, texture, image, { vertexColors = false } = {}) {
  const material = new MeshLambertMaterial({ name: name || '', color: 0xffffff, vertexColors });
  if (texture) {
    material.map = texture;
    const alpha = alphaOf(image);
    if (alpha === 'mask') material.alphaTest = 0.5;
    if (alpha === 'blend') material.transparent = true;
  }
  return material;
}

const BLEND_FACTORS = {
  GL_ONE: OneFactor, GL_ZERO: ZeroFactor, GL_DST_COLOR: DstColorFactor, GL_ONE_MINUS_DST_COLOR: OneMinusDstColorFactor,
  GL_SRC_ALPHA: SrcAlphaFactor, GL_ONE_MINUS_SRC_ALPHA: OneMinusSrcAlphaFactor, GL_DST_ALPHA: DstAlphaFactor,
  GL_ONE_MINUS_DST_ALPHA: OneMinusDstAlphaFactor, GL_SRC_ALPHA_SATURATE: SrcAlphaSaturateFactor,
  GL_SRC_COLOR: SrcColorFactor, GL_ONE_MINUS_SRC_COLOR: OneMinusSrcColorFactor,
};

/**
 * What of a Quake 3 shader-script block a three material takes: the first stage with an image
 * (its texture), that stage's blendFunc (additive as AdditiveBlending, others as CustomBlending),
 * its alphaFunc (GT0, GE128 as alphaTest; LT128 is not expressible and is dropped), depthWrite,
 * and the block's cull (none: DoubleSide; back: BackSide). Waves, tcMods, tcGen, deforms, rgbGen
 * and later stages are not drawn (the element draws them; docs/THREE.md).
 */
export function applyShaderBlock(material, block) {
  if (!block) return material;
  if (block.cull === 'none') material.side = DoubleSide;
  else if (block.cull === 'back') material.side = BackSide;
  const stage = block.stages.find((s) => s.map === 'image' && s.images.length) ?? block.stages[0];
  if (!stage) return material;
  if (stage.alphaFunc === 'GE128') material.alphaTest = 0.5;
  else if (stage.alphaFunc === 'GT0') material.alphaTest = 1 / 255;
  if (stage.blendSrc && stage.blendSrc !== 'none') {
    material.transparent = true;
    if (stage.blendSrc === 'GL_ONE' && stage.blendDst === 'GL_ONE') material.blending = AdditiveBlending;
    else {
      material.blending = CustomBlending;
      material.blendEquation = AddEquation;
      material.blendSrc = BLEND_FACTORS[stage.blendSrc] ?? OneFactor;
      material.blendDst = BLEND_FACTORS[stage.blendDst] ?? ZeroFactor;
    }
    material.depthWrite = Boolean(stage.depthWrite);
  }
  return material;
}

/** Every geometry, material and texture under `root` disposed (three's GPU side). */
export function disposeObject(root) {
  const seen = new Set();
  root.traverse((o) => {
    if (o.geometry && !seen.has(o.geometry)) { seen.add(o.geometry); o.geometry.dispose(); }
    for (const m of [].concat(o.material ?? [])) {
      if (seen.has(m)) continue;
      seen.add(m);
      if (m.map && !seen.has(m.map)) { seen.add(m.map); m.map.dispose(); }
      m.dispose();
    }
    if (o.isSkinnedMesh && o.skeleton && !seen.has(o.skeleton)) { seen.add(o.skeleton); o.skeleton.dispose(); }
  });
}
