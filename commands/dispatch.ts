import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { DispatchEvent, MessageKind } from '../journal/dispatch-events.js';
import type { DispatchedStep, Dispatches } from '../projections/dispatch.js';
import { notFound, type Refusal } from './refusal.js';

// The fence (docs/workers.md): a message about a dispatched step is taken only from its current
// claim (the worker and the delivery number it was given); anything from an older claim, or
// after the step ended, is refused and recorded as discarded, and nothing of it is applied.

type Decided = Either<Refusal, DispatchEvent[]>;

export interface WorkerMessage {
  readonly stepId: string;
  readonly workerId: string;
  /** the delivery number of the claim the worker speaks for */
  readonly token: number;
}

const discard = (m: WorkerMessage, kind: MessageKind, reason: string): Decided =>
  right([{ type: 'StepMessageDiscarded', data: { ...m, kind, reason } }]);

const isCurrent = (d: DispatchedStep, m: WorkerMessage): boolean => d.claim?.workerId === m.workerId && d.claim.token === m.token;

const staleReason = (d: DispatchedStep, m: WorkerMessage): string =>
  d.ended ? `the step has ended (${d.ended})` : d.claim ? `claim ${m.token} of ${m.workerId} is not the current one (${d.claim.token} of ${d.claim.workerId})` : 'the step is not claimed';

export const decideDispatch = (s: Dispatches, c: { readonly runId: string; readonly stepId: string }): Decided =>
  right(s.has(c.stepId) ? [] : [{ type: 'StepDispatched', data: { ...c } }]);

// A claim is newer when its delivery number is higher: the server counts deliveries, so a worker
// that claims with a number at or below the current one speaks for a claim already superseded.
export const decideClaim = (s: Dispatches, m: WorkerMessage): Decided => {
  const d = s.get(m.stepId);
  if (!d) return left(notFound('dispatched step', m.stepId));
  if (isCurrent(d, m) && !d.ended) return right([]);
  if (d.ended || (d.claim && m.token <= d.claim.token)) return discard(m, 'claim', staleReason(d, m));
  return right([{ type: 'StepClaimed', data: { ...m } }]);
};

// A result, an event or a renewal: the current claim's is taken (a result ends the step; the
// same result again is a redelivery and changes nothing); any other is discarded.
export const decideWorkerMessage = (s: Dispatches, m: WorkerMessage & { readonly kind: Exclude<MessageKind, 'claim'> }): Decided => {
  const d = s.get(m.stepId);
  if (!d) return left(notFound('dispatched step', m.stepId));
  const { kind, ...msg } = m;
  if (d.ended === 'applied' && isCurrent(d, msg) && kind === 'result') return right([]);
  if (d.ended || !isCurrent(d, msg)) return discard(msg, kind, staleReason(d, msg));
  return right(kind === 'result' ? [{ type: 'StepResultApplied', data: { ...msg } }] : []);
};

export const decideLoseStep = (s: Dispatches, c: { readonly stepId: string; readonly reason: string }): Decided => {
  const d = s.get(c.stepId);
  if (!d) return left(notFound('dispatched step', c.stepId));
  return right(d.ended ? [] : [{ type: 'StepLost', data: { ...c } }]);
};
