import { left } from 'fp-ts/lib/Either.js';
import type { RunState } from '../projections/run-state.js';
import { isGoing } from '../projections/standing.js';
import type { CommandContext } from './context.js';
import { byAndWhy } from './context.js';
import { accept, nothing, type Decision } from './guards.js';
import { conflict } from './refusal.js';

// Archiving the state a run already has is no change and no error.
export const decideArchive = (s: RunState, c: CommandContext & { state: 'Archived' | 'Active' }): Decision => {
  if (c.state === 'Active') return s.archived ? accept({ type: 'RunUnarchived', data: byAndWhy(c) }) : nothing();
  if (s.archived) return nothing();
  if (isGoing(s)) return left(conflict('the run is still going; abort it or let it end before archiving'));
  return accept({ type: 'RunArchived', data: byAndWhy(c) });
};
