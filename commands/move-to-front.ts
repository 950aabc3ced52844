import type { RunDecideState } from '../projections/run-decide-state.js';
import type { CommandContext } from './context.js';
import { byAndWhy } from './context.js';
import { accept, nothing, refuseAction, type Decision } from './guards.js';

// The queue is ordered by priority, lowest first; runs queue at their creation time, and a move to
// the front takes minus the time of the move, so the latest move gets the very next slot.
export const decideMoveToFront = (s: RunDecideState, c: CommandContext): Decision => {
  if (s.lifecycle !== 'queued') return refuseAction('MoveToFront');
  if (s.queuePriority === -Date.parse(c.at)) return nothing(); // this very move, again
  return accept({ type: 'RunMovedToFront', data: { priority: -Date.parse(c.at), ...byAndWhy(c) } });
};
