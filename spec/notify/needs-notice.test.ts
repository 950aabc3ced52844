import test from 'ava';
import { needsNoticeOf } from '../../lib/notify/needs-notice.js';
import type { Needs } from '../../projections/needs-you.js';

// Which appended events make someone needed, for the notification command: a question, a gate
// reached, a failure, a pause by svc that waits for a person, a supervisor's approval card; keyed
// by the event's stream and seq, and only while the run, by the one rule, needs a person for it.

const at = '2026-11-24T04:00:00.000Z';
const needing = (needs: Needs | null) => (id: string) => (id === 'r1' ? { title: 'Fix it', project: 'demo', needs } : undefined);
const names = needing(null);
const stored = (type: string, data: unknown, seq = 4) => ({ type, data, seq, at });

test('a question, a gate, a failure, a pause by svc and a card each make a notice, with the run named', (t) => {
  t.deepEqual(needsNoticeOf('run:r1', stored('QuestionAsked', { questionId: 'q', stepId: 's', prompt: 'Which one?', options: [], allowText: true }), needing({ kind: 'question', label: 'Question' })),
    { key: 'run:r1:4', kind: 'question', runId: 'r1', title: 'Fix it', project: 'demo', reason: 'Which one?', at });
  t.like(needsNoticeOf('run:r1', stored('StepStarted', { stepId: 's', node: 'review', kind: 'gate', attempt: 1 }), needing({ kind: 'gate', label: 'At a gate' })), { kind: 'gate', reason: 'gate review: waiting for Resume' });
  t.like(needsNoticeOf('run:r1', stored('RunFailed', { reason: 'tests fail' }, 9), needing({ kind: 'failed', label: 'Failed' })), { key: 'run:r1:9', kind: 'failed', reason: 'tests fail' });
  t.like(needsNoticeOf('run:r1', stored('RunPaused', { by: { kind: 'engine' }, reason: 'budget: spent $2 of $1 budget' }, 7), needing({ kind: 'paused', label: 'Budget reached' })),
    { key: 'run:r1:7', kind: 'paused', reason: 'budget: spent $2 of $1 budget' });
  t.like(needsNoticeOf('supervisor-chat:sp', stored('ApprovalRequested', { cardId: 'c1', tool: 'message_run', run: 'r1', args: {}, reason: 'nudge' }), names),
    { key: 'supervisor-chat:sp:4', kind: 'card', runId: 'r1', title: 'Fix it', reason: 'supervisor sp asks to message_run: nudge' });
  t.like(needsNoticeOf('supervisor-chat:sp', stored('ApprovalRequested', { cardId: 'c2', tool: 'start_run', run: null, args: {}, reason: 'r' }), names), { runId: null, title: '', project: '' });
});

test('an event whose run does not need a person for it (now) makes none: a pause by a person, an archived failure', (t) => {
  t.is(needsNoticeOf('run:r1', stored('RunPaused', { by: { kind: 'person' }, reason: 'lunch' }), names), null);
  t.is(needsNoticeOf('run:r1', stored('RunFailed', { reason: 'x' }), names), null);
  t.is(needsNoticeOf('run:r1', stored('RunPaused', { by: { kind: 'engine' }, reason: 'x' }), needing({ kind: 'question', label: 'Question' })), null);
});

test('other events, agent steps and other streams make none', (t) => {
  t.is(needsNoticeOf('run:r1', stored('StepStarted', { stepId: 's', node: 'work', kind: 'agent', attempt: 1 }), names), null);
  t.is(needsNoticeOf('run:r1', stored('RunSucceeded', { summary: 'ok' }), names), null);
  t.is(needsNoticeOf('supervisor-chat:sp', stored('ApprovalDecided', { cardId: 'c1' }), names), null);
  t.is(needsNoticeOf('settings', stored('QuestionAsked', { prompt: 'x' }), names), null);
});
