import { left, right } from 'fp-ts/lib/Either.js';
import { conflict, notFound, type Outcome } from '../../commands/refusal.js';
import type { ServiceCore } from './core.js';

// POST /api/runs/{id}/pull-request/check: a person asks the pull request loop to read the run's
// pull request now instead of at its next poll. Only a run whose deliver step watches one can.
// The answer comes once the read is decided (a cycle it starts runs on); while a cycle runs, at
// once, and the read follows the cycle.

export const checkPullRequestNow = async (core: ServiceCore, runId: string): Promise<Outcome<{ pullRequest: number; cycleRunning: boolean }>> => {
  const s = core.runs.get(runId);
  if (!s) return left(notFound('run', runId));
  const w = s.prWatch;
  if (!w || s.lifecycle !== 'active' || s.step?.stepId !== w.stepId) return left(conflict('the run is not watching a pull request (a deliver step with watch=true does, until the pull request is merged or closed)'));
  const asked = core.turns.checkNow(w.stepId);
  if (!asked) return left(conflict('the pull request watch is not running in this service yet; it starts with the engine'));
  await asked.read;
  return right({ pullRequest: w.pullRequest.number, cycleRunning: asked.cycleRunning });
};
