import type * as t from 'io-ts';
import { decodeStored, isUnreadable } from './decode.js';
import type { Journal, Stored } from './journal.js';
import { RUN_EVENT_CODECS, type RunEvent } from './run-events.js';

// Listeners receive decoded, typed events, decoded once per append however many listen: the
// journal tells every listener the same array of an append, so its decoding is kept beside it.
// An event that does not decode is left out (its reader shows it as unreadable: projections/run-state.ts).

export type Recorded<E> = E & { readonly seq: number; readonly at: string };
export type RecordedRunEvent = Recorded<RunEvent>;

type Codecs = Readonly<Record<string, t.Mixed>>;

const decodedOf = new WeakMap<readonly Stored[], Map<Codecs, readonly unknown[]>>();

/** the events of one append decoded with these codecs, the unreadable ones left out */
export const decodeAppend = <E extends { type: string; data: unknown }>(codecs: Codecs, events: readonly Stored[]): readonly Recorded<E>[] => {
  const byCodecs = decodedOf.get(events) ?? new Map<Codecs, readonly unknown[]>();
  decodedOf.set(events, byCodecs);
  const kept = byCodecs.get(codecs);
  if (kept) return kept as readonly Recorded<E>[];
  const decoded = events.map((e) => decodeStored<E>(codecs, e)).filter((d): d is Recorded<E> => !isUnreadable(d));
  byCodecs.set(codecs, decoded);
  return decoded;
};

/** follow every stream `accepts` takes, its events decoded with `codecs` */
export const subscribeDecoded = <E extends { type: string; data: unknown }>(
  journal: Journal, codecs: Codecs, accepts: (stream: string) => boolean,
  listener: (stream: string, events: readonly Recorded<E>[]) => void,
): (() => void) => journal.subscribe((stream, events) => {
  if (accepts(stream)) listener(stream, decodeAppend<E>(codecs, events));
});

/** follow every run's journal: the run's id and its new events, decoded */
export const subscribeRuns = (journal: Journal, listener: (runId: string, events: readonly RecordedRunEvent[]) => void): (() => void) =>
  subscribeDecoded<RunEvent>(journal, RUN_EVENT_CODECS, (stream) => stream.startsWith('run:'), (stream, events) => listener(stream.slice(4), events));
