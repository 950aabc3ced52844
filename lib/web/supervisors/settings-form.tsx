import { useState } from 'preact/hooks';
import type { ApiError } from '../api.js';
import { ErrorNote } from '../ui/page.js';
import { ACTIONS, TIERS, WAKES, type SupervisorView, type Tier } from './shapes.js';
import { write } from './write.js';

// A supervisor's settings as one form: on/off, paused for the day, the five action tiers, its run
// cap and daily limit (with today's spend), quota fallbacks in order, its own harness and model,
// what wakes it, and its notes. Save sends only what changed (PATCH), so the supervisor's journal
// records the changes a person made, and shows the supervisor as the server answered.

const TIER_TEXT: Record<Tier, string> = { DoIt: 'Do it', AskFirst: 'Ask first', Never: 'Never' };

const usd = (n: number): string => `$${n.toFixed(2)}`;

type Draft = Pick<SupervisorView, 'enabled' | 'actions' | 'runCap' | 'dailyLimitUsd' | 'quotaFallbacks' | 'harness' | 'model' | 'wakeOn' | 'notes'> & { readonly paused: boolean };

const draftOf = (v: SupervisorView): Draft => ({
  enabled: v.enabled, paused: v.pausedUntil !== null, actions: v.actions, runCap: v.runCap, dailyLimitUsd: v.dailyLimitUsd,
  quotaFallbacks: v.quotaFallbacks, harness: v.harness, model: v.model, wakeOn: v.wakeOn, notes: v.notes,
});

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** the fields of the draft that differ from what the server holds */
export const patchOf = (v: SupervisorView, d: Draft): Record<string, unknown> => {
  const was = draftOf(v);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(d) as (keyof Draft)[]) if (!same(was[k], d[k])) out[k] = d[k];
  return out;
};

export const SettingsForm = ({ view, harnesses, onSaved }: {
  readonly view: SupervisorView;
  readonly harnesses: readonly string[];
  readonly onSaved: (v: SupervisorView) => void;
}) => {
  const [d, setD] = useState<Draft>(() => draftOf(view));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [done, setDone] = useState('');
  const key = `set-${view.id}`;
  const set = (p: Partial<Draft>) => { setD({ ...d, ...p }); setDone(''); };
  const changes = patchOf(view, d);
  const spare = harnesses.filter((h) => !d.quotaFallbacks.includes(h as never));

  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setDone('');
    try {
      const v = await write<SupervisorView>(`supervisors/${encodeURIComponent(view.id)}`, { method: 'PATCH', body: changes });
      onSaved(v);
      setD(draftOf(v));
      setDone('Settings saved.');
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };

  const move = (i: number, by: number) => {
    const l = [...d.quotaFallbacks];
    const [h] = l.splice(i, 1);
    l.splice(i + by, 0, h!);
    set({ quotaFallbacks: l });
  };

  return (
    <form class="panel sup-settings" onSubmit={save} aria-labelledby={`${key}-title`}>
      <h3 id={`${key}-title`}>Settings</h3>
      <label class="check"><input type="checkbox" checked={d.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} /> Switched on</label>
      <label class="check"><input type="checkbox" checked={d.paused} onChange={(e) => set({ paused: e.currentTarget.checked })} aria-describedby={`${key}-paused`} /> Paused for the day</label>
      <p id={`${key}-paused`} class="muted about">
        {view.pausedUntil ? `Paused until ${new Date(view.pausedUntil).toLocaleString()} (local midnight).` : 'A pause lasts until local midnight; its actions are refused and it is not woken meanwhile.'}
      </p>

      <fieldset>
        <legend>What it may do</legend>
        <p class="muted about">Do it: it acts. Ask first: it posts a card under Approvals and waits for you. Never: refused.</p>
        {ACTIONS.map((a) => (
          <div class="field tier" key={a.key}>
            <label for={`${key}-${a.key}`}>{a.label}</label>
            <select id={`${key}-${a.key}`} value={d.actions[a.key]} aria-describedby={`${key}-${a.key}-about`}
              onChange={(e) => set({ actions: { ...d.actions, [a.key]: e.currentTarget.value as Tier } })}>
              {TIERS.map((t) => <option key={t} value={t}>{TIER_TEXT[t]}</option>)}
            </select>
            <p id={`${key}-${a.key}-about`} class="muted about">{a.tools}</p>
          </div>
        ))}
      </fieldset>

      <fieldset>
        <legend>Limits</legend>
        <div class="two">
          <div class="field">
            <label for={`${key}-cap`}>Run cap</label>
            <input id={`${key}-cap`} type="number" min={0} max={64} step={1} required value={d.runCap} aria-describedby={`${key}-cap-about`}
              onInput={(e) => set({ runCap: e.currentTarget.valueAsNumber })} />
            <p id={`${key}-cap-about`} class="muted about">Runs it started that may be at work at once ({view.runsAtWork} now).</p>
          </div>
          <div class="field">
            <label for={`${key}-limit`}>Daily limit (USD)</label>
            <input id={`${key}-limit`} type="number" min={0} step={0.01} required value={d.dailyLimitUsd} aria-describedby={`${key}-spent`}
              onInput={(e) => set({ dailyLimitUsd: e.currentTarget.valueAsNumber })} />
            <p id={`${key}-spent`} class="muted about" data-spent={view.spentTodayUsd}>Spent today: {usd(view.spentTodayUsd)} of {usd(view.dailyLimitUsd)}.</p>
          </div>
        </div>
      </fieldset>

      <fieldset>
        <legend>Its own turns</legend>
        <div class="two">
          <div class="field">
            <label for={`${key}-harness`}>Harness</label>
            <select id={`${key}-harness`} value={d.harness ?? ''} onChange={(e) => set({ harness: (e.currentTarget.value || null) as Draft['harness'] })}>
              <option value="">The default harness</option>
              {harnesses.map((h) => <option key={h} value={h}>{h}</option>)}
            </select>
          </div>
          <div class="field">
            <label for={`${key}-model`}>Model</label>
            <input id={`${key}-model`} value={d.model ?? ''} placeholder="(the harness's default)" onInput={(e) => set({ model: e.currentTarget.value.trim() || null })} />
          </div>
        </div>
        <h4 id={`${key}-fb`}>Quota fallbacks, in order</h4>
        <p class="muted about">When a turn runs out of quota it runs again on the first of these that is ready; these are also the only harnesses it may move a run to.</p>
        {d.quotaFallbacks.length === 0 ? <p class="muted">None.</p> : (
          <ol class="plain fallbacks" aria-labelledby={`${key}-fb`}>
            {d.quotaFallbacks.map((h, i) => (
              <li key={h} class="row" data-fallback={h}>
                <span class="grow">{i + 1}. {h}</span>
                <button type="button" class="small" disabled={i === 0} aria-label={`Move ${h} up`} onClick={() => move(i, -1)}>Up</button>
                <button type="button" class="small" disabled={i === d.quotaFallbacks.length - 1} aria-label={`Move ${h} down`} onClick={() => move(i, 1)}>Down</button>
                <button type="button" class="small danger" aria-label={`Remove fallback ${h}`} onClick={() => set({ quotaFallbacks: d.quotaFallbacks.filter((x) => x !== h) })}>Remove</button>
              </li>
            ))}
          </ol>
        )}
        {spare.length ? (
          <div class="inline-form">
            <label for={`${key}-addfb`}>Add a fallback</label>
            <select id={`${key}-addfb`} value="" onChange={(e) => { const h = e.currentTarget.value; if (h) set({ quotaFallbacks: [...d.quotaFallbacks, h as never] }); }}>
              <option value="">(choose a harness)</option>
              {spare.map((h) => <option key={h} value={h}>{h}</option>)}
            </select>
          </div>
        ) : null}
      </fieldset>

      <fieldset>
        <legend>Wake it when</legend>
        {WAKES.map((w) => (
          <label class="check" key={w.key}>
            <input type="checkbox" checked={d.wakeOn[w.key]} onChange={(e) => set({ wakeOn: { ...d.wakeOn, [w.key]: e.currentTarget.checked } })} /> {w.label}
          </label>
        ))}
        <p class="muted about">A message from you, a decision on one of its cards and a run handed to it always wake it.</p>
      </fieldset>

      <div class="field">
        <label for={`${key}-notes`}>Its notes</label>
        <textarea id={`${key}-notes`} rows={4} maxLength={20_000} value={d.notes} aria-describedby={`${key}-notes-about`} onInput={(e) => set({ notes: e.currentTarget.value })} />
        <p id={`${key}-notes-about`} class="muted about">What it keeps from turn to turn; you may edit them.</p>
      </div>

      <ErrorNote error={error} />
      <div class="row">
        <button type="submit" disabled={busy || Object.keys(changes).length === 0}>Save settings</button>
        <button type="button" disabled={busy || Object.keys(changes).length === 0} onClick={() => { setD(draftOf(view)); setError(null); }}>Undo changes</button>
        <p class="note" role="status">{done}</p>
      </div>
    </form>
  );
};
