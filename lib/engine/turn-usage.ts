import { decideRecordUsage } from '../../commands/record-usage.js';
import type { TurnResult } from '../harness/adapter.js';
import type { HarnessName } from '../../domain/workflow.js';
import { turnCost, turnTokens } from '../usage/prices.js';
import type { EngineContext } from './context.js';

// Each agent turn the engine runs records what it used (UsageRecorded), with its cost from the CLI
// (Reported), else the Prices setting (Priced), else Unknown; and the session's running totals the
// CLI reported, which a later turn resuming that session is given back (lib/engine/continued.ts).

/** which turn: the run, step and node, the harness and model it ran on, the session it resumed */
export interface TurnOf {
  readonly runId: string;
  readonly stepId: string;
  readonly node: string;
  readonly harness: HarnessName;
  readonly model?: string;
  readonly sessionId?: string;
}

const STOPPED = 'the turn was stopped before its CLI reported what it used';

export const recordTurnUsage = (ctx: EngineContext, of: TurnOf, turn: number, r: TurnResult): void => {
  // a CLI that could not start ran no agent (not installed, not logged in): no turn to record
  if (r.failure === 'unavailable') return;
  const tokens = turnTokens(of.harness, r.usage);
  const priced = turnCost(of.harness, of.model, r, ctx.deps.settings().prices);
  const cost = priced._tag === 'Unknown' && r.outcome === 'interrupted' && !tokens ? { _tag: 'Unknown' as const, why: STOPPED } : priced;
  const sessionId = r.sessionId ?? of.sessionId;
  ctx.apply(of.runId, (s) => decideRecordUsage(s, {
    stepId: of.stepId, node: of.node, turn, harness: of.harness, ...((of.model ?? r.model) ? { model: of.model ?? r.model } : {}), tokens, cost,
    ...(sessionId ? { sessionId } : {}), ...(sessionId && r.sessionTotals ? { sessionTotals: r.sessionTotals } : {}),
  }));
};
