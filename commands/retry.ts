import type { RunDecideState } from '../projections/run-decide-state.js';
import type { CommandContext } from './context.js';
import { byAndWhy } from './context.js';
import { accept, refuseAction, type Decision } from './guards.js';

// Retry runs the failed or interrupted step again from scratch (a fresh agent session).
export const decideRetry = (s: RunDecideState, c: CommandContext): Decision => {
  const failedRun = s.lifecycle === 'ended' && s.ending === 'Failed';
  const stoppedStep = s.lifecycle === 'active' && s.paused && s.step === null && s.previous !== null && s.previous.outcome !== 'success';
  if (!failedRun && !stoppedStep) return refuseAction('Retry');
  return accept({ type: 'RunRetried', data: byAndWhy(c) });
};
