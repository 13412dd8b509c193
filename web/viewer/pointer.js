// The element's pointer controls on its orbit camera (web/scene/camera.js): orbit: drag; zoom:
// wheel or pinch; pan: right drag or shift drag.

/**
 * Pointer and wheel controls on `canvas` for `viewer` (its camera, cameraControls, _invalidate and
 * _emit). Returns a function that removes them.
 */
export function attachCameraControls(viewer, canvas) {
  const pointers = new Map();
  let pinch = 0;
  const moved = () => {
    viewer._camera.held();
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
