// Importing the viewer's entry (and every module under web/viewer/) in Node touches no DOM: no
// document, window, matchMedia at module top level; HTMLElement only looked up as the base class;
// the element registers only where customElements exists. Each case runs in a fresh node process,
// so one import's globals cannot hide another's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const run = (code) => execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' });
const modules = ['./web/interquake-viewer.js',
  ...readdirSync(new URL('../../../web/viewer/', import.meta.url)).filter((f) => f.endsWith('.js')).map((f) => `./web/viewer/${f}`)];

test('node -e "import(\'./web/interquake-viewer.js\')" works, and gives the exports', () => {
  execFileSync(process.execPath, ['-e', "import('./web/interquake-viewer.js')"], { cwd: root }); // throws on a non-zero exit
  const out = JSON.parse(run(`const m = await import('./web/interquake-viewer.js');
    console.log(JSON.stringify({ keys: Object.keys(m).sort(), element: typeof m.InterquakeViewerElement, flags: m.SHOW_FLAGS,
      registry: typeof customElements }));`));
  assert.deepEqual(out.keys, ['InterquakeViewerElement', 'SHOW_FLAGS', 'ViewerError', 'applyOptions', 'geometryOf', 'optionsFromParams', 'summarize']);
  assert.equal(out.element, 'function');
  assert.equal(out.flags.length, 6);
  assert.equal(out.registry, 'undefined', 'importing defined no registry of its own');
});

test('every module under web/viewer/ imports in Node', () => {
  assert.ok(modules.length > 10, `the viewer's modules were found (${modules.length})`);
  for (const module of modules) {
    assert.doesNotThrow(() => run(`await import(${JSON.stringify(module)});`), `${module} imports without a DOM`);
  }
});

test('no module touches document, window or matchMedia at import time (traps on the globals)', () => {
  for (const module of modules) {
    const out = JSON.parse(run(`
      const touched = [];
      for (const name of ['document', 'window', 'matchMedia', 'HTMLElement', 'customElements', 'requestAnimationFrame']) {
        Object.defineProperty(globalThis, name, { configurable: true, get() { touched.push(name); return undefined; } });
      }
      await import(${JSON.stringify(module)});
      console.log(JSON.stringify([...new Set(touched)].sort()));`));
    // The base class is looked up (globalThis.HTMLElement ?? class {}) and the entry asks whether
    // customElements exists: nothing else.
    const allowed = module === './web/interquake-viewer.js' ? ['HTMLElement', 'customElements'] : ['HTMLElement'];
    assert.deepEqual(out.filter((n) => !allowed.includes(n)), [], `${module} touched ${out.join(', ')}`);
  }
});

test('where customElements exists, the entry registers <interquake-viewer> once, on the page\'s HTMLElement', () => {
  const out = JSON.parse(run(`
    const defined = [];
    globalThis.HTMLElement = class FakeHTMLElement {};
    globalThis.customElements = { get: (name) => defined.find((d) => d[0] === name)?.[1], define: (name, c) => defined.push([name, c]) };
    const m = await import('./web/interquake-viewer.js');
    await import('./web/interquake-viewer.js?again'); // a second copy of the entry must not define it twice
    console.log(JSON.stringify({ names: defined.map((d) => d[0]), same: defined[0][1] === m.InterquakeViewerElement,
      extendsBase: m.InterquakeViewerElement.prototype instanceof HTMLElement,
      reflects: typeof Object.getOwnPropertyDescriptor(m.InterquakeViewerElement.prototype, 'cameraOrbit')?.get }));`));
  assert.deepEqual(out, { names: ['interquake-viewer'], same: true, extendsBase: true, reflects: 'function' });
});
