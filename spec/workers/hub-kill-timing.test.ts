import '../helpers/env.js';
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect, nkeyAuthenticator, nkeys, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Journal } from '../../journal/journal.js';
import { openStore, type Store } from '../../journal/store.js';
import { openDispatch } from '../../lib/state/dispatch.js';
import { AppliedMessages } from '../../lib/state/applied-messages.js';
import { LogStore } from '../../lib/state/log-store.js';
import { fenceOf } from '../../lib/service/dispatch.js';
import { Dispatcher, OUT_STREAM } from '../../lib/workers/dispatcher.js';
import { BUNDLE_CHUNK } from '../../lib/workers/dispatch-port.js';
import { encode } from '../../lib/workers/messages.js';
import { inboxOf } from '../../lib/workers/nats-config.js';
import { startNatsServer, type NatsServer } from '../../lib/workers/nats-server.js';
import { applyResult, bundleResult, folderFromBundle } from '../../lib/workers/run-bundle.js';
import { sessionStore } from '../../lib/workers/session-files.js';
import { claimStep } from '../../lib/workers/step-queue.js';
import type { TurnInput, TurnResult } from '../../lib/harness/adapter.js';
import { eventually, gitRepo, tempDir } from '../helpers/env.js';

// The hub killed at the worst instants (docs/workers.md, "The hub is killed mid-turn"), each made
// to happen, not waited for: the real nats-server, the hub's real Dispatcher over the real LMDB
// journal, and the test as the engine (the turn's callbacks write the run's events and log lines)
// and as the worker (it claims, fetches the dispatch bundle and sends its messages as
// `svc worker join` does). The hub's connection is cut from inside the engine's callback (its
// nats-server SIGKILLed), so the message being applied is never acked; then the hub starts again on
// the same journal and the same JetStream store and takes the step up.

const RUN = 'r1';
const STEP = 's1';
const hubKey = nkeys.createUser();
const workerKey = nkeys.createUser();

const startServer = (dir: string): Promise<NatsServer> =>
  startNatsServer(dir, '127.0.0.1:-1', { hubKey: hubKey.getPublicKey(), workers: [{ workerId: 'wa', publicKey: workerKey.getPublicKey() }] });

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, stdio: 'pipe' }).toString().trim();

/** the engine's part, as agent-step.ts does it: the agent's messages are run events, its output log lines */
const engine = (journal: Journal, logs: LogStore, cut: (text: string) => void) => {
  const stream = `run:${RUN}`;
  return {
    onMessage: (text: string) => {
      journal.append(stream, journal.head(stream), [{ type: 'AgentReplied', data: { stepId: STEP, text } }], new Date().toISOString());
      cut(text);
    },
    onLog: ({ text }: { text: string }) => {
      logs.write(RUN, 'agent', text);
      cut(text);
    },
    replies: () => journal.read(stream).map((e) => (e.data as { text: string }).text),
  };
};

/** a hub on the home's LMDB store and the server at `url`: the Dispatcher as workers-pool.ts composes it */
const openHub = async (db: string, url: string, cut: (text: string) => void) => {
  const store: Store = openStore(db);
  const journal = new Journal(store);
  const logs = new LogStore(store);
  const fence = fenceOf(openDispatch(journal), () => new Date(), () => undefined, () => false, new AppliedMessages(store));
  const nc = await connect({ servers: url, authenticator: nkeyAuthenticator(hubKey.getSeed()), maxReconnectAttempts: -1 });
  const seats = async () => [{ workerId: 'wa', online: true, slots: 1, busy: 0, harnesses: ['claude' as const] }];
  const dispatcher = await Dispatcher.open(nc, fence, { ackWaitMs: 120_000, maxDeliver: 3, maxAckPending: 10 }, { seats, sessions: sessionStore(tempDir('svc-sessions-')) });
  const e = engine(journal, logs, cut);
  const turn = (cwd: string): Promise<TurnResult> => {
    const input: TurnInput = {
      runId: RUN, stepId: STEP, cwd, prompt: 'Do it.', tools: 'edit', watchdogMs: 600_000, env: {}, signal: new AbortController().signal,
      runTools: { url: 'http://127.0.0.1:9/run-tools', token: 'unused' }, onLog: e.onLog, onMessage: e.onMessage,
    };
    return dispatcher.start(input, 'claude', { harness: 'claude', runOn: 'wa' }, []);
  };
  let closed: Promise<void> | undefined;
  return {
    turn, journal, logs, replies: e.replies,
    close: () => (closed ??= (async () => { await dispatcher.close(); await nc.close(); await store.close(); })()),
  };
};

/** the worker's side, as step-runner.ts speaks it: each message on its own subject with its own id */
const asWorker = async (url: string) => {
  const nc: NatsConnection = await connect({ servers: url, authenticator: nkeyAuthenticator(workerKey.getSeed()), inboxPrefix: inboxOf('wa') });
  const js = jetstream(nc);
  let n = 0;
  return {
    nc,
    ask: async (what: string, body: unknown) => JSON.parse((await nc.request(`svc.w.wa.${what}`, encode(body), { timeout: 30_000 })).string()),
    send: async (m: Record<string, unknown>) => void (await js.publish(`svc.w.wa.out.${STEP}`, encode({ ...m, token: 1 }), { msgID: `${STEP}.1.${++n}` })),
    /** the next message id continues from the last one sent before the hub was killed */
    from: (last: number) => { n = last; },
  };
};

/** how many messages SVC_OUT holds (a work queue: a message acked is gone) */
const outHeld = async (url: string): Promise<number> => {
  const nc = await connect({ servers: url, authenticator: nkeyAuthenticator(hubKey.getSeed()) });
  try {
    return (await (await jetstreamManager(nc)).streams.info(OUT_STREAM)).state.messages;
  } finally {
    await nc.close();
  }
};

// the hub takes the step; the worker claims it (delivery 1, token 1) and makes the run folder from the dispatch bundle
type T = { log: (s: string) => void; teardown: (f: () => Promise<unknown>) => void };

const dispatched = async (t: T, natsDir: string, db: string, cwd: string, cut: (text: string) => void) => {
  const server = await startServer(natsDir);
  t.teardown(() => server.stop());
  const hub = await openHub(db, server.url, cut);
  t.teardown(() => hub.close());
  // this turn ends with "the hub stopped" when the killed hub is closed; the restarted hub's turn is the step's
  void hub.turn(cwd);
  const worker = await asWorker(server.url);
  t.teardown(() => worker.nc.close());
  const claim = await eventually(() => claimStep(worker.nc, 2_000, 'wa').catch(() => null), (c) => c !== null, 30_000);
  t.log(`claimed ${claim!.stepId}, delivery ${claim!.token}`);
  const claimed = await worker.ask('claim', { stepId: STEP, token: 1 });
  if (!claimed.ok) throw new Error(`the claim was refused: ${JSON.stringify(claimed)}`);
  return { server, hub, worker };
};

// the hub was killed (its server with it): it starts again on the same LMDB store and the same JetStream store
const restarted = async (t: T, natsDir: string, db: string, old: { hub: { close(): Promise<void> }; worker: { nc: NatsConnection }; server: NatsServer }) => {
  await old.hub.close();
  await old.worker.nc.close();
  await old.server.stop();
  const server = await startServer(natsDir);
  t.teardown(() => server.stop());
  const hub = await openHub(db, server.url, () => undefined);
  t.teardown(() => hub.close());
  const worker = await asWorker(server.url);
  t.teardown(() => worker.nc.close());
  return { server, hub, worker };
};

const killer = (natsDir: string, at: string) => {
  let done = false;
  return {
    cut: (text: string) => {
      if (done || text !== at) return;
      done = true;
      // the hub's connection is gone from this instant: what it acks after this reaches no server
      process.kill(Number(readFileSync(join(natsDir, 'nats.pid'), 'utf8')), 'SIGKILL');
    },
    done: () => done,
  };
};

test.serial('(a) a message applied when the hub is killed, not yet acked: delivered again after the restart, it is skipped; each event and line once', async (t) => {
  t.timeout(180_000);
  const natsDir = join(tempDir('svc-nats-'), 'nats');
  const db = join(tempDir('svc-db-'), 'db');
  const cwd = gitRepo();
  git(cwd, 'checkout', '-q', '-b', `svc/${RUN}`);
  const kill = killer(natsDir, 'Cut here.');
  const before = await dispatched(t, natsDir, db, cwd, kill.cut);
  await before.worker.send({ kind: 'log', text: 'line one' });
  await before.worker.send({ kind: 'message', text: 'Working.' });
  await before.worker.send({ kind: 'message', text: 'Cut here.' });
  await eventually(() => kill.done(), (d) => d, 30_000);
  t.log('the hub was cut off while it applied "Cut here."');

  const after = await restarted(t, natsDir, db, before);
  after.worker.from(3);
  const result = after.hub.turn(cwd);
  await after.worker.send({ kind: 'message', text: 'Done.' });
  // the result only once the hub has dealt with everything before it: a message delivered again
  // (at once, or an ack_wait later) has been taken, or skipped, by then
  await eventually(() => outHeld(after.server.url), (held) => held === 0, 90_000);
  await after.worker.send({ kind: 'result', result: { outcome: 'success', summary: 'done' }, chunks: 0 });
  t.like(await result, { outcome: 'success' });
  t.deepEqual(after.hub.replies(), ['Working.', 'Cut here.', 'Done.'], 'each of the agent\'s messages once, in order');
  t.deepEqual(after.hub.logs.all(RUN).map((l) => l.text).filter((l) => !l.startsWith('[hub]')), ['line one']);
  const dispatch = after.hub.journal.read('dispatch').map((e) => e.type);
  t.is(dispatch.filter((x) => x === 'StepResultApplied').length, 1);
  t.is(dispatch.filter((x) => x === 'StepMessageDiscarded').length, 0, dispatch.join(', '));
  t.is(await outHeld(after.server.url), 0, 'every message acked in the end');
});

/** `wentIn`: the hub got as far as putting the work into the run folder, and recorded nothing */
const workCutOff = async (t: ExecutionContext, wentIn: boolean) => {
  t.timeout(180_000);
  const natsDir = join(tempDir('svc-nats-'), 'nats');
  const db = join(tempDir('svc-db-'), 'db');
  const cwd = gitRepo();
  git(cwd, 'checkout', '-q', '-b', `svc/${RUN}`);
  const kill = killer(natsDir, 'the work is sent');
  const before = await dispatched(t, natsDir, db, cwd, kill.cut);
  // the worker's turn: the folder from the hub's bundle, a file of three parts' worth, committed
  const here = tempDir('svc-worker-');
  const folder = join(here, 'run');
  const parts: Buffer[] = [];
  for (let index = 0, of = 1; index < of; index++) {
    const r = await before.worker.ask('bundle', { stepId: STEP, token: 1, index });
    of = r.of;
    parts.push(Buffer.from(r.data, 'base64'));
  }
  writeFileSync(join(here, 'in.bundle'), Buffer.concat(parts));
  await folderFromBundle(folder, RUN, STEP, join(here, 'in.bundle'));
  const big = randomBytes(BUNDLE_CHUNK * 2 + 1000).toString('hex');
  writeFileSync(join(folder, 'work.txt'), big);
  git(folder, 'add', '-A');
  git(folder, 'commit', '-q', '-m', 'the step\'s work');
  const commit = git(folder, 'rev-parse', 'HEAD');
  await bundleResult(folder, RUN, STEP, join(here, 'out.bundle'));
  const bytes = readFileSync(join(here, 'out.bundle'));
  const chunks = Math.ceil(bytes.length / BUNDLE_CHUNK);
  t.true(chunks >= 2, `the work crosses in ${chunks} parts`);

  await before.worker.send({ kind: 'message', text: 'Working.' });
  for (let index = 0; index < chunks; index++) await before.worker.send({ kind: 'bundle', index, data: bytes.subarray(index * BUNDLE_CHUNK, (index + 1) * BUNDLE_CHUNK).toString('base64') });
  await before.worker.send({ kind: 'log', text: 'the work is sent' });
  await eventually(() => kill.done(), (d) => d, 30_000);
  t.log(`the hub was cut off after it took the ${chunks} parts, before the result`);
  if (wentIn) await applyResult(cwd, RUN, STEP, join(here, 'out.bundle'));

  const after = await restarted(t, natsDir, db, before);
  after.worker.from(chunks + 2);
  const result = after.hub.turn(cwd);
  await after.worker.send({ kind: 'result', result: { outcome: 'success', summary: 'done' }, chunks });
  t.like(await result, { outcome: 'success' });
  t.is(readFileSync(join(cwd, 'work.txt'), 'utf8'), big, 'the worker\'s work is in the hub\'s run folder');
  t.is(git(cwd, 'rev-parse', `refs/heads/svc/${RUN}`), commit, 'the run\'s branch moved to the worker\'s commit');
  t.deepEqual(after.hub.replies(), ['Working.']);
  t.deepEqual(after.hub.logs.all(RUN).map((l) => l.text).filter((l) => !l.startsWith('[hub]')), ['the work is sent']);
  const dispatch = after.hub.journal.read('dispatch').map((e) => e.type);
  t.is(dispatch.filter((x) => x === 'StepMessageDiscarded').length, 0, dispatch.join(', '));
  t.is(dispatch.filter((x) => x === 'StepResultApplied').length, 1);
  t.is(git(cwd, 'for-each-ref', 'refs/svc/dispatch/'), '', 'the dispatch\'s ref goes once the result is recorded');
  // the parts are acked once the step has ended
  await eventually(() => outHeld(after.server.url), (held) => held === 0, 30_000);
};

test.serial('(b) the hub killed while the result\'s work arrives: its parts wait in SVC_OUT, and the restarted hub applies the work', (t) => workCutOff(t, false));

// The instant between the work going into the run folder and the result's record is not reachable
// from outside the hub; what it leaves is: the work in the folder, nothing recorded, the parts and
// the result in SVC_OUT. The restarted hub takes the step up from the dispatch's ref (still there)
// and applies the same work again, which changes nothing.
test.serial('(c) the hub killed after the work went into the run folder, before it recorded the result: taken up, applied again, recorded once', (t) => workCutOff(t, true));
