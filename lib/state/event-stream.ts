import { isLeft, right, type Either } from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import type { Database, Key } from 'lmdb';
import { decodeStored, isUnreadable, type Unreadable } from '../../journal/decode.js';
import type { Journal, NewEvent, Stored, StreamWrite } from '../../journal/journal.js';
import type { Store } from '../../journal/store.js';

// The one way to change a stream: read its state, decide, append with the expected seq, and fold
// the events just decided (they are ours and typed: they are not decoded again). What a stale
// append means is the caller's choice: refuse it (the person decided on what they saw) or decide
// again on the moved state (a system writer whose decision still holds). Journal reads are decoded
// here and only here: at load, and when another writer moved a stream.

export type Meta = { readonly seq: number; readonly at: string };

/** How one kind of stream is named, decoded and folded. A stream is `prefix + key`. */
export interface StreamKind<S, E extends NewEvent> {
  readonly prefix: string;
  readonly codecs: Readonly<Record<string, t.Mixed>>;
  /** folds one event into the state (null: the stream has no state yet) */
  readonly evolve: (s: S | null, e: E & Meta, key: string) => S | null;
  /** what an event that does not decode leaves behind */
  readonly unreadable: (s: S | null, u: Unreadable, key: string) => S | null;
  /** kept in LMDB in the same transaction as each append, so a restart folds no history */
  readonly snapshot?: SnapshotKind<S>;
}

/**
 * A snapshot's format. A change to the state's shape bumps `version` and adds an upcast from the
 * version before it, so a restart carries old snapshots forward instead of folding every journal
 * again; a snapshot older than the first upcast is refolded from its journal.
 */
export interface SnapshotKind<S> {
  readonly db: string;
  readonly version: number;
  readonly seqOf: (s: S) => number;
  /** upcasts[v] turns a state of version v into one of version v + 1 */
  readonly upcasts?: Readonly<Record<number, (state: unknown) => unknown>>;
}

/** a stored snapshot in the current format, upcast as far as needed; undefined when it cannot be */
export const currentSnapshot = <S>(kind: SnapshotKind<S>, snap: { readonly v: number; readonly state: unknown }): S | undefined => {
  let { v, state } = snap;
  while (v < kind.version) {
    const up = kind.upcasts?.[v];
    if (!up) return undefined;
    state = up(state);
    v += 1;
  }
  return v === kind.version ? (state as S) : undefined;
};

export type StalePolicy = 'refuse' | 'retry';

export interface TransactOptions {
  readonly at: string;
  readonly onStale: StalePolicy;
  /** the seq the caller decided on earlier (a position a person saw); a moved stream is then refused */
  readonly expected?: number;
}

export type Transacted<S, E> =
  | { readonly _tag: 'Appended'; readonly state: S | undefined; readonly events: readonly (E & Meta)[] }
  | { readonly _tag: 'Unchanged'; readonly state: S | undefined }
  | { readonly _tag: 'Stale'; readonly state: S | undefined };

interface Entry<S> { readonly state: S | null; readonly seq: number }

/** One stream's decided part of a write across streams (lib/state/together.ts). */
export interface Planned {
  readonly write: StreamWrite;
  /** the transaction rolled back: so does the state */
  undo(): void;
  /** the stream was stale: fold what moved it */
  moved(): void;
}
interface Snapshot<S> { readonly v: number; readonly state: S }

// A writer that keeps losing to others is told so rather than spinning.
const MAX_TRIES = 5;

export class EventStream<S, E extends NewEvent> {
  private readonly entries = new Map<string, Entry<S>>();
  private readonly snapshots: Database<Snapshot<S>, Key> | null;

  constructor(private readonly journal: Journal, private readonly kind: StreamKind<S, E>, store?: Store) {
    if (kind.snapshot && !store) throw new Error(`${kind.prefix} streams keep snapshots: give the store`);
    this.snapshots = kind.snapshot && store ? store.db<Snapshot<S>>(kind.snapshot.db) : null;
  }

  stream(key: string): string {
    return this.kind.prefix + key;
  }

  /** every stream of this kind, each from its snapshot when there is a current one */
  load(): void {
    const n = this.kind.prefix.length;
    for (const stream of this.journal.streams(this.kind.prefix)) this.loadKey(stream.slice(n));
  }

  loadKey(key: string): void {
    const snap = this.snapshots?.get(this.stream(key));
    const state = snap && this.kind.snapshot ? currentSnapshot(this.kind.snapshot, snap) : undefined;
    if (state !== undefined) this.entries.set(key, { state, seq: this.kind.snapshot!.seqOf(state) });
    else this.entries.delete(key);
    this.catchUp(key);
  }

  get(key: string): S | undefined {
    return this.entries.get(key)?.state ?? undefined;
  }

  *all(): IterableIterator<S> {
    for (const e of this.entries.values()) if (e.state !== null) yield e.state;
  }

  get size(): number {
    return this.entries.size;
  }

  transact<L>(key: string, decide: (s: S | undefined) => Either<L, readonly E[]>, o: TransactOptions): Either<L, Transacted<S, E>> {
    for (let tries = 1; ; tries++) {
      const current = this.entries.get(key);
      const d = decide(current?.state ?? undefined);
      if (isLeft(d)) return d;
      if (d.right.length === 0) return right({ _tag: 'Unchanged', state: current?.state ?? undefined });
      const done = this.commit(key, current, d.right, o.at, o.expected ?? current?.seq ?? 0);
      if (done) return right(done);
      const moved = this.catchUp(key);
      if (o.onStale === 'refuse' || o.expected !== undefined || tries >= MAX_TRIES) return right({ _tag: 'Stale', state: moved });
    }
  }

  /** Decides on the state as it is now, for a write across streams; null when nothing is decided. */
  plan<L>(key: string, decide: (s: S | undefined) => Either<L, readonly E[]>, expected?: number): Either<L, Planned | null> {
    const before = this.entries.get(key);
    const d = decide(before?.state ?? undefined);
    if (isLeft(d)) return d;
    if (d.right.length === 0) return right(null);
    const events = d.right;
    return right({
      write: { stream: this.stream(key), expected: expected ?? before?.seq ?? 0, events, alsoWrite: (stored) => void this.fold(key, before, events, stored) },
      undo: () => this.restore(key, before),
      moved: () => void this.catchUp(key),
    });
  }

  private commit(key: string, before: Entry<S> | undefined, events: readonly E[], at: string, expected: number): Transacted<S, E> | null {
    let decided: (E & Meta)[] = [];
    try {
      const r = this.journal.append(this.stream(key), expected, events, at, (stored) => { decided = this.fold(key, before, events, stored); });
      if (r._tag === 'Stale') return null;
    } catch (err) {
      this.restore(key, before);
      throw err;
    }
    return { _tag: 'Appended', state: this.get(key), events: decided };
  }

  // inside the append's transaction: the snapshot is written with the events, and the state is
  // set before the journal tells its listeners, so they read the state the events made
  private fold(key: string, before: Entry<S> | undefined, events: readonly E[], stored: readonly Stored[]): (E & Meta)[] {
    const decided = events.map((e, i) => ({ ...e, seq: stored[i]!.seq, at: stored[i]!.at }));
    const state = decided.reduce<S | null>((s, e) => this.kind.evolve(s, e, key), before?.state ?? null);
    if (this.snapshots && state !== null) this.snapshots.putSync(this.stream(key), { v: this.kind.snapshot!.version, state });
    this.entries.set(key, { state, seq: decided[decided.length - 1]!.seq });
    return decided;
  }

  // the transaction rolled back: so does the state
  private restore(key: string, before: Entry<S> | undefined): void {
    if (before) this.entries.set(key, before);
    else this.entries.delete(key);
  }

  /** folds what other writers appended since the state was last folded */
  private catchUp(key: string): S | undefined {
    const entry = this.entries.get(key) ?? { state: null, seq: 0 };
    let { state, seq } = entry;
    for (const raw of this.journal.read(this.stream(key), seq + 1)) {
      state = this.foldStored(state, raw, key);
      seq = raw.seq;
    }
    if (seq !== entry.seq) this.entries.set(key, { state, seq });
    return state ?? undefined;
  }

  private foldStored(s: S | null, raw: Stored, key: string): S | null {
    const d = decodeStored<E>(this.kind.codecs, raw);
    return isUnreadable(d) ? this.kind.unreadable(s, d, key) : this.kind.evolve(s, d as unknown as E & Meta, key);
  }
}

/** One stream alone (projects, settings): an EventStream with one key and a state from the start. */
export class SingleStream<S, E extends NewEvent> {
  private readonly streams: EventStream<S, E>;

  constructor(private readonly journal: Journal, name: string, codecs: StreamKind<S, E>['codecs'], private readonly initial: S, evolve: (s: S, e: E) => S) {
    this.streams = new EventStream<S, E>(journal, { prefix: name, codecs, evolve: (s, e) => evolve(s ?? initial, e), unreadable: (s) => s });
    this.streams.loadKey('');
  }

  get stream(): string {
    return this.streams.stream('');
  }

  get current(): S {
    return this.streams.get('') ?? this.initial;
  }

  transact<L>(decide: (s: S) => Either<L, readonly E[]>, o: TransactOptions): Either<L, Transacted<S, E>> {
    return this.streams.transact('', (s) => decide(s ?? this.initial), o);
  }

  events(): readonly Stored[] {
    return this.journal.read(this.stream);
  }
}
