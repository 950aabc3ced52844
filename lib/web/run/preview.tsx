import { useEffect, useState } from 'preact/hooks';
import type { RunDetail } from '../../../projections/run-shapes.js';
import type { PreviewView } from '../../../domain/preview.js';
import { api, ApiError } from '../api.js';
import { NoteLine, type Note } from './controls.js';
import type { RunData } from './data.js';

// The run's preview (docs/preview.md): its state and why, "Open" in a new tab while it runs, Stop,
// and its last log lines (the setup's and the server's output, which the run log carries). Read
// again whenever the run's log grows (a start, an answer on the port, a stop all write a line), and
// every few seconds while it is starting. Shown only when the project has a preview command.

const WORDS: Record<PreviewView['state'], string> = {
  off: 'Not running', 'setting-up': 'Running setup…', starting: 'Starting…', running: 'Running', stopped: 'Stopped',
};
const BUSY = new Set<PreviewView['state']>(['setting-up', 'starting']);
const LOG_LINES = 8;

const usePreview = (data: RunData, runId: string) => {
  const [view, setView] = useState<PreviewView | null>(null);
  const read = () => api<PreviewView>(`runs/${encodeURIComponent(runId)}/preview`).then(setView, () => undefined);
  const changes = data.changes.value;
  // a stop svc makes itself (idle, the limit) is no run event, but it writes the run's log: the
  // preview's log lines arriving are what tells an open page to read the preview again
  const logged = data.log.items.value.filter((l) => l.text.startsWith('preview')).length;
  useEffect(() => { void read(); }, [runId, changes, logged]);
  useEffect(() => {
    if (!view || !BUSY.has(view.state)) return;
    const t = setInterval(() => void read(), 1000);
    return () => clearInterval(t);
  }, [view?.state]);
  return { view, setView, read };
};

const PreviewLog = ({ data }: { readonly data: RunData }) => {
  const lines = data.log.items.value.filter((l) => l.text.startsWith('preview')).slice(-LOG_LINES);
  if (lines.length === 0) return null;
  return (
    <details class="preview-log">
      <summary>Preview log</summary>
      <pre tabIndex={0}>{lines.map((l) => l.text).join('\n')}</pre>
    </details>
  );
};

export const RunPreview = ({ data, run }: { readonly data: RunData; readonly run: RunDetail }) => {
  const { view, setView, read } = usePreview(data, run.id);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<Note>(null);
  if (!view || !view.command) return null;
  const act = async (method: 'POST' | 'DELETE') => {
    setBusy(true);
    setNote(null);
    try {
      setView(await api<PreviewView>(`runs/${encodeURIComponent(run.id)}/preview`, { method, body: {} }));
    } catch (e) {
      setNote({ kind: 'error', text: e instanceof ApiError ? e.detail : String(e) });
      await read();
    }
    setBusy(false);
  };
  const up = view.state !== 'off' && view.state !== 'stopped';
  return (
    <section class="run-preview" aria-labelledby="preview-title">
      <h2 id="preview-title">Preview</h2>
      <p role="status"><span class={`preview-state preview-${view.state}`}>{WORDS[view.state]}</span>{view.note && view.note !== WORDS[view.state] ? <span class="muted"> · {view.note}</span> : null}</p>
      <div class="row">
        {view.state === 'running' && view.path ? <a class="button" href={view.path} target="_blank" rel="noopener">Open preview</a> : null}
        {up ? <button type="button" disabled={busy} onClick={() => void act('DELETE')}>Stop preview</button>
          : run.archived ? null : <button type="button" disabled={busy} onClick={() => void act('POST')}>Preview</button>}
      </div>
      <NoteLine note={note} />
      <PreviewLog data={data} />
    </section>
  );
};
