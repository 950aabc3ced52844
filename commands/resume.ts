import { isLeft } from 'fp-ts/lib/Either.js';
import type { RunDecideState } from '../projections/run-decide-state.js';
import type { CommandContext } from './context.js';
import { byAndWhy } from './context.js';
import { budgetOnResume } from './budget.js';
import { accept, refuseAction, type Decision } from './guards.js';

// Resume lets a paused run go on; at a gate it is the approval that passes the gate. A run that was
// recorded without starting (start: false) is started by Resume: it joins the queue. `budgetUsd`
// raises the run's budget (commands/budget.ts); a run left over its budget is not resumed.
export const decideResume = (s: RunDecideState, c: CommandContext & { readonly budgetUsd?: number }): Decision => {
  if (s.lifecycle !== 'created' && (s.lifecycle !== 'active' || !s.paused)) return refuseAction('Resume');
  const raised = budgetOnResume(s, c);
  if (isLeft(raised)) return raised;
  const budget = raised.right;
  if (s.lifecycle === 'created') return accept(...budget, { type: 'RunQueued', data: byAndWhy(c) });
  const resumed = { type: 'RunResumed' as const, data: byAndWhy(c) };
  if (s.step?.kind !== 'gate') return accept(...budget, resumed);
  return accept(...budget, resumed, { type: 'StepSucceeded', data: { stepId: s.step.stepId, node: s.step.node, summary: 'gate passed' } });
};
