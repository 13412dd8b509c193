// Builds the one-file element and the parts it loads on demand (build.sh build_viewer_bundle):
//   web/interquake-viewer.min.js   the element, renderer, UI and the JS API, one file
//   web/interquake-inflate.min.js  fflate's Inflate, fetched on the first deflated .pk3 entry
//   web/interquake-shaders.min.js  the shader-script drawer, fetched for models with script blocks
//   web/interquake-ui.min.js       the built-in controls, fetched when an element has controls
//   web/interquake-modelcfg.min.js model .cfg files and which model a folder opens (web/core/modelcfg.js),
//                                  fetched the first time a folder or a .pk3 is opened
//   web/interquake-modelskins.min.js DarkPlaces' <model>_<N>.skin, fetched for a model that has some
//   web/interquake-software.min.js the software drawer (web/viewer/software.js with web/render/), fetched
//                                  with interquake.wasm when an element draws without WebGL 2
// glTF export is left out of the element (a page that views models never writes them): in the
// element, iq.writeGLB() says so with 'unsupported'; `import 'interquake'` has it. The element's
// library is web/interquake-lite.js, over the smaller WASM builds (interquake-viewer.wasm, and
// interquake-shaders.wasm on demand), in place of web/interquake.js.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';

const common = { bundle: true, minify: true, format: 'esm', logLevel: 'warning', legalComments: 'none' };

const withoutGltf = {
  name: 'without-gltf',
  setup(b) {
    b.onResolve({ filter: /(^|\/)gltf\.js$/ }, () => ({ path: 'gltf-absent', namespace: 'interquake' }));
    b.onLoad({ filter: /.*/, namespace: 'interquake' }, () => ({
      contents: `import { InterquakeError } from './wasm.js';
        const absent = async () => { throw new InterquakeError('unsupported', "writeGLB() is not part of the one-file element: import 'interquake' (or 'interquake/embedded') to export glTF"); };
        export const writeModelGLB = absent, writePlayerGLB = absent, isPlayer = () => true;`,
      resolveDir: new URL('../web/core/', import.meta.url).pathname,
      loader: 'js',
    }));
  },
};

// The element's import('./ui.js') and import('./software.js') become the separate files beside the bundle.
const lazyControls = {
  name: 'lazy-controls',
  setup(b) {
    b.onResolve({ filter: /^\.\/(ui|software)\.js$/ }, (args) => (args.kind === 'dynamic-import' ? { path: `./interquake-${args.path.slice(2, -3)}.min.js`, external: true } : undefined));
  },
};

// web/core/library.js imports ./modelcfg.js on demand: in the element that import is the file
// built beside it (a relative import resolves against the bundle's own URL).
const modelcfgApart = {
  name: 'modelcfg-apart',
  setup(b) {
    b.onResolve({ filter: /^\.\/(modelcfg|modelskins)\.js$/ }, (a) => ({ path: `./interquake-${a.path.slice(2, -3)}.min.js`, external: true }));
  },
};
// The software renderer (web/render/) needs interquake.wasm, which the one-file element does not
// load: iq.render() and the encoders there say so instead of adding their code to the bundle (the
// library class is quake3/'s with those methods saying 'unsupported'; the element's own software
// drawer is interquake-software.min.js, fetched with interquake.wasm).
const withoutRender = {
  name: 'without-render',
  setup(b) {
    b.onResolve({ filter: /(^|\/)render\/library\.js$/ }, () => ({ path: 'render-absent', namespace: 'interquake-render' }));
    b.onLoad({ filter: /.*/, namespace: 'interquake-render' }, () => ({
      contents: `import { InterquakeError } from '../core/wasm.js';
        import { Interquake as Quake3Library } from './library.js';
        const absent = async () => { throw new InterquakeError('unsupported', "render() and the PNG encoders are not part of the one-file element: import 'interquake' for them"); };
        export class Interquake extends Quake3Library {}
        for (const name of ['render', 'renderAnimation', 'encodePNG', 'encodeAPNG', 'encodeSpriteSheet']) Interquake.prototype[name] = absent;`,
      resolveDir: new URL('../web/quake3/', import.meta.url).pathname,
      loader: 'js',
    }));
  },
};

// The shadow DOM's markup (web/viewer/stage.js's MARKUP) without the line breaks and indentation
// that make it readable there: esbuild leaves template strings as they are.
const compactMarkup = {
  name: 'compact-markup',
  setup(b) {
    b.onLoad({ filter: /[\\/]viewer[\\/]stage\.js$/ }, async ({ path }) => ({
      contents: (await readFile(path, 'utf8')).replace(/(const MARKUP = `)([^`]*)`/, (_, head, markup) => `${head}${markup
        .replace(/\n\s*/g, '').replace(/([:;,{])\s+/g, '$1').replace(/\s+\{/g, '{')}\``),
      loader: 'js',
    }));
  },
};

const liteWasm = {
  name: 'lite-wasm',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/interquake\.js$/ }, () => ({ path: new URL('../web/interquake-lite.js', import.meta.url).pathname }));
  },
};

await Promise.all([
  // fflate stays a dynamic import: bundlers and Node find the package; the one-file element falls
  // back to interquake-inflate.min.js beside it.
  build({ ...common, entryPoints: ['web/interquake-viewer.js'], outfile: 'web/interquake-viewer.min.js',
    external: ['fflate'], sourcemap: true, plugins: [withoutGltf, withoutRender, liteWasm, lazyControls, modelcfgApart, compactMarkup] }),
  build({ ...common, entryPoints: ['web/viewer/ui.js'], outfile: 'web/interquake-ui.min.js', plugins: [withoutRender, liteWasm, modelcfgApart] }),
  build({ ...common, entryPoints: ['web/core/modelcfg.js'], outfile: 'web/interquake-modelcfg.min.js' }),
  build({ ...common, entryPoints: ['web/quake3/modelskins.js'], outfile: 'web/interquake-modelskins.min.js' }),
  build({ ...common, entryPoints: ['web/core/inflate.js'], outfile: 'web/interquake-inflate.min.js' }),
  // The software drawer and the renderer's JS; it loads interquake.wasm beside itself.
    build({ ...common, entryPoints: ['web/viewer/software.js'], outfile: 'web/interquake-software.min.js', external: ['fflate'], plugins: [modelcfgApart] }),
  // The drawer imports nothing: the element passes it the GL context and the library's calls.
  build({ ...common, entryPoints: ['web/viewer/shaderdraw.js'], outfile: 'web/interquake-shaders.min.js' }),
]);
