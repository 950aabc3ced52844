import test from 'ava';
import { continuesOf, decideFollowUp, type FollowUp } from '../../commands/follow-up.js';
import type { RunEvent } from '../../journal/run-events.js';
import { applyStored } from '../../projections/run-state.js';
import { at, by, created, given, prepared, queued, RUNNING, runDecider, started } from '../helpers/given.js';

const runSpec = runDecider(decideFollowUp);

// Following up an ended run: given(events) / when(FollowUp) / then(whole events, or the refusal).

const ok: FollowUp = { at, by, newRunId: 'r2', liveInChain: null, worktreesPresent: true };
const session: RunEvent = { type: 'StepSessionStarted', data: { stepId: 's1', sessionId: 'sess-1' } };
const succeeded: RunEvent[] = [...RUNNING, session, { type: 'StepSucceeded', data: { stepId: 's1', node: 'work', summary: 'wrote it' } }, { type: 'RunSucceeded', data: { summary: 'wrote it' } }];

test('an ended run is followed up: it records the new run', (t) => {
  runSpec(t).given(...succeeded).when(ok).then({ type: 'RunFollowedUp', data: { as: 'r2', by } });
});

test('the refusals, each saying why', (t) => {
  runSpec(t).given(...RUNNING).when(ok).thenRefused('Conflict', 'run r1 is still going: follow up once it has ended; message it instead');
  runSpec(t).given(...succeeded, { type: 'RunArchived', data: { by } }).when(ok).thenRefused('Conflict', /archived: its worktree is gone/);
  runSpec(t).given(created, queued, started, { type: 'RunAborted', data: { by } }).when(ok).thenRefused('Conflict', /never got a worktree/);
  runSpec(t).given(...succeeded).when({ ...ok, worktreesPresent: false }).thenRefused('Conflict', /the worktree of run r1 is gone/);
  runSpec(t).given(...succeeded).when({ ...ok, liveInChain: 'r3' }).thenRefused('Conflict', /run r3 already continues this run's worktree and has not ended/);
});

test('a repeat with the same new run decides nothing', (t) => {
  runSpec(t).given(...succeeded, { type: 'RunFollowedUp', data: { as: 'r2', by } }).when(ok).thenNothing();
});

test('the follow-up takes the checkouts, the latest session with its harness, the chain root and a summary', (t) => {
  const withHarness: RunEvent[] = [created, queued, started, prepared, { type: 'StepStarted', data: { stepId: 's1', node: 'work', kind: 'agent', attempt: 1, harness: 'claude' } }, ...succeeded.slice(RUNNING.length)];
  const c = continuesOf(given(...withHarness));
  t.deepEqual(c.session, { harness: 'claude', node: 'work', sessionId: 'sess-1' });
  t.is(c.root, 'r1');
  t.deepEqual(c.checkouts, (prepared as Extract<RunEvent, { type: 'WorktreesPrepared' }>).data.checkouts);
  t.regex(c.thread, /Run r1 worked in this worktree on the goal:\ng\nIts last step, work, ended with success: wrote it/);
  // a follow-up of a follow-up keeps the chain's root
  const second = applyStored(given({ type: 'RunCreated', data: { ...(created as Extract<RunEvent, { type: 'RunCreated' }>).data, runId: 'r2', continues: c } }), { type: 'RunQueued', data: { by }, seq: 2, at });
  t.is(continuesOf(second).root, 'r1');
});
