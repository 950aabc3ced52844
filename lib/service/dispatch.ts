import { isLeft } from 'fp-ts/lib/Either.js';
import { decideClaim, decideDispatch, decideLapse, decideLoseStep, decideRecall, decideWorkerMessage } from '../../commands/dispatch.js';
import { decideAwaitWorker } from '../../commands/await-worker.js';
import type { DispatchStream } from '../state/dispatch.js';
import type { AppliedMessages } from '../state/applied-messages.js';
import type { Fence } from '../workers/dispatch-port.js';
import type { TurnResult } from '../harness/adapter.js';
import type { RecordedResult } from '../../journal/dispatch-events.js';

// The write handlers of the fence (docs/workers.md): each asks one decide of commands/dispatch.ts
// and records it in the 'dispatch' journal. A worker's message is applied only when its answer is
// true; otherwise it was recorded as discarded (or refused as unknown) and nothing of it applies.

/**
 * `refused`: records a worker's message that did not decode (the 'workers' journal's WorkerMessageRefused);
 * `revoked`: whether a worker is revoked (the 'workers' journal): its claims and messages are discarded;
 * `applied`: the ids of the worker messages applied, recorded with what applying them wrote
 */
// what of a turn's result the step's end needs, as the journal keeps it
const recordOf = ({ outcome, summary, sessionId, costUsd, usage, model, failure }: TurnResult): RecordedResult => ({
  outcome, summary, ...(sessionId ? { sessionId } : {}), ...(costUsd === undefined ? {} : { costUsd }), ...(usage ? { usage } : {}),
  ...(model ? { model } : {}), ...(failure ? { failure } : {}),
});

export const fenceOf = (stream: DispatchStream, now: () => Date, refused: Fence['refused'], revoked: (workerId: string) => boolean, applied: AppliedMessages): Fence => {
  const at = () => ({ at: now().toISOString(), onStale: 'retry' as const });
  const appended = (d: ReturnType<DispatchStream['transact']>, refused: string): boolean =>
    !isLeft(d) && !(d.right._tag === 'Appended' && d.right.events.some((e) => e.type === refused));
  return {
    dispatched: (runId, stepId) => void stream.transact((s) => decideDispatch(s, { runId, stepId }), at()),
    claimed: (m) => appended(stream.transact((s) => decideClaim(s, { ...m, revoked: revoked(m.workerId) }), at()), 'StepMessageDiscarded'),
    admit: (m, kind, result) => appended(stream.transact((s) => decideWorkerMessage(s, { ...m, kind, revoked: revoked(m.workerId), ...(result ? { result: recordOf(result) } : {}) }), at()), 'StepMessageDiscarded'),
    holds: (m) => {
      const d = stream.current.get(m.stepId);
      return !!d && !d.ended && !revoked(m.workerId) && d.claim?.workerId === m.workerId && d.claim.token === m.token && !d.claim.lapsed;
    },
    lost: (stepId, reason) => void stream.transact((s) => decideLoseStep(s, { stepId, reason }), at()),
    lapsed: (m) => void stream.transact((s) => decideLapse(s, m), at()),
    recalled: (stepId, reason) => void stream.transact((s) => decideRecall(s, { stepId, reason }), at()),
    awaiting: (stepId, workerId) => void stream.transact((s) => decideAwaitWorker(s, { stepId, workerId }), at()),
    step: (stepId) => stream.current.get(stepId),
    refused,
    once: (id, apply) => applied.once(id, now().toISOString(), apply),
  };
};
