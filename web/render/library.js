// The library with pictures: Interquake (web/quake3/library.js) and the software renderer's entry
// points, which sit above the player and the viewer's clock and framing they draw with (so core/
// and quake3/ import nothing from here). web/entry.js makes libraries of this class; the one-file
// element's bundle replaces render.js and images.js with stubs that say 'unsupported'.

import { Interquake as Quake3Library } from '../quake3/library.js';

export class Interquake extends Quake3Library {
  /**
   * A picture of a model (from load()) or a player (from loadPlayer()) drawn by the C's software
   * renderer as the element draws it (docs/RENDER.md): resolves to { width, height, pixels (RGBA,
   * top row first), missingFiles }. options: the element's attributes in camelCase (width, height,
   * animation, time or frame, legsAnimation, torsoAnimation, skin, cameraOrbit, cameraTarget,
   * fieldOfView, background, lightDirection, lightIntensity, lightAmbient), supersample, and for a
   * model files (its textures, as writeGLB() reads them). Needs interquake.wasm (not the element's build).
   */
  async render(target, options = {}) {
    this._wasm.need('iq_wasm_render_draw', 'render()');
    const { render } = await import('../render/render.js');
    return render(this, target, options);
  }

  /** Frames of an animation or a turntable: { frames: [{ width, height, pixels, time }], fps } (docs/RENDER.md). */
  async renderAnimation(target, options = {}) {
    this._wasm.need('iq_wasm_render_draw', 'renderAnimation()');
    const { renderAnimation } = await import('../render/render.js');
    return renderAnimation(this, target, options);
  }

  /** A picture from render() as PNG bytes. */
  async encodePNG(image) {
    const { encodePNG } = await import('../render/images.js');
    return encodePNG(image);
  }

  /** Frames from renderAnimation() as an animated PNG (options.fps, default 15). */
  async encodeAPNG(frames, options = {}) {
    const { encodeAPNG } = await import('../render/images.js');
    return encodeAPNG(frames, { fps: frames?.fps ?? 15, ...options });
  }

  /** Frames as one PNG and a JSON atlas: { png, atlas: { width, height, frames: [{ x, y, w, h, time }] } }. */
  async encodeSpriteSheet(frames, options = {}) {
    const { encodeSpriteSheet } = await import('../render/images.js');
    return encodeSpriteSheet(frames, options);
  }
}
