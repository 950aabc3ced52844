import test, { type ExecutionContext } from 'ava';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { chmodSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { mergeLocally, type MergeMethod } from '../../lib/git/local-merge.js';
import { createRunWorktrees } from '../../lib/git/worktrees.js';
import { publishCheckouts } from '../../lib/git/run-clones.js';
import { commitFile, isolateEnv, makeProject, sh, snapshotCheckout, write } from './helpers.js';

isolateEnv();

// an executable hook that fails: were it run, the operation would fail
const failingHook = (repo: string, name: string) => {
  write(repo, `.git/hooks/${name}`, '#!/bin/sh\nexit 1\n');
  chmodSync(join(repo, '.git', 'hooks', name), 0o755);
};

// The person's checkout on main, a run's worktree on svc/<run> with two commits, and a third
// branch nobody asked to touch; every ref is compared before and after.
const setUp = async (t: ExecutionContext, runId: string) => {
  const p = await makeProject(t);
  await sh(p.user, 'branch', 'other');
  const [c] = await createRunWorktrees(p.home, runId, [{ name: 'app', path: p.user }]);
  await commitFile(c!.directory, 'work.txt', 'one\n');
  await commitFile(c!.directory, 'more.txt', 'two\n');
  // the step's end brings a run's own repository's branch into the person's (lib/engine/snapshots.ts)
  await publishCheckouts(runId, [c!]);
  return { p, c: c! };
};

const refs = async (dir: string) => sh(dir, 'for-each-ref', '--format=%(refname) %(objectname)');
const withoutMain = (all: string) => all.split('\n').filter((l) => !l.startsWith('refs/heads/main ')).join('\n');

for (const method of ['fast-forward', 'merge', 'squash'] as const satisfies readonly MergeMethod[]) {
  test(`${method}: the run's branch lands on main in the person's checkout; no other ref moves, no hook runs`, async (t) => {
    const { p, c } = await setUp(t, `m${method.length}`);
    if (method !== 'fast-forward') await commitFile(p.user, 'theirs.txt', 'the person moved on\n');
    failingHook(p.user, 'pre-merge-commit');
    failingHook(p.user, 'pre-commit');
    const before = await refs(p.user);
    const mainBefore = await sh(p.user, 'rev-parse', 'main');
    const branchTip = await sh(c.directory, 'rev-parse', 'HEAD');
    const r = await mergeLocally([c], method, 'Ship the run');
    t.true(isRight(r), JSON.stringify(r));
    const head = await sh(p.user, 'rev-parse', 'HEAD');
    t.deepEqual(isRight(r) ? r.right : null, [{ folder: 'app', base: 'main', commit: head }]);
    t.is(await sh(p.user, 'symbolic-ref', '--short', 'HEAD'), 'main');
    t.is(await sh(p.user, 'status', '--porcelain'), '');
    t.is(readFileSync(join(p.user, 'more.txt'), 'utf8'), 'two\n');
    t.is(await withoutMain(await refs(p.user)), withoutMain(before), 'only main moved');
    t.true(await sh(p.user, 'merge-base', '--is-ancestor', mainBefore, 'HEAD').then(() => true), 'main only moved forward');
    if (method === 'fast-forward') t.is(head, branchTip);
    if (method === 'merge') t.is(await sh(p.user, 'rev-list', '--parents', '-n1', 'HEAD'), `${head} ${mainBefore} ${branchTip}`);
    if (method === 'squash') {
      t.is(await sh(p.user, 'rev-list', '--parents', '-n1', 'HEAD'), `${head} ${mainBefore}`);
      t.is(await sh(p.user, 'log', '-1', '--format=%s'), 'Ship the run');
    }
  });
}

const refused = async (t: ExecutionContext, dir: string, r: Awaited<ReturnType<typeof mergeLocally>>, text: RegExp, before: unknown) => {
  t.true(isLeft(r));
  t.regex(isLeft(r) ? r.left : '', text);
  t.deepEqual(await snapshotCheckout(dir), before);
};

test('a dirty checkout is refused, naming the files; nothing changes', async (t) => {
  const { p, c } = await setUp(t, 'd1');
  write(p.user, 'src/a.txt', 'half done\n');
  const before = { snap: await snapshotCheckout(p.user), refs: await refs(p.user) };
  const r = await mergeLocally([c], 'merge', 'x');
  await refused(t, p.user, r, /^the project's checkout .* has uncommitted changes: src\/a\.txt; nothing was merged$/, before.snap);
  t.is(await refs(p.user), before.refs);
});

test('a checkout on another branch is refused, naming it; nothing changes', async (t) => {
  const { p, c } = await setUp(t, 'd2');
  await sh(p.user, 'switch', '-q', 'other');
  const before = { snap: await snapshotCheckout(p.user), refs: await refs(p.user) };
  const r = await mergeLocally([c], 'squash', 'x');
  await refused(t, p.user, r, /is on branch other, not on the base branch main; nothing was merged$/, before.snap);
  t.is(await refs(p.user), before.refs);
});

test('fast-forward is refused when main moved on; a conflict is refused with its files', async (t) => {
  const { p, c } = await setUp(t, 'd3');
  await commitFile(p.user, 'more.txt', 'the person wrote this\n');
  const before = { snap: await snapshotCheckout(p.user), refs: await refs(p.user) };
  await refused(t, p.user, await mergeLocally([c], 'fast-forward', 'x'), /^not a fast-forward: main has commits that svc\/d3 lacks/, before.snap);
  await refused(t, p.user, await mergeLocally([c], 'merge', 'x'), /^main and svc\/d3 conflict in more\.txt; update from base first; nothing was merged$/, before.snap);
  t.is(await refs(p.user), before.refs);
});

test('uncommitted work in the run\'s worktree and an already merged branch are refused', async (t) => {
  const { p, c } = await setUp(t, 'd4');
  write(c.directory, 'work.txt', 'not yet committed\n');
  t.regex((await mergeLocally([c], 'merge', 'x') as { left: string }).left, /run's worktree has uncommitted changes \(work\.txt\)/);
  await sh(c.directory, 'checkout', '--', 'work.txt');
  // a new file is work too: not "nothing to merge" while the run's only new work is untracked
  write(c.directory, 'src/new.txt', 'a new file\n');
  t.regex((await mergeLocally([c], 'merge', 'x') as { left: string }).left, /run's worktree has uncommitted changes \(src\/new\.txt\)/);
  rmSync(join(c.directory, 'src/new.txt'));
  t.true(isRight(await mergeLocally([c], 'fast-forward', 'x')));
  t.regex((await mergeLocally([c], 'merge', 'x') as { left: string }).left, /^nothing to merge: main already holds every commit of svc\/d4/);
  t.is(await sh(p.user, 'rev-parse', 'main'), await sh(c.directory, 'rev-parse', 'HEAD'));
});

test('several folders: every folder is checked before any is merged', async (t) => {
  const a = await setUp(t, 'd5');
  const b = await makeProject(t);
  const [cb] = await createRunWorktrees(a.p.home, 'd5', [{ name: 'lib', path: b.user }]);
  await commitFile(cb!.directory, 'lib.txt', 'lib\n');
  await publishCheckouts('d5', [cb!]);
  write(b.user, 'README.md', 'dirty\n');
  const before = await refs(a.p.user);
  const r = await mergeLocally([a.c, cb!], 'merge', 'x');
  t.regex(isLeft(r) ? r.left : '', /^folder lib: the project's checkout .* has uncommitted changes: README\.md; nothing was merged$/);
  t.is(await refs(a.p.user), before, 'the clean folder was not merged either');
  await sh(b.user, 'checkout', '--', 'README.md');
  const ok = await mergeLocally([a.c, cb!], 'merge', 'x');
  t.deepEqual(isRight(ok) ? ok.right.map((m) => m.folder) : ok.left, ['app', 'lib']);
});
