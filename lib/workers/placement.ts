import type { HarnessName } from '../../domain/workflow.js';

// Where a dispatched agent step runs (docs/workers.md, "Run on"), as a pure choice over what the
// hub knows at that moment: a run-level pin (a paused run moved) beats everything; a project
// pinned to a worker goes there (it waits in that worker's queue while it is away); a project on
// `any` is sticky to the machine of the run's previous step while that machine is online with the
// harness ready (it waits for its slot there: the session and the code are already there), else
// it goes to the online worker with the harness ready and the most free slots. None free: it waits.

export interface Seat {
  readonly workerId: string;
  readonly online: boolean;
  readonly slots: number;
  /** steps this hub has on it now (placed, not ended), or what its heartbeat says, whichever is more */
  readonly inUse: number;
  /** the harnesses it announced installed and logged in */
  readonly harnesses: readonly HarnessName[];
}

export interface PlacementAsk {
  readonly harness: HarnessName;
  /** the project's Run on: 'here', 'any' or a worker's id */
  readonly runOn: string;
  /** a run-level pin ('here' or a worker's id): wins over everything else */
  readonly runPin?: string;
  /** the worker of the run's previous dispatched step that ended with its result applied */
  readonly previous?: string;
  /** workers this step's lease already lapsed on: not chosen again for it */
  readonly avoid?: readonly string[];
}

export type Placement =
  | { readonly _tag: 'Here' }
  | { readonly _tag: 'Worker'; readonly workerId: string; readonly why: 'run-pin' | 'pinned' | 'sticky' | 'free' }
  | { readonly _tag: 'Wait'; readonly why: string };

const free = (s: Seat): number => s.slots - s.inUse;

const pin = (to: string, why: 'run-pin' | 'pinned'): Placement => (to === 'here' ? { _tag: 'Here' } : { _tag: 'Worker', workerId: to, why });

export const placeStep = (ask: PlacementAsk, seats: readonly Seat[]): Placement => {
  if (ask.runPin) return pin(ask.runPin, 'run-pin');
  if (ask.runOn !== 'any') return pin(ask.runOn, 'pinned');
  const ready = seats.filter((s) => s.online && s.harnesses.includes(ask.harness) && !ask.avoid?.includes(s.workerId));
  const previous = ready.find((s) => s.workerId === ask.previous);
  if (previous) return free(previous) > 0 ? { _tag: 'Worker', workerId: previous.workerId, why: 'sticky' } : { _tag: 'Wait', why: `its previous machine ${previous.workerId} has no free slot` };
  const open = ready.filter((s) => free(s) > 0).sort((a, b) => free(b) - free(a) || (a.workerId < b.workerId ? -1 : 1));
  if (open[0]) return { _tag: 'Worker', workerId: open[0].workerId, why: 'free' };
  return { _tag: 'Wait', why: ready.length > 0 ? `no online worker with ${ask.harness} ready has a free slot` : `no online worker has ${ask.harness} ready` };
};
