import * as t from 'io-ts';
import { HARNESSES } from '../domain/workflow.js';
import { oneOf, withOptional } from './codec-util.js';

// The machines that run steps for this hub are one journal ('workers', docs/workers.md). A join
// token made for a worker records only the public half of its key (the seed is shown once and
// kept by the worker); a join records what the worker announced; a revocation ends the worker.
const Harness = oneOf(HARNESSES);

export const WORKER_EVENT_CODECS = {
  WorkerTokenCreated: t.type({ workerId: t.string, name: t.string, publicKey: t.string }),
  // what the worker announced when it joined (again after a restart: the latest counts)
  WorkerJoined: withOptional({ workerId: t.string, slots: t.number, harnesses: t.array(Harness), sandbox: t.boolean }, { host: t.string }),
  WorkerRevoked: t.type({ workerId: t.string }),
  // a message from a worker the hub would not take (revoked, unknown): kept as evidence, nothing of it applied
  WorkerMessageRefused: t.type({ workerId: t.string, subject: t.string, reason: t.string }),
} as const;

type Codecs = typeof WORKER_EVENT_CODECS;
export type WorkerEvent = { [K in keyof Codecs]: { readonly type: K; readonly data: t.TypeOf<Codecs[K]> } }[keyof Codecs];
