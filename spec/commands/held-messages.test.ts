import test from 'ava';
import type { Either } from 'fp-ts/lib/Either.js';
import { decideContinueTurn, decideEndRun, meantForTurn } from '../../commands/engine-steps.js';
import { decideAbort } from '../../commands/abort.js';
import { decideRestart } from '../../commands/restart.js';
import type { RunEvent } from '../../journal/run-events.js';
import { threadRow } from '../../projections/thread.js';
import { runDetail } from '../../projections/run-views.js';
import { at, by, given, created, queued, started, prepared, stepStarted, running } from '../helpers/given.js';

// Messages a turn could not take: given(events) / when(decide) / then(events), and the folds that
// read them (held for the step, undelivered at the end, the thread and get_run).

const ctx = { at, by };
const events = (d: Either<unknown, RunEvent[]>): RunEvent[] => (d._tag === 'Right' ? d.right : []);
const sent = (messageId: string, delivery: 'Resume' | 'Hold', text = `text of ${messageId}`): RunEvent => ({ type: 'MessageSent', data: { messageId, text, delivery, by } });

test('a Resume message sent while the agent turn runs (and not taken) is held for that step; Hold is not', (t) => {
  const s = running(sent('m1', 'Resume'), sent('m2', 'Hold'));
  t.deepEqual(s.held, [{ id: 'm1', text: 'text of m1', forStep: 's1' }, { id: 'm2', text: 'text of m2' }]);
  t.deepEqual(meantForTurn(s, 's1').map((m) => m.id), ['m1']);
});

test('a Resume message taken mid-turn (MessageDelivered) is not held; one sent with no turn in flight is not for a step', (t) => {
  t.deepEqual(running(sent('m1', 'Resume'), { type: 'MessageDelivered', data: { messageId: 'm1', stepId: 's1' } }).held, []);
  const between = given(created, queued, started, prepared, sent('m1', 'Resume'));
  t.deepEqual(between.held, [{ id: 'm1', text: 'text of m1' }]);
  const atGate = given(created, queued, started, prepared, stepStarted('g1', 'gate', 'gate'), sent('m2', 'Resume'));
  t.is(atGate.held[0]?.forStep, undefined, 'a gate takes no messages: Resume there is the approval path, not a turn');
});

test('when the turn ends with messages meant for it, the step continues: they are delivered to the same step', (t) => {
  const s = running(sent('m1', 'Resume'), sent('m2', 'Hold'), sent('m3', 'Resume'));
  t.deepEqual(events(decideContinueTurn(s, { stepId: 's1' })), [
    { type: 'MessageDelivered', data: { messageId: 'm1', stepId: 's1' } },
    { type: 'MessageDelivered', data: { messageId: 'm3', stepId: 's1' } },
  ]);
});

test('no continuation without messages meant for the turn, for another step, or once paused or ended', (t) => {
  t.deepEqual(events(decideContinueTurn(running(sent('m2', 'Hold')), { stepId: 's1' })), []);
  t.deepEqual(events(decideContinueTurn(running(sent('m1', 'Resume')), { stepId: 's0' })), []);
  t.deepEqual(events(decideContinueTurn(running(sent('m1', 'Resume'), { type: 'RunPaused', data: { by } }), { stepId: 's1' })), []);
  t.deepEqual(events(decideContinueTurn(running(sent('m1', 'Resume'), { type: 'RunAborted', data: { by } }), { stepId: 's1' })), []);
});

test('a continuation delivers each message once: after it, nothing more to continue with', (t) => {
  const s = running(sent('m1', 'Resume'), { type: 'MessageDelivered', data: { messageId: 'm1', stepId: 's1' } });
  t.deepEqual(events(decideContinueTurn(s, { stepId: 's1' })), []);
});

test('abort, restart and the end of a run record every held message as undelivered, with why', (t) => {
  const s = running(sent('m1', 'Resume'), sent('m2', 'Hold'));
  const undelivered = (es: RunEvent[]) => es.filter((e) => e.type === 'MessageUndelivered').map((e) => e.data);
  t.deepEqual(undelivered(events(decideAbort(s, ctx))), [
    { messageId: 'm1', reason: 'the run was aborted before a turn took it' },
    { messageId: 'm2', reason: 'the run was aborted before a turn took it' },
  ]);
  t.is(undelivered(events(decideRestart(s, { ...ctx, newRunId: 'r2' }))).length, 2);
  const stepDone = running(sent('m2', 'Hold'), { type: 'StepFailed', data: { stepId: 's1', node: 'work', summary: 'no' } });
  t.deepEqual(events(decideEndRun(stepDone, { success: false, text: 'step work failed' })).map((e) => e.type), ['RunFailed', 'MessageUndelivered']);
  t.deepEqual(events(decideEndRun(given(created, queued, started, prepared), { success: true, text: 'done' })).map((e) => e.type), ['RunSucceeded'], 'nothing held: nothing to report');
});

test('MessageUndelivered leaves held, is listed by get_run with its text and reason, and shows in the thread', (t) => {
  const s = running(sent('m1', 'Resume', 'use tabs'), { type: 'RunAborted', data: { by } }, { type: 'MessageUndelivered', data: { messageId: 'm1', reason: 'the run was aborted before a turn took it' } });
  t.deepEqual(s.held, []);
  const detail = runDetail(s, undefined, { settings: null, toolClasses: [] });
  t.deepEqual(detail.undeliveredMessages, [{ id: 'm1', text: 'use tabs', reason: 'the run was aborted before a turn took it' }]);
  t.is(runDetail(running(), undefined, { settings: null, toolClasses: [] }).undeliveredMessages, undefined, 'absent when there are none');
  t.deepEqual(threadRow({ type: 'MessageUndelivered', data: { messageId: 'm1', reason: 'the run was aborted before a turn took it' } }), {
    kind: 'note', author: 'service', text: 'message not delivered: the run was aborted before a turn took it',
  });
});

test('the process group events are quiet: recording them does not move the run\'s position', (t) => {
  const s = running();
  const after = running({ type: 'StepProcessStarted', data: { stepId: 's1', pid: 42, startTime: '123' } }, { type: 'StepProcessKilled', data: { stepId: 's1', pid: 42, processes: 1 } });
  t.is(after.position, s.position);
  t.deepEqual(running({ type: 'StepProcessStarted', data: { stepId: 's1', pid: 42, startTime: '123' } }).step?.process, { pid: 42, startTime: '123' });
});
