// The command line in a pipeline (issue 17, item 7): a closed pipe, archives of one folder mounted
// together, files skipped by format, archives read entry by entry. Fixtures are built here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildZip } from '../lib/zip-build.mjs';

const bin = fileURLToPath(new URL('../../../bin/interquake.mjs', import.meta.url));
const corpus = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));
const sarge = join(corpus, 'md3/openarena/models/players/sarge');
const mrfixit = join(corpus, 'iqm/mrfixit/mrfixit.iqm');
const run = (...args) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

function withDir(fn) {
  const dir = mkdtempSync(join(tmpdir(), 'iq-cli-pipe-'));
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('validate | head -1: the closed pipe ends the run quietly, with the exit code of what failed so far', () => {
  withDir((dir) => {
    // 1500 broken models: about 130 KB of problem lines, more than a pipe holds, so writes go on
    // after head has read its line and gone.
    for (let i = 0; i < 1500; i++) writeFileSync(join(dir, `m${i}.iqm`), 'INTERQUAKEMODEL\0garbage');
    const r = spawnSync('bash', ['-c', `"${process.execPath}" "${bin}" validate "${dir}" --warnings --workers 1 | head -1; exit "\${PIPESTATUS[0]}"`], { encoding: 'utf8' });
    assert.equal(r.stderr, '', 'no stack, no message');
    assert.equal(r.stdout.trim().split('\n').length, 1);
    assert.match(r.stdout, /m\d+\.iqm: truncated/);
    assert.equal(r.status, 1, 'failures were seen before the pipe closed');
  });
});
