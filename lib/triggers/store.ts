import type { Journal } from '../../journal/journal.js';
import { TRIGGER_EVENT_CODECS, type TriggerEvent } from '../../journal/trigger-events.js';
import { evolveTrigger, type TriggerRule } from '../../projections/trigger-rule.js';
import { EventStream, type StreamKind } from '../state/event-stream.js';

// Every rule's state in memory, folded from its stream `trigger:<id>` at start and kept up to date
// on each append. Rule streams are small (a definition and the events it fired for).

export type TriggerStreams = EventStream<TriggerRule, TriggerEvent>;

export const triggerStream = (ruleId: string): string => `trigger:${ruleId}`;

const TRIGGER_KIND: StreamKind<TriggerRule, TriggerEvent> = {
  prefix: 'trigger:',
  codecs: TRIGGER_EVENT_CODECS,
  evolve: (s, e) => evolveTrigger(s, e, e.at, e.seq),
  // an event that does not decode is passed over: the rule keeps what the others made it
  unreadable: (s, u) => (s ? { ...s, seq: u.seq } : s),
};

export const openTriggerStreams = (journal: Journal): TriggerStreams => {
  const streams = new EventStream(journal, TRIGGER_KIND);
  streams.load();
  return streams;
};

/** live rules, oldest first (ids are time-ordered) */
export const liveRules = (streams: TriggerStreams): TriggerRule[] =>
  [...streams.all()].filter((r) => !r.deleted).sort((a, b) => (a.id < b.id ? -1 : 1));
