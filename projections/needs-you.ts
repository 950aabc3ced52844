import type { Actor, Standing } from '../domain/runs.js';
import type { NeedsKind } from '../domain/settings.js';
import type { RunState } from './run-state.js';
import { phaseOf, standingOf } from './standing.js';
import { PAUSE_BUDGET, PAUSE_HARNESS, PAUSE_PR_LOOP } from '../domain/pause-reasons.js';

// "Needs you": the one rule for whether a run waits for a person, and why, in words. The runs
// board groups by it, the tab title counts it, browser notifications and the notification
// command fire on it (lib/web/needs-you, lib/notify). A run needs a person when it asks a
// question, stands at a gate, failed and nobody resolved it, was paused by svc itself for
// something only a person can settle (the pull request loop's cycle limit, its budget, a harness
// that cannot start), or a supervisor's card about it waits for a decision. A run a person paused
// does not: they know. An archived run never does.

export interface NeedsFacts {
  readonly standing: Standing;
  readonly phase: string;
  readonly resolved: boolean;
  readonly archived: boolean;
  /** who paused the run, while it is paused */
  readonly pausedBy?: Actor['kind'];
  readonly pauseReason?: string;
  /** supervisor cards about the run waiting for a person's decision */
  readonly cards?: number;
}

export interface Needs {
  readonly kind: NeedsKind;
  /** why, in a few words: what the board's chip and a notification say */
  readonly label: string;
}

const pausedLabel = (reason: string | undefined): string =>
  reason?.startsWith(`${PAUSE_BUDGET}: `) ? 'Budget reached'
    : reason?.startsWith(`${PAUSE_HARNESS}: `) ? 'Harness problem'
      : reason?.startsWith(PAUSE_PR_LOOP) ? 'Cycle limit reached'
        : 'Paused by svc';

export const needsOf = (f: NeedsFacts): Needs | null => {
  if (f.archived) return null;
  if (f.standing === 'Question') return { kind: 'question', label: 'Question' };
  if (f.phase === 'AtGate') return { kind: 'gate', label: 'At a gate' };
  if (f.standing === 'Failed' && !f.resolved) return { kind: 'failed', label: 'Failed' };
  if (f.standing === 'Paused' && f.pausedBy === 'engine') return { kind: 'paused', label: pausedLabel(f.pauseReason) };
  if ((f.cards ?? 0) > 0 && f.standing !== 'Succeeded' && f.standing !== 'Aborted') return { kind: 'card', label: 'Supervisor card' };
  return null;
};

/** the rule over a run's state (the notification command asks it; the board reads the same facts off its row) */
export const runNeeds = (s: RunState): Needs | null =>
  needsOf({
    standing: standingOf(s), phase: phaseOf(s), resolved: s.resolved, archived: s.archived,
    ...(s.paused && s.views.board.pausedBy ? { pausedBy: s.views.board.pausedBy } : {}), ...(s.paused && s.pauseReason ? { pauseReason: s.pauseReason } : {}),
  });
