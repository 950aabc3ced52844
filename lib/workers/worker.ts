import { nkeyAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import { connectToHub } from './hub-connect.js';
import { Kvm, type KV } from '@nats-io/kv';
import { inboxOf, PRESENCE_BUCKET } from './nats-config.js';
import { encode, type JoinMessage, type JoinReply } from './messages.js';

// `svc worker join`: this machine's side. It connects outward only (so it works behind NAT),
// proves its key, announces what it has, and keeps its presence entry alive while it runs.

export interface JoinToken {
  readonly workerId: string;
  readonly seed: string;
}

/** a join token is `<worker id>.<nkey seed>`, as `svc worker token` printed it once */
export const parseToken = (token: string): JoinToken | string => {
  const m = /^(w[0-9a-z_-]{1,64})\.(SU[A-Z2-7]{50,})$/.exec(token.trim());
  return m ? { workerId: m[1]!, seed: m[2]! } : 'a join token looks like w….SU… (as `svc worker token` printed it)';
};

export interface JoinedWorker {
  readonly workerId: string;
  /** its connection to the hub, for the steps it runs (step-runner.ts) */
  readonly nc: NatsConnection;
  /** resolves when the connection ends (revoked, the hub gone for good, closed) */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

const heartbeat = (kv: KV, workerId: string, slots: number, busy: () => number): Promise<unknown> => kv.put(workerId, encode({ slots, busy: busy() }));

/** `busy`: how many of its slots run a step now, told with each heartbeat */
export const joinHub = async (url: string, token: JoinToken, announce: JoinMessage, busy: () => number = () => 0): Promise<JoinedWorker> => {
  const nc: NatsConnection = await connectToHub(url, {
    name: `svc worker ${token.workerId}`,
    authenticator: nkeyAuthenticator(new TextEncoder().encode(token.seed)),
    inboxPrefix: inboxOf(token.workerId),
    maxReconnectAttempts: -1,
  });
  try {
    const reply = JSON.parse((await nc.request(`svc.w.${token.workerId}.join`, encode(announce), { timeout: 10_000 })).string()) as JoinReply;
    if (!reply.ok) throw new Error(`the hub refused this worker: ${reply.reason}`);
    const kv = await new Kvm(nc).open(PRESENCE_BUCKET);
    await heartbeat(kv, token.workerId, announce.slots, busy);
    // three beats per time to live: one lost beat does not make the worker look lost
    const heartbeatMs = Math.max(250, Math.floor((await kv.status()).ttl / 3));
    const timer = setInterval(() => void heartbeat(kv, token.workerId, announce.slots, busy).catch(() => undefined), heartbeatMs);
    const closed = nc.closed().then(() => clearInterval(timer));
    return { workerId: token.workerId, nc, closed, close: async () => { clearInterval(timer); await nc.close(); } };
  } catch (e) {
    await nc.close();
    throw e;
  }
};
