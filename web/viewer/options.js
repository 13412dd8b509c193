// Page options (index.html ?query, embed.html #hash) -> <interquake-viewer> attributes.
// Every attribute of the element's one list (attributes.js) works as a parameter, except those
// marked page: false; a few short aliases match product.md's embed URLs.

import { ATTRIBUTES } from './attributes.js';

const PAGE_ATTRIBUTES = new Map(ATTRIBUTES.filter((a) => a.page !== false).map((a) => [a.name, a]));
const ALIASES = { animation: 'animation-name', legs: 'legs-animation', torso: 'torso-animation', speed: 'time-scale', bg: 'background' };

/** Reads URLSearchParams-like params into { attribute: value | null (remove) }. */
export function optionsFromParams(params) {
  const options = {};
  for (const [key, value] of params) {
    const name = ALIASES[key] ?? key;
    const attribute = PAGE_ATTRIBUTES.get(name);
    if (!attribute) continue;
    if (attribute.type === 'boolean') options[name] = value === '0' || value === 'false' ? null : '';
    else options[name] = value;
  }
  return options;
}

/**
 * Sets the attributes `options` names (null removes one). `reset`: every other page attribute is
 * removed first, so the element starts from its defaults (embed.html's hash change).
 */
export function applyOptions(element, options, { reset = false } = {}) {
  if (reset) {
    for (const name of PAGE_ATTRIBUTES.keys()) if (!(name in options) && element.hasAttribute(name)) element.removeAttribute(name);
  }
  for (const [name, value] of Object.entries(options)) {
    if (value === null) element.removeAttribute(name);
    else element.setAttribute(name, value);
  }
}

/**
 * The page parameters that reproduce what `element` shows (index.html keeps its address on them):
 * the page attributes that differ from `defaults` ({ attribute: value }), the animation each part
 * plays, and the camera once the user has moved it. Aliases as optionsFromParams reads them.
 */
export function paramsFromElement(element, defaults = {}) {
  const params = new URLSearchParams();
  const skip = new Set(['animation-name', 'legs-animation', 'torso-animation', 'camera-orbit', 'camera-target', 'frame', 'autoplay']);
  for (const name of PAGE_ATTRIBUTES.keys()) {
    if (skip.has(name)) continue;
    const value = element.getAttribute(name);
    const fallback = name in defaults ? defaults[name] : null;
    if (value === fallback) continue;
    params.set(name, value === null ? (PAGE_ATTRIBUTES.get(name).type === 'boolean' ? '0' : '') : value);
  }
  if (element.loaded && element.availableSkins.length && element.skin && !params.has('skin') && element.skin !== 'default') params.set('skin', element.skin);
  const frames = element.frames;
  if (frames.both?.animation) params.set('animation', frames.both.animation);
  if (frames.legs?.animation) params.set('legs', frames.legs.animation);
  if (frames.torso?.animation) params.set('torso', frames.torso.animation);
  if (element.cameraMoved) {
    params.set('camera-orbit', String(element.getCameraOrbit()));
    params.set('camera-target', String(element.getCameraTarget()));
  } else {
    for (const name of ['camera-orbit', 'camera-target']) if (element.hasAttribute(name)) params.set(name, element.getAttribute(name));
  }
  return params;
}
