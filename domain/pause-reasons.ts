// The starts of the reasons svc itself pauses a run with; each names its cause. The decides write
// them (commands/budget.ts, engine-steps.ts, pr-loop.ts) and "needs you" reads them
// (projections/needs-you.ts): a run svc paused waits for a person, one a person paused does not.

export const PAUSE_BUDGET = 'budget';
export const PAUSE_HARNESS = 'harness problem';
export const PAUSE_PR_LOOP = 'the pull request loop used its';

/** a reason svc itself pauses a run with (its budget, a harness problem, the pull request loop's limit) */
export const isSvcPauseReason = (reason: string): boolean =>
  reason.startsWith(`${PAUSE_BUDGET}: `) || reason.startsWith(`${PAUSE_HARNESS}: `) || reason.startsWith(PAUSE_PR_LOOP);
