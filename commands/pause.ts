import type { RunDecideState } from '../projections/run-decide-state.js';
import type { CommandContext } from './context.js';
import { byAndWhy } from './context.js';
import { accept, refuseAction, stopInFlight, type Decision } from './guards.js';

// Pause stops the turn in flight (it is recorded as interrupted) and holds the run where it is.
export const decidePause = (s: RunDecideState, c: CommandContext): Decision => {
  if (s.lifecycle !== 'active' || s.paused) return refuseAction('Pause');
  return accept(...stopInFlight(s, 'paused'), { type: 'RunPaused', data: byAndWhy(c) });
};
