import type { BoardRow } from '../data/runs-index.js';

// A select of a project's runs (archived ones too: their journals and branches stay comparable),
// newest first, each named by its agent, standing and title.

export const runLabel = (r: BoardRow): string =>
  `${r.harness ?? 'agent'} · ${r.standing}${r.archived ? ' · archived' : ''} · ${r.title} (${r.runId})`;

// run ids are time-ordered, so the newest sort last by id
const newestFirst = (runs: readonly BoardRow[]): BoardRow[] => [...runs].sort((x, y) => (x.runId < y.runId ? 1 : x.runId > y.runId ? -1 : 0));

export const RunPicker = ({ id, label, runs, value, onChange, exclude }: {
  readonly id: string; readonly label: string; readonly runs: readonly BoardRow[]; readonly value: string;
  readonly onChange: (runId: string) => void; readonly exclude?: string;
}) => (
  <div class="field">
    <label for={id}>{label}</label>
    <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
      {value === '' ? <option value="">Choose a run…</option> : null}
      {newestFirst(runs.filter((r) => r.runId !== exclude)).map((r) => <option key={r.runId} value={r.runId}>{runLabel(r)}</option>)}
    </select>
  </div>
);
