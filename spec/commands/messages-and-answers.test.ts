import test from 'ava';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { decideAnswerQuestion } from '../../commands/answer-question.js';
import { decideArchive } from '../../commands/archive.js';
import { decideResolve } from '../../commands/resolve.js';
import { decideReviseGoal } from '../../commands/revise-goal.js';
import { decideSendMessage } from '../../commands/send-message.js';
import { at, by, running } from '../helpers/given.js';

const ctx = { at, by };
const types = (d: { _tag: string; right?: { type: string }[] }) => (d._tag === 'Right' ? d.right!.map((e) => e.type) : 'refused');
const asked = (allowText: boolean) => running({ type: 'QuestionAsked', data: { questionId: 'q1', stepId: 's1', prompt: 'Which?', options: ['a', 'b'], allowText } });

test('message Resume or Hold on a running step is recorded (reaching the live turn is the engine\'s reaction); a blank text is refused', (t) => {
  const base = { ...ctx, messageId: 'm1', text: 'hi' };
  t.deepEqual(types(decideSendMessage(running(), { ...base, delivery: 'Resume' })), ['MessageSent']);
  t.deepEqual(types(decideSendMessage(running(), { ...base, delivery: 'Hold' })), ['MessageSent']);
  t.true(isLeft(decideSendMessage(running(), { ...base, delivery: 'Resume', text: '  ' })));
});

test('message Resume on a paused run resumes it; on an ended run it is refused', (t) => {
  const paused = running({ type: 'StepInterrupted', data: { stepId: 's1', node: 'work', reason: 'paused' } }, { type: 'RunPaused', data: { by } });
  t.deepEqual(types(decideSendMessage(paused, { ...ctx, messageId: 'm', text: 'go on', delivery: 'Resume' })), ['MessageSent', 'RunResumed']);
  const ended = running({ type: 'RunAborted', data: { by } });
  t.true(isLeft(decideSendMessage(ended, { ...ctx, messageId: 'm', text: 'x', delivery: 'Hold' })));
});

test('answers: labels must be options, text only where allowed, once', (t) => {
  t.deepEqual(types(decideAnswerQuestion(asked(false), { ...ctx, questionId: 'q1', answer: ['b'] })), ['QuestionAnswered']);
  t.true(isLeft(decideAnswerQuestion(asked(false), { ...ctx, questionId: 'q1', answer: 'free text' })));
  t.true(isLeft(decideAnswerQuestion(asked(true), { ...ctx, questionId: 'q1', answer: ['c'] })));
  t.true(isLeft(decideAnswerQuestion(asked(true), { ...ctx, questionId: 'q1', answer: [] })));
  const answered = asked(true);
  const again = { ...answered, question: null, answered: { q1: 'answered' as const } };
  const d = decideAnswerQuestion(again, { ...ctx, questionId: 'q1', answer: 'x' });
  t.true(isLeft(d) && /already answered/.test((d.left as { detail: string }).detail));
});

test('goal: revised while going, refused once ended, the same goal again is nothing', (t) => {
  t.deepEqual(types(decideReviseGoal(running(), { ...ctx, goal: 'new' })), ['GoalRevised']);
  t.deepEqual(types(decideReviseGoal(running(), { ...ctx, goal: 'g' })), []);
  t.true(isLeft(decideReviseGoal(running({ type: 'RunSucceeded', data: { summary: 'ok' } }), { ...ctx, goal: 'new' })));
});

test('archive: refused while going, idempotent; resolve: only runs that ended without success, twice is nothing', (t) => {
  t.true(isLeft(decideArchive(running(), { ...ctx, state: 'Archived' })));
  const failed = running({ type: 'RunFailed', data: { reason: 'x' } });
  t.deepEqual(types(decideArchive(failed, { ...ctx, state: 'Archived' })), ['RunArchived']);
  t.deepEqual(types(decideArchive(failed, { ...ctx, state: 'Active' })), []);
  t.deepEqual(types(decideResolve(failed, ctx)), ['RunResolved']);
  t.deepEqual(types(decideResolve({ ...failed, resolved: true }, ctx)), []);
  t.true(isLeft(decideResolve(running({ type: 'RunSucceeded', data: { summary: 'ok' } }), ctx)));
  t.true(isRight(decideArchive(running({ type: 'RunSucceeded', data: { summary: 'ok' } }), { ...ctx, state: 'Archived' })));
});
