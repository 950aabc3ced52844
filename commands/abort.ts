import type { RunDecideState } from '../projections/run-decide-state.js';
import type { CommandContext } from './context.js';
import { byAndWhy } from './context.js';
import { accept, refuseAction, stopInFlight, type Decision } from './guards.js';
import { undeliverHeld } from './undelivered.js';

// Abort ends a run for good: nothing reopens an aborted run (Restart starts a new one).
export const decideAbort = (s: RunDecideState, c: CommandContext): Decision => {
  if (s.lifecycle === 'ended') return refuseAction('Abort');
  return accept(...stopInFlight(s, 'aborted'), { type: 'RunAborted', data: byAndWhy(c) }, ...undeliverHeld(s, 'the run was aborted before a turn took it'));
};
