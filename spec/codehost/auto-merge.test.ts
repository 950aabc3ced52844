import '../helpers/env.js';
import test from 'ava';
import { fixtureRepository, type FixturePullRequest, type GitHubFixture } from '../fixtures/github/fixture.js';
import { startGitHubServer } from '../fixtures/github/server.js';
import { eventually } from '../helpers/env.js';
import { testServer } from '../helpers/server.js';
import { history, startRun, untilStanding } from '../helpers/steer.js';
import { SHIP, WEB, githubOrigin } from '../helpers/code-host-origin.js';

// Auto-merge end to end: a run delivers a pull request (a real push to a bare origin, the pull
// request opened on the GraphQL server built from GitHub's schema); its project turns auto-merge
// on; the pull request poll records each decision with its facts (once per change of facts) and
// merges with the head commit the decision used, or turns on the host's auto-merge where the
// repository allows it. The host saying "merged" is recorded as PullRequestMerged.

const JSON_TYPE = { 'content-type': 'application/json' };
const HEAD = 'a'.repeat(40);
const run = (name: string, conclusion: string | null) =>
  ({ __typename: 'CheckRun' as const, name, status: conclusion ? 'COMPLETED' : 'IN_PROGRESS', conclusion, required: true });

// One origin, GitHub server and svc server for the file's tests, run one after another: the
// origin's URL is mapped onto its bare repository in the shared temp HOME's git config.
const setup = async () => {
  const repo = fixtureRepository('acme', 'app');
  const fixture: GitHubFixture = { webHost: WEB, tokens: ['tok'], repositories: [repo] };
  const gh = await startGitHubServer(fixture);
  const s = await testServer({ repo: githubOrigin().work, workflows: { ship: SHIP } });
  for (const change of [{ _tag: 'CodeHost', graphqlUrl: gh.graphqlUrl, webHost: WEB }, { _tag: 'CodeHostToken', token: 'tok' }, { _tag: 'TriggerPollInterval', seconds: 10 }]) {
    if ((await s.send('PUT', '/api/settings', JSON.stringify(change), JSON_TYPE)).status !== 200) throw new Error('settings refused');
  }
  // a delivered pull request whose facts the test sets before auto-merge is turned on
  const deliver = async (goal: string, facts: Partial<FixturePullRequest>) => {
    const runId = await startRun(s, { goal, workflow: 'ship', title: goal });
    const done = await untilStanding(s, runId, 'Succeeded');
    const at = repo.pullRequests.findIndex((p) => p.number === done.pullRequest.number);
    const change = (over: Partial<FixturePullRequest>) => void (repo.pullRequests[at] = { ...repo.pullRequests[at]!, ...over });
    change(facts);
    return { runId, number: done.pullRequest.number as number, change };
  };
  const of = (runId: string, type: string) => async () => (await history(s, runId)).filter((e) => e.type === type);
  return { repo, fixture, gh, s, deliver, of, close: async () => { await s.close(); await gh.close(); } };
};
const shared = setup();
test.after.always(async () => (await shared).close());
const autoMerge = async (s: Awaited<typeof shared>['s'], value: unknown) =>
  (await s.send('PATCH', `/api/projects/${s.projectId}`, JSON.stringify({ autoMerge: value }), JSON_TYPE)).status;

test.serial('auto-merge is off by default and set to a method or null; bad settings are a 400 with detail', async (t) => {
  t.timeout(120_000);
  const { s } = await shared;
  t.is((await s.get(`/api/projects/${s.projectId}`)).body.autoMerge, null);
  for (const bad of [{ autoMerge: { method: 'octopus' } }, { autoMerge: 'squash' }, { autoMerge: { method: 'squash', extra: 1 } }]) {
    const r = await s.send('PATCH', `/api/projects/${s.projectId}`, JSON.stringify(bad), JSON_TYPE);
    t.is(r.status, 400, JSON.stringify(bad));
    t.truthy(r.body.detail);
  }
  const on = await s.send('PATCH', `/api/projects/${s.projectId}`, JSON.stringify({ autoMerge: { method: 'merge' } }), JSON_TYPE);
  t.deepEqual(on.body.autoMerge, { method: 'merge' });
  const off = await s.send('PATCH', `/api/projects/${s.projectId}`, JSON.stringify({ autoMerge: null }), JSON_TYPE);
  t.is(off.body.autoMerge, null);
});

test.serial('refused while a required check is pending (recorded once), then merged with the head the decision used once it passes', async (t) => {
  t.timeout(240_000);
  const { fixture, gh, s, deliver, of } = await shared;
  const pr = await deliver('ship a [write:a.txt=a]', { headRefOid: HEAD, reviewDecision: 'APPROVED', contexts: [run('unit', null)] });
  t.is(await autoMerge(s, { method: 'squash' }), 200);

  const decisions = of(pr.runId, 'AutoMergeDecided');
  const [refused] = await eventually(decisions, (d) => d.length === 1, 60_000);
  t.like(refused.data, {
    pullRequest: { repository: 'acme/app', number: pr.number }, headCommit: HEAD, checks: [{ name: 'unit', conclusion: 'IN_PROGRESS' }],
    reviewDecision: 'APPROVED', unresolvedThreads: 0, isDraft: false, method: 'squash', outcome: 'refused', reason: 'required checks pending: unit',
  });
  const asked = gh.received.length;
  await eventually(() => gh.received.length, (n) => n >= asked + 2, 30_000);
  t.is((await decisions()).length, 1, 'the next poll saw the same facts: nothing more is recorded');

  pr.change({ contexts: [run('unit', 'SUCCESS')] });
  const [merged] = await eventually(of(pr.runId, 'PullRequestMerged'), (m) => m.length === 1, 60_000);
  t.like(merged.data, { pullRequest: { number: pr.number }, headCommit: HEAD, mergeCommit: 'f'.repeat(40) });
  t.like((await decisions())[1].data, { outcome: 'merge', headCommit: HEAD, checks: [{ name: 'unit', conclusion: 'SUCCESS' }], reason: 'green and approved: merging by squash' });
  t.deepEqual(fixture.merges, [{ mutation: 'mergePullRequest', repository: 'acme/app', number: pr.number, mergeMethod: 'SQUASH', expectedHeadOid: HEAD }]);
  const thread = (await s.get(`/api/runs/${pr.runId}/thread?pageSize=200`)).body.rows.map((r: any) => r.text);
  t.true(thread.some((x: string) => /auto-merge of .*: refused: required checks pending: unit/.test(x)), 'the thread shows why it waited');
  t.deepEqual(gh.invalid, [], "every document is valid against GitHub's schema");
});

test.serial("the repository allows auto-merge: the host's auto-merge is turned on with the decision's head; the host's merge is recorded", async (t) => {
  t.timeout(240_000);
  const { repo, fixture, gh, s, deliver, of } = await shared;
  t.is(await autoMerge(s, null), 200, 'off while the pull request is made and its facts set');
  (repo as { autoMergeAllowed?: boolean }).autoMergeAllowed = true;
  fixture.merges = [];
  const pr = await deliver('ship b [write:b.txt=b]', { headRefOid: HEAD, reviewDecision: null, contexts: [run('unit', 'SUCCESS')] });
  t.is(await autoMerge(s, { method: 'rebase' }), 200);

  const [decided] = await eventually(of(pr.runId, 'AutoMergeDecided'), (d) => d.length === 1, 60_000);
  t.like(decided.data, { outcome: 'enable-auto-merge', method: 'rebase', reviewDecision: null, headCommit: HEAD });
  await eventually(async () => fixture.merges ?? [], (m) => m.length === 1, 30_000);
  t.deepEqual(fixture.merges, [{ mutation: 'enablePullRequestAutoMerge', repository: 'acme/app', number: pr.number, mergeMethod: 'REBASE', expectedHeadOid: HEAD }]);

  // the host merges later, by its own rules: svc records it when it sees it
  pr.change({ state: 'MERGED' });
  const [merged] = await eventually(of(pr.runId, 'PullRequestMerged'), (m) => m.length === 1, 60_000);
  t.like(merged.data, { pullRequest: { number: pr.number }, headCommit: HEAD, mergeCommit: null });
  t.is(fixture.merges?.length, 1, 'auto-merge was turned on once, not at every poll');
  t.is((await of(pr.runId, 'AutoMergeDecided')()).length, 1);
  t.deepEqual(gh.invalid, []);
});
