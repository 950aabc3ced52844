import type { Journal } from '../../journal/journal.js';
import { subscribeRuns } from '../../journal/typed-subscribe.js';
import type { OpenQuestion } from '../../projections/run-decide-state.js';
import { untrusted } from '../untrusted.js';

// A question outlives the turn that asked it. When the agent's call to ask_question could not
// wait (the CLI gave up on it, or svc restarted and the CLI went with it), the question stays
// open and the run stays Question; the answer, whenever it comes, starts one more turn of the
// same step in the same session, which says it is the answer to the question the agent asked.

export type Answer = string | readonly string[];

/** The answer to `questionId` once recorded; null if it is withdrawn or `signal` aborts first. */
export const answerOf = (journal: Journal, runId: string, questionId: string, signal: AbortSignal): Promise<Answer | null> =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve(null);
    const done = (a: Answer | null): void => {
      stop();
      signal.removeEventListener('abort', aborted);
      resolve(a);
    };
    const aborted = (): void => done(null);
    const stop = subscribeRuns(journal, (run, events) => {
      if (run !== runId) return;
      for (const e of events) {
        if (e.type === 'QuestionAnswered' && e.data.questionId === questionId) return done(e.data.answer);
        if (e.type === 'QuestionWithdrawn' && e.data.questionId === questionId) return done(null);
      }
    });
    signal.addEventListener('abort', aborted);
  });

const answerText = (a: Answer): string => (typeof a === 'string' ? a : a.join(', '));

/** The next turn's prompt: the question the agent asked (its own words, fenced as data) and the
 * person's answer (from the people steering the run, as their messages are). */
export const answerPrompt = (q: OpenQuestion, a: Answer): string =>
  `You asked the people steering this run a question with ask_question, and your call ended before the answer came. ` +
  `It has come now.\n${untrusted('Your question', q.prompt)}\nThe answer to your question: ${answerText(a)}\n\n` +
  'Go on with the step using this answer (do not ask the same question again), then finish it and report its outcome.';
