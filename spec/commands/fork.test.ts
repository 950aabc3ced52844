import test from 'ava';
import { isRight } from 'fp-ts/lib/Either.js';
import { decideFork, type Fork } from '../../commands/fork.js';
import { decideRecordSnapshots } from '../../commands/snapshots.js';
import type { RunEvent } from '../../journal/run-events.js';
import { nextEffect } from '../../lib/engine/next-effect.js';
import { at, by, created, given, prepared, queued, RUNNING, runDecider, started, stepStarted, WF } from '../helpers/given.js';

// Forking from a step end, and the snapshots a step end is due: given(events) / when(command) /
// then(whole events, or the refusal). RUNNING is seqs 1-5; step work ends at seq 7.

const forkSpec = runDecider(decideFork);
const recordSpec = runDecider(decideRecordSnapshots);

const session: RunEvent = { type: 'StepSessionStarted', data: { stepId: 's1', sessionId: 'sess-1' } };
const onClaude: RunEvent = { type: 'StepStarted', data: { stepId: 's1', node: 'work', kind: 'agent', attempt: 1, harness: 'claude' } };
const workEnded: RunEvent[] = [created, queued, started, prepared, onClaude, session, { type: 'StepSucceeded', data: { stepId: 's1', node: 'work', summary: 'wrote it' } }];
const taken: RunEvent = { type: 'SnapshotTaken', data: { stepId: 's1', node: 'work', at: 7, folder: 'f', commit: 'c7', ref: 'refs/svc/snapshots/r1/7' } };
const later: RunEvent[] = [taken, stepStarted('s2', 'gate', 'gate'), { type: 'GoalRevised', data: { goal: 'a later goal', previous: 'g', by } }];
const fork = (c: Partial<Fork> = {}): Fork => ({ at, by, newRunId: 'r2', atSeq: 7, then: given(...workEnded), ...c });

test('a fork is RunCreated with forkedFrom (the step end, the next node, the snapshots, the session) and RunQueued', (t) => {
  forkSpec(t).given(...workEnded, ...later).when(fork({ note: 'again' })).then(
    {
      type: 'RunCreated',
      data: {
        runId: 'r2', projectId: 'p', title: 't', goal: 'g', workflow: WF, inputs: {}, by,
        forkedFrom: {
          run: 'r1', at: 7, step: 'work', node: 'gate', previous: { node: 'work', outcome: 'success', summary: 'wrote it' },
          snapshots: [{ folder: 'f', commit: 'c7', base: 'abc' }], session: { harness: 'claude', node: 'work', sessionId: 'sess-1' },
          thread: 'Run r1 worked on the goal:\ng\nIts step work ended with success: wrote it\nThis worktree is as that step left it (its uncommitted changes included).',
          note: 'again',
        },
      },
    },
    { type: 'RunQueued', data: { by } },
  );
});

test('a new goal, harness and model are the fork\'s; the source\'s goal is as it was at the step end', (t) => {
  const createdBy = (c: Fork) => { const d = decideFork(given(...workEnded, ...later), c); return isRight(d) ? d.right[0]!.data : d.left; };
  t.like(createdBy(fork({ goal: 'Another way\nin detail', harness: 'codex', model: 'gpt-5' })), { title: 'Another way', goal: 'Another way\nin detail', harness: 'codex', model: 'gpt-5' });
  t.like(createdBy(fork()), { title: 't', goal: 'g' }, 'not the goal revised after the step end');
});

test('the refusals, each saying why', (t) => {
  forkSpec(t).given(...workEnded, taken).when(fork({ atSeq: 3 })).thenRefused('Conflict', 'at 3 is not a step end of run r1; its step ends (seq, step) are: 7 (work)');
  forkSpec(t).given(...workEnded).when(fork()).thenRefused('Conflict', 'there is no snapshot of folder f at step work (seq 7), so a fork cannot start there');
  forkSpec(t).given(...workEnded, taken, { type: 'RunArchived', data: { by } }).when(fork()).thenRefused('Conflict', /archived: its snapshots are gone/);
  const failed: RunEvent[] = [...RUNNING, { type: 'StepFailed', data: { stepId: 's1', node: 'work', summary: 'no' } }, { ...taken, data: { ...taken.data, at: 6 } } as RunEvent];
  forkSpec(t).given(...failed).when(fork({ atSeq: 6, then: given(...failed.slice(0, 6)) })).thenRefused('Conflict', 'step work ended with failure and the workflow goes nowhere from there: a fork would have nothing to run');
  forkSpec(t).given(...workEnded, taken).when(fork({ goal: ' ' })).thenRefused('Invalid', 'goal must not be blank');
});

test('a step end is due for its snapshots before anything else happens; recording them settles it, once', (t) => {
  const ended = given(...workEnded);
  t.deepEqual(ended.snapshotDue, { stepId: 's1', node: 'work', at: 7 });
  t.deepEqual(nextEffect(ended, { preparing: false, isLive: () => false, isArmed: () => false }), { _tag: 'Snapshot', stepId: 's1', node: 'work', at: 7 });
  t.deepEqual(nextEffect(ended, { preparing: false, snapshotting: true, isLive: () => false, isArmed: () => false }), { _tag: 'None' });
  recordSpec(t).given(...workEnded).when({ at: 7, records: [taken] }).then(taken);
  recordSpec(t).given(...workEnded, taken).when({ at: 7, records: [taken] }).thenNothing();
  const failedRecord: RunEvent = { type: 'SnapshotFailed', data: { stepId: 's1', node: 'work', at: 7, folder: 'f', reason: 'disk full' } };
  const afterFailure = given(...workEnded, failedRecord);
  t.is(afterFailure.snapshotDue, undefined, 'a failure settles the step end too');
  t.deepEqual(afterFailure.stepEnds, [{ at: 7, stepId: 's1', node: 'work', outcome: 'success', snapshots: [], goesOn: true }]);
  t.deepEqual(nextEffect(afterFailure, { preparing: false, isLive: () => false, isArmed: () => false }), { _tag: 'Start', node: WF.nodes[2] });
  t.is(given(...workEnded, stepStarted('s2', 'gate', 'gate')).snapshotDue, undefined, 'a journal from before snapshots: the next step started, so that step end is not taken later');
});

test('the fork takes the session\'s running totals as the CLI reported them at the step end, so its first turn counts only its own usage', (t) => {
  const usage: RunEvent = { type: 'UsageRecorded', data: { stepId: 's1', node: 'work', harness: 'claude', tokens: null, cost: { _tag: 'Reported', usd: 0.5 }, sessionId: 'sess-1', sessionTotals: { costUsd: 0.5 } } };
  const ended: RunEvent[] = [created, queued, started, prepared, onClaude, session, usage, { type: 'StepSucceeded', data: { stepId: 's1', node: 'work', summary: 'wrote it' } }];
  const d = decideFork(given(...ended, { ...taken, data: { ...taken.data, at: 8 } } as RunEvent), fork({ atSeq: 8, then: given(...ended) }));
  t.deepEqual(isRight(d) && d.right[0]!.type === 'RunCreated' ? d.right[0]!.data.forkedFrom?.session : null, { harness: 'claude', node: 'work', sessionId: 'sess-1', totals: { costUsd: 0.5 } });
});
