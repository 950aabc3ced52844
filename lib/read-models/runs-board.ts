import { isAllowed } from '../../commands/control.js';
import type { Attempt } from '../../journal/run-events.js';
import type { RunState } from '../../projections/run-state.js';
import type { RunBoardView } from '../../projections/run-board.js';
import { recordedCostUsd } from '../../projections/run-usage.js';
import { positionToken, quotaWaitingOn } from './run-views.js';
import type { QuotaWaitingOn } from '../../domain/runs.js';
import type { HarnessName } from '../../domain/workflow.js';
import { listedRun } from './runs-list.js';

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
  /** a run waiting on a harness's quota window ("waiting: claude limited until 14:05"); absent otherwise */
  readonly waitingOn?: QuotaWaitingOn;
  /** a fork: the run and step end it was made from (the board shows forks under their source) */
  readonly forkOf?: { readonly run: string; readonly step: string; readonly at: number };
  /** one of several attempts at the goal (the board shows a group as one card), and whether it was kept */
  readonly attempt?: Attempt & { readonly kept: boolean; readonly costUsd: number | null };
  /** what the run's turns cost where known, and how many turns' cost is unknown (never counted as 0) */
  readonly costUsd: number;
  readonly unknownTurns: number;
  /** why a paused run is paused (e.g. `budget: spent $x of $y budget`) */
  readonly pauseReason?: string;
  /** who paused a paused run: svc's own pauses wait for a person (projections/needs-you.ts) */
  readonly pausedBy?: RunBoardView['pausedBy'];
  /** the agent's open question, so a person can answer it from the board */
  readonly question?: { readonly id: string; readonly prompt: string; readonly options: readonly string[]; readonly allowText: boolean };
  /** a run with a branch merged locally (Merge locally): the card says Merged */
  readonly merged?: true;
  /** why a queued run waits whatever slots are free (its project's daily budget); not kept with the row */
  readonly waiting?: string;
};

const extra = (s: RunState) => ({
  archived: s.archived, resolved: s.resolved, queuePriority: s.queuePriority, position: positionToken(s),
  // only a queued run can move (decideMoveToFront); decide is asked only then, as it is not free
  canMoveToFront: s.lifecycle === 'queued' && isAllowed(s, 'MoveToFront'),
  canStart: s.lifecycle === 'created' && isAllowed(s, 'Resume'),
  startedAt: s.views.board.startedAt ?? null,
  endedAt: s.lifecycle === 'ended' ? s.views.board.endedAt ?? null : null,
  harness: s.step?.harness ?? s.lastHarness ?? s.harnessOverride ?? s.harness ?? s.workflow.stepDefaults.harness ?? null,
  endReason: s.lifecycle === 'ended' && s.ending !== 'Succeeded' ? s.endReason : null,
  ...(s.continues ? { chain: s.continues.root } : {}),
  ...waitingOn(s),
  ...cost(s),
  ...(s.attempt ? { attempt: { ...s.attempt, kept: s.kept !== undefined, costUsd: recordedCostUsd(s) } } : {}),
  ...(s.paused && s.pauseReason ? { pauseReason: s.pauseReason } : {}),
  ...(s.paused && s.views.board.pausedBy ? { pausedBy: s.views.board.pausedBy } : {}),
  ...(s.question ? { question: { id: s.question.id, prompt: s.question.prompt, options: s.question.options, allowText: s.question.allowText } } : {}),
  ...(s.merges?.length ? { merged: true as const } : {}),
  ...(s.forkedFrom ? { forkOf: { run: s.forkedFrom.run, step: s.forkedFrom.step, at: s.forkedFrom.at } } : {}),
});

const waitingOn = (s: RunState): { waitingOn?: QuotaWaitingOn } => {
  const w = quotaWaitingOn(s);
  return w ? { waitingOn: w } : {};
};
// the card's cost: the known dollars (to the micro-dollar: float sums drift) and the unknown turns apart
const cost = (s: RunState) => ({ costUsd: Math.round((s.usage?.knownUsd ?? 0) * 1e6) / 1e6, unknownTurns: s.usage?.unknownTurns ?? 0 });

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

// A queued run's wait depends on its project's spend today, not on the run's state: added to the
// kept row as it is read.
export const withWaiting = (json: string, waiting: string | undefined): string =>
  waiting ? `${json.slice(0, -1)},"waiting":${JSON.stringify(waiting)}}` : json;

/** Every run's row as JSON text, newest first; archived runs only when asked for. `waiting`: why a queued run is held. */
export const boardJson = (runs: Iterable<RunState>, archived: boolean, listed: ListedJson = () => undefined, waiting: (s: RunState) => string | undefined = () => undefined): string => {
  const parts: string[] = [];
  for (const s of runs) if (archived || !s.archived) parts.push(withWaiting(boardRowJson(s, listed(s.runId)), s.lifecycle === 'queued' ? waiting(s) : undefined));
  return `[${parts.reverse().join(',')}]`;
};
