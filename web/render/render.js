// Pictures without a browser (docs/RENDER.md): iq.render() and iq.renderAnimation() draw a model
// or a Quake 3 player with the C's software renderer (src/render/), as the element draws it.
//
// What the element decides is taken from the scene modules the element itself runs (web/scene/),
// so both agree by construction: the animations and their clocks (clock.js: which animation plays,
// the C's frame for a time or a frame number, poseContent), the framing over the animation
// (framing.js), the orbit camera and the attribute syntax (camera.js, light.js). All the drawing is
// the C's (iq_render_draw, iq_render_draw_lines).

import { InterquakeError } from '../core/wasm.js';
import { IDENTITY, affineInverse, transformW, normalizeOrUp } from '../core/mat4.js';
import { modelAnimations, playerAnimations, naturalLoop, poseContent, Track, PLAYER_DEFAULT_ANIMATIONS } from '../scene/clock.js';
import { drawnBounds, sane } from '../scene/framing.js';
import { OrbitCamera, parseOrbit, parseTarget, parseFieldOfView, DEG, DEFAULT_YAW } from '../scene/camera.js';
import { parseLightDirection, DEFAULT_LIGHT, DEFAULT_BACKGROUND, placeholderImage } from '../scene/light.js';
import { shaderEnv, evaluateStage, stageColors, stageTexcoords, deformVertices, autospriteVertices } from '../quake3/shaders.js';
import { overlayLines, triangleEdges, SHOW_FLAGS, WIREFRAME_COLOR } from '../scene/overlays.js';
import { decodeImage } from '../core/images.js';
import { fileReader } from '../core/gltf.js';
import { meshTextureName, textureCandidates } from '../core/paths.js';

/** Samples per pixel along each axis (2: 4 samples, as the 4x MSAA browsers give WebGL). */
export const DEFAULT_SUPERSAMPLE = 2;
const PLACEHOLDER = placeholderImage();
const CPU_DEFORMS = new Set(['wave', 'normal', 'bulge', 'move']);
const SPRITES = new Set(['autosprite', 'autosprite2']);
const wireframeEdges = new WeakMap(); // model -> its triangles' edges, each once (triangleEdges)

/** One picture: { width, height, pixels (RGBA, top row first), missingFiles }. */
export async function render(iq, target, options = {}) {
  const variant = playerVariant(target, options, 'render()');
  try {
    const scene = await Scene.create(iq, variant ?? target, options, 'render()');
    try {
      return scene.draw({ time: options.time, frame: options.frame });
    } finally {
      scene.dispose();
    }
  } finally {
    variant?.dispose();
  }
}

/**
 * A player's `weapon`, `team` or `lod` as the element takes them: the player loaded again from its
 * files with those changed (Player.withOptions), for this call only; null when none is asked.
 */
function playerVariant(target, options, what) {
  if (!options || typeof options !== 'object' || typeof target?.withOptions !== 'function') return null;
  const changes = {};
  for (const key of ['weapon', 'team', 'lod']) if (options[key] !== undefined) changes[key] = options[key];
  if (!Object.keys(changes).length) return null;
  if (options.skin !== undefined) changes.skin = options.skin;
  try {
    return target.withOptions(changes);
  } catch (err) {
    if (err?.code === 'disposed' || err?.code === 'missing_file' || err?.code === 'invalid_argument') {
      throw new InterquakeError(err.code, `${what}: ${err.message}`, err.file ? { file: err.file } : undefined);
    }
    throw err;
  }
}

/**
 * Frames of an animation or a turntable: { frames: [{ width, height, pixels, time }], fps }.
 * options: render()'s, and fps (default 15), frames or duration (seconds; default: the animation's
 * duration, or one second of a turntable), turntable (true: one turn over the frames).
 */
export async function renderAnimation(iq, target, options = {}) {
  const fps = options.fps ?? 15;
  if (!(Number.isFinite(fps) && fps > 0 && fps <= 1000)) throw new InterquakeError('invalid_argument', `renderAnimation(): fps ${options.fps} is not a number in 0..1000`);
  const variant = playerVariant(target, options, 'renderAnimation()');
  try {
    const scene = await Scene.create(iq, variant ?? target, options, 'renderAnimation()');
    try {
      let count = options.frames;
      if (count === undefined) {
        const duration = options.duration ?? (scene.duration() || (options.turntable ? 1 : 0));
        if (!(Number.isFinite(duration) && duration >= 0)) throw new InterquakeError('invalid_argument', `renderAnimation(): duration ${options.duration} is not a number`);
        count = Math.max(1, Math.round(duration * fps));
      }
      if (!(Number.isInteger(count) && count >= 1 && count <= MAX_FRAMES)) {
        throw new InterquakeError('invalid_argument', `renderAnimation(): ${count} frames is not a whole number in 1..${MAX_FRAMES}`);
      }
      const start = Number(options.time) || 0;
      const frames = [];
      for (let i = 0; i < count; i++) {
        const time = start + i / fps;
        const turn = options.turntable ? (360 * i) / count : 0;
        const image = scene.draw({ time, turn });
        frames.push({ ...image, time });
      }
      return { frames, fps };
    } finally {
      scene.dispose();
    }
  } finally {
    variant?.dispose();
  }
}
export const MAX_FRAMES = 10000;
const decodedImages = new WeakMap(); // model or player -> Map(options.files -> Map(path -> Promise<{ img, missing }>))
const framedBounds = new WeakMap();  // model or player -> Map(animations -> { min, max })

// Everything a picture needs that does not change between frames: parts, textures, tracks, framing.
export class Scene {
  static async create(iq, target, options, what) {
    const scene = new Scene(iq, target, options, what);
    await scene._textures();
    scene._frame();
    return scene;
  }

  constructor(iq, target, options, what, content = null) {
    if (!options || typeof options !== 'object') throw new InterquakeError('invalid_argument', `${what}: options must be an object`);
    this.iq = iq;
    this.wasm = iq._wasm;
    this.what = what;
    this.options = options;
    const limit = this.wasm.constants.limit;
    this.maxDimension = limit.renderMaxDimension;
    this.width = dimension(options.width ?? options.size?.[0] ?? 512, 'width', limit, what);
    this.height = dimension(options.height ?? options.size?.[1] ?? this.width, 'height', limit, what);
    this.supersample = options.supersample ?? DEFAULT_SUPERSAMPLE;
    if (!(Number.isInteger(this.supersample) && this.supersample >= 1 && this.supersample <= limit.renderMaxSupersample)) {
      throw new InterquakeError('invalid_argument', `${what}: supersample ${options.supersample} is not a whole number in 1..${limit.renderMaxSupersample}`);
    }
    const samples = this.width * this.height * this.supersample ** 2;
    if (samples > limit.renderMaxSamples) {
      throw new InterquakeError('invalid_argument', `${what}: ${this.width}x${this.height} with ${this.supersample}x${this.supersample} samples per pixel is over the limit of ${limit.renderMaxSamples} samples`);
    }
    this.background = options.background === undefined || options.background === null ? DEFAULT_BACKGROUND : parseColor(options.background);
    if (!this.background) throw new InterquakeError('invalid_argument', `${what}: background '${options.background}' is not a colour`);
    this.fov = parseFieldOfView(options.fieldOfView);
    this.orbit = parseOrbit(options.cameraOrbit ?? 'auto auto auto');
    this.target = parseTarget(options.cameraTarget ?? 'auto auto auto');
    for (const [name, v] of [['fieldOfView', this.fov], ['cameraOrbit', this.orbit], ['cameraTarget', this.target]]) {
      if (v === undefined) throw new InterquakeError('invalid_argument', `${what}: ${name} '${options[name]}' cannot be read`);
    }
    this.light = {
      direction: options.lightDirection == null ? null : parseLightDirection(options.lightDirection),
      intensity: Math.max(0, number(options.lightIntensity, DEFAULT_LIGHT.intensity, 'lightIntensity', what)),
      ambient: Math.max(0, number(options.lightAmbient, DEFAULT_LIGHT.ambient, 'lightAmbient', what)),
    };
    if (options.lightDirection != null && !this.light.direction) {
      throw new InterquakeError('invalid_argument', `${what}: lightDirection '${options.lightDirection}' is not three numbers`);
    }
    this.show = parseShow(options.show, what);
    this.missingFiles = [];
    this.subject = target;
    this.content = content ?? contentOf(iq, target, options, what);
  }

  /**
   * A scene over content its owner builds and poses (the element's software drawer,
   * web/viewer/software.js): content.parts as the element makes them ({ model, instance, matrix,
   * skin, morph, textures (decoded images), shaders }); drawn by drawPosed() with the owner's camera.
   */
  static over(iq, content, options = {}) {
    return new Scene(iq, null, options, options.what ?? 'the software drawer', content);
  }

  // Textures of every part (and its script blocks' stage images), decoded once.
  async _textures() {
    const c = this.content;
    // Decoded once per model or player and source of files (they never change): later pictures
    // of it reuse them. Each entry resolves to { img, missing } (missing: the path was not found).
    let bySource = decodedImages.get(this.subject);
    if (!bySource) decodedImages.set(this.subject, bySource = new Map());
    const source = this.options.files ?? null;
    let decoded = bySource.get(source);
    if (!decoded) bySource.set(source, decoded = new Map());
    const image = async (path, read) => {
      if (!decoded.has(path)) {
        decoded.set(path, (async () => {
          const bytes = read(path);
          if (!bytes) return { img: PLACEHOLDER, missing: true };
          try { return { img: await decodeImage(this.iq, bytes, path), missing: false }; } catch { return { img: PLACEHOLDER, missing: false }; }
        })());
      }
      const { img, missing } = await decoded.get(path);
      if (missing) addMissing(this.missingFiles, path);
      return img;
    };
    if (c.player) {
      const player = c.player;
      const resolved = this.options.skin ? player.resolveSkin(this.options.skin) : { surfaces: player.surfaces, missingFiles: player.missingFiles };
      for (const path of resolved.missingFiles ?? []) addMissing(this.missingFiles, path);
      const read = (path) => player.readFile(path);
      for (const part of c.parts) {
        const list = resolved.surfaces[part.partName] ?? [];
        part.shaders = await Promise.all(part.model.meshes.map(async (mesh, i) => {
          const surface = list.find((s) => s.mesh === i);
          if (!mesh.triangleCount || !surface?.script || !this.iq.shaderSupport) return null;
          const images = {};
          for (const [name, path] of Object.entries(surface.images)) images[name] = path ? await image(path, read) : PLACEHOLDER;
          return { block: surface.script, images };
        }));
        part.textures = await Promise.all(part.model.meshes.map(async (mesh, i) => {
          if (!mesh.triangleCount) return null;
          const surface = list.find((s) => s.mesh === i);
          if (surface?.script && !surface.texture) return PLACEHOLDER;
          if (!surface?.texture) {
            const name = surface?.shader || mesh.material;
            if (!name) return null;
            addMissing(this.missingFiles, name);
            return PLACEHOLDER;
          }
          return image(surface.texture, read);
        }));
      }
      return;
    }
    // A loose model: its textures from options.files, as writeGLB() reads them (each material name
    // as written, then with the other image extensions, then its file name alone).
    const files = this.options.files;
    if (files != null && typeof files !== 'function' && typeof files !== 'object') {
      throw new InterquakeError('invalid_argument', `${this.what}: options.files must be an object or Map of path -> bytes, or a function(path) -> bytes`);
    }
    const readFile = fileReader(files);
    for (const part of c.parts) {
      part.shaders = part.model.meshes.map(() => null);
      part.textures = await Promise.all(part.model.meshes.map(async (mesh, i) => {
        const name = this.options.textures?.[i] ?? meshTextureName(mesh); // writeGLB's and the viewer's rule; options.textures as writeGLB takes them
        if (!name || !mesh.triangleCount) return null;
        if (!decoded.has(name)) {
          decoded.set(name, (async () => {
            for (const path of readFile ? textureCandidates(name, { loose: true }) : []) {
              const bytes = await readFile(path);
              if (!bytes) continue;
              try { return { img: await decodeImage(this.iq, bytes, path), missing: false }; } catch { return { img: PLACEHOLDER, missing: false }; }
            }
            return { img: PLACEHOLDER, missing: true };
          })());
        }
        const { img, missing } = await decoded.get(name);
        if (missing) addMissing(this.missingFiles, name);
        return img;
      }));
    }
  }

  // The tracks on their animations (as the element starts them) and the framing over them.
  _frame() {
    const c = this.content;
    const o = this.options;
    this.tracks = c.player ? [new Track('legs'), new Track('torso')] : [new Track('both')];
    for (const track of this.tracks) {
      const wanted = track.part === 'legs' ? o.legsAnimation : track.part === 'torso' ? o.torsoAnimation : o.animation;
      let animation = null;
      if (wanted != null) {
        animation = findAnimation(c.animations, wanted, track.part);
        if (!animation) {
          const names = c.animations.map((a) => a.name).join(', ') || 'none';
          throw new InterquakeError('invalid_argument', `${this.what}: no animation '${wanted}' (this model has: ${names})`);
        }
      }
      const standard = PLAYER_DEFAULT_ANIMATIONS[track.part];
      animation ??= (standard && c.animations.find((a) => a.name === standard))
        || c.animations.find((a) => a.part === track.part)
        || c.animations.find((a) => a.part === 'both' || track.part === 'both') || null;
      if (animation) track.start(animation, { speed: 1, loop: o.loop ?? naturalLoop(animation) });
    }
    // The framing over the animations: computed once per model or player and pair of animations.
    const key = this.tracks.map((t) => `${t.part}:${t.animation?.name ?? ''}:${t.animation?.part ?? ''}`).join('|');
    let cache = framedBounds.get(this.subject);
    if (!cache) framedBounds.set(this.subject, cache = new Map());
    if (!cache.has(key)) cache.set(key, sane(drawnBounds(c, this.tracks)));
    this.bounds = cache.get(key);
    c.bounds = this.bounds; // the grid's place, as the element's content.bounds
  }

  /** Seconds of the longest track's pass (0 without animation). */
  duration() {
    return Math.max(0, ...this.tracks.map((t) => t.duration || 0));
  }

  /** One picture at { time } or { frame } (frame wins), the orbit turned by `turn` degrees. */
  draw({ time, frame, turn = 0 } = {}) {
    const { what } = this;
    if (frame !== undefined && frame !== null) {
      if (!Number.isFinite(Number(frame))) throw new InterquakeError('invalid_argument', `${what}: frame '${frame}' is not a number`);
      for (const track of this.tracks) track.seekFrame(Number(frame));
    } else {
      const t = time === undefined || time === null ? 0 : Number(time);
      if (!Number.isFinite(t)) throw new InterquakeError('invalid_argument', `${what}: time '${time}' is not a number`);
      for (const track of this.tracks) track.seek(t);
    }
    // Shader scripts' clock: the time asked for; for a frame, the play head's time (as the
    // element's renderFrame holds it); options.shaderTime overrides both.
    const asked = this.options.shaderTime;
    const shaderTime = Number.isFinite(asked) ? asked : frame !== undefined && frame !== null ? (this.tracks[0]?.time ?? 0) : Number(time) || 0;
    poseContent(this.content, this.tracks, true);
    return this.drawPosed({ camera: this._camera(turn), shaderTime });
  }

  /**
   * The content as it is posed now (each part's skin, morph and matrix), seen by frame.camera
   * ({ viewProjection, eye, light }: the C's camera, or the element's OrbitCamera.matrices()), with
   * the shader scripts at frame.shaderTime: { width, height, pixels, missingFiles }. frame.width,
   * height, supersample, background ([r, g, b, a]) and light ({ direction, intensity, ambient })
   * override the scene's options (the element's canvas and attributes change between frames);
   * Overlays: frame.lines, frame.depthLines and frame.wireframe as the element gives its WebGL
   * renderer (overlayLines' top and depth segments, and the wireframe flag), else the scene's show.
   */
  drawPosed(frame) {
    const { wasm, what } = this;
    const { camera, shaderTime = 0 } = frame;
    const width = frame.width ?? this.width;
    const height = frame.height ?? this.height;
    const supersample = frame.supersample ?? this.supersample;
    const light = frame.light ?? this.light;
    const view = { viewProjection: camera.viewProjection, light: light.direction ?? camera.light, ambient: light.ambient, intensity: light.intensity };
    const texture = this._heapTextures();
    const mem = wasm.arena(what);
    try {
      const viewPtr = mem.records('iq_render_view', [view]);
      const surfacePtr = mem.alloc(wasm.sizeof('iq_render_surface'));
      const colorPtr = mem.alloc(16);
      // The target is kept for the next picture of the same size (an element draws every frame).
      const size = `${width}x${height}x${supersample}`;
      if (this._targetSize !== size) {
        this._freeTarget();
        this._target = wasm.make('iq_wasm_render_target_new', [width, height, supersample, wasm.errorPtr], what);
        this._targetSize = size;
      }
      const target = this._target;
      wasm.array(Float32Array, colorPtr, 4).set(frame.background ?? this.background);
      wasm.value('iq_wasm_render_clear', target, colorPtr);
      const drawSurface = (values) => {
        wasm.fill('iq_render_surface', surfacePtr, values);
        wasm.call('iq_wasm_render_draw', [target, viewPtr, surfacePtr, wasm.errorPtr], { file: what });
      };
      // show: the element's overlays (web/scene/overlays.js), drawn as its renderer draws them: the
      // grid and normals before the model with the depth test, bones, tags and bounds over it.
      const drawLines = (values) => {
        const ptr = mem.records('iq_render_lines', [{ matrix: Array.from(IDENTITY), ...values }]);
        wasm.call('iq_wasm_render_draw_lines', [target, viewPtr, ptr, wasm.errorPtr], { file: what });
      };
      const drawSegments = (segments, depthTest) => {
        if (!segments?.length) return;
        const at = mem.bytes(new Uint8Array(segments.buffer, segments.byteOffset, segments.byteLength));
        drawLines({ positions: at, colors: at + 12, stride: 6, vertexCount: segments.length / 6, segmentCount: segments.length / 12, depthTest });
      };
      const given = 'lines' in frame || 'depthLines' in frame;
      const overlays = given ? { top: frame.lines, depth: frame.depthLines } : this.show.size ? this._overlays(camera) : null;
      const wireframe = frame.wireframe ?? this.show.has('wireframe');
      drawSegments(overlays?.depth, 1);
      const scripted = [];
      for (const part of frame.parts ?? this.content.parts) {
        const model = part.model;
        if (!model.vertexCount || !model.triangleCount) continue;
        const posed = posedVertices(part);
        const base = {
          positions: wasm.addressOf(posed.positions), normals: addressOrZero(wasm, posed.normals),
          texcoords: addressOrZero(wasm, model.texcoords), colors: addressOrZero(wasm, model.colors),
          vertexCount: model.vertexCount, matrix: Array.from(part.matrix ?? IDENTITY), lit: 1,
          cull: wasm.constants.shader_cull.front, depthWrite: 1, depthFunc: wasm.constants.shader_depth_func.lequal,
        };
        const indices = wasm.addressOf(model.indices);
        model.meshes.forEach((mesh, i) => {
          if (!mesh.triangleCount) return;
          if (part.shaders[i]) { scripted.push({ part, mesh, shader: part.shaders[i] }); return; }
          drawSurface({ ...base, indices: indices + mesh.firstTriangle * 12, triangleCount: mesh.triangleCount, texture: texture(part.textures[i]) });
        });
        if (wireframe) {
          // Every triangle edge once over the part's shaded surfaces, depth-tested (the element's uFlat lines).
          if (!wireframeEdges.has(model)) wireframeEdges.set(model, triangleEdges(model.indices));
          const edges = wireframeEdges.get(model);
          drawLines({
            positions: base.positions, vertexCount: model.vertexCount, indices: mem.u32s(edges), segmentCount: edges.length / 2,
            matrix: base.matrix, color: WIREFRAME_COLOR, depthTest: 1,
          });
        }
      }
      if (scripted.length) this._drawScripted(scripted, camera, view, shaderTime, texture, mem, drawSurface);
      drawSegments(overlays?.top, 0);
      const out = mem.alloc(width * height * 4);
      wasm.value('iq_wasm_render_resolve', target, out);
      return { width, height, pixels: wasm.copy(out, width * height * 4), missingFiles: [...this.missingFiles] };
    } finally {
      mem.free();
    }
  }

  _freeTarget() {
    if (this._target) this.wasm.value('iq_wasm_render_target_free', this._target);
    this._target = 0;
    this._targetSize = null;
  }

  // Every image the parts draw with, in the heap once per scene (a mipmap chain for the filtered
  // ones, as the element's textures have): a function image -> iq_render_texture values.
  // Images are added as they first appear (an element's skin change brings new ones).
  _heapTextures() {
    const { wasm } = this;
    this._textureMem ??= wasm.arena(this.what);
    this._textureAt ??= new Map();
    for (const part of this.content.parts) {
      for (const img of [...part.textures, ...(part.shaders ?? []).flatMap((s) => (s ? Object.values(s.images) : []))]) {
        if (!img || this._textureAt.has(img)) continue;
        const rgba = this.options.rgba?.(img) ?? img; // options.rgba: { width, height, data } of an image that has no data (an ImageBitmap)
        const nearest = img.crisp || (rgba.width <= 16 && rgba.height <= 16);
        const bytes = nearest ? 0 : wasm.value('iq_wasm_render_mipmap_bytes', rgba.width, rgba.height);
        if (bytes > 0) {
          const chain = this._textureMem.alloc(bytes);
          const source = this._textureMem.bytes(rgba.data);
          wasm.call('iq_wasm_render_mipmaps', [source, rgba.width, rgba.height, chain], { message: `mipmaps of a ${rgba.width}x${rgba.height} image` });
          this._textureAt.set(img, { data: chain, nearest: 0, mipmapped: 1 });
        } else {
          this._textureAt.set(img, { data: this._textureMem.bytes(rgba.data), nearest: 1, mipmapped: 0 });
        }
      }
    }
    return (img, clamp = false) => {
      if (!img) return { width: 0, height: 0, data: 0, nearest: 0, clamp: 0, mipmapped: 0 };
      const at = this._textureAt.get(img);
      return { width: img.width, height: img.height, ...at, clamp: clamp ? 1 : 0 };
    };
  }

  /** Frees the scene's textures and render target in the heap. */
  dispose() {
    this._freeTarget();
    this._textureMem?.free();
    this._textureMem = null;
    this._textureAt = null;
  }

  // The element's orbit camera (web/scene/camera.js, the same object the element moves), framed
  // over the animation's box and placed by camera-orbit and camera-target; `turn` degrees round Z
  // from the orbit's angle for turntables. { viewProjection, eye, light, axes, fitRadius }.
  _camera(turn) {
    const o = this.orbit;
    const camera = new OrbitCamera();
    camera.fov = this.fov;
    camera.aspect = this.width / this.height;
    camera.orbit = { ...o, theta: o.theta === null && !turn ? null : (o.theta ?? DEFAULT_YAW) + turn * DEG };
    camera.targetSpec = this.target;
    camera.fit(this.bounds);
    return { ...camera.matrices(camera.aspect), fitRadius: camera.fitRadius };
  }

  // The element's overlay lines for the flags in show (overlayLines, as the element calls it: the
  // framed box for the grid, the camera's fit radius for sizes); normals from the vertices as drawn.
  _overlays(camera) {
    const parts = this.content.parts.map((part) => {
      if (!this.show.has('normals') || !part.model.vertexCount) return part;
      const posed = posedVertices(part);
      return { ...part, geometry: { vertexCount: part.model.vertexCount, positions: posed.positions, normals: posed.normals, frames: null, joints: null } };
    });
    return overlayLines({ ...this.content, parts }, this.show, { fitRadius: camera.fitRadius });
  }

  // Quake 3 shader-script surfaces in the shader's sort order, stage by stage, as shaderdraw.js
  // draws them: colours and texture coordinates per vertex from the C (stageColors,
  // stageTexcoords), CPU deforms and autosprites by the C (autosprite quads turned toward the view
  // in the part's space), polygonOffset as the element's gl.polygonOffset(-1, -2).
  _drawScripted(surfaces, camera, view, time, texture, mem, drawSurface) {
    const { wasm, iq } = this;
    const k = wasm.constants;
    const sorted = surfaces.map((s, i) => ({ s, i })).sort((a, b) => a.s.shader.block.sort - b.s.shader.block.sort || a.i - b.i);
    const env0 = shaderEnv(iq);
    const posedParts = new Map();
    for (const { s } of sorted) {
      const { part, mesh, shader } = s;
      const block = shader.block;
      const model = part.model;
      const inverse = affineInverse(part.matrix ?? IDENTITY);
      const eye = transformW(inverse, camera.eye, 1);
      const light = normalizeOrUp(transformW(inverse, view.light, 0));
      const env = { ...env0, time, viewOrigin: eye, lightDir: light };
      let posed = posedParts.get(part);
      if (!posed) {
        const p = posedVertices(part);
        posed = { positions: Float32Array.from(p.positions), normals: p.normals ? Float32Array.from(p.normals) : new Float32Array(p.positions.length) };
        posedParts.set(part, posed);
      }
      let { positions, normals } = posed;
      let st = model.texcoords ? Float32Array.from(model.texcoords) : new Float32Array(model.vertexCount * 2);
      if (block.deforms.some((x) => CPU_DEFORMS.has(x.type))) {
        positions = positions.slice();
        normals = normals.slice();
        deformVertices(iq, block, env, positions, normals, st);
      }
      let vertexColors = model.colors ? Float32Array.from(model.colors) : null;
      let indices = Uint32Array.from(model.indices.subarray(mesh.firstTriangle * 3, (mesh.firstTriangle + mesh.triangleCount) * 3));
      let vertexCount = model.vertexCount;
      const sprite = block.deforms.find((x) => SPRITES.has(x.type))?.type;
      if (sprite) {
        // The surface's own vertices (its index range, as the element takes them), turned by the C.
        let lo = Infinity; let hi = -1;
        for (const i of indices) { if (i < lo) lo = i; if (i > hi) hi = i; }
        vertexCount = hi - lo + 1;
        const range = (a, k) => a.slice(lo * k, (hi + 1) * k);
        positions = range(positions, 3);
        normals = range(normals, 3);
        st = range(st, 2);
        vertexColors = vertexColors && range(vertexColors, 4);
        const axes = [camera.axes.forward, camera.axes.left, camera.axes.up].map((a) => normalizeOrUp(transformW(inverse, a, 0)));
        indices = autospriteVertices(iq, sprite, axes, { positions, normals, texcoords: st, colors: vertexColors, indices: indices.map((i) => i - lo) });
      }
      const offset = block.flags.includes('polygonOffset') ? { offsetFactor: -1, offsetUnits: -2 } : {};
      const cull = k.shader_cull[block.cull] ?? k.shader_cull.front;
      for (const stage of block.stages) {
        if (stage.map === 'lightmap') continue;
        const state = evaluateStage(iq, stage, env);
        let img = null;
        if (stage.map === 'image') img = shader.images[stage.images[state.frame] ?? stage.images[0]] ?? null;
        const colors = stageColors(iq, stage, env, positions, normals, vertexColors);
        const texcoords = stageTexcoords(iq, stage, env, positions, normals, st);
        const blended = stage.blendSrc !== 'none';
        const arrays = [positions, normals, texcoords, colors, indices].map((a) => mem.bytes(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)));
        drawSurface({
          positions: arrays[0], normals: arrays[1], texcoords: arrays[2], colors: arrays[3], vertexCount,
          indices: arrays[4], triangleCount: indices.length / 3, matrix: Array.from(part.matrix ?? IDENTITY), lit: 0, ...offset,
          texture: texture(img, stage.clamp), cull,
          blendSrc: blended ? k.shader_blend[stage.blendSrc] : 0, blendDst: blended ? k.shader_blend[stage.blendDst] : 0,
          alphaFunc: k.shader_alpha_func[stage.alphaFunc] ?? 0, depthWrite: stage.depthWrite ? 1 : 0,
          depthFunc: stage.depthFunc === 'equal' ? k.shader_depth_func.equal : k.shader_depth_func.lequal,
        });
      }
    }
  }
}

// What to draw: one model, or a player's parts (the muzzle flash left out, as the element does).
function contentOf(iq, target, options, what) {
  if (target && target.parts && typeof target.pose === 'function' && target.parts.lower) {
    const player = target;
    const parts = [];
    for (const [name, part] of Object.entries(player.parts)) {
      if (name === 'flash') continue;
      parts.push({
        name: part.path ?? name, partName: name, model: part.model, instance: part.model, matrix: IDENTITY,
        track: name === 'lower' ? 'legs' : name === 'upper' || name === 'weapon' ? 'torso' : 'none',
        skin: null, morph: { a: 0, b: 0, t: 0 }, frames: { a: 0, b: 0, t: 0 },
      });
    }
    return { player, parts, animations: playerAnimations(iq, player) };
  }
  if (target && typeof target.evaluate === 'function' && Array.isArray(target.meshes)) {
    if (target.disposed) throw new InterquakeError('disposed', `${what}: the model was disposed`);
    const part = { name: target.name, model: target, instance: target, matrix: IDENTITY, track: 'both', skin: null, morph: null };
    return { player: null, parts: [part], animations: modelAnimations(iq, target) };
  }
  throw new InterquakeError('invalid_argument', `${what} takes a model from load() or a player from loadPlayer()`);
}

// A part's vertices as drawn: MD3 morphed between its two frames, skinned by its pose, or as loaded.
function posedVertices(part) {
  const model = part.model;
  if (part.morph && model.frameCount) return part.instance.morph(part.morph.a, part.morph.b, part.morph.t);
  if (part.skin) return part.instance.skin();
  return { positions: model.positions, normals: model.normals };
}

// options.show: the element's show attribute (space or comma separated words), an array or a Set
// of SHOW_FLAGS; an unknown word is refused (the element ignores it).
function parseShow(value, what) {
  if (value === undefined || value === null || value === false) return new Set();
  const words = typeof value === 'string' ? value.split(/[\s,]+/).filter(Boolean) : value instanceof Set || Array.isArray(value) ? [...value] : null;
  const unknown = words?.find((w) => !SHOW_FLAGS.includes(w));
  if (!words || unknown !== undefined) {
    throw new InterquakeError('invalid_argument', `${what}: show '${unknown ?? value}' is not among ${SHOW_FLAGS.join(', ')}`);
  }
  return new Set(words);
}

function addressOrZero(wasm, view) {
  const at = view ? wasm.addressOf(view) : 0;
  return at < 0 ? 0 : at;
}

function findAnimation(list, name, part) {
  const fits = (a) => part === 'both' || a.part === part || a.part === 'both';
  if (typeof name === 'number') return list.filter(fits)[name] ?? null;
  return list.find((a) => a.name === name && fits(a)) ?? list.find((a) => a.name.toLowerCase() === String(name).toLowerCase() && fits(a)) ?? null;
}

function dimension(value, name, limit, what) {
  const v = Number(value);
  if (typeof value === 'boolean' || !Number.isInteger(v) || v < 1 || v > limit.renderMaxDimension) {
    throw new InterquakeError('invalid_argument', `${what}: ${name} ${JSON.stringify(value)} is not a whole number in 1..${limit.renderMaxDimension}`);
  }
  return v;
}

function number(value, fallback, name, what) {
  if (value === undefined || value === null) return fallback;
  const v = Number(value);
  if (!Number.isFinite(v)) throw new InterquakeError('invalid_argument', `${what}: ${name} '${value}' is not a number`);
  return v;
}

function addMissing(list, path) {
  const key = path.toLowerCase().replace(/\\/g, '/');
  if (!list.some((p) => p.toLowerCase().replace(/\\/g, '/') === key)) list.push(path);
}

const NAMED_COLORS = {
  black: '#000', white: '#fff', red: '#f00', lime: '#0f0', green: '#008000', blue: '#00f', yellow: '#ff0', cyan: '#0ff',
  aqua: '#0ff', magenta: '#f0f', fuchsia: '#f0f', gray: '#808080', grey: '#808080', silver: '#c0c0c0', maroon: '#800000',
  olive: '#808000', purple: '#800080', teal: '#008080', navy: '#000080', orange: '#ffa500',
};

/**
 * A colour as the element's background takes it, in Node too: 'transparent', #rgb, #rgba,
 * #rrggbb, #rrggbbaa, rgb()/rgba() (0..255 or %, alpha 0..1 or %), CSS's basic named colours, or
 * [r, g, b, a] in 0..1. Returns [r, g, b, a] in 0..1, or null.
 */
export function parseColor(value) {
  if (Array.isArray(value)) return value.length === 4 && value.every((v) => Number.isFinite(v) && v >= 0 && v <= 1) ? [...value] : null;
  let t = String(value).trim().toLowerCase();
  if (t === 'transparent') return [0, 0, 0, 0];
  t = NAMED_COLORS[t] ?? t;
  let m = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(t);
  if (m) {
    let h = m[1];
    if (h.length <= 4) h = [...h].map((c) => c + c).join('');
    const v = h.match(/../g).map((x) => parseInt(x, 16) / 255);
    return v.length === 3 ? [...v, 1] : v;
  }
  m = /^rgba?\(([^)]*)\)$/.exec(t);
  if (!m) return null;
  const parts = m[1].split(/[\s,/]+/).filter(Boolean);
  if (parts.length < 3 || parts.length > 4) return null;
  const out = parts.map((p, i) => {
    const pct = p.endsWith('%');
    const n = Number(pct ? p.slice(0, -1) : p);
    if (!Number.isFinite(n)) return NaN;
    return Math.min(Math.max(i === 3 ? (pct ? n / 100 : n) : pct ? n / 100 : n / 255, 0), 1);
  });
  if (out.some(Number.isNaN)) return null;
  return out.length === 3 ? [...out, 1] : out;
}
