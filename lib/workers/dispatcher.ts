import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NatsConnection } from '@nats-io/transport-node';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, RetentionPolicy, type JsMsg } from '@nats-io/jetstream';
import type { HarnessName } from '../../domain/workflow.js';
import type { TurnInput, TurnResult } from '../harness/adapter.js';
import { encode } from './messages.js';
import { asReport, asResult, decodeWith, OutCodec, type Job, type Out } from './remote-messages.js';
import { applyResult, bundleForDispatch } from './run-bundle.js';
import { openStepQueue, type QueueOptions } from './step-queue.js';
import { serveRequests } from './dispatch-requests.js';
import { BUNDLE_CHUNK, type Fence, type Pending } from './dispatch-port.js';

// The hub's side of a dispatched turn (docs/workers.md). The turn is recorded, its folder bundled,
// the job put on the step queue for the chosen worker; then what the worker sends comes back
// through a durable stream (Nats-Msg-Id: a message re-sent is stored once), and each message passes
// the fence (the journal's current claim) before anything of it is applied to the turn.

export const OUT_STREAM = 'SVC_OUT';

const jobOf = (i: TurnInput, harness: HarnessName, egress: readonly string[]): Job => ({
  egress: [...egress],
  runId: i.runId, stepId: i.stepId, harness, cwd: i.cwd, prompt: i.prompt, tools: i.tools, watchdogMs: i.watchdogMs,
  ...(i.systemPrompt ? { systemPrompt: i.systemPrompt } : {}), ...(i.model ? { model: i.model } : {}),
  ...(i.resumeSession ? { resumeSession: i.resumeSession } : {}), ...(i.forkSession ? { forkSession: true } : {}),
});

export class Dispatcher {
  private readonly pending = new Map<string, Pending>();
  private readonly dir = mkdtempSync(join(tmpdir(), 'svc-dispatch-'));

  private constructor(private readonly nc: NatsConnection, private readonly fence: Fence, private readonly queue: Awaited<ReturnType<typeof openStepQueue>>) {}

  static async open(nc: NatsConnection, fence: Fence, o: QueueOptions): Promise<Dispatcher> {
    // while the server reads a reloaded config (a token made, a worker revoked) JetStream answers
    // "not enabled" for a moment: try again a few times before the step fails
    for (let tries = 1; ; tries++) {
      try {
        return await Dispatcher.openOnce(nc, fence, o);
      } catch (e) {
        if (tries >= 10 || !String(e).includes('not enabled')) throw e;
        await new Promise((r) => setTimeout(r, 300));
      }
    }
  }

  private static async openOnce(nc: NatsConnection, fence: Fence, o: QueueOptions): Promise<Dispatcher> {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: OUT_STREAM, subjects: ['svc.w.*.out.*'], retention: RetentionPolicy.Workqueue });
    await jsm.consumers.add(OUT_STREAM, { durable_name: 'hub', ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All });
    const d = new Dispatcher(nc, fence, await openStepQueue(nc, o));
    d.queue.onGivenUp((stepId) => d.lose(stepId, 'worker lost: its lease lapsed on the last delivery'));
    d.serve();
    void d.consume();
    return d;
  }

  /** the turn, on worker `to`: resolves with its result once the worker's result is applied */
  /** `egress`: the project's allowlist for this step, which the worker's sandbox lets through besides the model API */
  async start(input: TurnInput, harness: HarnessName, to: string, egress: readonly string[]): Promise<TurnResult> {
    this.fence.dispatched(input.runId, input.stepId);
    const bundle = join(this.dir, `${input.stepId}.bundle`);
    await bundleForDispatch(input.cwd, input.runId, input.stepId, bundle);
    const result = new Promise<TurnResult>((resolve) => this.pending.set(input.stepId, { input, bundle, parts: new Map(), end: resolve }));
    // paused or aborted: the turn ends here; what the worker sends later finds no turn to apply to
    input.signal.addEventListener('abort', () => this.end(input.stepId, { outcome: 'interrupted', summary: 'the run was stopped while the step ran on a worker' }), { once: true });
    await this.queue.dispatch(input.stepId, encode(jobOf(input, harness, egress)), to);
    return result;
  }

  async close(): Promise<void> {
    for (const id of [...this.pending.keys()]) this.end(id, { outcome: 'failure', summary: 'the hub stopped', failure: 'error' });
    rmSync(this.dir, { recursive: true, force: true });
  }

  private end(stepId: string, r: TurnResult): void {
    const p = this.pending.get(stepId);
    if (!p) return;
    this.pending.delete(stepId);
    rmSync(p.bundle, { force: true });
    p.end(r);
  }

  private lose(stepId: string, reason: string): void {
    this.fence.lost(stepId, reason);
    this.end(stepId, { outcome: 'failure', summary: reason, failure: 'error' });
  }

  private serve(): void {
    serveRequests(this.nc, this.fence, (stepId) => this.pending.get(stepId));
  }

  private async consume(): Promise<void> {
    const c = await jetstream(this.nc).consumers.get(OUT_STREAM, 'hub');
    for await (const m of await c.consume()) {
      await this.take(m).catch((e: unknown) => console.error(`svc: a worker's message could not be applied: ${String(e)}`));
      m.ack();
    }
  }

  private async take(m: JsMsg): Promise<void> {
    const [, , workerId = '', , stepId = ''] = m.subject.split('.');
    const out = decodeWith(OutCodec, m.data, 'a worker message');
    if (typeof out === 'string') return this.fence.refused(workerId, m.subject, out);
    const claim = { stepId, workerId, token: out.token };
    if (!this.fence.admit(claim, out.kind === 'result' ? 'result' : 'event')) return;
    const p = this.pending.get(stepId);
    if (p) await this.apply(p, out);
  }

  private async apply(p: Pending, out: Out): Promise<void> {
    const i = p.input;
    switch (out.kind) {
      case 'log': return i.onLog({ text: out.text });
      case 'activity': return i.onActivity?.(asReport(out.report));
      case 'message': return i.onMessage(out.text);
      case 'session': return i.onSession?.(out.sessionId);
      case 'bundle': return void p.parts.set(out.index, out.data);
      case 'result': return this.finish(p, out.chunks, asResult(out.result));
    }
  }

  private async finish(p: Pending, chunks: number, r: TurnResult): Promise<void> {
    const { stepId, runId, cwd } = p.input;
    // a turn that could not run there sends no work: its result is all there is
    if (chunks === 0) return this.end(stepId, r);
    const parts = Array.from({ length: chunks }, (_, n) => p.parts.get(n));
    if (parts.some((x) => x === undefined)) return this.end(stepId, { outcome: 'failure', summary: 'the worker\'s work did not arrive whole', failure: 'error' });
    const file = join(this.dir, `${stepId}.result.bundle`);
    writeFileSync(file, Buffer.concat(parts.map((x) => Buffer.from(x!, 'base64'))));
    try {
      await applyResult(cwd, runId, stepId, file);
      this.end(stepId, r);
    } catch (e) {
      this.end(stepId, { outcome: 'failure', summary: `the worker's work could not be applied: ${String(e)}`, failure: 'error' });
    } finally {
      rmSync(file, { force: true });
    }
  }
}
