import * as t from 'io-ts';
import { fields } from './object.js';
import { nonBlank } from './kinds.js';
import { optionalReason } from './common.js';

// Answering a run's open question (POST /api/runs/{id}/answers, answer_question).
export const AnswerInput = fields(
  { question: nonBlank(200), answer: t.union([t.string, t.array(t.string)], 'a string or an array of strings') },
  optionalReason,
);
