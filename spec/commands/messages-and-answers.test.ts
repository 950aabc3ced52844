import test from 'ava';
import { decideAnswerQuestion } from '../../commands/answer-question.js';
import { decideArchive } from '../../commands/archive.js';
import { decideResolve } from '../../commands/resolve.js';
import { decideReviseGoal } from '../../commands/revise-goal.js';
import { decideSendMessage } from '../../commands/send-message.js';
import type { RunEvent } from '../../journal/run-events.js';
import { at, by, runDecider, RUNNING } from '../helpers/given.js';

const ctx = { at, by };
const message = runDecider(decideSendMessage);
const answer = runDecider(decideAnswerQuestion);
const revise = runDecider(decideReviseGoal);
const archive = runDecider(decideArchive);
const resolve = runDecider(decideResolve);

const asked = (allowText: boolean): RunEvent[] => [...RUNNING, { type: 'QuestionAsked', data: { questionId: 'q1', stepId: 's1', prompt: 'Which?', options: ['a', 'b'], allowText } }];
const paused: RunEvent[] = [...RUNNING, { type: 'StepInterrupted', data: { stepId: 's1', node: 'work', reason: 'paused' } }, { type: 'RunPaused', data: { by } }];
const failed: RunEvent[] = [...RUNNING, { type: 'RunFailed', data: { reason: 'x' } }];
const succeeded: RunEvent[] = [...RUNNING, { type: 'RunSucceeded', data: { summary: 'ok' } }];
const sent = (delivery: 'Resume' | 'Hold', text = 'hi', messageId = 'm1'): RunEvent => ({ type: 'MessageSent', data: { messageId, text, delivery, by } });

test('message Resume or Hold on a running step is recorded (reaching the live turn is the engine\'s reaction, lib/engine/steering.ts); a blank text is refused', (t) => {
  const base = { ...ctx, messageId: 'm1', text: 'hi' };
  message(t).given(...RUNNING).when({ ...base, delivery: 'Resume' }).then(sent('Resume'));
  message(t).given(...RUNNING).when({ ...base, delivery: 'Hold' }).then(sent('Hold'));
  message(t).given(...RUNNING).when({ ...base, delivery: 'Resume', text: '  ' }).thenRefused('Invalid', 'text must not be blank');
});

test('message Resume on a paused run resumes it; on an ended run it is refused', (t) => {
  message(t).given(...paused).when({ ...ctx, messageId: 'm', text: 'go on', delivery: 'Resume' }).then(sent('Resume', 'go on', 'm'), { type: 'RunResumed', data: { by } });
  message(t).given(...RUNNING, { type: 'RunAborted', data: { by } }).when({ ...ctx, messageId: 'm', text: 'x', delivery: 'Hold' })
    .thenRefused('Ended', 'the run has ended (Aborted); the message was not taken');
});

test('answers: labels must be options, text only where allowed, once', (t) => {
  answer(t).given(...asked(false)).when({ ...ctx, questionId: 'q1', answer: ['b'] }).then({ type: 'QuestionAnswered', data: { questionId: 'q1', answer: ['b'], by } });
  answer(t).given(...asked(true)).when({ ...ctx, questionId: 'q1', answer: 'free', reason: 'why' }).then({ type: 'QuestionAnswered', data: { questionId: 'q1', answer: 'free', by, reason: 'why' } });
  answer(t).given(...asked(false)).when({ ...ctx, questionId: 'q1', answer: 'free text' }).thenRefused('Invalid', 'question q1 does not take written text; choose from: a, b');
  answer(t).given(...asked(true)).when({ ...ctx, questionId: 'q1', answer: ['c'] }).thenRefused('Invalid', 'not an option: c; options: a, b');
  answer(t).given(...asked(true)).when({ ...ctx, questionId: 'q1', answer: [] }).thenRefused('Invalid', 'choose at least one option');
  const answered: RunEvent = { type: 'QuestionAnswered', data: { questionId: 'q1', answer: 'x', by } };
  answer(t).given(...asked(true), answered).when({ ...ctx, questionId: 'q1', answer: 'x' }).thenRefused('Conflict', 'question q1 was already answered');
  answer(t).given(...RUNNING).when({ ...ctx, questionId: 'q9', answer: 'x' }).thenRefused('NotFound', 'unknown question: q9');
});

test('goal: revised while going, refused once ended, the same goal again is nothing', (t) => {
  revise(t).given(...RUNNING).when({ ...ctx, goal: 'new' }).then({ type: 'GoalRevised', data: { goal: 'new', previous: 'g', by } });
  revise(t).given(...RUNNING).when({ ...ctx, goal: 'g' }).thenNothing();
  revise(t).given(...succeeded).when({ ...ctx, goal: 'new' }).thenRefused('Ended', 'the run has ended; its goal cannot be revised');
});

test('archive: refused while going, idempotent; resolve: only runs that ended without success, twice is nothing', (t) => {
  archive(t).given(...RUNNING).when({ ...ctx, state: 'Archived' }).thenRefused('Conflict', 'the run is still going; abort it or let it end before archiving');
  archive(t).given(...failed).when({ ...ctx, state: 'Archived' }).then({ type: 'RunArchived', data: { by } });
  archive(t).given(...failed).when({ ...ctx, state: 'Active' }).thenNothing();
  archive(t).given(...failed, { type: 'RunArchived', data: { by } }).when({ ...ctx, state: 'Active' }).then({ type: 'RunUnarchived', data: { by } });
  resolve(t).given(...failed).when(ctx).then({ type: 'RunResolved', data: { by } });
  resolve(t).given(...failed, { type: 'RunResolved', data: { by } }).when(ctx).thenNothing();
  resolve(t).given(...succeeded).when(ctx).thenRefused('Conflict', 'only a run that ended without success can be resolved');
  archive(t).given(...succeeded).when({ ...ctx, state: 'Archived' }).then({ type: 'RunArchived', data: { by } });
});
