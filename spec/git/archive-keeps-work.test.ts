import '../helpers/env.js';
import anyTest, { type TestFn } from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { eventually, gitRepo } from '../helpers/env.js';
import { eventsOf, setRunCap, untilEvents, worktreeOf } from '../helpers/http-kit.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { detail, startRun, untilStanding } from '../helpers/steer.js';
import { leaveWork, WORK_REPO, workState } from '../helpers/work-state.js';

// Archive and "Keep this one" never lose work (issue 32): a run's uncommitted, staged and untracked
// files are kept before its worktree goes, and an unarchive puts the folder back exactly as it was:
// same branch and HEAD, the same staged set, every file byte for byte (SHA-256), `git status` equal.

const test = anyTest as TestFn<{ s: TestServer }>;
test.before(async (t) => {
  t.context.s = await testServer({ repo: gitRepo(WORK_REPO) });
  await setRunCap(t.context.s, 10);
});
test.after.always(async (t) => { await t.context.s?.close(); });

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

const ended = async (s: TestServer, goal: string): Promise<{ runId: string; dir: string }> => {
  const runId = await startRun(s, { goal, workflow: 'linear' });
  await untilStanding(s, runId, 'Succeeded');
  return { runId, dir: await worktreeOf(s, runId) };
};

const unarchived = async (s: TestServer, runId: string, times = 1) => {
  const r = await s.post(`/api/runs/${runId}/archive`, { state: 'Active' });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  await untilEvents(s, runId, 'WorktreesRestored', times);
  return r.body;
};

test.serial('archive says what it keeps, keeps it under a ref archiving leaves alone, and unarchive restores the folder byte for byte', async (t) => {
  const { s } = t.context;
  const { runId, dir } = await ended(s, 'leave work [write:agent.txt=by the agent][report:success]');
  leaveWork(dir, 'a');
  const before = workState(dir);
  t.true(before.status.includes('MM README.md') && before.status.includes('A  staged.txt') && before.status.includes(' D gone.txt'), before.status);

  const preview = await s.get(`/api/runs/${runId}/archive`);
  t.is(preview.status, 200);
  // agent.txt, .turns.log (the scripted CLI's), staged.txt, README.md, gone.txt, new/deep/untracked.txt, new/blob.bin, new/run.sh
  t.is(preview.body.text, `8 uncommitted changes (2 staged, 2 unstaged, 5 untracked) will be kept on branch svc/${runId} and restored if you unarchive; 1 ignored path (.gitignore) will not be kept.`);
  t.like(preview.body.folders[0], { branch: `svc/${runId}`, changes: { paths: 8, staged: 2, unstaged: 2, untracked: 5 }, ignored: 1 });
  const unknown = await s.get('/api/runs/nope/archive');
  t.is(unknown.status, 404);
  t.regex(unknown.body.detail, /unknown run/);

  const r = await s.post(`/api/runs/${runId}/archive`, { state: 'Archived' });
  t.is(r.status, 200);
  t.is(r.body.kept, preview.body.text, 'the answer says it too');
  await untilEvents(s, runId, 'WorktreesRemoved');
  t.false(existsSync(dir), 'the folder is gone');
  const [kept] = await eventsOf(s, runId, 'WorkKept');
  t.like(kept.data.kept[0], { ref: `refs/svc/kept/${runId}/0`, head: `svc/${runId}`, changes: 8 });
  t.is(git(s.repo, 'rev-parse', `refs/svc/kept/${runId}/0`), kept.data.kept[0].commit, 'the ref outlives the archive');
  t.regex((await s.get(`/api/runs/${runId}/archive`)).body.text, /^Unarchiving makes its worktree again and restores 8 uncommitted changes/);

  const back = await unarchived(s, runId);
  t.regex(back.kept, /restores 8 uncommitted changes/);
  const after = workState(dir);
  t.deepEqual(after, before);
  t.is(after.branch, `svc/${runId}`);
  t.false(existsSync(`${dir}/cache.ignored`), 'ignored files are not kept (docs/app.md says so)');
  t.like(await detail(s, runId), { archived: false });
  t.is((await s.get(`/api/runs/${runId}/worktree`)).status, 200, 'the run has its worktree again');

  // a second round keeps what changed since, not the first snapshot
  leaveWork(dir, 'second round, longer');
  const again = workState(dir);
  t.notDeepEqual(again, before);
  await s.post(`/api/runs/${runId}/archive`, { state: 'Archived' });
  await untilEvents(s, runId, 'WorktreesRemoved', 2);
  await unarchived(s, runId, 2);
  t.deepEqual(workState(dir), again);
});

test.serial('a worktree left detached keeps its HEAD; nothing uncommitted says so', async (t) => {
  const { s } = t.context;
  const { runId, dir } = await ended(s, 'clean [report:success]');
  git(dir, 'add', '-A');
  git(dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'the agent committed');
  const tip = git(dir, 'rev-parse', 'HEAD');
  git(dir, 'checkout', '-q', '--detach', 'HEAD~1');
  const before = workState(dir);
  t.is(before.branch, null);
  t.is((await s.get(`/api/runs/${runId}/archive`)).body.text, `Nothing is uncommitted; its worktree goes and branch svc/${runId} keeps its commits.`);
  await s.post(`/api/runs/${runId}/archive`, { state: 'Archived' });
  await untilEvents(s, runId, 'WorktreesRemoved');
  await unarchived(s, runId);
  t.deepEqual(workState(dir), before);
  t.is(git(s.repo, 'rev-parse', `svc/${runId}`), tip, "the branch keeps the agent's commit");
  t.not(before.head, tip);
});

test.serial('keep says what archiving the others keeps; Compare still shows their change; unarchive restores them byte for byte', async (t) => {
  const { s } = t.context;
  const r = await s.post('/api/runs', { project: s.projectId, goal: '[writeon:claude:claude.txt=c][writeon:codex:codex.txt=x][report:success]', workflow: 'linear', attempts: [{ harness: 'claude' }, { harness: 'codex' }] });
  t.is(r.status, 200, JSON.stringify(r.body));
  const [a, b] = r.body.attempts.map((x: any) => x.runId) as [string, string];
  for (const id of [a, b]) await untilStanding(s, id, 'Succeeded');
  const dirB = await worktreeOf(s, b);
  leaveWork(dirB, 'codex');
  const before = workState(dirB);

  const preview = await s.get(`/api/runs/${a}/keep`);
  t.is(preview.status, 200);
  t.is(preview.body.text, `Keeping this one archives 1 other attempt. ${b} (codex): 8 uncommitted changes (2 staged, 2 unstaged, 5 untracked) will be kept on branch svc/${b} and restored if you unarchive it; 1 ignored path (.gitignore) will not be kept.`);
  t.is((await s.get('/api/runs/nope/keep')).status, 404);

  const kept = await s.post(`/api/runs/${a}/keep`, {});
  t.is(kept.status, 200, JSON.stringify(kept.body));
  t.is(kept.body.kept, preview.body.text);
  await untilEvents(s, b, 'WorktreesRemoved');
  t.false(existsSync(dirB));

  const c = await s.get(`/api/compare?a=${a}&b=${b}`);
  t.is(c.status, 200);
  const files = new Map((c.body.folders[0].files as any[]).map((f) => [f.path, f]));
  t.regex(files.get('codex.txt')?.b ?? '', /\+x/, "the archived attempt's own change");
  t.regex(files.get('staged.txt')?.b ?? '', /\+staged by codex/);
  t.regex(files.get('new/deep/untracked.txt')?.b ?? '', /\+untracked codex/);
  t.regex(files.get('claude.txt')?.a ?? '', /\+c/);
  t.is(files.get('claude.txt')?.b, null);
  t.regex(c.body.folders[0].notes.join('\n'), new RegExp(`svc/${b}: the worktree is archived; its work as kept when archived is compared`));

  await unarchived(s, b);
  t.deepEqual(workState(dirB), before);
});
