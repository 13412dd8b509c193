// What `npm test` runs either passes or fails: no test under tests/js, tests/browser or tests/package
// skips itself or is marked todo (node:test's `skip`/`todo` options, `t.skip()`, `test.skip()`...)
// or returns early when a file is missing, and no test of the main suite (the native ones in tests/c
// included) reads the games' data under /usr/share/games, which CI does not install: checks against
// real game data live in tests/gamedata/ and run with `npm run test:gamedata`, which installs it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SELF = fileURLToPath(import.meta.url);

function files(dir, re) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) { if (name !== 'node_modules') out.push(...files(path, re)); } else if (re.test(name)) out.push(path);
  }
  return out;
}

// Each pattern with the line it finds; the comments of a file count too (a skip commented out and
// back in is still a skip), so a test that needs to name one writes it another way.
const SKIPS = [
  [/\b(skip|todo)\s*:/, 'a skip/todo option'],
  [/\.(skip|todo)\s*\(/, 'a .skip()/.todo() call'],
  [/if\s*\(\s*!\s*existsSync\([^)]*\)\s*\)\s*(return|\{\s*return)/, 'an early return when a file is missing'],
];

function findings(paths, patterns) {
  const out = [];
  for (const path of paths) {
    if (path === SELF) continue;
    readFileSync(path, 'utf8').split('\n').forEach((line, i) => {
      for (const [re, what] of patterns) if (re.test(line)) out.push(`${relative(ROOT, path)}:${i + 1}: ${what}: ${line.trim()}`);
    });
  }
  return out;
}

const JS_TESTS = ['tests/js', 'tests/browser', 'tests/package'].flatMap((d) => files(join(ROOT, d), /\.(m?js|cjs|ts)$/));

test('no test of the main suite skips itself or is marked todo', () => {
  assert.ok(JS_TESTS.length > 50, `found ${JS_TESTS.length} files`);
  assert.deepEqual(findings(JS_TESTS, SKIPS), []);
});

test('no test of the main suite reads the games\' data (that is tests/gamedata/, npm run test:gamedata)', () => {
  const native = files(join(ROOT, 'tests/c'), /\.[ch]$/);
  assert.ok(native.length > 20, `found ${native.length} C files`);
  assert.deepEqual(findings([...JS_TESTS, ...native], [[/\/usr\/share\/games/, 'game data CI does not install']]), []);
});

test('the checks find what they look for', () => {
  const lines = ["test('x', { skip: !ok && 'not installed' }, () => {});", 'it.skip(\'y\', () => {});', "test('z', { todo: true });",
    't.skip(\'no data\');', "if (!existsSync(PK3)) return;"];
  for (const line of lines) assert.ok(SKIPS.some(([re]) => re.test(line)), line);
  for (const line of ['skipLibCheck: false', 'skipped: 0', 'doc.summary.skipped', "'the misfit is skipped with a warning'"]) {
    assert.ok(!SKIPS.some(([re]) => re.test(line)), line);
  }
});
