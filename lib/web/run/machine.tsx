import { useState } from 'preact/hooks';
import type { RunDetail } from '../../../projections/run-shapes.js';
import { api, ApiError } from '../api.js';
import { useLoad } from '../components/use-load.js';
import type { Machines } from '../machines/shapes.js';
import type { RunData } from './data.js';
import { LocalTime } from '../ui/local-time.js';

// Where a run's steps ran and where its next goes (get_run's `machine`, docs/workers.md), shown
// only once this svc has workers: a fact in the run's header, a chip in each step's heading that
// ran on a worker (with why it went there and why it moved), and "Move to…" on a paused run or
// on one whose step waits for a worker that is away.

type View = NonNullable<RunDetail['machine']>;

/** "next steps on desk (moved by person ann)": only when the next place is not where the last step ran */
export const MachineFact = ({ run }: { readonly run: RunDetail }) => {
  const m = run.machine;
  if (!m) return null;
  const sameNext = m.next.workerId === m.current.workerId;
  return (
    <span class="muted" data-machine={m.current.workerId ?? 'here'}>
      {m.steps.length ? <>ran on <strong>{m.current.name}</strong></> : <>runs on <strong>{m.current.name}</strong></>}
      {sameNext && m.steps.length === 0 ? null : sameNext ? '' : <> · next steps on <strong data-next={m.next.workerId ?? 'here'}>{m.next.name}</strong> ({m.next.why})</>}
      {m.waiting ? <> · <span class="machine-waiting" data-waiting={m.waiting.workerId ?? 'here'} title={m.waiting.why}>waiting for <strong>{m.waiting.name}</strong> since <LocalTime at={m.waiting.since} />: it is away; Move to… runs the step elsewhere</span></> : null}
    </span>
  );
};

const stepTitle = (v: View['steps'][number]): string => [
  v.why ? `sent there: ${v.why}` : '',
  ...(v.movedFrom ?? []).map((f) => `moved from ${f.name}: ${f.why}`),
  v.lost ? `lost: ${v.lost}` : '',
].filter(Boolean).join('; ');

/** the machine a step ran on, in its heading: nothing for a step that ran here */
export const StepMachine = ({ run, stepId }: { readonly run: RunDetail | null; readonly stepId: string }) => {
  const v = run?.machine?.steps.find((s) => s.stepId === stepId);
  if (!v) return null;
  const moved = v.movedFrom?.length ? ` (moved from ${v.movedFrom.map((f) => f.name).join(', ')})` : '';
  return <span class="muted step-machine" data-step-machine={v.workerId ?? 'here'} title={stepTitle(v) || undefined}>on {v.name}{moved}</span>;
};

/** "Move to…": the machine for the paused run's next steps (or for its step waiting for a worker that is away), here or a worker not revoked */
export const MoveTo = ({ data, run }: { readonly data: RunData; readonly run: RunDetail }) => {
  const [note, setNote] = useState<{ readonly kind: 'ok' | 'error'; readonly text: string } | null>(null);
  // a waiting step moved runs again at once, so the run stops offering the move: its note stays
  const shown = run.machine !== undefined && (run.standing === 'Paused' || run.machine.waiting !== undefined || note !== null);
  const machines = useLoad(shown ? () => api<Machines>('workers') : null, [shown]);
  const [to, setTo] = useState('');
  const [busy, setBusy] = useState(false);
  if (!shown || !run.machine) return null;
  const options = [{ id: 'here', label: `this machine (${machines.data?.here.host ?? 'here'})` },
    ...(machines.data?.workers ?? []).filter((w) => w.state !== 'revoked').map((w) => ({ id: w.workerId, label: `${w.name} (${w.state === 'never-joined' ? 'never joined' : w.state})` }))];
  const current = run.machine.next.workerId ?? 'here';
  const chosen = to || current;
  const move = async () => {
    setBusy(true);
    try {
      const r = await api<{ run: RunDetail }>(`runs/${encodeURIComponent(run.id)}/move`, { body: { to: chosen } });
      data.accept(r.run, true);
      const where = r.run.machine?.next.name ?? chosen;
      setNote({ kind: 'ok', text: run.machine?.waiting ? `Moved: the waiting step runs on ${where} now.` : `Moved: its next steps run on ${where}.` });
    } catch (e) {
      setNote({ kind: 'error', text: e instanceof ApiError ? e.detail : String(e) });
    }
    setBusy(false);
  };
  return (
    <div class="move-to-box">
      <form class="row inline-form move-to" onSubmit={(e) => { e.preventDefault(); void move(); }}>
        <label class="inline">Move to
          <select value={chosen} onChange={(e) => setTo(e.currentTarget.value)} disabled={!machines.data}>
            {options.map((o) => <option key={o.id} value={o.id}>{o.label}</option>)}
          </select>
        </label>
        <button type="submit" disabled={busy || !machines.data || chosen === current}>Move</button>
      </form>
      {note ? <p class={`note note-${note.kind}`} role={note.kind === 'ok' ? 'status' : 'alert'}>{note.text}</p> : null}
    </div>
  );
};
