import { useMemo, useState } from 'preact/hooks';
import { api, ApiError, authHeaders } from '../api.js';
import { useLoad } from '../components/use-load.js';
import type { PageProps } from '../page-props.js';
import { ErrorNote, Loading, PageHeading } from '../ui/page.js';
import { costText } from '../ui/usage-text.js';
import { CostChart, partCost } from '../usage/chart.js';
import { stacked } from '../usage/series.js';
import type { StackBy, UsageAnswer } from '../usage/shapes.js';
import { addUsageStyle } from '../usage/style.js';
import { DailyBudgets } from '../usage/budgets.js';
import type { ProjectView } from '../../../domain/runs.js';
import { ChartTable, TokensTable, TopRuns, tokensText } from '../usage/tables.js';
import { useLiveReload } from '../usage/use-usage.js';

// Usage: what the agents cost per day, stacked by harness or project (uPlot), the runs that cost
// most, tokens by harness, and each project's daily budget; it reads GET /api/usage again when a
// run's cost moves. An unknown
// cost is said to be unknown, never drawn as $0.

const RANGES = [7, 30, 90] as const;

const localToday = (): string => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

const read = (q: string) => api<UsageAnswer>(`usage?${q}`);

const downloadCsv = async (q: string): Promise<void> => {
  const res = await fetch(`/api/usage.csv?${q}`, { headers: authHeaders() });
  if (!res.ok) throw new ApiError(res.status, `the CSV could not be made: HTTP ${res.status}`, null);
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = `usage-${q.replace(/[^\w-]+/g, '-')}.csv`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
};

interface ControlsProps {
  readonly days: number;
  readonly by: StackBy;
  readonly onDays: (n: number) => void;
  readonly onBy: (by: StackBy) => void;
  readonly onCsv: () => void;
}

const Controls = ({ days, by, onDays, onBy, onCsv }: ControlsProps) => (
  <form class="usage-controls" onSubmit={(e) => e.preventDefault()}>
    <div class="field">
      <label for="usage-days">Days</label>
      <select id="usage-days" value={days} onChange={(e) => onDays(Number(e.currentTarget.value))}>
        {RANGES.map((n) => <option key={n} value={n}>Last {n} days</option>)}
      </select>
    </div>
    <fieldset>
      <legend>Stack by</legend>
      {(['harness', 'project'] as const).map((k) => (
        <label key={k}><input type="radio" name="stack" value={k} checked={by === k} onChange={() => onBy(k)} />{k === 'harness' ? 'Harness' : 'Project'}</label>
      ))}
    </fieldset>
    <button type="button" onClick={onCsv}>Download CSV</button>
  </form>
);

export const Page = (_: PageProps) => {
  addUsageStyle();
  const [days, setDays] = useState<number>(30);
  const [by, setBy] = useState<StackBy>('harness');
  const range = useMemo(() => {
    const to = localToday();
    return `from=${shift(to, days - 1)}&to=${to}`;
  }, [days]);
  const perDay = useLoad(() => read(`${range}&groupBy=day&split=${by}`), [range, by]);
  const runs = useLoad(() => read(`${range}&groupBy=run&limit=10`), [range]);
  const harnesses = useLoad(() => read(`${range}&groupBy=harness`), [range]);
  const projects = useLoad(() => api<ProjectView[]>('projects'), []);
  const today = useLoad(() => read(`from=${localToday()}&to=${localToday()}&groupBy=project`), []);
  useLiveReload(() => { void perDay.reload(); void runs.reload(); void harnesses.reload(); void today.reload(); });
  const [csvError, setCsvError] = useState<string | null>(null);
  const chart = useMemo(() => (perDay.data ? stacked(perDay.data) : null), [perDay.data]);
  const total = perDay.data?.total;
  const caption = `Cost per day by ${by}`;
  return (
    <section aria-labelledby="page-title">
      <PageHeading title="Usage" />
      <Controls days={days} by={by} onDays={setDays} onBy={setBy} onCsv={() => { setCsvError(null); downloadCsv(`${range}&groupBy=day`).catch((e: Error) => setCsvError(e.message)); }} />
      <ErrorNote error={perDay.error ?? runs.error ?? harnesses.error ?? projects.error ?? today.error ?? csvError} />
      {!total || !chart ? <Loading what="usage" /> : total.turns === 0 ? (
        <p class="muted usage-empty">No usage recorded in these days. Each agent turn's tokens and cost show here once a run has taken one.</p>
      ) : (
        <>
          <dl class="usage-summary">
            <div><dt>Cost</dt><dd>{costText(total.costUsd, total.unknownTurns)}</dd></div>
            <div><dt>Turns</dt><dd>{total.turns}</dd></div>
            <div><dt>Tokens</dt><dd>{tokensText(total)}</dd></div>
          </dl>
          <h2 id="usage-chart-title">{caption}</h2>
          <CostChart data={chart} label={`${caption}, ${perDay.data!.from} to ${perDay.data!.to}: ${costText(total.costUsd, total.unknownTurns)} in all; ${chart.parts.map((p, i) => `${p.label} ${partCost(chart, i)}`).join(', ')}. The table below lists each day.`} />
          <ChartTable data={chart} caption={caption} />
          <h2>Top runs</h2>
          {runs.data ? <TopRuns rows={runs.data.rows} /> : <Loading what="runs" />}
          <h2>Tokens by harness</h2>
          {harnesses.data ? <TokensTable rows={harnesses.data.rows} /> : <Loading what="tokens" />}
        </>
      )}
      {/* shown with no usage too: a budget is set before anything is spent */}
      <h2>Daily budgets</h2>
      {projects.data && today.data ? <DailyBudgets projects={projects.data} today={today.data.rows} onChanged={() => { void projects.reload(); void today.reload(); }} /> : <Loading what="budgets" />}
    </section>
  );
};

const shift = (day: string, back: number): string => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - back);
  return d.toISOString().slice(0, 10);
};
