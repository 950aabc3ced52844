import { useState } from 'preact/hooks';
import type { RunDetail } from '../../../projections/run-shapes.js';
import { api, ApiError } from '../api.js';
import { navigate } from '../router.js';
import { NoteLine, type Note } from './controls.js';
import { RunLink } from '../ui/run-link.js';

// Follow up an ended run: a new run on the same branch and worktree that resumes the agent's
// session with this text (POST /api/runs/{id}/follow-ups). Offered on an ended, unarchived run;
// whatever else the server refuses (a follow-up still going) is shown as it says it.

const errorText = (e: unknown) => (e instanceof ApiError ? e.detail : String(e));
const runHref = (id: string) => `/runs/${encodeURIComponent(id)}`;

export const FollowUpForm = ({ run }: { readonly run: RunDetail }) => {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<Note>(null);
  const send = async () => {
    if (!text.trim()) return;
    setBusy(true);
    setNote(null);
    try {
      const r = await api<{ runId: string; url: string }>(`runs/${encodeURIComponent(run.id)}/follow-ups`, { body: { text } });
      navigate(runHref(r.runId));
      return;
    } catch (e) {
      setNote({ kind: 'error', text: errorText(e) });
    }
    setBusy(false);
  };
  return (
    <form class="panel" aria-labelledby="follow-up-title" onSubmit={(e) => { e.preventDefault(); void send(); }}>
      <h2 id="follow-up-title">Follow up</h2>
      <p class="muted">A new run on this run's branch and worktree; the agent continues its session with your instruction.</p>
      <label>What next
        <textarea rows={3} value={text} onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} />
      </label>
      <button type="submit" disabled={busy || !text.trim()}>Follow up</button>
      <NoteLine note={note} />
    </form>
  );
};

/** Where the run sits in its chain of follow-ups: the run it continues, the runs that continue it. */
export const FollowUpLinks = ({ run }: { readonly run: RunDetail }) => {
  if (!run.continues && !run.continuedBy?.length) return null;
  return (
    <p class="note">
      {run.continues ? <>Follows up <RunLink run={run} id={run.continues} />. </> : null}
      {run.continuedBy?.length ? <>Followed up by {run.continuedBy.map((id, i) => <span key={id}>{i > 0 ? ', ' : ''}<RunLink run={run} id={id} /></span>)}.</> : null}
    </p>
  );
};
