// `--version` decides whether a CLI is there: missing, failing, slow and answering, each with the
// availability svc then acts on (a slow one is there: its runs are not refused).
import test from 'ava';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
