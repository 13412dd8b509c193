// <interquake-viewer>: a web component that shows an IQM, IQE or MD3 model (or a Quake 3 player
// from a .pk3) with one tag, in the manner of <model-viewer>. See docs/VIEWER.md.
//
//   <script type="module" src="interquake-viewer.js"></script>
//   <interquake-viewer src="mrfixit.iqm" autoplay camera-controls></interquake-viewer>
//
// This file is the public entry (npm: interquake/viewer) and the bundle's: it registers the
// element. The element lives in web/viewer/ (element.js and its neighbours).

import { InterquakeViewerElement } from './viewer/element.js';
import { setWebFolder } from './viewer/sources.js';

export { InterquakeViewerElement, ViewerError, SHOW_FLAGS, geometryOf, summarize } from './viewer/element.js';
// Page options (a URL's ?query or #hash) as attributes: what embed.html and the viewer page use.
export { optionsFromParams, applyOptions } from './viewer/options.js';

// Bundled or not, this file sits in the package's web/ folder: fflate is looked for beside it.
// This file's URL, not new URL('./', import.meta.url): bundlers take that literal form for an asset
// to copy, and Parcel fails on a folder.
setWebFolder(import.meta.url);

// Only where there is a DOM: importing this file in Node (tests, server-side rendering) defines nothing.
if (globalThis.customElements && !customElements.get('interquake-viewer')) {
  customElements.define('interquake-viewer', InterquakeViewerElement);
}
