import * as t from 'io-ts';
import { oneOf } from './codec-util.js';

// Steps dispatched to the worker pool are one journal ('dispatch', docs/workers.md): each
// dispatch, each claim with its delivery number (the fencing token), the one result applied, and
// every message from an older claim, refused and kept as evidence. JetStream does not fence (a
// partitioned worker's late ack is taken): this journal does.

export const MESSAGE_KINDS = ['claim', 'result', 'event', 'renewal'] as const;

// The turn's result as the hub applied it (the worker's, or why its work could not land): what the
// run needs to record the step's end. A hub killed after the record and before the run's own
// record of the end finishes the step from it after its restart (docs/workers.md).
const RecordedResult = t.intersection([
  t.type({ outcome: t.keyof({ success: null, failure: null, interrupted: null }), summary: t.string }),
  t.partial({ sessionId: t.string, costUsd: t.number, usage: t.record(t.string, t.number), model: t.string,
    failure: t.keyof({ quota: null, unavailable: null, watchdog: null, error: null }) }),
]);
export type RecordedResult = t.TypeOf<typeof RecordedResult>;

export const DISPATCH_EVENT_CODECS = {
  StepDispatched: t.type({ runId: t.string, stepId: t.string }),
  StepClaimed: t.type({ stepId: t.string, workerId: t.string, token: t.number }),
  // result: absent in records made before it was kept
  StepResultApplied: t.intersection([t.type({ stepId: t.string, workerId: t.string, token: t.number }), t.partial({ result: RecordedResult })]),
  StepMessageDiscarded: t.type({ stepId: t.string, workerId: t.string, token: t.number, kind: oneOf(MESSAGE_KINDS), reason: t.string }),
  // the pool gave up on it (its last delivery's lease lapsed): the step fails with this reason
  StepLost: t.type({ stepId: t.string, reason: t.string }),
  // the hub heard no renewal of this claim for a lease's length: the claim is no longer the
  // current one (its worker is told so and stops its CLI), and the step waits for its next delivery
  StepLeaseLapsed: t.type({ stepId: t.string, workerId: t.string, token: t.number }),
  // the run was paused or aborted while the step ran on a worker: the step ended on the hub, and
  // whatever its worker sends later is discarded
  StepRecalled: t.type({ stepId: t.string, reason: t.string }),
  // the step is placed on one worker only (pinned, or moved there), that worker is not online, and
  // no live claim holds the step: it waits in that worker's queue until the worker is back (or the
  // run is moved elsewhere); `at` says since when
  StepAwaitingWorker: t.type({ stepId: t.string, workerId: t.string }),
} as const;

type Codecs = typeof DISPATCH_EVENT_CODECS;
export type DispatchEvent = { [K in keyof Codecs]: { readonly type: K; readonly data: t.TypeOf<Codecs[K]> } }[keyof Codecs];
export type MessageKind = (typeof MESSAGE_KINDS)[number];
