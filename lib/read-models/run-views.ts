import type { ProjectView, QuotaWaitingOn, StepSettings } from '../../domain/runs.js';
import type { HttpRun, RunDetail, RunSummary } from '../../projections/run-shapes.js';
import { isRight } from 'fp-ts/lib/Either.js';
import { allowedActions } from '../../commands/control.js';
import { decideReviseGoal } from '../../commands/revise-goal.js';
import type { RunState } from '../../projections/run-state.js';
import type { SandboxMark } from '../../projections/run-board.js';
import { outcomeOf, phaseOf, standingOf } from '../../projections/standing.js';
import { usageOfRun } from '../../projections/run-usage.js';
import { budgetText } from '../../commands/budget.js';
import { loopView } from '../../projections/pr-watch-view.js';
import { forkViews } from '../../projections/fork-views.js';

// The three shapes a run is read in. All are plain functions of the run state.

export const positionToken = (s: RunState): string => `v${s.position}`;

export const parsePosition = (token: string): number | null => {
  const m = /^v(\d{1,15})$/.exec(token);
  return m ? Number(m[1]) : null;
};

/** a follow-up names the run it continues; a run followed up names its follow-ups */
const links = (s: RunState): { continues?: string; continuedBy?: readonly string[] } => ({
  ...(s.continues ? { continues: s.continues.runId } : {}),
  ...(s.continuedBy?.length ? { continuedBy: s.continuedBy } : {}),
});

const sandboxOf = (m: SandboxMark | undefined) =>
  (m ? { sandbox: { sandboxed: m.sandboxed, ...(m.reason ? { reason: m.reason } : {}) } } : {});

export const httpRun = (s: RunState): HttpRun => {
  const outcome = outcomeOf(s);
  const base = {
    runId: s.runId, title: s.title, workflowName: s.workflow.name, goal: s.goal, project: s.projectId,
    standing: standingOf(s), phase: phaseOf(s), currentStep: s.step?.node ?? s.node, createdAt: s.views.board.createdAt, updatedAt: s.updatedAt,
    ...(s.views.board.startedBy ? { startedBy: s.views.board.startedBy } : {}),
    ...links(s),
  };
  return outcome === undefined ? base : { ...base, outcome };
};

export const runSummary = (s: RunState, project: ProjectView | undefined): RunSummary => ({
  id: s.runId,
  title: s.title,
  workflow: s.workflow.name,
  project: project?.name ?? s.projectId,
  standing: standingOf(s),
  phase: phaseOf(s),
  currentStep: s.step?.node ?? s.node,
  pullRequest: s.pullRequests[s.pullRequests.length - 1] ?? null,
  pullRequests: s.pullRequests,
});

export interface StepFacts {
  readonly settings: StepSettings | null;
  readonly toolClasses: readonly string[];
}

// Asked of decide with a goal that differs, as allowedActions asks each control: the app offers
// "Revise the goal" exactly when the server would take a revision.
const goalRevisable = (s: RunState): boolean =>
  isRight(decideReviseGoal(s, { at: new Date(0).toISOString(), by: { kind: 'engine' }, goal: `${s.goal} ` }));

/** a run waiting on a harness's quota window: its own quota wait, or the queue holding it */
export const quotaWaitingOn = (s: RunState): QuotaWaitingOn | null => {
  const q = s.step?.quota;
  if (q && s.lifecycle === 'active') return { harness: q.harness, until: s.step?.endsAt ?? null, evidence: q.evidence };
  return s.lifecycle === 'queued' && s.queueHeld ? { harness: s.queueHeld.harness, until: s.queueHeld.until } : null;
};

const waitingOnOf = (s: RunState): { waitingOn?: QuotaWaitingOn } => {
  const w = quotaWaitingOn(s);
  return w ? { waitingOn: w } : {};
};

/** owner: the supervisor that owns the run (projections/ownership.ts), null when none exists */
/** waiting: why the queue holds the run (lib/usage/project-spend.ts), when it does */
export const runDetail = (s: RunState, project: ProjectView | undefined, step: StepFacts, owner: string | null = null, waiting?: string): RunDetail => {
  const outcome = outcomeOf(s);
  return {
    ...runSummary(s, project),
    projectId: s.projectId,
    goal: s.goal,
    ...sandboxOf(s.views.board.sandbox),
    ...(outcome === undefined ? {} : { outcome }),
    archived: s.archived,
    resolved: s.resolved,
    currentStepToolClasses: step.toolClasses,
    currentStepSettings: step.settings,
    allowedActions: allowedActions(s),
    canReviseGoal: goalRevisable(s),
    ...(s.question ? { question: { id: s.question.id, prompt: s.question.prompt, options: s.question.options, allowText: s.question.allowText } } : {}),
    ...(s.step?.kind === 'wait' && s.step.endsAt && !s.paused ? { waitEndsAt: s.step.endsAt } : {}),
    ...(s.views.board.startedBy ? { startedBy: s.views.board.startedBy } : {}),
    ...waitingOnOf(s),
    ...loopView(s),
    position: positionToken(s),
    owner,
    ...(s.unreadable ? { unreadableHistory: s.unreadable } : {}),
    ...(s.views.undelivered?.length ? { undeliveredMessages: s.views.undelivered } : {}),
    ...(s.views.board.restartOf ? { restartOf: s.views.board.restartOf } : {}),
    ...(s.restartedAs ? { restartedAs: s.restartedAs } : {}),
    ...(s.attempt ? { attempt: { ...s.attempt, kept: s.kept !== undefined } } : {}),
    ...links(s),
    usage: usageOfRun(s),
    ...(s.budgetUsd !== undefined ? { budget: { budgetUsd: s.budgetUsd, text: budgetText(s) } } : {}),
    ...(s.paused && s.pauseReason ? { pauseReason: s.pauseReason } : {}),
    ...(waiting ? { waiting } : {}),
    ...forkViews(s),
    ...(s.merges?.length ? { merged: s.merges } : {}),
  };
};
