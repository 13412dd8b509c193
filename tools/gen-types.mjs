// Writes the ErrorCode union of web/interquake.d.ts from the C's one list (src/base/iq_errors.h),
// so the types name exactly the codes an InterquakeError can carry. `node tools/gen-types.mjs`;
// tests/js/core/boundary.test.mjs fails when the two differ.
import { readFileSync, writeFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const header = readFileSync(new URL('src/base/iq_errors.h', root), 'utf8');
const list = header.slice(header.indexOf('#define IQ_ERROR_LIST'), header.indexOf('#define IQ_WARNING_LIST'));
const codes = [...list.matchAll(/X\(\s*\w+\s*,\s*"([a-z0-9_]+)"/g)].map((m) => m[1]).filter((c) => c !== 'none');

const file = new URL('web/interquake.d.ts', root);
const types = readFileSync(file, 'utf8');
const begin = types.indexOf('// BEGIN ErrorCode');
const end = types.indexOf('// END ErrorCode');
if (begin < 0 || end < 0) throw new Error('web/interquake.d.ts has no BEGIN/END ErrorCode markers');
const lines = [];
for (let i = 0; i < codes.length; i += 6) lines.push(`  | ${codes.slice(i, i + 6).map((c) => `'${c}'`).join(' | ')}`);
const union = `// BEGIN ErrorCode: generated from src/base/iq_errors.h by tools/gen-types.mjs (a test checks it)\n` +
  `export type ErrorCode =\n${lines.join('\n')};\n`;
writeFileSync(file, types.slice(0, begin) + union + types.slice(end));
console.log(`ErrorCode: ${codes.length} codes`);
