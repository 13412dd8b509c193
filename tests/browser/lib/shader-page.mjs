// A page for the shader-drawing tests (viewer/shaders.test.mjs, viewer/deforms.test.mjs): the
// library and web/quake3/shaders.js loaded in the page (the C's expected answers), and
// window.shoot(files, time, attributes), which loads files into a new element (attributes set
// first), pins the shader clock at `time`, draws frame 0 and returns the pixels
// ({ data, width, height }), the camera (eye, viewProjection, axes), the missing files and the warnings.
import { elementPage } from './viewer.mjs';
import { buildIQM } from '../../js/lib/iqm-build.mjs';

// A vertical quad across the default view (yaw 35 degrees): U is the camera's right; front faces
// clockwise on screen, as Quake 3's.
export const YAW = 35 * Math.PI / 180;
export const U = [-Math.sin(YAW), Math.cos(YAW), 0];
export const corner = (a, b) => [U[0] * a * 10, U[1] * a * 10, b * 10];

// That quad as an IQM with a colour per vertex (IQM carries vertex colours; MD3 does not).
export function iqmQuad(material, colors) {
  const xyz = [corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, 1)];
  return [...buildIQM({
    meshes: [{ name: 'q', material }],
    vertexArrays: [
      { type: 'position', format: 'float', size: 3, data: xyz.flat() },
      { type: 'normal', format: 'float', size: 3, data: xyz.flatMap(() => [Math.cos(YAW), Math.sin(YAW), 0]) },
      { type: 'texcoord', format: 'float', size: 2, data: [0, 1, 1, 1, 1, 0, 0, 0] },
      { type: 'color', format: 'ubyte', size: 4, data: colors.flat() },
    ],
    triangles: [[3, 2, 1], [3, 1, 0]],
  }).bytes];
}

export async function shaderPage(browser, name) {
  const page = await elementPage(browser, name, '');
  await page.evaluate(async () => {
    const { init } = await import('./interquake.js');
    window.iq = await init();
    window.shaders = await import('./quake3/shaders.js');
    window.shoot = async (files, time = 0, attributes = {}) => {
      const v = document.createElement('interquake-viewer');
      v.setAttribute('background', 'black');
      for (const [k, a] of Object.entries(attributes)) v.setAttribute(k, a);
      v.style.cssText = 'width:120px;height:120px;display:inline-block';
      document.body.appendChild(v);
      const bytes = Object.fromEntries(Object.entries(files).map(([k, a]) => [k, typeof a === 'string' ? new TextEncoder().encode(a) : new Uint8Array(a)]));
      await v.load(bytes);
      v._shaderTime = time;
      v.renderFrame(0);
      const bitmap = await createImageBitmap(await v.toBlob());
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const g = canvas.getContext('2d', { willReadFrequently: true });
      g.drawImage(bitmap, 0, 0);
      const { data, width, height } = g.getImageData(0, 0, bitmap.width, bitmap.height);
      const camera = v._camera.matrices(width / height);
      v.remove();
      return { data, width, height, eye: [...camera.eye], viewProjection: [...camera.viewProjection], axes: camera.axes, missing: v.missingFiles, warnings: v.warnings };
    };
  });
  return page;
}
