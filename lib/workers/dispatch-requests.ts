import { readFileSync } from 'node:fs';
import type { Msg, NatsConnection } from '@nats-io/transport-node';
import { encode } from './messages.js';
import { AskCodec, decodeWith, type Ask } from './remote-messages.js';
import { relayToolsCall } from './tools-relay.js';
import { BUNDLE_CHUNK, type Fence, type Pending } from './dispatch-port.js';

// What a worker asks the hub about the step it holds (docs/workers.md): to take its claim, a part
// of the dispatch bundle, a run-tools call. The subject names the worker (its credentials allow
// only its own), the request is decoded at the door, and each is answered only for the step's
// current claim, as the journal's fence has it.

const NOT_CURRENT = 'not the current claim';

export const serveRequests = (nc: NatsConnection, fence: Fence, pending: (stepId: string) => Pending | undefined): void => {
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
  on('claim', async (workerId, a) => (fence.claimed({ stepId: a.stepId, workerId, token: a.token }) ? { ok: true } : { ok: false, reason: NOT_CURRENT }));
  on('bundle', async (workerId, a) => {
    const p = held(workerId, a);
    if (!p) return { ok: false, reason: NOT_CURRENT };
    const bytes = readFileSync(p.bundle);
    const index = a.index ?? 0;
    return { ok: true, of: Math.max(1, Math.ceil(bytes.length / BUNDLE_CHUNK)), data: bytes.subarray(index * BUNDLE_CHUNK, (index + 1) * BUNDLE_CHUNK).toString('base64') };
  });
  on('tools', async (workerId, a) => {
    const p = held(workerId, a);
    if (!p) return { status: 409, type: 'application/json', body: JSON.stringify({ detail: NOT_CURRENT }) };
    return relayToolsCall(p.input.runTools, a.body ?? '');
  });
};
