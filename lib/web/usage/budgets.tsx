import { useState } from 'preact/hooks';
import type { ProjectView } from '../../../domain/runs.js';
import { api, type ApiError } from '../api.js';
import { useFocusBack } from '../ui/focus-back.js';
import { ErrorNote } from '../ui/page.js';
import { costText, usd } from '../ui/usage-text.js';
import type { UsageRow } from './shapes.js';

// Daily budgets on the Usage page: each project's spend today beside its daily budget, set or
// removed here (PATCH /api/projects/{id} {dailyBudgetUsd}, docs/usage.md). Before, the budget
// could only be set over HTTP, and nothing in the app said how near a project was to it.

const reachedBy = (spent: UsageRow | undefined, budget: number | undefined): boolean => budget !== undefined && (spent?.costUsd ?? 0) >= budget;

const todayText = (spent: UsageRow | undefined, budget: number | undefined): string => {
  const cost = spent ? costText(spent.costUsd, spent.unknownTurns) : usd(0);
  if (budget === undefined) return `${cost} today; no daily budget`;
  return `${cost} of ${usd(budget)} today${reachedBy(spent, budget) ? ': reached, new runs wait in the queue until tomorrow or a raise' : ''}`;
};

const ProjectBudget = ({ project, spent, onChanged }: { readonly project: ProjectView; readonly spent: UsageRow | undefined; readonly onChanged: () => void }) => {
  const [usdText, setUsd] = useState(project.dailyBudgetUsd === undefined ? '' : String(project.dailyBudgetUsd));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const focus = useFocusBack(busy);
  const send = (dailyBudgetUsd: number | null) => {
    focus.hold();
    setBusy(true);
    api(`projects/${encodeURIComponent(project.id)}`, { method: 'PATCH', body: { dailyBudgetUsd } }).then(
      () => { setBusy(false); setError(null); if (dailyBudgetUsd === null) setUsd(''); onChanged(); },
      (e: ApiError) => { setBusy(false); setError(e); },
    );
  };
  const id = `budget-${project.id}`;
  return (
    <li data-project={project.id}>
      <form class="inline-form" aria-label={`Daily budget of ${project.name}`} onSubmit={(e) => { e.preventDefault(); send(Number(usdText)); }}>
        <label for={id}>{project.name}</label>
        <input id={id} type="number" min="0.01" step="0.01" inputMode="decimal" required value={usdText} onInput={(e) => setUsd(e.currentTarget.value)} aria-describedby={`${id}-today`} placeholder="US dollars a day" />
        <button type="submit" disabled={busy}>Save</button>
        {project.dailyBudgetUsd !== undefined ? <button type="button" disabled={busy} onClick={() => send(null)}>Remove</button> : null}
      </form>
      <p id={`${id}-today`} class={`${reachedBy(spent, project.dailyBudgetUsd) ? 'warning' : 'muted'} about`} data-today>{todayText(spent, project.dailyBudgetUsd)}</p>
      <ErrorNote error={error} />
    </li>
  );
};

export const DailyBudgets = ({ projects, today, onChanged }: { readonly projects: readonly ProjectView[]; readonly today: readonly UsageRow[]; readonly onChanged: () => void }) => (
  <>
    <p class="muted">What each project's runs may spend in a day. Known costs decide; a turn of unknown cost is shown, never counted as $0. Once reached, its new runs wait in the queue; runs already going carry on (give them a run budget).</p>
    <ul class="plain usage-budgets">
      {projects.map((p) => <ProjectBudget key={p.id} project={p} spent={today.find((r) => r.key === p.id)} onChanged={onChanged} />)}
    </ul>
  </>
);
