import { isRight } from 'fp-ts/lib/Either.js';
import type { RunDecideState } from '../projections/run-decide-state.js';
import { ACTIONS, type Action } from '../domain/runs.js';
import type { ControlCommand } from './control-input.js';
import { readable, refuseAction, type Decision } from './guards.js';
import { left } from 'fp-ts/lib/Either.js';
import { decidePause } from './pause.js';
import { decideResume } from './resume.js';
import { decideRetry } from './retry.js';
import { decideAbort } from './abort.js';
import { decideMoveToFront } from './move-to-front.js';
import { decideSkipWait } from './skip-wait.js';
import { decideChangeHarness } from './change-harness.js';
import { decideJump, jumpTargets } from './jump.js';
import { decideRestart } from './restart.js';

const dispatch = (s: RunDecideState, c: ControlCommand): Decision => {
  switch (c.action) {
    case 'Pause': return decidePause(s, c);
    case 'Resume': return decideResume(s, c);
    case 'Retry': return decideRetry(s, c);
    case 'Abort': return decideAbort(s, c);
    case 'MoveToFront': return decideMoveToFront(s, c);
    case 'SkipWait': return decideSkipWait(s, c);
    case 'ChangeHarness': return decideChangeHarness(s, c);
    case 'Jump': return decideJump(s, c);
    case 'Restart': return decideRestart(s, c);
  }
};

// An unreadable history leaves Abort as the only safe action. An archived run never goes again
// while archived (it is out of the list and its worktrees are gone): unarchive it first, or
// Restart it as a new run.
export const decideControl = (s: RunDecideState, c: ControlCommand): Decision => {
  const blocked = c.action === 'Abort' ? null : readable(s, c.action);
  if (blocked) return left(blocked);
  if (s.archived && c.action !== 'Restart' && c.action !== 'Abort') return refuseAction(c.action);
  return dispatch(s, c);
};

// A probe of each action with the most permissive arguments: allowedActions is exactly what decide
// would accept now, so no view can disagree with what is enforced.
const probe = (s: RunDecideState, action: Action): ControlCommand => {
  const base = { at: new Date(0).toISOString(), by: { kind: 'engine' as const } };
  if (action === 'ChangeHarness') return { ...base, action, harness: 'claude', available: null };
  if (action === 'Jump') return { ...base, action, node: jumpTargets(s)[0] ?? '' };
  if (action === 'Restart') return { ...base, action, newRunId: 'probe' };
  // a run its budget paused may go on with a raised budget (the probe's is above any spend)
  if (action === 'Resume') return { ...base, action, ...(s.budgetUsd !== undefined ? { budgetUsd: Number.MAX_VALUE } : {}) };
  return { ...base, action };
};

export const allowedActions = (s: RunDecideState): Action[] => ACTIONS.filter((a) => isRight(decideControl(s, probe(s, a))));

/** One action of allowedActions, for a view that needs only it (the runs board: MoveToFront). */
export const isAllowed = (s: RunDecideState, action: Action): boolean => isRight(decideControl(s, probe(s, action)));

/** The refusal for an action that is not allowed names the allowed ones. */
export const withAllowed = (s: RunDecideState, d: Decision): Decision =>
  isRight(d) || d.left._tag !== 'NotAllowed' ? d : left({ ...d.left, allowed: allowedActions(s) });
