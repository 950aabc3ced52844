import type { HarnessName } from '../domain/workflow.js';
import type { CommandContext } from './context.js';

// A control action as the engine-facing command. Facts that need I/O (is that harness available?)
// and new ids (the restarted run's id) arrive on the command, computed by the caller.
export type ControlCommand = CommandContext &
  (
    | { readonly action: 'Pause' | 'Retry' | 'SkipWait' | 'Abort' | 'MoveToFront' }
    /** budgetUsd: the run's raised budget (commands/budget.ts) */
    | { readonly action: 'Resume'; readonly budgetUsd?: number }
    | { readonly action: 'ChangeHarness'; readonly harness: HarnessName; readonly available: string | null }
    | { readonly action: 'Jump'; readonly node: string }
    | { readonly action: 'Restart'; readonly newRunId: string }
  );
