import { HARNESS_EVENT_CODECS, type HarnessEvent } from '../../journal/harness-events.js';
import type { Journal } from '../../journal/journal.js';
import { evolveHarnessWindows, NO_WINDOWS, type HarnessWindows } from '../../projections/harness-windows.js';
import { SingleStream } from './event-stream.js';

// The harnesses' quota windows: one journal ('harnesses'), folded at open, so a restart knows
// which CLI is out of quota until when. GET /api/harnesses and the board read it; the engine
// records windows and their ends through the port below.

export type HarnessWindowStream = SingleStream<HarnessWindows, HarnessEvent>;

export const openHarnessWindows = (journal: Journal): HarnessWindowStream =>
  new SingleStream<HarnessWindows, HarnessEvent>(journal, 'harnesses', HARNESS_EVENT_CODECS, NO_WINDOWS, evolveHarnessWindows);
