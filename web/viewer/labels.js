// The tag names of the `tags` overlay (web/scene/overlays.js), as HTML over the element's canvas.

const LABEL_STYLE = 'position:absolute;left:0;top:0;padding:0 3px;border-radius:3px;white-space:nowrap;'
  + 'font:11px/1.4 system-ui,sans-serif;color:#fff;background:rgba(0,0,0,0.55);pointer-events:none;';

/**
 * Shows `labels` ({ text, at }) in `layer` (an element over the canvas, `width` x `height` CSS
 * pixels), each just right of its point projected by `viewProjection` (column-major); points
 * behind the camera or off the view are hidden. A label that would cover one placed before it
 * (top to bottom) moves down below it, so tags at one place (a weapon's tag_flash on tag_weapon)
 * stay readable. Spans are reused from frame to frame.
 */
export function placeLabels(layer, labels, viewProjection, width, height) {
  const m = viewProjection;
  while (layer.children.length > labels.length) layer.lastChild.remove();
  const placed = labels.map(({ text, at }, i) => {
    let span = layer.children[i];
    if (!span) {
      span = layer.ownerDocument.createElement('span');
      span.setAttribute('part', 'tag-label');
      span.style.cssText = LABEL_STYLE;
      layer.append(span);
    }
    if (span.textContent !== text) span.textContent = text;
    const [x, y, z] = at;
    const w = m[3] * x + m[7] * y + m[11] * z + m[15];
    const sx = ((m[0] * x + m[4] * y + m[8] * z + m[12]) / w + 1) / 2 * width;
    const sy = (1 - (m[1] * x + m[5] * y + m[9] * z + m[13]) / w) / 2 * height;
    const shown = w > 0 && sx >= 0 && sx <= width && sy >= 0 && sy <= height;
    span.hidden = !shown;
    span.style.display = shown ? '' : 'none';
    span.dataset.x = sx.toFixed(1);
    span.dataset.y = sy.toFixed(1);
    return { span, shown, left: sx + 4, mid: sy };
  }).filter((l) => l.shown);
  // Sizes read once, after every text is set (one layout), then positions written.
  for (const l of placed) {
    l.width = l.span.offsetWidth;
    l.height = l.span.offsetHeight;
  }
  placed.sort((a, b) => a.mid - b.mid);
  const done = [];
  for (const l of placed) {
    // The label's left edge 4 px right of the origin, centred on it vertically, unless that covers
    // one placed already: then just below the lowest it would cover.
    for (let moved = true; moved;) {
      moved = false;
      for (const o of done) {
        const apart = (l.height + o.height) / 2;
        // (less a little: o.mid + apart - o.mid can round below apart, which would move it forever)
        if (Math.abs(l.mid - o.mid) < apart - 1e-3 && l.left < o.left + o.width && o.left < l.left + l.width) {
          l.mid = o.mid + apart;
          moved = true;
        }
      }
    }
    done.push(l);
    l.span.style.transform = `translate(${l.left.toFixed(1)}px, calc(${l.mid.toFixed(1)}px - 50%))`;
  }
}
