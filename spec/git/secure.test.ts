import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { chmodSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { backupBranchName, secureRunWork } from '../../lib/git/secure.js';
import type { SecuredFolder } from '../../lib/git/types.js';
import { createRunWorktrees } from '../../lib/git/worktrees.js';
import { commitFile, isolateEnv, makeLocalRepo, makeProject, originTip, sh, tempDir, write } from './helpers.js';

isolateEnv();

const right = (t: { fail: (m: string) => void }, r: E.Either<string, SecuredFolder[]>): SecuredFolder[] => {
  if (E.isLeft(r)) {
    t.fail(`expected Right, got Left: ${r.left}`);
    throw new Error(r.left);
  }
  return r.right;
};

test('commits every uncommitted change on the run branch and pushes it to origin', async (t) => {
  const p = await makeProject(t);
  const [c] = await createRunWorktrees(p.home, 'sec1', [{ name: 'app', path: p.user }]);
  write(c.directory, 'src/a.txt', 'changed\n');
  write(c.directory, 'new/untracked.txt', 'new\n');
  write(c.directory, 'staged.txt', 'staged\n');
  await sh(c.directory, 'add', 'staged.txt');

  const [f] = right(t, await secureRunWork('sec1', [c]));

  t.is(f.folder, 'app');
  t.is(f.branch, 'svc/sec1');
  t.is(f.pushedTo, 'svc/sec1');
  t.false(f.backup);
  t.is(f.detail, undefined);
  t.is(f.commit, await sh(c.directory, 'rev-parse', 'HEAD'));
  t.is(await originTip(p.origin, 'svc/sec1'), f.commit);
  t.is(await sh(c.directory, 'status', '--porcelain', '--untracked-files=all'), '');
  t.regex(await sh(c.directory, 'log', '-1', '--format=%s'), /sec1/);
  const files = await sh(p.origin, 'ls-tree', '-r', '--name-only', 'svc/sec1');
  t.true(['new/untracked.txt', 'staged.txt', 'src/a.txt'].every((n) => files.split('\n').includes(n)));
  // HOME is empty: no identity of the user's, so the service supplied its own.
  t.is(await sh(c.directory, 'log', '-1', '--format=%ae'), 'svc@localhost');
});

test("the user's own identity is kept when they have one", async (t) => {
  const p = await makeProject(t);
  await sh(p.user, 'config', 'user.name', 'Dev');
  await sh(p.user, 'config', 'user.email', 'dev@example.test');
  const [c] = await createRunWorktrees(p.home, 'sec2', [{ name: 'app', path: p.user }]);
  write(c.directory, 'x.txt', 'x\n');

  right(t, await secureRunWork('sec2', [c]));

  t.is(await sh(c.directory, 'log', '-1', '--format=%an <%ae>'), 'Dev <dev@example.test>');
});

test('with nothing uncommitted, commit is null and the branch is still pushed', async (t) => {
  const p = await makeProject(t);
  const [c] = await createRunWorktrees(p.home, 'sec3', [{ name: 'app', path: p.user }]);
  const head = await commitFile(c.directory, 'done.txt', 'agent committed this\n');

  const [f] = right(t, await secureRunWork('sec3', [c]));

  t.is(f.commit, null);
  t.is(f.pushedTo, 'svc/sec3');
  t.false(f.backup);
  t.is(await sh(c.directory, 'rev-parse', 'HEAD'), head);
  t.is(await originTip(p.origin, 'svc/sec3'), head);
});

test("when origin's run branch moved ahead, the work goes to a backup branch and origin's branch stays", async (t) => {
  const p = await makeProject(t);
  const [c] = await createRunWorktrees(p.home, 'sec4', [{ name: 'app', path: p.user }]);
  write(c.directory, 'first.txt', '1\n');
  right(t, await secureRunWork('sec4', [c]));
  // Someone else pushes to the run's branch on origin.
  const other = join(tempDir(t), 'other');
  await sh(p.root, 'clone', '-q', '--branch', 'svc/sec4', p.origin, other);
  const theirs = await commitFile(other, 'theirs.txt', 'theirs\n');
  await sh(other, 'push', '-q', 'origin', 'svc/sec4');
  write(c.directory, 'second.txt', '2\n');

  const [f] = right(t, await secureRunWork('sec4', [c]));

  const short = await sh(c.directory, 'rev-parse', '--short', 'HEAD');
  t.true(f.backup);
  t.is(f.pushedTo, backupBranchName('sec4', short));
  t.is(f.pushedTo, `svc-backup/sec4/${short}`);
  t.is(f.commit, await sh(c.directory, 'rev-parse', 'HEAD'));
  t.is(await originTip(p.origin, 'svc/sec4'), theirs);
  t.is(await originTip(p.origin, `svc-backup/sec4/${short}`), f.commit);
  // The checkout was not merged with or reset to origin's copy.
  t.false(existsSync(join(c.directory, 'theirs.txt')));
  // Securing again with nothing new lands on the same backup, still without touching origin's branch.
  const [again] = right(t, await secureRunWork('sec4', [c]));
  t.deepEqual([again.commit, again.pushedTo, again.backup], [null, f.pushedTo, true]);
  t.is(await originTip(p.origin, 'svc/sec4'), theirs);
});

const failingHook = (dir: string, name: string, marker: string): void => {
  mkdirSync(dir, { recursive: true });
  write(dir, name, `#!/bin/sh\necho ran >> "${marker}"\nexit 1\n`);
  chmodSync(join(dir, name), 0o755);
};

const HOOKS = ['pre-commit', 'commit-msg', 'prepare-commit-msg', 'post-commit', 'pre-push', 'reference-transaction'];

test("the repository's hooks are skipped: failing hooks do not stop securing, and none runs", async (t) => {
  const a = await makeProject(t);
  const b = await makeProject(t);
  const markers = tempDir(t);
  const markerA = join(markers, 'a'), markerB = join(markers, 'b');
  const checkouts = await createRunWorktrees(a.home, 'sec5', [
    { name: 'a', path: a.user },
    { name: 'b', path: b.user },
  ]);
  // Hooks installed after creation, in both places git looks: .git/hooks and core.hooksPath.
  for (const h of HOOKS) failingHook(join(a.user, '.git', 'hooks'), h, markerA);
  for (const h of HOOKS) failingHook(join(b.root, 'hooks'), h, markerB);
  await sh(b.user, 'config', 'core.hooksPath', join(b.root, 'hooks'));
  for (const c of checkouts) write(c.directory, 'work.txt', 'work\n');

  const folders = right(t, await secureRunWork('sec5', checkouts));

  for (const f of folders) {
    t.is(f.detail, undefined, f.folder);
    t.truthy(f.commit);
    t.is(f.pushedTo, 'svc/sec5');
  }
  t.is(await originTip(a.origin, 'svc/sec5'), folders[0].commit);
  t.is(await originTip(b.origin, 'svc/sec5'), folders[1].commit);
  t.false(existsSync(markerA), 'a hook of folder a ran');
  t.false(existsSync(markerB), 'a hook of folder b ran');
});

test('a checkout on another branch refuses the whole call and nothing is committed anywhere', async (t) => {
  const a = await makeProject(t);
  const b = await makeProject(t);
  const checkouts = await createRunWorktrees(a.home, 'sec6', [
    { name: 'good', path: a.user },
    { name: 'stray', path: b.user },
  ]);
  await sh(checkouts[1].directory, 'switch', '-q', '-c', 'elsewhere');
  for (const c of checkouts) write(c.directory, 'work.txt', 'work\n');
  const heads = await Promise.all(checkouts.map((c) => sh(c.directory, 'rev-parse', 'HEAD')));

  const r = await secureRunWork('sec6', checkouts);

  t.true(E.isLeft(r));
  t.regex(E.isLeft(r) ? r.left : '', /stray.*elsewhere/);
  t.notRegex(E.isLeft(r) ? r.left : '', /"good"/);
  for (const [i, c] of checkouts.entries()) {
    t.is(await sh(c.directory, 'rev-parse', 'HEAD'), heads[i]);
    t.is(await sh(c.directory, 'status', '--porcelain'), '?? work.txt');
  }
  t.is(await originTip(a.origin, 'svc/sec6'), null);
  t.is(await originTip(b.origin, 'svc/sec6'), null);
});

test('a detached checkout counts as another branch', async (t) => {
  const p = await makeProject(t);
  const [c] = await createRunWorktrees(p.home, 'sec7', [{ name: 'app', path: p.user }]);
  await sh(c.directory, 'switch', '-q', '--detach');
  write(c.directory, 'work.txt', 'work\n');

  const r = await secureRunWork('sec7', [c]);

  t.true(E.isLeft(r));
  t.regex(E.isLeft(r) ? r.left : '', /detached/);
  t.is(await sh(c.directory, 'status', '--porcelain'), '?? work.txt');
});

test('a folder without origin is committed on the run branch, locally only, with no failure', async (t) => {
  const p = await makeProject(t);
  const local = await makeLocalRepo(t);
  const checkouts = await createRunWorktrees(p.home, 'sec8', [
    { name: 'app', path: p.user },
    { name: 'local', path: local },
  ]);
  for (const c of checkouts) write(c.directory, 'work.txt', 'work\n');

  const [app, loc] = right(t, await secureRunWork('sec8', checkouts));

  t.is(app.detail, undefined);
  t.is(app.pushedTo, 'svc/sec8');
  t.is(loc.detail, undefined);
  t.true(loc.localOnly);
  t.is(loc.pushedTo, null);
  t.false(loc.backup);
  // Committed locally all the same: the work survives the worktree's removal on the branch.
  t.is(loc.commit, await sh(local, 'rev-parse', 'refs/heads/svc/sec8'));
});

test('a push origin rejects carries detail', async (t) => {
  const p = await makeProject(t);
  const [c] = await createRunWorktrees(p.home, 'sec9', [{ name: 'app', path: p.user }]);
  failingHook(join(p.origin, 'hooks'), 'pre-receive', join(tempDir(t), 'marker'));
  const ok = await makeProject(t);
  const [c2] = await createRunWorktrees(ok.home, 'sec9', [{ name: 'ok', path: ok.user }]);
  write(c.directory, 'w.txt', 'w\n');

  const [rejected, fine] = right(t, await secureRunWork('sec9', [c, c2]));

  t.regex(rejected.detail ?? '', /pre-receive hook declined/);
  t.is(rejected.pushedTo, null);
  t.is(await originTip(p.origin, 'svc/sec9'), null);
  t.is(fine.pushedTo, 'svc/sec9');
});

test('when no folder is secured the call is an error', async (t) => {
  const p = await makeProject(t);
  const local = await makeLocalRepo(t);
  const checkouts = await createRunWorktrees(p.home, 'sec10', [
    { name: 'gone', path: p.user },
    { name: 'local', path: local },
  ]);
  // both gone (a folder without origin is secured locally: not a failure)
  for (const c of checkouts) rmSync(c.directory, { recursive: true, force: true });

  const r = await secureRunWork('sec10', checkouts);

  t.true(E.isLeft(r));
  t.regex(E.isLeft(r) ? r.left : '', /no folder.*gone.*local/);
  t.true(E.isLeft(await secureRunWork('sec10', [])));
});

// issue 32: Secure work on a project with no origin committed and then answered with an error
test('a run whose only folder has no origin is secured: committed, not refused', async (t) => {
  const local = await makeLocalRepo(t);
  const [c] = await createRunWorktrees(join(tempDir(t), '.svc'), 'sec11', [{ name: 'local', path: local }]);
  write(c!.directory, 'work.txt', 'work\n');
  const [loc] = right(t, await secureRunWork('sec11', [c!]));
  t.true(loc!.localOnly);
  t.is(loc!.detail, undefined);
  t.is(loc!.commit, await sh(local, 'rev-parse', 'refs/heads/svc/sec11'));
});
