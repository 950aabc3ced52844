import * as t from 'io-ts';
import { isLeft } from 'fp-ts/lib/Either.js';
import { HARNESSES, type HarnessName } from '../../domain/workflow.js';

// What a worker sends the hub, decoded here, at the door: a worker's text is data, never an
// instruction, and a message that does not decode is refused whole.

const Harness = t.keyof(Object.fromEntries(HARNESSES.map((h) => [h, null])) as Record<HarnessName, null>);

const JoinCodec = t.intersection([
  t.type({ slots: t.number, harnesses: t.array(Harness), sandbox: t.boolean }),
  t.partial({ host: t.string }),
]);
export type JoinMessage = t.TypeOf<typeof JoinCodec>;

const HeartbeatCodec = t.type({ slots: t.number, busy: t.number });
export type Heartbeat = t.TypeOf<typeof HeartbeatCodec>;

export type JoinReply = { readonly ok: true } | { readonly ok: false; readonly reason: string };

const parse = (bytes: Uint8Array): unknown => {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
};

const sane = (m: { slots: number; host?: string }): boolean =>
  Number.isInteger(m.slots) && m.slots >= 1 && m.slots <= 256 && (m.host === undefined || m.host.length <= 255);

/** a join, or why it is refused */
export const decodeJoin = (bytes: Uint8Array): JoinMessage | string => {
  const d = JoinCodec.decode(parse(bytes));
  if (isLeft(d)) return 'a join must be {slots, harnesses, sandbox, host?}';
  return sane(d.right) ? { ...d.right, harnesses: [...new Set(d.right.harnesses)] } : 'slots must be a whole number from 1 to 256, host at most 255 characters';
};

/** a presence entry, or undefined when it does not decode (it is then not counted as present) */
export const decodeHeartbeat = (bytes: Uint8Array): Heartbeat | undefined => {
  const d = HeartbeatCodec.decode(parse(bytes));
  return isLeft(d) ? undefined : d.right;
};

export const encode = (v: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(v));
