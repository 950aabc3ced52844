import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { Checkout } from '../journal/run-events.js';
import type { RunDecideState } from '../projections/run-decide-state.js';
import { conflict, type Refusal } from './refusal.js';

// A run that has no worktree of its own is refused in one wording by every action that needs one
// (secure, push, open a pull request, merge, update from base, review, read the worktree), at
// every door; only what could not be done differs.

// an archive keeps the work before the worktree goes (commands/keep-work.ts): the way back is named
export const noWorktree = (s: RunDecideState, toDo: string): Refusal => {
  if (s.keptWork) return conflict(`the run's worktree is ${s.archived ? 'archived with its work kept: unarchive the run to bring it back as it was' : 'being restored: try again in a moment'}: ${toDo}`);
  return conflict(`the run has no worktree of its own ${s.lifecycle === 'ended' ? 'any more (archived, or it never started)' : 'yet (it has not started)'}: ${toDo}`);
};

/** the run's own worktrees, or why it has none */
export const worktreesFor = (s: RunDecideState, toDo: string): Either<Refusal, readonly Checkout[]> =>
  s.checkouts?.length ? right(s.checkouts) : left(noWorktree(s, toDo));
