import type { RunEvent } from '../journal/run-events.js';
import { findNode, type Workflow } from '../domain/workflow.js';

// The run's step ends (StepSucceeded, StepFailed) by seq, each with the snapshots of its worktrees:
// where a fork may start. A step end is due for a snapshot until each folder's is recorded (taken or
// failed); the engine takes it before the next step starts (lib/engine/snapshots.ts).

export interface StepEndSnapshot {
  readonly folder: string;
  readonly commit: string;
  readonly ref: string;
}

export interface StepEnd {
  /** the seq of the StepSucceeded or StepFailed event */
  readonly at: number;
  readonly stepId: string;
  readonly node: string;
  readonly outcome: 'success' | 'failure';
  readonly snapshots: readonly StepEndSnapshot[];
  /** false: the workflow went nowhere after this step, so a fork from it would have nothing to run */
  readonly goesOn?: boolean;
}

/** part of the decide state: a fork decides on the step ends, and the engine takes their snapshots */
export interface StepEndsState {
  readonly snapshotDue?: { readonly stepId: string; readonly node: string; readonly at: number };
  readonly stepEnds?: readonly StepEnd[];
}

const withSnapshot = (ends: readonly StepEnd[], at: number, snap: StepEndSnapshot): readonly StepEnd[] =>
  ends.map((x) => (x.at === at ? { ...x, snapshots: [...x.snapshots.filter((k) => k.folder !== snap.folder), snap] } : x));

// a step end the run goes on from to another step (not to an exit, not nowhere): a fork can start there
const goesOn = (v: { readonly node: string | null; readonly workflow: Workflow }): boolean =>
  v.node !== null && (findNode(v.workflow, v.node)?.kind ?? 'exit') !== 'exit';

/** `ended`: whether the event ended the step in flight (the fold accepted it); `v.node`: where the run goes next */
export const evolveStepEnds = (v: StepEndsState & { readonly node: string | null; readonly workflow: Workflow }, e: RunEvent & { seq: number }, ended: boolean): StepEndsState => {
  switch (e.type) {
    case 'StepSucceeded':
    case 'StepFailed': {
      if (!ended) return v;
      const end: StepEnd = { at: e.seq, stepId: e.data.stepId, node: e.data.node, outcome: e.type === 'StepSucceeded' ? 'success' : 'failure', snapshots: [], goesOn: goesOn(v) };
      return { snapshotDue: { stepId: end.stepId, node: end.node, at: end.at }, stepEnds: [...(v.stepEnds ?? []), end] };
    }
    // the engine records every folder in one append, so the first record settles the step end
    case 'SnapshotTaken': {
      const ends = withSnapshot(v.stepEnds ?? [], e.data.at, { folder: e.data.folder, commit: e.data.commit, ref: e.data.ref });
      return { stepEnds: ends, ...(v.snapshotDue && v.snapshotDue.at !== e.data.at ? { snapshotDue: v.snapshotDue } : {}) };
    }
    case 'SnapshotFailed':
      return { ...(v.stepEnds ? { stepEnds: v.stepEnds } : {}), ...(v.snapshotDue && v.snapshotDue.at !== e.data.at ? { snapshotDue: v.snapshotDue } : {}) };
    // once another step has started, the worktree is no longer as the step end left it: a snapshot
    // still due then (a journal from before snapshots) is never taken
    case 'StepStarted':
      return v.stepEnds ? { stepEnds: v.stepEnds } : {};
    default:
      return v;
  }
};
