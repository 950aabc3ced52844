import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { WorkerEvent } from '../journal/worker-events.js';
import type { Announced, Workers } from '../projections/workers.js';
import { conflict, forbidden, notFound, type Refusal } from './refusal.js';

// The hub's commands on the 'workers' journal (docs/workers.md).

type Decided = Either<Refusal, WorkerEvent[]>;

export interface CreateWorkerToken {
  readonly workerId: string;
  readonly name: string;
  readonly publicKey: string;
}

// The id is new each time (the caller makes it): the same id twice is a mistake, not a repeat.
export const decideCreateWorkerToken = (s: Workers, c: CreateWorkerToken): Decided =>
  s.has(c.workerId) ? left(conflict(`worker ${c.workerId} already has a token`)) : right([{ type: 'WorkerTokenCreated', data: { ...c } }]);

const same = (a: Announced | undefined, b: Announced): boolean =>
  !!a && a.slots === b.slots && a.sandbox === b.sandbox && a.host === b.host && a.harnesses.join() === b.harnesses.join();

// A join is taken from a known worker that is not revoked; the same announcement again (a
// reconnect) records nothing.
export const decideJoinWorker = (s: Workers, c: { readonly workerId: string } & Announced): Decided => {
  const w = s.get(c.workerId);
  if (!w) return left(notFound('worker', c.workerId));
  if (w.revoked) return left(forbidden(`worker ${c.workerId} is revoked`));
  const { workerId, ...announced } = c;
  return right(same(w.announced, announced) ? [] : [{ type: 'WorkerJoined', data: { workerId, ...announced, harnesses: [...announced.harnesses] } }]);
};

export const decideRevokeWorker = (s: Workers, c: { readonly workerId: string }): Decided => {
  const w = s.get(c.workerId);
  if (!w) return left(notFound('worker', c.workerId));
  return right(w.revoked ? [] : [{ type: 'WorkerRevoked', data: { workerId: c.workerId } }]);
};

// Each refused message is its own piece of evidence, recorded every time.
export const decideRefuseWorkerMessage = (_s: Workers, c: { readonly workerId: string; readonly subject: string; readonly reason: string }): Decided =>
  right([{ type: 'WorkerMessageRefused', data: { ...c } }]);
