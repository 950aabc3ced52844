import { isLeft } from 'fp-ts/lib/Either.js';
import type { Decision } from '../../commands/guards.js';
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
}

export const makeContext = (deps: EngineDeps, live: LiveTurns): EngineContext => ({
  deps,
  live,
  apply(runId, decide) {
    const s = deps.runs.get(runId);
    if (!s) return null;
    const d = decide(s);
    if (isLeft(d) || d.right.length === 0) return null;
    const r = deps.runs.append(runId, d.right, deps.now().toISOString());
    return r._tag === 'Appended' ? r.state : null;
  },
  log(runId, text) {
    deps.logs.write(runId, 'service', text, deps.now().toISOString());
  },
});
