import type { RunDecideState } from '../projections/run-decide-state.js';
import type { CommandContext } from './context.js';
import { byAndWhy } from './context.js';
import { accept, nothing, refuseAction, stopInFlight, type Decision } from './guards.js';
import { undeliverHeld } from './undelivered.js';

// Restart starts a new run from the beginning (same project, goal, workflow, inputs, harness).
// The old run records which run replaced it; if it was still going it ends as Aborted.
export const decideRestart = (s: RunDecideState, c: CommandContext & { newRunId: string }): Decision => {
  if (s.restartedAs === c.newRunId) return nothing(); // restarted as that run already
  // a follow-up's workflow only makes sense on the run it continues: follow that up again instead
  if (s.continues) return refuseAction('Restart');
  const restarted = { type: 'RunRestarted' as const, data: { as: c.newRunId, ...byAndWhy(c) } };
  if (s.lifecycle === 'ended') return accept(restarted);
  return accept(...stopInFlight(s, 'restarted'), restarted, { type: 'RunAborted', data: { by: c.by, reason: `restarted as ${c.newRunId}` } },
    ...undeliverHeld(s, `the run was restarted as ${c.newRunId} before a turn took it`));
};
