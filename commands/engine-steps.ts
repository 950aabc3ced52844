import { left } from 'fp-ts/lib/Either.js';
import type { HeldMessage, RunDecideState } from '../projections/run-decide-state.js';
import { firstNode } from '../projections/run-decide-state.js';
import type { Checkout, RunEvent } from '../journal/run-events.js';
import type { HarnessName } from '../domain/workflow.js';
import { accept, nothing, type Decision } from './guards.js';
import { conflict } from './refusal.js';
import { undeliverHeld } from './undelivered.js';
import { heldRefusal, quotaEvents, quotaWaitEnded, type HoldQueued, type QuotaFacts } from './quota.js';
import { dailyBudgetHold } from './budget.js';
import { PAUSE_HARNESS } from '../domain/pause-reasons.js';

// The engine's own commands: it records what it did and what came of it. They are decided against
// the state like any other command, so a late outcome of a turn that was interrupted (paused,
// aborted, jumped away from) is simply nothing.

/** `held`: how many runs hold a slot now (active); `cap`: the effective run cap at this moment;
 * `project`: the run's project's daily budget and what the project has spent today (local day) */
export interface GrantSlot {
  readonly held: number;
  readonly cap: number;
  /** the harness this run would start on is out of quota and it has no fallback ready: it waits */
  readonly quotaHold?: HoldQueued;
  readonly project?: { readonly dailyBudgetUsd?: number; readonly spentTodayUsd: number };
}

/** why this queued run is held whatever slots are free: its project's daily budget is reached */
export const queueHold = (c: GrantSlot): string | null => (c.project ? dailyBudgetHold(c.project.dailyBudgetUsd, c.project.spentTodayUsd) : null);

// The cap is a rule of the command, not of the scheduler that asks: whoever grants a slot (the
// engine's schedule, a future caller) is refused once every slot is held. A run whose project has
// reached its daily budget stays queued (not failed) until the next day or a raise.
export const decideGrantSlot = (s: RunDecideState, c: GrantSlot): Decision => {
  if (s.lifecycle !== 'queued') return nothing();
  const hold = queueHold(c);
  if (hold) return left(conflict(hold));
  if (c.held >= c.cap) return left(conflict(`all ${c.cap} run slot(s) are taken; the run waits in the queue`));
  if (c.quotaHold) return heldRefusal(c.quotaHold);
  return accept({ type: 'RunStarted', data: { node: s.node ?? firstNode(s.workflow) } });
};

export const decideRecordWorktrees = (s: RunDecideState, checkouts: readonly Checkout[]): Decision =>
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
  /** steps that run something in the run's folder (agent, command): in svc's sandbox or not, and why not */
  readonly sandboxed?: boolean;
  readonly unsandboxed?: string;
}

export const decideStartStep = (s: RunDecideState, c: StartStep): Decision => {
  if (s.lifecycle !== 'active' || s.paused || s.step || s.node !== c.node) return nothing();
  const { messages, ...rest } = c;
  return accept({ type: 'StepStarted', data: messages && messages.length ? { ...rest, messages: [...messages] } : rest });
};

/** What the step's process said when it ended: for an agent step, the CLI's own end-of-turn result. */
export interface FinishStep {
  readonly stepId: string;
  readonly outcome: 'success' | 'failure' | 'interrupted';
  readonly summary: string;
  readonly failure?: string;
  readonly costUsd?: number;
  /** with failure 'quota': what the CLI said, when it resets, the clock, and a fallback harness if any */
  readonly quota?: QuotaFacts;
}

// The agent's reported outcome (report_outcome, folded into the step) beats the CLI's result: a
// CLI ends its turn "successfully" whether or not the work succeeded, and only the agent knows.
// An interruption beats both: the turn did not end on its own.
const chosen = (s: RunDecideState, c: FinishStep): Pick<FinishStep, 'outcome' | 'summary'> => {
  const reported = s.step?.stepId === c.stepId ? s.step.reported : undefined;
  const pick = c.outcome !== 'interrupted' && reported ? reported : c;
  return { outcome: pick.outcome, summary: pick.summary || pick.outcome };
};

// A CLI that cannot start (not installed, not logged in) says nothing about the agent's work: the
// step is interrupted, not failed, so no failure edge is taken, and the run pauses with the reason
// until a person fixes the harness (Resume runs the step again) or picks another (ChangeHarness).
const harnessProblem = (s: RunDecideState, c: FinishStep): RunEvent[] => {
  const node = s.step!.node;
  const reason = `${PAUSE_HARNESS}: ${c.summary}`;
  return [{ type: 'StepInterrupted', data: { stepId: c.stepId, node, reason } }, { type: 'RunPaused', data: { by: { kind: 'engine' }, reason } }];
};

export const decideFinishStep = (s: RunDecideState, c: FinishStep): Decision => {
  if (s.step?.stepId !== c.stepId) return nothing();
  const node = s.step.node;
  // A question the step asked dies with it: the agent's call returns, and answering is refused.
  const withdrawn: RunEvent[] = s.question?.stepId === c.stepId ? [{ type: 'QuestionWithdrawn', data: { questionId: s.question.id, reason: 'the step ended' } }] : [];
  const cost = c.costUsd === undefined ? {} : { costUsd: c.costUsd };
  // a quota wait (the step's turn was refused for quota) that ends runs the step again, in its session;
  // the quota failure told again is the one this wait already holds
  if (s.step.quota && c.outcome === 'success') return accept(...quotaWaitEnded(s));
  if (s.step.quota && c.outcome === 'failure') return nothing();
  // a CLI out of quota is not the agent failing (unless the agent had already reported its outcome)
  if (c.outcome === 'failure' && c.failure === 'quota' && c.quota && !s.step.reported) return accept(...withdrawn, ...quotaEvents(s, c.stepId, c.quota));
  // a CLI that could not start ran no agent: nothing was reported, and the harness is the problem
  if (c.outcome === 'failure' && c.failure === 'unavailable') return accept(...withdrawn, ...harnessProblem(s, c));
  const { outcome, summary } = chosen(s, c);
  if (outcome === 'interrupted') return accept(...withdrawn, { type: 'StepInterrupted', data: { stepId: c.stepId, node, reason: summary } });
  if (outcome === 'success') return accept(...withdrawn, { type: 'StepSucceeded', data: { stepId: c.stepId, node, summary, ...cost } });
  return accept(...withdrawn, { type: 'StepFailed', data: { stepId: c.stepId, node, summary, ...cost, ...(c.failure ? { failure: c.failure } : {}) } });
};

export const decideAskQuestion = (s: RunDecideState, c: { stepId: string; questionId: string; prompt: string; options: readonly string[]; allowText: boolean }): Decision => {
  if (s.step?.stepId !== c.stepId || s.paused) return left(conflict('the step that asked is no longer running'));
  if (s.question) return left(conflict('a question is already open'));
  return accept({ type: 'QuestionAsked', data: { ...c, options: [...c.options] } });
};

// A report the step holds already (the agent's call retried) is nothing; a different one replaces it.
export const decideReportOutcome = (s: RunDecideState, c: { stepId: string; outcome: 'success' | 'failure'; summary: string }): Decision => {
  if (s.step?.stepId !== c.stepId) return left(conflict('the step that reported is no longer running'));
  const held = s.step.reported;
  return held?.outcome === c.outcome && held.summary === c.summary ? nothing() : accept({ type: 'OutcomeReported', data: c });
};

export const decideEndRun = (s: RunDecideState, c: { success: boolean; text: string }): Decision => {
  if (s.lifecycle !== 'active' || s.step) return nothing();
  const end: RunEvent = c.success ? { type: 'RunSucceeded', data: { summary: c.text } } : { type: 'RunFailed', data: { reason: c.text } };
  return accept(end, ...undeliverHeld(s, `the run ${c.success ? 'succeeded' : 'failed'} before a turn took it`));
};

/** Messages sent with Resume during this step's turn that its CLI could not take mid-turn. */
export const meantForTurn = (s: RunDecideState, stepId: string): readonly HeldMessage[] =>
  s.held.filter((m) => m.forStep === stepId);

// A turn ended with messages meant for it still held: they are delivered by continuing the same
// session with them, before the step's outcome is accepted. Nothing when the step is no longer
// the run's live one (paused, aborted, moved on): then they wait for the next turn as usual.
export const decideContinueTurn = (s: RunDecideState, c: { stepId: string }): Decision => {
  if (s.lifecycle !== 'active' || s.paused || s.step?.stepId !== c.stepId) return nothing();
  return accept(...meantForTurn(s, c.stepId).map((m): RunEvent => ({ type: 'MessageDelivered', data: { messageId: m.id, stepId: c.stepId } })));
};
