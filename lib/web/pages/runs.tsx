import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ProjectView } from '../../../domain/runs.js';
import { api, ApiError } from '../api.js';
import { useRunsIndex, type BoardRow } from '../data/runs-index.js';
import { navigate } from '../router.js';
import type { PageProps } from '../page-props.js';
import { Link } from '../ui/link.js';
import { ErrorNote, Loading, PageHeading } from '../ui/page.js';
import { FilterBar } from './runs/filters.js';
import { filtersFrom, filtersQuery, GROUPS, groupRuns, type Filters, type GroupKey } from './runs/groups.js';
import { RunRow } from './runs/run-row.js';
import { useRunningPreviews } from './runs/previews.js';
import { attemptsOf, collapseChains } from './runs/chains.js';
import { collapseAttempts, groupOfCard } from './runs/attempt-groups.js';
import { forkIndex } from './runs/forks.js';
import { startNote, startRuns } from './runs/start.js';
import { HarnessWindows } from './runs/harness-windows.js';
import { cardsByRun, pendingCards } from '../needs-you/cards.js';

// The Runs page: a board grouped for triage, filtered by project, workflow, standing and text
// (archived runs on request), live over the push stream. Each group shows a page of rows and
// grows on request, so 10,000 runs never all render.

export const PAGE_ROWS = 50;

// Ages and durations move on with the clock, not only when a run changes: the board redraws once a
// minute (nothing is read from the server for it).
const useMinuteTick = (): void => {
  const [, setTick] = useState(0);
  useEffect(() => {
    const id = setInterval(() => setTick((n) => n + 1), 60_000);
    return () => clearInterval(id);
  }, []);
};

const INITIAL: Readonly<Record<GroupKey, number>> = { needs: PAGE_ROWS, active: PAGE_ROWS, queued: PAGE_ROWS, done: PAGE_ROWS };

export const Page = ({ query }: PageProps) => {
  const filters = filtersFrom(query);
  const index = useRunsIndex(filters.archived);
  const [projects, setProjects] = useState<ProjectView[]>([]);
  const [limits, setLimits] = useState(INITIAL);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  useMinuteTick();
  useEffect(() => { api<ProjectView[]>('projects').then(setProjects, setError); }, []);

  const rows = index.rows.value;
  // a run and its follow-ups are one card: the latest attempt stands for the chain
  const chains = useMemo(() => collapseChains(rows.values()), [rows]);
  const forks = useMemo(() => forkIndex(rows.values()), [rows]);
  // attempts started together on one goal are one card too
  const attemptGroups = useMemo(() => collapseAttempts(chains.latest, (r) => r.attempt ?? attemptsOf(chains, r)?.[0]?.attempt), [chains]);
  // a supervisor card waiting on a run puts it under "Needs you" (the shell follows the cards)
  const waiting = pendingCards.value;
  const cards = useMemo(() => cardsByRun(waiting), [waiting]);
  const previews = useRunningPreviews(rows);
  // a chain's card is titled by its first run: the search finds it by that title too
  const shownTitle = (r: BoardRow): string | undefined => attemptsOf(chains, r)?.[0]?.title;
  const typing = useRef(false);
  const grouped = useMemo(() => groupRuns(attemptGroups.cards, filters, cards, shownTitle), [attemptGroups, chains, cards, filters.project, filters.workflow, filters.standing, filters.text, filters.archived]);
  const workflows = useMemo(() => [...new Set([...rows.values()].map((r) => r.workflowName))].sort(), [rows]);
  const projectName = useMemo(() => new Map(projects.map((p) => [p.id, p.name])), [projects]);
  const queued = grouped.queued.filter((r) => r.standing === 'Queued');

  // Each change is a Back step (docs/app.md: Back undoes it), except that the keystrokes of one
  // search are one step: typing replaces the step its first keystroke made.
  const setFilters = (f: Filters) => {
    const typed = f.text !== filters.text && f.project === filters.project && f.workflow === filters.workflow && f.standing === filters.standing && f.archived === filters.archived;
    navigate(`/${filtersQuery(f)}`, { replace: typed && typing.current });
    typing.current = typed;
  };

  const moveToFront = async (row: BoardRow) => {
    setNote(null);
    setError(null);
    try {
      const r = await api<{ outcome: 'Applied' | 'Stale' }>(`runs/${encodeURIComponent(row.runId)}/control`, { body: { position: row.position, action: 'MoveToFront' } });
      // The board itself moves when the change arrives over the stream.
      setNote(r.outcome === 'Stale' ? `“${row.title}” changed before the move reached it; the board shows it as it is now. Try again if it is still queued.` : `“${row.title}” moved to the front of the queue.`);
    } catch (err) {
      if (err instanceof ApiError) setError(err);
      else throw err;
    }
  };

  const start = async (list: readonly BoardRow[]) => {
    setNote(null);
    setError(null);
    setNote(startNote(await startRuns(list)));
    setPicked(new Set());
  };
  const pick = (row: BoardRow, on: boolean) => {
    const next = new Set(picked);
    if (on) next.add(row.runId); else next.delete(row.runId);
    setPicked(next);
  };
  // only runs still startable count: a picked run that started elsewhere drops out of the bulk Start
  const startable = grouped.queued.filter((r) => r.canStart && picked.has(r.runId));
  const now = Date.now();
  // the harness windows are read again when any run's quota wait changes
  const quotaKey = useMemo(() => [...rows.values()].filter((r) => r.waitingOn).map((r) => `${r.runId}:${r.waitingOn!.until}`).join(','), [rows]);

  const total = GROUPS.reduce((n, g) => n + grouped[g.key].length, 0);
  return (
    <section aria-labelledby="page-title" class="runs-page">
      <PageHeading title="Runs">
        <Link class="button" href="/new">New run</Link>
      </PageHeading>
      <HarnessWindows changed={quotaKey} now={now} />
      <FilterBar filters={filters} projects={projects} workflows={workflows} onChange={setFilters} />
      <div role="status" class="status-line">
        {note ? <p>{note}</p> : null}
        {index.stream.value === 'retrying' ? <p class="muted">Reconnecting to the server…</p> : null}
      </div>
      <ErrorNote error={index.error.value ?? error} />
      {!index.loaded.value ? <Loading what="runs" />
        : rows.size === 0 && !filters.archived ? <p class="muted">No runs yet. <Link href="/new">Start one</Link>.</p>
        : (
          <>
            <p class="muted" aria-live="off">{total} of {rows.size} runs shown by these filters.</p>
            <div class="board">
              {GROUPS.map((g) => {
                const list = grouped[g.key];
                const shown = list.slice(0, limits[g.key]);
                const headingId = `group-${g.key}`;
                return (
                  <section key={g.key} class={`group group-${g.key}`} aria-labelledby={headingId} data-group={g.key}>
                    <h2 id={headingId}>{g.title} <span class="count">({list.length})</span></h2>
                    {g.key === 'queued' && list.some((r) => r.canStart) ? (
                      <div class="board-bulk">
                        <button type="button" disabled={startable.length === 0} onClick={() => void start(startable)}>Start selected ({startable.length})</button>
                        <span class="muted">Runs created without starting can be picked and started together.</span>
                      </div>
                    ) : null}
                    {list.length === 0 ? <p class="muted">{total < rows.size ? 'None here with these filters.' : g.empty}</p> : (
                      <ul class="board-list">
                        {shown.map((r) => (
                          <RunRow key={r.runId} row={r} cards={cards} previews={previews} projectName={projectName.get(r.project) ?? r.project} now={now} attempts={attemptsOf(chains, r)} group={groupOfCard(attemptGroups, r)} forks={forks.get(r.runId)} rows={rows}
                            {...(g.key === 'queued' && r.standing === 'Queued' ? { queuePlace: queued.indexOf(r) + 1, onMoveToFront: moveToFront } : {})}
                            {...(r.canStart ? { onStart: (row: BoardRow) => void start([row]), selected: picked.has(r.runId), onSelect: pick } : {})} />
                        ))}
                      </ul>
                    )}
                    {list.length > shown.length ? (
                      <button type="button" class="more" onClick={() => setLimits({ ...limits, [g.key]: limits[g.key] + PAGE_ROWS })}>
                        Show {Math.min(PAGE_ROWS, list.length - shown.length)} more of {list.length - shown.length} in {g.title}
                      </button>
                    ) : null}
                  </section>
                );
              })}
            </div>
          </>
        )}
    </section>
  );
};
