import type { Journal } from '../../journal/journal.js';
import { WORKER_EVENT_CODECS, type WorkerEvent } from '../../journal/worker-events.js';
import { evolveWorkers, NO_WORKERS, type Workers } from '../../projections/workers.js';
import { SingleStream } from './event-stream.js';

// The workers this hub knows: one journal ('workers'), folded at open, so a restart knows whose
// keys the hub's NATS server takes and which are revoked (docs/workers.md).

export type WorkerStream = SingleStream<Workers, WorkerEvent>;

export const openWorkers = (journal: Journal): WorkerStream =>
  new SingleStream<Workers, WorkerEvent>(journal, 'workers', WORKER_EVENT_CODECS, NO_WORKERS, evolveWorkers);
