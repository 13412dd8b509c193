// Writes the ErrorCode union of web/interquake.d.ts from the three lists of error codes, one per
// layer: the C's (src/base/iq_errors.h), the JS library's (JS_ERRORS, web/core/wasm.js) and the
// viewer's (VIEWER_ERRORS, web/viewer/errors.js), so the types name exactly the codes an error
// can carry. `node tools/gen-types.mjs`; tests/js/core/boundary.test.mjs fails when they differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { JS_ERRORS } from '../web/core/wasm.js';
import { VIEWER_ERRORS } from '../web/viewer/errors.js';

const root = new URL('../', import.meta.url);
const header = readFileSync(new URL('src/base/iq_errors.h', root), 'utf8');
const list = header.slice(header.indexOf('#define IQ_ERROR_LIST'), header.indexOf('#define IQ_WARNING_LIST'));
const cCodes = [...list.matchAll(/X\(\s*\w+\s*,\s*"([a-z0-9_]+)"/g)].map((m) => m[1]).filter((c) => c !== 'none');
const codes = [...cCodes, ...Object.keys(JS_ERRORS), ...Object.keys(VIEWER_ERRORS)];
const twice = codes.filter((c, i) => codes.indexOf(c) !== i);
if (twice.length) throw new Error(`error codes in two lists: ${twice.join(', ')}`);

const file = new URL('web/interquake.d.ts', root);
const types = readFileSync(file, 'utf8');
const begin = types.indexOf('// BEGIN ErrorCode');
const end = types.indexOf('// END ErrorCode');
if (begin < 0 || end < 0) throw new Error('web/interquake.d.ts has no BEGIN/END ErrorCode markers');
const lines = [];
for (let i = 0; i < codes.length; i += 6) lines.push(`  | ${codes.slice(i, i + 6).map((c) => `'${c}'`).join(' | ')}`);
const union = '// BEGIN ErrorCode: generated from src/base/iq_errors.h, JS_ERRORS (web/core/wasm.js) and VIEWER_ERRORS\n' +
  '// (web/viewer/errors.js) by tools/gen-types.mjs (a test checks it)\n' +
  `export type ErrorCode =\n${lines.join('\n')};\n`;
writeFileSync(file, types.slice(0, begin) + union + types.slice(end));
console.log(`ErrorCode: ${codes.length} codes (${cCodes.length} C, ${Object.keys(JS_ERRORS).length} JS library, ${Object.keys(VIEWER_ERRORS).length} viewer)`);
