import { api } from '../api.js';
import { ErrorNote, Loading } from '../ui/page.js';
import { describeChange, describeSource, type ChangeRow } from './settings-api.js';
import { availabilityText, type HarnessRow } from './shapes.js';
import type { Loaded } from './use-load.js';
import { useSave } from './use-save.js';

// Settings: the recent changes, newest first, each with who sent it; and each harness's readiness
// with Re-check (the server runs each CLI's check again).

export const RecentChanges = ({ changes }: { readonly changes: Loaded<{ changes: ChangeRow[] }> }) => {
  const rows = changes.data?.changes;
  return (
    <>
      <ErrorNote error={changes.error} />
      {!rows ? <Loading what="recent changes" /> : rows.length === 0 ? <p class="muted">No change yet: everything is at its default.</p> : (
        <ol class="plain changes" aria-label="Recent changes, newest first">
          {rows.map((r) => (
            <li key={r.seq} class="row" data-change={r.change._tag}>
              <span class="grow">{describeChange(r.change)}</span>
              <span class="muted">by {describeSource(r.source)}</span>
              <time class="muted" dateTime={r.at}>{new Date(r.at).toLocaleString()}</time>
            </li>
          ))}
        </ol>
      )}
    </>
  );
};

export const HarnessReadiness = ({ harnesses }: { readonly harnesses: Loaded<{ harnesses: HarnessRow[] }> }) => {
  const save = useSave();
  const rows = harnesses.data?.harnesses;
  return (
    <>
      <ErrorNote error={harnesses.error} />
      {!rows ? <Loading what="harnesses" /> : (
        <ul class="plain" aria-label="Harness readiness">
          {rows.map((h) => (
            <li key={h.name} class="row" data-harness={h.name}>
              <strong>{h.name}</strong>
              <span class={`grow ${h.availability._tag === 'Ready' ? 'note' : 'warning'}`}>{availabilityText(h.availability)}</span>
            </li>
          ))}
        </ul>
      )}
      <button type="button" disabled={save.busy} onClick={() => void save.run(async () => harnesses.set(await api<{ harnesses: HarnessRow[] }>('harnesses/check', { method: 'POST', body: {} })), 'Checked again.')}>
        {save.busy ? 'Checking…' : 'Re-check'}
      </button>
      <ErrorNote error={save.error} />
      <p class="note" role="status">{save.done}</p>
    </>
  );
};
