import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { EventKind, TriggerEvent } from '../journal/trigger-events.js';
import type { TriggerRule } from '../projections/trigger-rule.js';
import { notFound, type Refusal } from './refusal.js';

// A rule acting on an event. The event id is recorded with the id of the run about to be created,
// before it is created: an id the rule has seen returns [] (fired already, never twice).

export interface TriggerEventFacts {
  readonly id: string;
  readonly kind: EventKind;
  readonly summary: string;
  readonly url?: string;
}

type Decision = Either<Refusal, TriggerEvent[]>;

export const decideRecordEvent = (rule: TriggerRule | null, c: { ruleId: string; event: TriggerEventFacts; runId: string }): Decision => {
  if (!rule || rule.deleted) return left(notFound('trigger rule', c.ruleId));
  if (rule.seen.has(c.event.id)) return right([]);
  const { id, kind, summary, url } = c.event;
  return right([{ type: 'EventRecorded', data: { eventId: id, kind, summary: summary.slice(0, 300), ...(url !== undefined ? { url } : {}), runId: c.runId } }]);
};

export const decideSettleRun = (rule: TriggerRule | null, c: { ruleId: string; eventId: string; refused?: string; lost?: string }): Decision => {
  if (!rule) return left(notFound('trigger rule', c.ruleId));
  const e = rule.events.find((x) => x.eventId === c.eventId);
  if (!e || e.outcome._tag !== 'Recorded') return right([]);
  if (c.refused !== undefined) return right([{ type: 'RunRefused', data: { eventId: c.eventId, reason: c.refused } }]);
  if (c.lost !== undefined) return right([{ type: 'RunLost', data: { eventId: c.eventId, reason: c.lost } }]);
  return right([]);
};

/** Firings the schedule missed between the cursor and now, said once. */
export const decideSkipFirings = (rule: TriggerRule | null, c: { ruleId: string; missed: readonly string[] }): Decision => {
  if (!rule || rule.deleted) return left(notFound('trigger rule', c.ruleId));
  const fresh = c.missed.filter((m) => m > rule.scheduleCursor);
  if (fresh.length === 0) return right([]);
  return right([{ type: 'FiringsSkipped', data: { count: fresh.length, first: fresh[0]!, last: fresh[fresh.length - 1]! } }]);
};
