import { left } from 'fp-ts/lib/Either.js';
import type { RunDecideState } from '../projections/run-decide-state.js';
import type { CommandContext } from './context.js';
import { byAndWhy } from './context.js';
import { accept, nothing, type Decision } from './guards.js';
import { conflict, invalid } from './refusal.js';

// "Keep this one": of several attempts at one goal, a person keeps one; the others are archived
// (their worktrees go, their journals stay). The kept run records the choice. Its siblings are other
// runs' journals: the caller reads them and passes what the rule needs, then aborts and archives
// them with their own decides (abort, archive) before it appends what this decides.

export interface Sibling {
  readonly runId: string;
  readonly harness: string | null;
  /** queued or active: archiving it would pull its worktree from under its agent */
  readonly going: boolean;
  /** a follow-up of it has not ended (it works in the sibling's worktree) */
  readonly liveFollowUp: string | null;
}

export interface KeepAttempt extends CommandContext {
  readonly others: readonly Sibling[];
  /** abort siblings still going, then archive them */
  readonly abortOthers: boolean;
}

const named = (o: Sibling) => `${o.runId}${o.harness ? ` (${o.harness})` : ''}`;

export const decideKeepAttempt = (s: RunDecideState, c: KeepAttempt): Decision => {
  if (!s.attempt) return left(invalid(`run ${s.runId} is not one of several attempts: only an attempt can be kept over its group`));
  if (s.archived) return left(conflict('the run is archived: unarchive it before keeping it'));
  const following = c.others.find((o) => o.liveFollowUp !== null);
  if (following) return left(conflict(`run ${following.liveFollowUp} (a follow-up of attempt ${following.runId}) has not ended: keep once it has ended`));
  const going = c.others.filter((o) => o.going);
  if (going.length > 0 && !c.abortOthers) {
    return left(conflict(`attempt${going.length > 1 ? 's' : ''} ${going.map(named).join(', ')} ${going.length > 1 ? 'are' : 'is'} still going: wait for ${going.length > 1 ? 'them' : 'it'} to end, or send abortOthers: true to abort ${going.length > 1 ? 'them' : 'it'} first`));
  }
  // a repeat records nothing: the choice is made (the caller still archives a sibling unarchived since)
  if (s.kept) return nothing();
  return accept({ type: 'AttemptKept', data: { group: s.attempt.group, kept: s.runId, archived: c.others.map((o) => o.runId), ...byAndWhy(c) } });
};
