import '../helpers/env.js';
import test from 'ava';
import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { eventually, fixtureModule, freshHome, gitRepo, repoRoot, writeWorkflow } from '../helpers/env.js';
import { type ChildServer, endServer, exited, killHard, spawnServer } from '../helpers/child-server.js';
import { prepared } from '../helpers/prepared-home.js';
import { TWO_STEPS } from '../mcp/helpers/real.js';

// Issue 33: a follow-up and the link on the run it continues are one journal transaction. The
// server is SIGKILLed at each point of a follow-up start (a fixture's probe), then started again:
// either there is no follow-up, or there is one and the source names it, so a second follow-up on
// the source is refused while the first is live (two agents in one worktree, before).

const json = async (url: string, init?: RequestInit) => (await fetch(url, init)).json() as Promise<any>;
const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const PROBE = fixtureModule('fork-probe', 'probe.ts');

const sourceRun = async (home: string, repo: string) => {
  const a = await spawnServer(home);
  const project = await (await post(`${a.url}/api/projects`, { name: 'chain', folders: [{ path: repo }] })).json() as any;
  const { runId } = await (await post(`${a.url}/api/runs`, { project: project.id, goal: '[write:one.txt=1][report:success]', workflow: 'two' })).json() as any;
  await eventually(() => json(`${a.url}/api/runs/${runId}`), (r) => r.phase === 'Ended');
  await killHard(a);
  return runId as string;
};

/** an ended run of `two` to continue, made once and restored for each test */
const ended = prepared(async () => {
  const home = freshHome();
  writeWorkflow(home, 'two', TWO_STEPS);
  const repo = gitRepo();
  return { home, repo, source: await sourceRun(home, repo) };
}, ({ home, repo }) => [home, repo]);

for (const point of ['follow-up:before-append', 'follow-up:after-append']) {
  test.serial(`SIGKILL at ${point}: one live follow-up per chain after a restart`, async (t) => {
    t.timeout(180_000);
    const { home, repo, source } = await ended();
    const crashing = await spawnServer(home, { SVC_FORK_PROBE_MODULE: PROBE, SVC_FORK_CRASH_AT: point });
    t.teardown(() => endServer(crashing));
    // the follow-up waits for a go-ahead file, so it is still live when the second one is asked for
    const answer = await post(`${crashing.url}/api/runs/${source}/follow-ups`, { text: '[until:go.txt][report:success]' }).then((r) => r.json() as Promise<any>, () => null);
    await exited(crashing);
    t.not(crashing.child.signalCode, null, `the probe ended the server at ${point}`);
    t.is(answer, null, 'the server died before answering');

    const again = await spawnServer(home);
    t.teardown(() => endServer(again));
    const runs = (await json(`${again.url}/api/runs`)) as any[];
    const followUps = runs.filter((r) => r.runId !== source);
    const detail = await json(`${again.url}/api/runs/${source}/detail`);
    if (point === 'follow-up:before-append') {
      t.deepEqual(followUps, [], 'no follow-up');
      t.deepEqual(detail.continuedBy ?? [], [], 'the source names none');
      return;
    }
    t.is(followUps.length, 1, 'the follow-up is there');
    const first = followUps[0].runId as string;
    t.deepEqual(detail.continuedBy, [first], 'and the source names it: both sides or neither');
    const second = await post(`${again.url}/api/runs/${source}/follow-ups`, { text: '[report:success]' });
    const body = await second.json() as any;
    t.is(second.status, 409, JSON.stringify(body));
    t.regex(body.detail, new RegExp(`run ${first} already continues this run's worktree and has not ended`));
    t.is((await json(`${again.url}/api/runs`)).length, 2, 'no second follow-up was made');
    // the first goes on and ends in the worktree it has alone
    writeFileSync(join(home, 'worktrees', source, basename(repo), 'go.txt'), 'go');
    t.is((await eventually(() => json(`${again.url}/api/runs/${first}`), (r) => r.phase === 'Ended', 60_000)).outcome, 'success');
  });
}

// A review of an ended run is a follow-up: the follow-up, its link and the review recorded on the
// source are one transaction, so after a kill the source names the follow-up and holds the review
// that went to it, or neither.
for (const point of ['follow-up:before-append', 'follow-up:after-append']) {
  test.serial(`SIGKILL at ${point} of a review sent to an ended run: the follow-up, its link and the review, or none`, async (t) => {
    t.timeout(180_000);
    const { home, source } = await ended();
    const crashing = await spawnServer(home, { SVC_FORK_PROBE_MODULE: PROBE, SVC_FORK_CRASH_AT: point });
    t.teardown(() => endServer(crashing));
    const review = { comments: [{ path: 'one.txt', side: 'new', line: 1, body: 'Make it two.' }] };
    const answer = await post(`${crashing.url}/api/runs/${source}/reviews`, review).then((r) => r.json() as Promise<any>, () => null);
    await exited(crashing);
    t.is(answer, null, 'the server died before answering');

    const again = await spawnServer(home);
    t.teardown(() => endServer(again));
    const followUps = ((await json(`${again.url}/api/runs`)) as any[]).filter((r) => r.runId !== source);
    const detail = await json(`${again.url}/api/runs/${source}/detail`);
    const reviews = (await json(`${again.url}/api/runs/${source}/reviews`)).reviews as any[];
    if (point === 'follow-up:before-append') {
      t.deepEqual([followUps, detail.continuedBy ?? [], reviews], [[], [], []], 'no follow-up, no link, no review');
      return;
    }
    t.is(followUps.length, 1);
    t.deepEqual(detail.continuedBy, [followUps[0].runId]);
    t.deepEqual(reviews.map((r) => r.followUp), [followUps[0].runId], 'the review is recorded with the follow-up it went to');
  });
}

// The same for a restart: the new run and RunRestarted on the old one are one transaction.
for (const point of ['restart:before-append', 'restart:after-append']) {
  test.serial(`SIGKILL at ${point}: the restarted run and its link are both there or neither`, async (t) => {
    t.timeout(180_000);
    const { home, source } = await ended();
    const crashing = await spawnServer(home, { SVC_FORK_PROBE_MODULE: PROBE, SVC_FORK_CRASH_AT: point });
    t.teardown(() => endServer(crashing));
    const position = (await json(`${crashing.url}/api/runs/${source}/detail`)).position as string;
    const answer = await post(`${crashing.url}/api/runs/${source}/control`, { position, action: 'Restart' }).then((r) => r.json() as Promise<any>, () => null);
    if (answer !== null) return t.fail(`the server answered: ${JSON.stringify(answer).slice(0, 300)}`);
    await exited(crashing);
    t.not(crashing.child.signalCode, null, `the probe ended the server at ${point}`);
    t.is(answer, null);
    const again = await spawnServer(home);
    t.teardown(() => endServer(again));
    const others = ((await json(`${again.url}/api/runs`)) as any[]).filter((r) => r.runId !== source);
    const detail = await json(`${again.url}/api/runs/${source}/detail`);
    if (point === 'restart:before-append') {
      t.deepEqual(others, [], 'no new run');
      t.is(detail.restartedAs, undefined, 'and the old run names none');
      return;
    }
    t.is(others.length, 1);
    t.is(detail.restartedAs, others[0].runId, 'the old run names the new one');
    t.is((await json(`${again.url}/api/runs/${others[0].runId}/detail`)).restartOf, source, 'and the new one the old');
  });
}
