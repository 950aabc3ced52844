import { existsSync, readFileSync } from 'node:fs';
import type { Msg, NatsConnection } from '@nats-io/transport-node';
import { encode } from './messages.js';
import { AskCodec, decodeWith, type Ask } from './remote-messages.js';
import { relayToolsCall } from './tools-relay.js';
import { BUNDLE_CHUNK, type Fence, type Pending } from './dispatch-port.js';
import { bundleForWorker } from './run-bundle.js';
import { appliedBy } from '../../commands/dispatch.js';

// What a worker asks the hub about the step it holds (docs/workers.md): to take its claim, to renew
// its lease, a part of the dispatch bundle or of the resumed session's files, a run-tools call. The subject names the worker (its
// credentials allow only its own), the request is decoded at the door, and each is answered only
// for the step's current claim, as the journal's fence has it. A claim or renewal refused says
// whether the step has ended (the worker then takes it out of the queue) or only its claim is gone.

const NOT_CURRENT = 'not the current claim';

type Claim = { stepId: string; workerId: string; token: number };

export interface RequestHooks {
  pending(stepId: string): Pending | undefined;
  /** a claim taken or renewed: its lease runs from now */
  leased(c: Claim, fresh: boolean): void;
}

// what each step's bundle for a worker's cache was cut at (made once for the parts asked one by one)
const cut = new WeakMap<Pending, { key: string; thin: boolean; kept: number }>();

/**
 * The dispatch bundle as a worker asks for it (What moves): whole (made once, for every attempt),
 * or cut at the commits its cache has (`have`) that the hub has too. Its size goes in the run's log.
 */
const codeFor = async (p: Pending, workerId: string, a: Ask): Promise<Buffer> => {
  const have = a.have ?? [];
  const file = have.length > 0 ? `${p.bundle}.thin` : p.bundle;
  const key = `${a.token} ${have.join(',')}`;
  let made = have.length > 0 ? cut.get(p) : { key, thin: false, kept: 0 };
  if (have.length > 0 ? made?.key !== key : !existsSync(file)) {
    const r = await bundleForWorker(p.input.cwd, a.stepId, file, have);
    made = { key, ...r };
    if (have.length > 0) cut.set(p, made);
  }
  const bytes = readFileSync(file);
  if ((a.index ?? 0) === 0) {
    p.input.onLog({ text: `[hub] the step's code goes to worker ${workerId} as ${made!.thin ? `a bundle of ${bytes.length} bytes, only what is new since ${made!.kept} commits it has` : `a whole bundle of ${bytes.length} bytes`}` });
  }
  return bytes;
};

export const serveRequests = (nc: NatsConnection, fence: Fence, hooks: RequestHooks): void => {
  const { pending } = hooks;
  const on = (what: string, answer: (workerId: string, a: Ask) => Promise<unknown>) => nc.subscribe(`svc.w.*.${what}`, {
    callback: (err, m: Msg) => {
      if (err) return;
      const workerId = m.subject.split('.')[2] ?? '';
      const a = decodeWith(AskCodec, m.data, `a ${what} request`);
      const reply = typeof a === 'string' ? Promise.resolve({ ok: false, reason: a }) : answer(workerId, a).catch((e: unknown) => ({ ok: false, reason: String(e) }));
      void reply.then((r) => m.respond(encode(r)));
    },
  });
  const held = (workerId: string, a: Ask): Pending | undefined => {
    const p = pending(a.stepId);
    return p && fence.holds({ stepId: a.stepId, workerId, token: a.token }) ? p : undefined;
  };
  const refusal = (stepId: string) => {
    const d = fence.step(stepId);
    return { ok: false, reason: d?.ended ? `the step has ended (${d.ended})` : NOT_CURRENT, ended: !!d?.ended };
  };
  const lease = (fresh: boolean, take: (c: Claim) => boolean) => async (workerId: string, a: Ask) => {
    const c = { stepId: a.stepId, workerId, token: a.token };
    if (!take(c)) return refusal(a.stepId);
    hooks.leased(c, fresh);
    return { ok: true };
  };
  on('claim', lease(true, (c) => fence.claimed(c)));
  // the claim whose result was applied asks whether it is in (step-control.ts, settle): it is, and
  // that is no stale message to record
  const renew = lease(false, (c) => fence.admit(c, 'renewal'));
  on('renew', async (workerId, a) => appliedBy(fence.step(a.stepId), { stepId: a.stepId, workerId, token: a.token }) ? refusal(a.stepId) : renew(workerId, a));
  const part = (bytes: Buffer, index: number) => ({ ok: true, of: Math.max(1, Math.ceil(bytes.length / BUNDLE_CHUNK)), data: bytes.subarray(index * BUNDLE_CHUNK, (index + 1) * BUNDLE_CHUNK).toString('base64') });
  on('bundle', async (workerId, a) => {
    const p = held(workerId, a);
    return p ? part(await codeFor(p, workerId, a), a.index ?? 0) : { ok: false, reason: NOT_CURRENT };
  });
  // the resumed session's files as of its last step end (sessions move)
  on('session', async (workerId, a) => {
    const p = held(workerId, a);
    return !p ? { ok: false, reason: NOT_CURRENT } : p.session ? part(p.session, a.index ?? 0) : { ok: false, reason: 'the hub has no files of this session' };
  });
  on('tools', async (workerId, a) => {
    const p = held(workerId, a);
    if (!p) return { status: 409, type: 'application/json', body: JSON.stringify({ detail: NOT_CURRENT }) };
    return relayToolsCall(p.input.runTools, a.body ?? '');
  });
};
