import * as t from 'io-ts';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { Stored } from './journal.js';

// The journal-read boundary: stored events are decoded here and nowhere else. An event that does
// not decode becomes an Unreadable marker with the reason instead of an exception.

export type Decoded<E> = ({ readonly seq: number; readonly at: string } & E) | Unreadable;

export interface Unreadable {
  readonly seq: number;
  readonly at: string;
  readonly type: 'Unreadable';
  readonly storedType: string;
  readonly detail: string;
}

const describe = (errors: t.Errors): string =>
  errors
    .slice(0, 3)
    .map((e) => e.context.map((c) => c.key).filter(Boolean).join('.') || 'data')
    .join(', ');

export const decodeStored = <E extends { type: string; data: unknown }>(codecs: Readonly<Record<string, t.Mixed>>, s: Stored): Decoded<E> => {
  const codec = Object.prototype.hasOwnProperty.call(codecs, s.type) ? codecs[s.type] : undefined;
  if (!codec) return { seq: s.seq, at: String(s.at), type: 'Unreadable', storedType: String(s.type), detail: `unknown event type ${String(s.type)}` };
  const r = codec.decode(s.data);
  if (isLeft(r)) return { seq: s.seq, at: s.at, type: 'Unreadable', storedType: s.type, detail: `event ${s.seq} (${s.type}) has bad ${describe(r.left)}` };
  return { seq: s.seq, at: s.at, type: s.type, data: r.right } as unknown as Decoded<E>;
};

export const isUnreadable = <E>(d: Decoded<E>): d is Unreadable => (d as { type: string }).type === 'Unreadable';
