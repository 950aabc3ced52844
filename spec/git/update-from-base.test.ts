import test from 'ava';
import { chmodSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { updateFromBase } from '../../lib/git/update-from-base.js';
import { createRunWorktrees } from '../../lib/git/worktrees.js';
import { refreshBase } from '../../lib/git/run-clones.js';
import { commitFile, isolateEnv, makeProject, sh, write } from './helpers.js';

isolateEnv();

// an executable hook that fails: were it run, the operation would fail
const failingHook = (repo: string, name: string) => {
  write(repo, `.git/hooks/${name}`, '#!/bin/sh\nexit 1\n');
  chmodSync(join(repo, '.git', 'hooks', name), 0o755);
};

// A run's worktree on svc/<run>, and the user's checkout whose main moves on after the run began.
const setUp = async (t: Parameters<typeof makeProject>[0], runId: string) => {
  const p = await makeProject(t);
  const [c] = await createRunWorktrees(p.home, runId, [{ name: 'app', path: p.user }]);
  userOf.set(c!.directory, p.user);
  return { p, dir: c!.directory };
};

// A run's own repository learns where the user's main is now, as the service has it do first
// (lib/service/ship-local.ts) before every update from base.
const userOf = new Map<string, string>();
const fresh = async (dir: string): Promise<string> => {
  await refreshBase(userOf.get(dir)!, dir, 'main');
  return dir;
};

// What "exactly as before" means for a worktree: HEAD, branch, status and every file's bytes.
const snapshot = async (dir: string) => ({
  head: await sh(dir, 'rev-parse', 'HEAD'),
  branch: await sh(dir, 'symbolic-ref', '--short', 'HEAD'),
  status: await sh(dir, 'status', '--porcelain=v2', '--branch', '--untracked-files=all'),
  files: Object.fromEntries(readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name !== '.git' && !relative(dir, e.parentPath).split(sep).includes('.git')).map((e) => [join(e.parentPath, e.name), readFileSync(join(e.parentPath, e.name), 'utf8')])),
});

test('up to date when the base has not moved', async (t) => {
  const { dir } = await setUp(t, 'u1');
  await commitFile(dir, 'work.txt', 'run\n');
  t.deepEqual(await updateFromBase(await fresh(dir), 'main', 'merge'), { _tag: 'UpToDate' });
});

for (const mode of ['merge', 'rebase'] as const) {
  test(`${mode}: brings the moved base into the run's branch, hooks skipped`, async (t) => {
    const { p, dir } = await setUp(t, `u2${mode}`);
    await commitFile(dir, 'work.txt', 'run\n');
    const moved = await commitFile(p.user, 'other.txt', 'base moved\n');
    // a hook that would fail the merge commit or the rebase: updating must not run it
    failingHook(p.user, 'pre-merge-commit');
    failingHook(p.user, 'pre-rebase');
    const r = await updateFromBase(await fresh(dir), 'main', mode);
    t.is(r._tag, 'Updated');
    t.is(r._tag === 'Updated' ? r.head : '', await sh(dir, 'rev-parse', 'HEAD'));
    t.is(await sh(dir, 'merge-base', '--is-ancestor', moved, 'HEAD').then(() => 'yes'), 'yes');
    t.is(readFileSync(join(dir, 'other.txt'), 'utf8'), 'base moved\n');
    t.is(readFileSync(join(dir, 'work.txt'), 'utf8'), 'run\n');
    t.is(await sh(dir, 'symbolic-ref', '--short', 'HEAD'), `svc/u2${mode}`);
    t.is(await sh(p.user, 'rev-parse', 'main'), moved, 'the base branch itself is not touched');
  });

  test(`${mode}: a conflict is aborted, the worktree exactly as before, and its files named`, async (t) => {
    const { p, dir } = await setUp(t, `u3${mode}`);
    await commitFile(dir, 'src/a.txt', 'the run says\n');
    await commitFile(dir, 'fine.txt', 'no conflict here\n');
    write(dir, 'untracked.txt', 'left alone\n');
    await commitFile(p.user, 'src/a.txt', 'the base says\n');
    const before = await snapshot(dir);
    t.deepEqual(await updateFromBase(await fresh(dir), 'main', mode), { _tag: 'Conflicted', files: ['src/a.txt'] });
    t.deepEqual(await snapshot(dir), before);
  });
}

test('refuses to start on uncommitted changes, naming them, and changes nothing', async (t) => {
  const { p, dir } = await setUp(t, 'u4');
  await commitFile(p.user, 'other.txt', 'base moved\n');
  write(dir, 'src/a.txt', 'half done\n');
  const before = await snapshot(dir);
  await t.throwsAsync(updateFromBase(await fresh(dir), 'main', 'merge'), { message: /uncommitted changes \(src\/a\.txt\)/ });
  t.deepEqual(await snapshot(dir), before);
});

test('refuses an untracked file the base would overwrite, naming it, and changes nothing', async (t) => {
  const { p, dir } = await setUp(t, 'u6');
  await commitFile(p.user, 'new.txt', 'the base adds it\n');
  write(dir, 'new.txt', 'the run wrote it\n');
  write(dir, 'other.txt', 'an untracked file the base lacks is left alone\n');
  const before = await snapshot(dir);
  for (const mode of ['merge', 'rebase'] as const) {
    await t.throwsAsync(updateFromBase(await fresh(dir), 'main', mode), { message: "the worktree's untracked new.txt would be overwritten by main's; commit or secure it first" });
  }
  t.deepEqual(await snapshot(dir), before);
});

test('refuses an unknown base', async (t) => {
  const { dir } = await setUp(t, 'u5');
  await t.throwsAsync(updateFromBase(dir, 'nope', 'rebase'), { message: /no branch or commit nope/ });
});
