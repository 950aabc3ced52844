import test from 'ava';
import { decideRecordFollowUpReview, decideSubmitReview, type SubmitReview } from '../../commands/submit-review.js';
import type { RunEvent } from '../../journal/run-events.js';
import { at, by, created, prepared, queued, runDecider, started, stepStarted, RUNNING } from '../helpers/given.js';

// A review is recorded and sent as one Resume message: given(events) / when(review) / then(events).

const review = runDecider(decideSubmitReview);
const recorded = runDecider(decideRecordFollowUpReview);
const comments = [{ path: 'a.ts', side: 'new' as const, line: 2, body: 'Rename it.', quote: 'const x = 1;' }];
const c: SubmitReview = { at, by, reviewId: 'rv1', messageId: 'm1', comments, summary: 'Small.', text: 'the message' };
const reviewed: RunEvent = { type: 'ReviewSubmitted', data: { reviewId: 'rv1', messageId: 'm1', comments, summary: 'Small.', by } };
const sent: RunEvent = { type: 'MessageSent', data: { messageId: 'm1', text: 'the message', delivery: 'Resume', by, review: 'rv1' } };
const workDone: RunEvent = { type: 'StepSucceeded', data: { stepId: 's1', node: 'work', summary: 'ok' } };

test('into a live turn: the review, then its message (the engine hands it to the CLI)', (t) => {
  review(t).given(...RUNNING).when(c).then(reviewed, sent);
});

test('a paused run (not at a gate) resumes with it, as a Resume message does', (t) => {
  review(t).given(...RUNNING, { type: 'RunPaused', data: { by } }).when(c).then(reviewed, sent, { type: 'RunResumed', data: { by } });
});

test('at a gate whose route leads to no agent, the run goes back to the agent step it came from with the review', (t) => {
  review(t).given(...RUNNING, workDone, stepStarted('g1', 'gate', 'gate')).when(c)
    .then(reviewed, sent, { type: 'StepInterrupted', data: { stepId: 'g1', node: 'gate', reason: 'jumped to work' } }, { type: 'Jumped', data: { node: 'work', by } });
});

test('at a gate with no agent step before or after it, no agent would read the review: refused', (t) => {
  review(t).given(created, queued, started, prepared, stepStarted('g1', 'gate', 'gate')).when(c).thenRefused('Conflict', /no agent would read the review/);
});

test('the same review again decides nothing', (t) => {
  review(t).given(...RUNNING, reviewed, sent).when(c).thenNothing();
});

test('an ended run is refused, pointing to a follow-up', (t) => {
  review(t).given(...RUNNING, { type: 'RunAborted', data: { by } }).when(c).thenRefused('Ended', /follow-up/);
});

test('an ended run records the review with the follow-up run that carries it, and sends no message', (t) => {
  const aborted: RunEvent = { type: 'RunAborted', data: { by } };
  const withFollowUp: RunEvent = { type: 'ReviewSubmitted', data: { ...(reviewed.data as object), followUp: 'r2' } as never };
  recorded(t).given(...RUNNING, aborted).when({ ...c, followUp: 'r2' }).then(withFollowUp);
  recorded(t).given(...RUNNING, aborted, withFollowUp).when({ ...c, followUp: 'r2' }).thenNothing();
  recorded(t).given(...RUNNING).when({ ...c, followUp: 'r2' }).thenRefused('Conflict', /going again/);
});
