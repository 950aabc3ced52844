import type { Journal } from '../../journal/journal.js';
import { PREVIEW_EVENT_CODECS, type PreviewEvent } from '../../journal/preview-events.js';
import { evolvePreviews, type Previews } from '../../projections/previews.js';
import { SingleStream } from './event-stream.js';

// The 'previews' stream: every run's preview starts and stops (docs/preview.md).
export const previewsStream = (journal: Journal): SingleStream<Previews, PreviewEvent> =>
  new SingleStream<Previews, PreviewEvent>(journal, 'previews', PREVIEW_EVENT_CODECS, new Map(), evolvePreviews);
