import type { Checkout, KeptWork } from '../journal/run-events.js';
import type { RunDecideState } from '../projections/run-decide-state.js';
import { accept, nothing, type Decision } from './guards.js';

// An archive removes a run's worktrees only after it has kept their work (docs/app.md, Archive):
// the engine snapshots each folder, records WorkKept, removes the folders, records WorktreesRemoved;
// an unarchive makes them again from what was kept and records WorktreesRestored. Each record is
// taken once: a restart that did the work again records nothing new.

/** the work of the run's current worktrees is kept (only once: a second keep would be of a half-removed folder) */
export const decideRecordKeptWork = (s: RunDecideState, kept: readonly KeptWork[]): Decision =>
  s.checkouts && !s.keptWork ? accept({ type: 'WorkKept', data: { kept: [...kept] } }) : nothing();

export const decideRecordRemoved = (s: RunDecideState): Decision =>
  s.checkouts ? accept({ type: 'WorktreesRemoved', data: {} }) : nothing();

export const decideRecordRestored = (s: RunDecideState, checkouts: readonly Checkout[]): Decision =>
  !s.checkouts && s.keptWork && !s.archived ? accept({ type: 'WorktreesRestored', data: { checkouts: [...checkouts] } }) : nothing();
