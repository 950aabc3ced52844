import { left } from 'fp-ts/lib/Either.js';
import type { Continues } from '../journal/run-events.js';
import type { RunDecideState } from '../projections/run-decide-state.js';
import type { CommandContext } from './context.js';
import { byAndWhy } from './context.js';
import { accept, nothing, type Decision } from './guards.js';
import { conflict } from './refusal.js';

// A follow-up continues an ended run: a new run (its own journal) on the old run's branch and
// worktrees, resuming its last agent session where the CLI can. The old run records the link.
// Two runs must never work one worktree at once, so the old run must have ended, its worktrees
// must still be there, and no other follow-up of the same chain may still be going.

export interface FollowUp extends CommandContext {
  readonly newRunId: string;
  /** a run of the same chain (same worktrees) that has not ended, if any */
  readonly liveInChain: string | null;
  /** whether every worktree the run recorded is still on disk */
  readonly worktreesPresent: boolean;
}

const refusal = (s: RunDecideState, c: FollowUp): string | null => {
  if (s.archived) return `run ${s.runId} is archived: its worktree is gone, so it cannot be followed up (start a new run instead)`;
  if (s.lifecycle !== 'ended') return `run ${s.runId} is still going: follow up once it has ended; message it instead`;
  if (!s.checkouts && !s.continues) return `run ${s.runId} never got a worktree: there is nothing to continue (restart it instead)`;
  if (!c.worktreesPresent) return `the worktree of run ${s.runId} is gone, so it cannot be followed up (start a new run instead)`;
  if (c.liveInChain) return `run ${c.liveInChain} already continues this run's worktree and has not ended: follow up once it has ended, or message it`;
  return null;
};

export const decideFollowUp = (s: RunDecideState, c: FollowUp): Decision => {
  if (s.continuedBy?.includes(c.newRunId)) return nothing(); // followed up as that run already
  const refused = refusal(s, c);
  if (refused) return left(conflict(refused));
  return accept({ type: 'RunFollowedUp', data: { as: c.newRunId, ...byAndWhy(c) } });
};

const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** What a CLI that cannot resume the session is told of the run it continues. */
export const threadSummary = (s: RunDecideState): string => {
  const last = s.previous ? `\nIts last step, ${s.previous.node}, ended with ${s.previous.outcome}: ${clip(s.previous.summary, 2000)}` : '';
  const ending = s.ending ? `\nThe run ended ${s.ending}${s.endReason ? ` (${clip(s.endReason, 500)})` : ''}.` : '';
  return `Run ${s.runId} worked in this worktree on the goal:\n${clip(s.goal, 4000)}${last}${ending}`;
};

/** What the follow-up takes over: the checkouts (a follow-up of a follow-up keeps the first run's), the latest session, the summary. */
// The session's running totals go with it: the follow-up's first turn resumes that session, and
// claude and codex report the session's totals, earlier runs' turns included (lib/harness/session-totals.ts).
export const continuesOf = (s: RunDecideState): Continues => {
  const session = s.lastSession ?? s.continues?.session;
  const totals = session ? (s.usage?.sessions[session.sessionId] ?? (s.lastSession ? undefined : s.continues?.session?.totals)) : undefined;
  return {
    runId: s.runId, root: s.continues?.root ?? s.runId, checkouts: [...(s.checkouts ?? s.continues?.checkouts ?? [])], thread: threadSummary(s),
    ...(session ? { session: { harness: session.harness, node: session.node, sessionId: session.sessionId, ...(totals ? { totals } : {}) } } : {}),
  };
};
