import { useEffect, useState } from 'preact/hooks';
import type { RunDetail } from '../../../projections/run-shapes.js';
import type { RunWorkflowView } from '../../read-models/run-page-reads.js';
import { api, ApiError } from '../api.js';
import { NoteLine, sendControl, type Note } from './controls.js';
import type { RunData } from './data.js';
import { diffHref } from './activity.js';
import { Link } from '../ui/link.js';

// A run at a gate waits for a person: the panel says which gate (its label) and what it asks (its
// prompt, from the run's own workflow), and offers the two answers. Approve passes the gate (the
// control Resume). Send back gives the agent a note and sends the run to an agent step: the gate's
// own route when it leads to an agent (a workflow's way back, like `stuck -> implement`: the note
// and Resume), else the agent step the run came from (the note and Jump); the server says which
// (commands/send-back.ts), and whether the run comes back to this gate after, which the panel
// says plainly. A gate in the workflow language has one outcome, success on resume, so there is
// no failure route to take (docs/app.md).

const useRunWorkflow = (runId: string, wanted: boolean): RunWorkflowView | null => {
  const [wf, setWf] = useState<RunWorkflowView | null>(null);
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    api<RunWorkflowView>(`runs/${encodeURIComponent(runId)}/workflow`).then((w) => { if (live) setWf(w); }, () => {});
    return () => { live = false; };
  }, [runId, wanted]);
  return wf;
};

// What the person is asked to approve: the files the run changed, each a link to its diff.
const changedPaths = (diff: string): string[] =>
  [...new Set([...diff.matchAll(/^diff --git a\/.+? b\/(.+)$/gm)].map((m) => m[1]!))];

const useChangedFiles = (runId: string, wanted: boolean, changes: number): readonly string[] | null => {
  const [files, setFiles] = useState<readonly string[] | null>(null);
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    api<{ folders: { diff?: string }[] }>(`runs/${encodeURIComponent(runId)}/diff`).then(
      (r) => { if (live) setFiles(r.folders.flatMap((f) => changedPaths(f.diff ?? ''))); }, () => { if (live) setFiles(null); });
    return () => { live = false; };
  }, [runId, wanted, changes]);
  return files;
};

const ChangedFiles = ({ runId, files }: { readonly runId: string; readonly files: readonly string[] | null }) => {
  if (files === null) return null;
  if (files.length === 0) return <p class="muted">The run has changed no files.</p>;
  return (
    <div class="gate-files">
      <p>{files.length === 1 ? '1 file changed' : `${files.length} files changed`}; look before approving:</p>
      <ul>{files.map((f) => <li key={f}><Link href={diffHref(runId, f)}><code>{f}</code></Link></li>)}</ul>
    </div>
  );
};

export const Gate = ({ data, run }: { readonly data: RunData; readonly run: RunDetail }) => {
  const atGate = run.phase === 'AtGate' && run.allowedActions.includes('Resume');
  const wf = useRunWorkflow(run.id, atGate);
  const files = useChangedFiles(run.id, atGate, data.changes.value);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<Note>(null);
  if (!atGate) return note ? <NoteLine note={note} /> : null;
  const gate = wf?.nodes.find((n) => n.id === run.currentStep) ?? null;
  const back = wf?.sendBack && wf.sendBack.gate === run.currentStep ? wf.sendBack : null;
  const approve = async () => {
    setBusy(true);
    const n = await sendControl(data, run, 'Resume');
    setNote(n?.kind === 'ok' ? { kind: 'ok', text: 'Approved: the run goes on.' } : n);
    setBusy(false);
  };
  const sendBack = async () => {
    if (!back || !text.trim()) return;
    setBusy(true);
    setNote(null);
    try {
      const r = await api<{ run: RunDetail }>(`runs/${encodeURIComponent(run.id)}/messages`, { body: { text, delivery: 'Hold', reason: 'sent back at a gate' } });
      const n = await sendControl(data, r.run, back.how, back.how === 'Jump' ? { node: back.to } : {});
      if (n?.kind === 'ok') setText('');
      setNote(n?.kind === 'ok' ? { kind: 'ok', text: `Sent back to ${back.to} with your note.` } : n);
    } catch (e) {
      setNote({ kind: 'error', text: e instanceof ApiError ? e.detail : String(e) });
    }
    setBusy(false);
  };
  const title = gate?.label ?? `Gate ${run.currentStep ?? ''}`;
  return (
    <section class="panel gate" aria-labelledby="gate-title">
      <h2 id="gate-title">{title}</h2>
      {gate?.label ? <p class="muted">The run waits at the gate <code>{gate.id}</code> for a person.</p> : <p class="muted">The run waits here for a person.</p>}
      {gate?.prompt ? <p class="prose gate-prompt">{gate.prompt}</p> : null}
      <ChangedFiles runId={run.id} files={files} />
      <div class="row">
        <button type="button" disabled={busy} onClick={() => void approve()}>Approve</button>
      </div>
      {back ? (
        <form onSubmit={(e) => { e.preventDefault(); void sendBack(); }}>
          <label>Note for the agent
            <textarea rows={3} value={text} onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} />
          </label>
          <button type="submit" disabled={busy || !text.trim()}>Send back</button>
          <p class="muted" data-returns={String(back.returns)}>Send back gives the note to the agent at <code>{back.to}</code>, which runs next. {back.returns
            ? 'The run then comes back to this gate for you to look again.'
            : 'The run then goes on without coming back to this gate: approve only what you have seen.'}</p>
        </form>
      ) : wf ? <p class="muted">No agent step to send this run back to; message the agent and Jump to a step instead.</p> : null}
      <NoteLine note={note} />
    </section>
  );
};
