import test from 'ava';
import { decideEndCycle, decidePullRequestPoll, decideThreadsAnswered, decideWatchPullRequest, type PullRequestSeen } from '../../commands/pr-loop.js';
import type { CycleCause, RunEvent } from '../../journal/run-events.js';
import { standingOf } from '../../projections/standing.js';
import { created, given, prepared, queued, runDecider, started, stepStarted } from '../helpers/given.js';

// The pull request loop's decisions: what one read of the watched pull request becomes, exactly
// once per cause, and the cycle limit.

const PR = { repository: 'acme/app', number: 4, url: 'https://github.example/acme/app/pull/4' };
const SHIPPING: RunEvent[] = [created, queued, started, prepared, stepStarted('s2', 'ship', 'deliver')];
const watchStarted = (cycles = 2): RunEvent => ({ type: 'PullRequestWatchStarted', data: { stepId: 's2', pullRequest: PR, cycles, resolveThreads: false } });
const WATCHING: RunEvent[] = [...SHIPPING, { type: 'PullRequestDelivered', data: { stepId: 's2', pullRequest: PR } }, watchStarted()];

const seen = (over: Partial<PullRequestSeen> = {}): PullRequestSeen => ({ state: 'OPEN', headCommit: 'c1', base: 'main', mergeable: 'MERGEABLE', failing: [], threads: [], ...over });
const lint = { name: 'lint', conclusion: 'FAILURE', excerpt: 'x is unused' };
const thread = (id: string) => ({ id, author: 'alice', path: 'a.ts', line: 3, body: 'alice: rename it', commentIds: [`${id}c`] });
const checks = (head: string): CycleCause => ({ _tag: 'Checks', headCommit: head, failing: [lint] });
const cycleStarted = (cycle: number, cause: CycleCause, of = 2): RunEvent => ({ type: 'PullRequestCycleStarted', data: { stepId: 's2', cycle, of, cause } });
const cycleEnded = (cycle: number): RunEvent => ({ type: 'PullRequestCycleEnded', data: { stepId: 's2', cycle, result: { _tag: 'Pushed', headCommit: 'c2', summary: 'fixed' } } });

const poll = runDecider(decidePullRequestPoll);

test('a delivered pull request is watched: delivered and watch recorded together, once', (t) => {
  const watch = runDecider(decideWatchPullRequest)(t);
  const c = { stepId: 's2', pullRequest: PR, cycles: 2, resolveThreads: false };
  watch.given(...SHIPPING).when(c).then({ type: 'PullRequestDelivered', data: { stepId: 's2', pullRequest: PR } }, watchStarted());
  watch.given(...WATCHING).when(c).thenNothing();
});

test('watched again after an interruption (a pause): only the watch is recorded, and the causes taken up still count', (t) => {
  const paused: RunEvent[] = [...WATCHING, cycleStarted(1, checks('c1')), { type: 'StepInterrupted', data: { stepId: 's2', node: 'ship', reason: 'paused' } }, stepStarted('s3', 'ship', 'deliver')];
  const again = { type: 'PullRequestWatchStarted', data: { stepId: 's3', pullRequest: PR, cycles: 2, resolveThreads: false } } as RunEvent;
  runDecider(decideWatchPullRequest)(t).given(...paused).when({ stepId: 's3', pullRequest: PR, cycles: 2, resolveThreads: false, again: true }).then(again);
  t.like(given(...paused, again).prWatch, { stepId: 's3', started: 1, causes: ['checks:c1'] });
  t.is(given(...paused, again).prWatch?.open, undefined);
  poll(t).given(...paused, again).when({ stepId: 's3', seen: seen({ failing: [lint] }) }).thenNothing();
});

test('failing required checks on a head not taken up: a cycle starts with them as its cause', (t) => {
  poll(t).given(...WATCHING).when({ stepId: 's2', seen: seen({ failing: [lint] }) }).then(cycleStarted(1, checks('c1')));
});

test('the same failing head again (the next poll, or after a restart): nothing; a new failing head is a new cause', (t) => {
  poll(t).given(...WATCHING, cycleStarted(1, checks('c1')), cycleEnded(1)).when({ stepId: 's2', seen: seen({ failing: [lint] }) }).thenNothing();
  poll(t).given(...WATCHING, cycleStarted(1, checks('c1'))).when({ stepId: 's2', seen: seen({ failing: [lint] }) }).thenNothing();
  poll(t).given(...WATCHING, cycleStarted(1, checks('c1')), cycleEnded(1)).when({ stepId: 's2', seen: seen({ headCommit: 'c2', failing: [lint] }) })
    .then(cycleStarted(2, checks('c2')));
});

test('new review threads are one cause; a thread taken up is never taken up again', (t) => {
  const threads: CycleCause = { _tag: 'Threads', headCommit: 'c1', threads: [thread('T1')] };
  poll(t).given(...WATCHING).when({ stepId: 's2', seen: seen({ threads: [thread('T1')] }) }).then(cycleStarted(1, threads));
  poll(t).given(...WATCHING, cycleStarted(1, threads), cycleEnded(1)).when({ stepId: 's2', seen: seen({ headCommit: 'c2', threads: [thread('T1'), thread('T2')] }) })
    .then(cycleStarted(2, { _tag: 'Threads', headCommit: 'c2', threads: [thread('T2')] }));
});

test('a conflict with the base, once per head', (t) => {
  const conflict: CycleCause = { _tag: 'Conflict', headCommit: 'c1', base: 'main' };
  poll(t).given(...WATCHING).when({ stepId: 's2', seen: seen({ mergeable: 'CONFLICTING' }) }).then(cycleStarted(1, conflict));
  poll(t).given(...WATCHING, cycleStarted(1, conflict), cycleEnded(1)).when({ stepId: 's2', seen: seen({ mergeable: 'CONFLICTING' }) }).thenNothing();
});

test('merged: the step succeeds; closed: it fails with that reason', (t) => {
  poll(t).given(...WATCHING).when({ stepId: 's2', seen: seen({ state: 'MERGED', failing: [lint] }) })
    .then({ type: 'StepSucceeded', data: { stepId: 's2', node: 'ship', summary: 'pull request #4 merged' } });
  poll(t).given(...WATCHING).when({ stepId: 's2', seen: seen({ state: 'CLOSED' }) })
    .then({ type: 'StepFailed', data: { stepId: 's2', node: 'ship', summary: 'pull request #4 was closed without being merged' } });
});

test('while a cycle runs, or the run is paused, no new cycle starts', (t) => {
  poll(t).given(...WATCHING, cycleStarted(1, checks('c1'))).when({ stepId: 's2', seen: seen({ headCommit: 'c2', failing: [lint] }) }).thenNothing();
  poll(t).given(...WATCHING, { type: 'RunPaused', data: { by: { kind: 'person' } } }).when({ stepId: 's2', seen: seen({ failing: [lint] }) }).thenNothing();
});

test('at the cycle limit a new cause stops the loop: the run pauses with the reason, once', (t) => {
  const used = [...WATCHING, cycleStarted(1, checks('c1')), cycleEnded(1), cycleStarted(2, checks('c2')), cycleEnded(2)];
  const reason = 'the pull request loop used its 2 cycle(s) and pull request #4 has checks failing (lint) on c3; fix it by hand and Resume, or raise cycles';
  poll(t).given(...used).when({ stepId: 's2', seen: seen({ headCommit: 'c3', failing: [lint] }) }).then(
    { type: 'PullRequestLoopLimitReached', data: { stepId: 's2', cause: checks('c3'), reason } },
    { type: 'RunPaused', data: { by: { kind: 'engine' }, reason } },
  );
  const stopped = [...used, { type: 'PullRequestLoopLimitReached', data: { stepId: 's2', cause: checks('c3'), reason } } as RunEvent, { type: 'RunResumed', data: { by: { kind: 'person' } } } as RunEvent];
  poll(t).given(...stopped).when({ stepId: 's2', seen: seen({ headCommit: 'c3', failing: [lint] }) }).thenNothing();
});

test('another step, or a run not watching: nothing', (t) => {
  poll(t).given(...SHIPPING).when({ stepId: 's2', seen: seen({ failing: [lint] }) }).thenNothing();
  poll(t).given(...WATCHING).when({ stepId: 's9', seen: seen({ state: 'MERGED' }) }).thenNothing();
});

test('a cycle ends once; replies are recorded once per cycle', (t) => {
  const end = runDecider(decideEndCycle)(t);
  const result = { _tag: 'Interrupted' as const, reason: 'stopped' };
  end.given(...WATCHING, cycleStarted(1, checks('c1'))).when({ stepId: 's2', cycle: 1, result }).then({ type: 'PullRequestCycleEnded', data: { stepId: 's2', cycle: 1, result } });
  end.given(...WATCHING, cycleStarted(1, checks('c1')), cycleEnded(1)).when({ stepId: 's2', cycle: 1, result }).thenNothing();
  const answered = runDecider(decideThreadsAnswered)(t);
  const threads: CycleCause = { _tag: 'Threads', headCommit: 'c1', threads: [thread('T1')] };
  const c = { stepId: 's2', cycle: 1, replied: ['T1'], resolved: [] };
  answered.given(...WATCHING, cycleStarted(1, threads)).when(c).then({ type: 'PullRequestThreadsAnswered', data: c });
  answered.given(...WATCHING, cycleStarted(1, threads), { type: 'PullRequestThreadsAnswered', data: c }).when(c).thenNothing();
});

test('the watch folds into the run: standing Waiting between cycles, Running during one', (t) => {
  t.is(given(...WATCHING).prWatch?.started, 0);
  t.deepEqual(given(...WATCHING, cycleStarted(1, checks('c1'))).prWatch?.open, { cycle: 1, cause: checks('c1') });
  t.is(standingOf(given(...WATCHING)), 'Waiting');
  t.is(standingOf(given(...WATCHING, cycleStarted(1, checks('c1')))), 'Running');
  t.is(standingOf(given(...WATCHING, cycleStarted(1, checks('c1')), cycleEnded(1))), 'Waiting');
  t.is(standingOf(given(...SHIPPING)), 'Running', 'delivering, not yet watching');
});
