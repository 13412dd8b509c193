// The viewer's orbit camera (Z up, as Quake and IQM are): where it looks from, framing a box, the
// view-projection matrix, and the pointer controls (orbit: drag; zoom: wheel or pinch; pan: right
// drag or shift drag).

import { multiply, perspective, lookAt } from './renderer.js';
import { sane } from './framing.js';

export const DEG = Math.PI / 180;
const DEFAULT_FOV = 35;
const AUTO_ROTATE_DELAY_MS = 3000; // after the user moved the camera
const AUTO_ROTATE_PER_SECOND = 30 * DEG;

export class OrbitCamera {
  constructor() {
    this.yaw = 35 * DEG;
    this.pitch = 12 * DEG;
    this.distance = 10;
    this.target = [0, 0, 0];
    this.fitRadius = 1;
    this.autoRotateHold = 0;      // time of the last user interaction: auto-rotate waits after it
    this.autoRotateFrozen = false; // set by renderFrame(): pictures must not depend on the clock
  }

  /** Frames `bounds` ({ min, max }) for a vertical field of view in radians, `orbit` its text. */
  fit(bounds, fov, orbit) {
    const { min, max } = sane(bounds);
    this.target = [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2];
    this.fitRadius = Math.max(Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 2, 1e-3);
    this.distance = (this.fitRadius / Math.sin(fov / 2)) * 0.9; // the box's sphere is loose: frame a little tighter
    this.yaw = 35 * DEG;
    this.pitch = 12 * DEG;
    const parts = (orbit || '').trim().split(/\s+/);
    if (parts.length >= 2) {
      const angle = (s, d) => (s && s !== 'auto' ? parseFloat(s) * (s.endsWith('rad') ? 1 : DEG) : d);
      this.yaw = angle(parts[0], this.yaw);
      this.pitch = Math.PI / 2 - angle(parts[1], Math.PI / 2 - this.pitch); // model-viewer's phi is from the pole
    }
  }

  /** { viewProjection, eye, light } for a canvas aspect ratio and a field of view in radians. */
  matrices(aspect, fov) {
    const cp = Math.cos(this.pitch);
    const eye = [
      this.target[0] + this.distance * cp * Math.cos(this.yaw),
      this.target[1] + this.distance * cp * Math.sin(this.yaw),
      this.target[2] + this.distance * Math.sin(this.pitch),
    ];
    const near = Math.max(this.distance - this.fitRadius * 4, this.distance * 0.01);
    const far = this.distance + this.fitRadius * 4;
    const view = lookAt(eye, this.target, [0, 0, 1]);
    const projection = perspective(fov, aspect, near, far);
    // A key light from over the viewer's shoulder, so the side facing the camera is lit.
    const light = normalizeVec([
      Math.cos(this.yaw + 0.6) * Math.cos(0.7), Math.sin(this.yaw + 0.6) * Math.cos(0.7), Math.sin(0.7),
    ]);
    return { viewProjection: multiply(projection, view), eye, light };
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

/** The field of view attribute in radians (35 degrees when absent). */
export function fieldOfView(text) {
  return (Number(text) || DEFAULT_FOV) * DEG;
}

/**
 * Pointer and wheel controls on `canvas` for `viewer` (its camera, cameraControls, _invalidate and
 * _emit). Returns a function that removes them.
 */
export function attachCameraControls(viewer, canvas) {
  const pointers = new Map();
  let pinch = 0;
  const moved = () => {
    viewer._camera.autoRotateHold = performance.now();
    viewer._emit('camera-change', { source: 'user-interaction' });
    viewer._invalidate();
  };
  const zoom = (factor) => {
    viewer._camera.zoom(factor);
    moved();
  };
  const listeners = {
    pointerdown(e) {
      if (!viewer.cameraControls) return;
      canvas.setPointerCapture(e.pointerId);
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, pan: e.button === 2 || e.shiftKey });
      viewer._camera.autoRotateHold = performance.now();
    },
    pointermove(e) {
      const p = pointers.get(e.pointerId);
      if (!p) return;
      const dx = e.clientX - p.x;
      const dy = e.clientY - p.y;
      p.x = e.clientX;
      p.y = e.clientY;
      const cam = viewer._camera;
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a.x - b.x, a.y - b.y);
        if (pinch) cam.zoom(pinch / d);
        pinch = d;
      } else if (p.pan) {
        const scale = cam.distance / (viewer.clientHeight || 300);
        const right = [-Math.sin(cam.yaw), Math.cos(cam.yaw), 0];
        const up = [-Math.sin(cam.pitch) * Math.cos(cam.yaw), -Math.sin(cam.pitch) * Math.sin(cam.yaw), Math.cos(cam.pitch)];
        for (let k = 0; k < 3; k++) cam.target[k] += (-dx * right[k] + dy * up[k]) * scale;
      } else {
        cam.yaw -= dx * 0.008;
        cam.pitch = Math.max(-1.5, Math.min(1.5, cam.pitch + dy * 0.008));
      }
      moved();
    },
    pointerup(e) { pointers.delete(e.pointerId); pinch = 0; },
    pointercancel(e) { pointers.delete(e.pointerId); pinch = 0; },
    contextmenu(e) { if (viewer.cameraControls) e.preventDefault(); },
    wheel(e) {
      if (!viewer.cameraControls) return;
      e.preventDefault();
      zoom(Math.exp(e.deltaY * 0.001));
    },
    dblclick() { if (viewer.cameraControls) viewer.updateFraming(); },
  };
  for (const [type, fn] of Object.entries(listeners)) canvas.addEventListener(type, fn, type === 'wheel' ? { passive: false } : undefined);
  return () => {
    for (const [type, fn] of Object.entries(listeners)) canvas.removeEventListener(type, fn);
  };
}

export function normalizeVec(v) {
  const l = Math.hypot(v[0], v[1], v[2]) || 1;
  return [v[0] / l, v[1] / l, v[2] / l];
}
