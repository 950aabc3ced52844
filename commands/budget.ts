import { left } from 'fp-ts/lib/Either.js';
import type { RunDecideState } from '../projections/run-decide-state.js';
import { spentText, usdText } from '../projections/run-usage.js';
import type { CommandContext } from './context.js';
import { accept, nothing, type Decision } from './guards.js';
import { conflict, invalid } from './refusal.js';
import { PAUSE_BUDGET } from '../domain/pause-reasons.js';

// A run's budget. Its known spend reaching the budget stops the run before its next step (the
// turn in flight finishes: its usage is only known once it has ended). Turns of unknown cost
// cannot be added, so the known spend decides and every text says it is a lower bound.

const known = (s: RunDecideState): number => s.usage?.knownUsd ?? 0;

export const overBudget = (s: RunDecideState, budget = s.budgetUsd): boolean => budget !== undefined && known(s) >= budget;

/** "spent $x of $y budget", or "spent at least $x (N turns of unknown cost) of $y budget" */
export const budgetText = (s: RunDecideState, budget = s.budgetUsd ?? 0): string =>
  `spent ${spentText(known(s), s.usage?.unknownTurns ?? 0)} of ${usdText(budget)} budget`;

export const BUDGET_PAUSE = PAUSE_BUDGET;

/** why a project's new runs wait now, or null: its daily budget, reached by today's known spend */
export const dailyBudgetHold = (budgetUsd: number | undefined, spentUsd: number): string | null =>
  budgetUsd !== undefined && spentUsd >= budgetUsd ? `waiting: project daily budget ${usdText(budgetUsd)} reached (spent ${usdText(spentUsd)})` : null;

// The engine asks before it starts a step: a run over its budget pauses with the reason instead.
export const decideBudgetPause = (s: RunDecideState): Decision => {
  if (s.lifecycle !== 'active' || s.paused || s.step || !overBudget(s)) return nothing();
  return accept({ type: 'RunPaused', data: { by: { kind: 'engine' }, reason: `${BUDGET_PAUSE}: ${budgetText(s)}` } });
};

/** the paused run's budget pause text, while it is paused by its budget */
export const budgetPauseOf = (s: RunDecideState): string | undefined =>
  s.paused && s.pauseReason?.startsWith(`${BUDGET_PAUSE}: `) ? s.pauseReason : undefined;

// Resume with budgetUsd raises the budget first; Resume that would leave the run over its budget
// is refused with how much it has spent (it would only pause again before its next step).
export const budgetOnResume = (s: RunDecideState, c: CommandContext & { readonly budgetUsd?: number }): Decision => {
  const budget = c.budgetUsd ?? s.budgetUsd;
  if (c.budgetUsd !== undefined && s.budgetUsd !== undefined && c.budgetUsd <= s.budgetUsd) {
    return left(invalid(`budgetUsd must raise the budget: it is ${usdText(s.budgetUsd)} (${budgetText(s)})`));
  }
  if (overBudget(s, budget)) return left(conflict(`the run has ${budgetText(s, budget)}; Resume with a raised budgetUsd`));
  return c.budgetUsd === undefined ? nothing() : accept({ type: 'BudgetRaised', data: { budgetUsd: c.budgetUsd, by: c.by } });
};
