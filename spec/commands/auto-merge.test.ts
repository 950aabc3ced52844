import test from 'ava';
import { autoMergeRefusal, decideAutoMerge, type AutoMergeFacts } from '../../commands/auto-merge.js';
import type { CheckView } from '../../domain/pull-request.js';
import type { PullRequestView } from '../../domain/pull-request.js';

// decideAutoMerge: given the code host's view of a pull request, merge it (directly, or by the
// host's auto-merge where the repository allows it) or refuse naming the condition that failed;
// a decision on facts already recorded decides nothing.

const PR = { repository: 'acme/app', number: 7, url: 'https://github.example/acme/app/pull/7' };
const check = (name: string, outcome: CheckView['outcome'], required = true, state = outcome === 'Passed' ? 'SUCCESS' : outcome === 'Failing' ? 'FAILURE' : 'IN_PROGRESS'): CheckView =>
  ({ name, required, outcome, state });
const view = (over: Partial<PullRequestView> = {}): PullRequestView => ({
  repository: 'acme/app', number: 7, title: 't', url: PR.url, draft: false, headCommit: 'c1', state: 'OPEN', mergeable: 'MERGEABLE', mergeState: 'CLEAN',
  reviewDecision: 'APPROVED', autoMerge: null, inMergeQueue: false, checks: [check('unit', 'Passed'), check('lint', 'Failing', false)],
  reviews: [], requestedReviewers: [], reviewThreads: [], ...over,
});
const facts = (over: Partial<PullRequestView> = {}, autoMergeAllowed = false): AutoMergeFacts => ({ pullRequest: PR, view: view(over), autoMergeAllowed });
const SQUASH = { method: 'squash' as const };
const thread = (resolved: boolean) => ({ resolved, outdated: false, comments: [] });

test('green and approved: merged directly, with the facts the decision used', (t) => {
  t.deepEqual(decideAutoMerge(facts(), SQUASH, undefined), [{
    type: 'AutoMergeDecided',
    data: {
      pullRequest: PR, headCommit: 'c1', checks: [{ name: 'unit', conclusion: 'SUCCESS' }, { name: 'lint', conclusion: 'FAILURE' }],
      reviewDecision: 'APPROVED', unresolvedThreads: 0, isDraft: false, method: 'squash', outcome: 'merge', reason: 'green and approved: merging by squash',
    },
  }]);
});

test("the repository allows auto-merge: the host's auto-merge is turned on instead", (t) => {
  t.is(decideAutoMerge(facts({}, true), SQUASH, undefined)[0]?.data.outcome, 'enable-auto-merge');
  t.like(decideAutoMerge(facts({ autoMerge: { enabledAt: null, mergeMethod: 'MERGE' } }), SQUASH, undefined)[0]?.data,
    { outcome: 'enable-auto-merge', reason: "green and approved: the host's auto-merge is on already" }, 'turned on already (by a person): no direct merge');
});

test('no review required (reviewDecision null) counts as approved; no required checks: every reported check counts', (t) => {
  t.is(decideAutoMerge(facts({ reviewDecision: null }), SQUASH, undefined)[0]?.data.outcome, 'merge');
  t.is(autoMergeRefusal(view({ checks: [check('lint', 'Failing', false)] })), 'required checks failing: lint');
  t.is(autoMergeRefusal(view({ checks: [] })), null, 'no checks at all: nothing blocks');
});

const REFUSALS: readonly [string, Partial<PullRequestView>, string][] = [
  ['closed', { state: 'CLOSED' }, 'the pull request is closed, not open'],
  ['merged', { state: 'MERGED' }, 'the pull request is merged, not open'],
  ['a draft', { draft: true }, 'the pull request is a draft'],
  ['conflicting', { mergeable: 'CONFLICTING' }, 'the pull request has merge conflicts with its base'],
  ['a required check pending', { checks: [check('unit', 'Pending'), check('e2e', 'Passed')] }, 'required checks pending: unit'],
  ['required checks failing', { checks: [check('unit', 'Failing'), check('e2e', 'Failing'), check('docs', 'Pending')] }, 'required checks failing: unit, e2e'],
  ['changes requested', { reviewDecision: 'CHANGES_REQUESTED' }, 'review decision is CHANGES_REQUESTED, not APPROVED'],
  ['review required', { reviewDecision: 'REVIEW_REQUIRED' }, 'review decision is REVIEW_REQUIRED, not APPROVED'],
  ['unresolved threads', { reviewThreads: [thread(false), thread(true), thread(false)] }, '2 unresolved review thread(s)'],
];

for (const [what, over, reason] of REFUSALS) {
  test(`refused when ${what}, naming it`, (t) => {
    const [decided] = decideAutoMerge(facts(over, true), SQUASH, undefined);
    t.like(decided?.data, { outcome: 'refused', reason });
  });
}

test('the same facts again decide nothing; a change of facts (or of method) is recorded', (t) => {
  const pending = facts({ checks: [check('unit', 'Pending')] });
  const [first] = decideAutoMerge(pending, SQUASH, undefined);
  t.deepEqual(decideAutoMerge(pending, SQUASH, first!.data), [], 'polling the same pending check writes nothing');
  const passed = decideAutoMerge(facts({ checks: [check('unit', 'Passed')] }), SQUASH, first!.data);
  t.is(passed[0]?.data.outcome, 'merge', 'the check passing is news');
  t.is(decideAutoMerge(pending, { method: 'rebase' }, first!.data).length, 1, 'another method is another decision');
  t.is(decideAutoMerge(facts({ checks: [check('unit', 'Pending')], headCommit: 'c2' }), SQUASH, first!.data).length, 1, 'a new head commit is news');
  const refusedByHost = { ...passed[0]!.data, outcome: 'refused' as const, reason: 'the code host refused: …' };
  t.deepEqual(decideAutoMerge(facts({ checks: [check('unit', 'Passed')] }), SQUASH, refusedByHost), [], 'a host refusal on these facts is not asked again until they change');
});
