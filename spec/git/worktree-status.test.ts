import test from 'ava';
import { rmSync } from 'node:fs';
import { createRunWorktrees } from '../../lib/git/worktrees.js';
import { readRunWorktree } from '../../lib/git/worktree-status.js';
import { isUnreadable, type ReadWorktreeFolder, type WorktreeFolder } from '../../lib/git/types.js';
import { commitFile, isolateEnv, makeLocalRepo, makeProject, sh, write } from './helpers.js';

isolateEnv();

const readable = (t: { fail: (m: string) => void }, f: WorktreeFolder | undefined): ReadWorktreeFolder => {
  if (!f || isUnreadable(f)) {
    t.fail(`expected a readable folder, got ${JSON.stringify(f)}`);
    throw new Error('unreadable');
  }
  return f;
};

test('a fresh run worktree is clean, on the run branch, level with the default branch', async (t) => {
  const p = await makeProject(t);
  const checkouts = await createRunWorktrees(p.home, 'rs1', [{ name: 'app', path: p.user }]);
  const [f] = await readRunWorktree(checkouts);
  t.deepEqual(f, {
    folder: 'app',
    directory: checkouts[0].directory,
    branch: 'svc/rs1',
    head: 'svc/rs1',
    uncommitted: { staged: 0, unstaged: 0, untracked: 0, conflicted: 0 },
    defaultBranch: 'main',
    commitsAhead: 0,
  });
});

test('counts staged, unstaged and untracked changes, and commits ahead', async (t) => {
  const p = await makeProject(t);
  const [c] = await createRunWorktrees(p.home, 'rs2', [{ name: 'app', path: p.user }]);
  await commitFile(c.directory, 'one.txt', '1\n');
  await commitFile(c.directory, 'two.txt', '2\n');
  write(c.directory, 'staged-new.txt', 'new\n');
  write(c.directory, 'README.md', '# staged edit\n');
  await sh(c.directory, 'add', 'staged-new.txt', 'README.md');
  write(c.directory, 'src/a.txt', 'unstaged edit\n');
  write(c.directory, 'scratch/x.txt', 'x\n');
  write(c.directory, 'scratch/y.txt', 'y\n');
  write(c.directory, 'z.txt', 'z\n');

  const f = readable(t, (await readRunWorktree([c]))[0]);

  t.deepEqual(f.uncommitted, { staged: 2, unstaged: 1, untracked: 3, conflicted: 0 });
  t.is(f.commitsAhead, 2);
  t.is(f.head, 'svc/rs2');
});

test('counts conflicted files of a merge in progress', async (t) => {
  const p = await makeProject(t);
  const [c] = await createRunWorktrees(p.home, 'rs3', [{ name: 'app', path: p.user }]);
  await sh(c.directory, 'switch', '-q', '-c', 'side');
  await commitFile(c.directory, 'src/a.txt', 'side\n');
  await sh(c.directory, 'switch', '-q', 'svc/rs3');
  await commitFile(c.directory, 'src/a.txt', 'run\n');
  const merge = await t.throwsAsync(sh(c.directory, 'merge', '-q', 'side'));
  t.truthy(merge);

  const f = readable(t, (await readRunWorktree([c]))[0]);

  t.is(f.uncommitted.conflicted, 1);
  t.is(f.uncommitted.staged, 0);
});

test('a detached HEAD reads as head null', async (t) => {
  const p = await makeProject(t);
  const [c] = await createRunWorktrees(p.home, 'rs4', [{ name: 'app', path: p.user }]);
  await sh(c.directory, 'switch', '-q', '--detach', 'HEAD~1');

  const f = readable(t, (await readRunWorktree([c]))[0]);

  t.is(f.head, null);
  t.is(f.branch, 'svc/rs4');
  t.is(f.commitsAhead, 0);
});

test('a missing worktree folder carries detail while the other folders are read', async (t) => {
  const a = await makeProject(t);
  const b = await makeProject(t);
  const checkouts = await createRunWorktrees(a.home, 'rs5', [
    { name: 'gone', path: a.user },
    { name: 'here', path: b.user },
  ]);
  rmSync(checkouts[0].directory, { recursive: true, force: true });

  const [gone, here] = await readRunWorktree(checkouts);

  t.true(isUnreadable(gone));
  t.regex(isUnreadable(gone) ? gone.detail : '', /does not exist/);
  t.is(gone.folder, 'gone');
  t.is(readable(t, here).head, 'svc/rs5');
});

test('a folder that is no longer a git worktree carries detail', async (t) => {
  const p = await makeProject(t);
  const [c] = await createRunWorktrees(p.home, 'rs6', [{ name: 'app', path: p.user }]);
  rmSync(`${c.directory}/.git`, { recursive: true, force: true });

  const [f] = await readRunWorktree([c]);

  t.true(isUnreadable(f));
});

test('a folder inside some other repository is not read as that repository', async (t) => {
  const p = await makeProject(t);
  const [c] = await createRunWorktrees(p.home, 'rs10', [{ name: 'app', path: p.user }]);
  const inside = { ...c, directory: `${p.user}/src` };

  const [f] = await readRunWorktree([inside]);

  t.true(isUnreadable(f));
});

test("origin's HEAD wins over the branch the run was based on", async (t) => {
  const p = await makeProject(t, 'develop');
  await sh(p.user, 'switch', '-q', '-c', 'feature');
  await commitFile(p.user, 'feature.txt', 'f\n');
  const [c] = await createRunWorktrees(p.home, 'rs7', [{ name: 'app', path: p.user }]);

  const f = readable(t, (await readRunWorktree([c]))[0]);

  t.is(f.defaultBranch, 'develop');
  t.is(f.commitsAhead, 1); // the feature commit origin's develop lacks
});

test('without origin, the default branch is the one the run was based on', async (t) => {
  const repo = await makeLocalRepo(t, 'trunk');
  const p = await makeProject(t);
  const [c] = await createRunWorktrees(p.home, 'rs8', [{ name: 'lib', path: repo }]);
  await commitFile(c.directory, 'x.txt', 'x\n');

  const f = readable(t, (await readRunWorktree([c]))[0]);

  t.is(f.defaultBranch, 'trunk');
  t.is(f.commitsAhead, 1);
});

test('without origin or base branch, main then master, else null counting from the base', async (t) => {
  const repo = await makeLocalRepo(t, 'master');
  const p = await makeProject(t);
  const [c] = await createRunWorktrees(p.home, 'rs9', [{ name: 'lib', path: repo }]);
  await commitFile(c.directory, 'x.txt', 'x\n');

  const viaMaster = readable(t, (await readRunWorktree([{ ...c, baseBranch: null }]))[0]);
  t.is(viaMaster.defaultBranch, 'master');

  await sh(repo, 'branch', '-m', 'master', 'odd');
  const none = readable(t, (await readRunWorktree([{ ...c, baseBranch: null }]))[0]);
  t.is(none.defaultBranch, null);
  t.is(none.commitsAhead, 1);
});
