// The C/JS boundary (web/core/wasm.js): one module knows the WASM, the C owns every layout,
// number and error code, and the JS agrees with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { init, InterquakeError } from 'interquake';

const iq = await init();
const web = new URL('../../../web/', import.meta.url);

function jsFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const url = new URL(name, dir);
    if (statSync(url).isDirectory()) {
      if (name !== 'demo') out.push(...jsFiles(new URL(`${name}/`, dir)));
    } else if (name.endsWith('.js') && !name.endsWith('.min.js')) {
      out.push(url);
    }
  }
  return out;
}
const sources = jsFiles(web).map((url) => ({ path: url.pathname.slice(web.pathname.length), text: readFileSync(url, 'utf8') }));

test('the ErrorCode union of interquake.d.ts is the C list, exactly', () => {
  const types = readFileSync(new URL('interquake.d.ts', web), 'utf8');
  const union = types.slice(types.indexOf('export type ErrorCode ='), types.indexOf('// END ErrorCode'));
  const declared = [...union.matchAll(/'([a-z0-9_]+)'/g)].map((m) => m[1]);
  assert.ok(!/string\s*&/.test(union), 'the union is closed: no (string & {})');
  assert.deepEqual([...declared].sort(), [...iq.errorCodes].sort(), 'run node tools/gen-types.mjs');
  assert.ok(iq.errorCodes.includes('bad_value') && iq.errorCodes.includes('wasm_unavailable'));
});

test('every error code the JS raises is in the C list', () => {
  const raised = new Set();
  for (const { path, text } of sources) {
    for (const m of text.matchAll(/(?:InterquakeError|ViewerError|\.fail)\(\s*'([a-z0-9_]+)'/g)) raised.add(`${m[1]}\t${path}`);
  }
  assert.ok(raised.size > 10, 'the scan found the raise sites');
  for (const entry of raised) {
    const [code, path] = entry.split('\t');
    assert.ok(iq.errorCodes.includes(code), `${path} raises '${code}', which src/base/iq_errors.h does not list`);
  }
});

test('only web/core/wasm.js reads the heap by offset or knows the WASM exports\' layout', () => {
  const heapReads = /\b(getUint(8|16|32)|getInt(8|16|32)|getFloat(32|64)|getBig(Ui|I)nt64|setUint32|setFloat32)\(|new DataView\(|\._heap\b|\._exports\b|memory\.buffer/;
  for (const { path, text } of sources) {
    if (path === 'core/wasm.js') continue;
    const line = text.split('\n').findIndex((l) => heapReads.test(l));
    assert.equal(line, -1, `${path}:${line + 1} reads the heap itself: ${text.split('\n')[line]?.trim()}`);
  }
});

test('layouts, enums and constants come from the C tables', () => {
  const wasm = iq._wasm;
  // a few facts the C defines, read back through the tables
  assert.equal(wasm.sizeof('iq_mesh'), 24);
  assert.equal(wasm.offsetOf('iq_joint', 'translate'), 8);
  assert.equal(wasm.constants.format.md3, 3);
  assert.equal(wasm.constants.default.framerate, 24);
  assert.equal(iq.defaultFramerate, 24);
  assert.equal(iq.md3Framerate, 15);
  assert.deepEqual(wasm.names.loop.slice(0, 4), ['auto', 'repeat', 'once', 'pingpong']);
  assert.equal(wasm.names.q3_animation[0], 'BOTH_DEATH1');
  // a record written and read back through the layout
  const ptr = wasm.alloc(wasm.sizeof('iq_play'));
  wasm.fill('iq_play', ptr, { animation: 7, time: 1.5, loop: 3, framerate: 12.5, speed: -2, flags: 1 });
  assert.deepEqual(wasm.read('iq_play', ptr), { animation: 7, time: 1.5, loop: 3, framerate: 12.5, speed: -2, flags: 1 });
  wasm.free(ptr);
});

test('an error a C call fills carries its code, message and offset; JS codes not in the list are refused', () => {
  assert.throws(() => iq.load(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16])),
    (e) => e instanceof InterquakeError && e.code === 'unknown_format' && /unknown_format/.test(e.message));
  assert.throws(() => iq._wasm.fail('no_such_code', 'x'), /not in IQ_ERROR_LIST/);
  assert.equal(iq._wasm.fail('missing_file', 'gone').code, 'missing_file');
});

test('names that are not UTF-8 come back as Latin-1, byte for byte', async () => {
  const { decodeText } = await import('../../../web/core/wasm.js');
  assert.equal(decodeText(new Uint8Array([0x74, 0x61, 0x67, 0x5f, 0xe9, 0x61, 0x64])), 'tag_\u00e9ad');
  assert.equal(decodeText(new Uint8Array([0x63, 0x61, 0x66, 0xc3, 0xa9])), 'caf\u00e9');
  assert.equal(decodeText(new Uint8Array([0x80, 0x9f, 0xff])), '\u0080\u009f\u00ff');
});
