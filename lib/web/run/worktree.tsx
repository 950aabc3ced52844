import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type ApiError } from '../api.js';
import { ErrorNote, Loading } from '../ui/page.js';
import { useThrottledLoad } from './throttle.js';
import { ReviewBar, sentComments, wholeFile, type ReviewFile, type Sent, type SentReview, type Target } from './review.js';
import { FileTree, openFile } from './file-tree.js';
import { useViewed } from './viewed.js';
import { placeOf, useDraft } from './review-draft.js';
import { useReviewFiles, type Pick, type Picked } from './diff-picks.js';
import { Diff, loadD2h, type DiffFolder } from './diff-view.js';
import { WHOLE_FILE, type ThreadActions } from './diff-threads.js';
import { elsewhere, threadsOf } from './review-threads.js';
import { NoteLine } from './controls.js';
import { Link } from '../ui/link.js';

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

export const Worktree = ({ runId, changes }: { readonly runId: string; readonly changes: number }) => {
  const [status, setStatus] = useState<readonly StatusFolder[] | null>(null);
  const [diffs, setDiffs] = useState<readonly DiffFolder[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [reviews, setReviews] = useState<readonly SentReview[]>([]);
  const [sent, setSent] = useState<Sent | null>(null);
  useThrottledLoad((live) => {
    const enc = encodeURIComponent(runId);
    Promise.all([api<{ folders: StatusFolder[] }>(`runs/${enc}/worktree`), api<{ folders: DiffFolder[] }>(`runs/${enc}/diff`), api<{ reviews: SentReview[] }>(`runs/${enc}/reviews`)]).then(
      ([s, d, r]) => { if (live()) { setStatus(s.folders); setDiffs(d.folders); setReviews(r.reviews); setError(null); } },
      (e: ApiError) => { if (live()) setError(e); },
    );
  }, [runId, changes, sent], 1000);
  const files = useReviewFiles(diffs, loadD2h);
  const [draft, save] = useDraft(runId);
  const [open, setOpen] = useState<Target | null>(null);
  const sentList = sentComments(reviews);
  const act: ThreadActions = {
    edit: (id, body) => save({ ...draft, comments: draft.comments.map((c) => (c.id === id ? { ...c, body } : c)) }),
    remove: (id) => save({ ...draft, comments: draft.comments.filter((c) => c.id !== id) }),
    cancel: () => setOpen(null),
    add: (t, body) => {
      const file = files.all.find((x) => x.path === t.path);
      const at = t.whole ? (file ? wholeFile(file, t.side) : null) : { line: t.line, ...(t.endLine !== undefined && t.endLine !== t.line ? { endLine: t.endLine } : {}) };
      if (!at) return;
      save({ ...draft, comments: [...draft.comments, { id: `${Date.now()}-${draft.comments.length}`, path: t.path, side: t.side, ...at, body: t.whole ? `${WHOLE_FILE}${body}` : body }] });
      setOpen(null);
    },
  };
  const openWhole = (f: ReviewFile) => setOpen({ path: f.path, side: f.new.length === 0 ? 'old' : 'new', line: 1, whole: true });
  const [viewed, markViewed] = useViewed(runId);
  const header = (f: ReviewFile) => (
    <>
      <label class="viewed-check"><input type="checkbox" checked={viewed.has(f.path)} onChange={(e) => markViewed(f.path, (e.target as HTMLInputElement).checked)} /> Viewed<span class="sr-only"> {f.path}</span></label>
      <button type="button" class="small" onClick={() => openWhole(f)}>Comment on file<span class="sr-only"> {f.path}</span></button>
    </>
  );
  const layout = useRef<HTMLDivElement>(null);
  const tree = files.all.map((f) => ({ ...f, viewed: viewed.has(f.path), comments: sentList.filter((c) => c.path === f.path).length + draft.comments.filter((c) => c.path === f.path).length }));
  const chosenIn = (folder: string): Picked | null => {
    const i = open && !open.whole ? (files.byFolder.get(folder) ?? []).findIndex((x) => x.path === open.path) : -1;
    return open && i >= 0 ? { file: i, side: open.side, from: open.line, to: open.endLine ?? open.line } : null;
  };
  const pickIn = (folder: string): Pick => (i, side, line, extend, to) => {
    const path = files.byFolder.get(folder)?.[i]?.path;
    if (path === undefined) return;
    const from = to !== undefined ? line : open && !open.whole && extend && open.path === path && open.side === side ? open.line : null;
    const end = to ?? line;
    setOpen(from === null ? { path, side, line } : { path, side, line: Math.min(from, end), endLine: Math.max(from, end) });
  };
  if (error) return <p class="muted" role="status">{error.detail}</p>;
  if (!status || !diffs) return <Loading what="the worktree" />;
  const gone = elsewhere(files.all, sentList);
  return (
    <div class={`worktree${draft.comments.length ? ' has-review-bar' : ''}`}>
      {sent ? <NoteLine note={sent.note} /> : null}
      {sent?.followUp ? <p><Link href={`/runs/${encodeURIComponent(sent.followUp)}`}>Open the follow-up run</Link></p> : null}
      {gone.length ? (
        <section class="panel" aria-labelledby="gone-title">
          <h3 id="gone-title">Comments on files no longer in the diff</h3>
          <ul>{gone.map((c) => <li key={`${c.reviewId}-${c.index}`}><code>{placeOf(c)}</code> <span class="prose">{c.body}</span></li>)}</ul>
        </section>
      ) : null}
      <div class={`diff-layout${tree.length ? ' with-tree' : ''}`} ref={layout}>
        {tree.length ? <FileTree files={tree} onOpen={(p) => openFile(layout.current, p)} /> : null}
        <div class="diff-main">
          {status.map((f) => {
            const d = diffs.find((x) => x.folder === f.folder);
            const inFolder = files.byFolder.get(f.folder) ?? [];
            return (
              <section key={f.folder} class="folder" aria-label={`Folder ${f.folder}`}>
                <h3>{f.folder}</h3>
                <Status f={f} />
                {d ? <Diff f={d} files={inFolder} pick={pickIn(f.folder)} chosen={chosenIn(f.folder)} threads={threadsOf(inFolder, sentList, draft.comments, open, act, header)} /> : null}
              </section>
            );
          })}
        </div>
      </div>
      <ReviewBar runId={runId} draft={draft} save={save} onSent={(s) => { setOpen(null); setSent(s); }} />
    </div>
  );
};
