import { type CheckView, checkView } from './check-outcome.js';
import type { RawContext, RawPullRequest, RawReviewer } from './queries.js';

// The spec's "Pull request view", mapped from GitHub's answer. Pure and total: nulls anywhere in
// the answer become empty lists or nulls, never a throw. Titles, bodies, reviews and comments are
// people's words: copied as they are, never interpreted.

export interface ReviewView {
  /** the reviewer's login; null when the account is gone (GitHub shows "ghost") */
  readonly author: string | null;
  /** APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED or PENDING, as the host says */
  readonly state: string;
}

export interface RequestedReviewerView {
  readonly kind: 'Person' | 'Team';
  /** a person's (or bot's) login; a team's slug, the handle it is requested and mentioned by */
  readonly name: string;
}

export interface CommentView {
  readonly author: string | null;
  readonly path: string;
  readonly body: string;
  readonly url: string;
}

export interface ReviewThreadView {
  readonly resolved: boolean;
  readonly outdated: boolean;
  readonly comments: readonly CommentView[];
}

export interface PullRequestView {
  /** "owner/name" */
  readonly repository: string;
  readonly number: number;
  readonly title: string;
  readonly url: string;
  readonly draft: boolean;
  readonly headCommit: string;
  readonly state: 'OPEN' | 'CLOSED' | 'MERGED';
  /** MERGEABLE, CONFLICTING or UNKNOWN (GitHub computes it lazily: UNKNOWN means ask again) */
  readonly mergeable: string;
  /** GitHub's mergeStateStatus: CLEAN, BLOCKED, BEHIND, DIRTY, DRAFT, HAS_HOOKS, UNSTABLE, UNKNOWN */
  readonly mergeState: string;
  /** APPROVED, CHANGES_REQUESTED, REVIEW_REQUIRED, or null when no review is required */
  readonly reviewDecision: string | null;
  /** the host's own object, kept rather than folded to a boolean because the method and time
   *  matter to whoever decides what to do next; null when auto-merge is off */
  readonly autoMerge: { readonly enabledAt: string | null; readonly mergeMethod: string } | null;
  readonly inMergeQueue: boolean;
  readonly checks: readonly CheckView[];
  readonly reviews: readonly ReviewView[];
  readonly requestedReviewers: readonly RequestedReviewerView[];
  readonly reviewThreads: readonly ReviewThreadView[];
}

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
