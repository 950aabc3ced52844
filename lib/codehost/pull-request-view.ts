import { checkView } from './check-outcome.js';
import type { PullRequestView, RequestedReviewerView, ReviewView } from '../../domain/pull-request.js';
import type { RawContext, RawPullRequest, RawReviewer } from './queries.js';

// The spec's "Pull request view", mapped from GitHub's answer. Pure and total: nulls anywhere in
// the answer become empty lists or nulls, never a throw. Titles, bodies, reviews and comments are
// people's words: copied as they are, never interpreted.

type Nodes<T> = { readonly nodes?: readonly (T | null)[] | null } | null | undefined;

const present = <T>(c: Nodes<T>): T[] => (c?.nodes ?? []).filter((n): n is T => n !== null && n !== undefined);

const isContext = (c: RawContext): boolean => c.__typename === 'CheckRun' || c.__typename === 'StatusContext';

// latestReviews is already one per reviewer; keeping the last per author (nodes come oldest
// first) makes that true even if the host sends more than one.
export const latestPerReviewer = (reviews: readonly ReviewView[]): ReviewView[] => {
  const byAuthor = new Map<string | null, ReviewView>();
  for (const r of reviews) {
    byAuthor.delete(r.author);
    byAuthor.set(r.author, r);
  }
  return [...byAuthor.values()];
};

export const requestedReviewer = (r: RawReviewer): RequestedReviewerView =>
  r.__typename === 'Team' ? { kind: 'Team', name: r.slug } : { kind: 'Person', name: r.login };

const isKnownReviewer = (r: RawReviewer | null): r is RawReviewer =>
  r !== null && (r.__typename === 'Team' ? typeof r.slug === 'string' : typeof r.login === 'string');

export const pullRequestView = (repository: string, pr: RawPullRequest): PullRequestView => ({
  repository,
  number: pr.number,
  title: pr.title,
  url: pr.url,
  draft: pr.isDraft,
  headCommit: pr.headRefOid,
  state: pr.state,
  mergeable: pr.mergeable,
  mergeState: pr.mergeStateStatus,
  reviewDecision: pr.reviewDecision ?? null,
  autoMerge: pr.autoMergeRequest ? { enabledAt: pr.autoMergeRequest.enabledAt ?? null, mergeMethod: pr.autoMergeRequest.mergeMethod } : null,
  inMergeQueue: pr.isInMergeQueue,
  checks: present(pr.statusCheckRollup?.contexts).filter(isContext).map(checkView),
  reviews: latestPerReviewer(present(pr.latestReviews).map((r) => ({ author: r.author?.login ?? null, state: r.state }))),
  requestedReviewers: present(pr.reviewRequests)
    .map((r) => r.requestedReviewer)
    .filter(isKnownReviewer)
    .map(requestedReviewer),
  reviewThreads: present(pr.reviewThreads).map((t) => ({
    resolved: t.isResolved,
    outdated: t.isOutdated,
    comments: present(t.comments).map((c) => ({ author: c.author?.login ?? null, path: c.path, body: c.body, url: c.url })),
  })),
});
