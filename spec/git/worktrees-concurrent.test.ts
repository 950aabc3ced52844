import test from 'ava';
import { createRunWorktrees, removeRunWorktrees } from '../../lib/git/worktrees.js';
import { isolateEnv, makeProject, sh } from './helpers.js';

isolateEnv();

// Many runs of one project start and end at once (attempts, a burst of triggers, a suite of
// tests). Making a worktree clears leftovers with `git worktree prune`, and removing one prunes
// too; git's prune deletes another `worktree add`'s half-made admin folder, which then fails
// ("could not open '.git/worktrees/<name>/HEAD'"): seen as a run failing before its first step.
// Every creation and removal here must succeed, and each worktree be on its own branch. (Linked
// worktrees: what runs made before runs had their own repositories are unarchived as.)

test('forty runs of one repository made while twenty others are removed: every worktree is made', async (t) => {
  t.timeout(240_000);
  const p = await makeProject(t);
  const folders = [{ name: 'app', path: p.user }];
  const old = Array.from({ length: 20 }, (_, i) => `old${i}`);
  for (const id of old) await createRunWorktrees(p.home, id, folders, undefined, 'worktree');
  const ids = Array.from({ length: 40 }, (_, i) => `new${i}`);
  const made = await Promise.allSettled([
    ...ids.map((id) => createRunWorktrees(p.home, id, folders, undefined, 'worktree')),
    ...old.map((id) => removeRunWorktrees(p.home, id, folders)),
  ]);
  const failed = made.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
  t.deepEqual(failed, []);
  for (const [i, id] of ids.entries()) {
    const r = made[i] as PromiseFulfilledResult<{ directory: string }[]>;
    t.is(await sh(r.value[0]!.directory, 'symbolic-ref', '--short', 'HEAD'), `svc/${id}`);
  }
  const listed = (await sh(p.user, 'worktree', 'list', '--porcelain')).split('\n').filter((l) => l.startsWith('worktree ')).length;
  t.is(listed, 1 + ids.length, 'the checkout and the forty new worktrees; the old ones are gone');
});
