import { isLeft, left, right } from 'fp-ts/lib/Either.js';
import { decideRecordFollowUpReview, decideSubmitReview, type SubmitReview } from '../../commands/submit-review.js';
import { conflict, invalid, notFound, type Outcome } from '../../commands/refusal.js';
import type { ReviewComment } from '../../journal/run-events.js';
import type { RunState, SubmittedReview } from '../../projections/run-state.js';
import { diffLines, quoteOf, type DiffFileLines } from '../git/diff-lines.js';
import { readRunDiff } from '../git/run-diff.js';
import type { ReviewInputOf } from '../inputs/review.js';
import { quoted } from '../../domain/quoted.js';
import { reviewMessage } from './review-message.js';
import type { Actor } from '../../domain/runs.js';
import type { RunDetail } from '../../projections/run-shapes.js';
import { type ServiceCore } from './core.js';
import { detailOf } from '../read-models/run-detail.js';
import { deliveryDetail } from './run-commands.js';
import { followUp } from './follow-ups.js';
import { noWorktree } from '../../commands/worktree.js';

// Reviews of a run's diff: the comments are checked against the diff as it is now and each keeps
// the code it quotes; reading them back says which comments' code has changed since (outdated).

type Files = readonly (DiffFileLines & { readonly folder: string })[];

// A path as the diff names it, or prefixed with its folder (runs with several folders).
const fileOf = (files: Files, path: string) => files.find((f) => f.path === path) ?? files.find((f) => `${f.folder}/${f.path}` === path);

// a follow-up run works in the checkouts of the run it continues
const checkoutsOf = (s: RunState) => (s.checkouts?.length ? s.checkouts : s.continues?.checkouts ?? []);

const diffFilesOf = async (s: RunState): Promise<Files> =>
  (await readRunDiff(checkoutsOf(s))).flatMap((f) => ('diff' in f ? diffLines(f.diff).map((x) => ({ ...x, folder: f.folder })) : []));

const locate = (files: Files, c: ReviewInputOf['comments'][number], i: number): Outcome<ReviewComment> => {
  const f = fileOf(files, c.path);
  if (!f) return left(invalid(`comments.${i}.path: ${quoted(c.path)} is not in the run's diff`));
  const q = quoteOf(f, c.side, c.line, c.endLine ?? c.line);
  if ('missing' in q) return left(invalid(`comments.${i}: line ${q.missing} of ${quoted(c.path)} (${c.side} side) is not in the run's diff`));
  return right({ path: c.path, side: c.side, line: c.line, ...(c.endLine !== undefined ? { endLine: c.endLine } : {}), body: c.body, quote: q.quote });
};

const locateAll = (files: Files, input: ReviewInputOf): Outcome<ReviewComment[]> => {
  const out: ReviewComment[] = [];
  for (const [i, c] of input.comments.entries()) {
    const r = locate(files, c, i);
    if (isLeft(r)) return r;
    out.push(r.right);
  }
  return right(out);
};

export interface ReviewAnswer {
  readonly review: SubmittedReview; readonly delivered: boolean; readonly detail: string | null; readonly run: RunDetail;
  /** the run had ended: the follow-up run the review went to */
  readonly followUp?: { readonly runId: string; readonly url: string };
}

export const submitReview = async (core: ServiceCore, runId: string, input: ReviewInputOf, by: Actor): Promise<Outcome<ReviewAnswer>> => {
  const s = core.runs.get(runId);
  if (!s) return left(notFound('run', runId));
  const ctx = { at: core.now().toISOString(), by, reviewId: core.newId('rv'), messageId: core.newId('m'), ...(input.summary !== undefined ? { summary: input.summary } : {}), ...(input.reason !== undefined ? { reason: input.reason } : {}) };
  if (!checkoutsOf(s).length) return left(noWorktree(s, 'there is no diff to review'));
  const comments = locateAll(await diffFilesOf(s), input);
  if (isLeft(comments)) return comments;
  const text = reviewMessage(comments.right, input.summary);
  if (s.lifecycle === 'ended') return asFollowUp(core, runId, { ...ctx, comments: comments.right, text });
  // the engine's steering reacts to MessageSent inside this append (as for message_run)
  const r = core.runs.transact(runId, (now) => (now ? decideSubmitReview(now, { ...ctx, comments: comments.right, text }) : left(notFound('run', runId))), { at: ctx.at, onStale: 'retry' });
  if (isLeft(r)) return r;
  const after = core.runs.get(runId) ?? s;
  const review = after.reviews?.find((x) => x.reviewId === ctx.reviewId);
  if (!review) return left(conflict('the review was not recorded'));
  const held = after.held.find((m) => m.id === ctx.messageId);
  const events = r.right._tag === 'Appended' ? r.right.events : [];
  const delivered = events.some((e) => e.type === 'RunResumed') || (!held && !after.undelivered?.some((m) => m.id === ctx.messageId));
  const jumped = events.find((e) => e.type === 'Jumped');
  const detail = jumped ? `sent back from the gate: the run goes back to step ${jumped.data.node}, whose turn opens with the review` : deliveryDetail(delivered, s, 'Resume', held);
  return right({ review, delivered, detail, run: detailOf(core, after) });
};

// An ended run takes no message: the review becomes a follow-up run whose goal is the review's
// message (it resumes the run's last session where the CLI can), and is recorded on this run.
const asFollowUp = (core: ServiceCore, runId: string, c: SubmitReview): Outcome<ReviewAnswer> => {
  const made = followUp(core, runId, { review: c.text, ...(c.reason !== undefined ? { reason: c.reason } : {}) }, c.by);
  if (isLeft(made)) return made;
  const next = made.right.runId;
  const r = core.runs.transact(runId, (now) => (now ? decideRecordFollowUpReview(now, { ...c, followUp: next }) : left(notFound('run', runId))), { at: c.at, onStale: 'retry' });
  if (isLeft(r)) return r;
  const after = core.runs.get(runId)!;
  const review = after.reviews?.find((x) => x.reviewId === c.reviewId);
  if (!review) return left(conflict('the review was not recorded'));
  const url = `${core.baseUrl}/runs/${encodeURIComponent(next)}`;
  return right({ review, delivered: false, detail: `the run had ended: the review went to follow-up run ${next}, which continues it`, run: detailOf(core, after), followUp: { runId: next, url } });
};

const outdatedOf = (files: Files | null, c: ReviewComment): boolean | null => {
  if (!files) return null;
  const f = fileOf(files, c.path);
  if (!f) return true;
  const q = quoteOf(f, c.side, c.line, c.endLine ?? c.line);
  return !('quote' in q) || q.quote !== c.quote;
};

/** The run's reviews, each comment with `outdated`: its lines changed since it was written (null: the worktree cannot be read) */
export const readReviews = async (core: ServiceCore, runId: string): Promise<Outcome<{ reviews: readonly unknown[] }>> => {
  const s = core.runs.get(runId);
  if (!s) return left(notFound('run', runId));
  const reviews = s.reviews ?? [];
  const files = reviews.length && checkoutsOf(s).length ? await diffFilesOf(s) : null;
  return right({ reviews: reviews.map((r) => ({ ...r, comments: r.comments.map((c) => ({ ...c, outdated: outdatedOf(files, c) })) })) });
};
