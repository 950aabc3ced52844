import type { RunEventOf } from '../journal/run-events.js';
import type { PullRequestRef } from '../domain/runs.js';

// When the code host's view of a run's pull request is worth recording as "checks failed": it is
// open, some check fails, and this head commit has not been recorded failing already (a new push
// that fails again is news; the same failure seen on every poll is not).

export interface ChecksSeen {
  readonly state: 'OPEN' | 'CLOSED' | 'MERGED';
  readonly headCommit: string;
  readonly checks: readonly { readonly name: string; readonly outcome: 'Passed' | 'Failing' | 'Pending' }[];
}

/** lastFailedCommit: the head commit of the last PullRequestChecksFailed recorded for this pull request */
export const decideChecksFailed = (pr: PullRequestRef, seen: ChecksSeen, lastFailedCommit: string | undefined): RunEventOf<'PullRequestChecksFailed'> | null => {
  if (seen.state !== 'OPEN' || seen.headCommit === lastFailedCommit) return null;
  const failing = seen.checks.filter((c) => c.outcome === 'Failing').map((c) => c.name);
  if (!failing.length) return null;
  return { type: 'PullRequestChecksFailed', data: { pullRequest: { repository: pr.repository, number: pr.number, url: pr.url }, headCommit: seen.headCommit, failing } };
};
