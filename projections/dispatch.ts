import type { DispatchEvent, RecordedResult } from '../journal/dispatch-events.js';

// Each dispatched step's current claim, folded from the 'dispatch' journal: who holds it, with
// which token, whether its lease lapsed, and whether the step has ended (a result applied, lost,
// or recalled by a pause or an abort).

export interface DispatchedStep {
  readonly runId: string;
  readonly stepId: string;
  /** the latest claim; none while it waits in the queue */
  readonly claim?: { readonly workerId: string; readonly token: number; readonly lapsed?: true };
  readonly ended?: 'applied' | 'lost' | 'recalled';
  /** with ended 'applied': the result the hub applied, when recorded (the step's end is made from it) */
  readonly result?: RecordedResult;
  /** the worker it waits for, away, until a claim takes it (StepAwaitingWorker) */
  readonly awaiting?: string;
}

export type Dispatches = ReadonlyMap<string, DispatchedStep>;

export const NO_DISPATCHES: Dispatches = new Map();

const update = (s: Dispatches, stepId: string, f: (d: DispatchedStep) => DispatchedStep): Dispatches => {
  const d = s.get(stepId);
  return d ? new Map(s).set(stepId, f(d)) : s;
};

export const evolveDispatches = (s: Dispatches, e: DispatchEvent): Dispatches => {
  switch (e.type) {
    case 'StepDispatched': return new Map(s).set(e.data.stepId, { runId: e.data.runId, stepId: e.data.stepId });
    case 'StepClaimed': return update(s, e.data.stepId, ({ awaiting: _, ...d }) => ({ ...d, claim: { workerId: e.data.workerId, token: e.data.token } }));
    case 'StepResultApplied': return update(s, e.data.stepId, (d) => ({ ...d, ended: 'applied', ...(e.data.result ? { result: e.data.result } : {}) }));
    case 'StepLost': return update(s, e.data.stepId, (d) => ({ ...d, ended: 'lost' }));
    case 'StepRecalled': return update(s, e.data.stepId, (d) => ({ ...d, ended: 'recalled' }));
    case 'StepLeaseLapsed': return update(s, e.data.stepId, (d) => (d.claim && d.claim.token === e.data.token ? { ...d, claim: { ...d.claim, lapsed: true } } : d));
    case 'StepAwaitingWorker': return update(s, e.data.stepId, (d) => ({ ...d, awaiting: e.data.workerId }));
    case 'StepMessageDiscarded': return s;
  }
};

/** the worker of the run's latest dispatched step whose result was applied: where placement sticks */
export const previousWorker = (s: Dispatches, runId: string): string | undefined => {
  let found: string | undefined;
  for (const d of s.values()) if (d.runId === runId && d.ended === 'applied' && d.claim) found = d.claim.workerId;
  return found;
};

/**
 * The key of a step's turn `n`: a later turn (held messages, an answer after the turn ended) is a
 * dispatch of its own, `<step>-t<n>` (lib/workers/dispatcher.ts turnOf).
 */
export const turnKey = (stepId: string, n: number): string => (n === 1 ? stepId : `${stepId}-t${n}`);

/** the step's latest dispatched turn and its number: the one a restarted hub takes up or ends the step from */
export const latestTurn = (s: Dispatches, stepId: string): { readonly turn: number; readonly d: DispatchedStep } | undefined => {
  let latest: { turn: number; d: DispatchedStep } | undefined;
  for (let n = 1, d = s.get(stepId); d; d = s.get(turnKey(stepId, ++n))) latest = { turn: n, d };
  return latest;
};
