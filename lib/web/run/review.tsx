import { useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { NoteLine, type Note } from './controls.js';
import { Link } from '../ui/link.js';
import { placeOf, type Draft, type DraftComment } from './review-draft.js';

// Reviewing the diff: a form for one comment (a line, a range or a whole file, on either side; a
// click on a line number in the diff fills it in, shift-click extends the range), the draft the
// comments gather into, and "Send to agent", which posts the review. The server checks every path
// and line against the diff and says whether the agent took it now or it waits for the next turn.

export interface ReviewFile { readonly path: string; readonly new: readonly number[]; readonly old: readonly number[] }
export interface Target { readonly path: string; readonly side: 'new' | 'old'; readonly line: number; readonly endLine?: number }

const num = (v: string): number | undefined => (/^\d+$/.test(v.trim()) ? Number(v) : undefined);
const input = (e: Event): string => (e.target as HTMLInputElement).value;

// A whole file: every line the diff shows on that side, as one range when they follow on (and fit
// one comment), else the first.
const wholeFile = (f: ReviewFile, side: 'new' | 'old'): Omit<Target, 'path' | 'side'> | null => {
  const xs = f[side];
  if (xs.length === 0) return null;
  const first = xs[0]!, last = xs[xs.length - 1]!;
  // the server quotes at most 500 lines per comment (lib/inputs/review.ts)
  return last - first + 1 === xs.length && last !== first && xs.length <= 500 ? { line: first, endLine: last } : { line: first };
};

export const CommentForm = ({ files, target, setTarget, onAdd }: {
  readonly files: readonly ReviewFile[]; readonly target: Target | null; readonly setTarget: (t: Target) => void; readonly onAdd: (c: Omit<DraftComment, 'id'>) => void;
}) => {
  const [body, setBody] = useState('');
  const [whole, setWhole] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const t: Target = target ?? { path: files[0]?.path ?? '', side: 'new', line: files[0]?.new[0] ?? 1 };
  const file = files.find((f) => f.path === t.path);
  const add = () => {
    if (!file) return setProblem('Choose a file of the diff.');
    const at = whole ? wholeFile(file, t.side) : { line: t.line, ...(t.endLine !== undefined && t.endLine !== t.line ? { endLine: t.endLine } : {}) };
    if (!at) return setProblem(`The diff shows no ${t.side} lines of ${t.path}.`);
    onAdd({ path: t.path, side: t.side, ...at, body: whole ? `(whole file) ${body.trim()}` : body.trim() });
    setBody('');
    setWhole(false);
    setProblem(null);
  };
  return (
    <form class="panel review-form" aria-labelledby="comment-title" onSubmit={(e) => { e.preventDefault(); add(); }}>
      <h3 id="comment-title">Comment on the diff</h3>
      <p class="muted">Click a line number in the diff to pick it; shift-click another to take the lines between.</p>
      <div class="inline-form">
        <label>File
          <select value={t.path} onChange={(e) => setTarget({ ...t, path: input(e) })}>
            {files.map((f) => <option key={f.path} value={f.path}>{f.path}</option>)}
          </select>
        </label>
        <label>Side
          <select value={t.side} onChange={(e) => setTarget({ ...t, side: input(e) === 'old' ? 'old' : 'new' })}>
            <option value="new">New</option><option value="old">Old</option>
          </select>
        </label>
        <label>Line <input class="narrow" inputMode="numeric" value={String(t.line)} disabled={whole} onInput={(e) => setTarget({ ...t, line: num(input(e)) ?? t.line })} /></label>
        <label>To line <input class="narrow" inputMode="numeric" value={t.endLine === undefined ? '' : String(t.endLine)} disabled={whole}
          onInput={(e) => { const { endLine: _e, ...rest } = t; const n = num(input(e)); setTarget(n === undefined ? rest : { ...rest, endLine: n }); }} /></label>
        <label class="check"><input type="checkbox" checked={whole} onChange={(e) => setWhole((e.target as HTMLInputElement).checked)} /> Whole file</label>
      </div>
      <label>Comment
        <textarea id="review-comment" rows={3} value={body} onInput={(e) => setBody(input(e))} />
      </label>
      <button type="submit" disabled={!body.trim() || !file}>Add to review</button>
      {problem ? <p class="error" role="alert">{problem}</p> : null}
    </form>
  );
};

interface ReviewReply { readonly delivered: boolean; readonly detail: string | null; readonly followUp?: { readonly runId: string } }

export const DraftReview = ({ runId, draft, save, onSent }: {
  readonly runId: string; readonly draft: Draft; readonly save: (d: Draft) => void; readonly onSent: () => void;
}) => {
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<Note>(null);
  const [followUp, setFollowUp] = useState<string | null>(null);
  const n = draft.comments.length;
  const edit = (id: string, body: string) => save({ ...draft, comments: draft.comments.map((c) => (c.id === id ? { ...c, body } : c)) });
  const send = async () => {
    setBusy(true);
    setNote(null);
    try {
      const comments = draft.comments.map(({ id: _id, ...c }) => c);
      const r = await api<ReviewReply>(`runs/${encodeURIComponent(runId)}/reviews`, { body: { comments, ...(draft.summary.trim() ? { summary: draft.summary } : {}) } });
      save({ comments: [], summary: '' });
      setFollowUp(r.followUp?.runId ?? null);
      setNote({ kind: 'ok', text: r.delivered ? 'Review sent to the agent.' : `Review recorded; ${r.detail ?? 'held for the next turn'}.` });
      onSent();
    } catch (e) {
      setNote({ kind: 'error', text: e instanceof ApiError ? e.detail : String(e) });
    }
    setBusy(false);
  };
  return (
    <section class="panel" aria-labelledby="draft-title">
      <h3 id="draft-title">Draft review <span class="badge">{n} comment{n === 1 ? '' : 's'}</span></h3>
      {n === 0 ? <p class="muted">No comments yet.</p> : (
        <ol class="plain review-comments">
          {draft.comments.map((c) => (
            <li key={c.id}>
              <label>Comment on <code>{placeOf(c)}</code>
                <textarea rows={2} value={c.body} onInput={(e) => edit(c.id, input(e))} />
              </label>
              <button type="button" onClick={() => save({ ...draft, comments: draft.comments.filter((x) => x.id !== c.id) })}>Remove</button>
            </li>
          ))}
        </ol>
      )}
      <label>Summary (optional)
        <textarea rows={2} value={draft.summary} onInput={(e) => save({ ...draft, summary: input(e) })} />
      </label>
      <div class="row">
        <button type="button" disabled={busy || n === 0 || draft.comments.some((c) => !c.body.trim())} onClick={() => void send()}>Send to agent</button>
        <button type="button" disabled={busy || (n === 0 && !draft.summary)} onClick={() => save({ comments: [], summary: '' })}>Discard draft</button>
      </div>
      <NoteLine note={note} />
      {followUp ? <p><Link href={`/runs/${encodeURIComponent(followUp)}`}>Open the follow-up run</Link></p> : null}
    </section>
  );
};

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

// a comment whose lines moved says where they are now, and where it was written
const sentPlace = (c: SentReview['comments'][number]): string => {
  if (!c.now || (c.now.line === c.line && (c.now.endLine ?? c.now.line) === (c.endLine ?? c.line))) return placeOf(c);
  return `${placeOf({ ...c, ...c.now })} (written on ${c.endLine !== undefined ? `lines ${c.line}–${c.endLine}` : `line ${c.line}`})`;
};

/** Reviews sent, each comment at its lines' place now, and marked outdated once those lines changed or went away (as code hosts do). */
export const SentReviews = ({ reviews }: { readonly reviews: readonly SentReview[] }) =>
  reviews.length === 0 ? null : (
    <section class="panel" aria-labelledby="sent-title">
      <h3 id="sent-title">Reviews sent</h3>
      <ol class="plain review-comments">
        {reviews.flatMap((r) => r.comments.map((c, i) => (
          <li key={`${r.reviewId}-${i}`} data-outdated={String(c.outdated)}>
            <code>{sentPlace(c)}</code>{' '}
            {c.outdated === null ? null : <span class={`badge ${c.outdated ? 'warning' : 'note'}`}>{c.outdated ? 'Outdated' : 'Current'}</span>}
            <p class="prose">{c.body}</p>
          </li>
        )))}
      </ol>
    </section>
  );
