// The element's attributes, listed once: observedAttributes, the camelCase properties that reflect
// them, and the page options of index.html (?query) and embed.html (#hash) all come from this list.
//
// type: 'string' (null when absent), 'boolean' (present or not), 'number' (the default when absent
// or not a number). page: false keeps an attribute out of page options (URLs a page should not take
// from its own address: the WASM and fflate scripts, where textures are fetched from).

export const ATTRIBUTES = [
  { name: 'src', type: 'string' },
  { name: 'model', type: 'string' },
  { name: 'skin', type: 'string' },
  { name: 'lod', type: 'number', default: 0 },
  { name: 'animation-name', type: 'string' },
  { name: 'legs-animation', type: 'string' },
  { name: 'torso-animation', type: 'string' },
  { name: 'autoplay', type: 'boolean' },
  { name: 'time-scale', type: 'number', default: 1 },
  { name: 'loop', type: 'string' },
  { name: 'frame', type: 'number', default: null },
  { name: 'interpolate', type: 'string' },
  { name: 'camera-controls', type: 'boolean' },
  { name: 'auto-rotate', type: 'boolean' },
  { name: 'camera-orbit', type: 'string' },
  { name: 'field-of-view', type: 'string' },
  { name: 'background', type: 'string' },
  { name: 'show', type: 'string' },
  { name: 'controls', type: 'string' },
  { name: 'animation-crossfade-duration', type: 'number', default: 300 },
  { name: 'context', type: 'string', page: false },
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

/**
 * Defines a reflecting property for every attribute the class does not define itself (the element
 * defines those whose value means more than the attribute's text, such as `show` or `skin`).
 */
export function defineAttributeProperties(ElementClass) {
  const proto = ElementClass.prototype;
  for (const attribute of ATTRIBUTES) {
    const property = camelCase(attribute.name);
    if (Object.prototype.hasOwnProperty.call(proto, property)) continue;
    const { name, type } = attribute;
    let descriptor;
    if (type === 'boolean') {
      descriptor = {
        get() { return this.hasAttribute(name); },
        set(v) { this.toggleAttribute(name, Boolean(v)); },
      };
    } else if (type === 'number') {
      descriptor = {
        get() {
          const text = this.getAttribute(name);
          const v = text === null || text.trim() === '' ? NaN : Number(text);
          return Number.isFinite(v) ? v : attribute.default;
        },
        set(v) { setOrRemove(this, name, v); },
      };
    } else {
      descriptor = {
        get() { return this.getAttribute(name); },
        set(v) { setOrRemove(this, name, v); },
      };
    }
    Object.defineProperty(proto, property, { ...descriptor, configurable: true, enumerable: false });
  }
}
