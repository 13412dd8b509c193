// Page options (index.html ?query, embed.html #hash) -> <interquake-viewer> attributes.
// Every attribute name works as a parameter; a few short aliases match product.md's embed URLs.

const ATTRIBUTES = ['src', 'skin', 'lod', 'animation-name', 'legs-animation', 'torso-animation', 'autoplay', 'time-scale',
  'loop', 'frame', 'interpolate', 'camera-controls', 'auto-rotate', 'background', 'show', 'controls',
  'animation-crossfade-duration', 'field-of-view', 'camera-orbit'];
const ALIASES = { animation: 'animation-name', legs: 'legs-animation', torso: 'torso-animation', speed: 'time-scale', bg: 'background' };
const BOOLEAN = new Set(['autoplay', 'camera-controls', 'auto-rotate']);

/** Reads URLSearchParams-like params into { attribute: value | null (remove) }. */
export function optionsFromParams(params) {
  const options = {};
  for (const [key, value] of params) {
    const name = ALIASES[key] ?? key;
    if (!ATTRIBUTES.includes(name)) continue;
    if (BOOLEAN.has(name)) options[name] = value === '0' || value === 'false' ? null : '';
    else options[name] = value;
  }
  return options;
}

export function applyOptions(element, options) {
  for (const [name, value] of Object.entries(options)) {
    if (value === null) element.removeAttribute(name);
    else element.setAttribute(name, value);
  }
}
