import { isLeft } from 'fp-ts/lib/Either.js';
import { nothing, type Decision } from '../../commands/guards.js';
import type { RunState } from '../../projections/run-state.js';
import type { EngineDeps } from './deps.js';
import type { LiveTurns } from './live-turns.js';

// What step runners share: the deps, what is in flight, and one way to record a decision.
export interface EngineContext {
  readonly deps: EngineDeps;
  readonly live: LiveTurns;
  /** decide against the run's current state and append what it decides; the new state, or null when nothing was appended */
  apply(runId: string, decide: (s: RunState) => Decision): RunState | null;
  log(runId: string, text: string): void;
  /** keeps a side effect's promise until it settles, so stopping can wait for it */
  track<T>(work: Promise<T>): Promise<T>;
}

// After stop, nothing more is recorded: the store may be closing, and a turn that ends because it
// was stopped is recorded as interrupted by the next start instead.
export const makeContext = (deps: EngineDeps, live: LiveTurns, stopped: () => boolean, pending: Set<Promise<unknown>>): EngineContext => ({
  deps,
  live,
  track(work) {
    pending.add(work);
    void work.finally(() => pending.delete(work)).catch(() => undefined);
    return work;
  },
  apply(runId, decide) {
    if (stopped()) return null;
    // the engine's decisions are its own reading of the run: decided again if the run moved
    const r = deps.runs.transact(runId, (s) => (s ? decide(s) : nothing()), { at: deps.now().toISOString(), onStale: 'retry' });
    return !isLeft(r) && r.right._tag === 'Appended' ? (r.right.state ?? null) : null;
  },
  log(runId, text) {
    if (stopped()) return;
    deps.logs.write(runId, 'service', text, deps.now().toISOString());
  },
});
