import type { RunState } from '../../projections/run-state.js';
import type { HarnessName } from '../../domain/workflow.js';
import type { SessionTotals } from '../../domain/harness.js';

// How an agent turn of a follow-up or a fork picks up the run it came from. A follow-up's first
// turn resumes the old run's last agent session when it runs on the same CLI (claude --resume,
// codex exec resume, opencode -s: each in the same worktree, which a follow-up shares). A fork's
// first turn resumes the source's session as it stood at the step end, forked, so the source's
// session is never written to: claude (--resume with --fork-session) and opencode (--session with
// --fork) can; codex has no fork of a thread (docs/forks.md). A CLI that cannot resume starts
// afresh and is told what the earlier run did instead.

/** the run has started no session of its own yet (a retry clears them: it resumes again) */
const firstTurn = (run: RunState): boolean => (run.continues !== undefined || run.forkedFrom !== undefined) && Object.keys(run.sessions).length === 0;

/** the CLIs whose sessions a fork can copy without touching the source's */
const FORKS_SESSIONS: ReadonlySet<HarnessName> = new Set(['claude', 'opencode']);

export interface Continued {
  readonly sessionId: string;
  /** resume a copy (a fork), not the session itself */
  readonly fork: boolean;
}

export const continuedSession = (run: RunState, harness: HarnessName): Continued | undefined => {
  if (!firstTurn(run)) return undefined;
  if (run.forkedFrom) {
    const session = run.forkedFrom.session;
    return session && session.harness === harness && FORKS_SESSIONS.has(harness) ? { sessionId: session.sessionId, fork: true } : undefined;
  }
  const session = run.continues?.session;
  return session && session.harness === harness ? { sessionId: session.sessionId, fork: false } : undefined;
};

/** what the CLI last reported as a resumed session's running totals: this run's record, else the continued (or forked) run's */
export const sessionTotalsOf = (run: RunState, sessionId: string): SessionTotals | undefined =>
  run.usage?.sessions[sessionId] ?? (run.continues?.session?.sessionId === sessionId ? run.continues.session.totals : undefined)
  ?? (run.forkedFrom?.session?.sessionId === sessionId ? run.forkedFrom.session.totals : undefined);

/** what a fresh session of a follow-up's or fork's first turn is told of the run it came from */
export const continuedThread = (run: RunState, resuming: boolean): string | undefined =>
  !resuming && firstTurn(run) ? (run.continues?.thread ?? run.forkedFrom?.thread) : undefined;
