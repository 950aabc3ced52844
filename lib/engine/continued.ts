import type { RunState } from '../../projections/run-state.js';
import type { HarnessName } from '../workflows/model.js';
import type { SessionTotals } from '../harness/adapter.js';

// How an agent turn of a follow-up picks up the run it continues. Its first turn resumes the old
// run's last agent session when it runs on the same CLI (claude --resume, codex exec resume,
// opencode -s: each in the same worktree, which a follow-up shares); a different CLI cannot read
// that session, so it starts afresh and is told what the earlier run did instead.

/** the follow-up has started no session of its own yet (a retry clears them: it resumes again) */
const firstTurn = (run: RunState): boolean => run.continues !== undefined && Object.keys(run.sessions).length === 0;

export const continuedSession = (run: RunState, harness: HarnessName): string | undefined => {
  const session = run.continues?.session;
  return session && firstTurn(run) && session.harness === harness ? session.sessionId : undefined;
};

/** what the CLI last reported as a resumed session's running totals: this run's record, else the continued run's */
export const sessionTotalsOf = (run: RunState, sessionId: string): SessionTotals | undefined =>
  run.usage?.sessions[sessionId] ?? (run.continues?.session?.sessionId === sessionId ? run.continues.session.totals : undefined);

/** what a fresh session of a follow-up's first turn is told of the run it continues */
export const continuedThread = (run: RunState, resuming: boolean): string | undefined =>
  !resuming && firstTurn(run) ? run.continues?.thread : undefined;
