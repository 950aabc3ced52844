import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect, nkeyAuthenticator, nkeys, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { writePrivateFile } from '../private-file.js';
import { PRESENCE_BUCKET, type WorkerUser } from './nats-config.js';
import { startNatsServer, type NatsServer } from './nats-server.js';
import { pinnedTls } from './hub-tls.js';
import { decodeHeartbeat, decodeJoin, encode, type Heartbeat, type JoinMessage, type JoinReply } from './messages.js';
import { Dispatcher, type DispatchWorld } from './dispatcher.js';
import type { Fence } from './dispatch-port.js';
import type { QueueOptions } from './step-queue.js';

// The hub's side of the worker pool: its NATS server (started from PATH, or the user's own at
// SVC_NATS_URL), its connection, the presence bucket and the join subject. It holds no state of
// its own: who may connect comes from the 'workers' journal (given as `users`), and what a join
// means is decided by the caller (`onJoin`), which records it.

export interface HubOptions {
  /** ~/.svc/nats: the config, the store and the hub's own key, owner-only */
  readonly dir: string;
  /** host:port the server listens on (default 127.0.0.1:4222; port -1 picks a free one) */
  readonly listen: string;
  /** the user's own NATS (its users and permissions are then the user's to set); none: start nats-server */
  readonly externalUrl?: string;
  /** a presence entry lives this long after the last heartbeat */
  readonly presenceTtlMs: number;
  onJoin(workerId: string, join: JoinMessage | string): Promise<JoinReply>;
}

export interface Presence {
  readonly workerId: string;
  readonly heartbeat: Heartbeat;
}

export const DEFAULT_PRESENCE_TTL_MS = 15_000;

const DRAIN_MS = 5_000;

const hubSeed = (dir: string): Uint8Array => {
  const file = join(dir, 'hub.nk');
  if (!existsSync(file)) writePrivateFile(file, new TextDecoder().decode(nkeys.createUser().getSeed()));
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
};

/** the hub's connection to its NATS is down: since when, and why, as the client last told */
export interface HubDown {
  readonly since: string;
  readonly why: string;
}

// the presence bucket's stream, and the prefix of its subjects (one per worker id)
const PRESENCE_STREAM = `KV_${PRESENCE_BUCKET}`;
const PRESENCE_PREFIX = `$KV.${PRESENCE_BUCKET}.`;

export class Hub {
  private down: HubDown | null = null;
  /** since when svc is closing the connection (svc is stopping): a read now says so rather than waiting */
  private closing: string | null = null;

  private constructor(
    readonly url: string,
    private readonly nc: NatsConnection,
    private readonly kv: KV,
    private readonly jsm: JetStreamManager,
    private readonly server: NatsServer | undefined,
    private readonly hubKey: string,
  ) {}

  static async start(o: HubOptions, users: readonly WorkerUser[]): Promise<Hub> {
    const seed = hubSeed(o.dir);
    const hubKey = nkeys.fromSeed(seed).getPublicKey();
    const server = o.externalUrl ? undefined : await startNatsServer(o.dir, o.listen, { hubKey, workers: users });
    const url = o.externalUrl ?? server!.url;
    try {
      const tls = server?.tls ? { tls: pinnedTls(server.tls.pem, server.tls.fingerprint) } : {};
      // reconnects for ever, and through a moment when a reloading server refuses keys: the hub's
      // connection closes only when svc closes it
      const nc = await connect({
        servers: url, ...(server ? { authenticator: nkeyAuthenticator(seed) } : {}), ...tls, name: 'svc hub',
        maxReconnectAttempts: -1, ignoreAuthErrorAbort: true, reconnectTimeWait: 500,
      });
      const kv = await new Kvm(nc).create(PRESENCE_BUCKET, { ttl: o.presenceTtlMs, history: 1 });
      const jsm = await jetstreamManager(nc, { checkAPI: false });
      // workers join by the server's join address (tls://…#sha256=… beyond loopback)
      const hub = new Hub(o.externalUrl ?? server!.joinUrl, nc, kv, jsm, server, hubKey);
      hub.listen(o);
      void hub.watch();
      return hub;
    } catch (e) {
      await server?.stop();
      throw e;
    }
  }

  /** the workers that may connect changed (a token made, a worker revoked) */
  async reload(users: readonly WorkerUser[]): Promise<void> {
    await this.server?.reload({ hubKey: this.hubKey, workers: users });
  }

  /** null while connected; else since when the connection is down and why */
  connection(): HubDown | null {
    return this.down ?? (this.closing ? { since: this.closing, why: 'the hub is stopping' } : null);
  }

  /**
   * the workers whose heartbeat has not lapsed, with what it said. The keys come from the stream's
   * per-subject counts, one request: a KV key listing opens a consumer per call, and one opened as
   * the connection closed was seen never to end, its heartbeat timer keeping svc from exiting.
   */
  async present(): Promise<Presence[]> {
    if (this.closing !== null || this.nc.isClosed() || this.nc.isDraining()) throw new Error('the hub is stopping');
    const info = await this.jsm.streams.info(PRESENCE_STREAM, { subjects_filter: `${PRESENCE_PREFIX}>` });
    const keys = Object.keys(info.state.subjects ?? {}).map((s) => s.slice(PRESENCE_PREFIX.length));
    const found = await Promise.all(keys.map(async (workerId) => {
      const e = await this.kv.get(workerId);
      const heartbeat = e && e.operation === 'PUT' ? decodeHeartbeat(e.value) : undefined;
      return heartbeat ? [{ workerId, heartbeat }] : [];
    }));
    return found.flat();
  }

  /** dispatching steps to workers, through this hub's connection; `fence`: the journal's */
  dispatcher(fence: Fence, o: QueueOptions, world: DispatchWorld): Promise<Dispatcher> {
    return Dispatcher.open(this.nc, fence, o, world);
  }

  async close(): Promise<void> {
    this.closing ??= new Date().toISOString();
    // a drain waits on every subscription's reader; one that never reads must not keep svc from stopping
    const drained = this.nc.drain().catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([drained, new Promise((r) => (timer = setTimeout(r, DRAIN_MS)))]);
    clearTimeout(timer);
    if (!this.nc.isClosed()) await this.nc.close().catch(() => undefined);
    await this.server?.stop();
  }

  // what the client tells of its connection: a drop is logged once, and its end
  private async watch(): Promise<void> {
    // a connection closed without svc asking does not come back: said once, and shown as down
    void this.nc.closed().then((err) => {
      if (this.closing !== null) return;
      this.down = { since: new Date().toISOString(), why: `the hub's connection to NATS closed${err ? ` (${err.message})` : ''}; restart svc serve` };
      console.error(`svc: ${this.down.why}`);
    });
    for await (const st of this.nc.status()) {
      if (st.type === 'disconnect' && !this.down) {
        this.down = { since: new Date().toISOString(), why: `the hub lost its connection to NATS at ${st.server}; reconnecting` };
        console.error(`svc: ${this.down.why}`);
      } else if (st.type === 'reconnect' && this.down) {
        console.error(`svc: the hub is connected to NATS again (down since ${this.down.since})`);
        this.down = null;
      }
    }
  }

  // The subject names the worker: its credentials let it publish on its own subjects only, so
  // the id in the subject is the id it proved.
  private listen(o: HubOptions): void {
    this.nc.subscribe('svc.w.*.join', {
      callback: (err, m) => {
        if (err) return;
        const workerId = m.subject.split('.')[2] ?? '';
        void o.onJoin(workerId, decodeJoin(m.data)).then((r) => m.respond(encode(r)), (e: unknown) => m.respond(encode({ ok: false, reason: String(e) })));
      },
    });
  }
}
