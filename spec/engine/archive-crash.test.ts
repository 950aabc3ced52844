import '../helpers/env.js';
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, fixtureModule, freshHome, gitRepo, repoRoot, writeWorkflow } from '../helpers/env.js';
import { type ChildServer, endServer, exited, killHard, spawnServer } from '../helpers/child-server.js';
import { prepared } from '../helpers/prepared-home.js';
import { LINEAR } from '../helpers/server.js';
import { leaveWork, WORK_REPO, workState } from '../helpers/work-state.js';

// Archive and Keep lose nothing to a crash: the server is SIGKILLed at each point of an archive
// (and of the unarchive that follows), then started again. The kept ref is written before the
// folder is touched, so the restarted server finishes the job, and the unarchived folder is as it
// was byte for byte, even when the crash left it half removed.

const json = async (url: string, init?: RequestInit) => (await fetch(url, init)).json() as Promise<any>;
const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
const PROBE = fixtureModule('fork-probe', 'probe.ts');
const crashAt = (point: string) => ({ SVC_FORK_PROBE_MODULE: PROBE, SVC_FORK_CRASH_AT: point });

const events = async (url: string, runId: string, type: string) =>
  ((await json(`${url}/api/runs/${runId}/history?pageSize=200`)).events as any[]).filter((e) => e.type === type);
const until = (url: string, runId: string, type: string, count = 1) => eventually(() => events(url, runId, type), (es) => es.length >= count, 60_000);
const worktree = async (url: string, runId: string) => (await json(`${url}/api/runs/${runId}/worktree`)).folders[0].directory as string;

/** a project on a repository with what leaveWork changes, on a server with no crash point */
const setUp = async () => {
  const home = freshHome();
  writeWorkflow(home, 'linear', LINEAR);
  const repo = gitRepo(WORK_REPO);
  const server = await spawnServer(home);
  const project = await (await post(`${server.url}/api/projects`, { name: 'crash', folders: [{ path: repo }] })).json() as any;
  return { home, repo, server, project: project.id as string };
};

/** a run ended with every kind of uncommitted work in its worktree; made once, restored per test */
const endedWithWork = prepared(async () => {
  const { home, repo, server, project } = await setUp();
  const { runId } = await (await post(`${server.url}/api/runs`, { project, goal: '[write:agent.txt=agent][report:success]', workflow: 'linear' })).json() as any;
  await eventually(() => json(`${server.url}/api/runs/${runId}`), (r) => r.phase === 'Ended', 60_000);
  const dir = await worktree(server.url, runId);
  leaveWork(dir, 'before the crash');
  await killHard(server);
  return { home, repo, runId: runId as string, dir };
}, ({ home, repo }) => [home, repo]);

/** two attempts ended, the second (codex) with every kind of uncommitted work; made once, restored per test */
const attemptsWithWork = prepared(async () => {
  const { home, repo, server, project } = await setUp();
  const started = await (await post(`${server.url}/api/runs`, { project, goal: '[writeon:claude:claude.txt=c][writeon:codex:codex.txt=x][report:success]', workflow: 'linear', attempts: [{ harness: 'claude' }, { harness: 'codex' }] })).json() as any;
  const [a, b] = started.attempts.map((x: any) => x.runId) as [string, string];
  for (const id of [a, b]) await eventually(() => json(`${server.url}/api/runs/${id}`), (r) => r.phase === 'Ended', 60_000);
  const dir = await worktree(server.url, b);
  leaveWork(dir, 'codex, before the crash');
  await killHard(server);
  return { home, repo, a, b, dir };
}, ({ home, repo }) => [home, repo]);

// what a crash in the middle of `git worktree remove` leaves: part of the folder deleted
const halfRemove = (dir: string) => { rmSync(join(dir, 'new'), { recursive: true, force: true }); rmSync(join(dir, 'README.md'), { force: true }); };

const crashed = async (s: ChildServer, t: { not(a: unknown, b: unknown, m: string): void }, point: string) => {
  await exited(s);
  t.not(s.child.signalCode, null, `the probe ended the server at ${point}`);
};

for (const point of ['archive:kept-ref', 'archive:kept', 'archive:removed']) {
  test.serial(`SIGKILL at ${point}: a restart finishes the archive and Unarchive restores the folder byte for byte`, async (t) => {
    t.timeout(240_000);
    const { home, repo, runId, dir } = await endedWithWork();
    const before = workState(dir);
    const server = await spawnServer(home, crashAt(point));
    t.teardown(() => endServer(server));
    void post(`${server.url}/api/runs/${runId}/archive`, { state: 'Archived' }).catch(() => null);
    await crashed(server, t, point);
    // the snapshot's ref is written before the folder is touched
    t.regex(git(repo, 'rev-parse', `refs/svc/kept/${runId}/0`), /^[0-9a-f]{40}$/);
    if (point === 'archive:kept') halfRemove(dir);

    const again = await spawnServer(home);
    t.teardown(() => endServer(again));
    await until(again.url, runId, 'WorktreesRemoved');
    t.false(existsSync(dir));
    t.is((await events(again.url, runId, 'WorkKept')).length, 1, 'kept once');
    t.is((await post(`${again.url}/api/runs/${runId}/archive`, { state: 'Active' })).status, 200);
    await until(again.url, runId, 'WorktreesRestored');
    t.deepEqual(workState(dir), before);
    await killHard(again);
  });
}

for (const point of ['unarchive:worktree-made', 'unarchive:restored']) {
  test.serial(`SIGKILL at ${point}: a restart finishes the unarchive, the folder byte for byte`, async (t) => {
    t.timeout(240_000);
    const { home, runId, dir } = await endedWithWork();
    const before = workState(dir);
    const server = await spawnServer(home, crashAt(point));
    t.teardown(() => endServer(server));
    await post(`${server.url}/api/runs/${runId}/archive`, { state: 'Archived' });
    await until(server.url, runId, 'WorktreesRemoved');
    void post(`${server.url}/api/runs/${runId}/archive`, { state: 'Active' }).catch(() => null);
    await crashed(server, t, point);

    const again = await spawnServer(home);
    t.teardown(() => endServer(again));
    await until(again.url, runId, 'WorktreesRestored');
    t.deepEqual(workState(dir), before);
    t.is((await events(again.url, runId, 'WorktreesRestored')).length, 1);
    await killHard(again);
  });
}

for (const point of ['archive:kept-ref', 'archive:kept']) {
  test.serial(`SIGKILL at ${point} during Keep: the other attempt's work is compared after the restart and restored by Unarchive`, async (t) => {
    t.timeout(240_000);
    const { home, a, b, dir } = await attemptsWithWork();
    const before = workState(dir);
    const server = await spawnServer(home, crashAt(point));
    t.teardown(() => endServer(server));
    void post(`${server.url}/api/runs/${a}/keep`, {}).catch(() => null);
    await crashed(server, t, point);
    if (point === 'archive:kept') halfRemove(dir);

    const again = await spawnServer(home);
    t.teardown(() => endServer(again));
    await until(again.url, b, 'WorktreesRemoved');
    const c = await json(`${again.url}/api/compare?a=${a}&b=${b}`);
    const files = new Map((c.folders[0].files as any[]).map((f) => [f.path, f]));
    t.regex(files.get('codex.txt')?.b ?? '', /\+x/);
    t.regex(files.get('new/deep/untracked.txt')?.b ?? '', /\+untracked codex, before the crash/);
    t.is((await post(`${again.url}/api/runs/${b}/archive`, { state: 'Active' })).status, 200);
    await until(again.url, b, 'WorktreesRestored');
    t.deepEqual(workState(dir), before);
    await killHard(again);
  });
}
