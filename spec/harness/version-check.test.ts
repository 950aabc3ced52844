// `--version` decides whether a CLI is there: missing, failing, slow and answering, each with the
// availability svc then acts on (a slow one is there: its runs are not refused).
import test from 'ava';
import { chmodSync, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { versionOf } from '../../lib/harness/common.js';
import { tempDir } from '../helpers/env.js';

const script = (body: string): string => {
  const path = join(tempDir('svc-version-'), 'cli');
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
};

const CASES = [
  { what: 'answers', bin: () => script('echo "1.2.3 (CLI)"'), timeoutMs: 20_000, expected: { _tag: 'Ready', version: '1.2.3 (CLI)' } },
  { what: 'answers slower than the check waits', bin: () => script('exec sleep 30'), timeoutMs: 300, expected: { _tag: 'Ready' } },
  { what: 'fails', bin: () => script('echo "broken install" >&2; exit 3'), timeoutMs: 20_000, expected: { _tag: 'NotInstalled', detail: 'CLI --version failed: broken install' } },
  { what: 'is not there', bin: () => join(tempDir('svc-version-'), 'nothing'), timeoutMs: 20_000, expected: { _tag: 'NotInstalled', missing: true } },
] as const;

for (const c of CASES) {
  test(`a CLI that ${c.what}`, async (t) => {
    const bin = c.bin();
    const a = await versionOf(bin, process.env, c.timeoutMs);
    t.like(a, { ...c.expected, ...('detail' in c.expected ? { detail: c.expected.detail.replace('CLI', bin) } : {}) });
    if (c.expected._tag === 'Ready' && !('version' in c.expected)) t.false('version' in a, 'no version is made up');
  });
}

// A version read is kept against the file that answered (lib/harness/version-cache.ts): the CLI
// below counts how often it is asked, so a kept answer shows as a count that does not grow.
const counted = (version: string): { bin: string; asked: () => number } => {
  const dir = tempDir('svc-version-');
  const count = join(dir, 'count');
  writeFileSync(count, '');
  const bin = join(dir, 'cli');
  writeFileSync(bin, `#!/bin/sh\necho x >> ${count}\necho "${version}"\n`);
  chmodSync(bin, 0o755);
  return { bin, asked: () => readFileSync(count, 'utf8').split('\n').filter(Boolean).length };
};

test('a version read is kept for the same file: asked once, the same answer after', async (t) => {
  const cache = join(tempDir('svc-version-'), 'cache', 'cli-versions.json');
  const { bin, asked } = counted('4.5.6');
  t.deepEqual(await versionOf(bin, process.env, 20_000, cache), { _tag: 'Ready', version: '4.5.6' });
  t.deepEqual(await versionOf(bin, process.env, 20_000, cache), { _tag: 'Ready', version: '4.5.6' });
  t.is(asked(), 1);
  t.is(statSync(cache).mode & 0o777, 0o600, 'the cache is owner-only');
  t.is(statSync(dirname(cache)).mode & 0o777, 0o700);
});

test('a CLI found on PATH is kept by the file it runs; a new install there is asked again', async (t) => {
  const cache = join(tempDir('svc-version-'), 'cli-versions.json');
  const { bin, asked } = counted('1.0.0');
  const env = { ...process.env, PATH: `${dirname(bin)}:${process.env['PATH']}` };
  t.like(await versionOf('cli', env, 20_000, cache), { version: '1.0.0' });
  t.like(await versionOf('cli', env, 20_000, cache), { version: '1.0.0' });
  t.is(asked(), 1);
  // an upgrade writes a new file in its place (npm and installers replace, they do not edit)
  const next = `${bin}.new`;
  writeFileSync(next, readFileSync(bin, 'utf8').replace('1.0.0', '2.0.0'));
  chmodSync(next, 0o755);
  renameSync(next, bin);
  t.like(await versionOf('cli', env, 20_000, cache), { version: '2.0.0' });
  t.is(asked(), 2);
});

test('only a version read is kept: a failing, slow or missing CLI is asked every time, and a broken cache is read as empty', async (t) => {
  const dir = tempDir('svc-version-');
  const cache = join(dir, 'cli-versions.json');
  const failing = script('echo x >> "$0.count"; exit 3');
  await versionOf(failing, process.env, 20_000, cache);
  await versionOf(failing, process.env, 20_000, cache);
  t.is(readFileSync(`${failing}.count`, 'utf8').split('\n').filter(Boolean).length, 2);
  t.like(await versionOf(script('exec sleep 30'), process.env, 300, cache), { _tag: 'Ready' });
  t.like(await versionOf(join(dir, 'nothing'), process.env, 20_000, cache), { _tag: 'NotInstalled', missing: true });
  t.false(existsSync(cache), 'nothing was kept');
  writeFileSync(cache, '{ not json');
  const { bin, asked } = counted('3.1.4');
  t.like(await versionOf(bin, process.env, 20_000, cache), { version: '3.1.4' });
  t.like(await versionOf(bin, process.env, 20_000, cache), { version: '3.1.4' });
  t.is(asked(), 1, 'the broken cache was replaced by a good one');
});
