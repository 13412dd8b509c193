// What the element does when an attribute changes (attributeChangedCallback's work), apart from
// the element so element.js stays its public surface. The attribute list is attributes.js.

import { parseFieldOfView, parseOrbit, parseTarget, DEFAULT_FOV } from '../scene/camera.js';

// What a camera attribute's text should look like (the warning for text that is not).
const CAMERA_SYNTAX = {
  'camera-orbit': ['"theta phi radius", e.g. "45deg 60deg 5m" or "auto auto 120%"', parseOrbit, { theta: null, phi: null, radius: null }],
  'camera-target': ['"x y z", e.g. "0m 1.5m -0.5m" or "auto"', parseTarget, [null, null, null]],
  'field-of-view': ['an angle between 0 and 180 degrees, e.g. "30deg", "0.5rad" or "30" (degrees)', parseFieldOfView, DEFAULT_FOV],
};

// A camera attribute parsed; text it cannot read gives a console warning and the default.
function cameraAttribute(name, value) {
  const [syntax, parse, fallback] = CAMERA_SYNTAX[name];
  const parsed = parse(value);
  if (parsed !== undefined) return parsed;
  console.warn(`<interquake-viewer> ${name}="${value}" is not ${syntax}: using the default`);
  return fallback;
}

/** Applies attribute `name`'s new `value` to `viewer` (an <interquake-viewer>). */
export function reactToAttribute(viewer, name, value) {
  switch (name) {
    case 'src':
    case 'archives':
      if (viewer.isConnected) viewer._loadFromAttribute();
      break;
    case 'skin':
      if ((viewer._content?.player || viewer._content?.modelSkins) && value && value !== viewer._skinRequested) viewer.setSkin(value).catch(() => {});
      break;
    case 'lod':
    case 'weapon':
    case 'team':
      if (viewer._content?.player) viewer._reloadPlayer().catch(() => {});
      break;
    case 'animation-name':
    case 'legs-animation':
    case 'torso-animation':
      if (viewer._content && value) {
        const part = name === 'legs-animation' ? 'legs' : name === 'torso-animation' ? 'torso' : 'both';
        viewer._setAnimationQuiet(value, part);
      }
      break;
    case 'autoplay':
      if (viewer._content && value !== null) viewer.play();
      break;
    case 'loop':
      viewer._playback.reloop();
      viewer._invalidate();
      break;
    case 'frame':
      if (viewer._content && value !== null) viewer.seekFrame(Number(value));
      break;
    case 'controls':
      viewer._applyControls();
      break;
    case 'renderer':
      if (viewer.isConnected) viewer._createRenderer();
      break;
    case 'model':
      viewer._pickModel(value);
      break;
    case 'camera-orbit':
      viewer._camera.applyOrbit(cameraAttribute(name, value));
      viewer._cameraChanged();
      break;
    case 'camera-target':
      viewer._camera.applyTarget(cameraAttribute(name, value));
      viewer._cameraChanged();
      break;
    case 'field-of-view':
      viewer._camera.setFieldOfView(cameraAttribute(name, value));
      viewer._cameraChanged();
      break;
    case 'alt':
      viewer._applyAlt();
      break;
    case 'auto-rotate':
      viewer._camera.autoRotateFrozen = false; // renderFrame() froze it; asking again turns it back on
      viewer._invalidate();
      break;
    default:
      viewer._invalidate();
  }
}
