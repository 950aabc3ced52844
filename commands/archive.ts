import { left } from 'fp-ts/lib/Either.js';
import type { RunDecideState } from '../projections/run-decide-state.js';
import { isGoing } from '../projections/standing.js';
import type { CommandContext } from './context.js';
import { byAndWhy } from './context.js';
import { accept, nothing, type Decision } from './guards.js';
import { conflict } from './refusal.js';

export interface Archive extends CommandContext {
  readonly state: 'Archived' | 'Active';
  /** a follow-up of the run that works in its worktree and has not ended (the handler looks it up) */
  readonly liveInChain?: string | null;
}

// Archiving the state a run already has is no change and no error. An archive takes the run's
// worktrees away, so it waits for a follow-up working in them to end.
export const decideArchive = (s: RunDecideState, c: Archive): Decision => {
  if (c.state === 'Active') return s.archived ? accept({ type: 'RunUnarchived', data: byAndWhy(c) }) : nothing();
  if (s.archived) return nothing();
  if (isGoing(s)) return left(conflict('the run is still going; abort it or let it end before archiving'));
  if (c.liveInChain && c.liveInChain !== s.runId) return left(conflict(`run ${c.liveInChain} is working in this run's worktree (a follow-up) and has not ended: archive once it has ended`));
  return accept({ type: 'RunArchived', data: byAndWhy(c) });
};
