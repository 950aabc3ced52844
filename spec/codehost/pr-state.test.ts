import '../helpers/env.js';
import test from 'ava';
import { readPullRequestState, loopSeen, SVC_MARKER } from '../../lib/codehost/pr-state.js';
import { LOW_BUDGET, nextReadIn } from '../../lib/engine/pr-loop.js';
import { fixturePullRequest, fixtureRepository, type GitHubFixture } from '../fixtures/github/fixture.js';
import { startGitHubServer } from '../fixtures/github/server.js';

// The pull request loop's one read, against the GitHub test server (every document validated
// against GitHub's schema): check output as the excerpt, thread and comment ids, the budget from
// the rate-limit headers and the rateLimit field; and what the loop acts on of it.

const WEB = 'github.example';
const repo = { owner: 'acme', name: 'app' };
const pr = fixturePullRequest(repo, WEB, {
  number: 9, headRefOid: 'h1', mergeable: 'CONFLICTING',
  contexts: [
    { __typename: 'CheckRun', name: 'lint', status: 'COMPLETED', conclusion: 'FAILURE', required: true, summary: '2 problems', text: 'a.ts:1 bad', annotations: [{ path: 'a.ts', line: 1, title: 'no-var', message: 'use let' }] },
    { __typename: 'CheckRun', name: 'docs', status: 'COMPLETED', conclusion: 'FAILURE', required: false },
    { __typename: 'StatusContext', context: 'ci/unit', state: 'PENDING', required: true },
  ],
  reviewThreads: [
    { id: 'T1', line: 4, isResolved: false, isOutdated: false, comments: [{ author: 'alice', path: 'a.ts', body: 'why?', url: '' }, { author: 'bob', path: 'a.ts', body: 'agreed', url: '' }] },
    { id: 'T2', isResolved: true, isOutdated: false, comments: [{ author: 'alice', path: 'b.ts', body: 'done', url: '' }] },
    { id: 'T3', isResolved: false, isOutdated: true, comments: [{ author: 'alice', path: 'c.ts', body: 'old', url: '' }] },
    { id: 'T4', isResolved: false, isOutdated: false, comments: [{ author: 'svc-bot', path: 'd.ts', body: `svc said ${SVC_MARKER}`, url: '' }] },
  ],
});

test('one read: checks with their output, threads with ids, budget; the loop acts on required failures and people\'s open threads', async (t) => {
  const resetAt = new Date(Date.now() + 600_000).toISOString().replace(/\.\d+Z$/, '.000Z');
  const fixture: GitHubFixture = { webHost: WEB, tokens: ['tok'], repositories: [fixtureRepository('acme', 'app', [pr])], rateLimit: { remaining: 7, resetAt } };
  const gh = await startGitHubServer(fixture);
  t.teardown(() => gh.close());
  const read = await readPullRequestState({ graphqlUrl: gh.graphqlUrl, webHost: WEB, token: 'tok' }, 'acme', 'app', 9);
  if (read._tag === 'Left') return void t.fail(read.left.detail);
  t.deepEqual(gh.invalid, []);
  const { state, budget } = read.right;
  t.like(state, { state: 'OPEN', headCommit: 'h1', base: 'main', mergeable: 'CONFLICTING' });
  t.deepEqual(state.checks[0], { name: 'lint', required: true, outcome: 'Failing', conclusion: 'FAILURE', excerpt: '2 problems\na.ts:1 bad\na.ts:1: no-var: use let' });
  t.deepEqual(budget, { remaining: 7, resetAt: new Date(Math.floor(Date.parse(resetAt) / 1000) * 1000).toISOString() });
  const seen = loopSeen(state);
  t.deepEqual(seen.failing, [{ name: 'lint', conclusion: 'FAILURE', excerpt: '2 problems\na.ts:1 bad\na.ts:1: no-var: use let' }], 'required and failing only');
  t.deepEqual(seen.threads, [{ id: 'T1', author: 'alice', path: 'a.ts', line: 4, body: 'alice: why?\n\nbob: agreed', commentIds: ['T1_C0', 'T1_C1'] }], 'open, current, and started by a person');
});

test('the next read: the interval, or the host\'s reset when the budget runs low', (t) => {
  const now = new Date('2026-11-24T10:00:00.000Z');
  t.is(nextReadIn(60_000, null, now), 60_000);
  t.is(nextReadIn(60_000, { remaining: LOW_BUDGET, resetAt: '2026-11-24T11:00:00.000Z' }, now), 60_000);
  t.is(nextReadIn(60_000, { remaining: LOW_BUDGET - 1, resetAt: '2026-11-24T11:00:00.000Z' }, now), 3_600_000);
  t.is(nextReadIn(60_000, { remaining: 0, resetAt: '2026-11-24T10:00:10.000Z' }, now), 60_000, 'never sooner than the interval');
});
