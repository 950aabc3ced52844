import { isLeft, left, right } from 'fp-ts/lib/Either.js';
import { nkeys } from '@nats-io/transport-node';
import { decideCreateWorkerToken, decideJoinWorker, decideRefuseWorkerMessage, decideRevokeWorker } from '../../commands/workers.js';
import { invalid, refusalText, type Outcome } from '../../commands/refusal.js';
import type { Announced, WorkerRecord } from '../../projections/workers.js';
import type { ServiceCore } from './core.js';

// The write handlers of the worker pool (docs/workers.md): make a join token, take a join,
// revoke a worker. Each gathers its facts, asks one decide and records it in the 'workers' journal.

const at = (core: ServiceCore) => ({ at: core.now().toISOString(), onStale: 'retry' as const });

const NAME = /^[\p{L}\p{N} ._-]{1,64}$/u;

/** a new worker's key pair: its public key is recorded, its seed is returned once, in the token */
export const createWorkerToken = (core: ServiceCore, name: string): Outcome<{ worker: WorkerRecord; token: string }> => {
  if (!NAME.test(name)) return left(invalid('a worker name is 1 to 64 letters, digits, spaces, dots, dashes or underscores'));
  const pair = nkeys.createUser();
  const workerId = core.newId('w');
  const d = core.workers.transact((s) => decideCreateWorkerToken(s, { workerId, name, publicKey: pair.getPublicKey() }), at(core));
  if (isLeft(d)) return d;
  const worker = core.workers.current.get(workerId)!;
  return right({ worker, token: `${workerId}.${new TextDecoder().decode(pair.getSeed())}` });
};

export const revokeWorker = (core: ServiceCore, workerId: string): Outcome<{ worker: WorkerRecord }> => {
  const d = core.workers.transact((s) => decideRevokeWorker(s, { workerId }), at(core));
  if (isLeft(d)) return d;
  return right({ worker: core.workers.current.get(workerId)! });
};

/** a worker's message the hub could not decode, kept as evidence */
export const refuseWorkerMessage = (core: ServiceCore, workerId: string, subject: string, reason: string): void =>
  void core.workers.transact((s) => decideRefuseWorkerMessage(s, { workerId, subject, reason }), at(core));

/** a worker's join as the hub received it (already decoded, or why it did not decode) */
export const joinWorker = (core: ServiceCore, workerId: string, join: Announced | string): { ok: true } | { ok: false; reason: string } => {
  const refuse = (reason: string) => {
    core.workers.transact((s) => decideRefuseWorkerMessage(s, { workerId, subject: `svc.w.${workerId}.join`, reason }), at(core));
    return { ok: false as const, reason };
  };
  if (typeof join === 'string') return refuse(join);
  const d = core.workers.transact((s) => decideJoinWorker(s, { workerId, ...join }), at(core));
  return isLeft(d) ? refuse(refusalText(d.left)) : { ok: true };
};
