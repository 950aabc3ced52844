import type { CycleCause, CycleResult, FailingCheck, ReviewThread, RunEvent } from '../journal/run-events.js';
import type { RunDecideState } from '../projections/run-decide-state.js';
import type { PullRequestWatch } from '../projections/pr-watch.js';
import { accept, nothing, type Decision } from './guards.js';
import { PAUSE_PR_LOOP } from '../domain/pause-reasons.js';

// The pull request loop's decisions (lib/engine/pr-loop.ts carries them out). A poll's reading of
// the pull request becomes at most one thing: the step ends (merged, closed), a cycle starts on a
// cause not taken up before, or the loop stops at its limit. The cause is recorded before the
// agent's turn, so a cause seen again (the next poll, a restart) never starts a second turn.

/** what a poll read of the watched pull request, already narrowed to what the loop acts on */
export interface PullRequestSeen {
  readonly state: 'OPEN' | 'CLOSED' | 'MERGED';
  readonly headCommit: string;
  readonly base: string;
  readonly mergeable: string;
  /** required checks failing on the head commit */
  readonly failing: readonly FailingCheck[];
  /** unresolved, current review threads started by people (not by svc) */
  readonly threads: readonly ReviewThread[];
}

const watching = (s: RunDecideState, stepId: string): PullRequestWatch | undefined =>
  s.lifecycle === 'active' && s.step?.stepId === stepId && s.prWatch?.stepId === stepId ? s.prWatch : undefined;

/** the deliver step opened its pull request and watches it: recorded together, so a restart finds the watch */
export const decideWatchPullRequest = (
  s: RunDecideState,
  c: { stepId: string; pullRequest: { repository: string; number: number; url: string }; cycles: number; resolveThreads: boolean; again?: boolean },
): Decision => {
  if (s.step?.stepId !== c.stepId || s.prWatch?.stepId === c.stepId) return nothing();
  const watch: RunEvent = { type: 'PullRequestWatchStarted', data: { stepId: c.stepId, pullRequest: c.pullRequest, cycles: c.cycles, resolveThreads: c.resolveThreads } };
  // again: the step watched this pull request before it was interrupted (delivered then)
  return c.again ? accept(watch) : accept({ type: 'PullRequestDelivered', data: { stepId: c.stepId, pullRequest: c.pullRequest } }, watch);
};

// Failing checks first (nothing merges while they fail), then people's threads, then conflicts.
export const nextCause = (w: PullRequestWatch, seen: PullRequestSeen): CycleCause | null => {
  const taken = new Set(w.causes);
  if (seen.failing.length > 0 && !taken.has(`checks:${seen.headCommit}`)) return { _tag: 'Checks', headCommit: seen.headCommit, failing: [...seen.failing] };
  const threads = seen.threads.filter((t) => !taken.has(`thread:${t.id}`));
  if (threads.length > 0) return { _tag: 'Threads', headCommit: seen.headCommit, threads };
  if (seen.mergeable === 'CONFLICTING' && !taken.has(`conflict:${seen.headCommit}`)) return { _tag: 'Conflict', headCommit: seen.headCommit, base: seen.base };
  return null;
};

const limitReason = (w: PullRequestWatch, cause: CycleCause): string => {
  const what = cause._tag === 'Checks' ? `checks failing (${cause.failing.map((f) => f.name).join(', ')})` : cause._tag === 'Threads' ? `${cause.threads.length} new review thread(s)` : `conflicts with ${cause.base}`;
  return `${PAUSE_PR_LOOP} ${w.cycles} cycle(s) and pull request #${w.pullRequest.number} has ${what} on ${cause.headCommit.slice(0, 7)}; fix it by hand and Resume, or raise cycles`;
};

export const decidePullRequestPoll = (s: RunDecideState, c: { stepId: string; seen: PullRequestSeen }): Decision => {
  const w = watching(s, c.stepId);
  if (!w) return nothing();
  const node = s.step!.node;
  const n = w.pullRequest.number;
  if (c.seen.state === 'MERGED') return accept({ type: 'StepSucceeded', data: { stepId: c.stepId, node, summary: `pull request #${n} merged` } });
  if (c.seen.state === 'CLOSED') return accept({ type: 'StepFailed', data: { stepId: c.stepId, node, summary: `pull request #${n} was closed without being merged` } });
  if (w.open || s.paused) return nothing();
  const cause = nextCause(w, c.seen);
  if (!cause) return nothing();
  if (w.started >= w.cycles) {
    const reason = limitReason(w, cause);
    return accept({ type: 'PullRequestLoopLimitReached', data: { stepId: c.stepId, cause, reason } }, { type: 'RunPaused', data: { by: { kind: 'engine' }, reason } });
  }
  return accept({ type: 'PullRequestCycleStarted', data: { stepId: c.stepId, cycle: w.started + 1, of: w.cycles, cause } });
};

export const decideEndCycle = (s: RunDecideState, c: { stepId: string; cycle: number; result: CycleResult }): Decision =>
  s.prWatch?.stepId === c.stepId && s.prWatch.open?.cycle === c.cycle ? accept({ type: 'PullRequestCycleEnded', data: c }) : nothing();

/** replies are made once: threads already answered in this cycle are not recorded again */
export const decideThreadsAnswered = (s: RunDecideState, c: { stepId: string; cycle: number; replied: readonly string[]; resolved: readonly string[] }): Decision => {
  if (s.prWatch?.stepId !== c.stepId || s.prWatch.open?.cycle !== c.cycle || s.prWatch.open.answered || c.replied.length === 0) return nothing();
  const e: RunEvent = { type: 'PullRequestThreadsAnswered', data: { ...c, replied: [...c.replied], resolved: [...c.resolved] } };
  return accept(e);
};
