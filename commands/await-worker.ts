import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { DispatchEvent } from '../journal/dispatch-events.js';
import type { Dispatches } from '../projections/dispatch.js';
import { notFound, type Refusal } from './refusal.js';

// A step placed on one worker only (a project pinned to it, or a run moved there) whose worker is
// not online waits in that worker's queue (docs/workers.md, "A pinned step whose worker is
// away"). The hub records the wait once, so the run's page and get_run can say what it waits for
// and since when, a restarted hub included. Nothing is recorded while a live claim holds the step
// (its worker may still be at work until the lease lapses), for a step that ended, or again for
// the same worker.

export interface AwaitWorker {
  readonly stepId: string;
  readonly workerId: string;
}

export const decideAwaitWorker = (s: Dispatches, c: AwaitWorker): Either<Refusal, DispatchEvent[]> => {
  const d = s.get(c.stepId);
  if (!d) return left(notFound('dispatched step', c.stepId));
  if (d.ended || d.awaiting === c.workerId || (d.claim && !d.claim.lapsed)) return right([]);
  return right([{ type: 'StepAwaitingWorker', data: { ...c } }]);
};
