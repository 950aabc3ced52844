import '../helpers/env.js';
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { eventually, fixtureModule, freshHome, gitRepo, repoRoot, writeWorkflow } from '../helpers/env.js';
import { type ChildServer, endServer, exited, killHard, spawnServer } from '../helpers/child-server.js';
import { prepared } from '../helpers/prepared-home.js';
import { TWO_STEPS } from '../mcp/helpers/real.js';

// A fork is whole or absent: the server is SIGKILLed at each point inside a fork (a fixture's probe,
// configured only here), then started again. Before the fork's one append there is no trace of it
// (no run, no branch, no worktree); from the append on, the restarted server completes it: its
// worktree restored from the snapshot, and it runs to the end.

const json = async (url: string, init?: RequestInit) => (await fetch(url, init)).json() as Promise<any>;
const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
const PROBE = fixtureModule('fork-probe', 'probe.ts');


/** a succeeded run of `two` whose step work left one.txt uncommitted, and the seq of that step end */
const sourceRun = async (home: string, repo: string) => {
  const a = await spawnServer(home);
  const project = await (await post(`${a.url}/api/projects`, { name: 'forks', folders: [{ path: repo }] })).json() as any;
  const { runId } = await (await post(`${a.url}/api/runs`, { project: project.id, goal: '[write:one.txt=as step work left it][report:success]', workflow: 'two' })).json() as any;
  await eventually(() => json(`${a.url}/api/runs/${runId}`), (r) => r.phase === 'Ended');
  const events = (await json(`${a.url}/api/runs/${runId}/history?pageSize=200`)).events as any[];
  const at = events.find((e) => e.type === 'StepSucceeded' && e.data.node === 'work').seq as number;
  await killHard(a);
  return { runId, at };
};

/** the source run, made once and restored for each test */
const source = prepared(async () => {
  const home = freshHome();
  writeWorkflow(home, 'two', TWO_STEPS);
  const repo = gitRepo();
  return { home, repo, ...await sourceRun(home, repo) };
}, ({ home, repo }) => [home, repo]);

const trace = (home: string, repo: string) => ({
  branches: git(repo, 'branch', '--list', '--format=%(refname:short)'),
  worktrees: readdirSync(join(home, 'worktrees')).sort(),
  registered: git(repo, 'worktree', 'list', '--porcelain').split('\n').filter((l) => l.startsWith('worktree ')).length,
});

for (const point of ['fork:before-append', 'fork:after-append', 'fork:branch-made', 'fork:worktrees-made']) {
  test.serial(`SIGKILL at ${point}: after a restart the fork is whole or absent`, async (t) => {
    t.timeout(180_000);
    const { home, repo, runId, at } = await source();
    const before = trace(home, repo);
    const crashing = await spawnServer(home, { SVC_FORK_PROBE_MODULE: PROBE, SVC_FORK_CRASH_AT: point });
    t.teardown(() => endServer(crashing));
    const answer = await post(`${crashing.url}/api/runs/${runId}/forks`, { at }).then((r) => r.json() as Promise<any>, () => null);
    await exited(crashing);
    t.not(crashing.child.signalCode, null, `the probe ended the server at ${point}`);

    const again = await spawnServer(home);
    t.teardown(() => endServer(again));
    const forks = (await json(`${again.url}/api/runs/${runId}/detail`)).forks as string[] | undefined;
    const runs = (await json(`${again.url}/api/runs`)) as any[];
    if (point === 'fork:before-append') {
      t.is(answer, null, 'the server died before answering');
      t.is(forks, undefined, 'no fork');
      t.is(runs.length, 1, 'no run but the source');
      t.deepEqual(trace(home, repo), before, 'no branch, no worktree');
      return;
    }
    t.is(forks?.length, 1, 'the fork is there');
    const fork = forks![0]!;
    if (answer) t.is(answer.runId, fork);
    const done = await eventually(() => json(`${again.url}/api/runs/${fork}`), (r) => r.phase === 'Ended', 60_000);
    t.is(done.outcome, 'success');
    const dir = join(home, 'worktrees', fork, basename(repo));
    t.is(readFileSync(join(dir, 'one.txt'), 'utf8'), 'as step work left it');
    t.is(git(dir, 'symbolic-ref', '--short', 'HEAD'), `svc/${fork}`);
    t.true(existsSync(join(home, 'worktrees', runId)));
    const events = (await json(`${again.url}/api/runs/${fork}/history?pageSize=200`)).events as any[];
    t.deepEqual(events.filter((e) => e.type === 'StepStarted').map((e) => e.data.node), ['review']);
    t.is(events.filter((e) => e.type === 'WorktreesPrepared').length, 1);
  });
}
