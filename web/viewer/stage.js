// The element's shadow DOM: the canvas, the progress bar and the error message, with their styles
// (the built-in controls add theirs: ui.js).

// The shadow DOM's markup, made into a <template> on first use (importing this file touches no DOM).
const MARKUP = `<style>
:host { display: block; position: relative; width: 300px; height: 300px; overflow: hidden; contain: strict; container-type: size;
  --accent-color: #e0a030; --controls-background: rgba(20, 22, 26, 0.82); --progress-bar-color: var(--accent-color);
  --progress-bar-height: 3px; font: 13px/1.3 system-ui, sans-serif; color-scheme: dark; }
:host([hidden]) { display: none; }
.stage { position: absolute; inset: 0; display: flex; flex-direction: column; }
.view { position: relative; flex: 1; min-height: 0; }
canvas { display: block; width: 100%; height: 100%; touch-action: none; outline: none; }
.progress { position: absolute; left: 0; top: 0; height: var(--progress-bar-height); background: var(--progress-bar-color);
  width: 0; transition: width 0.1s, opacity 0.4s; opacity: 0; pointer-events: none; }
.progress.active { opacity: 1; }
.message { position: absolute; inset: 0; display: none; align-items: center; justify-content: center; padding: 1em;
  text-align: center; color: #f3d0c8; background: rgba(30, 12, 10, 0.85); white-space: pre-wrap; overflow: auto; }
.message.shown { display: flex; }
.message b { display: block; color: #ff8a70; margin-bottom: 0.4em; }
</style>
<div class="stage">
  <div class="view" part="view">
    <canvas part="canvas" tabindex="0" aria-label="3D model"></canvas>
    <div class="progress" part="progress-bar"><slot name="progress-bar"></slot></div>
    <div class="message" part="error" role="alert"><slot name="error"></slot><div class="text"></div></div>
  </div>
  <slot name="controls"></slot>
</div>`;
let template = null;

export class Stage {
  constructor(root) {
    if (!template) {
      template = document.createElement('template');
      template.innerHTML = MARKUP;
    }
    root.appendChild(template.content.cloneNode(true));
    this.canvas = root.querySelector('canvas');
    this.stage = root.querySelector('.stage');
    this.view = root.querySelector('.view');
    this.progressBar = root.querySelector('.progress');
    this.message = root.querySelector('.message');
  }

  /** 0..1; the bar hides at 1. */
  progress(value) {
    this.progressBar.style.width = `${Math.round(value * 100)}%`;
    this.progressBar.classList.toggle('active', value < 1);
  }

  /** Shows `error` ({ code, message }) over the view, or hides the message for null. */
  showMessage(error) {
    const text = this.message.querySelector('.text');
    this.message.classList.toggle('shown', Boolean(error));
    text.replaceChildren();
    if (!error) return;
    const title = document.createElement('b');
    title.textContent = `Could not show this model (${error.code})`;
    text.append(title, error.message);
  }
}

let colorContext = null;
// Any CSS colour to [r, g, b, a] in 0..1; null for none.
export function parseColor(value) {
  if (!value) return null;
  if (value === 'transparent') return [0, 0, 0, 0];
  colorContext ??= new OffscreenCanvas(1, 1).getContext('2d', { willReadFrequently: true });
  colorContext.clearRect(0, 0, 1, 1);
  colorContext.fillStyle = '#000';
  colorContext.fillStyle = value;
  colorContext.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = colorContext.getImageData(0, 0, 1, 1).data;
  return a ? [r / a, g / a, b / a, a / 255] : [0, 0, 0, 0];
}
