// The look shared by the element's WebGL drawer and the software renderer: the default background
// and light, the light-direction attribute, and the missing-texture checker.

/** The clear colour without a background attribute (dark grey), [r, g, b, a] in 0..1. */
export const DEFAULT_BACKGROUND = [0.13, 0.145, 0.17, 1];

/** The default lighting: ambient 0.45 (less from below), a key light of 0.7 over the viewer's shoulder. */
export const DEFAULT_LIGHT = { ambient: 0.45, intensity: 0.7 };

/** "x y z" (a direction towards the light, world space, Z up) as a unit vector; null for anything else. */
export function parseLightDirection(text) {
  const v = String(text ?? '').trim().split(/[\s,]+/).map(Number);
  if (v.length !== 3 || !v.every(Number.isFinite)) return null;
  const length = Math.hypot(v[0], v[1], v[2]);
  return length > 0 ? v.map((x) => x / length) : null;
}

/** A magenta/black checker, Quake's look for a missing texture. */
export function placeholderImage(size = 64) {
  const data = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const on = ((x >> 3) + (y >> 3)) & 1;
      data.set(on ? [255, 0, 255, 255] : [24, 24, 24, 255], (y * size + x) * 4);
    }
  }
  return { width: size, height: size, data, crisp: true };
}
