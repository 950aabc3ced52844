import { isLeft, left, right } from 'fp-ts/lib/Either.js';
import { decideRecordFollowUpReview, decideSubmitReview, type SubmitReview } from '../../commands/submit-review.js';
import { sendBackRoute, sendBackText } from '../../commands/send-back.js';
import { conflict, invalid, notFound, type Outcome } from '../../commands/refusal.js';
import type { ReviewComment } from '../../journal/run-events.js';
import type { RunState } from '../../projections/run-state.js';
import type { SubmittedReview } from '../../projections/run-reviews.js';
import { diffLines, quoteOf, type DiffFileLines } from '../git/diff-lines.js';
import { readRunDiff } from '../git/run-diff.js';
import { keepBlob, lineMoves } from '../git/line-moves.js';
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
// the code it quotes, and (new side) the file as it was. Reading them back follows each comment's
// lines through the changes made since, as a code host does: a comment stays current, at its
// new place, while its own lines are unchanged; it is outdated once they changed or went away.

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

const directoryOf = (s: RunState, folder: string): string | undefined => checkoutsOf(s).find((c) => c.folder === folder)?.directory;

// the file as it is now, kept so the comment can follow its lines later (new side only: the old side is the base, which stays)
const withBlob = async (s: RunState, files: Files, c: ReviewComment): Promise<ReviewComment> => {
  const f = c.side === 'new' ? fileOf(files, c.path) : undefined;
  const dir = f ? directoryOf(s, f.folder) : undefined;
  const blob = f && dir ? await keepBlob(dir, f.path) : null;
  return blob ? { ...c, blob } : c;
};

const locateAll = async (s: RunState, files: Files, input: ReviewInputOf): Promise<Outcome<ReviewComment[]>> => {
  const out: ReviewComment[] = [];
  for (const [i, c] of input.comments.entries()) {
    const r = locate(files, c, i);
    if (isLeft(r)) return r;
    out.push(await withBlob(s, files, r.right));
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
  const comments = await locateAll(s, await diffFilesOf(s), input);
  if (isLeft(comments)) return comments;
  const text = reviewMessage(comments.right, input.summary);
  if (s.lifecycle === 'ended') return asFollowUp(core, runId, { ...ctx, comments: comments.right, text });
  // the engine's steering reacts to MessageSent inside this append (as for message_run)
  const r = core.runs.transact(runId, (now) => (now ? decideSubmitReview(now, { ...ctx, comments: comments.right, text }) : left(notFound('run', runId))), { at: ctx.at, onStale: 'retry' });
  if (isLeft(r)) return r;
  const after = core.runs.get(runId) ?? s;
  const review = after.views.reviews?.find((x) => x.reviewId === ctx.reviewId);
  if (!review) return left(conflict('the review was not recorded'));
  const held = after.held.find((m) => m.id === ctx.messageId);
  const events = r.right._tag === 'Appended' ? r.right.events : [];
  const delivered = events.some((e) => e.type === 'RunResumed') || (!held && !after.views.undelivered?.some((m) => m.id === ctx.messageId));
  const back = sendBackRoute(s);
  const detail = back && r.right._tag === 'Appended'
    ? `sent back from the gate: the run goes ${back.how === 'Jump' ? 'back' : 'on'} to step ${back.to}, whose turn opens with the review; ${sendBackText(back)}`
    : deliveryDetail(delivered, s, 'Resume', held);
  return right({ review, delivered, detail, run: detailOf(core, after) });
};

// A review's follow-up is titled as a person would title it: the run reviewed, how many comments
// on which files (or the review's own summary line), never the message with its quoted code.
const reviewTitle = (source: string, paths: readonly string[], summary?: string): string => {
  const line = summary?.split('\n').map((l) => l.trim()).find((l) => l !== '');
  if (line) return `Review of ${source}: ${line}`;
  const files = [...new Set(paths)];
  const on = files.length === 0 ? '' : files.length <= 2 ? ` on ${files.join(' and ')}` : ` on ${files.length} files`;
  return `Review of ${source}: ${paths.length} comment${paths.length === 1 ? '' : 's'}${on}`;
};

// An ended run takes no message: the review becomes a follow-up run whose goal is the review's
// message (it resumes the run's last session where the CLI can), and is recorded on this run.
const asFollowUp = (core: ServiceCore, runId: string, c: SubmitReview): Outcome<ReviewAnswer> => {
  // the follow-up, its link and the review on this run: one transaction (a crash leaves all or none)
  const source = core.runs.get(runId);
  const title = source ? reviewTitle(source.title, c.comments.map((m) => m.path), c.summary) : undefined;
  const made = followUp(core, runId, { review: c.text, ...(title ? { title } : {}), ...(c.reason !== undefined ? { reason: c.reason } : {}) }, c.by, (now, next) => decideRecordFollowUpReview(now, { ...c, followUp: next }));
  if (isLeft(made)) return made;
  const next = made.right.runId;
  const after = core.runs.get(runId)!;
  const review = after.views.reviews?.find((x) => x.reviewId === c.reviewId);
  if (!review) return left(conflict('the review was not recorded'));
  const url = `${core.baseUrl}/runs/${encodeURIComponent(next)}`;
  return right({ review, delivered: false, detail: `the run had ended: the review went to follow-up run ${next}, which continues it`, run: detailOf(core, after), followUp: { runId: next, url } });
};

/** where a comment stands in the diff now: its lines, or null when they changed or went away */
export interface CommentPlace { readonly line: number; readonly endLine?: number }

// Lines that changed since the comment was written are a changed comment; with no kept blob (older
// comments, the old side) the lines are where they were, and their code must still be the quote.
const placeOf = async (s: RunState, files: Files, c: ReviewComment): Promise<CommentPlace | null> => {
  const f = fileOf(files, c.path);
  if (!f) return null;
  const end = c.endLine ?? c.line;
  const dir = directoryOf(s, f.folder);
  const moves = c.blob && dir ? await lineMoves(dir, c.blob, f.path) : null;
  const from = moves ? moves(c.line) : c.line;
  const to = moves ? moves(end) : end;
  if (from === null || to === null || to - from !== end - c.line) return null;
  const q = quoteOf(f, c.side, from, to);
  return 'quote' in q && q.quote === c.quote ? { line: from, ...(c.endLine !== undefined ? { endLine: to } : {}) } : null;
};

const readComment = async (s: RunState, files: Files | null, c: ReviewComment) => {
  const { blob: _blob, ...shown } = c;
  if (!files) return { ...shown, outdated: null, now: null };
  const now = await placeOf(s, files, c);
  return { ...shown, outdated: now === null, now };
};

/**
 * The run's reviews, each comment with `outdated` (its lines changed or went away since it was
 * written; null: the worktree cannot be read) and `now`, where its lines stand in the diff now.
 */
export const readReviews = async (core: ServiceCore, runId: string): Promise<Outcome<{ reviews: readonly unknown[] }>> => {
  const s = core.runs.get(runId);
  if (!s) return left(notFound('run', runId));
  const reviews = s.views.reviews ?? [];
  const files = reviews.length && checkoutsOf(s).length ? await diffFilesOf(s) : null;
  const read = await Promise.all(reviews.map(async (r) => ({ ...r, comments: await Promise.all(r.comments.map((c) => readComment(s, files, c))) })));
  return right({ reviews: read });
};
