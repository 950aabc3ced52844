import type { RunState } from '../projections/run-state.js';
import type { CommandContext } from './context.js';
import { byAndWhy } from './context.js';
import { accept, refuseAction, type Decision } from './guards.js';

// Resume lets a paused run go on; at a gate it is the approval that passes the gate. A run that was
// recorded without starting (start: false) is started by Resume: it joins the queue.
export const decideResume = (s: RunState, c: CommandContext): Decision => {
  if (s.lifecycle === 'created') return accept({ type: 'RunQueued', data: byAndWhy(c) });
  if (s.lifecycle !== 'active' || !s.paused) return refuseAction('Resume');
  const resumed = { type: 'RunResumed' as const, data: byAndWhy(c) };
  if (s.step?.kind !== 'gate') return accept(resumed);
  return accept(resumed, { type: 'StepSucceeded', data: { stepId: s.step.stepId, node: s.step.node, summary: 'gate passed' } });
};
