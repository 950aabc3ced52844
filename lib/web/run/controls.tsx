import { useEffect, useState } from 'preact/hooks';
import type { Action, RunDetail } from '../../service-api.js';
import { api, ApiError } from '../api.js';
import type { RunData } from './data.js';

// The run's controls: exactly its `allowedActions`, each sent with the `position` the page holds.
// If the run moved on before the control reached it, the server answers `Stale` and changes
// nothing: the page says so and reads the run again, so the person decides on what is true now.

const LABEL: Record<Action, string> = {
  Pause: 'Pause', Resume: 'Resume', Retry: 'Retry', ChangeHarness: 'Change harness', Jump: 'Jump',
  SkipWait: 'Skip wait', Restart: 'Restart', Abort: 'Abort', MoveToFront: 'Move to front',
};

interface Harness { readonly name: string; readonly availability?: { readonly _tag: string; readonly detail?: string } }

export type Note = { readonly kind: 'ok' | 'stale' | 'error'; readonly text: string } | null;

export interface ControlAnswer { readonly outcome: 'Applied' | 'Stale'; readonly run: RunDetail }

/** Sends one control; returns what to tell the person. */
export const sendControl = async (data: RunData, run: RunDetail, action: Action, extra: Record<string, string> = {}): Promise<Note> => {
  try {
    const r = await api<ControlAnswer>(`runs/${encodeURIComponent(run.id)}/control`, { body: { position: run.position, action, ...extra } });
    data.accept(r.run);
    if (r.outcome === 'Stale') {
      await data.refresh();
      return { kind: 'stale', text: `Stale: the run had moved on before ${LABEL[action]} reached it, so nothing was changed. It is shown as it is now; choose again.` };
    }
    return { kind: 'ok', text: `${LABEL[action]} applied.` };
  } catch (e) {
    await data.refresh();
    return { kind: 'error', text: e instanceof ApiError ? e.detail : String(e) };
  }
};

const useReadyHarnesses = (wanted: boolean): readonly Harness[] | null => {
  const [list, setList] = useState<readonly Harness[] | null>(null);
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    api<{ harnesses: Harness[] }>('harnesses').then((r) => { if (live) setList(r.harnesses.filter((h) => h.availability?._tag === 'Ready')); }, () => { if (live) setList([]); });
    return () => { live = false; };
  }, [wanted]);
  return list;
};

const useJumpTargets = (runId: string, wanted: boolean): readonly string[] | null => {
  const [targets, setTargets] = useState<readonly string[] | null>(null);
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    api<{ jumpTargets: string[] }>(`runs/${encodeURIComponent(runId)}/workflow`).then((w) => { if (live) setTargets(w.jumpTargets); }, () => { if (live) setTargets([]); });
    return () => { live = false; };
  }, [runId, wanted]);
  return targets;
};

export const NoteLine = ({ note }: { readonly note: Note }) =>
  note ? <p class={`note note-${note.kind}`} role={note.kind === 'ok' ? 'status' : 'alert'}>{note.text}</p> : null;

export const Controls = ({ data, run }: { readonly data: RunData; readonly run: RunDetail }) => {
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<Note>(null);
  const allowed = run.allowedActions;
  const harnesses = useReadyHarnesses(allowed.includes('ChangeHarness'));
  const targets = useJumpTargets(run.id, allowed.includes('Jump'));
  const [harness, setHarness] = useState('');
  const [node, setNode] = useState('');
  const act = async (action: Action, extra: Record<string, string> = {}) => {
    setBusy(true);
    setNote(null);
    setNote(await sendControl(data, run, action, extra));
    setBusy(false);
  };
  const plain = allowed.filter((a) => a !== 'ChangeHarness' && a !== 'Jump');
  // The harness of the step in flight is no choice; a run that ended has none in flight.
  const currentHarness = run.currentStepSettings?.harness.value;
  const otherHarnesses = (harnesses ?? []).filter((h) => h.name !== currentHarness);
  return (
    <section class="run-controls" aria-label="Controls">
      {allowed.length === 0 ? <p class="muted">No control applies to this run now.</p> : null}
      <div class="row">
        {plain.map((a) => (
          <button key={a} type="button" class={a === 'Abort' ? 'danger' : undefined} disabled={busy} onClick={() => void act(a)}>{LABEL[a]}</button>
        ))}
      </div>
      {allowed.includes('ChangeHarness') ? (
        <form class="row inline-form" onSubmit={(e) => { e.preventDefault(); const h = harness || otherHarnesses[0]?.name; if (h) void act('ChangeHarness', { harness: h }); }}>
          <label class="inline">Harness
            <select value={harness || otherHarnesses[0]?.name || ''} onChange={(e) => setHarness((e.target as HTMLSelectElement).value)} disabled={!otherHarnesses.length}>
              {harnesses === null ? <option value="">checking…</option>
                : otherHarnesses.length === 0 ? <option value="">no other harness is ready</option>
                : otherHarnesses.map((h) => <option key={h.name} value={h.name}>{h.name}</option>)}
            </select>
          </label>
          <button type="submit" disabled={busy || !otherHarnesses.length}>Change harness</button>
        </form>
      ) : null}
      {allowed.includes('Jump') ? (
        <form class="row inline-form" onSubmit={(e) => { e.preventDefault(); const n = node || targets?.[0]; if (n) void act('Jump', { node: n }); }}>
          <label class="inline">Step
            <select value={node || targets?.[0] || ''} onChange={(e) => setNode((e.target as HTMLSelectElement).value)}>
              {(targets ?? []).map((t) => <option key={t} value={t}>{t}</option>)}
            </select>
          </label>
          <button type="submit" disabled={busy || !targets?.length}>Jump</button>
        </form>
      ) : null}
      <NoteLine note={note} />
    </section>
  );
};
