import test, { type ExecutionContext } from 'ava';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { gitOk } from '../../lib/git/git.js';
import { deleteSnapshotRefs, restoreSnapshot, snapshotBase, snapshotRef, takeSnapshot } from '../../lib/git/snapshot.js';
import { createRunWorktrees } from '../../lib/git/worktrees.js';
import { publishCheckouts } from '../../lib/git/run-clones.js';
import { commitFile, isolateEnv, makeProject, sh, write } from './helpers.js';

isolateEnv();

// Every file of a worktree (not .git) by its path: content hash and mode.
const fileHashes = (dir: string): Record<string, string> => {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      if (name === '.git') continue;
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else out[relative(dir, p)] = `${createHash('sha256').update(readFileSync(p)).digest('hex')} ${(st.mode & 0o111) !== 0 ? 'x' : '-'}`;
    }
  };
  walk(dir);
  return out;
};

const indexPath = async (wt: string): Promise<string> => resolve(wt, await sh(wt, 'rev-parse', '--git-path', 'index'));

// What git says of a worktree: its branch and HEAD, the index entry by entry, staged and unstaged diffs, status.
const gitView = async (wt: string) => ({
  head: await sh(wt, 'rev-parse', 'HEAD'),
  branch: await sh(wt, 'symbolic-ref', 'HEAD'),
  stage: await sh(wt, 'ls-files', '-s'),
  cached: await sh(wt, 'diff', '--cached'),
  unstaged: await sh(wt, 'diff'),
  status: await sh(wt, 'status', '--porcelain=v1', '--untracked-files=all'),
});

// A run's worktree with every kind of uncommitted change.
const dirtyRun = async (t: ExecutionContext) => {
  const p = await makeProject(t);
  await commitFile(p.user, '.gitignore', 'build/\n*.log\n');
  await commitFile(p.user, 'src/gone.txt', 'to be deleted\n');
  await commitFile(p.user, 'src/both.txt', 'one\n');
  const [run] = await createRunWorktrees(p.home, 'r1', [{ name: 'app', path: p.user }]);
  const wt = run!.directory;
  write(wt, 'src/a.txt', 'a changed, not staged\n');
  write(wt, 'src/staged.txt', 'new and staged\n');
  await sh(wt, 'add', 'src/staged.txt');
  write(wt, 'src/both.txt', 'one\ntwo staged\n');
  await sh(wt, 'add', 'src/both.txt');
  write(wt, 'src/both.txt', 'one\ntwo staged\nthree not\n');
  rmSync(join(wt, 'src/gone.txt'));
  write(wt, 'notes/untracked.md', 'untracked \u00e9\0binary\n');
  write(wt, 'tool.sh', '#!/bin/sh\necho hi\n');
  chmodSync(join(wt, 'tool.sh'), 0o755);
  write(wt, 'build/out.bin', 'ignored\n');
  write(wt, 'debug.log', 'ignored too\n');
  // what the engine does after each step's snapshots: the run's refs into the person's repository
  const publish = (runId = 'r1') => publishCheckouts(runId, [run!]);
  return { p, wt, publish };
};

test('taking a snapshot leaves the branch, HEAD, the index and the files as they were', async (t) => {
  const { p, wt, publish } = await dirtyRun(t);
  const files = fileHashes(wt);
  const view = await gitView(wt);
  const index = readFileSync(await indexPath(wt));
  const tip = await sh(p.user, 'rev-parse', 'refs/heads/svc/r1');
  const commit = await takeSnapshot(wt, snapshotRef('r1', 7));
  await publish();
  t.deepEqual(fileHashes(wt), files);
  t.deepEqual(await gitView(wt), view);
  t.true(readFileSync(await indexPath(wt)).equals(index), 'the index file is byte for byte the same');
  t.is(await sh(p.user, 'rev-parse', 'refs/heads/svc/r1'), tip);
  t.is(await sh(p.user, 'rev-parse', 'refs/svc/snapshots/r1/7'), commit);
  t.is(await sh(wt, 'rev-parse', `${commit}^1`), view.head);
});

test('a snapshot restores uncommitted, staged and untracked files byte for byte, without ignored ones', async (t) => {
  const { p, wt, publish } = await dirtyRun(t);
  const commit = await takeSnapshot(wt, snapshotRef('r1', 3));
  await publish();
  const base = await snapshotBase(p.user, commit);
  await gitOk(p.user, ['branch', 'svc/f1', base]);
  const [fork] = await createRunWorktrees(p.home, 'f1', [{ name: 'app', path: p.user }]);
  await restoreSnapshot(commit, fork!.directory);
  const expected = fileHashes(wt);
  delete expected['build/out.bin'];
  delete expected['debug.log'];
  t.deepEqual(fileHashes(fork!.directory), expected);
  t.false(existsSync(join(fork!.directory, 'src/gone.txt')));
  const [a, b] = [await gitView(wt), await gitView(fork!.directory)];
  t.deepEqual({ ...b, branch: '' }, { ...a, branch: '' });
  t.is(b.branch, 'refs/heads/svc/f1');
  // again on the restored worktree: the same state (a restart redoes a half-made restore)
  await restoreSnapshot(commit, fork!.directory);
  t.deepEqual(fileHashes(fork!.directory), expected);
});

test('deleting a run\'s snapshot refs removes those and nothing else of the repository', async (t) => {
  const { p, wt, publish } = await dirtyRun(t);
  await takeSnapshot(wt, snapshotRef('r1', 3));
  await takeSnapshot(wt, snapshotRef('r1', 9));
  await takeSnapshot(wt, snapshotRef('r10', 4)); // a run whose id starts with the other's
  await publish();
  await publish('r10');
  const refs = async () => (await sh(p.user, 'for-each-ref', '--format=%(refname) %(objectname)')).split('\n');
  const before = await refs();
  t.is(await deleteSnapshotRefs(p.user, 'r1'), 2);
  t.deepEqual(await refs(), before.filter((l) => !l.startsWith('refs/svc/snapshots/r1/')));
  t.true((await refs()).some((l) => l.startsWith('refs/svc/snapshots/r10/4 ')));
  t.is(await deleteSnapshotRefs(p.user, 'r1'), 0);
});
