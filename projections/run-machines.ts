import type { DispatchEvent } from '../journal/dispatch-events.js';

// Where each dispatched step ran, folded from the 'dispatch' journal for the run's page and get_run
// (docs/workers.md): every claim in order (a step claimed by a second worker moved there after
// the first one's lease lapsed), and how it ended. The fence's own fold (dispatch.ts) keeps only
// the current claim; this one keeps the history, per run.

export interface StepClaim { readonly workerId: string; readonly token: number; readonly at: string }

export interface StepPlacement {
  readonly runId: string;
  readonly stepId: string;
  readonly dispatchedAt: string;
  readonly claims: readonly StepClaim[];
  readonly ended?: 'applied' | 'lost' | 'recalled';
  readonly lostReason?: string;
  /** it waits for this worker, which is away, since `since` (cleared by the next claim) */
  readonly awaiting?: { readonly workerId: string; readonly since: string };
}

export interface RunMachines {
  readonly steps: ReadonlyMap<string, StepPlacement>;
  /** each run's dispatched steps, oldest first */
  readonly byRun: ReadonlyMap<string, readonly string[]>;
}

export const NO_RUN_MACHINES: RunMachines = { steps: new Map(), byRun: new Map() };

const update = (s: RunMachines, stepId: string, f: (p: StepPlacement) => StepPlacement): RunMachines => {
  const p = s.steps.get(stepId);
  return p ? { ...s, steps: new Map(s.steps).set(stepId, f(p)) } : s;
};

export const evolveRunMachines = (s: RunMachines, e: DispatchEvent & { readonly at: string }): RunMachines => {
  switch (e.type) {
    case 'StepDispatched': {
      if (s.steps.has(e.data.stepId)) return s;
      const steps = new Map(s.steps).set(e.data.stepId, { runId: e.data.runId, stepId: e.data.stepId, dispatchedAt: e.at, claims: [] });
      return { steps, byRun: new Map(s.byRun).set(e.data.runId, [...(s.byRun.get(e.data.runId) ?? []), e.data.stepId]) };
    }
    case 'StepClaimed': return update(s, e.data.stepId, ({ awaiting: _, ...p }) => ({ ...p, claims: [...p.claims, { workerId: e.data.workerId, token: e.data.token, at: e.at }] }));
    case 'StepAwaitingWorker': return update(s, e.data.stepId, (p) => (p.awaiting?.workerId === e.data.workerId ? p : { ...p, awaiting: { workerId: e.data.workerId, since: e.at } }));
    case 'StepResultApplied': return update(s, e.data.stepId, (p) => ({ ...p, ended: 'applied' }));
    case 'StepLost': return update(s, e.data.stepId, (p) => ({ ...p, ended: 'lost', lostReason: e.data.reason }));
    // paused or aborted while it ran there: it ran there, and ended
    case 'StepRecalled': return update(s, e.data.stepId, (p) => ({ ...p, ended: 'recalled' }));
    // the claim's lease lapsed: the next claim (the next entry of `claims`) says where it went
    case 'StepLeaseLapsed': case 'StepMessageDiscarded': return s;
  }
};

/** a machine as a run's view names it: a worker (its id and name) or this machine (workerId null) */
export interface MachineRef { readonly workerId: string | null; readonly name: string }

/** where one dispatched step ran, why there, and where it was before if it moved */
export interface StepMachineView extends MachineRef {
  readonly stepId: string;
  readonly why?: string;
  /** the workers that held it before, each with why it left */
  readonly movedFrom?: readonly (MachineRef & { readonly why: string })[];
  /** the pool gave up on it */
  readonly lost?: string;
}

/** get_run's `machine` (docs/workers.md): where the run's steps ran and where its next one runs */
export interface MachineView {
  /** where the latest agent step ran or runs: a worker, or this machine */
  readonly current: MachineRef;
  /** where the next agent step will be sent, and why (a person moved the run, the project's Run on) */
  readonly next: MachineRef & { readonly why: string };
  /** each step that ran on a worker, oldest first */
  readonly steps: readonly StepMachineView[];
  /** the step in flight waits for its one worker, which is away: since when, and what frees it */
  readonly waiting?: MachineRef & { readonly stepId: string; readonly since: string; readonly why: string };
}
