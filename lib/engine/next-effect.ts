import type { RunState } from '../../projections/run-state.js';
import { currentNodeOf } from '../../projections/run-decide-state.js';
import type { StepNode } from '../../domain/workflow.js';
import { overBudget } from '../../commands/budget.js';

// What a run needs next, read off its state and what this process has in flight. Pure: the
// engine carries the effect out and records what came of it as events.

export type Effect =
  | { readonly _tag: 'None' }
  | { readonly _tag: 'Prepare' }
  | { readonly _tag: 'Snapshot'; readonly stepId: string; readonly node: string; readonly at: number }
  | { readonly _tag: 'Recover'; readonly stepId: string }
  | { readonly _tag: 'ArmWait'; readonly stepId: string; readonly endsAt: string }
  /** a deliver step that watches its pull request, with no watch live in this process (lib/engine/pr-loop.ts) */
  | { readonly _tag: 'Watch'; readonly stepId: string }
  | { readonly _tag: 'Start'; readonly node: StepNode }
  /** the run's known spend has reached its budget: it pauses instead of starting the next step */
  | { readonly _tag: 'BudgetPause' }
  | { readonly _tag: 'End'; readonly success: boolean; readonly text: string };

export interface InFlight {
  readonly preparing: boolean;
  /** the run's snapshots of its last step end are being taken */
  readonly snapshotting?: boolean;
  isLive(stepId: string): boolean;
  isArmed(stepId: string): boolean;
}

const NONE: Effect = { _tag: 'None' };

const noRoute = (s: RunState): Effect => {
  const p = s.previous;
  if (!p) return { _tag: 'End', success: false, text: 'the workflow has no first step' };
  return { _tag: 'End', success: false, text: `step ${p.node} ended with ${p.outcome}: ${p.summary}`.slice(0, 2000) + (p.outcome === 'failure' ? '' : ' (no route for this outcome)') };
};

const stepEffect = (s: RunState, f: InFlight): Effect => {
  const step = s.step!;
  if (step.kind === 'gate') return NONE;
  if (step.kind === 'wait') return f.isArmed(step.stepId) || s.paused ? NONE : { _tag: 'ArmWait', stepId: step.stepId, endsAt: step.endsAt ?? s.updatedAt };
  // its pull request is open: the step is the watch, not a delivery to make again
  if (s.prWatch?.stepId === step.stepId) return f.isLive(step.stepId) ? NONE : { _tag: 'Watch', stepId: step.stepId };
  return f.isLive(step.stepId) ? NONE : { _tag: 'Recover', stepId: step.stepId };
};

export const nextEffect = (s: RunState, f: InFlight): Effect => {
  if (s.lifecycle !== 'active' || s.unreadable) return NONE;
  if (!s.checkouts) return f.preparing ? NONE : { _tag: 'Prepare' };
  // the worktree as the step left it, before anything (the next step, the run's end) moves on
  if (s.snapshotDue && !s.step) return f.snapshotting ? NONE : { _tag: 'Snapshot', ...s.snapshotDue };
  if (s.step) return stepEffect(s, f);
  if (s.paused) return NONE;
  const node = currentNodeOf(s);
  if (!node) return s.node ? { _tag: 'End', success: false, text: `the workflow has no step ${s.node}` } : noRoute(s);
  if (node.kind === 'exit') {
    const failed = node.attrs['outcome'] === 'failure';
    return { _tag: 'End', success: !failed, text: s.previous?.summary ?? (failed ? 'ended at a failure exit' : 'done') };
  }
  if (node.kind === 'start') return { _tag: 'End', success: false, text: 'cannot run the start node' };
  return overBudget(s) ? { _tag: 'BudgetPause' } : { _tag: 'Start', node };
};
