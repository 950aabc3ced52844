import { left, right } from 'fp-ts/lib/Either.js';
import { conflict, notFound, type Outcome } from '../../commands/refusal.js';
import type { ServiceCore } from './core.js';

// POST /api/runs/{id}/pull-request/check: a person asks the pull request loop to read the run's
// pull request now instead of at its next poll. Only a run whose deliver step watches one can.

export const checkPullRequestNow = (core: ServiceCore, runId: string): Outcome<{ checking: true; pullRequest: number }> => {
  const s = core.runs.get(runId);
  if (!s) return left(notFound('run', runId));
  const w = s.prWatch;
  if (!w || s.lifecycle !== 'active' || s.step?.stepId !== w.stepId) return left(conflict('the run is not watching a pull request (a deliver step with watch=true does, until the pull request is merged or closed)'));
  if (!core.turns.checkNow(w.stepId)) return left(conflict('the pull request watch is not running in this service yet; it starts with the engine'));
  return right({ checking: true, pullRequest: w.pullRequest.number });
};
