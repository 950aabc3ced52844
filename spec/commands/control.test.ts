import test from 'ava';
import { allowedActions, decideControl } from '../../commands/control.js';
import { decideFinishStep, decideGrantSlot } from '../../commands/engine-steps.js';
import { standingOf } from '../../projections/standing.js';
import { at, by, created, given, prepared, queued, runDecider, RUNNING, running, started, stepStarted } from '../helpers/given.js';

const ctx = { at, by };
const control = runDecider(decideControl);
const finish = runDecider(decideFinishStep);
const grant = runDecider(decideGrantSlot);
const paused = [...RUNNING, { type: 'StepInterrupted', data: { stepId: 's1', node: 'work', reason: 'paused' } }, { type: 'RunPaused', data: { by } }] as const;

test('given a running step, when paused, then the step is interrupted and the run pauses', (t) => {
  control(t).given(...RUNNING).when({ ...ctx, action: 'Pause' }).then(
    { type: 'StepInterrupted', data: { stepId: 's1', node: 'work', reason: 'paused' } },
    { type: 'RunPaused', data: { by } },
  );
  control(t).given(...RUNNING).when({ ...ctx, action: 'Pause', reason: 'lunch' }).then(
    { type: 'StepInterrupted', data: { stepId: 's1', node: 'work', reason: 'paused' } },
    { type: 'RunPaused', data: { by, reason: 'lunch' } },
  );
});

test('given a paused run, when paused again, then it is refused (NotAllowed)', (t) => {
  control(t).given(...paused).when({ ...ctx, action: 'Pause' }).thenRefused('NotAllowed', 'Pause is not allowed now; allowed actions: none');
});

test('given a run at a gate, when resumed, then the gate step succeeds', (t) => {
  const atGate = [created, queued, started, prepared, stepStarted('s1'), { type: 'StepSucceeded', data: { stepId: 's1', node: 'work', summary: 'ok' } }, stepStarted('s2', 'gate', 'gate')] as const;
  t.is(standingOf(given(...atGate)), 'Paused');
  control(t).given(...atGate).when({ ...ctx, action: 'Resume' }).then(
    { type: 'RunResumed', data: { by } },
    { type: 'StepSucceeded', data: { stepId: 's2', node: 'gate', summary: 'gate passed' } },
  );
});

test('given a created run, Resume queues it; given a queued run, MoveToFront takes minus the time', (t) => {
  control(t).given(created).when({ ...ctx, action: 'Resume' }).then({ type: 'RunQueued', data: { by } });
  control(t).given(created, queued).when({ ...ctx, action: 'MoveToFront' }).then({ type: 'RunMovedToFront', data: { priority: -Date.parse(at), by } });
});

test('given an aborted run, nothing reopens it but Restart', (t) => {
  const s = running({ type: 'RunAborted', data: { by } });
  t.deepEqual(allowedActions(s), ['Restart']);
  control(t).given(...RUNNING, { type: 'RunAborted', data: { by } }).when({ ...ctx, action: 'Resume' }).thenRefused('NotAllowed');
  control(t).given(...RUNNING, { type: 'RunAborted', data: { by } }).when({ ...ctx, action: 'Restart', newRunId: 'r2' }).then({ type: 'RunRestarted', data: { as: 'r2', by } });
});

test('given a running run, Restart aborts it and names the new run', (t) => {
  control(t).given(...RUNNING).when({ ...ctx, action: 'Restart', newRunId: 'r2' }).then(
    { type: 'StepInterrupted', data: { stepId: 's1', node: 'work', reason: 'restarted' } },
    { type: 'RunRestarted', data: { as: 'r2', by } },
    { type: 'RunAborted', data: { by, reason: 'restarted as r2' } },
  );
});

test('given an unreadable history, only Abort is allowed', (t) => {
  const s = { ...running(), unreadable: 'event 4 (StepStarted) has bad data' };
  t.deepEqual(allowedActions(s), ['Abort']);
  control(t).givenState(s).when({ ...ctx, action: 'Pause' }).thenRefused('NotAllowed', 'Pause is not allowed now; allowed actions: Abort');
});

test('given a running step, ChangeHarness on a harness that is not ready is refused with why', (t) => {
  control(t).given(...RUNNING).when({ ...ctx, action: 'ChangeHarness', harness: 'codex', available: 'not logged in' }).thenRefused('Unavailable', /not logged in/);
});

test('given a step that was interrupted, its late outcome is nothing', (t) => {
  finish(t).given(...paused).when({ stepId: 's1', outcome: 'success', summary: 'late' }).thenNothing();
});

test('given a queued run, a slot starts it at the first step; a repeated grant is nothing', (t) => {
  grant(t).given(created, queued).when({ held: 0, cap: 1 }).then({ type: 'RunStarted', data: { node: 'work' } });
  grant(t).given(created, queued, started).when({ held: 1, cap: 1 }).thenNothing();
});

test('allowed actions per standing', (t) => {
  t.deepEqual(allowedActions(given(created)), ['Resume', 'Restart', 'Abort']);
  t.deepEqual(allowedActions(given(created, queued)), ['Restart', 'Abort', 'MoveToFront']);
  t.deepEqual(allowedActions(running()), ['Pause', 'ChangeHarness', 'Jump', 'Restart', 'Abort']);
});

// A repeat of the very same control decides nothing (spec/commands/repeat.test.ts holds every
// command to it); these are the four that used to decide again.
const jumped = [...RUNNING, { type: 'StepInterrupted', data: { stepId: 's1', node: 'work', reason: 'jumped to gate' } }, { type: 'Jumped', data: { node: 'gate', by } }] as const;

test('a move to the front at the same moment again is nothing; a later move moves again', (t) => {
  const moved = [created, queued, { type: 'RunMovedToFront', data: { priority: -Date.parse(at), by } }] as const;
  control(t).given(...moved).when({ ...ctx, action: 'MoveToFront' }).thenNothing();
  const later = '2026-11-20T10:00:01.000Z';
  control(t).given(...moved).when({ ...ctx, at: later, action: 'MoveToFront' }).then({ type: 'RunMovedToFront', data: { priority: -Date.parse(later), by } });
});

test('a jump to the step the run is about to start is nothing; to another step it jumps', (t) => {
  control(t).given(...jumped).when({ ...ctx, action: 'Jump', node: 'gate' }).thenNothing();
  control(t).given(...jumped).when({ ...ctx, action: 'Jump', node: 'work' }).then({ type: 'Jumped', data: { node: 'work', by } });
});

test('ChangeHarness to the harness the step is about to start on is nothing; to another it changes again', (t) => {
  const changed = [...RUNNING, { type: 'StepInterrupted', data: { stepId: 's1', node: 'work', reason: 'harness changed to codex' } }, { type: 'HarnessChanged', data: { harness: 'codex', by } }] as const;
  control(t).given(...changed).when({ ...ctx, action: 'ChangeHarness', harness: 'codex', available: null }).thenNothing();
  control(t).given(...changed).when({ ...ctx, action: 'ChangeHarness', harness: 'opencode', available: null }).then({ type: 'HarnessChanged', data: { harness: 'opencode', by } });
  // once the step runs on it, the same change means: run the step again there
  control(t).given(...changed, stepStarted('s2')).when({ ...ctx, action: 'ChangeHarness', harness: 'codex', available: null }).then(
    { type: 'StepInterrupted', data: { stepId: 's2', node: 'work', reason: 'harness changed to codex' } },
    { type: 'HarnessChanged', data: { harness: 'codex', by } },
  );
});

test('a Restart as the run it was restarted as already is nothing; as another new run it is recorded', (t) => {
  const restarted = [...RUNNING, { type: 'RunRestarted', data: { as: 'r2', by } }, { type: 'RunAborted', data: { by, reason: 'restarted as r2' } }] as const;
  control(t).given(...restarted).when({ ...ctx, action: 'Restart', newRunId: 'r2' }).thenNothing();
  control(t).given(...restarted).when({ ...ctx, action: 'Restart', newRunId: 'r3' }).then({ type: 'RunRestarted', data: { as: 'r3', by } });
});
