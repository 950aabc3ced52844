import test from 'ava';
import type { RunEvent } from '../../journal/run-events.js';
import { at, by, created, given, queued, RUNNING, running, started, stepStarted } from '../helpers/given.js';

// The run fold: what each event leaves, and the two numbers a view is checked against (seq: the
// last event; position: the last event that changed what a person can do).

test('a run is created, queued, started at its first step, and its step is in flight', (t) => {
  t.is(given(created).lifecycle, 'created');
  t.is(given(created, queued).lifecycle, 'queued');
  const s = running();
  t.is(s.lifecycle, 'active');
  t.like(s.step, { stepId: 's1', node: 'work', kind: 'agent', attempt: 1 });
  t.is(s.seq, RUNNING.length);
});

test('quiet events move seq but not position: a person sees nothing new to act on', (t) => {
  const before = running();
  const replied = running({ type: 'AgentReplied', data: { stepId: 's1', text: 'working' } });
  t.is(replied.seq, before.seq + 1);
  t.is(replied.position, before.position);
  const paused = running({ type: 'RunPaused', data: { by } });
  t.is(paused.position, paused.seq);
});

test('a step that ends moves the run to the next node by its outcome; a failure without a route ends nowhere', (t) => {
  const ok = running({ type: 'StepSucceeded', data: { stepId: 's1', node: 'work', summary: 'done' } });
  t.is(ok.step, null);
  t.is(ok.node, 'gate');
  t.deepEqual(ok.previous, { node: 'work', outcome: 'success', summary: 'done' });
  const failed = running({ type: 'StepFailed', data: { stepId: 's1', node: 'work', summary: 'no' } });
  t.is(failed.node, null);
  t.deepEqual(failed.previous, { node: 'work', outcome: 'failure', summary: 'no' });
});

test('the late end of another step changes nothing', (t) => {
  const s = running({ type: 'StepSucceeded', data: { stepId: 'old', node: 'work', summary: 'late' } });
  t.like(s.step, { stepId: 's1' });
  t.is(s.node, 'work');
});

test('a Resume message sent during a turn is held for that turn, and dropped once delivered', (t) => {
  const sent: RunEvent = { type: 'MessageSent', data: { messageId: 'm1', text: 'hi', delivery: 'Resume', by } };
  t.deepEqual(running(sent).held, [{ id: 'm1', text: 'hi', forStep: 's1' }]);
  t.deepEqual(running(sent, { type: 'MessageDelivered', data: { messageId: 'm1', stepId: 's1' } }).held, []);
  const hold: RunEvent = { type: 'MessageSent', data: { messageId: 'm2', text: 'later', delivery: 'Hold', by } };
  t.deepEqual(running(hold).held, [{ id: 'm2', text: 'later' }]);
});

test('a question is open until answered or withdrawn, and remembered either way', (t) => {
  const asked: RunEvent = { type: 'QuestionAsked', data: { questionId: 'q1', stepId: 's1', prompt: 'Which?', options: ['a'], allowText: false } };
  t.like(running(asked).question, { id: 'q1', prompt: 'Which?' });
  const answered = running(asked, { type: 'QuestionAnswered', data: { questionId: 'q1', answer: ['a'], by } });
  t.is(answered.question, null);
  t.deepEqual(answered.answered, { q1: 'answered' });
  const withdrawn = running(asked, { type: 'QuestionWithdrawn', data: { questionId: 'q1', reason: 'the step ended' } });
  t.deepEqual(withdrawn.answered, { q1: 'withdrawn' });
});

test('a jump on a failed run reopens it at the node jumped to', (t) => {
  const s = given(created, queued, started, stepStarted('s1'), { type: 'StepFailed', data: { stepId: 's1', node: 'work', summary: 'no' } }, { type: 'RunFailed', data: { reason: 'no' } },
    { type: 'Jumped', data: { node: 'gate', by } });
  t.is(s.lifecycle, 'queued');
  t.is(s.ending, null);
  t.is(s.node, 'gate');
  t.is(s.updatedAt, at);
});

test('shipping: an opened pull request joins the delivered ones; merges and updates from base are kept; none moves the position', (t) => {
  const pr = { repository: 'acme/app', number: 7, url: 'https://h/acme/app/pull/7' };
  const before = running();
  const s = running(
    { type: 'PullRequestOpened', data: { pullRequest: pr, base: 'main', draft: true, by } },
    { type: 'RunMerged', data: { folder: 'f', method: 'squash', base: 'main', commit: 'c1', by } },
    { type: 'BaseUpdateConflicted', data: { folder: 'f', mode: 'merge', files: ['a.txt'], by, handedTo: 'r2' } },
    { type: 'BaseUpdated', data: { folder: 'g', mode: 'rebase', head: 'c2', by } },
  );
  t.deepEqual(s.pullRequests, [pr]);
  t.deepEqual(s.merges, [{ folder: 'f', method: 'squash', base: 'main', commit: 'c1', at }]);
  t.deepEqual(s.baseUpdates, { f: { mode: 'merge', files: ['a.txt'], handedTo: 'r2' }, g: { mode: 'rebase', head: 'c2' } });
  t.is(s.position, before.position);
});
