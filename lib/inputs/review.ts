import * as t from 'io-ts';
import { fields } from './object.js';
import { intRange, nonBlank, oneOf } from './kinds.js';
import { optionalReason } from './common.js';

// A review of a run's changes (POST /api/runs/{id}/reviews, submit_review): comments on lines of
// its diff, each on the new or the old side, and an optional summary. Whether a path and its lines
// are in the run's diff is the service's to say (it reads the diff); the shape is decided here.

export const MAX_REVIEW_COMMENTS = 50;
/** the lines one comment quotes, at most: the quote is recorded in the journal and sent to the agent */
export const MAX_COMMENT_LINES = 500;
const MAX_LINE = 10_000_000;

export const ReviewComment = fields(
  { path: nonBlank(1000), side: oneOf(['new', 'old'] as const), line: intRange(1, MAX_LINE), body: nonBlank(8000) },
  { endLine: intRange(1, MAX_LINE) },
  (c) => (c.endLine === undefined ? null
    : c.endLine < c.line ? `endLine ${c.endLine} is before line ${c.line}`
    : c.endLine - c.line >= MAX_COMMENT_LINES ? `a comment spans at most ${MAX_COMMENT_LINES} lines (got ${c.endLine - c.line + 1})` : null),
);
export type ReviewCommentInput = t.TypeOf<typeof ReviewComment>;

export const ReviewInput = fields(
  { comments: t.array(ReviewComment, 'an array of comments') },
  { summary: nonBlank(8000), ...optionalReason },
  (r) => (r.comments.length === 0 ? 'a review needs at least one comment'
    : r.comments.length > MAX_REVIEW_COMMENTS ? `a review holds at most ${MAX_REVIEW_COMMENTS} comments (got ${r.comments.length})` : null),
);
export type ReviewInputOf = t.TypeOf<typeof ReviewInput>;
