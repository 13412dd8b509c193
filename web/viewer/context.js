// Which WebGL context an element draws with. Browsers keep about 16 live WebGL contexts per page
// and silently drop the oldest beyond that, so the first elements get their own context and later
// ones (or those with context="shared") draw in one shared offscreen context and show the result
// as a bitmap.

import { Renderer } from './renderer.js';

const OWN_CONTEXT_LIMIT = 8;
let ownContexts = 0;
let shared = null; // { renderer, users: Set of elements }

/**
 * A renderer for `viewer` (its canvas and its `context` attribute): { renderer, bitmap } where
 * bitmap is the canvas's bitmaprenderer context when the shared context draws for it.
 */
export function acquireRenderer(viewer, canvas, bitmap) {
  const mode = viewer.getAttribute('context');
  if (bitmap || mode === 'shared' || (mode !== 'own' && ownContexts >= OWN_CONTEXT_LIMIT)) {
    // Past the limit, draw with the page's one shared context and show the picture as a bitmap.
    return { renderer: sharedRenderer(viewer), bitmap: bitmap ?? canvas.getContext('bitmaprenderer') };
  }
  const renderer = new Renderer(canvas, { preserveDrawingBuffer: false });
  ownContexts++;
  return { renderer, bitmap: null };
}

/** Gives back what acquireRenderer handed out: an own context is freed, the shared one forgets `viewer`. */
export function releaseRenderer(viewer, renderer, bitmap) {
  if (!renderer) return;
  if (bitmap) {
    shared?.users.delete(viewer);
  } else {
    renderer.dispose();
    if (renderer.gl) ownContexts--; // not the software drawer's 2D canvas
  }
}

/** The elements the shared context draws for (tests check that none stays after it is removed). */
export const sharedUsers = () => shared?.users.size ?? 0;

function sharedRenderer(viewer) {
  if (!shared) {
    const canvas = new OffscreenCanvas(1, 1);
    const renderer = new Renderer(canvas);
    const users = new Set();
    canvas.addEventListener('webglcontextlost', (event) => {
      event.preventDefault();
      renderer.lost = true;
      for (const user of users) user._contextLost();
    });
    canvas.addEventListener('webglcontextrestored', () => {
      renderer.restore();
      for (const user of users) { user._emit('context-restored'); user._invalidate(); }
    });
    shared = { renderer, users };
  }
  shared.users.add(viewer);
  return shared.renderer;
}

/** Draws the shared context's picture into the element's canvas (nothing for an own context). */
export function present(renderer, canvas, bitmap) {
  if (!bitmap) return;
  if (canvas.width !== renderer.canvas.width || canvas.height !== renderer.canvas.height) {
    canvas.width = renderer.canvas.width;
    canvas.height = renderer.canvas.height;
  }
  bitmap.transferFromImageBitmap(renderer.canvas.transferToImageBitmap());
}
