// The C/JS boundary (web/core/wasm.js): one module knows the WASM, the C owns every layout,
// number and error code, and the JS agrees with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { init, InterquakeError } from 'interquake';
import { JS_ERRORS } from '../../../web/core/wasm.js';
import { VIEWER_ERRORS } from '../../../web/viewer/errors.js';

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

test('the ErrorCode union of interquake.d.ts is the three lists (C, JS library, viewer), exactly', () => {
  const types = readFileSync(new URL('interquake.d.ts', web), 'utf8');
  const union = types.slice(types.indexOf('export type ErrorCode ='), types.indexOf('// END ErrorCode'));
  const declared = [...union.matchAll(/'([a-z0-9_]+)'/g)].map((m) => m[1]);
  assert.ok(!/string\s*&/.test(union), 'the union is closed: no (string & {})');
  const all = [...iq.errorCodes, ...Object.keys(VIEWER_ERRORS)];
  assert.deepEqual([...declared].sort(), [...all].sort(), 'run node tools/gen-types.mjs');
  assert.ok(iq.errorCodes.includes('bad_value') && iq.errorCodes.includes('wasm_unavailable'));
});

test('error lists per layer: the C lists only what the C raises; the library and the viewer list their own', () => {
  const cCodes = Object.keys(iq._wasm.constants.error).filter((c) => c !== 'none');
  const jsCodes = Object.keys(JS_ERRORS), viewerCodes = Object.keys(VIEWER_ERRORS);
  // no code in two lists; the library's errorCodes are the C's and its own, not the viewer's
  for (const c of jsCodes) assert.ok(!cCodes.includes(c) && !viewerCodes.includes(c), `'${c}' is in two lists`);
  for (const c of viewerCodes) assert.ok(!cCodes.includes(c), `'${c}' (the viewer's) is in the C list`);
  assert.deepEqual([...iq.errorCodes].sort(), [...cCodes, ...jsCodes].sort());
  // every C code is raised by the C: its IQ_ERROR_ name appears in src/ outside the list itself
  const src = new URL('../../../src/', import.meta.url);
  const cText = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const url = new URL(name, dir);
      if (statSync(url).isDirectory()) walk(new URL(`${name}/`, dir));
      else if (/\.c$/.test(name)) cText.push(readFileSync(url, 'utf8'));
    }
  };
  walk(src);
  const joined = cText.join('\n');
  for (const c of cCodes) assert.ok(joined.includes(`IQ_ERROR_${c.toUpperCase()}`), `the C list has '${c}', which no C file raises`);
});

test('every error code the JS raises is in its layer\'s lists', () => {
  const raised = [];
  for (const { path, text } of sources) {
    for (const m of text.matchAll(/(?:InterquakeError|ViewerError|\.fail)\(\s*'([a-z0-9_]+)'/g)) raised.push([m[1], path]);
  }
  assert.ok(raised.length > 10, 'the scan found the raise sites');
  for (const [code, path] of raised) {
    // the viewer may raise its own codes and the library's; the library only its own and the C's
    const allowed = path.startsWith('viewer/') || path.startsWith('interquake-viewer') ? [...iq.errorCodes, ...Object.keys(VIEWER_ERRORS)] : iq.errorCodes;
    assert.ok(allowed.includes(code), `${path} raises '${code}', which is not in ${path.startsWith('viewer/') ? 'the C, JS_ERRORS or VIEWER_ERRORS lists' : 'the C list or JS_ERRORS'}`);
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

test('only web/core/wasm.js calls a WASM export, so no other module tests what one returns', () => {
  // Every export's result (an iq_error_code, a handle, an address) is tested in one place:
  // wasm.call / make / value (and their withBytes forms); a module that reached the exports
  // itself could test a raw return value again (`!== 1`, `if (code)`, `if (!handle)`).
  const direct = /\.exports\b|\b(?:e|exports)\.iq_wasm_\w+\(|\[['"]iq_wasm_\w+['"]\]\(/;
  let calls = 0;
  for (const { path, text } of sources) {
    if (path === 'core/wasm.js') continue;
    const lines = text.split('\n');
    const line = lines.findIndex((l) => direct.test(l));
    assert.equal(line, -1, `${path}:${line + 1} calls a WASM export itself: ${lines[line]?.trim()}`);
    calls += (text.match(/\.(call|make|value|callWithBytes|makeWithBytes)\('iq_wasm_/g) ?? []).length;
  }
  assert.ok(calls >= 30, `the scan found the calls through wasm.js (${calls})`);
});

test('wasm.call turns a returned code into an InterquakeError, wasm.make a 0 into the error the C filled', () => {
  const wasm = iq._wasm;
  const stale = 0x7fff0fff; // a handle that was never made
  assert.equal(wasm.call('iq_wasm_dispose', [stale], { allow: ['disposed'] }), 'disposed');
  assert.throws(() => wasm.call('iq_wasm_dispose', [stale], { message: 'dispose(stale)', file: 'x.iqm' }),
    (e) => e instanceof InterquakeError && e.code === 'disposed' && e.message === 'x.iqm: disposed: dispose(stale)');
  assert.throws(() => wasm.makeWithBytes(new Uint8Array(16), 'iq_wasm_load', [0, 0, wasm.errorPtr], 'noise.bin'),
    (e) => e.code === 'unknown_format' && e.file === 'noise.bin' && /no signature of a format interquake reads/.test(e.message));
  // a parser that fills the error: its code and location come back, not just the number
  assert.throws(() => wasm.withRecord('iq_skin', null, (out) => wasm.callWithBytes(new TextEncoder().encode('a,b\n"open'), 'iq_wasm_parse_skin', [out, wasm.errorPtr], { file: 's.skin' })),
    (e) => e.code === 'syntax' && e.line === 2 && e.file === 's.skin');
  const ok = wasm.withRecord('iq_skin', null, (out) => wasm.callWithBytes(new TextEncoder().encode('a,b'), 'iq_wasm_parse_skin', [out, wasm.errorPtr]));
  assert.equal(ok, null, 'success is null');
});

test('scratch memory is handed out by wasm.scratchRecord, never carved by offset elsewhere', () => {
  for (const { path, text } of sources) {
    if (path === 'core/wasm.js') continue;
    const line = text.split('\n').findIndex((l) => /\bscratch\s*\+/.test(l));
    assert.equal(line, -1, `${path}:${line + 1} carves scratch memory by hand: ${text.split('\n')[line]?.trim()}`);
  }
  const wasm = iq._wasm;
  const a = wasm.scratchRecord('iq_play', 0);
  const b = wasm.scratchRecord('iq_animation', 1);
  assert.ok(b - a >= wasm.sizeof('iq_play'), 'the two slots do not overlap');
  assert.throws(() => wasm.scratchRecord('iq_play', 2), (e) => e.code === 'invalid_argument');
  assert.throws(() => wasm.scratchRecord('iq_play', 0.5), (e) => e.code === 'invalid_argument');
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
  assert.throws(() => iq._wasm.fail('no_such_code', 'x'), /neither in IQ_ERROR_LIST nor in JS_ERRORS/);
  assert.throws(() => iq._wasm.fail('not_loaded', 'x'), /neither in IQ_ERROR_LIST nor in JS_ERRORS/, 'a viewer code is not the library\'s');
  assert.equal(iq._wasm.fail('missing_file', 'gone').code, 'missing_file');
});

test('names that are not UTF-8 come back as Latin-1, byte for byte', async () => {
  const { decodeText } = await import('../../../web/core/wasm.js');
  assert.equal(decodeText(new Uint8Array([0x74, 0x61, 0x67, 0x5f, 0xe9, 0x61, 0x64])), 'tag_\u00e9ad');
  assert.equal(decodeText(new Uint8Array([0x63, 0x61, 0x66, 0xc3, 0xa9])), 'caf\u00e9');
  assert.equal(decodeText(new Uint8Array([0x80, 0x9f, 0xff])), '\u0080\u009f\u00ff');
});
