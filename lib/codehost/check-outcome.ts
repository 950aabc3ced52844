import type { RawContext } from './queries.js';
import type { CheckOutcome, CheckView } from '../../domain/pull-request.js';

// How one check on a pull request stands. GitHub has two kinds: check runs (Actions, apps) with a
// status and, once completed, a conclusion; and commit statuses (older integrations) with a state.

// Every CheckConclusionState value. NEUTRAL and SKIPPED do not block a merge, so they pass.
// STALE (GitHub gave up waiting on it) and ACTION_REQUIRED need someone to act: failing.
// An unknown future value counts as failing, so it is looked at rather than waved through.
const CONCLUSIONS: Readonly<Record<string, CheckOutcome>> = {
  SUCCESS: 'Passed',
  NEUTRAL: 'Passed',
  SKIPPED: 'Passed',
  FAILURE: 'Failing',
  TIMED_OUT: 'Failing',
  CANCELLED: 'Failing',
  ACTION_REQUIRED: 'Failing',
  STARTUP_FAILURE: 'Failing',
  STALE: 'Failing',
};

// Every StatusState value. EXPECTED: a required status nobody has reported yet, so pending.
const STATUS_STATES: Readonly<Record<string, CheckOutcome>> = {
  SUCCESS: 'Passed',
  FAILURE: 'Failing',
  ERROR: 'Failing',
  PENDING: 'Pending',
  EXPECTED: 'Pending',
};

/** A check run: any status other than COMPLETED (queued, in progress, waiting...) is pending. */
export const checkRunOutcome = (status: string, conclusion: string | null): CheckOutcome => {
  if (status !== 'COMPLETED' || conclusion === null) return 'Pending';
  return CONCLUSIONS[conclusion] ?? 'Failing';
};

export const statusContextOutcome = (state: string): CheckOutcome => STATUS_STATES[state] ?? 'Failing';

export const checkView = (c: RawContext): CheckView =>
  c.__typename === 'CheckRun'
    ? {
        name: c.name,
        required: c.isRequired,
        outcome: checkRunOutcome(c.status, c.conclusion),
        state: c.status === 'COMPLETED' && c.conclusion !== null ? c.conclusion : c.status,
      }
    : { name: c.context, required: c.isRequired, outcome: statusContextOutcome(c.state), state: c.state };
