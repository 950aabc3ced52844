import type { Journal } from '../../journal/journal.js';
import { DISPATCH_EVENT_CODECS, type DispatchEvent } from '../../journal/dispatch-events.js';
import { evolveDispatches, NO_DISPATCHES, type Dispatches } from '../../projections/dispatch.js';
import { SingleStream } from './event-stream.js';

// Steps dispatched to workers: one journal ('dispatch', docs/workers.md), folded at open. It is
// the fence: a worker's message is applied only when it speaks for the step's current claim.

export type DispatchStream = SingleStream<Dispatches, DispatchEvent>;

export const openDispatch = (journal: Journal): DispatchStream =>
  new SingleStream<Dispatches, DispatchEvent>(journal, 'dispatch', DISPATCH_EVENT_CODECS, NO_DISPATCHES, evolveDispatches);
