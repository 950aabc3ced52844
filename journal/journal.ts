import type { Database, Key } from 'lmdb';
import type { Store } from './store.js';

// The append-only store. A stream's events are keys [stream, seq] in one sub-database, so a stream
// is one ordered range. Append checks the expected seq inside one synchronous LMDB transaction:
// a mismatch is a normal Stale answer, never an exception.

export interface NewEvent {
  readonly type: string;
  readonly data: unknown;
}

export interface Stored extends NewEvent {
  readonly seq: number;
  readonly at: string;
}

export type AppendResult =
  | { readonly _tag: 'Appended'; readonly events: readonly Stored[] }
  | { readonly _tag: 'Stale'; readonly head: number };

export type Listener = (stream: string, events: readonly Stored[]) => void;

interface StoredValue {
  readonly type: string;
  readonly data: unknown;
  readonly at: string;
}

export class Journal {
  private readonly events: Database<StoredValue, Key>;
  private readonly heads: Database<number, Key>;
  private readonly listeners = new Set<Listener>();
  /** appends made by listeners while they are being told of one: told after it, in order */
  private readonly told: Array<[string, readonly Stored[]]> = [];
  private telling = false;

  constructor(private readonly store: Store) {
    this.events = store.db<StoredValue>('events');
    this.heads = store.db<number>('heads');
  }

  head(stream: string): number {
    return this.heads.get(stream) ?? 0;
  }

  /** `alsoWrite` runs inside the same transaction (snapshots), so a snapshot never runs ahead of its events. */
  append(stream: string, expected: number, events: readonly NewEvent[], at: string, alsoWrite?: (stored: readonly Stored[]) => void): AppendResult {
    if (events.length === 0) return { _tag: 'Appended', events: [] };
    const result = this.store.root.transactionSync((): AppendResult => {
      const head = this.head(stream);
      if (head !== expected) return { _tag: 'Stale', head };
      const stored = events.map((e, i) => ({ seq: head + i + 1, at, type: e.type, data: e.data }));
      for (const s of stored) this.events.putSync([stream, s.seq], { type: s.type, data: s.data, at: s.at });
      this.heads.putSync(stream, head + stored.length);
      alsoWrite?.(stored);
      return { _tag: 'Appended', events: stored };
    });
    if (result._tag === 'Appended') this.notify(stream, result.events);
    return result;
  }

  /** Events with from <= seq <= to, oldest first. */
  read(stream: string, from = 1, to = Number.MAX_SAFE_INTEGER): Stored[] {
    const out: Stored[] = [];
    for (const { key, value } of this.events.getRange({ start: [stream, from], end: [stream, to + 1] })) {
      out.push({ seq: (key as [string, number])[1], at: value.at, type: value.type, data: value.data });
    }
    return out;
  }

  /** Up to `size` events before seq `before` (default: the newest), oldest first; reads only the page. */
  page(stream: string, before: number | undefined, size: number): Stored[] {
    const start = Math.min(before ?? Number.MAX_SAFE_INTEGER, this.head(stream) + 1) - 1;
    if (start < 1) return [];
    const out: Stored[] = [];
    for (const { key, value } of this.events.getRange({ start: [stream, start], end: [stream, 0], reverse: true, limit: size })) {
      out.push({ seq: (key as [string, number])[1], at: value.at, type: value.type, data: value.data });
    }
    return out.reverse();
  }

  /** Names of streams that start with `prefix`. */
  streams(prefix: string): string[] {
    const out: string[] = [];
    for (const key of this.heads.getKeys({ start: prefix, end: prefix + '\uffff' })) out.push(String(key));
    return out;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // A listener may append (a process manager recording what its reaction did). That append is told
  // to every listener after the one being told, never inside it: each listener sees a stream's
  // events in seq order. All of it happens before the outer append returns, so its caller reads
  // the state the reactions left.
  private notify(stream: string, events: readonly Stored[]): void {
    this.told.push([stream, events]);
    if (this.telling) return;
    this.telling = true;
    try {
      for (let next = this.told.shift(); next; next = this.told.shift()) this.tell(...next);
    } finally {
      this.telling = false;
    }
  }

  private tell(stream: string, events: readonly Stored[]): void {
    for (const l of this.listeners) {
      try {
        l(stream, events);
      } catch (err) {
        // A listener's fault must not undo or hide an append that is already durable.
        console.error('journal listener failed', err);
      }
    }
  }
}
