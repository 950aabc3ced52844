import test from 'ava';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRunWorktrees, removeRunWorktrees } from '../../lib/git/worktrees.js';
import { publishCheckouts } from '../../lib/git/run-clones.js';
import { secureRunWork } from '../../lib/git/secure.js';
import { takeSnapshot, snapshotRef } from '../../lib/git/snapshot.js';
import { git } from '../../lib/git/git.js';
import { commitFile, isolateEnv, makeProject, sh, snapshotCheckout, write } from './helpers.js';

isolateEnv();

// A run's own repository (lib/git/run-clones.ts): whatever is done inside it, the person's
// repository changes only when svc publishes, and then only in the run's own refs.

const refs = async (dir: string) => sh(dir, 'for-each-ref', '--format=%(refname) %(objectname) %(symref)');
const hooks = (repo: string) => Object.fromEntries(readdirSync(join(repo, '.git', 'hooks')).map((f) => [f, readFileSync(join(repo, '.git', 'hooks', f), 'utf8')]));
const userState = async (repo: string) => ({ refs: await refs(repo), hooks: hooks(repo), config: readFileSync(join(repo, '.git', 'config'), 'utf8'), checkout: await snapshotCheckout(repo) });
const failingHook = (repo: string, name: string) => {
  write(repo, `.git/hooks/${name}`, '#!/bin/sh\necho ran >> "$HOME/hook-ran"; exit 1\n');
  chmodSync(join(repo, '.git', 'hooks', name), 0o755);
};

test("moving main, writing a hook, making a branch and committing inside a run's repository change nothing of the person's", async (t) => {
  const p = await makeProject(t);
  failingHook(p.user, 'pre-commit'); // the person's hook: it must not run for the run's commits
  const [c] = await createRunWorktrees(p.home, 'iso1', [{ name: 'app', path: p.user }]);
  t.true(c!.clone);
  const before = await userState(p.user);

  // what an agent (or a command step) can do from inside its folder, hooks and all
  const work = await commitFile(c!.directory, 'work.txt', 'the run\n');
  await sh(c!.directory, 'update-ref', 'refs/heads/main', work);
  await sh(c!.directory, 'branch', 'evil', work);
  await sh(c!.directory, 'tag', 'v-evil', work);
  write(c!.directory, '.git/hooks/pre-commit', '#!/bin/sh\nexit 0\n');
  await sh(c!.directory, 'config', 'core.hooksPath', join(p.user, '.git', 'hooks'));
  t.deepEqual(await userState(p.user), before, 'every ref, every hook, the config and the checkout as they were');
  t.false(existsSync(join(process.env.HOME!, 'hook-ran')), "the person's pre-commit did not run for the run's commit");

  // svc publishes: only the run's branch (and its snapshot refs) move in the person's repository
  await takeSnapshot(c!.directory, snapshotRef('iso1', 5));
  await publishCheckouts('iso1', [c!]);
  const after = await userState(p.user);
  const runLines = (s: string) => s.split('\n').map((l) => l.trim()).filter((l) => !l.startsWith('refs/heads/svc/iso1 ') && !l.startsWith('refs/svc/snapshots/iso1/'));
  t.deepEqual(runLines(after.refs), runLines(before.refs));
  t.is(await sh(p.user, 'rev-parse', 'refs/heads/svc/iso1'), work);
  t.is(await sh(p.user, 'rev-parse', 'refs/heads/main'), c!.base, "the person's main did not move");
  t.deepEqual(after.hooks, before.hooks);
  t.is(after.config, before.config);
});

test("a run's repository borrows the person's objects, names their branches and origin as they do, and pushes to origin", async (t) => {
  const p = await makeProject(t);
  await sh(p.user, 'config', 'user.name', 'Person');
  await sh(p.user, 'config', 'user.email', 'person@example.test');
  await sh(p.user, 'config', 'remote.origin.pushurl', '../pushes.git');
  const [c] = await createRunWorktrees(p.home, 'iso2', [{ name: 'app', path: p.user }]);
  const dir = c!.directory;
  t.is(readFileSync(join(dir, '.git', 'objects', 'info', 'alternates'), 'utf8').trim(), join(p.user, '.git', 'objects'));
  t.is(await sh(dir, 'remote', 'get-url', 'origin'), p.origin);
  t.is(await sh(dir, 'rev-parse', 'main'), await sh(p.user, 'rev-parse', 'main'));
  t.is(await sh(dir, 'symbolic-ref', 'refs/remotes/origin/HEAD'), 'refs/remotes/origin/main');
  t.is(await sh(dir, 'config', 'user.email'), 'person@example.test');
  t.is(await sh(dir, 'config', 'user.name'), 'Person');
  // a relative push URL is made the person's, as the fetch URL is
  t.is(await sh(dir, 'config', 'remote.origin.pushurl'), join(p.user, '..', 'pushes.git'));
  await sh(dir, 'config', '--unset', 'remote.origin.pushurl');
  t.false(existsSync(join(dir, '.git', 'hooks')) && readdirSync(join(dir, '.git', 'hooks')).length > 0, 'no hooks, not even samples');
  t.is(await sh(dir, 'status', '--porcelain'), '');
  // secure: committed in the run's repository, pushed to origin, and published into the person's
  write(dir, 'wip.txt', 'uncommitted\n');
  const r = await secureRunWork('iso2', [c!]);
  t.is(r._tag, 'Right');
  const tip = await sh(dir, 'rev-parse', 'HEAD');
  t.is(await sh(p.origin, 'rev-parse', 'refs/heads/svc/iso2'), tip);
  t.is(await sh(p.user, 'rev-parse', 'refs/heads/svc/iso2'), tip);
  t.is(await sh(dir, 'log', '-1', '--format=%ae'), 'person@example.test');
});

test("creating again reuses a whole run's repository, and replaces a half-made one or an empty folder", async (t) => {
  const p = await makeProject(t);
  const folders = [{ name: 'app', path: p.user }];
  const [first] = await createRunWorktrees(p.home, 'cr1', folders);
  write(first!.directory, 'wip.txt', 'kept across a re-create\n');
  const [again] = await createRunWorktrees(p.home, 'cr1', folders);
  t.deepEqual(again, first);
  t.true(existsSync(join(again!.directory, 'wip.txt')));

  // a crash while making it: the half-made folder sits beside, the folder itself empty or absent
  const [other] = await createRunWorktrees(p.home, 'cr2', folders);
  const work = await commitFile(other!.directory, 'w.txt', 'w\n');
  await publishCheckouts('cr2', [other!]);
  await removeRunWorktrees(p.home, 'cr2', [other!]);
  mkdirSync(join(p.home, 'worktrees', 'cr2', '.app.making', '.git'), { recursive: true });
  mkdirSync(other!.directory, { recursive: true });
  const [remade] = await createRunWorktrees(p.home, 'cr2', folders);
  t.is(await sh(remade!.directory, 'rev-parse', 'HEAD'), work, 'made again on the published branch');
  t.is(await sh(remade!.directory, 'symbolic-ref', '--short', 'HEAD'), 'svc/cr2');
  t.false(existsSync(join(p.home, 'worktrees', 'cr2', '.app.making')));
  t.is(remade!.base, other!.base);

  // something else in the way is refused, not overwritten
  writeFileSync(join(p.home, 'worktrees', 'cr2', 'stray.txt'), 'x');
  const [g] = [join(p.home, 'worktrees', 'cr3', 'app')];
  mkdirSync(g, { recursive: true });
  writeFileSync(join(g, 'mine.txt'), 'not a repository');
  await t.throwsAsync(createRunWorktrees(p.home, 'cr3', folders), { message: /is not this run's repository/ });
  t.is(readFileSync(join(g, 'mine.txt'), 'utf8'), 'not a repository');
});

test("removing a run's repository publishes its branch and kept refs first; an old run's linked worktree is removed beside it", async (t) => {
  const p = await makeProject(t);
  const [c] = await createRunWorktrees(p.home, 'rm1', [{ name: 'app', path: p.user }]);
  const [old] = await createRunWorktrees(p.home, 'rm0', [{ name: 'app', path: p.user }], undefined, 'worktree');
  t.is(old!.clone, undefined, 'a linked worktree carries no clone mark');
  const work = await commitFile(c!.directory, 'w.txt', 'w\n');
  const kept = await takeSnapshot(c!.directory, 'refs/svc/kept/rm1/0');
  const before = await snapshotCheckout(p.user);

  await removeRunWorktrees(p.home, 'rm1', [c!]);
  await removeRunWorktrees(p.home, 'rm0', [old!]);

  t.false(existsSync(c!.directory));
  t.false(existsSync(old!.directory));
  t.is(await sh(p.user, 'rev-parse', 'refs/heads/svc/rm1'), work);
  t.is(await sh(p.user, 'rev-parse', 'refs/svc/kept/rm1/0'), kept);
  t.notRegex(await sh(p.user, 'worktree', 'list', '--porcelain'), /rm0/);
  t.deepEqual(await snapshotCheckout(p.user), before);
  await t.notThrowsAsync(removeRunWorktrees(p.home, 'rm1', [c!]));
  // a folder the agent broke (no repository left) is removed all the same
  const [broken] = await createRunWorktrees(p.home, 'rm2', [{ name: 'app', path: p.user }]);
  await sh(broken!.directory, 'update-ref', '-d', 'refs/heads/svc/rm2');
  await removeRunWorktrees(p.home, 'rm2', [broken!]);
  t.false(existsSync(broken!.directory));
  t.is((await git(p.user, ['rev-parse', '--verify', '--quiet', 'refs/heads/svc/rm2'])).code, 0, "the person's copy of the branch stays");
});
