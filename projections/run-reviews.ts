import type { ReviewComment, RunEvent } from '../journal/run-events.js';

// The reviews of a run's diff, each comment with the code it quoted: what the run page's review
// list shows (lib/service/reviews.ts). The decide state keeps only their ids (reviewIds).

export interface SubmittedReview {
  readonly reviewId: string;
  readonly at: string;
  readonly comments: readonly ReviewComment[];
  readonly summary?: string;
  /** the follow-up run the review went to (the run had ended) */
  readonly followUp?: string;
}

export type RunReviewsView = readonly SubmittedReview[] | undefined;

/** `at`: the event's time */
export const evolveRunReviews = (v: RunReviewsView, e: RunEvent, at: string): RunReviewsView => {
  if (e.type !== 'ReviewSubmitted') return v;
  const d = e.data;
  const review: SubmittedReview = {
    reviewId: d.reviewId, at, comments: d.comments,
    ...(d.summary !== undefined ? { summary: d.summary } : {}), ...(d.followUp !== undefined ? { followUp: d.followUp } : {}),
  };
  return [...(v ?? []), review];
};
