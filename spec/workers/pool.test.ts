import '../helpers/env.js';
import test from 'ava';
import { startModelServer, type ModelServer } from '../fixtures/model-server/server.js';
import type { ModelTurn } from '../fixtures/model-server/script.js';
import { eventually } from '../helpers/env.js';
import { setRunCap } from '../helpers/http-kit.js';
import { joinWorkers, makeMachines, type RunningWorker } from '../helpers/worker-netns.js';
import { realCliEnv, REAL } from '../helpers/real-run.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { control, untilStanding } from '../helpers/steer.js';

// The pool under load and a worker gone quiet (docs/workers.md, "Run on: any"): two worker machines
// of two slots each (network and mount namespaces of their own), the real claude on each against
// the scripted model server, whose every answer is held until the test lets it go, so turns pile up.

const net = makeMachines('svce', 78, 2);
test.after.always(() => net.cleanup());

interface Pool { s: TestServer; model: ModelServer; workers: RunningWorker[]; ids: string[]; ipOf: (workerId: string) => string; output: () => string }

const pool = async (t: import('ava').ExecutionContext): Promise<Pool> => {
  realCliEnv('claude');
  Object.assign(process.env, { SVC_NATS_LISTEN: `${net.hubIp}:-1`, SVC_WORKER_TTL_MS: '3000', SVC_STEP_ACK_WAIT_MS: '6000' });
  const model = await startModelServer([], net.hubIp);
  t.teardown(() => model.close());
  Object.assign(process.env, { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-test' });
  const s = await testServer({ workflows: { real: REAL } });
  t.teardown(() => s.close());
  const { workers, ids, output } = await joinWorkers(t, net, s, model.url, { slots: 2 });
  t.is((await s.send('PATCH', `/api/projects/${s.projectId}`, JSON.stringify({ runOn: 'any' }))).body.runOn, 'any');
  return { s, model, workers, ids, ipOf: (w) => net.machines[ids.indexOf(w)]!.ip, output };
};

// a run that did not end as hoped: its log, which run each scripted request spoke for, and the workers' output
const whyNot = async (e: Error, s: TestServer, runId: string, model: ModelServer, output: () => string): Promise<never> => {
  const log = (await s.get(`/api/runs/${runId}/log?pageSize=200`)).body.lines?.map((l: any) => `${l.source} ${l.text}`).join('\n');
  const asked = model.requests.map((r, i) => `${i} ${r.scripted ? 'scripted' : 'side'} from ${r.from}: ${JSON.stringify(r.body).match(/Run number \d+/g)?.at(-1) ?? '?'}`).join('\n');
  throw new Error(`${e.message}\n--- run log ---\n${log}\n--- model requests ---\n${asked}\n--- workers ---\n${JSON.stringify((await s.get('/api/workers')).body)}\n${output()}`);
};

const startRun = async (s: TestServer, goal: string): Promise<string> => {
  const runId = (await s.post('/api/runs', { project: s.projectId, goal, workflow: 'real', harness: 'claude', start: false })).body.runId as string;
  await control(s, runId, 'Resume');
  return runId;
};

test.serial('backpressure: 12 runs over 2 workers of 2 slots: never more than 2 turns on a worker, the rest wait in line with their place shown, all succeed', async (t) => {
  t.timeout(600_000);
  const { s, model, output } = await pool(t);
  await setRunCap(s, 12);
  const releases: (() => void)[] = [];
  const turns: ModelTurn[] = Array.from({ length: 12 }, (_, i) => ({ kind: 'reply', text: `TURN-${i}-DONE`, gate: new Promise<void>((r) => releases.push(r)) }));
  model.push(...turns);
  const runs: string[] = [];
  for (let i = 0; i < 12; i++) runs.push(await startRun(s, `Run number ${i}.`));
  const scripted = () => model.requests.filter((r) => r.scripted);

  // four turns run (two per worker), the other eight wait in the hub's line, in order, each told its place
  await model.waitForScripted(4);
  const line = await eventually(() => s.get('/api/workers'), (r) => r.body.queue.length === 8 && r.body.queue.every((q: any) => q.why !== 'not placed yet'), 60_000).catch((e: Error) => { throw new Error(`${e.message}\n${output()}`); });
  t.deepEqual(line.body.queue.map((q: any) => q.position), [1, 2, 3, 4, 5, 6, 7, 8]);
  t.is(new Set(line.body.queue.map((q: any) => q.runId)).size, 8);
  t.true(line.body.queue.every((q: any) => runs.includes(q.runId) && q.why === 'no online worker with claude ready has a free slot'), JSON.stringify(line.body.queue));
  const waiting = line.body.queue[7].runId as string;
  const waitingLog = (await s.get(`/api/runs/${waiting}/log?pageSize=200`)).body.lines.map((l: any) => l.text).join('\n');
  t.regex(waitingLog, /waiting for a worker, \d+(st|nd|rd|th) in line: no online worker with claude ready has a free slot/);
  const rows = (await s.get('/api/workers')).body.workers;
  t.true(rows.every((w: any) => w.slotsInUse <= 2));

  // let the answers go one at a time, oldest first; whenever a request arrives, no worker holds more than two
  let peak = 0;
  for (let released = 0; released < 12; released++) {
    await model.waitForScripted(released + 1);
    const held = scripted().slice(released);
    const perWorker = new Map<string, number>();
    for (const r of held) perWorker.set(r.from ?? '', (perWorker.get(r.from ?? '') ?? 0) + 1);
    peak = Math.max(peak, ...perWorker.values());
    t.true([...perWorker.values()].every((n) => n <= 2), `turns held per worker: ${JSON.stringify([...perWorker])}`);
    releases[released]!();
  }
  t.is(peak, 2, 'each worker ran two turns at once at its peak');
  for (const runId of runs) t.is((await untilStanding(s, runId, 'Succeeded', 300_000).catch((e: Error) => whyNot(e, s, runId, model, output))).outcome, 'success');
  t.is(scripted().length, 12);
  const from = new Set(scripted().map((r) => r.from));
  t.deepEqual([...from].sort(), net.machines.map((m) => m.ip).sort(), 'both workers took turns');
  t.deepEqual((await s.get('/api/workers')).body.queue, []);
});

test.serial('presence: a worker whose heartbeat stops is shown lost within the time to live, and placement moves on', async (t) => {
  t.timeout(300_000);
  const { s, model, workers, ids, ipOf, output } = await pool(t);
  // both idle with two free slots: placement would pick the lower id; that one goes quiet
  const quiet = [...ids].sort()[0]!;
  const other = ids.find((w) => w !== quiet)!;
  const stoppedAt = Date.now();
  workers[ids.indexOf(quiet)]!.signalAll('STOP');
  const lost = await eventually(() => s.get('/api/workers'), (r) => r.body.workers.find((w: any) => w.workerId === quiet)?.state === 'lost', 30_000);
  t.is(lost.body.workers.find((w: any) => w.workerId === other).state, 'online');
  t.log(`heartbeat stopped to shown lost: ${Date.now() - stoppedAt} ms (ttl 3000 ms)`);

  model.push({ kind: 'reply', text: 'PLACED-ELSEWHERE' });
  const runId = await startRun(s, 'Say where you ran.');
  await untilStanding(s, runId, 'Succeeded', 150_000).catch((e: Error) => whyNot(e, s, runId, model, output));
  const step = [...s.service.workers.dispatches.current.values()].find((d) => d.runId === runId)!;
  t.is(step.claim?.workerId, other, 'the step went to the worker still online');
  t.true(model.requests.filter((r) => r.scripted).every((r) => r.from === ipOf(other)));
  const log = (await s.get(`/api/runs/${runId}/log?pageSize=200`)).body.lines.map((l: any) => l.text).join('\n');
  t.true(log.includes(`attempt 1 placed on worker ${other} (free)`), log);
  t.false(log.includes(`placed on worker ${quiet}`), 'the quiet worker was never chosen');

  // it comes back: shown online again
  workers[ids.indexOf(quiet)]!.signalAll('CONT');
  await eventually(() => s.get('/api/workers'), (r) => r.body.workers.find((w: any) => w.workerId === quiet)?.state === 'online', 30_000);
});
