import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { DispatchEvent, MessageKind, RecordedResult } from '../journal/dispatch-events.js';
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
  /** the worker is revoked (read from the 'workers' journal): nothing it sends counts any more */
  readonly revoked?: boolean;
}

const discard = ({ stepId, workerId, token }: WorkerMessage, kind: MessageKind, reason: string): Decided =>
  right([{ type: 'StepMessageDiscarded', data: { stepId, workerId, token, kind, reason } }]);

const isCurrent = (d: DispatchedStep, m: WorkerMessage): boolean => !m.revoked && d.claim?.workerId === m.workerId && d.claim.token === m.token && !d.claim.lapsed;

const staleReason = (d: DispatchedStep, m: WorkerMessage): string =>
  m.revoked ? `worker ${m.workerId} is revoked`
  : d.ended ? `the step has ended (${d.ended})`
  : d.claim?.lapsed && d.claim.token === m.token && d.claim.workerId === m.workerId ? `the lease of claim ${m.token} of ${m.workerId} lapsed`
  : d.claim ? `claim ${m.token} of ${m.workerId} is not the current one (${d.claim.token} of ${d.claim.workerId})` : 'the step is not claimed';

/**
 * the step ended with this claim's result applied: its worker's later words about it (the work's
 * parts sent again, a renewal asking whether its result is in) are answered, not recorded discarded
 */
export const appliedBy = (d: DispatchedStep | undefined, m: Omit<WorkerMessage, 'revoked'>): boolean =>
  d?.ended === 'applied' && d.claim?.workerId === m.workerId && d.claim.token === m.token;

export const decideDispatch = (s: Dispatches, c: { readonly runId: string; readonly stepId: string }): Decided =>
  right(s.has(c.stepId) ? [] : [{ type: 'StepDispatched', data: { ...c } }]);

// A claim is newer when its delivery number is higher: the server counts deliveries, so a worker
// that claims with a number at or below the current one speaks for a claim already superseded.
export const decideClaim = (s: Dispatches, m: WorkerMessage): Decided => {
  const d = s.get(m.stepId);
  if (!d) return left(notFound('dispatched step', m.stepId));
  if (isCurrent(d, m) && !d.ended) return right([]);
  if (m.revoked || d.ended || (d.claim && m.token <= d.claim.token)) return discard(m, 'claim', staleReason(d, m));
  return right([{ type: 'StepClaimed', data: { stepId: m.stepId, workerId: m.workerId, token: m.token } }]);
};

// A result, an event or a renewal: the current claim's is taken (a result ends the step, recorded
// with the `result` applied, so a hub killed before its run records the end can make it from the
// record; the same result again is a redelivery and changes nothing); any other is discarded.
export const decideWorkerMessage = (s: Dispatches, m: WorkerMessage & { readonly kind: Exclude<MessageKind, 'claim'>; readonly result?: RecordedResult }): Decided => {
  const d = s.get(m.stepId);
  if (!d) return left(notFound('dispatched step', m.stepId));
  const { kind, result, ...msg } = m;
  if (d.ended === 'applied' && isCurrent(d, msg) && kind === 'result') return right([]);
  if (d.ended || !isCurrent(d, msg)) return discard(msg, kind, staleReason(d, msg));
  return right(kind === 'result' ? [{ type: 'StepResultApplied', data: { stepId: m.stepId, workerId: m.workerId, token: m.token, ...(result ? { result } : {}) } }] : []);
};

// No renewal of the current claim for a lease's length (the hub's clock): the claim stops being
// the current one. A claim already lapsed, superseded or ended: nothing.
export const decideLapse = (s: Dispatches, m: WorkerMessage): Decided => {
  const d = s.get(m.stepId);
  if (!d) return left(notFound('dispatched step', m.stepId));
  return right(!d.ended && isCurrent(d, m) ? [{ type: 'StepLeaseLapsed', data: { stepId: m.stepId, workerId: m.workerId, token: m.token } }] : []);
};

/** the run was paused or aborted while the step ran on a worker: the step ends here */
export const decideRecall = (s: Dispatches, c: { readonly stepId: string; readonly reason: string }): Decided => {
  const d = s.get(c.stepId);
  if (!d) return left(notFound('dispatched step', c.stepId));
  return right(d.ended ? [] : [{ type: 'StepRecalled', data: { ...c } }]);
};

export const decideLoseStep = (s: Dispatches, c: { readonly stepId: string; readonly reason: string }): Decided => {
  const d = s.get(c.stepId);
  if (!d) return left(notFound('dispatched step', c.stepId));
  return right(d.ended ? [] : [{ type: 'StepLost', data: { ...c } }]);
};
