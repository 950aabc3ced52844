import { left } from 'fp-ts/lib/Either.js';
import type { HeldMessage, RunState } from '../projections/run-state.js';
import { firstNode } from '../projections/run-state.js';
import type { Checkout, RunEvent } from '../journal/run-events.js';
import type { HarnessName } from '../lib/workflows/model.js';
import { accept, nothing, type Decision } from './guards.js';
import { conflict } from './refusal.js';
import { undeliverHeld } from './undelivered.js';

// The engine's own commands: it records what it did and what came of it. They are decided against
// the state like any other command, so a late outcome of a turn that was interrupted (paused,
// aborted, jumped away from) is simply nothing.

export const decideGrantSlot = (s: RunState): Decision =>
  s.lifecycle === 'queued' ? accept({ type: 'RunStarted', data: { node: s.node ?? firstNode(s.workflow) } }) : nothing();

export const decideRecordWorktrees = (s: RunState, checkouts: readonly Checkout[]): Decision =>
  s.lifecycle === 'active' && !s.checkouts ? accept({ type: 'WorktreesPrepared', data: { checkouts: [...checkouts] } }) : nothing();

export interface StartStep {
  readonly stepId: string;
  readonly node: string;
  readonly kind: string;
  readonly attempt: number;
  readonly harness?: HarnessName;
  readonly model?: string;
  readonly endsAt?: string;
  readonly resumeSession?: string;
  readonly messages?: readonly string[];
}

export const decideStartStep = (s: RunState, c: StartStep): Decision => {
  if (s.lifecycle !== 'active' || s.paused || s.step || s.node !== c.node) return nothing();
  const { messages, ...rest } = c;
  return accept({ type: 'StepStarted', data: messages && messages.length ? { ...rest, messages: [...messages] } : rest });
};

export interface FinishStep {
  readonly stepId: string;
  readonly outcome: 'success' | 'failure' | 'interrupted';
  readonly summary: string;
  readonly failure?: string;
  readonly costUsd?: number;
}

// A CLI that cannot start (not installed, not logged in) says nothing about the agent's work: the
// step is interrupted, not failed, so no failure edge is taken, and the run pauses with the reason
// until a person fixes the harness (Resume runs the step again) or picks another (ChangeHarness).
const harnessProblem = (s: RunState, c: FinishStep): RunEvent[] => {
  const node = s.step!.node;
  const reason = `harness problem: ${c.summary}`;
  return [{ type: 'StepInterrupted', data: { stepId: c.stepId, node, reason } }, { type: 'RunPaused', data: { by: { kind: 'engine' }, reason } }];
};

export const decideFinishStep = (s: RunState, c: FinishStep): Decision => {
  if (s.step?.stepId !== c.stepId) return nothing();
  const node = s.step.node;
  // A question the step asked dies with it: the agent's call returns, and answering is refused.
  const withdrawn: RunEvent[] = s.question?.stepId === c.stepId ? [{ type: 'QuestionWithdrawn', data: { questionId: s.question.id, reason: 'the step ended' } }] : [];
  const cost = c.costUsd === undefined ? {} : { costUsd: c.costUsd };
  if (c.outcome === 'interrupted') return accept(...withdrawn, { type: 'StepInterrupted', data: { stepId: c.stepId, node, reason: c.summary } });
  if (c.outcome === 'failure' && c.failure === 'unavailable') return accept(...withdrawn, ...harnessProblem(s, c));
  if (c.outcome === 'success') return accept(...withdrawn, { type: 'StepSucceeded', data: { stepId: c.stepId, node, summary: c.summary, ...cost } });
  return accept(...withdrawn, { type: 'StepFailed', data: { stepId: c.stepId, node, summary: c.summary, ...cost, ...(c.failure ? { failure: c.failure } : {}) } });
};

export const decideAskQuestion = (s: RunState, c: { stepId: string; questionId: string; prompt: string; options: readonly string[]; allowText: boolean }): Decision => {
  if (s.step?.stepId !== c.stepId || s.paused) return left(conflict('the step that asked is no longer running'));
  if (s.question) return left(conflict('a question is already open'));
  return accept({ type: 'QuestionAsked', data: { ...c, options: [...c.options] } });
};

export const decideReportOutcome = (s: RunState, c: { stepId: string; outcome: 'success' | 'failure'; summary: string }): Decision =>
  s.step?.stepId === c.stepId ? accept({ type: 'OutcomeReported', data: c }) : left(conflict('the step that reported is no longer running'));

export const decideEndRun = (s: RunState, c: { success: boolean; text: string }): Decision => {
  if (s.lifecycle !== 'active' || s.step) return nothing();
  const end: RunEvent = c.success ? { type: 'RunSucceeded', data: { summary: c.text } } : { type: 'RunFailed', data: { reason: c.text } };
  return accept(end, ...undeliverHeld(s, `the run ${c.success ? 'succeeded' : 'failed'} before a turn took it`));
};

/** Messages sent with Resume during this step's turn that its CLI could not take mid-turn. */
export const meantForTurn = (s: RunState, stepId: string): readonly HeldMessage[] =>
  s.held.filter((m) => m.forStep === stepId);

// A turn ended with messages meant for it still held: they are delivered by continuing the same
// session with them, before the step's outcome is accepted. Nothing when the step is no longer
// the run's live one (paused, aborted, moved on): then they wait for the next turn as usual.
export const decideContinueTurn = (s: RunState, c: { stepId: string }): Decision => {
  if (s.lifecycle !== 'active' || s.paused || s.step?.stepId !== c.stepId) return nothing();
  return accept(...meantForTurn(s, c.stepId).map((m): RunEvent => ({ type: 'MessageDelivered', data: { messageId: m.id, stepId: c.stepId } })));
};
