import test from 'ava';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { allowedActions, decideControl } from '../../commands/control.js';
import { decideFinishStep, decideGrantSlot } from '../../commands/engine-steps.js';
import { standingOf } from '../../projections/standing.js';
import { at, by, created, given, prepared, queued, running, started, stepStarted } from '../helpers/given.js';

const ctx = { at, by };
const events = (d: ReturnType<typeof decideControl>) => (isRight(d) ? d.right.map((e) => e.type) : d.left);

test('given a running step, when paused, then the step is interrupted and the run pauses', (t) => {
  t.deepEqual(events(decideControl(running(), { ...ctx, action: 'Pause' })), ['StepInterrupted', 'RunPaused']);
});

test('given a paused run, when paused again, then it is refused (NotAllowed)', (t) => {
  const d = decideControl(running({ type: 'RunPaused', data: { by } }), { ...ctx, action: 'Pause' });
  t.true(isLeft(d) && d.left._tag === 'NotAllowed');
});

test('given a run at a gate, when resumed, then the gate step succeeds', (t) => {
  const s = given(created, queued, started, prepared, stepStarted('s1'), { type: 'StepSucceeded', data: { stepId: 's1', node: 'work', summary: 'ok' } }, stepStarted('s2', 'gate', 'gate'));
  t.is(standingOf(s), 'Paused');
  t.deepEqual(events(decideControl(s, { ...ctx, action: 'Resume' })), ['RunResumed', 'StepSucceeded']);
});

test('given a created run, Resume queues it; given a queued run, MoveToFront takes minus the time', (t) => {
  t.deepEqual(events(decideControl(given(created), { ...ctx, action: 'Resume' })), ['RunQueued']);
  const d = decideControl(given(created, queued), { ...ctx, action: 'MoveToFront' });
  t.true(isRight(d) && d.right[0]!.type === 'RunMovedToFront' && (d.right[0]!.data as { priority: number }).priority === -Date.parse(at));
});

test('given an aborted run, nothing reopens it but Restart', (t) => {
  const s = running({ type: 'RunAborted', data: { by } });
  t.deepEqual(allowedActions(s), ['Restart']);
});

test('given a running run, Restart aborts it and names the new run', (t) => {
  t.deepEqual(events(decideControl(running(), { ...ctx, action: 'Restart', newRunId: 'r2' })), ['StepInterrupted', 'RunRestarted', 'RunAborted']);
});

test('given an unreadable history, only Abort is allowed', (t) => {
  const s = { ...running(), unreadable: 'event 4 (StepStarted) has bad data' };
  t.deepEqual(allowedActions(s), ['Abort']);
  const d = decideControl(s, { ...ctx, action: 'Pause' });
  t.true(isLeft(d) && d.left._tag === 'NotAllowed' && d.left.allowed.join() === 'Abort');
});

test('given a running step, ChangeHarness on a harness that is not ready is refused with why', (t) => {
  const d = decideControl(running(), { ...ctx, action: 'ChangeHarness', harness: 'codex', available: 'not logged in' });
  t.true(isLeft(d) && d.left._tag === 'Unavailable' && /not logged in/.test(d.left.detail));
});

test('given a step that was interrupted, its late outcome is nothing', (t) => {
  const s = running({ type: 'StepInterrupted', data: { stepId: 's1', node: 'work', reason: 'paused' } }, { type: 'RunPaused', data: { by } });
  const d = decideFinishStep(s, { stepId: 's1', outcome: 'success', summary: 'late' });
  t.deepEqual(isRight(d) ? d.right : d.left, []);
});

test('given a queued run, a slot starts it at the first step; a repeated grant is nothing', (t) => {
  const s = given(created, queued);
  const d = decideGrantSlot(s, { held: 0, cap: 1 });
  t.true(isRight(d) && d.right[0]!.type === 'RunStarted' && (d.right[0]!.data as { node: string }).node === 'work');
  const d2 = decideGrantSlot(given(created, queued, started), { held: 1, cap: 1 });
  t.deepEqual(isRight(d2) ? d2.right : d2.left, []);
});

test('allowed actions per standing', (t) => {
  t.deepEqual(allowedActions(given(created)), ['Resume', 'Restart', 'Abort']);
  t.deepEqual(allowedActions(given(created, queued)), ['Restart', 'Abort', 'MoveToFront']);
  t.deepEqual(allowedActions(running()), ['Pause', 'ChangeHarness', 'Jump', 'Restart', 'Abort']);
});
