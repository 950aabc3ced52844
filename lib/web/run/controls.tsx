import { useEffect, useState } from 'preact/hooks';
import type { Action } from '../../../domain/runs.js';
import type { RunDetail } from '../../../projections/run-shapes.js';
import { api, ApiError } from '../api.js';
import { ConfirmButton } from './confirm.js';
import type { RunData } from './data.js';
import { HarnessForm } from './harness-form.js';
import { MoveTo } from './machine.js';

// The run's controls: exactly its `allowedActions`, each sent with the `position` the page holds.
// If the run moved on before the control reached it, the server answers `Stale` and changes
// nothing: the page says so and reads the run again, so the person decides on what is true now.

const LABEL: Record<Action, string> = {
  Pause: 'Pause', Resume: 'Resume', Retry: 'Retry', ChangeHarness: 'Change harness', Jump: 'Jump',
  SkipWait: 'Skip wait', Restart: 'Restart', Abort: 'Abort', MoveToFront: 'Move to front',
};

export type Note = { readonly kind: 'ok' | 'stale' | 'error'; readonly text: string } | null;

export interface ControlAnswer { readonly outcome: 'Applied' | 'Stale'; readonly run: RunDetail }

/** Sends one control; returns what to tell the person. */
export const sendControl = async (data: RunData, run: RunDetail, action: Action, extra: Record<string, string | number> = {}): Promise<Note> => {
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

// A run at a gate is approved or sent back from the gate's own panel (gate.tsx), so its Resume is
// not repeated here; a Created run's Resume is its Start (it joins the queue). Restart is rare: it
// sits in the run's More menu (actions.tsx).
const labelOf = (run: RunDetail, a: Action): string => (a === 'Resume' && run.standing === 'Created' ? 'Start' : LABEL[a]);
const shown = (run: RunDetail, a: Action): boolean =>
  a !== 'ChangeHarness' && a !== 'Jump' && a !== 'Abort' && a !== 'Restart' && !(a === 'Resume' && run.phase === 'AtGate');

// The engine's budget pause reads `budget: spent $x of $y budget` (commands/budget.ts). Such a run
// goes on only with a raised budget, so its plain Resume (always refused) is not offered, and the
// line says what to do rather than showing the reason's code word.
const BUDGET_PREFIX = 'budget: ';
const byBudget = (reason: string | undefined): boolean => reason?.startsWith(BUDGET_PREFIX) ?? false;
const PauseLine = ({ reason }: { readonly reason: string }) => (byBudget(reason)
  ? <p class="warning" role="status">Paused by its budget: {reason.slice(BUDGET_PREFIX.length)}. Raise the budget to go on.</p>
  : <p class="note" role="status">Paused: {reason}</p>);

// A run its budget paused goes on only with a raised budget (docs/usage.md): Resume takes it.
const RaiseBudget = ({ run, busy, onRaise }: { readonly run: RunDetail; readonly busy: boolean; readonly onRaise: (usd: number) => void }) => {
  const [usd, setUsd] = useState('');
  return (
    <form class="row inline-form" onSubmit={(e) => { e.preventDefault(); if (Number(usd) > 0) onRaise(Number(usd)); }}>
      <label class="inline">Budget in US dollars ({run.budget!.text})
        <input type="number" min="0.01" step="0.01" inputMode="decimal" value={usd} onInput={(e) => setUsd(e.currentTarget.value)} />
      </label>
      <button type="submit" disabled={busy || !(Number(usd) > 0)}>Resume with this budget</button>
    </form>
  );
};

export const Controls = ({ data, run }: { readonly data: RunData; readonly run: RunDetail }) => {
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<Note>(null);
  const allowed = run.allowedActions;
  const targets = useJumpTargets(run.id, allowed.includes('Jump'));
  const [node, setNode] = useState('');
  const act = async (action: Action, extra: Record<string, string | number> = {}) => {
    setBusy(true);
    setNote(null);
    setNote(await sendControl(data, run, action, extra));
    setBusy(false);
  };
  return (
    <section class="run-controls" aria-label="Controls">
      {run.pauseReason ? <PauseLine reason={run.pauseReason} /> : null}
      {run.waiting ? <p class="note" role="status">{run.waiting}</p> : null}
      <div class="row">
        {allowed.filter((a) => shown(run, a) && !(a === 'Resume' && byBudget(run.pauseReason))).map((a) => (
          <button key={a} type="button" disabled={busy} onClick={() => void act(a)}>{labelOf(run, a)}</button>
        ))}
        {allowed.includes('Abort') ? (
          <ConfirmButton label="Abort" disabled={busy} yes="Abort the run" no="Keep it going" onConfirm={() => void act('Abort')}
            question="Abort this run? It ends for good: its step in flight is stopped and it cannot be resumed (Restart makes a new run)." />
        ) : null}
      </div>
      {run.budget && allowed.includes('Resume') && run.standing === 'Paused' ? <RaiseBudget run={run} busy={busy} onRaise={(usd) => act('Resume', { budgetUsd: usd })} /> : null}
      {allowed.includes('ChangeHarness') ? <HarnessForm current={run.currentStepSettings?.harness.value} busy={busy} onChange={(h) => act('ChangeHarness', { harness: h })} /> : null}
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
      <MoveTo data={data} run={run} />
      <NoteLine note={note} />
    </section>
  );
};
