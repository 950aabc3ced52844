import '../helpers/env.js';
import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureRepository } from '../fixtures/github/fixture.js';
import { startGitHubServer } from '../fixtures/github/server.js';
import { testServer } from '../helpers/server.js';
import { detail, startRun, untilStanding } from '../helpers/steer.js';
import { SHIP, WEB, git, githubOrigin } from '../helpers/code-host-origin.js';

// A deliver step end to end: the agent's work is pushed to origin (a real bare repository behind a
// GitHub-looking URL) and a pull request is opened on a GraphQL server built from GitHub's schema.


test('a deliver step pushes the run branch and opens a pull request, recorded on the run and readable by run', async (t) => {
  const { bare, work } = githubOrigin();
  const fixture = { webHost: WEB, tokens: ['tok'], repositories: [fixtureRepository('acme', 'app')] };
  const gh = await startGitHubServer(fixture);
  t.teardown(() => gh.close());
  const s = await testServer({ repo: work, workflows: { ship: SHIP } });
  t.teardown(() => s.close());
  await s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'CodeHost', graphqlUrl: gh.graphqlUrl, webHost: WEB }));
  await s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'CodeHostToken', token: 'tok' }));

  const runId = await startRun(s, { goal: 'ship it [write:feature.txt=done]', workflow: 'ship', title: 'Ship the feature' });
  const done = await untilStanding(s, runId, 'Succeeded');
  t.like(done.pullRequest, { repository: 'acme/app', url: `https://${WEB}/acme/app/pull/${done.pullRequest.number}` });
  t.is(done.pullRequests.length, 1);
  t.is(git(bare, 'show', `svc/${runId}:feature.txt`), 'done');
  t.is(git(work, 'status', '--porcelain'), '', 'the user checkout is untouched');

  const pr = await s.get(`/api/runs/${runId}/pull-request`);
  t.is(pr.status, 200, JSON.stringify(pr.body));
  t.like(pr.body.pullRequest, { repository: 'acme/app', number: done.pullRequest.number, title: 'Ship the feature', state: 'OPEN', draft: false });
  t.deepEqual(gh.invalid, [], 'every query the service sent is valid against GitHub\'s schema');
  // issue 29: the deliver step's pull request says what the app's Create pull request says: the
  // link back, the goal in a fence it cannot close, the steps (lib/codehost/pull-request-text.ts)
  const opened = fixture.repositories[0]!.pullRequests.find((p) => p.number === done.pullRequest.number)!;
  t.true(opened.body.startsWith(`Opened from svc run [${runId}](${s.url}/runs/${runId}).`), opened.body);
  t.true(opened.body.includes('### Goal\n\n```text\nship it [write:feature.txt=done]\n```'), opened.body);

  const dir = (await s.get(`/api/runs/${runId}/worktree`)).body.folders[0].directory;
  writeFileSync(join(dir, 'later.txt'), 'more work');
  const secured = await s.post(`/api/runs/${runId}/secure`, { reason: 'end of day' });
  t.is(secured.status, 200, JSON.stringify(secured.body));
  t.like(secured.body.folders[0], { branch: `svc/${runId}`, backup: false });
  t.truthy(secured.body.folders[0].commit);
  t.is(git(bare, 'show', `svc/${runId}:later.txt`), 'more work');
  t.is((await detail(s, runId)).standing, 'Succeeded');
});

test('a run with no pull request, and a worktree that is gone, are refused clearly', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  const runId = await startRun(s, { goal: 'x', workflow: 'linear', start: false });
  const pr = await s.get(`/api/runs/${runId}/pull-request`);
  t.is(pr.status >= 400 && pr.status < 500, true, JSON.stringify(pr.body));
  t.truthy(pr.body.detail);
  const wt = await s.get(`/api/runs/${runId}/worktree`);
  t.is(wt.status, 409);
  t.regex(wt.body.detail, /no worktree/);
  const sec = await s.post(`/api/runs/${runId}/secure`, {});
  t.is(sec.status, 409);
});
