import test from 'ava';
import { decideChecksFailed, type ChecksSeen } from '../../commands/pr-checks-failed.js';

// When a pull request's checks are news worth a run event: open, something failing, on a head
// commit not already recorded failing.

const PR = { repository: 'acme/app', number: 7, url: 'https://github.example/acme/app/pull/7' };
const seen = (over: Partial<ChecksSeen> = {}): ChecksSeen => ({
  state: 'OPEN', headCommit: 'c1',
  checks: [{ name: 'unit', outcome: 'Failing' }, { name: 'lint', outcome: 'Passed' }, { name: 'e2e', outcome: 'Pending' }], ...over,
});

test('an open pull request with a failing check on a new head commit: recorded, naming only the failing checks', (t) => {
  t.deepEqual(decideChecksFailed(PR, seen(), undefined), { type: 'PullRequestChecksFailed', data: { pullRequest: PR, headCommit: 'c1', failing: ['unit'] } });
  t.deepEqual(decideChecksFailed(PR, seen({ headCommit: 'c2' }), 'c1')?.data.failing, ['unit'], 'a new push that fails again is news');
});

test('nothing to record: the same head commit again, nothing failing, no checks, or no longer open', (t) => {
  t.is(decideChecksFailed(PR, seen(), 'c1'), null);
  t.is(decideChecksFailed(PR, seen({ checks: [{ name: 'unit', outcome: 'Pending' }, { name: 'lint', outcome: 'Passed' }] }), undefined), null);
  t.is(decideChecksFailed(PR, seen({ checks: [] }), undefined), null);
  t.is(decideChecksFailed(PR, seen({ state: 'MERGED' }), undefined), null);
  t.is(decideChecksFailed(PR, seen({ state: 'CLOSED' }), undefined), null);
});
