import { join } from 'node:path';
import { isLeft, right } from 'fp-ts/lib/Either.js';
import type { Outcome } from '../../commands/refusal.js';
import { activeWorkers, type WorkerRecord } from '../../projections/workers.js';
import { createWorkerToken, joinWorker, refuseWorkerMessage, revokeWorker } from '../service/workers.js';
import type { ServiceCore } from '../service/core.js';
import { DEFAULT_PRESENCE_TTL_MS, Hub, type HubDown, type Presence } from '../workers/hub.js';
import type { Dispatcher } from '../workers/dispatcher.js';
import { recordedAdapter, remoteAdapter } from '../workers/remote-adapter.js';
import type { HarnessAdapter } from '../harness/adapter.js';
import type { HarnessName } from '../../domain/workflow.js';
import type { RunState } from '../../projections/run-state.js';
import { openDispatch, type DispatchStream } from '../state/dispatch.js';
import { AppliedMessages } from '../state/applied-messages.js';
import { fenceOf } from '../service/dispatch.js';
import { projectAllow } from '../service/sandbox.js';
import { latestTurn, previousWorker } from '../../projections/dispatch.js';
import { seatsOf } from '../workers/placing.js';
import { sessionStore } from '../workers/session-files.js';
import { stepOfAppliedId } from '../workers/remote-messages.js';

// The worker pool as the server holds it: the hub runs only once workers are on (a join token
// exists, or SVC_NATS_URL names the user's own NATS); with none, nothing starts and nothing needs
// NATS (docs/workers.md). Who may connect follows the 'workers' journal: a token made or a worker
// revoked rewrites the server's users and reloads it.

export interface WorkerRow {
  readonly workerId: string;
  readonly name: string;
  readonly state: 'online' | 'lost' | 'never-joined' | 'revoked';
  readonly slots: number | null;
  readonly slotsInUse: number | null;
  readonly harnesses: readonly string[];
  readonly sandbox: boolean | null;
  readonly host: string | null;
}

const ttl = (env: NodeJS.ProcessEnv): number => {
  const n = Number(env['SVC_WORKER_TTL_MS']);
  return Number.isInteger(n) && n >= 1000 ? n : DEFAULT_PRESENCE_TTL_MS;
};

const stateOf = (w: WorkerRecord, p: Presence | undefined): WorkerRow['state'] =>
  w.revoked ? 'revoked' : p ? 'online' : w.announced ? 'lost' : 'never-joined';

const rowOf = (w: WorkerRecord, p: Presence | undefined): WorkerRow => ({
  workerId: w.workerId, name: w.name, state: stateOf(w, p),
  slots: w.announced?.slots ?? null, slotsInUse: p && !w.revoked ? p.heartbeat.busy : null,
  harnesses: w.announced?.harnesses ?? [], sandbox: w.announced?.sandbox ?? null, host: w.announced?.host ?? null,
});

// A revocation reloads the server, and JetStream answers "not enabled" while the reload is read:
// the presence bucket is read again for a moment rather than answering the list with a 500.
const presentSoon = async (hub: Hub): Promise<Presence[]> => {
  for (let tries = 1; ; tries++) {
    try {
      return await hub.present();
    } catch (e) {
      if (tries >= 30 || hub.connection()) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
};

// a lease lapses this long after the worker's last renewal; three deliveries (or attempts), then "worker lost"
const queueOptions = (env: NodeJS.ProcessEnv) => {
  const n = Number(env['SVC_STEP_ACK_WAIT_MS']);
  const max = Number(env['SVC_STEP_MAX_DELIVERIES']);
  return { ackWaitMs: Number.isInteger(n) && n >= 1000 ? n : 30_000, maxDeliver: Number.isInteger(max) && max >= 2 ? max : 3, maxAckPending: 1000 };
};

const DAY_MS = 24 * 3600_000;
const KEEP_APPLIED_MS = 7 * DAY_MS;

export class WorkerPool {
  private hub: Promise<Hub> | null = null;
  private dispatcher: Promise<Dispatcher> | null = null;
  private serving = false;
  /** the 'dispatch' journal: each dispatched step and its current claim (the fence) */
  readonly dispatches: DispatchStream;
  /** the worker messages applied (the fence's record of each, so a redelivery is skipped) */
  private readonly applied: AppliedMessages;
  private pruning: NodeJS.Timeout | undefined;
  /** presence as last read: what the list shows while the hub's connection is down */
  private lastPresent: Presence[] = [];

  constructor(private readonly core: ServiceCore, private readonly env: NodeJS.ProcessEnv = process.env) {
    this.dispatches = openDispatch(core.journal);
    this.applied = new AppliedMessages(core.store);
  }

  /** the run's agent steps run on workers ("Run on" a worker or `any`, or the run was moved: "Move to…", which wins): the adapter that dispatches them */
  remote(run: RunState, harness: HarnessName): { adapter: HarnessAdapter; workerId: string } | undefined {
    const project = this.core.projects.current.get(run.projectId);
    const runOn = project?.runOn ?? 'here';
    const runPin = this.core.placement.current.get(run.runId)?.to;
    if (!project || runPin === 'here' || (runOn === 'here' && !runPin)) return undefined;
    const ask = () => {
      // a follow-up works in the folder of the run it continues: sticky to that run's machine too
      const previous = previousWorker(this.dispatches.current, run.runId) ?? (run.continues ? previousWorker(this.dispatches.current, run.continues.runId) : undefined);
      return { harness, runOn, ...(runPin ? { runPin } : {}), ...(previous ? { previous } : {}) };
    };
    // the same project allowlist as the hub's own sandbox (the worker adds its model's hosts)
    const adapter = remoteAdapter(harness, ask, () => this.dispatching(), (tools) => projectAllow(project, tools));
    return { workerId: runPin ?? (runOn === 'any' ? 'any (placed by the hub)' : runOn), adapter };
  }

  /** the run was moved ("Move to…"): a step of it waiting for a worker that is away runs again where it goes now */
  moved(runId: string, to: string): void {
    void this.dispatcher?.then((d) => d.moved(runId, to)).catch(() => undefined);
  }

  /** the steps waiting for a worker with a free slot, in line */
  async line(): Promise<{ runId: string; stepId: string; position: number; why: string }[]> {
    const d = this.dispatcher ? await this.dispatcher.catch(() => null) : null;
    return d ? d.line() : [];
  }

  /**
   * a step the journal has dispatched and not ended (svc was killed while it ran): its latest turn
   * (`<step>-t<n>`) is taken up, not dispatched again; a turn whose result was recorded before the
   * kill (the run had not recorded the step's end) ends the step with that result
   */
  takeUp(run: RunState, harness: HarnessName, stepId: string): { adapter: HarnessAdapter; workerId: string; turn: number; ended?: true } | undefined {
    const { turn, d } = latestTurn(this.dispatches.current, stepId) ?? {};
    const project = this.core.projects.current.get(run.projectId);
    if (turn && d?.ended === 'applied' && d.result && d.claim) return { workerId: d.claim.workerId, turn, ended: true, adapter: recordedAdapter(harness, d.stepId, d.result) };
    if (!turn || !d || d.ended || !project) return undefined;
    const workerId = d.claim?.workerId ?? project.runOn ?? 'here';
    // its worker goes on; only a step never placed is placed again, on that worker (or by `any`)
    const ask = () => ({ harness, runOn: workerId });
    return { workerId, turn, adapter: remoteAdapter(harness, ask, () => this.dispatching(), (tools) => projectAllow(project, tools)) };
  }

  private dispatching(): Promise<Dispatcher> {
    // the running hub as it is: ensure() would reload its server, and JetStream answers "not
    // enabled" for a moment while a reload is read
    const world = (hub: Hub) => ({ seats: async () => seatsOf(this.core.workers.current, await hub.present()), sessions: sessionStore(join(this.core.home, 'sessions')) });
    this.dispatcher ??= (this.hub ?? this.ensure()).then((hub) => hub.dispatcher(this.fence(), queueOptions(this.env), world(hub)));
    const d = this.dispatcher;
    d.catch(() => { if (this.dispatcher === d) this.dispatcher = null; });
    return d;
  }

  // the journal's fence; a revoked worker's claims and messages are discarded
  private fence() {
    const refused = (w: string, subject: string, reason: string) => refuseWorkerMessage(this.core, w, subject, reason);
    return fenceOf(this.dispatches, this.core.now, refused, (w) => this.core.workers.current.get(w)?.revoked === true, this.applied);
  }

  /** the server is up: start the hub if workers are on */
  start(): void {
    this.serving = true;
    this.pruneApplied();
    this.pruning = setInterval(() => this.pruneApplied(), DAY_MS).unref();
    if (this.on()) void this.ensure().catch((e: unknown) => console.error(`svc: the worker hub did not start: ${e instanceof Error ? e.message : String(e)}`));
  }

  /** the hub's NATS URL, once started (a worker joins with it) */
  async url(): Promise<string | null> {
    return this.hub ? (await this.hub).url : null;
  }

  async createToken(name: string): Promise<Outcome<{ worker: WorkerRow; token: string; hub: string | null; hubProblem?: string }>> {
    const made = createWorkerToken(this.core, name);
    if (isLeft(made)) return made;
    // the token is recorded either way: a hub that cannot start now (no nats-server on PATH) starts
    // with the next `svc serve`, and the answer says why there is no hub yet
    const hub = this.serving ? await this.ensure().catch((e: unknown) => String(e instanceof Error ? e.message : e)) : null;
    const started = hub !== null && typeof hub !== 'string' ? hub : null;
    return right({ worker: rowOf(made.right.worker, undefined), token: made.right.token, hub: started?.url ?? null, ...(typeof hub === 'string' ? { hubProblem: hub } : {}) });
  }

  async revoke(workerId: string): Promise<Outcome<{ worker: WorkerRow }>> {
    const r = revokeWorker(this.core, workerId);
    if (isLeft(r)) return r;
    if (this.hub) await (await this.hub.catch(() => null))?.reload(this.users());
    return right({ worker: rowOf(r.right.worker, undefined) });
  }

  /**
   * `queue`: the steps waiting for a worker with a free slot, in line; `hubProblem`: the hub's
   * connection to NATS is down (since `hubDownSince`), and each worker's state is as presence was last read
   */
  async list(): Promise<{ workers: WorkerRow[]; hub: string | null; hubProblem?: string; hubDownSince?: string; queue: Awaited<ReturnType<WorkerPool['line']>> }> {
    const hub = this.hub ? await this.hub.catch(() => null) : null;
    const read = hub ? await this.presence(hub) : { present: [] };
    const present = new Map(read.present.map((p) => [p.workerId, p]));
    const workers = [...this.core.workers.current.values()].map((w) => rowOf(w, present.get(w.workerId)));
    const down = read.down ? { hubProblem: `${read.down.why} (since ${read.down.since}); each worker's state is as last read`, hubDownSince: read.down.since } : {};
    return { workers, hub: hub?.url ?? null, ...down, queue: await this.line() };
  }

  // presence needs the hub's connection; while it is down the answer says so rather than failing
  private async presence(hub: Hub): Promise<{ present: Presence[]; down?: HubDown }> {
    if (!hub.connection()) {
      try {
        this.lastPresent = await presentSoon(hub);
        return { present: this.lastPresent };
      } catch (e) {
        if (!hub.connection()) throw e;
      }
    }
    return { present: this.lastPresent, down: hub.connection()! };
  }

  /**
   * The record of applied worker messages keeps an id a week after it was applied when its step has
   * ended; a step still in flight (a pinned step waiting days for its worker) keeps all of its ids.
   */
  pruneApplied(): number {
    const before = new Date(this.core.now().getTime() - KEEP_APPLIED_MS).toISOString();
    return this.applied.prune(before, (id) => {
      const stepId = stepOfAppliedId(id);
      return !!stepId && !!this.dispatches.current.get(stepId)?.ended;
    });
  }

  async close(): Promise<void> {
    clearInterval(this.pruning);
    const d = this.dispatcher;
    this.dispatcher = null;
    if (d) await (await d.catch(() => null))?.close();
    const hub = this.hub;
    this.hub = null;
    if (hub) await (await hub.catch(() => null))?.close();
  }

  private on(): boolean {
    return this.env['SVC_NATS_URL'] !== undefined || activeWorkers(this.core.workers.current).length > 0;
  }

  private users() {
    return activeWorkers(this.core.workers.current).map((w) => ({ workerId: w.workerId, publicKey: w.publicKey }));
  }

  private async ensure(): Promise<Hub> {
    const running = this.hub ? await this.hub.catch(() => null) : null;
    if (running) {
      await running.reload(this.users());
      return running;
    }
    const externalUrl = this.env['SVC_NATS_URL'];
    this.hub = Hub.start({
      dir: join(this.core.home, 'nats'), listen: this.env['SVC_NATS_LISTEN'] ?? '127.0.0.1:4222', presenceTtlMs: ttl(this.env),
      ...(externalUrl ? { externalUrl } : {}),
      onJoin: async (workerId, j) => joinWorker(this.core, workerId, j),
    }, this.users());
    const starting = this.hub;
    starting.catch(() => { if (this.hub === starting) this.hub = null; });
    return starting;
  }
}
