// The README and docs as npm shows and installs them: every relative link in the packed tarball's
// README.md and docs/*.md names a file the tarball holds (npm's page and an installed package have
// only the packed files, so a link to an unpacked file is dead there).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { run, tarball } from './lib/pack.mjs';

let dir;
let files;

before(async () => {
  const { file } = await tarball();
  dir = await mkdtemp(join(tmpdir(), 'iq-links-'));
  await run('tar', ['-xzf', file, '-C', dir], { cwd: dir });
  const { stdout } = await run('tar', ['-tzf', file], { cwd: dir });
  files = new Set(stdout.split('\n').filter(Boolean).map((p) => p.replace(/^package\//, '')));
});
after(() => rm(dir, { recursive: true, force: true }));

/** Every link target of a Markdown text: inline [text](target), reference definitions, HTML href/src. */
export function linkTargets(markdown) {
  const text = markdown.replace(/```[\s\S]*?```/g, '').replace(/`(?:[^`\n]|\n(?!\s*\n))*`/g, ''); // code (a span may wrap a line) is not a link
  const out = [];
  for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push(m[1]);
  for (const m of text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) out.push(m[1]);
  for (const m of text.matchAll(/\b(?:href|src)\s*=\s*"([^"]+)"/g)) out.push(m[1]);
  return out;
}

/** The packed file a relative link from `from` names, or null for an absolute URL or an anchor. */
export function linkedFile(from, target) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('//')) return null;
  const path = decodeURIComponent(target.replace(/[#?].*$/, ''));
  return posix.normalize(posix.join(posix.dirname(from), path)).replace(/\/$/, '');
}

test('the link reader finds inline, reference and HTML links and leaves code alone', () => {
  const md = '[a](docs/A.md) [b](<B.md> "t") `[c](C.md)`\n```\n[d](D.md)\n```\n[e]: E.md\n<img src="img/f.png"> [g](https://x.org/g) [h](#here)';
  assert.deepEqual(linkTargets(md).sort(), ['#here', 'B.md', 'E.md', 'docs/A.md', 'https://x.org/g', 'img/f.png']);
  assert.equal(linkedFile('docs/CLI.md', '../README.md#top'), 'README.md');
  assert.equal(linkedFile('README.md', 'https://x.org'), null);
});

test('every relative link in the packed README.md and docs/*.md resolves to a packed file', async () => {
  const documents = [...files].filter((p) => p === 'README.md' || (p.startsWith('docs/') && p.endsWith('.md')));
  assert.ok(documents.includes('README.md') && documents.length > 3, `README and docs are packed: ${documents.join(', ')}`);
  const dead = [];
  let checked = 0;
  for (const doc of documents) {
    const text = await readFile(join(dir, 'package', doc), 'utf8');
    for (const target of linkTargets(text)) {
      const file = linkedFile(doc, target);
      if (file === null) continue;
      checked++;
      // a link to a folder resolves when the tarball holds something under it
      if (!files.has(file) && ![...files].some((p) => p.startsWith(`${file}/`))) dead.push(`${doc}: ${target}`);
    }
  }
  assert.ok(checked >= 10, `${checked} relative links checked`);
  assert.deepEqual(dead, [], 'links to files the tarball does not hold');
});
