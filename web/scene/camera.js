// The orbit camera (Z up, as Quake and IQM are) of the element and the software renderer: where it
// looks from, framing a box, the view-projection matrix. The element's pointer controls that move
// it are web/viewer/pointer.js.

import { multiply, perspective, lookAt } from '../core/mat4.js';
import { sane } from './framing.js';

export const DEG = Math.PI / 180;
export const DEFAULT_FOV = 35 * DEG;
export const DEFAULT_YAW = 35 * DEG;
const DEFAULT_PITCH = 12 * DEG;
const AUTO_ROTATE_DELAY_MS = 3000; // after the user moved the camera
const AUTO_ROTATE_PER_SECOND = 30 * DEG;
const MARGIN = 0.08;      // of the view's half-height (and half-width) left free around the framed box
const FIT_YAWS = 16;      // the box is framed from this many directions round Z, so orbiting keeps it whole
const LENGTH_UNITS = { m: 1, cm: 0.01, mm: 0.001 }; // model-viewer's; a model unit counts as a metre

// The camera attributes in model-viewer's syntax. Each parser returns null for "auto" (or absent)
// and undefined for text it cannot read; the element warns about those and uses the default.

/** An angle: "45deg", "0.8rad", or a plain number (degrees). Radians, null for auto. */
export function parseAngle(text) {
  const t = String(text ?? 'auto').trim().toLowerCase();
  if (t === 'auto' || t === '') return null;
  const m = /^(-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)(deg|rad)?$/.exec(t);
  if (!m) return undefined;
  const v = Number(m[1]) * (m[2] === 'rad' ? 1 : DEG);
  return Number.isFinite(v) ? v : undefined;
}

/** A length: "5m", "40cm", "300mm", a plain number (metres) or "120%" -> { value, percent }. */
export function parseLength(text, { percent = false } = {}) {
  const t = String(text ?? 'auto').trim().toLowerCase();
  if (t === 'auto' || t === '') return null;
  const m = /^(-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)(m|cm|mm|%)?$/.exec(t);
  if (!m || (m[2] === '%' && !percent)) return undefined;
  const v = Number(m[1]);
  if (!Number.isFinite(v)) return undefined;
  return m[2] === '%' ? { value: v / 100, percent: true } : { value: v * LENGTH_UNITS[m[2] || 'm'], percent: false };
}

/** field-of-view: an angle between 0 and 180 degrees, or auto (35 degrees). Radians or undefined. */
export function parseFieldOfView(text) {
  const v = parseAngle(text);
  if (v === null) return DEFAULT_FOV;
  return v !== undefined && v > 0 && v < Math.PI ? v : undefined;
}

/** camera-orbit "theta phi radius" (any of them auto or left out) -> { theta, phi, radius } or undefined. */
export function parseOrbit(text) {
  const parts = String(text ?? '').trim().split(/\s+/).filter(Boolean);
  if (parts.length > 3) return undefined;
  const [theta, phi, radius] = [parseAngle(parts[0]), parseAngle(parts[1]), parseLength(parts[2], { percent: true })];
  if (theta === undefined || phi === undefined || radius === undefined) return undefined;
  if (radius && radius.value <= 0) return undefined;
  return { theta, phi, radius };
}

/** camera-target "x y z" (each a length or auto) -> [x, y, z] with null for auto, or undefined. */
export function parseTarget(text) {
  const parts = String(text ?? '').trim().split(/\s+/).filter(Boolean);
  if (parts.length === 1 && parts[0].toLowerCase() === 'auto') return [null, null, null];
  if (parts.length > 3) return undefined;
  const values = [0, 1, 2].map((k) => parseLength(parts[k]));
  if (values.includes(undefined)) return undefined;
  return values.map((v) => v?.value ?? null);
}

export class OrbitCamera {
  constructor() {
    this.yaw = DEFAULT_YAW;
    this.pitch = DEFAULT_PITCH;
    this.distance = 10;
    this.target = [0, 0, 0];
    this.center = [0, 0, 0];       // of the framed box: what "auto" targets
    this.fitRadius = 1;
    this.box = { min: [-1, -1, -1], max: [1, 1, 1] }; // the framed box
    this.aspect = 1;               // the canvas's, as last drawn: the fit depends on it
    this.fitted = true;            // the distance follows the fit (auto or % radius, not zoomed by the user)
    this.userMoved = false;        // the user orbited, panned or zoomed since the last fit
    this.fov = DEFAULT_FOV;        // vertical, radians
    this.orbit = { theta: null, phi: null, radius: null }; // camera-orbit, parsed (null: auto)
    this.targetSpec = [null, null, null];                  // camera-target, parsed
    this.autoRotateHold = 0;      // time of the last user interaction: auto-rotate waits after it
    this.autoRotateFrozen = false; // set by renderFrame(): pictures must not depend on the clock
  }

  /** Frames `bounds` ({ min, max }), then places the camera as camera-orbit and camera-target say. */
  fit(bounds) {
    const { min, max } = sane(bounds);
    this.box = { min: [...min], max: [...max] };
    this.center = [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2];
    this.fitRadius = Math.max(Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 2, 1e-3);
    this.userMoved = false;
    this.applyTarget();
    this.applyOrbit();
  }

  /**
   * The distance that frames the model (camera-orbit's "auto" and 100%): the nearest at which every
   * corner of the framed box is inside the view with MARGIN to spare, vertically and horizontally
   * (this.aspect), seen at the current pitch from FIT_YAWS directions round Z and the current one,
   * so the model stays whole while it turns.
   */
  autoDistance() {
    const tanV = Math.tan(this.fov / 2) * (1 - MARGIN);
    const tanH = tanV * this.aspect;
    const { min, max } = this.box;
    const corners = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => [0, 1, 2].map((k) => ((i >> k) & 1 ? max[k] : min[k]) - this.target[k]));
    const cp = Math.cos(this.pitch);
    const sp = Math.sin(this.pitch);
    let distance = 1e-3;
    for (let i = 0; i <= FIT_YAWS; i++) {
      const yaw = i === FIT_YAWS ? this.yaw : (i * 2 * Math.PI) / FIT_YAWS;
      const toEye = [cp * Math.cos(yaw), cp * Math.sin(yaw), sp];
      const right = [-Math.sin(yaw), Math.cos(yaw), 0];
      const up = [-sp * Math.cos(yaw), -sp * Math.sin(yaw), cp];
      for (const q of corners) {
        const depth = q[0] * toEye[0] + q[1] * toEye[1] + q[2] * toEye[2]; // towards the eye
        const x = q[0] * right[0] + q[1] * right[1];
        const y = q[0] * up[0] + q[1] * up[1] + q[2] * up[2];
        distance = Math.max(distance, depth + Math.abs(y) / tanV, depth + Math.abs(x) / tanH);
      }
    }
    return distance;
  }

  /** The distance the orbit's radius asks for (auto, a percentage of the fit, or a length). */
  _orbitDistance() {
    const r = this.orbit.radius;
    return !r ? this.autoDistance() : r.percent ? this.autoDistance() * r.value : r.value;
  }
  /** Puts the camera where `orbit` says (theta around Z from +X, phi from the +Z pole, as model-viewer). */
  applyOrbit(orbit = this.orbit) {
    this.orbit = orbit;
    this.yaw = orbit.theta ?? DEFAULT_YAW;
    this.pitch = orbit.phi === null ? DEFAULT_PITCH : Math.PI / 2 - orbit.phi;
    this.fitted = !orbit.radius || orbit.radius.percent;
    this.distance = this._orbitDistance();
  }

  applyTarget(target = this.targetSpec) {
    this.targetSpec = target;
    this.target = target.map((v, k) => v ?? this.center[k]);
  }

  /** A new field of view keeps the framing of an auto or percentage radius (and the user's zoom). */
  setFieldOfView(fov) {
    const old = this.fov;
    this.fov = fov;
    if (this.fitted) this.distance = this._orbitDistance();
    else if (!this.orbit.radius || this.orbit.radius.percent) this.distance *= Math.tan(old / 2) / Math.tan(fov / 2);
  }

  /** The user moved the camera: the distance stays where it is, and changes of animation no longer re-fit. */
  held() {
    this.fitted = false;
    this.userMoved = true;
  }

  /** { viewProjection, eye, light, axes } for a canvas aspect ratio. */
  matrices(aspect) {
    if (aspect > 0 && Number.isFinite(aspect) && aspect !== this.aspect) {
      this.aspect = aspect;
      if (this.fitted) this.distance = this._orbitDistance(); // a resized view keeps the model framed
    }
    const cp = Math.cos(this.pitch);
    const eye = [
      this.target[0] + this.distance * cp * Math.cos(this.yaw),
      this.target[1] + this.distance * cp * Math.sin(this.yaw),
      this.target[2] + this.distance * Math.sin(this.pitch),
    ];
    // Depth range: the model's sphere seen from here (the target may lie off its centre).
    const offset = Math.hypot(eye[0] - this.center[0], eye[1] - this.center[1], eye[2] - this.center[2]);
    const near = Math.max(offset - this.fitRadius * 4, offset * 0.01, 1e-4);
    const far = offset + this.fitRadius * 4;
    const view = lookAt(eye, this.target, [0, 0, 1]);
    const projection = perspective(this.fov, aspect, near, far);
    // A key light from over the viewer's shoulder, so the side facing the camera is lit.
    const light = normalizeVec([
      Math.cos(this.yaw + 0.6) * Math.cos(0.7), Math.sin(this.yaw + 0.6) * Math.cos(0.7), Math.sin(0.7),
    ]);
    // The view's axes as Quake 3 names them (forward, left, up; world space), for autosprite.
    const axes = { forward: [-view[2], -view[6], -view[10]], left: [-view[0], -view[4], -view[8]], up: [view[1], view[5], view[9]] };
    return { viewProjection: multiply(projection, view), eye, light, axes };
  }

  /** Turns by the auto-rotate speed for `dt` seconds, unless the user moved the camera lately. */
  autoRotate(dt, now) {
    if (this.autoRotateFrozen || now - this.autoRotateHold <= AUTO_ROTATE_DELAY_MS) return;
    this.yaw += dt * AUTO_ROTATE_PER_SECOND;
  }

  zoom(factor) {
    this.distance = Math.min(Math.max(this.distance * factor, this.fitRadius * 0.2), this.fitRadius * 40);
  }
}

export function normalizeVec(v) {
  const l = Math.hypot(v[0], v[1], v[2]) || 1;
  return [v[0] / l, v[1] / l, v[2] / l];
}
