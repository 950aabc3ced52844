import test from 'ava';
import { fixtureRepository, type FixturePullRequest, type GitHubFixture } from '../fixtures/github/fixture.js';
import { startGitHubServer } from '../fixtures/github/server.js';
import { WEB, git, githubOrigin } from '../helpers/code-host-origin.js';
import { eventually } from '../helpers/env.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { history, startRun, untilStanding } from '../helpers/steer.js';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';
import { shot } from '../helpers/shots.js';

// The pull request loop on the run page in real Chromium: the run's header and PR tab say what
// the loop is doing, "Check now" reads the pull request at once, and the cycle it starts shows in
// the thread. The agent here is the scripted stand-in (the real CLI's loop is spec/engine/pr-loop.test.ts).
// Screenshot: /tmp/shots/pr-loop-*.png.

test.after.always(closeBrowser);

const LOOP = `digraph loop {
  start [kind=start]
  work  [kind=agent, prompt="{{goal}}"]
  ship  [kind=deliver, watch=true]
  done  [kind=exit]
  start -> work -> ship -> done
}`;

const setting = async (s: TestServer, change: Record<string, unknown>) => {
  const r = await s.send('PUT', '/api/settings', JSON.stringify(change));
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
};

test('the run page shows the loop, Check now starts a cycle on a failing check, the thread shows it', async (t) => {
  const { bare, work } = githubOrigin();
  const fixture: GitHubFixture = { webHost: WEB, tokens: ['tok'], repositories: [fixtureRepository('acme', 'app')] };
  const gh = await startGitHubServer(fixture);
  t.teardown(() => gh.close());
  const server = await testServer({ repo: work, workflows: { loop: LOOP } });
  t.teardown(() => server.close());
  await setting(server, { _tag: 'CodeHost', graphqlUrl: gh.graphqlUrl, webHost: WEB });
  await setting(server, { _tag: 'CodeHostToken', token: 'tok' });
  await setting(server, { _tag: 'PullRequestWatchInterval', seconds: 3600 });
  t.is((await server.send('PUT', '/api/settings', JSON.stringify({ _tag: 'PullRequestWatchInterval', seconds: 5 }))).status, 400, 'at least 10 seconds');

  const runId = await startRun(server, { goal: 'Add the feature file [write:feature.txt=done]', title: 'Add the feature', workflow: 'loop' });
  const watching = await untilStanding(server, runId, 'Waiting');
  const number = watching.pullRequestLoop.number as number;
  t.is(watching.pullRequestLoop.text, `watching pull request #${number}`);

  // only a watching run can be asked; a body with fields is refused by name
  const other = await startRun(server, { goal: 'x', workflow: 'linear' });
  await untilStanding(server, other, 'Succeeded');
  const refused = await server.post(`/api/runs/${other}/pull-request/check`, {});
  t.is(refused.status, 409);
  t.regex(refused.body.detail, /not watching a pull request/);
  t.is((await server.post(`/api/runs/${runId}/pull-request/check`, { now: true })).status, 400);
  t.is((await server.post('/api/runs/nope/pull-request/check', {})).status, 404);

  const app = await openApp(t, { viewport: VIEWPORTS[0]!, server });
  await app.goto(`/runs/${runId}?tab=pr`);
  await app.page.locator('.pr-loop-text', { hasText: `watching pull request #${number}` }).waitFor();
  await app.axe(t, 'the PR tab of a watching run');

  const prs = fixture.repositories[0]!.pullRequests;
  const i = prs.findIndex((p) => p.number === number);
  const failing: Partial<FixturePullRequest> = { headRefOid: git(bare, 'rev-parse', `svc/${runId}`), contexts: [{ __typename: 'CheckRun', name: 'lint', status: 'COMPLETED', conclusion: 'FAILURE', required: true, text: 'x is unused' }] };
  prs[i] = { ...prs[i]!, ...failing };
  await app.page.getByRole('button', { name: 'Check now' }).click();
  await eventually(() => history(server, runId), (h) => h.some((e) => e.type === 'PullRequestCycleEnded'));
  await app.page.locator('.pr-loop-fact', { hasText: `watching pull request #${number} (1 of 3 cycles used)` }).waitFor();
  // Check now is disabled while it asks; the keyboard's place is on it again afterwards
  await app.page.waitForFunction(() => document.activeElement?.textContent === 'Check now', undefined, { timeout: 10_000 });
  await shot(app.page, '/tmp/shots/pr-loop-pr-tab.png', { fullPage: true });

  await app.goto(`/runs/${runId}`);
  await app.page.getByText('cycle 1 of 3: fixing `lint`').first().waitFor();
  await app.page.getByText(/cycle 1 ended, pushed/).first().waitFor();
  t.pass();
});
