import type { TurnTokens, UsageCost } from '../journal/run-events.js';
import type { SessionTotals } from '../domain/harness.js';
import type { HarnessName } from '../domain/workflow.js';
import type { RunDecideState } from '../projections/run-decide-state.js';
import { accept, nothing, type Decision } from './guards.js';

// One agent turn's usage, recorded whatever became of its step: a turn that was paused, aborted or
// jumped away from still spent what it spent. `turn` counts the step's turns from 1, so the same
// turn recorded twice (an engine retry) is recorded once.
export interface RecordUsage {
  readonly stepId: string;
  readonly node: string;
  readonly turn: number;
  readonly harness: HarnessName;
  readonly model?: string;
  readonly tokens: TurnTokens | null;
  readonly cost: UsageCost;
  readonly sessionId?: string;
  readonly sessionTotals?: SessionTotals;
}

export const decideRecordUsage = (s: RunDecideState, c: RecordUsage): Decision => {
  const recorded = s.usage?.steps.find((st) => st.stepId === c.stepId)?.turns ?? 0;
  if (recorded >= c.turn) return nothing();
  const { turn: _turn, ...data } = c;
  return accept({ type: 'UsageRecorded', data: { ...data, tokens: c.tokens ? { ...c.tokens } : null, ...(c.sessionTotals ? { sessionTotals: { ...c.sessionTotals } } : {}) } });
};
