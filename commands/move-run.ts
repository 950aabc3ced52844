import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { Actor } from '../domain/runs.js';
import { quoted } from '../domain/quoted.js';
import type { PlacementEvent } from '../journal/placement-events.js';
import type { RunPins } from '../projections/run-pins.js';
import type { RunOnWorker } from './run-on.js';
import { ended, invalid, type Refusal } from './refusal.js';

// "Move to…" (docs/workers.md): a person picks the machine for a run's next agent steps, 'here'
// or a worker. The step in flight, if any, stays where it runs; the pin wins over the project's
// "Run on" from the next dispatch. Refused for an ended run (nothing runs next) and for a worker
// the hub does not know or has revoked; whether the worker is online is presence, and a step
// waits in the queue until it is.

export interface MoveRun {
  readonly runId: string;
  readonly to: string;
  /** what the caller read of the worker named (absent for 'here') */
  readonly worker?: RunOnWorker;
  /** the run has ended (succeeded, failed, aborted) */
  readonly ended: boolean;
  readonly by: Actor;
}

export const decideMoveRun = (pins: RunPins, c: MoveRun): Either<Refusal, PlacementEvent[]> => {
  if (c.ended) return left(ended(`run ${c.runId} has ended: no step of it runs anywhere now`));
  if (c.to !== 'here' && c.worker !== 'active') {
    const why = c.worker === 'revoked' ? 'is revoked' : 'is not a worker of this hub (`svc worker list`)';
    return left(invalid(`to must be "here" or an active worker's id: ${JSON.stringify(quoted(c.to))} ${why}`));
  }
  if (pins.get(c.runId)?.to === c.to) return right([]);
  return right([{ type: 'RunMovedTo', data: { runId: c.runId, to: c.to, by: c.by } }]);
};
