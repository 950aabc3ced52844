import { useEffect, useState } from 'preact/hooks';
import type { PreviewView } from '../../../domain/preview.js';
import { api, ApiError } from '../api.js';

// Compare's two previews side by side (issue 30): each run's preview in a frame of svc's own origin
// (the proxy refuses other sites, not this page), with "Open" in a new tab, or a button to start
// it. Shown only when the project has a preview command. Read again every few seconds while either
// is starting, so the frame appears once its port answers.

const enc = encodeURIComponent;
const BUSY = new Set<PreviewView['state']>(['setting-up', 'starting']);

const usePreviews = (a: string, b: string) => {
  const [views, setViews] = useState<readonly (PreviewView | null)[]>([null, null]);
  const read = () => Promise.all([a, b].map((id) => api<PreviewView>(`runs/${enc(id)}/preview`).catch(() => null))).then(setViews);
  useEffect(() => { void read(); }, [a, b]);
  const busy = views.some((v) => v && BUSY.has(v.state));
  useEffect(() => {
    if (!busy) return;
    const t = setInterval(() => void read(), 1000);
    return () => clearInterval(t);
  }, [busy, a, b]);
  return { views, read };
};

const Side = ({ name, runId, view, onChange }: { readonly name: string; readonly runId: string; readonly view: PreviewView; readonly onChange: () => void }) => {
  const [error, setError] = useState<string | null>(null);
  const start = () => api(`runs/${enc(runId)}/preview`, { body: {} }).then(onChange, (e: unknown) => setError(e instanceof ApiError ? e.detail : String(e)));
  return (
    <section class="compare-preview" aria-label={`Preview of ${name}`}>
      <h3>{name}: {view.state === 'running' ? 'running' : view.state === 'off' ? 'not running' : view.state}</h3>
      {view.state === 'running' && view.path ? (
        <>
          <iframe src={view.path} title={`Preview of run ${name}`} loading="lazy" />
          <a class="button small" href={view.path} target="_blank" rel="noopener">Open {name} in a new tab</a>
        </>
      ) : BUSY.has(view.state) ? <p class="muted">{view.note}</p> : (
        <>
          {view.note ? <p class="muted">{view.note}</p> : null}
          <button type="button" class="small" onClick={() => void start()}>Start preview of {name}</button>
        </>
      )}
      {error ? <p class="error" role="alert">{error}</p> : null}
    </section>
  );
};

export const ComparePreviews = ({ a, b }: { readonly a: string; readonly b: string }) => {
  const { views, read } = usePreviews(a, b);
  const [va, vb] = views;
  if (!va?.command || !vb) return null;
  return (
    <section class="compare-previews" aria-labelledby="compare-previews-title">
      <h2 id="compare-previews-title">Previews</h2>
      <div class="compare-cols">
        <Side name="A" runId={a} view={va} onChange={() => void read()} />
        <Side name="B" runId={b} view={vb} onChange={() => void read()} />
      </div>
    </section>
  );
};
