import type { Standing } from '../domain/runs.js';
import type { RunDecideState } from './run-decide-state.js';

// Standing and phase are read off the run state; nothing stores them.

/** a deliver step watching its pull request between cycles: the run waits on the code host */
export const watchingIdle = (s: RunDecideState): boolean => s.step !== null && s.prWatch?.stepId === s.step.stepId && !s.prWatch.open;

export const standingOf = (s: RunDecideState): Standing => {
  if (s.lifecycle === 'created') return 'Created';
  if (s.lifecycle === 'queued') return 'Queued';
  if (s.lifecycle === 'ended') return s.ending ?? 'Failed';
  if (s.paused) return 'Paused';
  if (s.question) return 'Question';
  if (s.step?.kind === 'wait' || watchingIdle(s)) return 'Waiting';
  return 'Running';
};

export const phaseOf = (s: RunDecideState): string => {
  if (s.lifecycle === 'created') return 'Created';
  if (s.lifecycle === 'queued') return 'Queued';
  if (s.lifecycle === 'ended') return 'Ended';
  if (!s.checkouts) return 'Preparing';
  if (s.paused) return s.step?.kind === 'gate' ? 'AtGate' : 'Paused';
  if (s.question) return 'AwaitingAnswer';
  if (s.step?.kind === 'wait' || watchingIdle(s)) return 'Waiting';
  return 'Executing';
};

export const outcomeOf = (s: RunDecideState): string | undefined => {
  if (s.lifecycle !== 'ended') return undefined;
  return s.ending === 'Succeeded' ? 'success' : s.ending === 'Aborted' ? 'aborted' : 'failure';
};

export const isGoing = (s: RunDecideState): boolean => s.lifecycle === 'queued' || s.lifecycle === 'active';

export const needsAttention = (s: RunDecideState): boolean => s.lifecycle === 'ended' && s.ending !== 'Succeeded' && !s.resolved;
