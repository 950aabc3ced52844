import { timingSafeEqual } from 'node:crypto';
import { isLeft, left } from 'fp-ts/lib/Either.js';
import { decideAskQuestion, decideReportOutcome } from '../../commands/engine-steps.js';
import { notFound, refusalText } from '../../commands/refusal.js';
import type { Journal, Stored } from '../../journal/journal.js';
import type { RunStreams } from '../state/run-stream.js';
import { newToken } from '../ids.js';
import { subscribeRuns } from '../../journal/typed-subscribe.js';

// The service side of each run's own tool server (ask_question, report_outcome). Tokens are made
// per step and die with it: an agent can act only on its own run, and only while its step runs.

export type AskAnswer = { readonly answer: string | string[] } | { readonly withdrawn: string };

const same = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export class RunToolsBackend {
  private readonly tokens = new Map<string, { runId: string; stepId: string }>();

  constructor(private readonly runs: RunStreams, private readonly journal: Journal, private readonly newId: (p: string) => string, private readonly now: () => Date) {}

  issue(runId: string, stepId: string): { token: string; revoke(): void } {
    const token = newToken();
    this.tokens.set(token, { runId, stepId });
    return { token, revoke: () => this.tokens.delete(token) };
  }

  authorize(runId: string, token: string): boolean {
    for (const [t, v] of this.tokens) if (v.runId === runId && same(t, token)) return true;
    return false;
  }

  private stepOf(runId: string): string | null {
    return this.runs.get(runId)?.step?.stepId ?? null;
  }

  reportOutcome(runId: string, r: { outcome: 'success' | 'failure'; summary: string }): void {
    const stepId = this.stepOf(runId);
    if (!stepId) throw new Error('no step of this run is running');
    const d = this.runs.transact(runId, (s) => (s ? decideReportOutcome(s, { stepId, ...r }) : left(notFound('run', runId))), { at: this.now().toISOString(), onStale: 'retry' });
    if (isLeft(d)) throw new Error(refusalText(d.left));
  }

  askQuestion(runId: string, q: { prompt: string; options?: readonly string[]; allowText?: boolean }): Promise<AskAnswer> {
    const s = this.runs.get(runId);
    const stepId = this.stepOf(runId);
    if (!s || !stepId) return Promise.reject(new Error('no step of this run is running'));
    const questionId = this.newId('q');
    const options = q.options ?? [];
    const d = decideAskQuestion(s, { stepId, questionId, prompt: q.prompt, options, allowText: q.allowText ?? options.length === 0 });
    if (isLeft(d)) return Promise.reject(new Error(refusalText(d.left)));
    // listening before the question is recorded: the answer is an event the append's listeners may cause
    const answered = this.answerOf(runId, questionId);
    this.runs.transact(runId, () => d, { at: this.now().toISOString(), onStale: 'refuse' });
    return answered;
  }

  // Waits on the journal, not by polling: the answer or the withdrawal is an event of the run.
  private answerOf(runId: string, questionId: string): Promise<AskAnswer> {
    return new Promise((resolve) => {
      const stop = subscribeRuns(this.journal, (run, events) => {
        if (run !== runId) return;
        for (const e of events) {
          if (e.type === 'QuestionAnswered' && e.data.questionId === questionId) { stop(); resolve({ answer: e.data.answer }); }
          if (e.type === 'QuestionWithdrawn' && e.data.questionId === questionId) { stop(); resolve({ withdrawn: e.data.reason }); }
        }
      });
    });
  }
}
