import test from 'ava';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRunWorktrees, removeRunWorktrees, runBranchName, worktreeDir } from '../../lib/git/worktrees.js';
import { commitFile, isolateEnv, makeLocalRepo, makeProject, sh, snapshotCheckout, tempDir, write } from './helpers.js';

isolateEnv();

test('runBranchName and worktreeDir name the run branch and folder', (t) => {
  t.is(runBranchName('r01abc'), 'svc/r01abc');
  t.is(worktreeDir('/h', 'r01abc', 'app'), join('/h', 'worktrees', 'r01abc', 'app'));
  t.throws(() => runBranchName('../x'));
  t.throws(() => runBranchName('a b'));
  t.throws(() => worktreeDir('/h', 'r1', '..'));
  t.throws(() => worktreeDir('/h', 'r1', 'a/b'));
});

test('creating a run worktree leaves the user checkout byte-identical', async (t) => {
  const p = await makeProject(t);
  // The user is mid-work: a staged change, an unstaged change, an untracked file.
  write(p.user, 'src/a.txt', 'a staged\n');
  await sh(p.user, 'add', 'src/a.txt');
  write(p.user, 'src/a.txt', 'a staged then edited\n');
  write(p.user, 'notes.txt', 'untracked\n');
  const before = await snapshotCheckout(p.user);

  const [c] = await createRunWorktrees(p.home, 'run1', [{ name: 'app', path: p.user }]);

  t.deepEqual(await snapshotCheckout(p.user), before);
  t.is(c.folder, 'app');
  t.is(c.path, p.user);
  t.is(c.directory, join(p.home, 'worktrees', 'run1', 'app'));
  t.is(c.branch, 'svc/run1');
  t.is(c.base, before.head);
  t.is(c.baseBranch, 'main');
  t.is(await sh(c.directory, 'symbolic-ref', '--short', 'HEAD'), 'svc/run1');
  t.is(await sh(c.directory, 'rev-parse', 'HEAD'), before.head);
  // The worktree holds the committed tree, not the user's uncommitted work.
  t.is(readFileSync(join(c.directory, 'src/a.txt'), 'utf8'), 'a\n');
  t.false(existsSync(join(c.directory, 'notes.txt')));
  t.is(await sh(c.directory, 'status', '--porcelain'), '');
});

test('worktree folders are owner-only', async (t) => {
  const p = await makeProject(t);
  const [c] = await createRunWorktrees(p.home, 'run2', [{ name: 'app', path: p.user }]);
  for (const dir of [join(p.home, 'worktrees'), join(p.home, 'worktrees', 'run2'), c.directory]) {
    t.is(statSync(dir).mode & 0o777, 0o700, dir);
  }
});

test('creating again reuses the worktree and branch without resetting them', async (t) => {
  const p = await makeProject(t);
  const folders = [{ name: 'app', path: p.user }];
  const first = await createRunWorktrees(p.home, 'run3', folders);
  const runCommit = await commitFile(first[0].directory, 'run.txt', 'work\n');
  write(first[0].directory, 'wip.txt', 'uncommitted\n');
  // The user moves on meanwhile: the run keeps its own base.
  await commitFile(p.user, 'later.txt', 'later\n');

  const again = await createRunWorktrees(p.home, 'run3', folders);

  t.deepEqual(again, first);
  t.is(await sh(again[0].directory, 'rev-parse', 'HEAD'), runCommit);
  t.true(existsSync(join(again[0].directory, 'wip.txt')));
});

// The two below are a linked worktree's crash paths (runs made before runs had their own
// repositories are unarchived as worktrees); a run's own repository's are in run-clones.test.ts.
test('creating again after the worktree folder was lost adds it back on the same branch', async (t) => {
  const p = await makeProject(t);
  const folders = [{ name: 'app', path: p.user }];
  const [first] = await createRunWorktrees(p.home, 'run4', folders, undefined, 'worktree');
  const runCommit = await commitFile(first.directory, 'run.txt', 'work\n');
  rmSync(first.directory, { recursive: true, force: true });
  mkdirSync(first.directory); // a crash can leave an empty folder behind

  const [again] = await createRunWorktrees(p.home, 'run4', folders, undefined, 'worktree');

  t.is(again.base, first.base);
  t.is(await sh(again.directory, 'rev-parse', 'HEAD'), runCommit);
  t.is(await sh(again.directory, 'symbolic-ref', '--short', 'HEAD'), 'svc/run4');
});

test('creating again replaces a worktree whose creation was cut short', async (t) => {
  const p = await makeProject(t);
  const folders = [{ name: 'app', path: p.user }];
  const [first] = await createRunWorktrees(p.home, 'run8', folders, undefined, 'worktree');
  // What a crash during `git worktree add` leaves: the registration locked "initializing", files missing.
  writeFileSync(join(p.user, '.git', 'worktrees', 'app', 'locked'), 'initializing');
  rmSync(join(first.directory, 'src'), { recursive: true, force: true });

  const [again] = await createRunWorktrees(p.home, 'run8', folders, undefined, 'worktree');

  t.is(readFileSync(join(again.directory, 'src/a.txt'), 'utf8'), 'a\n');
  t.notRegex(await sh(p.user, 'worktree', 'list', '--porcelain'), /locked/);
});

test('one branch name and one worktree per folder of a multi-folder project', async (t) => {
  const a = await makeProject(t);
  const b = await makeLocalRepo(t, 'trunk');
  const checkouts = await createRunWorktrees(a.home, 'run5', [
    { name: 'api', path: a.user },
    { name: 'lib', path: b },
  ]);
  t.deepEqual(checkouts.map((c) => [c.folder, c.branch, c.baseBranch]), [['api', 'svc/run5', 'main'], ['lib', 'svc/run5', 'trunk']]);
  t.is(await sh(checkouts[1].directory, 'symbolic-ref', '--short', 'HEAD'), 'svc/run5');
});

test('a folder that is not a git repository is an error naming the folder', async (t) => {
  const p = await makeProject(t);
  const plain = tempDir(t);
  const e = await t.throwsAsync(createRunWorktrees(p.home, 'run6', [{ name: 'docs', path: plain }]));
  t.regex(e?.message ?? '', /folder "docs"/);
  t.regex(e?.message ?? '', /not a git repository/);
  const twice = await t.throwsAsync(createRunWorktrees(p.home, 'run6', [{ name: 'app', path: p.user }, { name: 'app', path: p.user }]));
  t.regex(twice?.message ?? '', /"app" is given twice/);
  const missing = await t.throwsAsync(createRunWorktrees(p.home, 'run6', [{ name: 'gone', path: join(plain, 'nope') }]));
  t.regex(missing?.message ?? '', /folder "gone".*does not exist/);
  // a repository whose branch has no commit yet, and a repository's .git folder (no work tree)
  const unborn = tempDir(t);
  await sh(unborn, 'init', '-q');
  const empty = await t.throwsAsync(createRunWorktrees(p.home, 'run6', [{ name: 'new', path: unborn }]));
  t.regex(empty?.message ?? '', /folder "new".* has no commit to start a run from$/);
  const dotGit = await t.throwsAsync(createRunWorktrees(p.home, 'run6', [{ name: 'meta', path: join(p.user, '.git') }]));
  t.regex(dotGit?.message ?? '', /folder "meta".* is not a git repository/);
});

test('removing keeps the branch and its commits, and can be repeated', async (t) => {
  const p = await makeProject(t);
  const folders = [{ name: 'app', path: p.user }];
  const [c] = await createRunWorktrees(p.home, 'run7', folders);
  const runCommit = await commitFile(c.directory, 'run.txt', 'work\n');
  write(c.directory, 'wip.txt', 'uncommitted work does not stop removal\n');
  const before = await snapshotCheckout(p.user);

  await removeRunWorktrees(p.home, 'run7', folders);

  t.false(existsSync(c.directory));
  t.false(existsSync(join(p.home, 'worktrees', 'run7')));
  t.is(await sh(p.user, 'rev-parse', 'refs/heads/svc/run7'), runCommit);
  t.notRegex(await sh(p.user, 'worktree', 'list', '--porcelain'), /run7/);
  t.deepEqual(await snapshotCheckout(p.user), before);
  await t.notThrowsAsync(removeRunWorktrees(p.home, 'run7', folders));
});
