import type { EventKind, TriggerDefinition, TriggerEvent } from '../journal/trigger-events.js';

// One trigger rule, folded from its journal. `seen` holds every event id the rule ever fired for
// (the exactly-once check); `events` keeps only the recent ones for reading.

export const RECENT_EVENTS = 100;
const RECENT_NOTES = 20;

export type EventOutcome =
  | { readonly _tag: 'Recorded' }
  | { readonly _tag: 'Refused'; readonly reason: string }
  | { readonly _tag: 'Lost'; readonly reason: string };

export interface RecordedEvent {
  readonly eventId: string;
  readonly kind: EventKind;
  readonly summary: string;
  readonly url?: string;
  readonly at: string;
  readonly runId: string;
  readonly outcome: EventOutcome;
}

export interface TriggerRule {
  readonly id: string;
  readonly definition: TriggerDefinition;
  readonly secretHash: string | null;
  readonly createdAt: string;
  readonly deleted: boolean;
  readonly seen: ReadonlySet<string>;
  readonly events: readonly RecordedEvent[];
  readonly notes: readonly { readonly at: string; readonly text: string }[];
  /** schedule firings up to this instant are done (fired, skipped, or before the rule's last change) */
  readonly scheduleCursor: string;
  readonly seq: number;
}

const settle = (s: TriggerRule, eventId: string, outcome: EventOutcome): TriggerRule => ({
  ...s, events: s.events.map((e) => (e.eventId === eventId ? { ...e, outcome } : e)),
});

const note = (s: TriggerRule, at: string, text: string): TriggerRule => ({ ...s, notes: [...s.notes, { at, text }].slice(-RECENT_NOTES) });

const later = (a: string, b: string): string => (a > b ? a : b);

export const evolveTrigger = (s: TriggerRule | null, e: TriggerEvent, at: string, seq: number): TriggerRule | null => {
  const next = evolve(s, e, at);
  return next ? { ...next, seq } : null;
};

const evolve = (s: TriggerRule | null, e: TriggerEvent, at: string): TriggerRule | null => {
  if (e.type === 'TriggerCreated') {
    return { id: e.data.ruleId, definition: e.data.definition, secretHash: e.data.secretHash ?? null, createdAt: at, deleted: false, seen: new Set(), events: [], notes: [], scheduleCursor: at, seq: 0 };
  }
  if (!s) return null;
  switch (e.type) {
    case 'TriggerChanged':
      return { ...s, definition: e.data.definition, secretHash: e.data.secretHash ?? s.secretHash, scheduleCursor: later(s.scheduleCursor, at) };
    case 'TriggerDeleted': return { ...s, deleted: true };
    case 'EventRecorded': {
      const { eventId, kind, summary, url, runId } = e.data;
      const recorded: RecordedEvent = { eventId, kind, summary, ...(url !== undefined ? { url } : {}), at, runId, outcome: { _tag: 'Recorded' } };
      const cursor = kind === 'Schedule' && eventId.startsWith('schedule:') ? later(s.scheduleCursor, eventId.slice('schedule:'.length)) : s.scheduleCursor;
      return { ...s, seen: new Set(s.seen).add(eventId), events: [...s.events, recorded].slice(-RECENT_EVENTS), scheduleCursor: cursor };
    }
    case 'RunRefused': return settle(s, e.data.eventId, { _tag: 'Refused', reason: e.data.reason });
    case 'RunLost': return note(settle(s, e.data.eventId, { _tag: 'Lost', reason: e.data.reason }), at, e.data.reason);
    case 'FiringsSkipped': {
      const text = `skipped ${e.data.count} scheduled firing${e.data.count === 1 ? '' : 's'} from ${e.data.first} to ${e.data.last}: the server was not running`;
      return { ...note(s, at, text), scheduleCursor: later(s.scheduleCursor, e.data.last) };
    }
  }
};

/** runs the rule recorded but the service has no record of, with no refusal or loss noted yet */
export const unsettledEvents = (s: TriggerRule, runExists: (runId: string) => boolean): readonly RecordedEvent[] =>
  s.events.filter((e) => e.outcome._tag === 'Recorded' && !runExists(e.runId));
