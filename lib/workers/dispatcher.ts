import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NatsConnection } from '@nats-io/transport-node';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, RetentionPolicy, type JsMsg } from '@nats-io/jetstream';
import type { HarnessName } from '../../domain/workflow.js';
import type { TurnInput, TurnResult } from '../harness/adapter.js';
import { encode } from './messages.js';
import { appliedIdOf, asReport, asResult, decodeWith, jobOf, OutCodec, type Out } from './remote-messages.js';
import { branchRunOf, dispatchKept, dropDispatchRef, historyOf, keepSession, originOf, snapshotForDispatch, workApplied } from './run-bundle.js';
import { openStepQueue, type QueueOptions } from './step-queue.js';
import { serveRequests } from './dispatch-requests.js';
import { type Fence, type Pending, type SeatFacts } from './dispatch-port.js';
import type { PlacementAsk } from './placement.js';
import { Placer } from './placing.js';
import { gatherSession, type SessionStore } from './session-files.js';
import { binFor } from '../harness/common.js';
import { Leases, tell } from './leases.js';
import { Backlog } from './backlog.js';
import { StepLanes } from './step-lanes.js';
import { turnKey } from '../../projections/dispatch.js';
import { appliedBy } from '../../commands/dispatch.js';

// The hub's side of a dispatched turn (docs/workers.md). The turn is recorded, its folder bundled,
// the job put on the step queue for the chosen worker; then what the worker sends comes back
// through a durable stream (Nats-Msg-Id: a message re-sent is stored once), and each message passes
// the fence (the journal's current claim) before anything of it is applied to the turn.

export const OUT_STREAM = 'SVC_OUT';

/** what the hub knows besides the journal: the workers as they are now, and the sessions it keeps */
export interface DispatchWorld {
  seats(): Promise<readonly SeatFacts[]>;
  readonly sessions: SessionStore;
}

const TICK_MS = 1000;

export class Dispatcher {
  private readonly pending = new Map<string, Pending>();
  /** a step's id to the key of its turn in flight (turnOf) */
  private readonly turns = new Map<string, string>();
  private readonly dir = mkdtempSync(join(tmpdir(), 'svc-dispatch-'));
  private readonly leases: Leases;
  private readonly backlog = new Backlog((m) => this.takeAndAck(m));
  /** a step's messages in order, each step's beside the others' (step-lanes.ts) */
  private readonly lanes = new StepLanes();
  private readonly placer: Placer;
  private readonly timer: NodeJS.Timeout;

  private constructor(private readonly nc: NatsConnection, private readonly fence: Fence, private readonly queue: Awaited<ReturnType<typeof openStepQueue>>, private readonly world: DispatchWorld, o: QueueOptions) {
    this.leases = new Leases(fence, o.ackWaitMs, (stepId, text) => this.pending.get(stepId)?.input.onLog({ text }));
    this.placer = new Placer(this.pending, {
      seats: () => world.seats(), maxAttempts: o.maxDeliver,
      publish: (p) => this.publish(p),
      reclaim: (workerId) => queue.reclaim(workerId, TICK_MS),
      lose: (stepId, reason) => this.lose(stepId, reason),
      awaiting: (stepId, workerId) => this.awaiting(stepId, workerId),
    });
    this.timer = setInterval(() => void this.placer.tick(), TICK_MS);
    this.timer.unref();
  }

  static async open(nc: NatsConnection, fence: Fence, o: QueueOptions, world: DispatchWorld): Promise<Dispatcher> {
    // while the server reads a reloaded config (a token made, a worker revoked) JetStream answers
    // "not enabled" for a moment: try again a few times before the step fails
    for (let tries = 1; ; tries++) {
      try {
        return await Dispatcher.openOnce(nc, fence, o, world);
      } catch (e) {
        if (tries >= 10 || !String(e).includes('not enabled')) throw e;
        await new Promise((r) => setTimeout(r, 300));
      }
    }
  }

  private static async openOnce(nc: NatsConnection, fence: Fence, o: QueueOptions, world: DispatchWorld): Promise<Dispatcher> {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: OUT_STREAM, subjects: ['svc.w.*.out.*'], retention: RetentionPolicy.Workqueue });
    // made afresh at each start: what the hub before this one was given and had not acked (it was
    // killed) comes again at once, in the stream's order, not an ack_wait later behind what came
    // after it. The work's parts wait unacked until their step ends: no cap on them
    await jsm.consumers.delete(OUT_STREAM, 'hub').catch(() => false);
    await jsm.consumers.add(OUT_STREAM, { durable_name: 'hub', ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All, max_ack_pending: 1_000_000 });
    const d = new Dispatcher(nc, fence, await openStepQueue(nc, o), world, o);
    d.queue.onGivenUp((stepId) => d.givenUp(stepId));
    d.serve();
    void d.consume();
    return d;
  }

  /**
   * The turn, on the worker placement.ts names for `ask`: resolves with its result once the
   * worker's result is applied. `egress`: the project's allowlist for this step, which the worker's
   * sandbox lets through besides the model API. The bundle (the step-start snapshot) and the
   * session's files as of its last step end are made once: every attempt starts from them. A step
   * already dispatched and not ended (the hub was killed while it ran) is taken up, not dispatched
   * again: its worker goes on, and what it sent meanwhile waits in SVC_OUT.
   */
  async start(step: TurnInput, harness: HarnessName, ask: PlacementAsk, egress: readonly string[]): Promise<TurnResult> {
    const input = this.turnOf(step);
    const { runId, stepId, cwd } = input;
    const known = this.fence.step(stepId);
    const bundle = join(this.dir, `${stepId}.bundle`);
    // a follow-up works on the branch of the run it continues, whose folder it shares
    const branchRun = await branchRunOf(cwd, runId);
    // a redelivery after a take-up needs the dispatch's snapshot (its bundles are made from it when
    // a worker asks: dispatch-requests.ts); a hub killed before it had one dispatches the step now
    // (the queue stores a step id once)
    const again = !!known && !known.ended && (await dispatchKept(cwd, stepId));
    if (!again) {
      this.fence.dispatched(runId, stepId);
      await snapshotForDispatch(cwd, stepId);
    }
    const [history, origin] = [await historyOf(cwd, stepId), await originOf(cwd)];
    const session = input.resumeSession ? this.world.sessions.get(harness, input.resumeSession) ?? await gatherSession(harness, input.resumeSession, process.env, { bin: binFor('opencode', {}), cwd }) : null;
    const result = new Promise<TurnResult>((resolve) => this.pending.set(stepId, {
      input, harness, job: { ...jobOf(input, harness, egress), branchRun, ...(history ? { history } : {}), ...(origin ? { origin } : {}) }, bundle, parts: new Map(), session, sessionParts: new Map(), end: resolve, partMessages: [],
      place: { ask, attempt: 0, avoid: [], ...(again && known?.claim ? { workerId: known.claim.workerId } : {}) },
    }));
    // paused or aborted (or svc stopping): the step ends here, and its worker is told to stop its CLI
    input.signal.addEventListener('abort', () => this.recall(stepId), { once: true });
    if (again) await this.backlog.release(stepId);
    // a step never claimed may never have left the line (placing is in memory): it is placed again
    // (if it had been put on a queue, the same message id is stored once, or its second claim is discarded)
    if (!again || !known?.claim) this.placer.enqueue(stepId);
    return result;
  }

  /**
   * A step's later turn (held messages it continues with, an answer after its turn ended) is a
   * dispatch of its own, `<step>-t<n>`: the queue stores a message id once and the fence takes
   * nothing for a dispatch that ended, so a second turn under the step's own id would never run.
   * The first turn not yet ended keeps its key (a hub restarted mid-turn takes it up).
   */
  private turnOf(step: TurnInput): TurnInput {
    const keyOf = (n: number) => turnKey(step.stepId, n);
    let n = 1;
    while (this.fence.step(keyOf(n))?.ended) n++;
    this.turns.set(step.stepId, keyOf(n));
    return n === 1 ? step : { ...step, stepId: keyOf(n) };
  }

  /** the steps waiting for a worker, in line */
  line(): ReturnType<Placer['line']> {
    return this.placer.line();
  }

  private async publish(p: Pending): Promise<void> {
    const { attempt, workerId } = p.place;
    const job = { ...p.job, attempt, ...(p.session ? { session: true } : {}) };
    p.place.seq = (await this.queue.dispatch(p.input.stepId, encode(job), workerId, attempt === 0 ? p.input.stepId : `${p.input.stepId}.a${attempt}`)).seq;
  }

  private awaiting(stepId: string, workerId: string): void {
    if (this.fence.step(stepId)?.awaiting === workerId) return;
    this.fence.awaiting(stepId, workerId);
    if (this.fence.step(stepId)?.awaiting === workerId) this.pending.get(stepId)?.input.onLog({ text: `[hub] worker ${workerId} is away: the step waits in its queue until it is back, or until the run is moved (Move to… another machine or here)` });
  }

  /**
   * The run was moved ("Move to…"): a step of it waiting for a worker that is away is taken off
   * that worker's queue and ends interrupted, so the engine runs it again where the run goes now.
   * A step a live claim holds, or whose worker is back, stays where it is.
   */
  moved(runId: string, to: string): void {
    for (const [stepId, p] of this.pending) {
      const away = this.fence.step(stepId)?.awaiting;
      if (p.input.runId !== runId || !away || away === to || !this.placer.away(away)) continue;
      const why = `moved to ${to === 'here' ? 'this machine' : `worker ${to}`} while its step waited for worker ${away}, which is away`;
      p.input.onLog({ text: `[hub] the run was ${why}: the step runs again there` });
      if (p.place.seq !== undefined) void this.queue.withdraw(p.place.seq);
      this.fence.recalled(stepId, `the run was ${why}`);
      this.end(stepId, { outcome: 'interrupted', summary: `the run was ${why}` });
    }
  }

  /** a message for the turn in flight, to its worker, whose CLI takes it mid-turn; false: no claim holds it now */
  message(step: string, text: string): boolean {
    const stepId = this.turns.get(step) ?? step;
    const claim = this.fence.step(stepId)?.claim;
    if (!this.pending.has(stepId) || !claim || claim.lapsed) return false;
    tell(this.nc, claim.workerId, stepId, { kind: 'message', text });
    return true;
  }

  private recall(stepId: string): void {
    const claim = this.fence.step(stepId)?.claim;
    this.fence.recalled(stepId, 'the run was paused or aborted while the step ran on a worker');
    if (claim) tell(this.nc, claim.workerId, stepId, { kind: 'stop' });
    this.end(stepId, { outcome: 'interrupted', summary: 'the run was stopped while the step ran on a worker' });
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    // the work's parts stay in SVC_OUT, unacked, for the next hub
    for (const id of [...this.pending.keys()]) this.end(id, { outcome: 'failure', summary: 'the hub stopped', failure: 'error' }, false);
    rmSync(this.dir, { recursive: true, force: true });
  }

  private end(stepId: string, r: TurnResult, ackParts = true): void {
    const p = this.pending.get(stepId);
    if (!p) return;
    this.pending.delete(stepId);
    if (ackParts) for (const m of p.partMessages) ackSurely(m);
    for (const [step, key] of this.turns) if (key === stepId) this.turns.delete(step);
    this.leases.end(stepId);
    for (const file of [p.bundle, `${p.bundle}.thin`]) rmSync(file, { force: true });
    p.end(r);
  }

  // the pool gave up on the step: a step this restarted hub has dispatched and not taken up yet
  // waits for its take-up (so the run hears it fail), a minute at most
  private readonly givenUpTries = new Map<string, number>();
  private givenUp(stepId: string): boolean {
    const d = this.fence.step(stepId);
    const tries = (this.givenUpTries.get(stepId) ?? 0) + 1;
    if (d && !d.ended && !this.pending.has(stepId) && tries < 60) return (this.givenUpTries.set(stepId, tries), false);
    this.givenUpTries.delete(stepId);
    this.lose(stepId, 'worker lost: its lease lapsed on the last delivery');
    return true;
  }

  private lose(stepId: string, reason: string): void {
    this.fence.lost(stepId, reason);
    this.end(stepId, { outcome: 'failure', summary: reason, failure: 'error' });
  }

  private serve(): void {
    serveRequests(this.nc, this.fence, {
      pending: (stepId) => this.pending.get(stepId),
      leased: (c, fresh) => {
        // a new claim's work starts afresh: parts an older claim sent are not its
        if (fresh) this.pending.get(c.stepId)?.parts.clear();
        this.leases.renewed(c);
      },
    });
  }

  private async consume(): Promise<void> {
    const c = await jetstream(this.nc).consumers.get(OUT_STREAM, 'hub');
    for await (const m of await c.consume()) {
      const stepId = m.subject.split('.')[4] ?? '';
      // a step the journal has in flight that this hub has not taken up yet (it was restarted):
      // its messages wait, unacked, until the engine takes the step up
      const d = this.fence.step(stepId);
      if ((!this.pending.has(stepId) && d && !d.ended) || this.backlog.holds(stepId)) { this.backlog.hold(stepId, m); continue; }
      void this.lanes.run(stepId, () => this.takeAndAck(m));
    }
  }

  private async takeAndAck(m: JsMsg): Promise<void> {
    const kept = await this.take(m).catch((e: unknown) => void console.error(`svc: a worker's message could not be applied: ${String(e)}`));
    if (!kept) ackSurely(m);
  }

  /**
   * Each message is applied once (docs/workers.md, "The hub is killed mid-turn"): its id is
   * recorded in the transaction that applies it, and a redelivery whose id is there is skipped.
   * True: a part of the work, acked only when its step ends.
   */
  private async take(m: JsMsg): Promise<boolean> {
    const [, , workerId = '', , stepId = ''] = m.subject.split('.');
    const id = appliedIdOf(workerId, m.headers?.get('Nats-Msg-Id') || `seq-${m.info.streamSequence}`);
    const out = decodeWith(OutCodec, m.data, 'a worker message');
    if (typeof out === 'string') {
      this.fence.once(id, () => this.fence.refused(workerId, m.subject, out));
      return false;
    }
    const claim = { stepId, workerId, token: out.token };
    const p = this.pending.get(stepId);
    if (out.kind === 'bundle' || out.kind === 'sessionPart') {
      if (p && this.fence.holds(claim)) return this.keepPart(p, out, m);
      // the applied result's own parts, again: a hub killed before its step ended had not acked them
      if (appliedBy(this.fence.step(stepId), claim)) return false;
    } else if (out.kind === 'result') {
      await this.takeResult(id, claim, p, out);
      return false;
    }
    this.fence.once(id, () => { if (this.fence.admit(claim, 'event') && p) this.apply(p, out); });
    return false;
  }

  // the work's parts live in memory until the result: recorded nowhere, they stay in SVC_OUT, so
  // a hub killed before the result reads them again from there
  private keepPart(p: Pending, out: Extract<Out, { kind: 'bundle' | 'sessionPart' }>, m: JsMsg): true {
    (out.kind === 'bundle' ? p.parts : p.sessionParts).set(out.index, out.data);
    p.partMessages.push(m);
    return true;
  }

  // synchronous: what it writes is in the transaction that records the message
  private apply(p: Pending, out: Out): void {
    const i = p.input;
    switch (out.kind) {
      case 'log': return void i.onLog({ text: out.text });
      case 'activity': return i.onActivity?.(asReport(out.report));
      case 'message': return i.onMessage(out.text);
      case 'session': return i.onSession?.(out.sessionId);
      default: return;
    }
  }

  /**
   * The work first, then the result's record: a hub killed while the work went into the run folder
   * has recorded nothing, and applies it again after its restart (the parts wait in SVC_OUT;
   * applyResult may run twice). Recorded, the step ends.
   */
  private async takeResult(id: string, claim: { stepId: string; workerId: string; token: number }, p: Pending | undefined, out: Extract<Out, { kind: 'result' }>): Promise<void> {
    const r = asResult(out.result);
    const current = !!p && this.fence.holds(claim);
    if (current) this.leases.resultInHand(claim.stepId);
    const applied = p && current ? await workApplied(this.dir, p, out.chunks, r) : undefined;
    let taken = false;
    this.fence.once(id, () => { taken = this.fence.admit(claim, 'result', applied); });
    if (!taken || !p || !applied) return;
    // the session's files as this step left them, once its work is in: where the next step that resumes it starts
    if (applied === r) keepSession(p, out.sessionChunks ?? 0, r.sessionId, this.world.sessions);
    await dropDispatchRef(p.input.cwd, p.input.stepId).catch(() => undefined);
    this.end(p.input.stepId, applied);
  }
}

// an ack whose connection is gone is lost: the message comes again, and its record skips it
const ackSurely = (m: { ack(): void }): void => {
  try {
    m.ack();
  } catch (e) {
    console.error(`svc: a worker's message was not acked (it comes again, and is skipped): ${String(e)}`);
  }
};
