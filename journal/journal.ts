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

/** one stream's part of an append across streams */
export interface StreamWrite {
  readonly stream: string;
  readonly expected: number;
  readonly events: readonly NewEvent[];
  /** runs inside the transaction, with this stream's events as stored */
  readonly alsoWrite?: (stored: readonly Stored[]) => void;
}

export type AppendAllResult =
  | { readonly _tag: 'Appended'; readonly events: readonly (readonly Stored[])[] }
  | { readonly _tag: 'Stale'; readonly stream: string; readonly head: number };

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
    const r = this.appendAll([{ stream, expected, events, ...(alsoWrite ? { alsoWrite } : {}) }], at);
    return r._tag === 'Stale' ? { _tag: 'Stale', head: r.head } : { _tag: 'Appended', events: r.events[0]! };
  }

  /**
   * Appends to several streams in ONE transaction: all of them or none. Every expected seq is
   * checked before anything is written, so a stale stream leaves every stream as it was. What
   * two runs record about each other (a follow-up and its source, a restart and its old run) is
   * written this way, so no crash can leave one side without the other. Listeners are told once
   * it is durable, stream by stream in the order given.
   */
  appendAll(writes: readonly StreamWrite[], at: string): AppendAllResult {
    if (new Set(writes.map((w) => w.stream)).size !== writes.length) throw new Error('appendAll: a stream given twice');
    const result = this.store.root.transactionSync((): AppendAllResult => {
      for (const w of writes) {
        const head = this.head(w.stream);
        if (head !== w.expected) return { _tag: 'Stale', stream: w.stream, head };
      }
      return { _tag: 'Appended', events: writes.map((w) => this.write(w, at)) };
    });
    if (result._tag === 'Appended') writes.forEach((w, i) => { if (result.events[i]!.length > 0) this.notify(w.stream, result.events[i]!); });
    return result;
  }

  private write(w: StreamWrite, at: string): Stored[] {
    const stored = w.events.map((e, i) => ({ seq: w.expected + i + 1, at, type: e.type, data: e.data }));
    for (const s of stored) this.events.putSync([w.stream, s.seq], { type: s.type, data: s.data, at: s.at });
    if (stored.length > 0) this.heads.putSync(w.stream, w.expected + stored.length);
    w.alsoWrite?.(stored);
    return stored;
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
