import '../helpers/env.js';
import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureRepository, type FixturePullRequest, type GitHubFixture } from '../fixtures/github/fixture.js';
import { startGitHubServer, type GitHubTestServer } from '../fixtures/github/server.js';
import { WEB, git, githubOrigin } from '../helpers/code-host-origin.js';
import { eventually } from '../helpers/env.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { control, history, startRun, untilStanding } from '../helpers/steer.js';

// The pull request loop with the scripted agent standing in for a CLI (the real claude CLI's loop
// is spec/engine/pr-loop.test.ts): conflicts with the base, resolving answered threads, and a
// restart in the middle of a cycle. The scripted agent acts on directives in its prompt, so a
// check's output can hold one ([until:go.txt]: wait for that file).

const loop = (attrs = '') => `digraph loop {
  start [kind=start]
  work  [kind=agent, prompt="{{goal}}"]
  ship  [kind=deliver, watch=true${attrs}]
  done  [kind=exit]
  start -> work -> ship -> done
}`;

// one origin (its URL is mapped onto the bare repository in the shared HOME) and code host
const { bare, work } = githubOrigin();
const fixture: GitHubFixture = { webHost: WEB, tokens: ['tok'], repositories: [fixtureRepository('acme', 'app')] };
let gh: GitHubTestServer;
test.before(async () => { gh = await startGitHubServer(fixture); });
test.after.always(() => gh.close());

const serve = async (attrs = '', home?: string): Promise<TestServer> => {
  const s = await testServer({ repo: work, workflows: { loop: loop(attrs) }, ...(home ? { home } : {}) });
  for (const change of [{ _tag: 'CodeHost', graphqlUrl: gh.graphqlUrl, webHost: WEB }, { _tag: 'CodeHostToken', token: 'tok' }, { _tag: 'PullRequestWatchInterval', seconds: 3600 }]) {
    await s.send('PUT', '/api/settings', JSON.stringify(change));
  }
  return s;
};

/** the host's view of the run's pull request: its head is the run's branch on origin */
const hostSays = (runId: string, number: number, over: Partial<FixturePullRequest>): void => {
  const prs = fixture.repositories[0]!.pullRequests;
  const i = prs.findIndex((p) => p.number === number);
  prs[i] = { ...prs[i]!, headRefOid: git(bare, 'rev-parse', `svc/${runId}`), ...over };
};

const watching = async (s: TestServer, goal: string) => {
  const runId = await startRun(s, { goal, workflow: 'loop' });
  return { runId, number: (await untilStanding(s, runId, 'Waiting')).pullRequestLoop.number as number };
};

const check = async (s: TestServer, runId: string): Promise<void> => {
  const r = await s.post(`/api/runs/${runId}/pull-request/check`, {});
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
};

const moveMain = (work: string, file: string, text: string): void => {
  git(work, 'checkout', '-q', 'main');
  writeFileSync(join(work, file), text);
  git(work, 'add', '-A');
  git(work, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', `main changes ${file}`);
  git(work, 'push', '-q', 'origin', 'main');
};

const ended = async (s: TestServer, runId: string, n: number) =>
  (await eventually(() => history(s, runId), (h) => h.filter((e) => e.type === 'PullRequestCycleEnded').length >= n, 60_000)).filter((e) => e.type === 'PullRequestCycleEnded')[n - 1];

test.serial('a conflict the host reports: a clean merge of the base is pushed without a turn; a conflicting one goes to the agent', async (t) => {
  const s = await serve();
  t.teardown(() => s.close());
  const { runId, number } = await watching(s, 'Add the feature file [write:feature.txt=mine]');

  moveMain(work, 'other.txt', 'from main\n');
  hostSays(runId, number, { mergeable: 'CONFLICTING' });
  t.is((await s.post(`/api/runs/${runId}/pull-request/check`, {})).status, 200);
  const clean = await ended(s, runId, 1);
  t.like(clean.data.result, { _tag: 'Pushed', summary: 'merged main without conflicts' });
  t.is(git(bare, 'show', `svc/${runId}:other.txt`), 'from main');
  t.is(git(bare, 'show', `svc/${runId}:.turns.log`).split('\n').length, 1, 'no agent turn for a clean merge');

  moveMain(work, 'feature.txt', 'theirs\n');
  hostSays(runId, number, { mergeable: 'CONFLICTING' });
  await s.post(`/api/runs/${runId}/pull-request/check`, {});
  const handed = await ended(s, runId, 2);
  t.is(handed.data.result._tag, 'Pushed');
  const started = (await history(s, runId)).filter((e) => e.type === 'PullRequestCycleStarted');
  t.deepEqual(started.map((e) => e.data.cause._tag), ['Conflict', 'Conflict']);
  const turns = git(bare, 'show', `svc/${runId}:.turns.log`).split('\n');
  t.is(turns.length, 2, 'one agent turn, on the conflicting merge');
  t.regex(turns[1]!, /resumed/, 'the turn resumed the run\'s session');
  t.deepEqual(gh.invalid, []);
});

test.serial('resolveThreads=true: the thread is answered, then resolved', async (t) => {
  const s = await serve(', resolveThreads=true');
  t.teardown(() => s.close());
  const { runId, number } = await watching(s, 'Add it [write:a.txt=a]');
  const id = `PRRT_resolve_${runId}`;
  hostSays(runId, number, { reviewThreads: [{ id, line: 1, isResolved: false, isOutdated: false, comments: [{ author: 'carol', path: 'a.txt', body: 'more [write:a.txt=b]', url: '' }] }] });
  await check(s, runId);
  const end = await ended(s, runId, 1);
  t.is(end.data.result._tag, 'Pushed');
  t.is(git(bare, 'show', `svc/${runId}:a.txt`), 'b', 'the agent acted on the thread');
  t.deepEqual((fixture.threadMutations ?? []).filter((m) => m.threadId === id).map((m) => m.kind), ['reply', 'resolve']);
  const answered = (await history(s, runId)).find((e) => e.type === 'PullRequestThreadsAnswered');
  t.deepEqual(answered.data, { stepId: end.data.stepId, cycle: 1, replied: [id], resolved: [id] });
});

test.serial('a restart in the middle of a cycle: the cycle is recorded interrupted and its cause never starts a second turn', async (t) => {
  const s = await serve();
  const { runId, number } = await watching(s, 'Add it [write:b.txt=b]');
  hostSays(runId, number, { contexts: [{ __typename: 'CheckRun', name: 'unit', status: 'COMPLETED', conclusion: 'FAILURE', required: true, text: 'slow failure [until:go.txt]' }] });
  await check(s, runId);
  const dir = (await s.get(`/api/runs/${runId}/worktree`)).body.folders[0].directory as string;
  const turns = () => readFileSync(join(dir, '.turns.log'), 'utf8').trim().split('\n');
  await eventually(turns, (l) => l.length === 2, 30_000);
  await s.close();

  const again = await serve('', s.home);
  t.teardown(() => again.close());
  const end = await ended(again, runId, 1);
  t.deepEqual(end.data.result, { _tag: 'Interrupted', reason: 'the service stopped during this cycle; its cause is recorded, so it is not taken up again' });
  await check(again, runId);
  await check(again, runId);
  t.is((await history(again, runId)).filter((e) => e.type === 'PullRequestCycleStarted').length, 1);
  t.is(turns().length, 2, 'no second turn');
  t.is((await untilStanding(again, runId, 'Waiting')).pullRequestLoop.text, `watching pull request #${number} (1 of 3 cycles used)`);
});

test.serial('Pause and Resume: the step watches the same pull request again, opens no second one, and takes no cause up twice', async (t) => {
  const s = await serve();
  t.teardown(() => s.close());
  const { runId, number } = await watching(s, 'Add it [write:c.txt=c]');
  hostSays(runId, number, { contexts: [{ __typename: 'CheckRun', name: 'unit', status: 'COMPLETED', conclusion: 'FAILURE', required: true }] });
  await check(s, runId);
  await ended(s, runId, 1);
  hostSays(runId, number, { headRefOid: (await history(s, runId)).find((e) => e.type === 'PullRequestCycleStarted').data.cause.headCommit });
  const prsBefore = fixture.repositories[0]!.pullRequests.length;
  t.is((await control(s, runId, 'Pause')).body.outcome, 'Applied');
  t.is((await control(s, runId, 'Resume')).body.outcome, 'Applied');
  const back = await untilStanding(s, runId, 'Waiting');
  t.is(back.pullRequestLoop.number, number);
  t.is(back.pullRequestLoop.text, `watching pull request #${number} (1 of 3 cycles used)`);
  await check(s, runId);
  t.is(fixture.repositories[0]!.pullRequests.length, prsBefore, 'no second pull request');
  const events = await history(s, runId);
  t.is(events.filter((e) => e.type === 'PullRequestCycleStarted').length, 1, 'the failing head recorded before the pause is not taken up again');
  t.is(events.filter((e) => e.type === 'PullRequestDelivered').length, 1);
  t.is(events.filter((e) => e.type === 'PullRequestWatchStarted').length, 2);
});
