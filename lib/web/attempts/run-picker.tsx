import type { BoardRow } from '../data/runs-index.js';
import { dayTimeText } from '../ui/local-time.js';

// A select of a project's runs (archived ones too: their journals and branches stay comparable),
// newest first, each named as a person knows it: its title, then what tells two of one title apart
// (its agent, which attempt, its standing, when it started in the browser's time). Never the id,
// which reads as noise; it is in the option's tooltip, worded as on a link to a run (ui/run-link.tsx).

const when = (r: BoardRow): string => (r.startedAt ? `started ${dayTimeText(r.startedAt)}` : `made ${dayTimeText(r.createdAt)}`);

const runLabel = (r: BoardRow): string => [
  r.title, r.harness ?? 'agent', ...(r.attempt ? [`attempt ${r.attempt.index + 1} of ${r.attempt.of}`] : []),
  (r.standing === 'Created' ? 'not started' : r.standing.toLowerCase()) + (r.archived ? ', archived' : ''), when(r),
].join(' · ');

// run ids are time-ordered, so the newest sort last by id
const newestFirst = (runs: readonly BoardRow[]): BoardRow[] => [...runs].sort((x, y) => (x.runId < y.runId ? 1 : x.runId > y.runId ? -1 : 0));

/** Labels for runs newest first; runs that would read alike (made in one second) get a count, oldest 1 */
const labelled = (runs: readonly BoardRow[]): { readonly run: BoardRow; readonly label: string }[] => {
  const labels = runs.map(runLabel);
  const left = new Map<string, number>();
  for (const l of labels) left.set(l, (left.get(l) ?? 0) + 1);
  return runs.map((run, i) => {
    const label = labels[i]!;
    const n = left.get(label)!;
    left.set(label, n - 1);
    return { run, label: labels.indexOf(label) === labels.lastIndexOf(label) ? label : `${label} (${n})` };
  });
};

export const RunPicker = ({ id, label, runs, value, onChange, exclude }: {
  readonly id: string; readonly label: string; readonly runs: readonly BoardRow[]; readonly value: string;
  readonly onChange: (runId: string) => void; readonly exclude?: string;
}) => (
  <div class="field">
    <label for={id}>{label}</label>
    <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
      {value === '' ? <option value="">Choose a run…</option> : null}
      {labelled(newestFirst(runs.filter((r) => r.runId !== exclude))).map(({ run, label: text }) =>
        <option key={run.runId} value={run.runId} title={`run ${run.runId}`}>{text}</option>)}
    </select>
  </div>
);
