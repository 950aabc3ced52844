import type { Database, Key } from 'lmdb';
import { decodeStored, isUnreadable } from '../../journal/decode.js';
import type { Journal, Stored } from '../../journal/journal.js';
import { RUN_EVENT_CODECS, type RunEvent } from '../../journal/run-events.js';
import type { Store } from '../../journal/store.js';
import { applyStored, createdState, type RunState } from '../../projections/run-state.js';

// Keeps every run's state in memory, up to date on each append, and snapshotted in the same LMDB
// transaction as the events it folds. A restart reads the snapshots, folding only a tail that a
// snapshot does not cover (none, unless the snapshot format changed).

const SNAPSHOT_VERSION = 3;
interface Snapshot { readonly v: number; readonly state: RunState }

export const runStream = (runId: string): string => `run:${runId}`;

export type RunAppend = { readonly _tag: 'Appended'; readonly state: RunState; readonly events: readonly Stored[] } | { readonly _tag: 'Stale'; readonly state: RunState };

const placeholder = (runId: string, s: { at: string; detail: string }): RunState => ({
  ...createdState({ type: 'RunCreated', data: { runId, projectId: '', title: runId, goal: '', inputs: {}, by: { kind: 'engine' },
    workflow: { name: '', origin: 'shipped', version: '', description: '', inputs: [], defaults: {}, stepDefaults: {}, nodes: [], routes: [], source: '' } } }, s.at),
  unreadable: s.detail,
});

const fold = (runId: string, base: RunState | null, events: readonly Stored[]): RunState | null => {
  let state = base;
  for (const raw of events) {
    const d = decodeStored<RunEvent>(RUN_EVENT_CODECS, raw);
    if (isUnreadable(d)) {
      state = state ? { ...state, unreadable: state.unreadable ?? d.detail, seq: d.seq } : placeholder(runId, d);
      continue;
    }
    const e = d as RunEvent & { seq: number; at: string };
    state = state ?? (e.type === 'RunCreated' ? createdState(e, e.at) : placeholder(runId, { at: e.at, detail: 'the run has no RunCreated event' }));
    state = applyStored(state, e);
  }
  return state;
};

export class RunStore {
  private readonly states = new Map<string, RunState>();
  private readonly snapshots: Database<Snapshot, Key>;

  constructor(private readonly journal: Journal, store: Store) {
    this.snapshots = store.db<Snapshot>('run-snapshots');
  }

  load(): void {
    for (const stream of this.journal.streams('run:')) {
      const runId = stream.slice(4);
      const snap = this.snapshots.get(stream);
      const base = snap && snap.v === SNAPSHOT_VERSION ? snap.state : null;
      const state = fold(runId, base, this.journal.read(stream, (base?.seq ?? 0) + 1));
      if (state) this.states.set(runId, state);
    }
  }

  get(runId: string): RunState | undefined {
    return this.states.get(runId);
  }

  all(): IterableIterator<RunState> {
    return this.states.values();
  }

  get size(): number {
    return this.states.size;
  }

  /** Appends when the run is still at seq `expected` (its last seq when omitted), with its snapshot. */
  append(runId: string, events: readonly RunEvent[], at: string, expected?: number): RunAppend {
    const current = this.states.get(runId);
    const stream = runStream(runId);
    let next: RunState | null = current ?? null;
    let r;
    try {
      r = this.journal.append(stream, expected ?? current?.seq ?? 0, events, at, (stored) => {
        next = fold(runId, current ?? null, stored);
        if (!next) return;
        this.snapshots.putSync(stream, { v: SNAPSHOT_VERSION, state: next });
        // Set before the journal tells its listeners, so they read the state the events made.
        this.states.set(runId, next);
      });
    } catch (err) {
      if (current) this.states.set(runId, current);
      else this.states.delete(runId);
      throw err;
    }
    if (r._tag === 'Stale') return { _tag: 'Stale', state: current! };
    return { _tag: 'Appended', state: (next ?? current)!, events: r.events };
  }
}
