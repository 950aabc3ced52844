import test from 'ava';
import { needsNoticeOf } from '../../lib/notify/needs-notice.js';

// Which appended events make someone needed, for the notification command: a question, a gate
// reached, a failure, a supervisor's approval card; keyed by the event's stream and seq.

const at = '2026-11-24T04:00:00.000Z';
const names = (id: string) => (id === 'r1' ? { title: 'Fix it', project: 'demo' } : undefined);
const stored = (type: string, data: unknown, seq = 4) => ({ type, data, seq, at });

test('a question, a gate, a failure and a card each make a notice, with the run named', (t) => {
  t.deepEqual(needsNoticeOf('run:r1', stored('QuestionAsked', { questionId: 'q', stepId: 's', prompt: 'Which one?', options: [], allowText: true }), names),
    { key: 'run:r1:4', kind: 'question', runId: 'r1', title: 'Fix it', project: 'demo', reason: 'Which one?', at });
  t.like(needsNoticeOf('run:r1', stored('StepStarted', { stepId: 's', node: 'review', kind: 'gate', attempt: 1 }), names), { kind: 'gate', reason: 'gate review: waiting for Resume' });
  t.like(needsNoticeOf('run:r1', stored('RunFailed', { reason: 'tests fail' }, 9), names), { key: 'run:r1:9', kind: 'failed', reason: 'tests fail' });
  t.like(needsNoticeOf('supervisor-chat:sp', stored('ApprovalRequested', { cardId: 'c1', tool: 'message_run', run: 'r1', args: {}, reason: 'nudge' }), names),
    { key: 'supervisor-chat:sp:4', kind: 'card', runId: 'r1', title: 'Fix it', reason: 'supervisor sp asks to message_run: nudge' });
  t.like(needsNoticeOf('supervisor-chat:sp', stored('ApprovalRequested', { cardId: 'c2', tool: 'start_run', run: null, args: {}, reason: 'r' }), names), { runId: null, title: '', project: '' });
});

test('other events, agent steps and other streams make none', (t) => {
  t.is(needsNoticeOf('run:r1', stored('StepStarted', { stepId: 's', node: 'work', kind: 'agent', attempt: 1 }), names), null);
  t.is(needsNoticeOf('run:r1', stored('RunSucceeded', { summary: 'ok' }), names), null);
  t.is(needsNoticeOf('supervisor-chat:sp', stored('ApprovalDecided', { cardId: 'c1' }), names), null);
  t.is(needsNoticeOf('settings', stored('QuestionAsked', { prompt: 'x' }), names), null);
});
