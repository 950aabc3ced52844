import type * as t from 'io-ts';
import { decodeStored, isUnreadable } from '../../journal/decode.js';
import type { Journal, Stored } from '../../journal/journal.js';

// A single journal folded into one in-memory state (projects, settings). These streams are small
// (a few events per change a person makes), so they are folded whole at start.
export class FoldedStream<S, E extends { type: string; data: unknown }> {
  private state: S;
  private seq = 0;
  readonly unreadable: string[] = [];

  constructor(
    private readonly journal: Journal,
    readonly stream: string,
    private readonly codecs: Readonly<Record<string, t.Mixed>>,
    initial: S,
    private readonly evolve: (s: S, e: E) => S,
  ) {
    this.state = initial;
    this.apply(journal.read(stream));
  }

  get current(): S {
    return this.state;
  }

  /** Decide against the current state and append; the state moves only when the append lands. */
  append(events: readonly E[], at = new Date().toISOString()): readonly Stored[] {
    const r = this.journal.append(this.stream, this.seq, events, at);
    if (r._tag === 'Stale') throw new Error(`${this.stream} changed underneath (expected ${this.seq}, found ${r.head})`);
    this.apply(r.events);
    return r.events;
  }

  events(): readonly Stored[] {
    return this.journal.read(this.stream);
  }

  private apply(stored: readonly Stored[]): void {
    for (const raw of stored) {
      const d = decodeStored<E>(this.codecs, raw);
      this.seq = raw.seq;
      if (isUnreadable(d)) {
        this.unreadable.push(d.detail);
        continue;
      }
      this.state = this.evolve(this.state, d as unknown as E);
    }
  }
}
