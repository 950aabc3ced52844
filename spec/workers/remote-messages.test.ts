import '../helpers/env.js';
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { AskCodec, decodeWith, JobCodec } from '../../lib/workers/remote-messages.js';
import { originOf } from '../../lib/workers/run-bundle.js';
import { gitRepo } from '../helpers/env.js';

// The fields incremental bundles add at the door (docs/workers.md, "What moves"), decoded with
// bounds: the commits a worker names (`have`), the history and the origin in a job. What does not
// decode is refused whole, never half applied.

const bytes = (x: unknown) => new TextEncoder().encode(JSON.stringify(x));
const sha = (n: number) => n.toString(16).padStart(40, '0');
const JOB = { runId: 'r1', stepId: 's1', harness: 'claude', cwd: '/tmp/x/r1/repo', prompt: 'p', tools: 'edit', watchdogMs: 1000 };

const asks: [string, unknown, boolean][] = [
  ['no have', { stepId: 's1', token: 1, index: 0 }, true],
  ['32 commit ids', { stepId: 's1', token: 1, have: Array.from({ length: 32 }, (_, i) => sha(i + 1)) }, true],
  ['a sha-256 id', { stepId: 's1', token: 1, have: ['a'.repeat(64)] }, true],
  ['65 ids (over the bound)', { stepId: 's1', token: 1, have: Array.from({ length: 65 }, (_, i) => sha(i + 1)) }, false],
  ['a short id', { stepId: 's1', token: 1, have: ['abc123'] }, false],
  ['an upper-case id', { stepId: 's1', token: 1, have: ['A'.repeat(40)] }, false],
  ['an option for git', { stepId: 's1', token: 1, have: ['--all'] }, false],
  ['not a list', { stepId: 's1', token: 1, have: sha(1) }, false],
];
for (const [name, ask, ok] of asks) {
  test(`a bundle request with ${name} ${ok ? 'decodes' : 'is refused'}`, (t) => {
    t.is(typeof decodeWith(AskCodec, bytes(ask), 'a bundle request') !== 'string', ok);
  });
}

const jobs: [string, Record<string, unknown>, boolean][] = [
  ['a history', { history: sha(7) }, true],
  ['a history that is no commit id', { history: 'main' }, false],
  ['an https origin', { origin: 'https://example.com/o/r.git' }, true],
  ['an scp-like origin', { origin: 'git@example.com:o/r.git' }, true],
  ['an absolute path origin', { origin: '/srv/git/r.git' }, true],
  ['an origin with a user and password', { origin: 'https://me:secret@example.com/o/r.git' }, false],
  ['an ext:: origin (runs a command)', { origin: 'ext::sh -c touch% /tmp/pwned' }, false],
  ['an origin that is an option', { origin: '--upload-pack=touch /tmp/pwned' }, false],
  ['a relative path origin', { origin: '../r.git' }, false],
  ['a path origin with ..', { origin: '/srv/../etc/r.git' }, false],
  ['an origin with a blank', { origin: 'https://example.com/o r.git' }, false],
];
for (const [name, extra, ok] of jobs) {
  test(`a job with ${name} ${ok ? 'decodes' : 'is refused'}`, (t) => {
    t.is(typeof decodeWith(JobCodec, bytes({ ...JOB, ...extra }), 'a step') !== 'string', ok);
  });
}

test('the hub sends an origin only when it names no user or secret', async (t) => {
  const repo = gitRepo();
  t.is(await originOf(repo), undefined, 'no origin');
  execFileSync('git', ['-C', repo, 'remote', 'add', 'origin', 'https://me:token@example.com/o/r.git']);
  t.is(await originOf(repo), undefined, 'credentials stay on the hub');
  execFileSync('git', ['-C', repo, 'remote', 'set-url', 'origin', 'https://example.com/o/r.git']);
  t.is(await originOf(repo), 'https://example.com/o/r.git');
});
