import { isAllowed } from '../../commands/control.js';
import type { RunState } from '../../projections/run-state.js';
import { positionToken } from '../../projections/run-views.js';
import type { HarnessName } from '../workflows/model.js';
import { listedRun } from './runs-list.js';
import { runUsage } from '../../projections/usage-days.js';

// The runs board's row (the app's Runs page, and the `?runs` push stream): the run as GET /api/runs
// lists it, plus what triage needs: archived and resolved, the queue priority (lower goes first),
// the position a control must carry, whether MoveToFront and Start (Resume on a Created run) are
// allowed now, and the facts a row shows: when it started and ended, the harness of its latest
// step (else the one chosen for it), and why it ended. Rows are serialised once
// per run state (states are replaced, never changed, on each append), so a board of 10,000 runs is
// mostly a join of kept strings.

export type BoardRow = ReturnType<typeof listedRun> & {
  readonly archived: boolean;
  readonly resolved: boolean;
  readonly queuePriority: number;
  readonly position: string;
  readonly canMoveToFront: boolean;
  readonly canStart: boolean;
  readonly startedAt: string | null;
  readonly endedAt: string | null;
  readonly harness: HarnessName | null;
  /** why a run that did not succeed ended (the failure's reason, the abort's), else null */
  readonly endReason: string | null;
  /** a follow-up: the first run of its chain (the board shows a run and its follow-ups as one card) */
  readonly chain?: string;
  /** what the run's turns cost where known, and how many turns' cost is unknown (never counted as 0) */
  readonly costUsd: number;
  readonly unknownTurns: number;
};

const extra = (s: RunState) => ({
  archived: s.archived, resolved: s.resolved, queuePriority: s.queuePriority, position: positionToken(s),
  // only a queued run can move (decideMoveToFront); decide is asked only then, as it is not free
  canMoveToFront: s.lifecycle === 'queued' && isAllowed(s, 'MoveToFront'),
  canStart: s.lifecycle === 'created' && isAllowed(s, 'Resume'),
  startedAt: s.startedAt ?? null,
  endedAt: s.lifecycle === 'ended' ? s.endedAt ?? null : null,
  harness: s.step?.harness ?? s.lastHarness ?? s.harnessOverride ?? s.harness ?? s.workflow.stepDefaults.harness ?? null,
  endReason: s.lifecycle === 'ended' && s.ending !== 'Succeeded' ? s.endReason : null,
  ...(s.continues ? { chain: s.continues.root } : {}),
  ...cost(s),
});

const cost = (s: RunState) => {
  const u = runUsage(s.usageCells);
  return { costUsd: Math.round(u.costUsd * 1e6) / 1e6, unknownTurns: u.unknownTurns };
};

export const boardRow = (s: RunState): BoardRow => ({ ...listedRun(s), ...extra(s) });

const kept = new WeakMap<RunState, string>();

/**
 * The row of this run state as JSON text, made once per state. `listed`, the run's list row as
 * JSON for this same state (the runs list keeps it), saves serialising the row a second time.
 */
export const boardRowJson = (s: RunState, listed?: string): string => {
  let json = kept.get(s);
  if (json === undefined) {
    json = listed ? `${listed.slice(0, -1)},${JSON.stringify(extra(s)).slice(1)}` : JSON.stringify(boardRow(s));
    kept.set(s, json);
  }
  return json;
};

/** How to find a run's list row as JSON (RunsListCache.entry). */
export type ListedJson = (runId: string) => string | undefined;

/** Every run's row as JSON text, newest first; archived runs only when asked for. */
export const boardJson = (runs: Iterable<RunState>, archived: boolean, listed: ListedJson = () => undefined): string => {
  const parts: string[] = [];
  for (const s of runs) if (archived || !s.archived) parts.push(boardRowJson(s, listed(s.runId)));
  return `[${parts.reverse().join(',')}]`;
};
