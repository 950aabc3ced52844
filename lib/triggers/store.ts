import { decodeStored, isUnreadable } from '../../journal/decode.js';
import type { Journal, Stored } from '../../journal/journal.js';
import { TRIGGER_EVENT_CODECS, type TriggerEvent } from '../../journal/trigger-events.js';
import { evolveTrigger, type TriggerRule } from '../../projections/trigger-rule.js';

// Every rule's state in memory, folded from its stream `trigger:<id>` at start and kept up to date
// on each append. Rule streams are small (a definition and the events it fired for).

export const triggerStream = (ruleId: string): string => `trigger:${ruleId}`;

export class TriggerStore {
  private readonly rules = new Map<string, TriggerRule>();
  readonly unreadable: string[] = [];

  constructor(private readonly journal: Journal) {
    for (const stream of journal.streams('trigger:')) this.fold(stream.slice('trigger:'.length), journal.read(stream));
  }

  get(ruleId: string): TriggerRule | null {
    return this.rules.get(ruleId) ?? null;
  }

  /** live rules, oldest first (ids are time-ordered) */
  all(): TriggerRule[] {
    return [...this.rules.values()].filter((r) => !r.deleted).sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  append(ruleId: string, events: readonly TriggerEvent[], at: string): TriggerRule | null {
    const r = this.journal.append(triggerStream(ruleId), this.get(ruleId)?.seq ?? 0, events, at);
    if (r._tag === 'Stale') throw new Error(`trigger rule ${ruleId} changed underneath (found ${r.head})`);
    this.fold(ruleId, r.events);
    return this.get(ruleId);
  }

  private fold(ruleId: string, stored: readonly Stored[]): void {
    let s = this.get(ruleId);
    for (const raw of stored) {
      const d = decodeStored<TriggerEvent>(TRIGGER_EVENT_CODECS, raw);
      if (isUnreadable(d)) {
        this.unreadable.push(`${ruleId}: ${d.detail}`);
        if (s) s = { ...s, seq: raw.seq };
        continue;
      }
      s = evolveTrigger(s, d as unknown as TriggerEvent, raw.at, raw.seq);
    }
    if (s) this.rules.set(ruleId, s);
  }
}
