import type { RunState } from '../projections/run-state.js';
import type { CommandContext } from './context.js';
import { byAndWhy } from './context.js';
import { accept, refuseAction, type Decision } from './guards.js';

export const decideSkipWait = (s: RunState, c: CommandContext): Decision => {
  if (s.lifecycle !== 'active' || s.paused || s.step?.kind !== 'wait') return refuseAction('SkipWait');
  return accept(
    { type: 'WaitSkipped', data: { stepId: s.step.stepId, ...byAndWhy(c) } },
    { type: 'StepSucceeded', data: { stepId: s.step.stepId, node: s.step.node, summary: 'wait skipped' } },
  );
};
