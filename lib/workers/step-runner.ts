import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import type { HarnessName } from '../../domain/workflow.js';
import type { HarnessAdapter, TurnResult } from '../harness/adapter.js';
import { encode } from './messages.js';
import { decodeWith, JobCodec, outMessageId, type Job, type Out } from './remote-messages.js';
import { bundleResult } from './run-bundle.js';
import { folderForJob, keepResult } from './object-cache.js';
import { claimStep, type Claim } from './step-queue.js';
import { BUNDLE_CHUNK, tokenOf } from './dispatch-port.js';
import { gatherSession, placeSession } from './session-files.js';
import { serveToolsRelay } from './worker-tools.js';
import { workerSandbox } from './worker-sandbox.js';
import { stepControl, type StepHold } from './step-control.js';

// A worker's steps (docs/workers.md): it pulls only while a slot is free, claims at the hub (the
// journal's fence), renews its lease while the turn runs, makes the run folder at the hub's path
// from the hub's bundle, runs the turn with the local adapter, and sends back everything the
// turn says, then its work as a bundle, then the result. Every message carries the claim's token.
// A turn the hub stops, or whose lease it refuses (step-control.ts), ends its CLI and sends no work.

export interface StepRunner {
  busy(): number;
  stop(): void;
}

type Ask = (what: string, body: unknown, timeoutMs?: number) => Promise<any>;

const asker = (nc: NatsConnection, workerId: string): Ask => async (what, body, timeoutMs = 30_000) =>
  JSON.parse((await nc.request(`svc.w.${workerId}.${what}`, encode(body), { timeout: timeoutMs })).string());

// a publish that got no ack (the hub's server away a moment) is sent again with the same id: the
// stream stores it once
const publishSurely = async (js: ReturnType<typeof jetstream>, subject: string, data: Uint8Array, msgID: string): Promise<void> => {
  for (let tries = 1; ; tries++) {
    try {
      return void (await js.publish(subject, data, { msgID }));
    } catch (e) {
      if (tries >= 30) throw e;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
};

// each message in order, each with its own id: a re-sent one is stored once
const sender = (nc: NatsConnection, workerId: string, stepId: string, token: number) => {
  const js = jetstream(nc);
  let seq = 0;
  let chain: Promise<unknown> = Promise.resolve();
  const send = (m: Omit<Out, 'token'> & Record<string, unknown>): Promise<unknown> => {
    const id = outMessageId(stepId, token, ++seq);
    chain = chain.then(() => publishSurely(js, `svc.w.${workerId}.out.${stepId}`, encode({ ...m, token }), id)).catch(() => undefined);
    return chain;
  };
  return send;
};

// the dispatch bundle (cut at the commits `have` of the worker's cache), or the resumed session's files: asked for in parts
const fetchParts = async (ask: Ask, what: 'bundle' | 'session', stepId: string, token: number, have?: readonly string[]): Promise<Buffer> => {
  const parts: Buffer[] = [];
  for (let index = 0, of = 1; index < of; index++) {
    const r = await ask(what, { stepId, token, index, ...(have ? { have } : {}) });
    if (!r.ok) throw new Error(`the hub gave no ${what}: ${r.reason}`);
    of = r.of;
    parts.push(Buffer.from(r.data, 'base64'));
  }
  return Buffer.concat(parts);
};

interface Turning {
  readonly workerId: string;
  readonly token: number;
  readonly ask: Ask;
  readonly send: ReturnType<typeof sender>;
  readonly dir: string;
  readonly tools: { readonly url: string; readonly token: string };
  readonly hold: StepHold;
}

// the run folder from the hub's bundle, the turn with the local adapter (in svc's sandbox when
// it can start here), and the folder as the turn left it, bundled
const turnInFolder = async (job: Job, adapter: HarnessAdapter, w: Turning): Promise<TurnResult> => {
  const { stepId } = job;
  // from this machine's object cache and only what it lacks, or from the whole bundle (What moves)
  const cache = await folderForJob(job, (have) => fetchParts(w.ask, 'bundle', stepId, w.token, have), join(w.dir, 'in.bundle'), (text) => void w.send({ kind: 'log', text: `[worker ${w.workerId}] ${text}` }));
  // the session as of its last step end, where this machine's CLI looks for it (sessions move)
  if (job.session && job.resumeSession) await placeSession(job.harness, await fetchParts(w.ask, 'session', stepId, w.token), process.env, { bin: adapter.bin ?? job.harness, cwd: job.cwd });
  const boxed = workerSandbox(job, adapter.bin, w.tools.url, (report) => void w.send({ kind: 'activity', report }));
  const sandbox = 'sandbox' in boxed ? boxed.sandbox : undefined;
  void w.send({ kind: 'log', text: sandbox ? `[worker ${w.workerId}] the turn runs in svc's sandbox here` : `[worker ${w.workerId}] the turn runs outside svc's sandbox here: ${'why' in boxed ? boxed.why : ''}` });
  try {
    if (w.hold.signal.aborted) return { outcome: 'interrupted', summary: 'stopped before the turn started' };
    const turn = adapter.startTurn({
      ...job, runTools: w.tools, env: {}, signal: w.hold.signal, ...(sandbox ? { sandbox } : {}),
      onLog: (l) => void w.send({ kind: 'log', text: l.text }),
      onActivity: (report) => void w.send({ kind: 'activity', report }),
      onMessage: (text) => void w.send({ kind: 'message', text }),
      onSession: (sessionId) => void w.send({ kind: 'session', sessionId }),
    });
    w.hold.attach(turn);
    const result = await turn.result;
    // a stopped turn's work is not the step's: nothing of it is sent
    if (!w.hold.stopped()) {
      await bundleResult(job.cwd, job.branchRun ?? job.runId, stepId, join(w.dir, 'out.bundle'));
      await keepResult(cache, join(w.dir, 'out.bundle'), stepId);
    }
    return result;
  } finally {
    await sandbox?.close();
  }
};

type Held = ReturnType<typeof stepControl>;

const runTurn = async (nc: NatsConnection, workerId: string, adapters: Record<HarnessName, HarnessAdapter>, claim: Claim, job: Job, held: Held): Promise<void> => {
  const ask = asker(nc, workerId);
  const { stepId, token } = { stepId: job.stepId, token: tokenOf(job.attempt ?? 0, claim.token) };
  const claimed = await ask('claim', { stepId, token });
  // a step that ended at the hub (paused, aborted) leaves the queue; a claim only superseded is
  // left alone: a late ack would take the current delivery out of the queue
  if (!claimed.ok) return claimed.ended ? claim.done() : undefined;
  // renewals at the hub carry the claim's fencing token (attempt and delivery), as every message of
  // it does: a redo's renewal with the bare delivery number was refused and its CLI stopped
  const hold = held({ ...claim, token }, ask);
  const send = sender(nc, workerId, stepId, token);
  const dir = mkdtempSync(join(tmpdir(), 'svc-step-'));
  const relay = await serveToolsRelay(job.runId, (body) => ask('tools', { stepId, token, body }, 2 ** 31 - 1));
  let result: TurnResult;
  try {
    result = await turnInFolder(job, adapters[job.harness], { workerId, token, ask, send, dir, tools: relay.tools, hold });
  } catch (e) {
    result = { outcome: 'failure', summary: `the worker could not run the step: ${String(e)}`, failure: 'error' };
  } finally {
    await relay.close();
  }
  // the work and the session's files first, then the result that names how many parts each came
  // in; a stopped turn sends only its result, which the hub records as discarded
  const stopped = hold.stopped();
  if (stopped) hold.release();
  const chunks = stopped ? 0 : sendParts(send, 'bundle', readOrNull(join(dir, 'out.bundle')));
  const sessionChunks = stopped || !result.sessionId ? 0 : sendParts(send, 'sessionPart', await gatherSession(job.harness, result.sessionId, process.env, { bin: adapters[job.harness].bin ?? job.harness, cwd: job.cwd }));
  const { sessionTotals: _t, quota: _q, ...plain } = result;
  await send({ kind: 'result', result: plain, chunks, sessionChunks });
  rmSync(dir, { recursive: true, force: true });
  // the claim is held until the hub has the result (step-control.ts, settle); a lease refused is not
  // the end of the step: its next delivery runs it (here or elsewhere), so it is not acked
  const ended = stopped ? stopped.ended : await hold.settle(() => nc.isClosed());
  if (ended) claim.done();
};

const readOrNull = (file: string): Buffer | null => {
  try { return readFileSync(file); } catch { return null; }
};

const sendParts = (send: ReturnType<typeof sender>, kind: 'bundle' | 'sessionPart', bytes: Buffer | null): number => {
  if (!bytes) return 0;
  const n = Math.ceil(bytes.length / BUNDLE_CHUNK);
  for (let index = 0; index < n; index++) void send({ kind, index, data: bytes.subarray(index * BUNDLE_CHUNK, (index + 1) * BUNDLE_CHUNK).toString('base64') });
  return n;
};

/** pulls steps (its own pinned ones) while a slot is free, until stopped */
export const runSteps = (nc: NatsConnection, workerId: string, slots: number, adapters: Record<HarnessName, HarnessAdapter>, log: (line: string) => void): StepRunner => {
  let busy = 0;
  let stopped = false;
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const held = stepControl(nc, workerId, log);
  void (async () => {
    while (!stopped && !nc.isClosed()) {
      if (busy >= slots) { await pause(200); continue; }
      const claim = await claimStep(nc, 2_000, workerId).catch(() => null);
      if (!claim) { await pause(500); continue; }
      const job = decodeWith(JobCodec, claim.job, 'a step');
      if (typeof job === 'string') { log(`a step from the hub did not decode; left alone`); continue; }
      busy++;
      log(`step ${job.stepId} of run ${job.runId} claimed (attempt ${(job.attempt ?? 0) + 1}, delivery ${claim.token})`);
      void runTurn(nc, workerId, adapters, claim, job, held).catch((e: unknown) => log(`step ${job.stepId} failed here: ${String(e)}`)).finally(() => { busy--; });
    }
  })();
  return { busy: () => busy, stop: () => { stopped = true; } };
};
