import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type ApiError } from '../api.js';
import { ErrorNote, Loading } from '../ui/page.js';
import { revealFile } from './reveal-file.js';
import { useThrottledLoad } from './throttle.js';
import { CommentForm, DraftReview, SentReviews, type ReviewFile, type SentReview, type Target } from './review.js';
import { placeOf, useDraft } from './review-draft.js';
import { markCommented, markPicked, picked, useReviewFiles, type Pick, type Picked } from './diff-picks.js';

// The run's worktree: per folder what git says (branch, uncommitted counts, commits ahead), and the
// diff of the run's changes against the commit its branch was made from, one block per file, drawn
// and syntax coloured by diff2html with highlight.js. diff2html builds HTML from the diff text and escapes every line of it (the tests
// feed it `<script>` and `<img onerror>`); this is the one place the app inserts HTML, and only
// the library's output. Reloaded as the run moves, at most once a second. A click on a line number
// picks that line for a review comment (review.tsx); the reviews sent are read back with the diff,
// so a comment whose code the agent changed since shows as outdated.

interface Counts { readonly staged: number; readonly unstaged: number; readonly untracked: number; readonly conflicted: number }
type StatusFolder = { readonly folder: string; readonly branch: string; readonly directory: string } & (
  | { readonly head: string | null; readonly uncommitted: Counts; readonly defaultBranch: string | null; readonly commitsAhead: number }
  | { readonly detail: string });
type DiffFolder = { readonly folder: string; readonly base: string } & ({ readonly diff: string; readonly truncated: boolean } | { readonly detail: string });

type D2H = typeof import('./diff2html.js');
let d2h: Promise<D2H> | null = null;
const loadD2h = (): Promise<D2H> => (d2h ??= import('./diff2html.js'));

const Status = ({ f }: { readonly f: StatusFolder }) => {
  if ('detail' in f) return <p class="error">{f.detail}</p>;
  const u = f.uncommitted;
  return (
    <dl class="facts">
      <dt>Branch</dt><dd><code>{f.head ?? `${f.branch} (detached)`}</code></dd>
      <dt>Commits ahead</dt><dd>{f.commitsAhead}{f.defaultBranch ? ` of ${f.defaultBranch}` : ' of the base'}</dd>
      <dt>Uncommitted</dt><dd>{`${u.staged} staged, ${u.unstaged} unstaged, ${u.untracked} untracked${u.conflicted ? `, ${u.conflicted} conflicted` : ''}`}</dd>
    </dl>
  );
};

const Diff = ({ f, pick, chosen, commented }: { readonly f: DiffFolder; readonly pick: Pick; readonly chosen: Picked | null; readonly commented: readonly Picked[] }) => {
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [drawn, setDrawn] = useState(0);
  useEffect(() => { if (box.current) markPicked(box.current, chosen); }, [chosen?.file, chosen?.side, chosen?.from, chosen?.to, drawn]);
  const marks = JSON.stringify(commented);
  useEffect(() => { if (box.current) markCommented(box.current, commented); }, [marks, drawn]);
  const text = 'diff' in f ? f.diff : '';
  useEffect(() => {
    if (!text || !box.current) return;
    let live = true;
    loadD2h().then((m) => {
      if (!live || !box.current) return;
      m.drawDiff(box.current, text);
      // Each file's block scrolls sideways on a narrow screen: focusable, so a keyboard can scroll it.
      for (const el of box.current.querySelectorAll('.d2h-file-diff')) el.setAttribute('tabindex', '0');
      revealFile(box.current);
      setDrawn((n) => n + 1);
    }, (e: Error) => { if (live) setFailed(e.message); });
    return () => { live = false; };
  }, [text]);
  if ('detail' in f) return <p class="error">{f.detail}</p>;
  if (failed) return <ErrorNote error={`The diff could not be shown: ${failed}`} />;
  return (
    <>
      {f.diff ? null : <p class="muted">No changes against the base.</p>}
      {f.truncated ? <p class="muted">The diff is too large to show whole; later files are left out.</p> : null}
      {/* line numbers are picked with the mouse; the comment form above takes them from the keyboard */}
      <div class="diff" ref={box} onClick={(e) => box.current && picked(box.current, e, pick)} />
    </>
  );
};

export const Worktree = ({ runId, changes }: { readonly runId: string; readonly changes: number }) => {
  const [status, setStatus] = useState<readonly StatusFolder[] | null>(null);
  const [diffs, setDiffs] = useState<readonly DiffFolder[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [reviews, setReviews] = useState<readonly SentReview[]>([]);
  const [sent, setSent] = useState(0);
  useThrottledLoad((live) => {
    const enc = encodeURIComponent(runId);
    Promise.all([api<{ folders: StatusFolder[] }>(`runs/${enc}/worktree`), api<{ folders: DiffFolder[] }>(`runs/${enc}/diff`), api<{ reviews: SentReview[] }>(`runs/${enc}/reviews`)]).then(
      ([s, d, r]) => { if (live()) { setStatus(s.folders); setDiffs(d.folders); setReviews(r.reviews); setError(null); } },
      (e: ApiError) => { if (live()) setError(e); },
    );
  }, [runId, changes, sent], 1000);
  const files = useReviewFiles(diffs, loadD2h);
  const [draft, save] = useDraft(runId);
  const [target, setTarget] = useState<Target | null>(null);
  // set by a click in the diff: a bar at the bottom of the window leads to the form, which is above
  const [picking, setPicking] = useState(false);
  const chosenIn = (folder: string): Picked | null => {
    const i = target ? (files.byFolder.get(folder) ?? []).findIndex((x) => x.path === target.path) : -1;
    return target && i >= 0 ? { file: i, side: target.side, from: target.line, to: target.endLine ?? target.line } : null;
  };
  // the rows each current sent comment stands on now, in this folder's drawing
  const commentedIn = (folder: string): Picked[] => {
    const inFolder = files.byFolder.get(folder) ?? [];
    return reviews.flatMap((r) => r.comments).flatMap((c) => {
      const i = c.now ? inFolder.findIndex((x) => x.path === c.path) : -1;
      return c.now && i >= 0 ? [{ file: i, side: c.side, from: c.now.line, to: c.now.endLine ?? c.now.line }] : [];
    });
  };
  const pickIn = (folder: string): Pick => (i, side, line, extend) => {
    const path = files.byFolder.get(folder)?.[i]?.path;
    if (path === undefined) return;
    const from = target && extend && target.path === path && target.side === side ? target.line : null;
    setTarget(from === null ? { path, side, line } : { path, side, line: Math.min(from, line), endLine: Math.max(from, line) });
    setPicking(true);
  };
  if (error) return <p class="muted" role="status">{error.detail}</p>;
  if (!status || !diffs) return <Loading what="the worktree" />;
  return (
    <div>
      <SentReviews reviews={reviews} />
      {files.all.length > 0 || draft.comments.length > 0 ? (
        <DraftReview runId={runId} draft={draft} save={save} onSent={() => setSent((n) => n + 1)} />
      ) : null}
      {files.all.length > 0 ? (
        <CommentForm files={files.all} target={target} setTarget={setTarget}
          onAdd={(c) => { setPicking(false); save({ ...draft, comments: [...draft.comments, { ...c, id: `${Date.now()}-${draft.comments.length}` }] }); }} />
      ) : null}
      {target && picking ? (
        <button type="button" class="pick-bar" onClick={() => { setPicking(false); document.getElementById('review-comment')?.focus(); }}>
          Comment on {placeOf(target)}
        </button>
      ) : null}
      {status.map((f) => {
        const d = diffs.find((x) => x.folder === f.folder);
        return (
          <section key={f.folder} class="folder" aria-label={`Folder ${f.folder}`}>
            <h3>{f.folder}</h3>
            <Status f={f} />
            {d ? <Diff f={d} pick={pickIn(f.folder)} chosen={chosenIn(f.folder)} commented={commentedIn(f.folder)} /> : null}
          </section>
        );
      })}
    </div>
  );
};
