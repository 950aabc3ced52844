import type { Journal } from '../../journal/journal.js';
import { PLACEMENT_EVENT_CODECS, type PlacementEvent } from '../../journal/placement-events.js';
import { evolveRunPins, NO_PINS, type RunPins } from '../../projections/run-pins.js';
import { SingleStream } from './event-stream.js';

// Runs a person moved to a machine ("Move to…"): one journal ('placement', docs/workers.md),
// folded at open, so a restart still sends a moved run's next steps where it was moved.

export type PlacementStream = SingleStream<RunPins, PlacementEvent>;

export const openPlacement = (journal: Journal): PlacementStream =>
  new SingleStream<RunPins, PlacementEvent>(journal, 'placement', PLACEMENT_EVENT_CODECS, NO_PINS, evolveRunPins);
