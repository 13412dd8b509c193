// The element's built-in controls (controls="minimal" or "full"), inside its shadow root.
// They call the element's public methods and read its public state (and _choose, which marks a pick as
// check that the public API is enough to build a full viewer.

import { LOOP_MODES } from '../scene/clock.js';
import { SHOW_FLAGS } from './attributes.js';
import { parseLightDirection, DEFAULT_BACKGROUND } from '../scene/light.js';
import { parseColor } from './stage.js';
const SPEEDS = [0.1, 0.25, 0.5, 1, 1.5, 2, 4];

// Icons as inline SVG: glyphs like ▶ are missing from many fonts.
const ICON = {
  play: 'M4 2l10 6-10 6z',
  pause: 'M3 2h3.5v12H3zM9.5 2H13v12H9.5z',
  back: 'M3 2h2v12H3zM14 2L6 8l8 6z',
  forward: 'M11 2h2v12h-2zM2 2l8 6-8 6z',
  more: 'M2 4h12v1.6H2zM2 7.2h12v1.6H2zM2 10.4h12V12H2z',
  fullscreen: 'M2 2h4.5v1.6H3.6v2.9H2zM9.5 2H14v4.5h-1.6V3.6H9.5zM2 9.5h1.6v2.9h2.9V14H2zM12.4 9.5H14V14H9.5v-1.6h2.9z',
};
const icon = (name) => {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '14');
  svg.setAttribute('height', '14');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', ICON[name]);
  path.setAttribute('fill', 'currentColor');
  svg.append(path);
  return svg;
};

const STYLE = `
.controls { background: var(--controls-background); color: #e8e8ea; padding: 4px 6px; display: flex; flex-direction: column; gap: 4px;
  user-select: none; }
/* The settings panel (controls="full") takes at most a third of the element and scrolls; it starts
   open only on large elements (the host is the container) and the "more" button folds it. */
.panel { display: none; flex-direction: column; gap: 4px; max-height: 33cqh; overflow: auto; }
@container (min-width: 720px) and (min-height: 640px) { .controls:not(.folded) .panel { display: flex; } }
.controls.unfolded .panel { display: flex; }
.bar { display: flex; align-items: center; gap: 4px; }
.bar > .scrubbers { flex: 1; }
.row { display: flex; align-items: center; gap: 6px; flex-wrap: wrap; }
.row.timeline-row { flex-wrap: nowrap; }
.scrubbers { flex: 1; display: flex; flex-direction: column; gap: 0; min-width: 0; }
.scrubbers .row { gap: 4px; }
.part { min-width: 5ch; opacity: 0.8; }
button svg { display: block; }
button, select { font: inherit; color: inherit; background: rgba(255,255,255,0.08); border: 1px solid rgba(255,255,255,0.18);
  border-radius: 4px; padding: 2px 6px; min-height: 24px; cursor: pointer; }
.scrubbers input[type=range] { height: 16px; margin: 0; }
button:hover, select:hover { border-color: var(--accent-color); }
button[aria-pressed="true"] { background: var(--accent-color); color: #111; }
button:disabled, select:disabled { opacity: 0.4; cursor: default; }
input[type=range] { flex: 1; min-width: 60px; accent-color: var(--accent-color); }
label { display: inline-flex; align-items: center; gap: 4px; white-space: nowrap; }
.frame { font-variant-numeric: tabular-nums; min-width: 9ch; text-align: right; opacity: 0.9; font-size: 12px; white-space: nowrap; }
@container (max-width: 360px) { .frame { min-width: 0; } .frame .global { display: none; } }
.info { position: absolute; top: 8px; left: 8px; max-width: min(360px, 70%); max-height: calc(100% - 16px); overflow: auto;
  background: var(--controls-background); color: #e8e8ea; padding: 8px 10px; border-radius: 6px; font-size: 12px; display: none; }
.info.open { display: block; }
.info h3 { margin: 8px 0 3px; font-size: 12px; color: var(--accent-color); }
.info h3:first-child { margin-top: 0; }
.info table { border-collapse: collapse; }
.info td { padding: 0 8px 0 0; vertical-align: top; }
.info ul { margin: 0; padding-left: 16px; }
.info .warn { color: #ffb070; }
.info .miss { color: #ff8080; }
[hidden] { display: none !important; }
`;

/** Builds the controls for `viewer` in `stage`; returns { mode, update(rebuild), remove() }. */
export function buildControls(viewer, mode, stage) {
  const root = viewer.shadowRoot;
  const style = el('style', {}, STYLE);
  root.appendChild(style);
  const full = mode === 'full';

  const play = el('button', { part: 'play-button', title: 'Play / pause (space)', 'aria-label': 'Play' }, icon('play'));
  const back = el('button', { title: 'Previous frame (←)', 'aria-label': 'Previous frame' }, icon('back'));
  const forward = el('button', { title: 'Next frame (→)', 'aria-label': 'Next frame' }, icon('forward'));
  // One scrubber per part ('both', or a player's legs and torso): its timeline and frame readout.
  const scrubbers = el('div', { class: 'scrubbers' });
  // Fold the settings panel (controls="full"), and fullscreen (the element's requestFullscreen()).
  const more = el('button', { part: 'more-button', title: 'Settings', 'aria-label': 'Settings', 'aria-expanded': 'false' }, icon('more'));
  const fullscreen = el('button', { part: 'fullscreen-button', title: 'Fullscreen', 'aria-label': 'Fullscreen', 'aria-pressed': 'false' }, icon('fullscreen'));
  const timelineRow = el('div', { class: 'bar' }, play, back, forward, scrubbers, ...(full ? [more] : []), fullscreen);
  let scrubberParts = '';
  const scrubber = (part, labelled) => {
    const timeline = el('input', {
      type: 'range', min: '0', max: '0', step: '1', value: '0', part: labelled ? `timeline ${part}-timeline` : 'timeline',
      'aria-label': labelled ? `${part} frame` : 'Frame',
    });
    const label = el('span', { class: 'frame', part: 'frame-label' });
    timeline.addEventListener('input', () => {
      viewer.pause();
      viewer.seekFrame(Number(timeline.value), labelled ? { part } : {});
    });
    const row = el('div', { class: 'row timeline-row' }, ...(labelled ? [el('span', { class: 'part' }, part)] : []), timeline, label);
    return { part, row, timeline, label };
  };
  let scrubberList = [];

  const model = select('model-select', 'Model');
  const animation = select('animation-select', 'Animation');
  const legs = select('legs-select', 'Legs animation');
  const torso = select('torso-select', 'Torso animation');
  const speed = select('speed-select', 'Speed');
  for (const s of SPEEDS) speed.append(el('option', { value: String(s) }, `${s}×`));
  const reverse = el('button', { title: 'Play backwards', 'aria-pressed': 'false', part: 'reverse-button' }, 'reverse');
  const loop = select('loop-select', 'Loop mode');
  for (const m of LOOP_MODES) loop.append(el('option', { value: m }, m));
  const smooth = el('input', { type: 'checkbox', checked: '' });
  const skin = select('skin-select', 'Skin');
  const lod = select('lod-select', 'Level of detail');
  const labelled = (text, control) => el('label', {}, text, control);
  const modelLabel = labelled('Model', model);
  const animationLabel = labelled('Animation', animation);
  const legsLabel = labelled('Legs', legs);
  const torsoLabel = labelled('Torso', torso);
  const skinLabel = labelled('Skin', skin);
  const lodLabel = labelled('LOD', lod);
  const playbackRow = el('div', { class: 'row' }, modelLabel, animationLabel, legsLabel, torsoLabel, labelled('Speed', speed), reverse,
    labelled('Loop', loop), labelled('Smooth', smooth), skinLabel, lodLabel);
  // Quake 3 players: the weapon in hand, a torso gesture played once.
  const weapon = select('weapon-select', 'Weapon');
  const weaponLabel = labelled('Weapon', weapon);
  const team = select('team-select', 'Team');
  for (const t of ['', 'red', 'blue']) team.append(el('option', { value: t }, t || 'none'));
  const teamLabel = labelled('Team', team);
  const gesture = select('gesture-select', 'Gesture');
  const gestureButton = el('button', { title: 'Play the gesture once, then stand', part: 'gesture-button' }, 'gesture');
  const gestureLabel = el('span', {}, labelled('Gesture', gesture), gestureButton);
  // Look: background colour (or transparent) and the light.
  const background = el('input', { type: 'color', part: 'background-input', 'aria-label': 'Background colour', value: hexColor(DEFAULT_BACKGROUND) });
  const transparent = el('input', { type: 'checkbox', part: 'transparent-input' });
  const range = (name, max, label) => el('input', { type: 'range', min: '0', max: String(max), step: '0.05', part: name, 'aria-label': label });
  const intensity = range('light-intensity-input', 2, 'Light intensity');
  const ambient = range('light-ambient-input', 1.5, 'Ambient light');
  // The light's direction (light-direction) as azimuth round Z and elevation, in degrees; "camera"
  // removes the attribute (the light follows the camera again).
  const angle = (name, min, max, label) => el('input', { type: 'range', min: String(min), max: String(max), step: '1', value: '0', part: name, 'aria-label': label });
  const azimuth = angle('light-azimuth-input', -180, 180, 'Light azimuth (degrees)');
  const elevation = angle('light-elevation-input', -90, 90, 'Light elevation (degrees)');
  const followCamera = el('button', { title: 'Light from over the camera\'s shoulder', 'aria-pressed': 'true', part: 'light-camera-button' }, 'camera');
  const lookRow = el('div', { class: 'row' }, weaponLabel, teamLabel, gestureLabel, labelled('Background', background), labelled('Transparent', transparent),
    labelled('Light', intensity), labelled('Ambient', ambient), labelled('Azimuth', azimuth), labelled('Elevation', elevation), followCamera);

  const toggles = SHOW_FLAGS.map((flag) => el('button', { 'aria-pressed': 'false', 'data-flag': flag, part: `toggle-${flag}` }, flag));
  const infoButton = el('button', { 'aria-pressed': 'false', part: 'info-button' }, 'info');
  const shot = el('button', { title: 'Save a PNG of the view', part: 'screenshot-button' }, 'screenshot');
  const displayRow = el('div', { class: 'row' }, ...toggles, infoButton, shot);

  const bar = el('div', { class: 'controls', part: 'controls' }, timelineRow);
  const panel = el('div', { class: 'panel', part: 'panel' }, playbackRow, lookRow, displayRow);
  if (full) bar.append(panel);
  stage.appendChild(bar);
  const info = el('div', { class: 'info', part: 'info' });
  const view = root.querySelector('.view');
  if (full) view.appendChild(info);

  // -- wiring: every control calls the element's public API
  play.addEventListener('click', () => (viewer.paused ? viewer.play() : viewer.pause()));
  more.addEventListener('click', () => {
    const open = panelOpen();
    bar.classList.toggle('unfolded', !open);
    bar.classList.toggle('folded', open);
    update();
  });
  fullscreen.addEventListener('click', () => {
    if (document.fullscreenElement === viewer) document.exitFullscreen?.();
    else viewer.requestFullscreen?.().catch(() => {});
  });
  const onFullscreen = () => update();
  document.addEventListener('fullscreenchange', onFullscreen);
  const panelOpen = () => full && getComputedStyle(panel).display !== 'none';
  back.addEventListener('click', () => viewer.step(-1));
  forward.addEventListener('click', () => viewer.step(1));
  model.addEventListener('change', () => viewer._choose('model', model.value));
  animation.addEventListener('change', () => viewer.setAnimation(animation.value));
  legs.addEventListener('change', () => viewer.setAnimation(legs.value, { part: 'legs' }));
  torso.addEventListener('change', () => viewer.setAnimation(torso.value, { part: 'torso' }));
  speed.addEventListener('change', () => { viewer.timeScale = Math.sign(viewer.timeScale || 1) * Number(speed.value); });
  reverse.addEventListener('click', () => { viewer.timeScale = -viewer.timeScale || -1; });
  loop.addEventListener('change', () => { viewer.loop = loop.value; });
  smooth.addEventListener('change', () => { viewer.interpolate = smooth.checked; });
  skin.addEventListener('change', () => viewer.setSkin(skin.value).catch(() => {}));
  lod.addEventListener('change', () => viewer._choose('lod', lod.value));
  weapon.addEventListener('change', () => viewer._choose('weapon', weapon.value || null));
  team.addEventListener('change', () => viewer._choose('team', team.value || null));
  gestureButton.addEventListener('click', () => viewer.playGesture(gesture.value || undefined));
  const applyBackground = () => { viewer.background = transparent.checked ? 'transparent' : background.value; };
  background.addEventListener('input', () => { transparent.checked = false; applyBackground(); });
  transparent.addEventListener('change', applyBackground);
  intensity.addEventListener('input', () => { viewer.lightIntensity = Number(intensity.value); });
  ambient.addEventListener('input', () => { viewer.lightAmbient = Number(ambient.value); });
  const applyDirection = () => { viewer.lightDirection = lightDirectionText(Number(azimuth.value), Number(elevation.value)); };
  azimuth.addEventListener('input', applyDirection);
  elevation.addEventListener('input', applyDirection);
  followCamera.addEventListener('click', () => { viewer.lightDirection = null; });
  for (const button of toggles) {
    button.addEventListener('click', () => {
      const show = viewer.show;
      const flag = button.dataset.flag;
      if (show.has(flag)) show.delete(flag); else show.add(flag);
      viewer.show = show;
      update();
    });
  }
  infoButton.addEventListener('click', () => {
    info.classList.toggle('open');
    update(true);
  });
  shot.addEventListener('click', async () => {
    const blob = await viewer.toBlob();
    const a = el('a', { href: URL.createObjectURL(blob), download: `${(viewer.info?.name || 'interquake').split('/').pop().replace(/\.[^.]+$/, '')}.png` });
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  });
  const keys = (e) => {
    if (e.target !== viewer && !root.contains(e.target)) return;
    if (e.key === ' ') { e.preventDefault(); if (viewer.paused) viewer.play(); else viewer.pause(); }
    else if (e.key === 'ArrowLeft') viewer.step(-1);
    else if (e.key === 'ArrowRight') viewer.step(1);
  };
  root.querySelector('canvas').addEventListener('keydown', keys);

  function fillSelect(control, names, value) {
    const current = [...control.options].map((o) => o.value).join('\n');
    if (current !== names.join('\n')) control.replaceChildren(...names.map((n) => el('option', { value: n }, n)));
    if (value !== undefined && value !== null) control.value = String(value);
  }

  function update(rebuild = false) {
    const loaded = viewer.loaded;
    const animations = viewer.animations;
    const player = animations.some((a) => a.part === 'legs' || a.part === 'torso');
    // Each part's frame inside its animation and the model's global frame, as the C answers them.
    const heads = viewer.frames;
    const parts = Object.keys(heads);
    if (parts.join(' ') !== scrubberParts || !scrubberList.length) {
      scrubberParts = parts.join(' ');
      scrubberList = (parts.length ? parts : ['both']).map((part) => scrubber(part, parts.length > 1));
      scrubbers.replaceChildren(...scrubberList.map((x) => x.row));
    }
    const anyFrames = parts.some((p) => heads[p].frameCount > 0);
    for (const c of [play, back, forward]) c.disabled = !loaded || !anyFrames;
    for (const { part, timeline, label } of scrubberList) {
      const head = heads[part];
      const count = head?.frameCount ?? 0;
      timeline.disabled = !loaded || !count;
      timeline.max = String(Math.max(count - 1, 0));
      const frame = Math.min(Math.floor((head?.frame ?? 0) + 1e-6), Math.max(count - 1, 0));
      if (root.activeElement !== timeline) timeline.value = String(frame);
      if (count) label.replaceChildren(`${frame} / ${count - 1}`, el('span', { class: 'global' }, ` · #${head.globalFrame}`));
      else label.replaceChildren('no animation');
    }
    const state = viewer.paused ? 'play' : 'pause';
    if (play.dataset.icon !== state) { play.replaceChildren(icon(state)); play.dataset.icon = state; }
    play.setAttribute('aria-label', viewer.paused ? 'Play' : 'Pause');
    fullscreen.setAttribute('aria-pressed', String(document.fullscreenElement === viewer));
    more.setAttribute('aria-expanded', String(panelOpen()));
    const track = viewer._mainTrack?.();
    if (!full) return;
    reverse.setAttribute('aria-pressed', String(viewer.timeScale < 0));
    const magnitude = Math.abs(viewer.timeScale);
    if (!SPEEDS.includes(magnitude)) {
      speed.append(el('option', { value: String(magnitude) }, `${magnitude}×`));
    }
    speed.value = String(magnitude);
    loop.value = track?.loop ?? viewer.loop ?? 'repeat';
    smooth.checked = viewer.interpolate;
    const show = viewer.show;
    for (const button of toggles) button.setAttribute('aria-pressed', String(show.has(button.dataset.flag)));
    infoButton.setAttribute('aria-pressed', String(info.classList.contains('open')));
    if (root.activeElement !== intensity) intensity.value = String(viewer.lightIntensity);
    if (root.activeElement !== ambient) ambient.value = String(viewer.lightAmbient);
    const direction = parseLightDirection(viewer.lightDirection);
    followCamera.setAttribute('aria-pressed', String(!direction));
    if (direction && root.activeElement !== azimuth && root.activeElement !== elevation) {
      azimuth.value = String(Math.round((Math.atan2(direction[1], direction[0]) * 180) / Math.PI));
      elevation.value = String(Math.round((Math.asin(Math.max(-1, Math.min(1, direction[2]))) * 180) / Math.PI));
    }
    transparent.checked = viewer.background === 'transparent';
    // The swatch shows the colour drawn: the attribute's (any CSS colour, #335 too), else the default.
    const drawn = parseColor(viewer.background);
    if (root.activeElement !== background) background.value = hexColor(drawn && drawn[3] > 0 ? drawn : DEFAULT_BACKGROUND);
    if (!rebuild) return;
    // A source with several models (a folder, a drop, a .pk3): pick one (the `model` attribute).
    const models = viewer.availableModels;
    modelLabel.hidden = models.length < 2;
    fillSelect(model, models, viewer._content?.choice ?? viewer.model);
    animationLabel.hidden = player || !animations.length;
    legsLabel.hidden = !player;
    torsoLabel.hidden = !player;
    fillSelect(animation, animations.map((a) => a.name), viewer.animationName);
    if (player) {
      const legTrack = viewer._trackFor?.('legs');
      const torsoTrack = viewer._trackFor?.('torso');
      fillSelect(legs, animations.filter((a) => a.part !== 'torso').map((a) => a.name), legTrack?.animation?.name);
      fillSelect(torso, animations.filter((a) => a.part !== 'legs').map((a) => a.name), torsoTrack?.animation?.name);
    }
    skinLabel.hidden = !viewer.availableSkins.length;
    fillSelect(skin, viewer.availableSkins, viewer.skin);
    lodLabel.hidden = viewer.availableLods.length < 2;
    fillSelect(lod, viewer.availableLods.map(String), viewer.lod);
    teamLabel.hidden = !player;
    team.value = viewer.team ?? '';
    weaponLabel.hidden = !viewer.availableWeapons.length;
    fillSelect(weapon, ['', ...viewer.availableWeapons], viewer.weapon ?? '');
    const gestures = viewer.availableGestures;
    gestureLabel.hidden = !gestures.length;
    fillSelect(gesture, gestures, gestures.includes(gesture.value) ? gesture.value : gestures.includes('TORSO_GESTURE') ? 'TORSO_GESTURE' : undefined);
    if (info.classList.contains('open')) renderInfo(info, viewer.info);
  }

  return {
    mode,
    update,
    remove() {
      bar.remove();
      info.remove();
      style.remove();
      root.querySelector('canvas').removeEventListener('keydown', keys);
      document.removeEventListener('fullscreenchange', onFullscreen);
    },
  };
}

/** [r, g, b, a] in 0..1 as "#rrggbb" (what <input type=color> takes). */
export function hexColor(rgba) {
  return `#${rgba.slice(0, 3).map((c) => Math.round(Math.min(Math.max(c, 0), 1) * 255).toString(16).padStart(2, '0')).join('')}`;
}

/** "x y z" (model space, Z up) for a light at `azimuth` degrees round Z from +X and `elevation` degrees up. */
export function lightDirectionText(azimuth, elevation) {
  const a = (azimuth * Math.PI) / 180;
  const e = (elevation * Math.PI) / 180;
  const round = (v) => Math.round(v * 1e4) / 1e4 + 0; // + 0: no "-0"
  return [Math.cos(e) * Math.cos(a), Math.cos(e) * Math.sin(a), Math.sin(e)].map(round).join(' ');
}

function renderInfo(panel, info) {
  if (!info) {
    panel.replaceChildren(el('p', {}, 'Nothing loaded.'));
    return;
  }
  const rows = [
    ['file', info.name], ['format', info.format], ['vertices', info.vertices], ['triangles', info.triangles],
    ['meshes', info.meshes.length], ['joints', info.joints], ['frames', info.frames], ['animations', info.animations.length],
  ];
  const children = [
    el('h3', {}, 'Model'),
    el('table', {}, ...rows.map(([k, v]) => el('tr', {}, el('td', {}, k), el('td', {}, String(v))))),
    el('h3', {}, 'Meshes'),
    list(info.meshes.map((m) => `${m.name || '(unnamed)'}: ${m.material || 'no material'}${m.texture === 'missing' ? ' (missing)' : ''}`)),
  ];
  if (info.animations.length) {
    children.push(el('h3', {}, 'Animations'), list(info.animations.map((a) =>
      `${a.name}${a.part !== 'both' ? ` [${a.part}]` : ''}: frames ${a.firstFrame}–${a.firstFrame + a.frameCount - 1} @ ${+a.fps.toFixed(2)} fps${a.loop ? '' : ', once'}`)));
  }
  if (info.jointNames.length) children.push(el('h3', {}, `Joints (${info.jointNames.length})`), el('div', {}, info.jointNames.join(', ')));
  if (info.tags.length) children.push(el('h3', {}, 'Tags'), list(info.tags));
  if (info.skins.length) children.push(el('h3', {}, 'Skins'), el('div', {}, info.skins.join(', ')));
  if (info.warnings.length) {
    children.push(el('h3', {}, 'Warnings'), list(info.warnings.map((w) => `${w.code}: ${w.message}`), 'warn'));
  }
  if (info.missingFiles.length) children.push(el('h3', {}, 'Missing files'), list(info.missingFiles, 'miss'));
  panel.replaceChildren(...children);
}

function list(items, cls) {
  return el('ul', cls ? { class: cls } : {}, ...items.map((t) => el('li', {}, t)));
}

function select(part, label) {
  return el('select', { part, 'aria-label': label });
}

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}
