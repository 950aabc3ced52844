import '../helpers/env.js';
import test from 'ava';
import { fixtureRepository, type FixturePullRequest } from '../fixtures/github/fixture.js';
import { startGitHubServer } from '../fixtures/github/server.js';
import { eventually } from '../helpers/env.js';
import { testServer } from '../helpers/server.js';
import { history, startRun, untilStanding } from '../helpers/steer.js';
import { chatOver } from './live-kit.js';
import { SHIP, WEB, githubOrigin } from '../helpers/code-host-origin.js';

// The checks-failed wake's source: a run delivers a pull request (a real push, a pull request
// opened on the GraphQL server built from GitHub's schema); once the code host reports a failing
// check, the run records PullRequestChecksFailed (once per head commit) and its owning
// supervisor is woken with it.

const JSON_TYPE = { 'content-type': 'application/json' };

const failing = (name: string) => ({ __typename: 'CheckRun' as const, name, status: 'COMPLETED', conclusion: 'FAILURE', required: true });

test('failing checks on a delivered pull request are recorded on the run once per head commit and wake its owner', async (t) => {
  t.timeout(200_000);
  const repo = fixtureRepository('acme', 'app');
  const gh = await startGitHubServer({ webHost: WEB, tokens: ['tok'], repositories: [repo] });
  t.teardown(() => gh.close());
  const s = await testServer({ repo: githubOrigin().work, workflows: { ship: SHIP } });
  t.teardown(() => s.close());
  for (const change of [
    { _tag: 'CodeHost', graphqlUrl: gh.graphqlUrl, webHost: WEB }, { _tag: 'CodeHostToken', token: 'tok' },
    { _tag: 'TriggerPollInterval', seconds: 10 }, { _tag: 'Supervisors', enabled: true },
  ]) t.is((await s.send('PUT', '/api/settings', JSON.stringify(change), JSON_TYPE)).status, 200);
  const global = (await s.get('/api/supervisors')).body[0].id as string;
  // paused: the wake is recorded and waits, so no turn runs in this test
  t.is((await s.send('PATCH', `/api/supervisors/${global}`, JSON.stringify({ paused: true }), JSON_TYPE)).status, 200);

  const runId = await startRun(s, { goal: 'ship it [write:feature.txt=done]', workflow: 'ship', title: 'Ship the feature' });
  const done = await untilStanding(s, runId, 'Succeeded');
  const at = repo.pullRequests.findIndex((p) => p.number === done.pullRequest.number);
  const fail = (over: Partial<FixturePullRequest>) => void (repo.pullRequests[at] = { ...repo.pullRequests[at]!, ...over });
  fail({ headRefOid: 'a'.repeat(40), contexts: [failing('unit tests'), { __typename: 'StatusContext', context: 'lint', state: 'SUCCESS', required: false }] });

  const checksFailed = async () => (await history(s, runId)).filter((e) => e.type === 'PullRequestChecksFailed');
  const first = await eventually(checksFailed, (e) => e.length === 1, 60_000);
  t.like(first[0].data, { pullRequest: { repository: 'acme/app', number: done.pullRequest.number }, headCommit: 'a'.repeat(40), failing: ['unit tests'] });
  const chat = await eventually(() => chatOver(s.get)(global), (c) => c.some((e) => e.type === 'WakeNoticed'));
  t.like(chat.find((e) => e.type === 'WakeNoticed')!.data, { kind: 'checksFailed', runId });
  t.regex(chat.find((e) => e.type === 'WakeNoticed')!.data.text, /pull request has failing checks$/);
  t.regex(chat.find((e) => e.type === 'WakeNoticed')!.data.quote, /failing checks: .*unit tests/, "the checks' names are kept apart, as the run's words");
  t.regex(chat.find((e) => e.type === 'WakesHeld')!.data.reason, /paused/, 'paused: the wake waits, and the chat says why');

  // the same failing commit on the next poll is not news; a new push that fails again is
  const asked = gh.received.length;
  await eventually(() => gh.received.length, (n) => n > asked, 30_000);
  t.is((await checksFailed()).length, 1, 'the same head commit is recorded once');
  fail({ headRefOid: 'b'.repeat(40), contexts: [failing('unit tests'), failing('e2e')] });
  const second = await eventually(checksFailed, (e) => e.length === 2, 60_000);
  t.deepEqual(second[1].data.failing, ['unit tests', 'e2e']);
  t.is((await chatOver(s.get)(global)).filter((e) => e.type === 'WakeNoticed').length, 2);
  const thread = (await s.get(`/api/runs/${runId}/thread?pageSize=200`)).body.rows.map((r: any) => r.text);
  t.true(thread.some((x: string) => /checks failed on pull request .*: unit tests, e2e/.test(x)), 'the thread shows it');
  t.deepEqual(gh.invalid, [], 'every query is valid against GitHub\'s schema');
});
