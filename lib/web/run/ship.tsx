import { useEffect, useState } from 'preact/hooks';
import type { RunDetail } from '../../../projections/run-shapes.js';
import { api, ApiError } from '../api.js';
import { NoteLine, type Note } from './controls.js';
import { useFocusBack } from '../ui/focus-back.js';

// Shipping a run from its PR tab (docs/shipping.md): create a pull request (title and body
// prefilled from the run, base, draft), merge locally into the project's checkout, update the
// run's branch from its base. Plain forms: keyboard-usable, one column on a phone. Whatever the
// server refuses is shown in its own words.

const errorText = (e: unknown) => (e instanceof ApiError ? e.detail : String(e));
const runPath = (run: RunDetail, what: string) => `runs/${encodeURIComponent(run.id)}/${what}`;

/** one action's busy flag and its note; `go` runs it and turns a refusal into the note */
const useAction = () => {
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<Note>(null);
  const focus = useFocusBack(busy);
  const go = async (act: () => Promise<Note>) => {
    focus.hold();
    setBusy(true);
    setNote(null);
    try {
      setNote(await act());
    } catch (e) {
      setNote({ kind: 'error', text: errorText(e) });
    }
    setBusy(false);
  };
  return { busy, note, go };
};

const value = (e: Event) => (e.target as HTMLInputElement).value;

export const CreatePullRequest = ({ run }: { readonly run: RunDetail }) => {
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [base, setBase] = useState('');
  const [draft, setDraft] = useState(false);
  const { busy, note, go } = useAction();
  useEffect(() => {
    api<{ title: string; body: string; base: string | null }>(runPath(run, 'pull-request-draft')).then(
      (d) => { setTitle(d.title); setBody(d.body); setBase(d.base ?? ''); },
      () => undefined, // the form still works empty: the server draws title and body itself
    );
  }, [run.id]);
  const submit = () => go(async () => {
    const sent = { draft, ...(base.trim() ? { base: base.trim() } : {}), ...(title.trim() ? { title: title.trim() } : {}), ...(body.trim() ? { body } : {}) };
    const r = await api<{ pullRequest: { url: string } }>(runPath(run, 'pull-request'), { body: sent });
    return { kind: 'ok', text: `Opened ${r.pullRequest.url}` };
  });
  return (
    <form class="panel ship" aria-labelledby="ship-pr" onSubmit={(e) => { e.preventDefault(); void submit(); }}>
      <h3 id="ship-pr">Create pull request</h3>
      <p class="muted">Pushes the run's branch (never forced; uncommitted work is committed first) and opens a pull request on the code host.</p>
      <label>Title<input value={title} maxLength={256} onInput={(e) => setTitle(value(e))} /></label>
      <label>Body<textarea rows={6} value={body} onInput={(e) => setBody(value(e))} /></label>
      <div class="ship-row">
        <label>Base branch<input value={base} placeholder="the run's base branch" onInput={(e) => setBase(value(e))} /></label>
        <label class="check"><input type="checkbox" checked={draft} onChange={(e) => setDraft((e.target as HTMLInputElement).checked)} />Draft</label>
      </div>
      <button type="submit" disabled={busy}>Create pull request</button>
      <NoteLine note={note} />
    </form>
  );
};

type Method = 'fast-forward' | 'merge' | 'squash';

export const MergeLocally = ({ run }: { readonly run: RunDetail }) => {
  const [method, setMethod] = useState<Method>('squash');
  const { busy, note, go } = useAction();
  const submit = () => go(async () => {
    // the panel that replaces the form states where and at which commit: the note only announces it
    await api(runPath(run, 'merge'), { body: { method } });
    return { kind: 'ok', text: 'Merged.' };
  });
  // gone with the answer, not when the push stream brings the archived run: the focus goes back
  // to the panel's heading when the button it was on is gone
  const [archivedHere, setArchivedHere] = useState(false);
  const archive = () => go(async () => {
    await api(runPath(run, 'archive'), { body: { state: 'Archived', reason: 'merged locally' } });
    setArchivedHere(true);
    return { kind: 'ok', text: 'Archived: the run\'s worktree is removed; its branch stays.' };
  });
  const done = run.merged ?? [];
  // a merged run is marked so, and offers only what is left to do with it: archive it
  if (done.length > 0) return (
    <section class="panel ship" aria-labelledby="ship-merge" data-merged="">
      <h3 id="ship-merge" tabIndex={-1}>Merged locally</h3>
      <p><span class="badge">merged</span> {done.map((m) => `${m.folder} into ${m.base} at ${m.commit.slice(0, 10)} (${m.method})`).join('; ')}</p>
      <NoteLine note={note} />
      {!run.archived && !archivedHere ? <p class="row">Done with this run? <button type="button" disabled={busy} onClick={() => void archive()}>Archive the run</button></p> : null}
    </section>
  );
  return (
    <form class="panel ship" aria-labelledby="ship-merge" onSubmit={(e) => { e.preventDefault(); void submit(); }}>
      <h3 id="ship-merge">Merge locally</h3>
      <p class="muted">Into the base branch of the project's own checkout, which must be clean and on that branch. Never forced. The run's uncommitted work is committed on its branch first.</p>
      <div class="ship-row">
        <label>Method
          <select value={method} onChange={(e) => setMethod(value(e) as Method)}>
            <option value="squash">squash</option><option value="merge">merge commit</option><option value="fast-forward">fast-forward only</option>
          </select>
        </label>
        <button type="submit" disabled={busy}>Merge locally</button>
      </div>
      <NoteLine note={note} />
    </form>
  );
};

interface FolderUpdate { readonly folder: string; readonly outcome: { _tag: 'UpToDate' } | { _tag: 'Updated'; head: string } | { _tag: 'Conflicted'; files: string[] } }

const updateText = (f: FolderUpdate): string =>
  f.outcome._tag === 'UpToDate' ? `${f.folder}: up to date` : f.outcome._tag === 'Updated' ? `${f.folder}: updated, now at ${f.outcome.head.slice(0, 10)}` : `${f.folder}: conflicts in ${f.outcome.files.join(', ')} (aborted, nothing changed)`;

export const UpdateFromBase = ({ run }: { readonly run: RunDetail }) => {
  const [mode, setMode] = useState<'merge' | 'rebase'>('merge');
  const [toAgent, setToAgent] = useState(true);
  const { busy, note, go } = useAction();
  const submit = () => go(async () => {
    const r = await api<{ folders: FolderUpdate[]; handedTo: string | null }>(runPath(run, 'update-from-base'), { body: { mode, onConflict: toAgent ? 'agent' : 'leave' } });
    const conflicted = r.folders.some((f) => f.outcome._tag === 'Conflicted');
    const handed = r.handedTo ? ` Handed to ${r.handedTo === run.id ? 'the agent' : `follow-up run ${r.handedTo}`} to resolve.` : '';
    return { kind: conflicted ? 'stale' : 'ok', text: `${r.folders.map(updateText).join('; ')}.${handed}` };
  });
  return (
    <form class="panel ship" aria-labelledby="ship-update" onSubmit={(e) => { e.preventDefault(); void submit(); }}>
      <h3 id="ship-update">Update from base</h3>
      <div class="ship-row">
        <label>How
          <select value={mode} onChange={(e) => setMode(value(e) as 'merge' | 'rebase')}><option value="merge">merge</option><option value="rebase">rebase</option></select>
        </label>
        <label class="check"><input type="checkbox" checked={toAgent} onChange={(e) => setToAgent((e.target as HTMLInputElement).checked)} />Hand conflicts to the agent</label>
        <button type="submit" disabled={busy}>Update from base</button>
      </div>
      <NoteLine note={note} />
    </form>
  );
};
