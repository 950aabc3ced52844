import '../helpers/env.js';
import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureRepository, type GitHubFixture } from '../fixtures/github/fixture.js';
import { startGitHubServer } from '../fixtures/github/server.js';
import { WEB, git, githubOrigin } from '../helpers/code-host-origin.js';
import { eventually } from '../helpers/env.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { history, startRun, untilStanding } from '../helpers/steer.js';

// The pull request loop on a conflict with the base (the scripted agent stands in): svc fetches
// the base and merges it into the run's branch; a clean merge is pushed without a turn, a
// conflicting one is aborted and handed to the agent as a turn.

const LOOP = `digraph loop {
  start [kind=start]
  work  [kind=agent, prompt="{{goal}}"]
  ship  [kind=deliver, watch=true]
  done  [kind=exit]
  start -> work -> ship -> done
}`;

const moveMain = (work: string, file: string, text: string): void => {
  git(work, 'checkout', '-q', 'main');
  writeFileSync(join(work, file), text);
  git(work, 'add', '-A');
  git(work, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', `main changes ${file}`);
  git(work, 'push', '-q', 'origin', 'main');
};

const ended = async (s: TestServer, runId: string, n: number) =>
  (await eventually(() => history(s, runId), (h) => h.filter((e) => e.type === 'PullRequestCycleEnded').length >= n, 60_000)).filter((e) => e.type === 'PullRequestCycleEnded')[n - 1];

test('a conflict the host reports: a clean merge of the base is pushed without a turn; a conflicting one goes to the agent', async (t) => {
  const { bare, work } = githubOrigin();
  const fixture: GitHubFixture = { webHost: WEB, tokens: ['tok'], repositories: [fixtureRepository('acme', 'app')] };
  const gh = await startGitHubServer(fixture);
  t.teardown(() => gh.close());
  const s = await testServer({ repo: work, workflows: { loop: LOOP } });
  t.teardown(() => s.close());
  for (const change of [{ _tag: 'CodeHost', graphqlUrl: gh.graphqlUrl, webHost: WEB }, { _tag: 'CodeHostToken', token: 'tok' }, { _tag: 'PullRequestWatchInterval', seconds: 3600 }]) {
    await s.send('PUT', '/api/settings', JSON.stringify(change));
  }
  const runId = await startRun(s, { goal: 'Add the feature file [write:feature.txt=mine]', workflow: 'loop' });
  const number = (await untilStanding(s, runId, 'Waiting')).pullRequestLoop.number as number;
  const prs = fixture.repositories[0]!.pullRequests;
  const hostSays = () => { const i = prs.findIndex((p) => p.number === number); prs[i] = { ...prs[i]!, headRefOid: git(bare, 'rev-parse', `svc/${runId}`), mergeable: 'CONFLICTING' }; };

  moveMain(work, 'other.txt', 'from main\n');
  hostSays();
  t.is((await s.post(`/api/runs/${runId}/pull-request/check`, {})).status, 200);
  const clean = await ended(s, runId, 1);
  t.like(clean.data.result, { _tag: 'Pushed', summary: 'merged main without conflicts' });
  t.is(git(bare, 'show', `svc/${runId}:other.txt`), 'from main');
  t.is(git(bare, 'show', `svc/${runId}:.turns.log`).split('\n').length, 1, 'no agent turn for a clean merge');

  moveMain(work, 'feature.txt', 'theirs\n');
  hostSays();
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
