// The JS layers (CONTRIBUTING.md): core/ < quake3/ < scene/ < render/ < the library's entries
// (web/interquake.js and friends) < viewer/ < three/, with the element's entry
// (web/interquake-viewer.js) on top. A module imports (statically or dynamically) only from its
// own layer or the ones below; scene/, which the
// element, the software renderer and interquake/three share, touches no DOM.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';

const web = new URL('../../../web/', import.meta.url);
const ORDER = ['core', 'quake3', 'scene', 'render', 'library', 'viewer', 'three'];
const layerOf = (parts) => (parts.length > 1 ? ORDER.indexOf(parts[0]) : parts[0] === 'interquake-viewer.js' ? ORDER.length : ORDER.indexOf('library'));
const specifiers = (text) => [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm)].map((m) => m[1]);

test('each web/ layer imports only from itself and the layers below it', () => {
  let checked = 0;
  for (const [rank, layer] of ORDER.entries()) {
    if (layer === 'library') continue;
    for (const name of readdirSync(new URL(`${layer}/`, web)).filter((n) => n.endsWith('.js'))) {
      for (const spec of specifiers(readFileSync(new URL(`${layer}/${name}`, web), 'utf8'))) {
        if (!spec.startsWith('.')) continue; // packages ('three', 'fflate')
        const target = new URL(spec, new URL(`${layer}/${name}`, web)).pathname.slice(web.pathname.length).split('/');
        const to = layerOf(target);
        assert.ok(to !== -1 && to <= rank, `web/${layer}/${name} imports ${spec}: ${layer}/ reaches nothing above itself`);
        checked++;
      }
    }
  }
  assert.ok(checked > 50, `${checked} imports checked`);
});

test('scene/ touches no DOM (the software renderer runs it in Node)', () => {
  for (const name of readdirSync(new URL('scene/', web)).filter((n) => n.endsWith('.js'))) {
    const text = readFileSync(new URL(`scene/${name}`, web), 'utf8').replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '');
    assert.doesNotMatch(text, /\b(document|window|HTMLElement|customElements|OffscreenCanvas|requestAnimationFrame)\b/, `web/scene/${name}`);
  }
});
