import { left } from 'fp-ts/lib/Either.js';
import type { RunDecideState } from '../projections/run-decide-state.js';
import type { CommandContext } from './context.js';
import { byAndWhy } from './context.js';
import { accept, readable, type Decision } from './guards.js';
import { conflict, invalid, notFound } from './refusal.js';
import { quoted } from '../domain/quoted.js';

export const decideAnswerQuestion = (s: RunDecideState, c: CommandContext & { questionId: string; answer: string | readonly string[] }): Decision => {
  const blocked = readable(s, 'answer_question');
  if (blocked) return left(blocked);
  const past = s.answered[c.questionId];
  if (past) return left(conflict(`question ${quoted(c.questionId)} was already ${past}`));
  const q = s.question;
  if (!q || q.id !== c.questionId) return left(notFound('question', c.questionId));
  if (typeof c.answer === 'string') {
    if (!q.allowText) return left(invalid(`question ${q.id} does not take written text; choose from: ${q.options.join(', ')}`));
    if (c.answer.trim() === '') return left(invalid('answer must not be blank'));
  } else {
    if (c.answer.length === 0) return left(invalid('choose at least one option'));
    const unknown = c.answer.filter((label) => !q.options.includes(label));
    if (unknown.length) return left(invalid(`not an option: ${unknown.slice(0, 5).map(quoted).join(', ')}; options: ${q.options.join(', ')}`));
  }
  return accept({ type: 'QuestionAnswered', data: { questionId: q.id, answer: typeof c.answer === 'string' ? c.answer : [...c.answer], ...byAndWhy(c) } });
};
