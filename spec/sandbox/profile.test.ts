import '../helpers/env.js';
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { bwrapArgs } from '../../lib/sandbox/profile.js';
import { probeBwrap } from '../../lib/sandbox/probe.js';
import { checkoutBinds } from '../../lib/sandbox/run-paths.js';
import { gitRepo, tempDir } from '../helpers/env.js';

// The profile's shape (masks before binds, parents before children, the namespaces), the git
// paths a linked worktree needs, and the probe's reasons.

test('the profile masks first, binds parents before children, and asks for every namespace', (t) => {
  const args = bwrapArgs({
    hidden: ['/tmp', '/tmp/svc-home'],
    binds: [{ path: '/r/.git/objects', writable: true }, { path: '/r/.git', writable: false }, { path: '/w', writable: true }],
    socket: { outside: '/tmp/e/egress.sock', inside: '/run/svc/egress.sock' },
    cwd: '/w',
  });
  t.deepEqual(args.slice(0, 6), ['--ro-bind', '/', '/', '--dev', '/dev', '--proc']);
  const at = (flag: string, path: string) => args.findIndex((a, i) => a === flag && args[i + 1] === path);
  t.true(at('--tmpfs', '/tmp') < at('--tmpfs', '/tmp/svc-home'));
  t.true(at('--tmpfs', '/tmp/svc-home') < at('--bind', '/w'), 'masks before binds');
  t.true(at('--ro-bind', '/r/.git') < at('--bind', '/r/.git/objects'), 'a parent before its child');
  for (const flag of ['--unshare-all', '--die-with-parent', '--new-session']) t.true(args.includes(flag), flag);
  t.deepEqual(args.slice(-2), ['--chdir', '/w']);
});

test('a linked worktree needs its admin folder and the shared objects, refs and logs writable; config and hooks read-only', (t) => {
  const repo = gitRepo();
  const wt = join(tempDir('svc-wt-'), 'w');
  execFileSync('git', ['worktree', 'add', '-q', '-b', 'b', wt], { cwd: repo });
  const binds = checkoutBinds(wt, true);
  const git = join(repo, '.git');
  t.deepEqual(binds, [
    { path: wt, writable: true },
    { path: join(git, 'worktrees', basename(wt)), writable: true },
    { path: git, writable: false },
    { path: join(git, 'objects'), writable: true },
    { path: join(git, 'refs'), writable: true },
    { path: join(git, 'logs'), writable: true },
  ]);
  t.deepEqual(checkoutBinds(wt, false).filter((b) => b.writable), [], 'read-only tools: nothing writable');
});

test('a run\'s own repository: its .git bound onto itself (so it cannot be swapped), its config and hooks read-only', (t) => {
  const clone = tempDir('svc-clone-');
  execFileSync('git', ['init', '-q', '--template='], { cwd: clone });
  writeFileSync(join(clone, 'x'), '');
  t.deepEqual(checkoutBinds(clone, true), [
    { path: clone, writable: true },
    { path: join(clone, '.git'), writable: true },
    { path: join(clone, '.git', 'config'), writable: false },
    { path: join(clone, '.git', 'hooks'), writable: false },
  ], 'hooks/ is made so it can be bound');
  t.deepEqual(checkoutBinds(clone, false).filter((b) => b.writable), [], 'read-only tools: nothing writable');
  const plain = tempDir('svc-plain-');
  t.deepEqual(checkoutBinds(plain, true), [{ path: plain, writable: true }], 'a folder without a repository: only itself');
});

test('an alias binds the run\'s folder again where a copied session names its source\'s, and the step starts there', (t) => {
  const args = bwrapArgs({ hidden: [], binds: [{ path: '/w/fork', writable: true }], placeholders: ['/w/source'], alias: { path: '/w/fork', at: '/w/source', writable: true }, cwd: '/w/source' });
  const at = (flag: string, ...rest: string[]) => args.findIndex((a, i) => a === flag && rest.every((r, j) => args[i + 1 + j] === r));
  t.true(at('--dir', '/w/source') < at('--bind', '/w/fork', '/w/source'), 'the placeholder, then the fork\'s folder over it');
  t.deepEqual(args.slice(-2), ['--chdir', '/w/source']);
});

test('the probe says why a sandbox cannot start', async (t) => {
  const missing = join(tempDir('svc-nob-'), 'bwrap');
  const gone = await probeBwrap(missing);
  t.is(gone._tag, 'Unavailable');
  t.true(gone._tag === 'Unavailable' && gone.reason.includes(`${missing}: not found`));
  const mac = await probeBwrap('bwrap', 'darwin');
  t.true(mac._tag === 'Unavailable' && mac.reason.includes('Linux only'));
  const failing = join(tempDir('svc-badb-'), 'bwrap');
  writeFileSync(failing, '#!/bin/sh\n[ "$1" = --version ] && echo "bubblewrap 0.0" && exit 0\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n', { mode: 0o755 });
  const denied = await probeBwrap(failing);
  t.true(denied._tag === 'Unavailable' && denied.reason.includes('installed but cannot start a sandbox here (bwrap: No permissions to create new namespace)'), JSON.stringify(denied));
});
