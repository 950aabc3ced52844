// The spec's "Pull request view" as the decides read it (auto-merge, the PR loop): plain data,
// mapped from the host's answer by lib/codehost/pull-request-view.ts.

export type MergeMethod = 'squash' | 'merge' | 'rebase';

export type CheckOutcome = 'Passed' | 'Failing' | 'Pending';

export interface CheckView {
  readonly name: string;
  readonly required: boolean;
  readonly outcome: CheckOutcome;
  /** the host's own word: a check run's conclusion once completed, else its status; a status's state */
  readonly state: string;
}

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
