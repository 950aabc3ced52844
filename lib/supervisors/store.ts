import { decodeStored, isUnreadable } from '../../journal/decode.js';
import type { Journal, Stored } from '../../journal/journal.js';
import { SUPERVISOR_EVENT_CODECS, type SupervisorEvent } from '../../journal/supervisor-events.js';
import { evolveSupervisor, type SupervisorState } from '../../projections/supervisor.js';

// Every supervisor's state in memory, folded from its stream `supervisor:<id>` at start and kept
// up to date on each append. The streams are small: settings changes, notes and one cost per turn.

const PREFIX = 'supervisor:';
export const supervisorStream = (id: string): string => `${PREFIX}${id}`;

export class SupervisorStore {
  private readonly states = new Map<string, SupervisorState>();
  readonly unreadable: string[] = [];

  constructor(private readonly journal: Journal) {
    for (const stream of journal.streams(PREFIX)) this.fold(stream.slice(PREFIX.length), journal.read(stream));
  }

  get(id: string): SupervisorState | undefined {
    return this.states.get(id);
  }

  /** the global supervisor first, then project supervisors oldest first */
  all(): SupervisorState[] {
    return [...this.states.values()].sort((a, b) => (a.project === null ? -1 : b.project === null ? 1 : a.createdAt < b.createdAt ? -1 : 1));
  }

  append(id: string, events: readonly SupervisorEvent[], at: string): SupervisorState | undefined {
    if (events.length === 0) return this.get(id);
    // costs come from turns while people change settings: a moved head is read and tried again
    for (;;) {
      const r = this.journal.append(supervisorStream(id), this.journal.head(supervisorStream(id)), events, at);
      if (r._tag === 'Stale') continue;
      this.catchUp(id);
      return this.get(id);
    }
  }

  /** folds what landed in the stream since the state was last folded */
  private catchUp(id: string): void {
    this.fold(id, this.journal.read(supervisorStream(id), (this.get(id)?.seq ?? 0) + 1));
  }

  private fold(id: string, stored: readonly Stored[]): void {
    let s = this.get(id) ?? null;
    for (const raw of stored) {
      const d = decodeStored<SupervisorEvent>(SUPERVISOR_EVENT_CODECS, raw);
      if (isUnreadable(d)) {
        this.unreadable.push(`${id}: ${d.detail}`);
        if (s) s = { ...s, seq: raw.seq };
        continue;
      }
      s = evolveSupervisor(s, d as unknown as SupervisorEvent, raw.at, raw.seq);
    }
    if (s) this.states.set(id, s);
  }
}
