import { decideContinueTurn, meantForTurn } from '../../commands/engine-steps.js';
import type { Turn, TurnResult } from '../harness/adapter.js';
import type { SessionTotals } from '../../domain/harness.js';
import type { EngineContext } from './context.js';
import { recordTurnUsage, type TurnOf } from './turn-usage.js';
import { continuationPrompt } from './prompt.js';
import { answerOf, answerPrompt } from './question-wait.js';

export interface StepTurns {
  readonly of: TurnOf;
  readonly abort: AbortSignal;
  /** the session the step resumed (its first turn has not reported one yet, or there is no first turn) */
  readonly session?: string;
  /** how many of the step's turns came before the first one here (a later turn taken up after a restart) */
  readonly before?: number;
  /** start the next turn of the step's session with this prompt; totals: what its last turn reported */
  next(prompt: string, session: string, totals?: SessionTotals): Turn;
}

const settle = (turn: Turn | { readonly result: Promise<TurnResult> }): Promise<TurnResult> =>
  turn.result.catch((err: unknown): TurnResult => ({ outcome: 'failure', summary: `the harness failed: ${String(err)}`, failure: 'error' }));

// a turn that could not even start (spawn threw) settles as a failed one
const startedOrFailed = (start: () => Turn): Turn | { readonly result: Promise<TurnResult> } => {
  try {
    return start();
  } catch (err) {
    return { result: Promise.reject(err) };
  }
};

const addCost = (a: number | undefined, b: number | undefined): number | undefined => (a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0));

// A turn that ended on its own while the step's question is still open did not get the answer (the
// CLI stopped waiting for the call, or there was no turn: svc restarted). Quota and a CLI that
// cannot start have their own paths; an interruption ended the step, and withdrew the question.
const waitsForAnswer = (r: TurnResult): boolean => r.outcome !== 'interrupted' && r.failure !== 'quota' && r.failure !== 'unavailable';

/** The prompt of the step's next turn in the same session, or null when the step is done. */
const nextPrompt = async (ctx: EngineContext, step: StepTurns, r: TurnResult, session: string): Promise<string | null> => {
  const { runId, stepId, node } = step.of;
  const s = ctx.deps.runs.get(runId);
  const asked = s?.question?.stepId === stepId ? s.question : null;
  if (asked && waitsForAnswer(r)) {
    ctx.log(runId, `step ${node}: the turn ended with its question open; the session goes on once it is answered`);
    const answer = await answerOf(ctx.deps.journal, runId, asked.id, step.abort);
    if (answer === null || step.abort.aborted) return null;
    ctx.log(runId, `step ${node}: continuing the session with the answer to its question`);
    return answerPrompt(asked, answer);
  }
  if (r.outcome === 'interrupted' || r.failure || step.abort.aborted) return null;
  const pending = s ? meantForTurn(s, stepId) : [];
  if (pending.length === 0 || !ctx.apply(runId, (st) => decideContinueTurn(st, { stepId }))) return null;
  ctx.log(runId, `step ${node}: continuing the session with ${pending.length} message(s) sent during the turn`);
  return continuationPrompt(pending);
};

// The step's turns: the first, then one more for the answer to a question the agent's call could
// not wait for (question-wait.ts), and one for each batch of Resume messages that arrived while a
// turn ran and its CLI could not take them (codex, opencode; claude once its turn has ended). A turn
// that was stopped or failed in the CLI itself is not continued: its messages stay held for the
// step's next turn, or are reported undelivered if the run ends first. Each turn reports its own
// cost (given the session totals the last one reported), recorded as UsageRecorded as it ends, so
// the step's cost is their sum. A step that resumes a session (an interrupted step, a follow-up's
// first turn) is given the totals last recorded for it, so it counts only its own turn.
// `first` null: no turn yet, the step waits for its question's answer (after a restart).
export const runTurns = async (ctx: EngineContext, step: StepTurns, first: Turn | null): Promise<TurnResult> => {
  const { runId, node } = step.of;
  let turn = step.before ?? 0;
  let r: TurnResult = { outcome: 'success', summary: 'the step waited for an answer', ...(step.session ? { sessionId: step.session } : {}) };
  if (first) recordTurnUsage(ctx, step.of, ++turn, (r = await settle(first)));
  for (;;) {
    if (step.abort.aborted) return r;
    const session = r.sessionId ?? ctx.deps.runs.get(runId)?.sessions[node];
    const prompt = session ? await nextPrompt(ctx, step, r, session) : null;
    if (!prompt || !session) return r;
    const cost = r.costUsd;
    const totals = r.sessionTotals;
    r = await settle(startedOrFailed(() => step.next(prompt, session, totals)));
    recordTurnUsage(ctx, { ...step.of, sessionId: session }, ++turn, r);
    const total = addCost(cost, r.costUsd);
    if (total !== undefined) r = { ...r, costUsd: total };
    if (!r.sessionTotals && totals) r = { ...r, sessionTotals: totals };
  }
};
