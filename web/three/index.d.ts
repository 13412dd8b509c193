// Types for interquake/three (docs/THREE.md). three is a peer dependency: these declarations use
// @types/three and declare nothing of three's own.
import {
  AnimationClip, Group, LoadingManager, Loader, Matrix4, Mesh, Material, Object3D, Skeleton, BufferAttribute,
} from 'three';
import type {
  Interquake, Model, Archive, FileSystem, Player, PlayerOptions, Warning, InterquakeError,
} from '../interquake.js';

export { InterquakeError } from '../interquake.js';

/** Morph targets per three.js mesh (a clip's frames are cut into meshes of at most this many + 1). */
export const MAX_MORPH_TARGETS: number;
/** Keys per frame step of a tag's placement track. */
export const TAG_STEPS: number;

/** What AnimationClip.userData holds for a clip made by these loaders. */
export interface InterquakeClipData {
  [key: string]: unknown;
  /** How the library plays it by default: set LoopOnce with clampWhenFinished for 'once'. */
  loop: 'repeat' | 'once';
  framerate: number;
  firstFrame: number;
  frameCount: number;
  /** Q3Player clips: the part the clip drives. */
  part?: 'legs' | 'torso' | 'both';
}

/** A warning of a load: the library's codes, 'missing_file' for a texture not found (drawn plain). */
export interface LoadWarning extends Warning {
  file?: string;
}

/** What InterquakeLoader gives: shaped like GLTFLoader's result, plus the library's model. */
export interface InterquakeResult {
  /** The model, Y up (a child group named 'interquake_z_up' turns the library's Z-up space). */
  scene: Group;
  /** One clip per library animation, named as the library names it. */
  animations: AnimationClip[];
  /** The library's model (sample, tagMatrix, ...); freed by dispose(). */
  model: Model;
  /** Skinned models (IQM, IQE): the one skeleton every SkinnedMesh uses; bones named as the joints. */
  skeleton: Skeleton | null;
  /** MD3 tags as Object3Ds that follow them (tags.tag_weapon.add(gun)). */
  tags: Record<string, Object3D>;
  warnings: LoadWarning[];
  /** Texture names that were not found (the meshes are drawn plain). */
  missingFiles: string[];
  /** Frees the library's model and three's geometries, materials and textures. */
  dispose(): void;
}

export interface ParseOptions {
  /** Find textures in these files (a dropped folder) instead of beside `path`. */
  files?: Record<string, Uint8Array | ArrayBuffer> | Map<string, Uint8Array | ArrayBuffer>;
  /** The model's name (errors, the scene's name). */
  name?: string;
}

/** DRACOLoader-style handling of the WASM both loaders share. */
interface WasmLoader {
  /** Uses this library (from interquake's init()) instead of the default one. */
  setLibrary(iq: Interquake | Promise<Interquake>): this;
  /** Where interquake.wasm is served (a folder URL). */
  setWasmPath(path: string): this;
  /** Compiles the WASM now; resolves to the library. */
  preload(): Promise<Interquake>;
  /** Lets go of the library. */
  dispose(): void;
}

export class InterquakeLoader extends Loader<InterquakeResult> implements WasmLoader {
  constructor(manager?: LoadingManager);
  load(url: string, onLoad: (result: InterquakeResult) => void, onProgress?: (event: ProgressEvent) => void,
    onError?: (err: unknown) => void): void;
  /** Bytes of any model the library reads; `path` is where its textures are looked for. */
  parse(data: ArrayBuffer | Uint8Array, path: string, onLoad: (result: InterquakeResult) => void, onError?: (err: InterquakeError | Error) => void): void;
  parseAsync(data: ArrayBuffer | Uint8Array, path?: string, options?: ParseOptions): Promise<InterquakeResult>;
  /** Animations of another file (an animation-only IQM) attached to a loaded skinned result; returns the new clips. */
  loadAnimations(url: string, result: InterquakeResult, onProgress?: (event: ProgressEvent) => void): Promise<AnimationClip[]>;
  parseAnimations(data: ArrayBuffer | Uint8Array, result: InterquakeResult, name?: string): Promise<AnimationClip[]>;
  setLibrary(iq: Interquake | Promise<Interquake>): this;
  setWasmPath(path: string): this;
  preload(): Promise<Interquake>;
  dispose(): void;
}

export type Q3PartName = 'lower' | 'upper' | 'head' | 'weapon' | 'barrel';

export interface Q3ThreePart {
  name: Q3PartName;
  model: Model;
  /** The part's group (under its parent's tag object). */
  group: Group;
  /** The mesh update() morphs. */
  live: Mesh;
  /** One material per library mesh (replaced in place by setSkin). */
  materials: Material[];
  shared: { attributes: Record<string, BufferAttribute>; index: BufferAttribute };
  path?: string;
}

export interface Q3PlayerOptions extends Omit<PlayerOptions, 'weapon'> {
  /** A weapon name ('machinegun'), its folder or .md3 path. */
  weapon?: string;
}

/** Frames a part shows: from a toward b by t (global frames of the part's MD3). */
export interface Q3Frames { a: number; b: number; t: number }

export class Q3Player {
  /** lower -> upper -> head on their tags, the weapon on tag_weapon; Y up. */
  readonly root: Group;
  readonly iq: Interquake;
  /** The library's player (resolveSkin, pose, animations, surfaces). */
  readonly player: Player;
  readonly parts: Partial<Record<Q3PartName, Q3ThreePart>>;
  /** Tag objects by part: tags.upper.tag_weapon is where a weapon goes. */
  readonly tags: Partial<Record<Q3PartName, Record<string, Object3D>>>;
  readonly skins: string[];
  readonly skin: string | null;
  /** The weapons the files hold (names for setWeapon). */
  readonly weapons: string[];
  readonly animationNames: string[];
  /** Clips for an AnimationMixer on root, named as animation.cfg names them (built on first use). */
  readonly animations: AnimationClip[];
  warnings: LoadWarning[];
  missingFiles: string[];
  playbackRate: number;
  /** Quake 3's change of animation (as the element's q3-transition); false: animations cut. */
  transition: boolean;
  /** Resolves when the textures of the current skin are decoded. */
  ready: Promise<void>;
  setLegsAnimation(name: string): void;
  setTorsoAnimation(name: string): void;
  setAnimation(name: string): void;
  playGesture(name?: string): void;
  setPlaybackRate(rate: number): void;
  setSkin(name: string): Promise<void>;
  setWeapon(name: string | null): Promise<void>;
  /** Advances legs and torso by delta seconds on the element's clock and poses the player. */
  update(delta: number): void;
  frames(): { legs?: Q3Frames; torso?: Q3Frames };
  /** The library's pose for the frames shown (player.pose). */
  pose(): ReturnType<Player['pose']>;
  dispose(): void;
}

export type Q3PlayerFiles = Archive | FileSystem | Map<string, Uint8Array | ArrayBuffer | string>
  | Record<string, Uint8Array | ArrayBuffer | string> | ArrayBuffer | Uint8Array | (ArrayBuffer | Uint8Array)[];

export class Q3PlayerLoader extends Loader<Q3Player, string | string[]> implements WasmLoader {
  constructor(manager?: LoadingManager);
  playerOptions: Q3PlayerOptions;
  setOptions(options: Q3PlayerOptions): this;
  /** A player folder URL, or .pk3 URLs (several are joined as the game joins them). */
  load(url: string | string[], onLoad: (player: Q3Player) => void, onProgress?: (event: ProgressEvent) => void,
    onError?: (err: unknown) => void): void;
  parse(files: Q3PlayerFiles, options: Q3PlayerOptions, onLoad: (player: Q3Player) => void, onError?: (err: InterquakeError | Error) => void): void;
  parseAsync(files: Q3PlayerFiles, options?: Q3PlayerOptions): Promise<Q3Player>;
  setLibrary(iq: Interquake | Promise<Interquake>): this;
  setWasmPath(path: string): this;
  preload(): Promise<Interquake>;
  dispose(): void;
}

/** A column-major 4x4 (tagMatrix, player.pose) as a Matrix4. */
export function matrixOf(m: ArrayLike<number>, out?: Matrix4): Matrix4;
/** Where three draws a library placement (Z up) under a root at the identity: the -90 degree turn about X applied. */
export function yUpMatrix(m: ArrayLike<number>): Matrix4;
/** A loaded model as three objects (what parseAsync does after loading). */
export function modelToThree(iq: Interquake, model: Model, options?: { find?: (name: string, modelPath: string) => Promise<{ path: string; bytes: Uint8Array } | null>; name?: string }): Promise<InterquakeResult>;
