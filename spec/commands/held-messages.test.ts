import test from 'ava';
import { decideContinueTurn, decideEndRun, meantForTurn } from '../../commands/engine-steps.js';
import { decideAbort } from '../../commands/abort.js';
import { decideRestart } from '../../commands/restart.js';
import type { RunEvent } from '../../journal/run-events.js';
import { threadRow } from '../../projections/thread.js';
import { runDetail } from '../../lib/read-models/run-views.js';
import { at, by, given, created, queued, started, prepared, stepStarted, running, runDecider, RUNNING } from '../helpers/given.js';

// Messages a turn could not take: given(events) / when(decide) / then(events), and the folds that
// read them (held for the step, undelivered at the end, the thread and get_run).

const ctx = { at, by };
const continueTurn = runDecider(decideContinueTurn);
const abort = runDecider(decideAbort);
const restart = runDecider(decideRestart);
const endRun = runDecider(decideEndRun);
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
  continueTurn(t).given(...RUNNING, sent('m1', 'Resume'), sent('m2', 'Hold'), sent('m3', 'Resume')).when({ stepId: 's1' }).then(
    { type: 'MessageDelivered', data: { messageId: 'm1', stepId: 's1' } },
    { type: 'MessageDelivered', data: { messageId: 'm3', stepId: 's1' } },
  );
});

test('no continuation without messages meant for the turn, for another step, or once paused or ended', (t) => {
  continueTurn(t).given(...RUNNING, sent('m2', 'Hold')).when({ stepId: 's1' }).thenNothing();
  continueTurn(t).given(...RUNNING, sent('m1', 'Resume')).when({ stepId: 's0' }).thenNothing();
  continueTurn(t).given(...RUNNING, sent('m1', 'Resume'), { type: 'RunPaused', data: { by } }).when({ stepId: 's1' }).thenNothing();
  continueTurn(t).given(...RUNNING, sent('m1', 'Resume'), { type: 'RunAborted', data: { by } }).when({ stepId: 's1' }).thenNothing();
});

test('a continuation delivers each message once: after it, nothing more to continue with', (t) => {
  continueTurn(t).given(...RUNNING, sent('m1', 'Resume'), { type: 'MessageDelivered', data: { messageId: 'm1', stepId: 's1' } }).when({ stepId: 's1' }).thenNothing();
});

test('abort, restart and the end of a run record every held message as undelivered, with why', (t) => {
  const held = [...RUNNING, sent('m1', 'Resume'), sent('m2', 'Hold')];
  const undelivered = (messageId: string, reason: string): RunEvent => ({ type: 'MessageUndelivered', data: { messageId, reason } });
  abort(t).given(...held).when(ctx).then(
    { type: 'StepInterrupted', data: { stepId: 's1', node: 'work', reason: 'aborted' } },
    { type: 'RunAborted', data: { by } },
    undelivered('m1', 'the run was aborted before a turn took it'),
    undelivered('m2', 'the run was aborted before a turn took it'),
  );
  restart(t).given(...held).when({ ...ctx, newRunId: 'r2' }).then(
    { type: 'StepInterrupted', data: { stepId: 's1', node: 'work', reason: 'restarted' } },
    { type: 'RunRestarted', data: { as: 'r2', by } },
    { type: 'RunAborted', data: { by, reason: 'restarted as r2' } },
    undelivered('m1', 'the run was restarted as r2 before a turn took it'),
    undelivered('m2', 'the run was restarted as r2 before a turn took it'),
  );
  endRun(t).given(...RUNNING, sent('m2', 'Hold'), { type: 'StepFailed', data: { stepId: 's1', node: 'work', summary: 'no' } }).when({ success: false, text: 'step work failed' }).then(
    { type: 'RunFailed', data: { reason: 'step work failed' } },
    undelivered('m2', 'the run failed before a turn took it'),
  );
  // nothing held: nothing to report
  endRun(t).given(created, queued, started, prepared).when({ success: true, text: 'done' }).then({ type: 'RunSucceeded', data: { summary: 'done' } });
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
