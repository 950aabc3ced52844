// The code host's words for a pull request's state (GitHub's enums: CHANGES_REQUESTED, BLOCKED …)
// put as a person reads them. The merge state keeps GitHub's own term beside it, as the checks'
// outcomes do, for whoever looks it up on the host.

const MERGE_STATE: Readonly<Record<string, string>> = {
  CLEAN: 'ready to merge',
  BLOCKED: 'blocked by a required check or review',
  BEHIND: 'behind its base branch',
  DIRTY: 'conflicts with its base branch',
  DRAFT: 'a draft, not ready to merge',
  HAS_HOOKS: 'ready to merge (with merge hooks)',
  UNSTABLE: 'mergeable, with a failing optional check',
  UNKNOWN: 'not known yet',
};

const REVIEW: Readonly<Record<string, string>> = {
  APPROVED: 'approved',
  CHANGES_REQUESTED: 'changes requested',
  REVIEW_REQUIRED: 'a review is required',
  COMMENTED: 'commented',
  DISMISSED: 'dismissed',
  PENDING: 'pending',
};

/** "changes requested" for CHANGES_REQUESTED; a term it does not know, lower case and spaced */
const plain = (s: string): string => s.toLowerCase().replace(/_/g, ' ');

export const stateText = (state: string, draft: boolean): string => `${plain(state)}${draft ? ' (draft)' : ''}`;

export const mergeStateText = (mergeState: string, mergeable: string): string =>
  `${MERGE_STATE[mergeState] ?? plain(mergeState)} (${mergeState} · ${mergeable})`;

export const reviewText = (state: string | null): string => (state === null ? 'none required' : REVIEW[state] ?? plain(state));
