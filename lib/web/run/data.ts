import { signal, type Signal } from '@preact/signals';
import { useEffect, useMemo } from 'preact/hooks';
import type { ThreadRow } from '../../../projections/thread.js';
import type { RunDetail } from '../../../projections/run-shapes.js';
import type { HistoryEvent } from '../../read-models/pages.js';
import type { ActivityRow } from '../../state/activity-log.js';
import type { LogLine } from '../../state/log-store.js';
import { api, type ApiError } from '../api.js';
import { openEvents, type StreamState } from '../events.js';

// One run, live: its detail, and its thread, activity, history and log as the newest page plus whatever the
// push stream appends (`/api/events?run=<id>&log`), with paging back for earlier rows. The stream
// is opened before the first pages are read, so nothing that happens in between is missed; rows
// are merged by their key, so what arrives both ways is shown once.

export type Feed = 'thread' | 'activity' | 'history' | 'log';

export interface FeedState<T> {
  readonly items: Signal<readonly T[]>;
  /** the cursor for the page before the oldest item held; null when the start is reached */
  readonly before: Signal<string | number | null>;
  readonly loading: Signal<boolean>;
}

export interface RunData {
  readonly runId: string;
  readonly run: Signal<RunDetail | null>;
  readonly error: Signal<ApiError | string | null>;
  readonly stream: Signal<StreamState>;
  readonly thread: FeedState<ThreadRow>;
  /** the agent's tool calls (docs/events.md "Activity"), shown in the Thread */
  readonly activity: FeedState<ActivityRow>;
  readonly history: FeedState<HistoryEvent>;
  readonly log: FeedState<LogLine>;
  /** reads the run's detail again (after a Stale answer, say) */
  refresh(): Promise<void>;
  /** shows a detail an answer carried, unless the push stream has already shown a later one;
   * `facts`: the answer changed facts outside the run's journal (a move), so the same position is news */
  accept(run: RunDetail, facts?: boolean): void;
  earlier(feed: Feed): Promise<void>;
  /** bumped on every append and reset: views that read elsewhere (the diff, the PR) reload on it */
  readonly changes: Signal<number>;
}

const PAGE: Record<Feed, number> = { thread: 50, activity: 100, history: 50, log: 100 };

const keyOf = {
  thread: (r: ThreadRow) => Number(r.id),
  activity: (r: ActivityRow) => r.id,
  history: (e: HistoryEvent) => e.seq,
  log: (l: LogLine) => l.n,
};

const listOf = (feed: Feed, body: any): any[] => (feed === 'thread' || feed === 'activity' ? body.rows : feed === 'history' ? body.events : body.lines) ?? [];

// An activity row changes once, running → ended: a page read before the stream's update must not
// bring the running copy back.
const keeps = (held: unknown, more: unknown): boolean =>
  (more as Partial<ActivityRow>).status === 'running' && (held as Partial<ActivityRow> | undefined)?.status !== undefined && (held as ActivityRow).status !== 'running';

const merge = <T>(held: readonly T[], more: readonly T[], key: (t: T) => number): T[] => {
  if (more.length === 0) return held as T[];
  const byKey = new Map<number, T>();
  for (const t of held) byKey.set(key(t), t);
  for (const t of more) if (!keeps(byKey.get(key(t)), t)) byKey.set(key(t), t);
  return [...byKey.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => t);
};

// `position` is `v<seq>`, the journal seq of the last event that moved the run; a `run` event's id
// is `run:<runId>:<seq>:<line>`. An answer to a control can arrive after the stream has already
// shown what came next (the run went on and ended): that answer is older and must not win.
const positionSeq = (run: RunDetail): number => Number(/^v(\d+)$/.exec(run.position)?.[1] ?? 0);
const eventSeq = (id: string | undefined): number => Number(id?.split(':').at(-2) ?? 0) || 0;

const feedState = <T>(): FeedState<T> => ({ items: signal([]), before: signal(null), loading: signal(false) });

/** The run's state and its readers; `follow()` opens the stream and reads the first pages, and returns the stop. */
export const createRunData = (runId: string): RunData & { follow(): () => void } => {
  let stopped = false;
  const enc = encodeURIComponent(runId);
  const d = {
    runId, run: signal<RunDetail | null>(null), error: signal<ApiError | string | null>(null), stream: signal<StreamState>('connecting'),
    thread: feedState<ThreadRow>(), activity: feedState<ActivityRow>(), history: feedState<HistoryEvent>(), log: feedState<LogLine>(), changes: signal(0),
  };
  const feeds = { thread: d.thread, activity: d.activity, history: d.history, log: d.log } as const;

  let streamSeq = 0;
  const accept = (run: RunDetail, facts = false) => {
    if (!stopped && (d.run.value === null || positionSeq(run) > streamSeq || (facts && positionSeq(run) === streamSeq))) d.run.value = run;
  };

  const loadPage = async (feed: Feed, before?: string | number) => {
    const f = feeds[feed] as FeedState<any>;
    f.loading.value = true;
    try {
      const body = await api<any>(`runs/${enc}/${feed}?pageSize=${PAGE[feed]}${before !== undefined ? `&before=${before}` : ''}`);
      if (stopped) return;
      f.items.value = merge(f.items.value, listOf(feed, body), keyOf[feed] as (t: any) => number);
      f.before.value = body.before ?? null;
    } finally {
      f.loading.value = false;
    }
  };

  const loadAll = async (fresh: boolean) => {
    try {
      if (fresh) for (const f of Object.values(feeds)) { f.items.value = []; f.before.value = null; }
      const [run] = await Promise.all([api<RunDetail>(`runs/${enc}/detail`), loadPage('thread'), loadPage('activity'), loadPage('history'), loadPage('log')]);
      if (stopped) return;
      accept(run);
      d.error.value = null;
    } catch (err) {
      if (!stopped) d.error.value = err as ApiError;
    }
  };

  const refresh = async () => {
    try {
      accept(await api<RunDetail>(`runs/${enc}/detail`));
    } catch (err) {
      if (!stopped) d.error.value = err as ApiError;
    }
  };

  const earlier = async (feed: Feed) => {
    const before = feeds[feed].before.value;
    if (before === null || feeds[feed].loading.value) return;
    try { await loadPage(feed, before); } catch (err) { if (!stopped) d.error.value = err as ApiError; }
  };

  const follow = () => {
    const events = openEvents(`run=${enc}&log`, {
      run: (m: { run: RunDetail; thread?: ThreadRow[]; history?: HistoryEvent[] }, id) => {
        streamSeq = Math.max(streamSeq, eventSeq(id));
        d.run.value = m.run;
        d.thread.items.value = merge(d.thread.items.value, m.thread ?? [], keyOf.thread);
        d.history.items.value = merge(d.history.items.value, m.history ?? [], keyOf.history);
        d.changes.value++;
      },
      log: (m: { lines?: LogLine[]; activity?: ActivityRow[] }) => {
        d.log.items.value = merge(d.log.items.value, m.lines ?? [], keyOf.log);
        if (m.activity?.length) d.activity.items.value = merge(d.activity.items.value, m.activity, keyOf.activity);
      },
      // The server cannot resume from where this page was (it restarted, or the page fell far
      // behind): read everything again.
      reset: () => { streamSeq = 0; d.changes.value++; void loadAll(true); },
    }, { onState: (s, detail) => { d.stream.value = s; if (s === 'refused' && detail) d.error.value = detail; } });
    void loadAll(false);
    return () => { stopped = true; events.close(); };
  };
  return { ...d, refresh, accept, earlier, follow };
};

/** The run for as long as the calling component is shown. */
export const useRun = (runId: string): RunData => {
  const data = useMemo(() => createRunData(runId), [runId]);
  useEffect(() => data.follow(), [data]);
  return data;
};
