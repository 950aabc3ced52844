import { useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import type { Note } from './controls.js';
import type { Draft, DraftComment } from './review-draft.js';

// Reviewing the diff: comments are written under their lines (diff-threads.tsx) and gather into a
// draft; one bar fixed at the bottom of the window while the draft has any says how many and sends
// them, with an optional summary, as one review. The server checks every path and line against the
// diff and says whether the agent took it now or it waits for the next turn.

export interface ReviewFile { readonly path: string; readonly new: readonly number[]; readonly old: readonly number[]; readonly added?: number; readonly deleted?: number }
/** the lines a comment is on; `whole`: the whole file (every line the diff shows of it on that side) */
export interface Target { readonly path: string; readonly side: 'new' | 'old'; readonly line: number; readonly endLine?: number; readonly whole?: boolean }

export interface SentReview {
  readonly reviewId: string;
  readonly at: string;
  readonly summary?: string;
  readonly comments: readonly (Omit<DraftComment, 'id'> & {
    readonly quote: string;
    readonly outdated: boolean | null;
    /** where its lines stand in the diff now (they move as lines are added or removed above them) */
    readonly now?: { readonly line: number; readonly endLine?: number } | null;
  })[];
}
export type SentComment = SentReview['comments'][number] & { readonly reviewId: string; readonly index: number };

export const sentComments = (reviews: readonly SentReview[]): SentComment[] =>
  reviews.flatMap((r) => r.comments.map((c, index) => ({ ...c, reviewId: r.reviewId, index })));

// A whole file: every line the diff shows on that side, as one range when they follow on (and fit
// one comment), else the first.
export const wholeFile = (f: ReviewFile, side: 'new' | 'old'): { line: number; endLine?: number } | null => {
  const xs = f[side];
  if (xs.length === 0) return null;
  const first = xs[0]!, last = xs[xs.length - 1]!;
  // the server quotes at most 500 lines per comment (lib/inputs/review.ts)
  return last - first + 1 === xs.length && last !== first && xs.length <= 500 ? { line: first, endLine: last } : { line: first };
};

interface ReviewReply { readonly delivered: boolean; readonly detail: string | null; readonly followUp?: { readonly runId: string } }
export interface Sent { readonly note: Note; readonly followUp: string | null }

const input = (e: Event): string => (e.target as HTMLInputElement).value;

/** "N comments · Send to agent": fixed at the bottom of the window while a draft exists. */
export const ReviewBar = ({ runId, draft, save, onSent }: {
  readonly runId: string; readonly draft: Draft; readonly save: (d: Draft) => void; readonly onSent: (s: Sent) => void;
}) => {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const n = draft.comments.length;
  const send = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const comments = draft.comments.map(({ id: _id, ...c }) => c);
      const r = await api<ReviewReply>(`runs/${encodeURIComponent(runId)}/reviews`, { body: { comments, ...(draft.summary.trim() ? { summary: draft.summary } : {}) } });
      save({ comments: [], summary: '' });
      onSent({ note: { kind: 'ok', text: r.delivered ? 'Review sent to the agent.' : `Review recorded; ${r.detail ?? 'held for the next turn'}.` }, followUp: r.followUp?.runId ?? null });
    } catch (e) {
      setProblem(e instanceof ApiError ? e.detail : String(e));
    }
    setBusy(false);
  };
  if (n === 0) return null;
  return (
    <section class="review-bar" aria-label="Draft review">
      <form class="review-bar-row" onSubmit={(e) => { e.preventDefault(); void send(); }}>
        <strong class="review-count">{n} comment{n === 1 ? '' : 's'}</strong>
        <label class="review-summary">Summary (optional)
          <input type="text" value={draft.summary} onInput={(e) => save({ ...draft, summary: input(e) })} />
        </label>
        <button type="submit" disabled={busy || draft.comments.some((c) => !c.body.trim())}>Send to agent</button>
        <button type="button" disabled={busy} onClick={() => save({ comments: [], summary: '' })}>Discard</button>
      </form>
      {problem ? <p class="error" role="alert">{problem}</p> : null}
    </section>
  );
};
