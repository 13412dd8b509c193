// The element's attributes, listed once: observedAttributes, the camelCase properties that reflect
// them, and the page options of index.html (?query) and embed.html (#hash) all come from this list.
//
// type: what the property reads as (setting it sets the attribute):
//   'string'  the attribute's text (null when absent)
//   'boolean' present or not
//   'number'  the attribute as a number (the default when absent or not a number)
//   'enum'    one of `values` (the default when absent or another word)
//   'switch'  true unless the attribute says "false" (default true); set: "true" / "false"
//   'list'    a Set of the words among `values` (space or comma separated)
// page: false keeps an attribute out of page options (URLs a page should not take from its own
// address: the WASM and fflate scripts, where textures are fetched from).

import { LOOP_MODES } from '../scene/clock.js';
import { SHOW_FLAGS } from '../scene/overlays.js'; // the software renderer's `show` takes them too

export { SHOW_FLAGS };
export const CONTROLS_VALUES = ['none', 'minimal', 'full'];

export const ATTRIBUTES = [
  { name: 'src', type: 'string' },
  { name: 'archives', type: 'string' },
  { name: 'alt', type: 'string' },
  { name: 'model', type: 'string' },
  { name: 'skin', type: 'string' },
  { name: 'lod', type: 'number', default: 0 },
  { name: 'weapon', type: 'string' },
  { name: 'team', type: 'enum', values: ['red', 'blue'], default: null },
  { name: 'animation-name', type: 'string' },
  { name: 'legs-animation', type: 'string' },
  { name: 'torso-animation', type: 'string' },
  { name: 'autoplay', type: 'boolean' },
  { name: 'time-scale', type: 'number', default: 1 },
  { name: 'loop', type: 'enum', values: LOOP_MODES, default: null },
  { name: 'frame', type: 'number', default: null },
  { name: 'interpolate', type: 'switch' },
  { name: 'camera-controls', type: 'boolean' },
  { name: 'auto-rotate', type: 'boolean' },
  { name: 'camera-orbit', type: 'string' },
  { name: 'camera-target', type: 'string' },
  { name: 'field-of-view', type: 'string' },
  { name: 'background', type: 'string' },
  { name: 'light-direction', type: 'string' },
  { name: 'light-intensity', type: 'number', default: 0.7 },
  { name: 'light-ambient', type: 'number', default: 0.45 },
  { name: 'show', type: 'list', values: SHOW_FLAGS },
  { name: 'controls', type: 'enum', values: CONTROLS_VALUES, default: 'none' },
  { name: 'animation-crossfade-duration', type: 'number', default: 300 },
  { name: 'q3-transition', type: 'switch' },
  { name: 'context', type: 'enum', values: ['own', 'shared'], default: null, page: false },
  { name: 'renderer', type: 'enum', values: ['auto', 'webgl', 'software'], default: 'auto' },
  { name: 'base-url', type: 'string', page: false },
  { name: 'wasm', type: 'string', page: false },
  { name: 'fflate', type: 'string', page: false },
];

export const ATTRIBUTE_NAMES = ATTRIBUTES.map((a) => a.name);

/** 'camera-orbit' -> 'cameraOrbit'. */
export const camelCase = (name) => name.replace(/-([a-z])/g, (_, c) => c.toUpperCase());

export function setOrRemove(element, name, value) {
  if (value === null || value === undefined || value === false) element.removeAttribute(name);
  else element.setAttribute(name, String(value));
}

const words = (text) => (text || '').split(/[\s,]+/).filter(Boolean);

// The property descriptor of one attribute (see the types above).
function descriptorOf({ name, type, values, default: fallback }) {
  switch (type) {
    case 'boolean':
      return {
        get() { return this.hasAttribute(name); },
        set(v) { this.toggleAttribute(name, Boolean(v)); },
      };
    case 'number':
      return {
        get() {
          const text = this.getAttribute(name);
          const v = text === null || text.trim() === '' ? NaN : Number(text);
          return Number.isFinite(v) ? v : fallback;
        },
        set(v) { setOrRemove(this, name, v); },
      };
    case 'enum':
      return {
        get() {
          const v = this.getAttribute(name);
          return values.includes(v) ? v : fallback;
        },
        set(v) { setOrRemove(this, name, v); },
      };
    case 'switch':
      return {
        get() { return this.getAttribute(name) !== 'false'; },
        set(v) { this.setAttribute(name, v && v !== 'false' ? 'true' : 'false'); },
      };
    case 'list':
      return {
        get() { return new Set(words(this.getAttribute(name)).filter((w) => values.includes(w))); },
        set(v) {
          if (v === null || v === undefined) this.removeAttribute(name);
          else this.setAttribute(name, [...(typeof v === 'string' ? words(v) : v)].join(' '));
        },
      };
    default:
      return {
        get() { return this.getAttribute(name); },
        set(v) { setOrRemove(this, name, v); },
      };
  }
}

/**
 * Defines a reflecting property for every attribute the class does not define itself (the element
 * defines those whose value means more than the attribute's text, such as `skin`: the skin shown).
 */
export function defineAttributeProperties(ElementClass) {
  const proto = ElementClass.prototype;
  for (const attribute of ATTRIBUTES) {
    const property = camelCase(attribute.name);
    if (Object.prototype.hasOwnProperty.call(proto, property)) continue;
    Object.defineProperty(proto, property, { ...descriptorOf(attribute), configurable: true, enumerable: false });
  }
}
