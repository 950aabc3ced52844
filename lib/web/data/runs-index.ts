import { computed, signal, type ReadonlySignal, type Signal } from '@preact/signals';
import { useEffect, useMemo } from 'preact/hooks';
import type { BoardRow } from '../../read-models/runs-board.js';
import { apiResponse, type ApiError } from '../api.js';
import { openEvents, type StreamState } from '../events.js';

// The runs index, live: GET /api/board once, then the `?runs` push stream from the cursor that
// answer carried (its `svc-event-id` header), so no change between the two is missed or applied
// twice. A `reset` (the server restarted) loads the board again.

export type { BoardRow };

export interface RunsIndex {
  /** run id -> row; replaced (not mutated) on each change so views re-render */
  readonly rows: Signal<ReadonlyMap<string, BoardRow>>;
  readonly loaded: Signal<boolean>;
  readonly error: Signal<ApiError | null>;
  readonly stream: Signal<StreamState>;
}

/**
 * Follows the board until the returned function is called; `archived` keeps archived runs.
 * `needs`: only the runs that need a person (`GET /api/board?needs=true`), a row the stream brings
 * kept while the rule says so: what the shell follows on every page, a few rows however many runs.
 */
export const followRunsIndex = (index: RunsIndex, archived: boolean, needs?: (r: BoardRow) => boolean): (() => void) => {
  let stop = () => {};
  let stopped = false;
  const load = async () => {
    stop();
    try {
      const { body, headers } = await apiResponse<BoardRow[]>(`board?archived=${archived}${needs ? '&needs=true' : ''}`);
      if (stopped) return;
      index.rows.value = new Map(body.map((r) => [r.runId, r]));
      index.loaded.value = true;
      index.error.value = null;
      const cursor = headers.get('svc-event-id');
      const events = openEvents('runs', {
        runs: (d: { rows: BoardRow[] }) => {
          const next = new Map(index.rows.value);
          for (const r of d.rows) {
            if ((r.archived && !archived) || (needs && !needs(r))) next.delete(r.runId);
            else next.set(r.runId, r);
          }
          index.rows.value = next;
        },
        reset: () => void load(),
      }, { ...(cursor ? { lastEventId: cursor } : {}), onState: (s) => { index.stream.value = s; } });
      stop = () => events.close();
    } catch (err) {
      if (!stopped) index.error.value = err as ApiError;
    }
  };
  void load();
  return () => { stopped = true; stop(); };
};

const newIndex = (): RunsIndex => ({ rows: signal(new Map()), loaded: signal(false), error: signal(null), stream: signal('connecting') });

// The index without archived runs is one per page, shared by its users (the shell's needs-you
// count and the Runs page): one board load and one stream, followed while anyone uses it.
const shared = { index: null as RunsIndex | null, users: 0, stop: null as (() => void) | null };
const sharedIndex = (): RunsIndex => (shared.index ??= newIndex());
const holdShared = (): (() => void) => {
  if (shared.users++ === 0) shared.stop = followRunsIndex(sharedIndex(), false);
  return () => {
    if (--shared.users > 0) return;
    shared.stop?.();
    shared.stop = null;
  };
};

/** The index for as long as the calling component is shown; `archived`: a separate index that keeps them. */
export const useRunsIndex = (archived = false): RunsIndex => {
  const own = useMemo(newIndex, []);
  useEffect(() => {
    if (!archived) return holdShared();
    own.loaded.value = false;
    return followRunsIndex(own, true);
  }, [own, archived]);
  return archived ? own : sharedIndex();
};

// The shell's index: only the runs that need the person, one per page. On a page that follows the
// whole board anyway (the Runs page) it is that index filtered, so the page opens one `?runs`
// stream and reads the board once; elsewhere it follows `GET /api/board?needs=true` on its own.
const needing = { index: null as RunsIndex | null };

/** What a reader of an index sees: the rows and how the following goes. */
export type RunsView = { readonly [K in keyof RunsIndex]: ReadonlySignal<RunsIndex[K]['value']> };

const filtered = (source: RunsIndex, keep: (r: BoardRow) => boolean): RunsView => ({
  ...source,
  rows: computed(() => new Map([...source.rows.value].filter(([, r]) => keep(r)))),
});

/**
 * The runs that need a person (`keep`: the rule, the same as the board's "Needs you"); `whole`:
 * the current page follows the whole board, so this one is read from it.
 */
export const useNeedsIndex = (keep: (r: BoardRow) => boolean, whole: boolean): RunsView => {
  const own = (needing.index ??= newIndex());
  const view = useMemo(() => (whole ? filtered(sharedIndex(), keep) : own), [whole]);
  useEffect(() => (whole ? holdShared() : followRunsIndex(own, false, keep)), [whole]);
  return view;
};
