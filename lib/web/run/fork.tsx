import { useEffect, useRef, useState } from 'preact/hooks';
import type { RunDetail } from '../../../projections/run-shapes.js';
import { api, ApiError } from '../api.js';
import { navigate } from '../router.js';
import { NoteLine, type Note } from './controls.js';
import { RunLink } from '../ui/run-link.js';
import { useRunsIndex, type BoardRow } from '../data/runs-index.js';

// "Fork from here" on a step end (History, and the thread's step headings): a small modal dialog
// (goal, harness, model, note; each optional) that POSTs /api/runs/{id}/forks and opens the new
// run. Offered exactly on the step ends the run's detail lists as forkable (snapshotted, not archived).

type Forkable = NonNullable<RunDetail['forkable']>[number];

const HARNESSES = ['claude', 'codex', 'opencode'] as const;
const runHref = (id: string) => `/runs/${encodeURIComponent(id)}`;
const errorText = (e: unknown) => (e instanceof ApiError ? e.detail : String(e));

/** the step end of this event seq or step id, when a fork can start there */
export const forkableAt = (run: RunDetail | null, q: { at?: number; stepId?: string }): Forkable | undefined =>
  run?.forkable?.find((e) => (q.at !== undefined ? e.at === q.at : e.stepId === q.stepId));

const body = (at: number, f: Record<'goal' | 'harness' | 'model' | 'note', string>) => ({
  at, ...Object.fromEntries(Object.entries(f).filter(([, v]) => v.trim() !== '')),
});

const ForkDialog = ({ run, end, onClose }: { readonly run: RunDetail; readonly end: Forkable; readonly onClose: () => void }) => {
  const ref = useRef<HTMLDialogElement>(null);
  const [f, setF] = useState({ goal: '', harness: '', model: '', note: '' });
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<Note>(null);
  useEffect(() => { ref.current?.showModal(); }, []);
  const set = (k: keyof typeof f) => (e: Event) => setF({ ...f, [k]: (e.target as HTMLInputElement).value });
  const send = async () => {
    setBusy(true);
    setNote(null);
    try {
      const r = await api<{ runId: string }>(`runs/${encodeURIComponent(run.id)}/forks`, { body: body(end.at, f) });
      ref.current?.close();
      navigate(runHref(r.runId));
      return;
    } catch (e) {
      setNote({ kind: 'error', text: errorText(e) });
    }
    setBusy(false);
  };
  const id = `fork-title-${end.at}`;
  return (
    <dialog ref={ref} class="fork-dialog" aria-labelledby={id} onClose={onClose}>
      <form onSubmit={(e) => { e.preventDefault(); void send(); }}>
        <h2 id={id} class="card-title">Fork from step {end.node}</h2>
        <p class="muted">A new run whose files are as step {end.node} left them (#{end.at}); it goes on from the next step. This run is not changed.</p>
        <label>Goal <span class="muted">(empty: the same goal)</span>
          <textarea rows={3} value={f.goal} placeholder={run.goal} onInput={set('goal')} />
        </label>
        <label>Harness
          <select value={f.harness} onChange={set('harness')}>
            <option value="">the same</option>
            {HARNESSES.map((h) => <option key={h} value={h}>{h}</option>)}
          </select>
        </label>
        <label>Model <span class="muted">(optional)</span><input value={f.model} onInput={set('model')} /></label>
        <label>Note <span class="muted">(why this fork)</span><input value={f.note} onInput={set('note')} /></label>
        <div class="row">
          <button type="submit" disabled={busy}>Fork</button>
          <button type="button" onClick={() => ref.current?.close()}>Cancel</button>
        </div>
        <NoteLine note={note} />
      </form>
    </dialog>
  );
};

export const ForkButton = ({ run, end }: { readonly run: RunDetail; readonly end: Forkable }) => {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const close = () => { setOpen(false); button.current?.focus(); };
  return (
    <>
      <button type="button" class="small fork" ref={button} aria-label={`Fork from here: after step ${end.node} (#${end.at})`} onClick={() => setOpen(true)}>Fork from here</button>
      {open ? <ForkDialog run={run} end={end} onClose={close} /> : null}
    </>
  );
};

// Forks of one run differ by where they went on from, their agent and how they did: said beside
// each id, from the runs index the app already follows (an archived fork is not in it: its id alone).
// Only a run with forks reads the index (live: a fork's standing moves on); any other run page
// reads no board at all.
const forkFacts = (row: BoardRow | undefined): string =>
  row ? ` (${[row.forkOf ? `after ${row.forkOf.step}` : null, row.harness, row.standing].filter((x) => x).join(', ')})` : '';

const Forks = ({ run, forks }: { readonly run: RunDetail; readonly forks: readonly string[] }) => {
  const rows = useRunsIndex().rows.value;
  return <>Forks: {forks.map((id, i) => <span key={id}>{i > 0 ? ', ' : ''}<RunLink run={run} id={id} />{forkFacts(rows.get(id))}</span>)}.</>;
};

/** Both ends of a fork: the run and step end this one was forked from, and the forks made of it. */
export const ForkLinks = ({ run }: { readonly run: RunDetail }) => {
  const from = run.forkedFrom;
  if (!from && !run.forks?.length) return null;
  return (
    <p class="note fork-links">
      {from ? <>Forked from <RunLink run={run} id={from.run} /> after step {from.step} (#{from.at}){from.note ? <>: <span class="prose">{from.note}</span></> : null}. </> : null}
      {run.forks?.length ? <Forks run={run} forks={run.forks} /> : null}
    </p>
  );
};
