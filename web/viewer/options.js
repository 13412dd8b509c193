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

export function applyOptions(element, options) {
  for (const [name, value] of Object.entries(options)) {
    if (value === null) element.removeAttribute(name);
    else element.setAttribute(name, value);
  }
}
