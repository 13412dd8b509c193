// Type declarations for the <interquake-viewer> element (web/interquake-viewer.js). See docs/VIEWER.md.

export type LoopMode = 'repeat' | 'once' | 'pingpong';
export type ShowFlag = 'wireframe' | 'skeleton' | 'tags' | 'bounds' | 'normals' | 'grid';
export type AnimationPart = 'both' | 'legs' | 'torso';

/** Anything load() accepts. */
export type ViewerSource =
  | string | URL
  | Blob | File
  | FileList | File[]
  | { [path: string]: Uint8Array | ArrayBuffer | ArrayBufferView | Blob };

export interface PartPlayhead {
  animation: string | null;
  /** Fractional frame inside the animation. */
  frame: number;
  /** The model's frame shown. */
  globalFrame: number;
  frameCount: number;
  time: number;
  duration: number;
  loop: 'repeat' | 'once' | 'pingpong';
  finished: boolean;
}

export interface ViewerAnimation {
  name: string;
  /** 'both' for IQM/IQE/MD3 and Quake 3 BOTH_*; 'legs' or 'torso' for Quake 3 LEGS_* / TORSO_*. */
  part: AnimationPart;
  firstFrame: number;
  frameCount: number;
  fps: number;
  /** false when the data says it plays once (Quake 3 animation.cfg looping count 0). */
  loop: boolean;
  /** seconds: frameCount / fps */
  duration: number;
}

export interface ViewerWarning { code: string; message: string; file?: string }

/** The report in the `load` event, `info` and the info panel. */
export interface ViewerInfo {
  format: 'iqm' | 'iqe' | 'md3';
  name: string;
  vertices: number;
  triangles: number;
  meshes: { name: string; material: string; part: string; texture: 'loaded' | 'missing' | 'none' }[];
  joints: number;
  jointNames: string[];
  frames: number;
  animations: ViewerAnimation[];
  tags: string[];
  skins: string[];
  missingFiles: string[];
  warnings: ViewerWarning[];
}

/**
 * The `error` event's type, as model-viewer's: 'loadfailure' (load() or src failed),
 * 'webglcontextlost' (the browser took the WebGL context away); and ours: 'renderfailure' (drawing
 * failed), 'invalidattribute' (an animation-name the model lacks).
 */
export type ViewerErrorType = 'loadfailure' | 'webglcontextlost' | 'renderfailure' | 'invalidattribute';

export interface ViewerEventMap {
  load: CustomEvent<{ format: string; info: ViewerInfo; summary: ViewerInfo; missingFiles: string[]; warnings: ViewerWarning[]; drawer: ViewerDrawer | null }>;
  error: CustomEvent<{ type: ViewerErrorType; code: string; message: string; file?: string }>;
  progress: CustomEvent<{ totalProgress: number }>;
  play: CustomEvent<{}>;
  pause: CustomEvent<{}>;
  timeupdate: CustomEvent<{ time: number; frame: number; part: AnimationPart }>;
  loop: CustomEvent<{ animation: string; part: AnimationPart; count: number }>;
  finished: CustomEvent<{ animation: string; part: AnimationPart }>;
  'animation-change': CustomEvent<{ animation: string; part: AnimationPart; previous: string | null }>;
  'skin-change': CustomEvent<{ skin: string }>;
  /** 'user-interaction': drag, wheel or pinch; 'none': a camera attribute changed. */
  'camera-change': CustomEvent<{ source: 'user-interaction' | 'none' }>;
  'context-lost': CustomEvent<{}>;
  'context-restored': CustomEvent<{}>;
  /**
   * The drawer changed (docs/VIEWER.md, "Software drawing"). reason: 'attribute' (the renderer
   * attribute), 'webgl2_unavailable' (no WebGL 2 context), 'context_lost' (lost and not restored
   * within 3 s, or its rebuild failed).
   */
  'drawer-change': CustomEvent<{ drawer: ViewerDrawer; previous: ViewerDrawer | null; reason: 'attribute' | 'webgl2_unavailable' | 'context_lost' }>;
}

/** What draws the element: WebGL 2, or the C's software renderer into a 2D canvas. */
export type ViewerDrawer = 'webgl' | 'software';

/**
 * <interquake-viewer>. Every attribute is also this camelCase property, reflecting it (setting the
 * property sets the attribute; null or false removes it). Importing the module in Node defines the
 * class on a stand-in base (no DOM) and registers nothing.
 */
export class InterquakeViewerElement extends HTMLElement {
  // attributes as properties
  src: string | null;
  /** More .pk3 URLs (space-separated) joined with a .pk3 src as one Quake 3 file system (the game's pak0.pk3 under a mod's player). */
  archives: string | null;
  /** The accessible name (aria-label on the element, which has role="img", and on its canvas). */
  alt: string | null;
  /** Which model of a multi-model source to open (one of availableModels). */
  model: string | null;
  /** The skin shown once a player is loaded; the attribute before. */
  skin: string | null;
  lod: number;
  /** The animation playing once loaded; the attribute before. */
  animationName: string | null;
  legsAnimation: string | null;
  torsoAnimation: string | null;
  autoplay: boolean;
  /** Playback speed; negative plays backwards. */
  timeScale: number;
  /** null: repeat, except animations the data marks as playing once. */
  loop: LoopMode | null;
  frame: number | null;
  interpolate: boolean;
  /** milliseconds (300) */
  animationCrossfadeDuration: number;
  /** Quake 3 players: change animation as cgame does (true); false: the crossfade. */
  q3Transition: boolean;
  /** Quake 3 players: a weapon name (availableWeapons), folder or .md3 path; null: empty hands. */
  weapon: string | null;
  /** Quake 3 players: 'red' or 'blue' picks the team skins as cgame does (loadPlayer's team); null: none. */
  team: 'red' | 'blue' | null;
  /** "x y z" towards the light (Z up); null: over the viewer's shoulder. */
  lightDirection: string | null;
  /** (0.7) */
  lightIntensity: number;
  /** (0.45) */
  lightAmbient: number;
  cameraControls: boolean;
  autoRotate: boolean;
  /** "theta phi radius" as model-viewer: "45deg 60deg 5m", "auto auto 120%" (angles deg/rad, radius m/cm/mm/%). */
  cameraOrbit: string | null;
  /** "x y z" in m/cm/mm, or "auto" (the model's centre). */
  cameraTarget: string | null;
  /** "30deg", "0.5rad", "30" (degrees) or "auto" (35deg). */
  fieldOfView: string | null;
  /** A CSS colour or 'transparent'. */
  background: string | null;
  /** Set with a Set, an array or a space-separated string. */
  show: Set<ShowFlag>;
  controls: 'none' | 'minimal' | 'full';
  context: 'own' | 'shared' | null;
  /** 'auto' (WebGL 2, else the software drawer), 'webgl' (never software), 'software'; changing it switches drawers. */
  renderer: 'auto' | 'webgl' | 'software';
  baseUrl: string | null;
  wasm: string | null;
  /** URL of fflate's ESM build (esm/browser.js, .mjs) or its UMD build (umd/index.js). */
  fflate: string | null;

  // state
  readonly loaded: boolean;
  /** What draws now: 'webgl', 'software', or null (nothing can under renderer="webgl", or not yet decided). */
  readonly drawer: ViewerDrawer | null;
  readonly format: 'iqm' | 'iqe' | 'md3' | null;
  readonly info: ViewerInfo | null;
  /** Players' folders and meshes of the loaded source (animation-only files are attached, not listed). */
  readonly availableModels: string[];
  /** The animations' names, as model-viewer's availableAnimations. */
  readonly availableAnimations: string[];
  /** The animations in detail. */
  readonly animations: ViewerAnimation[];
  readonly availableSkins: string[];
  readonly availableLods: number[];
  /** Quake 3 players: weapons found (models/weapons2/<name>/<name>.md3). */
  readonly availableWeapons: string[];
  /** Quake 3 players: torso animations playGesture() takes. */
  readonly availableGestures: string[];
  readonly tags: string[];
  readonly missingFiles: string[];
  readonly warnings: ViewerWarning[];
  readonly paused: boolean;
  readonly duration: number;
  readonly frameCount: number;
  currentTime: number;
  currentFrame: number;
  /** Every part's play head: { both } or a player's { legs, torso }; all from the C animator. */
  readonly frames: Partial<Record<'both' | 'legs' | 'torso', PartPlayhead>>;

  load(source: ViewerSource, options?: { format?: 'auto' | 'iqm' | 'iqe' | 'md3'; name?: string; model?: string }): Promise<void>;
  play(options?: { repetitions?: number; pingpong?: boolean }): void;
  pause(): void;
  seek(seconds: number): void;
  seekFrame(frame: number, options?: { part?: AnimationPart }): void;
  step(frames?: number, options?: { part?: AnimationPart }): void;
  setAnimation(name: string, options?: { part?: AnimationPart; crossfade?: number }): void;
  setSkin(name: string): Promise<void>;
  /** Quake 3 players: a torso animation once (default TORSO_GESTURE), then TORSO_STAND. */
  playGesture(name?: string): void;
  toBlob(options?: { mimeType?: string; qualityArgument?: number; frame?: number }): Promise<Blob>;
  toDataURL(mimeType?: string, quality?: number): string;
  /** Deterministic picture: pauses, pins `frame` (of `animation`) and the shader clock (`shaderTime`, default the frame's time, until play()), draws synchronously. */
  renderFrame(frame: number, options?: { animation?: string; part?: AnimationPart; shaderTime?: number }): void;
  /** Re-fits the camera to what the animations playing draw (also after the user moved it). */
  updateFraming(): void;
  /** Where the camera is, as model-viewer's: radians and model units; toString() in camera-orbit's syntax. */
  getCameraOrbit(): { theta: number; phi: number; radius: number; toString(): string };
  /** The point the camera orbits; toString() in camera-target's syntax. */
  getCameraTarget(): { x: number; y: number; z: number; toString(): string };
  /** Whether the user orbited, panned or zoomed since the model was framed (changes of animation then keep the camera). */
  readonly cameraMoved: boolean;
  dispose(): void;

  addEventListener<K extends keyof ViewerEventMap>(type: K, listener: (this: InterquakeViewerElement, event: ViewerEventMap[K]) => void, options?: boolean | AddEventListenerOptions): void;
  addEventListener<K extends keyof HTMLElementEventMap>(type: K, listener: (this: InterquakeViewerElement, event: HTMLElementEventMap[K]) => void, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof ViewerEventMap>(type: K, listener: (this: InterquakeViewerElement, event: ViewerEventMap[K]) => void, options?: boolean | EventListenerOptions): void;
  removeEventListener<K extends keyof HTMLElementEventMap>(type: K, listener: (this: InterquakeViewerElement, event: HTMLElementEventMap[K]) => void, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

export const SHOW_FLAGS: readonly ShowFlag[];

/**
 * Page options as attributes: every attribute (but `wasm`, `fflate`, `base-url` and `context`) read
 * from URL parameters (a ?query or #hash), with the aliases animation, legs, torso, speed and bg;
 * a boolean given as 0 or false is null (removed). What embed.html and the viewer page use.
 */
export function optionsFromParams(params: Iterable<[string, string]>): Record<string, string | null>;
/** Sets (or, for null, removes) each attribute of `options` on the element; `reset`: every other page attribute is removed first. */
export function applyOptions(element: Element, options: Record<string, string | null>, settings?: { reset?: boolean }): void;

export class ViewerError extends Error {
  readonly code: string;
  readonly file?: string;
}

declare global {
  interface HTMLElementTagNameMap {
    'interquake-viewer': InterquakeViewerElement;
  }
}
