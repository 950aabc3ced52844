import '../helpers/env.js';
import test, { type ExecutionContext } from 'ava';
import { basename, join } from 'node:path';
import { worktreeDir } from '../../lib/git/worktrees.js';
import { fixtureRepository, type FixturePullRequest, type GitHubFixture } from '../fixtures/github/fixture.js';
import { startGitHubServer, type GitHubTestServer } from '../fixtures/github/server.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { callMcp, say, writeFile, type ModelTurn } from '../fixtures/model-server/script.js';
import { WEB, git, githubOrigin } from '../helpers/code-host-origin.js';
import { eventually } from '../helpers/env.js';
import { type CliDirs, pointCliAt, realCliEnv } from '../helpers/real-run.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { control, detail, history, untilStanding } from '../helpers/steer.js';

// The pull request loop end to end with the real claude CLI against the scripted model: a deliver
// step with watch=true opens its pull request on the GitHub test server (built from GitHub's
// schema) from a real bare origin, then answers what the fixture reports on it. The poll interval
// is an hour: the tests read the pull request with POST .../pull-request/check, so nothing waits
// on a clock.

const loopWorkflow = (attrs: string) => `digraph loop {
  start [kind=start]
  work  [kind=agent, prompt="{{goal}}"]
  ship  [kind=deliver, watch=true${attrs}]
  done  [kind=exit]
  start -> work -> ship
  ship -> done [condition="outcome=success"]
}`;

const LINT_LOG = 'src/app.ts:3 error no-unused-vars: x is assigned but never used (lint-7731)';

const origin = githubOrigin();
const fixture: GitHubFixture = { webHost: WEB, tokens: ['tok'], repositories: [fixtureRepository('acme', 'app')] };
let gh: GitHubTestServer;
test.before(async () => { gh = await startGitHubServer(fixture); });
test.after.always(() => gh.close());

const withCodeHost = async (s: TestServer): Promise<void> => {
  await s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'CodeHost', graphqlUrl: gh.graphqlUrl, webHost: WEB }));
  await s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'CodeHostToken', token: 'tok' }));
  const r = await s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'PullRequestWatchInterval', seconds: 3600 }));
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
};

/** the pull request the run opened, changed as the code host would show it */
const setPullRequest = (number: number, over: Partial<FixturePullRequest>): void => {
  const prs = fixture.repositories[0]!.pullRequests;
  const i = prs.findIndex((p) => p.number === number);
  prs[i] = { ...prs[i]!, ...over };
};

const branchHead = (runId: string): string => git(origin.bare, 'rev-parse', `svc/${runId}`);

const count = async (s: TestServer, runId: string, type: string): Promise<number> => (await history(s, runId)).filter((e) => e.type === type).length;

/** the run's first turn writes a file and reports; the run then delivers and watches */
const startWatching = async (t: ExecutionContext, s: TestServer, cli: CliDirs, cycleTurns: (dir: string) => ModelTurn[]) => {
  const created = await s.post('/api/runs', { project: s.projectId, goal: 'Add the feature file.', workflow: 'loop', harness: 'claude', start: false });
  const runId = created.body.runId as string;
  const dir = worktreeDir(s.home, runId, basename(s.repo));
  const model = await startModelServer([
    writeFile(join(dir, 'feature.txt'), 'feature\n', 'Writing it.'),
    callMcp('report_outcome', { outcome: 'success', summary: 'feature.txt added' }),
    say('Done.'),
    ...cycleTurns(dir),
  ]);
  t.teardown(() => model.close());
  pointCliAt('claude', cli, model.url);
  t.is((await control(s, runId, 'Resume')).body.outcome, 'Applied');
  const watching = await untilStanding(s, runId, 'Waiting', 150_000);
  t.regex(watching.pullRequestLoop.text, /^watching pull request #\d+/);
  return { runId, dir, model, number: watching.pullRequestLoop.number as number };
};

const checkNow = async (s: TestServer, runId: string): Promise<void> => {
  const r = await s.post(`/api/runs/${runId}/pull-request/check`, {});
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
};

const untilCount = (s: TestServer, runId: string, type: string, n: number) => eventually(() => count(s, runId, type), (c) => c >= n, 150_000);

test.serial('a failing required check: one turn with its name and log, a push, then the loop ends when the pull request merges; a restart starts no second turn', async (t) => {
  t.timeout(400_000);
  const cli = realCliEnv('claude'); // before the server: it picks its harnesses when it opens
  const s = await testServer({ repo: origin.work, workflows: { loop: loopWorkflow('') } });
  let server = s;
  t.teardown(() => server.close());
  await withCodeHost(s);
  const { runId, model, number, dir } = await startWatching(t, s, cli, (d) => [writeFile(join(d, 'src.txt'), 'fixed\n', 'Fixing the lint error.'), say('Removed the unused variable.')]);
  const first = branchHead(runId);
  setPullRequest(number, {
    headRefOid: first,
    contexts: [{ __typename: 'CheckRun', name: 'lint', status: 'COMPLETED', conclusion: 'FAILURE', required: true, summary: '1 error', text: LINT_LOG, annotations: [{ path: 'src/app.ts', line: 3, message: 'x is unused' }] }],
  });
  await checkNow(s, runId);
  await untilCount(s, runId, 'PullRequestCycleEnded', 1);

  const events = await history(s, runId);
  const started = events.filter((e) => e.type === 'PullRequestCycleStarted');
  t.is(started.length, 1);
  t.deepEqual(started[0].data.cause, { _tag: 'Checks', headCommit: first, failing: [{ name: 'lint', conclusion: 'FAILURE', excerpt: `1 error\n${LINT_LOG}\nsrc/app.ts:3: x is unused` }] });
  const ended = events.find((e) => e.type === 'PullRequestCycleEnded');
  t.is(ended.data.result._tag, 'Pushed', JSON.stringify(ended.data));
  const pushed = branchHead(runId);
  t.not(pushed, first, 'the bare origin\'s branch moved');
  t.is(ended.data.result.headCommit, pushed);
  t.is(git(origin.bare, 'show', `svc/${runId}:src.txt`), 'fixed');
  const bodies = model.scriptedBodies().map((b) => JSON.stringify(b));
  t.is(bodies.length, 5, 'three requests for the first turn, two for the cycle');
  t.true(bodies[3]!.includes('lint') && bodies[3]!.includes('lint-7731'), 'the cycle\'s turn saw the check name and its log');
  t.false(bodies.slice(0, 3).some((b) => b.includes('lint-7731')));

  // restart while the host still reports the recorded failure: the cause is not taken up again
  await s.close();
  server = await testServer({ home: s.home, repo: origin.work, workflows: { loop: loopWorkflow('') } });
  await untilStanding(server, runId, 'Waiting', 60_000);
  await checkNow(server, runId);
  await checkNow(server, runId);
  t.is(await count(server, runId, 'PullRequestCycleStarted'), 1, 'no second turn after the restart');

  setPullRequest(number, { headRefOid: pushed, contexts: [{ __typename: 'CheckRun', name: 'lint', status: 'COMPLETED', conclusion: 'SUCCESS', required: true }] });
  await checkNow(server, runId);
  t.is((await detail(server, runId)).standing, 'Waiting');
  setPullRequest(number, { state: 'MERGED' });
  await checkNow(server, runId);
  const done = await untilStanding(server, runId, 'Succeeded', 60_000);
  t.is(done.outcome, 'success');
  t.is(await count(server, runId, 'PullRequestCycleStarted'), 1);
  t.is(model.scriptedBodies().length, 5, 'no model request after the cycle');
  t.true((await history(server, runId)).some((e) => e.type === 'StepSucceeded' && e.data.summary === `pull request #${number} merged`));
  t.truthy(dir);
  t.deepEqual(gh.invalid, []);
});

test.serial('a review thread: a turn, a push, a reply on the thread (not resolved); the cycle limit then stops the run at a gate with the reason', async (t) => {
  t.timeout(400_000);
  const cli = realCliEnv('claude');
  const s = await testServer({ repo: origin.work, workflows: { loop: loopWorkflow(', cycles=1') } });
  t.teardown(() => s.close());
  await withCodeHost(s);
  const { runId, number } = await startWatching(t, s, cli, (d) => [writeFile(join(d, 'feature.txt'), 'renamed feature\n', 'Renaming.'), say('Renamed the feature as asked.')]);
  const first = branchHead(runId);
  const threadId = `PRRT_loop_${runId}`;
  setPullRequest(number, {
    headRefOid: first,
    reviewThreads: [{ id: threadId, line: 1, isResolved: false, isOutdated: false, comments: [{ author: 'alice', path: 'feature.txt', body: 'Please call it "renamed feature" (note 5521).', url: '' }] }],
  });
  await checkNow(s, runId);
  await untilCount(s, runId, 'PullRequestCycleEnded', 1);
  const events = await history(s, runId);
  const cause = events.find((e) => e.type === 'PullRequestCycleStarted').data.cause;
  t.like(cause, { _tag: 'Threads', headCommit: first });
  t.like(cause.threads[0], { id: threadId, author: 'alice', path: 'feature.txt', line: 1 });
  t.is(events.find((e) => e.type === 'PullRequestCycleEnded').data.result._tag, 'Pushed');
  t.not(branchHead(runId), first);
  t.is(git(origin.bare, 'show', `svc/${runId}:feature.txt`), 'renamed feature');
  const mine = (fixture.threadMutations ?? []).filter((m) => m.threadId === threadId);
  t.is(mine.length, 1, 'one reply, and no resolve without resolveThreads');
  t.is(mine[0]!.kind, 'reply');
  t.regex(mine[0]!.body ?? '', /Renamed the feature as asked\./);

  // the thread (now with svc's reply) is not a new cause; a failing check on the new head is, past the limit
  await checkNow(s, runId);
  t.is(await count(s, runId, 'PullRequestCycleStarted'), 1);
  setPullRequest(number, { headRefOid: branchHead(runId), contexts: [{ __typename: 'CheckRun', name: 'test', status: 'COMPLETED', conclusion: 'FAILURE', required: true }] });
  await checkNow(s, runId);
  const paused = await untilStanding(s, runId, 'Paused', 60_000);
  t.regex(paused.pullRequestLoop.text, /^stopped: the pull request loop used its 1 cycle/);
  const reached = (await history(s, runId)).find((e) => e.type === 'PullRequestLoopLimitReached');
  t.regex(reached.data.reason, /checks failing \(test\)/);
  t.is(await count(s, runId, 'PullRequestCycleStarted'), 1, 'no turn past the limit');
  t.deepEqual(gh.invalid, []);
});
