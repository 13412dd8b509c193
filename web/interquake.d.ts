// Type declarations for the interquake JS API (web/interquake.js).

export type Format =
  | 'iqm' | 'iqe' | 'md3'
  | 'md5' // Doom 3 (.md5mesh, .md5anim)
  | 'dpm' // DarkPlaces
  | 'zym' // DarkPlaces (Zymotic)
  | 'mdr' // ioquake3's skeletal format
  | 'md2' // Quake 2
  | 'mdl' // Quake 1
  | 'mdc'; // Return to Castle Wolfenstein, Enemy Territory

// Symbol.dispose (the `using` declaration) for consumers whose lib predates it (before esnext /
// es2025), declared as lib.esnext.disposable and @types/node declare it, so the declarations merge.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

/** Stable error codes; see README "Errors". */
// BEGIN ErrorCode: generated from src/base/iq_errors.h, JS_ERRORS (web/core/wasm.js) and VIEWER_ERRORS
// (web/viewer/errors.js) by tools/gen-types.mjs (a test checks it)
export type ErrorCode =
  | 'invalid_argument' | 'out_of_memory' | 'limit' | 'unknown_format' | 'bad_magic' | 'bad_version'
  | 'bad_filesize' | 'truncated' | 'out_of_range' | 'bad_string' | 'bad_vertex_array' | 'bad_mesh'
  | 'bad_index' | 'bad_hierarchy' | 'bad_value' | 'bad_animation' | 'bad_extension' | 'syntax'
  | 'unsupported' | 'skeleton_mismatch' | 'disposed' | 'internal' | 'wasm_unavailable' | 'wasm_mismatch'
  | 'unavailable' | 'missing_file' | 'bad_checksum' | 'bad_deflate' | 'webgl2_unavailable' | 'fetch_failed'
  | 'missing_main_file' | 'not_loaded' | 'screenshot_failed';
// END ErrorCode

export class InterquakeError extends Error {
  /** `where` locates the problem (as the library's own errors do); `code` must be a listed code. */
  constructor(code: ErrorCode, message: string, where?: { offset?: number; line?: number; column?: number; file?: string });
  readonly name: 'InterquakeError';
  /** Stable lowercase identifier of the failure kind. */
  readonly code: ErrorCode;
  /** Byte offset in the input where the problem is, or -1. */
  readonly offset: number;
  /** 1-based line and column for text formats, or 0. */
  readonly line: number;
  readonly column: number;
  /** The name passed to load(), when there was one. */
  readonly file?: string;
}

/** Whether this engine runs WebAssembly SIMD (then init() loads the SIMD build). */
export function simdSupported(): boolean;

export interface InitOptions {
  /** false: load interquake-baseline.wasm even where SIMD works. */
  simd?: boolean;
  /** The WASM to use instead of interquake.wasm next to interquake.js. */
  wasm?: ArrayBuffer | ArrayBufferView | WebAssembly.Module | Response | URL | string;
}

/** Compiles the WASM once; later calls resolve to the same library. */
export function init(options?: InitOptions): Promise<Interquake>;

export interface LoadOptions {
  /** The file's name: used in error messages, and by formats that name something after their file
   * (an .md5anim's one animation takes the base name without extension). */
  name?: string;
  /** Forces a parser; 'auto' (the default) reads the magic bytes. */
  format?: 'auto' | Format;
  /** The text of a DarkPlaces `.framegroups` file ("first count [fps [loop [name]]]" per line): it names the model's animations. */
  framegroups?: string | Uint8Array | ArrayBuffer | ArrayBufferView;
}

/** The library init() resolves to (made by init() only). */
export class Interquake {
  private constructor();
  /** Every code an InterquakeError can carry: the C's list and the JS library's (the element's own are in VIEWER_ERRORS). */
  readonly errorCodes: readonly ErrorCode[];
  /** Frames per second used when neither the options nor the file give one (DEFAULT_FRAMERATE). */
  readonly defaultFramerate: number;
  /** The clip rate MD3 models get: the file stores none. */
  readonly md3Framerate: number;
  /** Parses and validates a model. Throws InterquakeError on bad input. */
  load(bytes: Uint8Array | ArrayBuffer | ArrayBufferView, options?: LoadOptions): Model;
  /**
   * Serialises a loaded model (IQM or IQE) to IQM v2: a new Uint8Array the caller owns.
   * Vertex data is written as float arrays (blend indices and weights as ubyte x4, weights summing
   * to 255), custom arrays as stored; frames are quantised to 16 bits per channel, each channel
   * within (its range over all frames) / 131070 of the model's value. Adjacency is computed when
   * the model has none; per-frame bounds are computed by skinning. Throws InterquakeError.
   */
  writeIQM(model: Model): Uint8Array;
  /**
   * glTF 2.0 binary (GLB) of a model (IQM/IQE/MD3, with its animations) or a player from
   * loadPlayer() (parts on tags, animation.cfg clips). Textures are embedded (TGA re-encoded as
   * PNG); a texture not found is a warning, never a failure. docs/GLTF.md.
   */
  writeGLB(target: Model | Player, options?: GLBOptions): Promise<GLBResult>;
  /**
   * A picture of a model or a player drawn by the C's software renderer as <interquake-viewer>
   * draws it, without a browser or a GPU (docs/RENDER.md). Needs interquake.wasm (the one-file
   * element's build rejects with 'unsupported'). Bad sizes and options: 'invalid_argument'.
   */
  render(target: Model | Player, options?: RenderOptions): Promise<RenderedImage>;
  /** Frames of an animation or a turntable (docs/RENDER.md). */
  renderAnimation(target: Model | Player, options?: RenderAnimationOptions): Promise<RenderedAnimation>;
  /** A picture from render() as PNG bytes (RGBA). */
  encodePNG(image: RenderedImage): Promise<Uint8Array>;
  /** Frames from renderAnimation() as an animated PNG that loops forever (fps default: the frames' own, else 15). */
  encodeAPNG(frames: RenderedAnimation | RenderedImage[], options?: { fps?: number }): Promise<Uint8Array>;
  /** Frames as one PNG and a JSON-ready atlas of their rectangles. */
  encodeSpriteSheet(frames: RenderedAnimation | RenderedImage[], options?: { columns?: number }): Promise<SpriteSheet>;
  /**
   * Decodes a TGA (uncompressed or RLE; colour-mapped, grey, 15/16/24/32-bit; either origin) to RGBA8,
   * top row first (ready for WebGL with UNPACK_FLIP_Y false). Throws InterquakeError on bad input.
   */
  decodeTGA(bytes: Uint8Array | ArrayBuffer | ArrayBufferView, options?: { name?: string }): DecodedImage;
  /** Which build was loaded: true SIMD, false baseline, undefined when options.wasm was given. */
  readonly simd: boolean | undefined;
  /**
   * Whether shader scripts can be read now: always with interquake.wasm; with the one-file
   * element's smaller interquake-viewer.wasm, once loadShaderSupport() has resolved.
   */
  readonly shaderSupport: boolean;
  /**
   * Makes shader scripts available: resolves at once with interquake.wasm; with the smaller build,
   * fetches and instantiates interquake-shaders.wasm (once). Rejects with wasm_unavailable.
   */
  loadShaderSupport(): Promise<void>;
  /** The formats load() reads now (the one-file element's smaller build: 'iqm', 'iqe', 'md3' until loadReaders()). */
  readonly formats: Format[];
  /** The format the file's magic bytes name, whether or not this build reads it; 'unknown' for none. */
  formatOf(bytes: Uint8Array | ArrayBuffer | ArrayBufferView): Format | 'unknown';
  /** true when load() reads the format now ('framegroups': takes options.framegroups). */
  readsFormat(format: Format | 'framegroups'): boolean;
  /**
   * Makes every format readable: resolves at once with interquake.wasm; with the one-file element's
   * smaller build, fetches interquake-readers.wasm (once), and load() hands MD5, DPM, ZYM, MDR, MD2,
   * MDL, MDC and .framegroups to it. Rejects with wasm_unavailable.
   */
  loadReaders(): Promise<void>;
  /** Bytes held by live models in the WASM heap. */
  readonly liveBytes: number;
  /** Current size of the WASM memory. */
  readonly memoryBytes: number;
}

/** The overlays of the element's show attribute and of iq.render()'s show option. */
export type ShowFlag = 'wireframe' | 'skeleton' | 'tags' | 'bounds' | 'normals' | 'grid';

/** iq.render()'s options: the element's attributes in camelCase, with the same syntax and defaults. */
export interface RenderOptions {
  /** Pixels, 1..8192 (default 512); height defaults to width. width * height * supersample^2 <= 67,108,864. */
  width?: number;
  height?: number;
  /** Samples per pixel along each axis, 1..4 (default 2: 4 samples). */
  supersample?: number;
  /** animation-name (models): a name or an index; legs/torso for players (default LEGS_IDLE, TORSO_STAND). */
  animation?: string | number;
  legsAnimation?: string | number;
  torsoAnimation?: string | number;
  /** Seconds from the animation's start (default 0), or a frame of it (wins over time). */
  time?: number;
  frame?: number;
  /** Loop mode the animation plays in (default: its own). */
  loop?: 'repeat' | 'once' | 'pingpong';
  /** Shader scripts' clock in seconds (default: time; with frame, the play head's time, as renderFrame()). */
  shaderTime?: number;
  /** Players: another of player.skins. */
  skin?: string;
  /**
   * Players: a weapon (a name from player.weapons or a path in its files; null: none), a team
   * ('red' | 'blue') or a level of detail, as loadPlayer takes them: the player is loaded again
   * from its files for the call (Player.withOptions), the one given is unchanged.
   */
  weapon?: string | null;
  team?: 'red' | 'blue' | null;
  lod?: number;
  /** camera-orbit ("45deg 60deg 5m", "auto auto 120%"), camera-target ("0m 1.5m 0m"), field-of-view ("30deg"). */
  cameraOrbit?: string;
  cameraTarget?: string;
  fieldOfView?: string;
  /** A CSS colour ('#rgb', '#rrggbbaa', 'rgb()', 'rgba()', basic names), 'transparent', or [r, g, b, a] in 0..1. */
  background?: string | [number, number, number, number];
  /** light-direction ("x y z", toward the light, Z up), light-intensity (0.7), light-ambient (0.45). */
  lightDirection?: string;
  lightIntensity?: number;
  lightAmbient?: number;
  /**
   * The element's show: overlays as space- or comma-separated words, an array or a Set of
   * 'wireframe', 'skeleton', 'tags', 'bounds', 'normals', 'grid' (another word is refused with
   * invalid_argument). Tag names are not drawn (the element shows them as HTML over its canvas).
   */
  show?: string | ShowFlag[] | Set<ShowFlag>;
  /** Models: where textures come from, as writeGLB() reads them. Players read their own. */
  files?: GLBOptions['files'];
}

export interface RenderAnimationOptions extends RenderOptions {
  /** Frames per second (default 15). */
  fps?: number;
  /** How many frames (1..10000), or seconds of them (default: the animation's duration; a turntable's 1 s). */
  frames?: number;
  duration?: number;
  /** One turn around the model over the frames, from the orbit's angle. */
  turntable?: boolean;
}

export interface RenderedImage {
  width: number;
  height: number;
  /** width * height * 4 bytes, RGBA, top row first, alpha not premultiplied. */
  pixels: Uint8Array;
  /** Textures referenced and not found (drawn as the magenta checker). */
  missingFiles?: string[];
  /** renderAnimation(): the frame's time in seconds. */
  time?: number;
}

export interface RenderedAnimation {
  frames: RenderedImage[];
  fps: number;
}

export interface SpriteSheet {
  png: Uint8Array;
  atlas: { width: number; height: number; frames: { x: number; y: number; w: number; h: number; time?: number }[] };
}

export interface DecodedImage {
  width: number;
  height: number;
  /** width * height * 4 bytes, RGBA, top row first; a copy the caller owns. */
  data: Uint8Array;
}

/** Per-frame metadata of vertex-animated models (MD3, MD2, MDL), as stored in the file. */
export interface FrameInfo {
  name: string;
  min: Vec3;
  max: Vec3;
  localOrigin: Vec3;
  radius: number;
  /** MDL frame groups: when the frame ends, in seconds from the group's start (as stored); else 0. */
  interval: number;
}

/** A picture the model file embeds (Quake 1 MDL skins), decoded through Quake's palette. */
export interface ModelImage {
  /** 'skin0', or 'skin1_2' for picture 2 of skin group 1; mesh.shaders name the skins' first pictures. */
  name: string;
  width: number;
  height: number;
  /** width * height * 4 bytes, RGBA, top row first; a copy. */
  data: Uint8Array;
  /** The skin it belongs to. */
  skin: number;
  /** Skin groups: when the picture ends, in seconds from the group's start (as stored); else 0. */
  interval: number;
}

export interface Mesh {
  name: string;
  material: string;
  /**
   * MD3: the surface's shader names as in the file (case, backslashes and extension kept); may be
   * empty or hold several (`material` is the first, or ''). MD2: the skin paths; MDL: the skins'
   * names in `images` ('skin0', 'skin1_0').
   */
  shaders?: string[];
  /** MD3 only: the name Quake 3 matches .skin lines against (lower case, a trailing "_<char>" cut). */
  skinName?: string;
  firstVertex: number;
  vertexCount: number;
  firstTriangle: number;
  triangleCount: number;
}

export type Vec3 = [number, number, number];
export type Quat = [number, number, number, number];

export interface Joint {
  name: string;
  /** -1 for roots; otherwise smaller than this joint's index. */
  parent: number;
  /** Bind pose relative to the parent: p' = rotate(scale * p) + translate. */
  translate: Vec3;
  rotate: Quat;
  scale: Vec3;
}

export interface Animation {
  name: string;
  firstFrame: number;
  frameCount: number;
  /** Frames per second; 0 when the file does not say. */
  framerate: number;
  loop: boolean;
}

export interface Bounds {
  min: Vec3;
  max: Vec3;
  xyRadius: number;
  radius: number;
}

export interface Warning {
  code: string;
  message: string;
}

export interface CustomArray {
  name: string;
  format: 'byte' | 'ubyte' | 'short' | 'ushort' | 'int' | 'uint' | 'half' | 'float' | 'double';
  size: number;
  /** vertexCount * size values; 'half' values are raw IEEE half bits. */
  data: Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;
}

export interface Extension {
  name: string;
  data: Uint8Array;
}

export interface Evaluated {
  positions: Float32Array | null;
  normals: Float32Array | null;
  tangents: Float32Array | null;
}

/**
 * A loaded model. Typed arrays are views into the WASM heap, rebuilt after the heap grows;
 * they are invalid after dispose(). Copy with .slice() to keep data beyond the model's life.
 */
export class Model {
  /** Models are made by Interquake.load() (and loadPlayer), not by users. */
  private constructor();
  readonly format: Format;
  readonly name?: string;
  readonly vertexCount: number;
  readonly triangleCount: number;
  readonly frameCount: number;
  readonly meshes: Mesh[];
  /** Bind pose, vertexCount * 3. */
  readonly positions: Float32Array | null;
  readonly normals: Float32Array | null;
  readonly texcoords: Float32Array | null;
  /** xyz + bitangent sign w. */
  readonly tangents: Float32Array | null;
  /** RGBA in 0..1. */
  readonly colors: Float32Array | null;
  /** 4 per vertex, each < joints.length. */
  readonly blendIndices: Uint16Array | null;
  /** 4 per vertex, summing to 1. */
  readonly blendWeights: Float32Array | null;
  /** triangleCount * 3 indexes into the model-wide vertex arrays; clockwise front faces. */
  readonly indices: Uint32Array | null;
  /** triangleCount * 3 neighbouring triangle indexes, 0xFFFFFFFF for none. */
  readonly adjacency: Uint32Array | null;
  readonly joints: Joint[];
  readonly animations: Animation[];
  /** Row-major 3x4 inverse bind matrix per joint. */
  readonly inverseBindMatrices: Float32Array | null;
  /** frameCount * joints.length * 10 floats: translate xyz, rotate xyzw, scale xyz. */
  readonly framePoses: Float32Array | null;
  /** Row-major 3x4 skin matrix (world * inverse bind) per joint, as of the last evaluate(). */
  readonly skinMatrices: Float32Array | null;
  /** Row-major 3x4 model-space matrix per joint, as of the last evaluate(). */
  readonly worldMatrices: Float32Array | null;
  /** 8 floats per frame: min xyz, max xyz, xy radius, radius. */
  readonly frameBounds: Float32Array | null;
  /** Bounds of the bind-pose positions, or null without vertices. */
  readonly bounds: Bounds | null;
  readonly customArrays: CustomArray[];
  readonly extensions: Extension[];
  readonly comment: string;
  readonly warnings: Warning[];
  /**
   * Skins (IQM/IQE) or morphs (MD3: positions and renormalised normals lerped between frames) the
   * mesh to global frame `frame`; fractions interpolate toward the next frame.
   * The arrays are owned by the model and overwritten by the next call.
   */
  evaluate(frame?: number): Evaluated;
  /** MD3: morphs from frame `frameA` toward `frameB` (any two) by `t` (clamped to 0..1), normals renormalised; views as evaluate(). */
  morph(frameA: number, frameB: number, t: number): Evaluated;
  /** CPU skinning with the skin matrices of the last pose() (views as evaluate()). */
  skin(): Evaluated;
  /** Tag names (MD3), in file order; [] for IQM/IQE models (use joint names with tagMatrix). */
  readonly tags: string[];
  /** MD3, MD2, MDL: per-frame name, bounds, local origin and radius; [] for other formats. */
  readonly frames: FrameInfo[];
  /** Pictures the file embeds (MDL skins); [] for other formats. */
  readonly images: ModelImage[];
  /** MD3: every frame's positions, frameCount * vertexCount * 3; null for other formats. */
  readonly framePositions: Float32Array | null;
  /** MD3: every frame's unit normals, laid out like framePositions; null for other formats. */
  readonly frameNormals: Float32Array | null;
  /**
   * Column-major 4x4 model-space placement of MD3 tag or IQM/IQE joint `name` at a fractional global
   * frame (clamped): [0..2] x axis, [4..6] y axis, [8..10] z axis, [12..14] origin. MD3 tags are
   * interpolated and their axes orthonormalised; a joint's matrix is its world matrix. null when
   * there is no such tag or joint. Does not disturb the last evaluate() results.
   */
  tagMatrix(name: string | number, frame?: number): Float32Array | null;
  /** As tagMatrix, between any two global frames (a loop seam, a change of animation): blend 0..1 from a to b. */
  tagMatrixBetween(name: string | number, frameA: number, frameB: number, blend: number): Float32Array | null;
  /**
   * Where a clip of raw frames is at `time` seconds (frames no animation names, for example an MD3
   * player part without animation.cfg); options as frameAt.
   */
  clipAt(clip: { firstFrame?: number; frameCount: number; framerate?: number; loop?: boolean }, time: number, options?: PlayOptions): Playhead;
  /** A new evaluation state: posed independently of the model's own pose and of other instances. */
  createInstance(): Instance;
  /** Frees the WASM memory (and every instance); idempotent. Any other use afterwards throws 'disposed'. */
  dispose(): void;
  /** `using model = iq.load(bytes)` disposes at the end of the block (where the engine has Symbol.dispose). */
  [Symbol.dispose](): void;

  // -- Animator (docs/API-anim.md)

  /** Index of the animation with this name, or -1. */
  findAnimation(name: string): number;
  /** Index of the joint with this name, or -1. */
  findJoint(name: string): number;
  /** Where an animation is at `time` seconds: frames to blend, blend factor, loops, finished. Poses nothing. */
  frameAt(animation: number | string, time: number, options?: PlayOptions): Playhead;
  /** Poses the skeleton for GPU skinning (no CPU skinning); fills skinMatrices, skinMatrices4x4, worldMatrices. */
  pose(animation: number | string, time: number, options?: PoseOptions): PoseResult;
  /** pose() plus CPU skinning through the same path as evaluate(). */
  sample(animation: number | string, time: number, options?: PoseOptions): SampleResult;
  /** Column-major 4x4 skin matrix per joint (16 floats each) of the last evaluate / pose / sample. */
  readonly skinMatrices4x4: Float32Array | null;
  /**
   * A joint's model-space matrix, column-major 4x4 (a new array). With an animation: at that time, without
   * changing the model's pose; without one: in the last evaluate / pose / sample.
   */
  jointMatrix(joint: number | string, animation?: number | string, time?: number, options?: PlayOptions & { crossfade?: Crossfade }): Float32Array;
  /**
   * Appends the frames and animations of `source` (for example an animation-only IQM) to this model. Joints match
   * by name, or by order when names are missing or repeated. Throws 'skeleton_mismatch' when the skeletons differ
   * (joint count, parents, names); the model is then unchanged. Returns the added animations.
   */
  attachAnimations(source: Model): Animation[];
}

/** One evaluation state of a model (Model.createInstance): its own pose, matrices and skinned arrays. */
export class Instance {
  private constructor();
  readonly model: Model;
  evaluate(frame?: number): Evaluated;
  /** MD3: morphs from frame `frameA` toward `frameB` (any two) by `t` (clamped to 0..1), normals renormalised; views as evaluate(). */
  morph(frameA: number, frameB: number, t: number): Evaluated;
  /** CPU skinning with the skin matrices of the last pose() (views as evaluate()). */
  skin(): Evaluated;
  pose(animation: number | string, time: number, options?: PoseOptions): PoseResult;
  sample(animation: number | string, time: number, options?: PoseOptions): SampleResult;
  jointMatrix(joint: number | string, animation?: number | string, time?: number, options?: PlayOptions & { crossfade?: Crossfade }): Float32Array;
  readonly skinMatrices: Float32Array | null;
  readonly skinMatrices4x4: Float32Array | null;
  readonly worldMatrices: Float32Array | null;
  /** Frees the instance; the model stays. Idempotent. Disposing the model disposes its instances. */
  dispose(): void;
  [Symbol.dispose](): void;
}

export type LoopMode = 'repeat' | 'once' | 'pingpong';

export interface PlayOptions {
  /** Default: 'repeat' when the animation's loop flag is set, else 'once'. */
  loop?: LoopMode;
  /** Frames per second; 0 or absent: the animation's own, or DEFAULT_FRAMERATE (24) when the file says 0. */
  framerate?: number;
  /** Time multiplier (default 1). Negative plays backwards, starting from the end; 0 freezes at the start. */
  speed?: number;
  /** false: stepped playback, whole frames only (default true). */
  interpolate?: boolean;
  /** 'auto' (default): nlerp for steps up to 10 degrees, slerp beyond; or always 'slerp' / 'nlerp'. */
  rotation?: 'auto' | 'slerp' | 'nlerp';
}

/** A second animation blended in: pose = (1 - weight) * main + weight * this. */
export interface Crossfade extends PlayOptions {
  animation: number | string;
  /** Seconds into the second animation (default 0). */
  time?: number;
  /** 0..1 (values outside are clamped). */
  weight: number;
}

export interface PoseOptions extends PlayOptions {
  crossfade?: Crossfade;
  /** Layout of the returned skinMatrices: '3x4' row-major (default) or '4x4' column-major. */
  layout?: '3x4' | '4x4';
}

export interface Playhead {
  /** Index of the animation. */
  animation: number;
  /** Global frames to blend (firstFrame + local frame). */
  frameA: number;
  frameB: number;
  /** 0 = frameA, 1 = frameB; 0 when stepped. */
  blend: number;
  /** Fractional frame within the animation. */
  position: number;
  /** Seconds of one pass (once) or one period (repeat, pingpong) at this speed. */
  duration: number;
  /** Completed periods (repeat, pingpong); negative before time 0; 0 for once. A change means a 'loop' event. */
  loops: number;
  /** once: the end is reached and held. Goes true exactly when time >= duration. */
  finished: boolean;
  /** Frames in the animation; 0: an empty animation (bind pose). */
  frameCount: number;
}

export interface PoseResult extends Playhead {
  /** Model-owned view of the skin matrices in the requested layout. */
  skinMatrices: Float32Array | null;
  /** Model-owned view of the row-major 3x4 model-space joint matrices. */
  worldMatrices: Float32Array | null;
}

export interface SampleResult extends PoseResult, Evaluated {}

/** Frames per second used when the file's framerate is 0 and no framerate option is given. */
export const DEFAULT_FRAMERATE: 24;

/**
 * The path rules the library, the viewer and the command line share (web/core/paths.js): one
 * answer to what a file is, which player part and LOD it is, and which files a texture name may be.
 */
export declare const paths: {
  readonly MODEL_EXTENSIONS: readonly string[];
  readonly ARCHIVE_EXTENSIONS: readonly string[];
  /** Images decoded, in Quake 3's lookup order, then .jpeg. */
  readonly IMAGE_EXTENSIONS: readonly string[];
  /** What a texture lookup swaps in or appends, in the renderer's order: tga, jpg, png. */
  readonly LOOKUP_EXTENSIONS: readonly string[];
  readonly SCRIPT_EXTENSIONS: readonly string[];
  readonly PLAYER_PARTS: readonly ('lower' | 'upper' | 'head')[];
  /** '\\' -> '/', no leading './' or '/', no doubled slashes. */
  normalizePath(path: string): string;
  /** normalizePath, lower-cased: the key paths are matched by. */
  pathKey(path: string): string;
  /** Lower case, without the dot; '' when none. */
  extensionOf(path: string): string;
  baseName(path: string): string;
  /** The folder with its trailing '/', or ''. */
  folderOf(path: string): string;
  kindOf(path: string): 'model' | 'image' | 'archive' | 'script' | null;
  /** 'upper_1.md3' -> { part: 'upper', lod: 1, ext: 'md3' }; null for other names. */
  playerPartOf(path: string): { part: 'lower' | 'upper' | 'head'; lod: number; ext: string } | null;
  playerPartName(part: 'lower' | 'upper' | 'head', lod?: number, ext?: string): string;
  playerSkinOf(path: string): { part: 'lower' | 'upper' | 'head'; skin: string } | null;
  /**
   * The files a texture name may be, best first (Quake 3's renderer's rule: as written, the other
   * extensions in place of a missing .tga/.jpg/.png, each appended, the artist-disk path from its
   * models/ or textures/ folder); options.loose adds the file name alone, for a loose model.
   */
  textureCandidates(reference: string, options?: { loose?: boolean }): string[];
  /** The texture name a mesh asks for: its first shader (MD3), else its material; null for none (never its mesh name). */
  meshTextureName(mesh: { shaders?: string[]; material?: string }): string | null;
  /** The first candidate exists(path) accepts: { path (null: none), candidates }; async when exists is. */
  findTexture(reference: string, exists: (path: string) => boolean | Promise<boolean>, options?: { loose?: boolean }):
    { path: string | null; candidates: string[] } | Promise<{ path: string | null; candidates: string[] }>;
};

// -- Quake 3 players and .pk3 archives (web/quake3.js, web/archive.js; docs/API-q3.md).
// Declared as additions to Interquake (interface merging). Error codes added here:
// 'unsupported', 'bad_checksum', 'bad_deflate', 'missing_file', 'unavailable'.

/**
 * An archive read on demand instead of held in memory (a file descriptor in Node): openArchive
 * reads the directory through it, and each entry when it is read. dispose() calls close().
 */
export interface ArchiveReader {
  /** The archive's size in bytes. */
  size: number;
  /** Exactly `length` bytes from `offset` (a fresh copy, the archive keeps no reference). */
  read(offset: number, length: number): Uint8Array;
  close?(): void;
}

export interface Interquake {
  /** Opens a .pk3/.zip; fflate is imported on first need (or taken from options.fflate / globalThis.fflate). */
  openArchive(bytes: Uint8Array | ArrayBuffer | ArrayBufferView | Blob | ArchiveReader, options?: ArchiveOptions): Promise<Archive>;
  /**
   * Joins archives and loose file sets into one Quake 3 file system: by default ioquake3's rules
   * (pk3s by name, a later name wins; loose files win over every pk3). docs/API-q3.md.
   */
  mountArchives(sources: Iterable<Archive | LooseFiles>, options?: MountOptions): FileSystem;
  /** Assembles a Quake 3 player from an archive, a file system or files keyed by game or player-relative path. */
  loadPlayer(files: Archive | FileSystem | LooseFiles, options?: PlayerOptions): Player;
  /** Parses animation.cfg with cgame's rules. Throws InterquakeError (with line/column) on bad input. */
  parseAnimationConfig(input: string | Uint8Array | ArrayBuffer, options?: { name?: string }): AnimationConfig;
  /** Parses a .skin file with the renderer's rules. */
  parseSkin(input: string | Uint8Array | ArrayBuffer, options?: { name?: string }): Skin;
  /** DarkPlaces skins of a plain model: <model>_<N>.skin among files, with the texture name per mesh (docs/MODELCFG.md). */
  modelSkins(model: Model, files: FileBytes, modelPath?: string): Promise<{ name: string; path: string; textures: (string | null)[]; warnings: Warning[] }[]>;
  /** A Cube 2 / Tesseract / Red Eclipse model .cfg split into commands (the C's syntax; 'syntax' errors with line and column). */
  parseModelConfig(input: string | Uint8Array | ArrayBuffer, options?: { name?: string }): Promise<{ commands: ModelConfigCommand[]; warnings: Warning[] }>;
  /** What a model .cfg says, exec and if followed; files: every path of the folder, the .cfg files with their bytes. */
  readModelConfig(files: FileBytes, cfgPath: string): Promise<ModelConfig>;
  /** The texture name each mesh of `model` takes from a config (null: its own). */
  configTextures(config: ModelConfig, model: Model): (string | null)[];
  /** The model a folder shows as its character: by its .cfg, its name, or the most joints and vertices. */
  chooseFolderModel(models: { path: string; bytes: Uint8Array }[], files: FileBytes): Promise<FolderChoice>;
}

export type ArchiveUse = 'model' | 'animation' | 'skin' | 'shader' | 'texture';
export interface UseLimit {
  /** Largest declared uncompressed size, in bytes. */
  maxSize: number;
  /** Highest declared uncompressed / compressed ratio of a deflated entry. */
  maxRatio: number;
}

export interface ArchiveOptions {
  name?: string;
  /** Limits checked against the central directory before anything is inflated. */
  maxTotalSize?: number;   // default 2 GiB of declared uncompressed bytes
  maxEntries?: number;     // default 65535
  maxNameLength?: number;  // default 1024 bytes
  maxRatio?: number;       // default 1000 (deflate cannot exceed about 1032:1; real entries stay under 900)
  /** Caps by use for read(path, { use }) and loadPlayer, merged over the defaults (docs/API-q3.md). */
  limits?: Partial<Record<ArchiveUse, Partial<UseLimit>>>;
  /** The fflate module to inflate with (anything with fflate's Inflate class). */
  fflate?: unknown;
}

export interface ArchivePlayer {
  /**
   * The player's folder, e.g. 'models/players/sarge'. models/players/<name>/ and
   * models/players/characters/<name>/ are one player, listed at the first when it holds a part.
   */
  path: string;
  name: string;
  /** Skin names found: default, red, blue first, then the others alphabetically. */
  skins: string[];
  /** LOD levels whose three parts exist (0 always listed). */
  lods: number[];
}

export interface ArchiveEntry {
  path: string;
  size: number;
  compressedSize: number;
  /** 0 stored, 8 deflate; others are listed but read() refuses them. */
  method: number;
  crc32: number;
}

export interface Archive {
  readonly name?: string;
  /** Every file's path ('/'-separated, as stored otherwise), in directory order; folders left out. */
  readonly files: string[];
  /** Every .iqm, .iqe and .md3 inside. */
  readonly models: string[];
  readonly players: ArchivePlayer[];
  readonly warnings: Warning[];
  /** Case-insensitive, '\' or '/'. */
  has(path: string): boolean;
  entry(path: string): ArchiveEntry | null;
  /** A fresh copy of the file's bytes, or null when absent; throws on an unreadable entry. */
  read(path: string, options?: { use?: ArchiveUse; maxSize?: number; maxRatio?: number }): Uint8Array | null;
  /**
   * The first n bytes (all of them when shorter; a fresh copy), or null when absent: a stored entry
   * copies only those, a deflated one inflates until n bytes came out. read()'s caps and refusals
   * apply; the CRC-32 (of the whole entry) is only checked by read().
   */
  peek(path: string, n: number, options?: { use?: ArchiveUse; maxSize?: number; maxRatio?: number }): Uint8Array | null;
  /** The caps by use this archive reads with. */
  readonly limits: Record<ArchiveUse, UseLimit>;
  /** Lets go of the archive's bytes (JS memory: dropping the Archive does the same); it then holds no files. */
  dispose(): void;
  [Symbol.dispose](): void;
}

/** Loose files: game path -> bytes or text (null entries are skipped). */
export type LooseFiles = Record<string, Uint8Array | ArrayBuffer | string> | Map<string, Uint8Array | ArrayBuffer | string>;

export interface MountOptions {
  /**
   * 'ioquake3' (default): archives sorted by name as FS_PathCmp sorts pk3s (case ignored, '_' after
   * letters), a later name wins; loose files win over every archive. 'retail': the same, but loose
   * files lose to every archive (Quake 3 1.32 as released). 'given': the list as given, later wins.
   */
  order?: 'ioquake3' | 'retail' | 'given';
  /** Caps by use for every read, merged over the defaults (the archives' own limits are not used). */
  limits?: Partial<Record<ArchiveUse, Partial<UseLimit>>>;
}

export interface FileSystemEntry extends ArchiveEntry {
  /** The name of the source the file is read from (an archive's name, or 'loose files N'). */
  source: string;
}

/** Several sources read as one (iq.mountArchives); the same surface as Archive. */
export interface FileSystem extends Omit<Archive, 'entry'> {
  /** The sources joined with ' + ', the one that wins first. */
  readonly name: string;
  /** Every path once, as FS_ListFiles lists them: the winning source's paths first, each as that source spells it. */
  readonly files: string[];
  /** The sources, the one that wins first. */
  readonly sources: { name: string; kind: 'archive' | 'files'; files: number }[];
  /** Each archive's warnings, its name in front. */
  readonly warnings: Warning[];
  entry(path: string): FileSystemEntry | null;
  /** The name of the source path is read from, or null. */
  sourceOf(path: string): string | null;
  /** Lets go of the sources (the archives stay usable: they are the caller's). */
  dispose(): void;
}

export interface PlayerOptions {
  /** The player's folder when files hold several (default: the first found); models/players/characters/<name> and models/players/<name> name the same player. */
  player?: string;
  /** Skin name; default 'default'. '<team folder>/<skin>' for team folders ('cyborgs/red'). null: no skin, the MD3 shader names. Unknown names fall back with a warning. */
  skin?: string | null;
  /** cgame's team game: <part>_<skin>_<team>.skin, then <part>_<team>.skin, then the default skin. Default null. */
  team?: 'red' | 'blue' | null;
  /** The head model's name (cgame's headmodel): models/players/<head>/head.md3, else models/players/heads/<head>/<head>.md3; '*<head>': heads/ only. Default: the player's. */
  head?: string;
  /** 0 (default), 1 or 2: lower_N.md3 etc.; a missing LOD part falls back to LOD 0 with a warning. */
  lod?: number;
  /** Attached at the torso's tag_weapon: a loaded model (not disposed by the player), its bytes, or a path in files. */
  weapon?: Model | Uint8Array | ArrayBuffer | string | null;
  weaponPath?: string;
  /** Caps by use over the archive's (or the defaults, for plain files): parts are read as 'model', animation.cfg as 'animation', skins as 'skin'. */
  limits?: Partial<Record<ArchiveUse, Partial<UseLimit>>>;
}

export type Q3Part = 'legs' | 'torso' | 'both';

export interface Q3Animation {
  /** Quake 3's name, e.g. 'LEGS_RUN'; index is its animNumber_t value (LEGS_BACKCR 31, LEGS_BACKWALK 32 here). */
  name: string;
  index: number;
  part: Q3Part;
  /** Frame in the part's MD3 (LEGS_* already rebased onto lower.md3). */
  firstFrame: number;
  frameCount: number;
  loopFrames: number;
  loop: boolean;
  /** As written (0 became 1). */
  fps: number;
  /** Milliseconds per frame, (int)(1000 / fps) as cgame computes it. */
  frameLerp: number;
  reversed: boolean;
  /** false for Team Arena defaults (copied from TORSO_GESTURE) and LEGS_BACKCR / LEGS_BACKWALK. */
  fromFile: boolean;
  line: number;
  /** frameCount * frameLerp / 1000 seconds. */
  duration: number;
  /** loadPlayer only: the frames lie inside the part's MD3(s). */
  fits?: boolean;
}

export interface AnimationConfig {
  animations: Q3Animation[];
  tableEntries: number;
  legsSkip: number;
  sex: 'm' | 'f' | 'n';
  footsteps: 'normal' | 'boot' | 'flesh' | 'mech' | 'energy';
  headOffset: Vec3;
  fixedLegs: boolean;
  fixedTorso: boolean;
  warnings: Warning[];
}

export interface Skin {
  /** Surface names lower-cased; shader '' when the line has none. */
  surfaces: { name: string; shader: string; line: number }[];
  warnings: Warning[];
}

export interface PlayerSurface {
  /** Index in the part model's meshes. */
  mesh: number;
  name: string;
  /** The reference looked up: the skin's path, or the MD3 shader name. */
  shader: string;
  source: 'skin' | 'shader';
  /**
   * The path of the file found (the Quake 3 lookup), or null (then listed in missingFiles). For a
   * script block: the first of its stage images found.
   */
  texture: string | null;
  /** The scripts/*.shader block this name resolves to (checked before images, as R_FindShader), or null. */
  script: object | null;
  /** For a block: each stage image it names -> the file found, or null (then in missingFiles). */
  images: Record<string, string | null> | null;
}

export type PlayerPartName = 'lower' | 'upper' | 'head' | 'weapon' | 'barrel' | 'flash';

export interface PartFrames {
  /** The frame to show: fractional between neighbouring frames; at a loop seam, the nearer whole frame. */
  frame: number;
  /** What cgame lerps: from frame `from` toward `to` by `lerp` (0..1). */
  from: number;
  to: number;
  lerp: number;
  /** Column-major 4x4 placing the part in lower's model space. */
  matrix: Float32Array;
}

export type PartState = { animation: string; time?: number } | { frame: number } | { from: number; to?: number; lerp?: number };

export interface GLBOptions {
  /** Models: where textures come from (path -> bytes), or a reader returning bytes or null. */
  files?: Record<string, Uint8Array | ArrayBuffer> | Map<string, Uint8Array | ArrayBuffer>
    | ((path: string) => Uint8Array | ArrayBuffer | null | undefined | Promise<Uint8Array | ArrayBuffer | null | undefined>);
  /** Players: the skin (default: the player's); null for the MD3 shader names. */
  skin?: string | null;
  /** Players: the level of detail read from the player's files (lower_N.md3...). */
  lod?: number;
  /** Morph targets per glTF mesh, 1..255 (default 255). */
  maxMorphTargets?: number;
  /**
   * Placement on the root node (the data is unchanged; docs/GLTF.md, "Placement"). 'z' turns the
   * model's front (Quake's +X) to glTF's front (+Z); 'x' (default) keeps the axes.
   */
  front?: 'x' | 'z';
  /**
   * true: stand it on y = 0 (a player: the game's floor, 24 units below its origin; a model: its
   * lowest point over every frame); a number: the height (model units, Z up) put at y = 0.
   */
  ground?: boolean | number;
  /** Uniform scale, or 'metres': a Quake unit as 3.2 cm (a 56-unit player box is 1.79 m). */
  scale?: number | 'metres';
  /** Models: the texture name per mesh (a model cfg's, configTextures(); a DarkPlaces skin's), null for the mesh's own. */
  textures?: (string | null)[];
}

export interface GLBResult {
  glb: Uint8Array;
  /** Textures not embedded, LODs not found... */
  warnings: { code: string; message: string }[];
  /** Texture (and other) paths that were referenced and not found. */
  missingFiles: string[];
  /** Per material: the texture file embedded, found by the one texture rule (paths.textureCandidates), or null. */
  textures: { material: string; texture: string | null }[];
}

/** A model .cfg split into commands and words (iq.parseModelConfig). */
export interface ModelConfigCommand {
  line: number;
  column: number;
  words: { text: string; kind: 'word' | 'string' | 'block' | 'expression'; line: number; column: number; commands?: ModelConfigCommand[] }[];
}

/** What a Cube 2 / Tesseract / Red Eclipse model .cfg says (iq.readModelConfig; docs/MODELCFG.md). */
export interface ModelConfig {
  path: string;
  format: 'iqm' | 'md5' | 'md3' | 'md2' | 'obj' | 'smd';
  /** The model file the engine loads (its *load command, else tris.<format> beside the cfg), or null. */
  model: string | null;
  models: string[];
  /** Skins in order ('*': every mesh); later lines win. Paths among the files given, else as the cfg names them. */
  skins: { mesh: string; texture: string; masks: string | null; line: number; file: string; format: string }[];
  /** iqmanim/md5anim: names split at '|', the file; md3anim: frame and frames. */
  animations: { names: string[]; file: string | null; frame: number; frames: number; fps: number | null; priority: number; line: number; source: string }[];
  tags: { joint: string; tag: string; line: number }[];
  scale: number | null;
  translate: [number, number, number] | null;
  yaw: number | null;
  pitch: number | null;
  roll: number | null;
  /** The cfg files read, exec followed. */
  executed: string[];
  /** Commands read and not interpreted, with their counts. */
  ignored: Record<string, number>;
  missingFiles: string[];
  warnings: Warning[];
}

/** iq.chooseFolderModel: the model a folder opens as its character. */
export interface FolderChoice {
  main: { path: string; bytes: Uint8Array } | null;
  config: ModelConfig | null;
  animationFiles: { path: string; bytes: Uint8Array }[];
  meshes: { path: string; bytes: Uint8Array; vertexCount: number; jointCount: number }[];
  unreadable: { path: string; bytes: Uint8Array }[];
  reason: string;
  warnings: Warning[];
}

type FileBytes = Record<string, Uint8Array | ArrayBuffer | null> | Map<string, Uint8Array | ArrayBuffer | null>;

export interface Player {
  path: string;
  name: string;
  lod: number;
  lods: number[];
  /** The skin in use: the one asked, or what cgame's fallbacks settled on (a 'repaired' warning says which). */
  skin: string | null;
  /** Skin names: '<skin>' for <part>_<skin>.skin in the folder, '<team folder>/<skin>' for team folders. */
  skins: string[];
  team: 'red' | 'blue' | null;
  /** Team folders holding skins: 'cyborgs' for <folder>/cyborgs/lower_red.skin. */
  teams: string[];
  /** The .skin each part uses for the chosen skin and team (null: none, the MD3 shader names). */
  skinFiles: Partial<Record<'lower' | 'upper' | 'head', string | null>>;
  parts: { lower: { path: string; model: Model }; upper: { path: string; model: Model }; head: { path: string; model: Model };
    weapon?: { path: string; model: Model }; barrel?: { path: string; model: Model }; flash?: { path: string; model: Model } };
  /** The weapons the files hold: models/weapons2/<name>/<name>.md3. */
  weapons: { name: string; path: string }[];
  /** The weapon attached (paths; null for files absent), or null. The hand model is not placed (first-person only). */
  weapon: { path: string; barrel: string | null; flash: string | null; hand: string | null } | null;
  animations: Q3Animation[];
  config: { sex: 'm' | 'f' | 'n'; footsteps: string; headOffset: Vec3; fixedLegs: boolean; fixedTorso: boolean;
    legsSkip: number; tableEntries: number } | null;
  /** Per part, per MD3 surface, for the chosen skin. */
  surfaces: Record<PlayerPartName, PlayerSurface[]>;
  missingFiles: string[];
  warnings: Warning[];
  animation(name: string): Q3Animation | undefined;
  /**
   * Surfaces for any skin, with cgame's fallbacks; options.team defaults to the player's. `skin`: the
   * one asked; `used`: the skin in use; `warnings`: the fallback taken, if any (not added to player.warnings).
   */
  /** The same player loaded again from the same files with some of loadPlayer's options changed; the caller disposes it. */
  withOptions(changes: Pick<PlayerOptions, 'weapon' | 'skin' | 'team' | 'lod'>): Player;
  resolveSkin(skin: string | null, options?: { team?: 'red' | 'blue' | null }): { skin: string | null; used: string | null;
    team: 'red' | 'blue' | null; files: Partial<Record<'lower' | 'upper' | 'head', string | null>>;
    surfaces: Record<PlayerPartName, PlayerSurface[]>; missingFiles: string[]; warnings: Warning[] };
  readFile(path: string, use?: ArchiveUse): Uint8Array | null;
  /** The caps by use this player's files were read with. */
  readonly limits: Record<ArchiveUse, UseLimit>;
  /** time: seconds since the animation started. Defaults: LEGS_IDLE and TORSO_STAND at 0. */
  pose(state?: { legs?: PartState; torso?: PartState; both?: PartState }):
    { lower: PartFrames; upper: PartFrames; head: PartFrames; weapon?: PartFrames; barrel?: PartFrames; flash?: PartFrames };
  /** Frees the models loadPlayer loaded. */
  dispose(): void;
  [Symbol.dispose](): void;
}
