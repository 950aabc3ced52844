import type { RunDecideState } from '../projections/run-decide-state.js';
import type { CommandContext } from './context.js';
import { byAndWhy } from './context.js';
import { accept, refuseAction, type Decision } from './guards.js';
import { quotaWaitEnded } from './quota.js';

export const decideSkipWait = (s: RunDecideState, c: CommandContext): Decision => {
  if (s.lifecycle !== 'active' || s.paused || s.step?.kind !== 'wait') return refuseAction('SkipWait');
  const skipped = { type: 'WaitSkipped', data: { stepId: s.step.stepId, ...byAndWhy(c) } } as const;
  // a quota wait skipped runs its agent step again now (in its session), rather than moving on
  if (s.step.quota) return accept(skipped, ...quotaWaitEnded(s));
  return accept(skipped, { type: 'StepSucceeded', data: { stepId: s.step.stepId, node: s.step.node, summary: 'wait skipped' } });
};
