import '../helpers/env.js';
import test from 'ava';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startModelServer } from '../fixtures/model-server/server.js';
import { hang } from '../fixtures/model-server/script.js';
import { killHard, spawnServer, type ChildServer } from '../helpers/child-server.js';
import { eventually, freshHome, gitRepo, writeWorkflow } from '../helpers/env.js';
import { makeMachines, startWorker, type RunningWorker } from '../helpers/worker-netns.js';
import { realCliEnv, REAL } from '../helpers/real-run.js';

// The max-deliveries advisory reaches a restarted hub (docs/workers.md, "A worker killed
// mid-turn"): a project pinned to one worker (its own network and mount namespaces, the real
// claude), at most two deliveries. The step's first delivery runs there; `svc serve` is SIGKILLed
// and started again, and takes the step up. Then the worker's machine dies (every process killed)
// and comes back, twice: it runs the second delivery, and after that one lapses the server gives
// the step up. The restarted hub never dispatched the step, and the old one matched the advisory
// to its step only in its memory: now the step fails with "worker lost" and the run is Failed.

const net = makeMachines('svcg', 82, 1);
test.after.always(() => net.cleanup());

const freePort = (host: string): Promise<number> => new Promise((resolve) => {
  const s = createServer().listen(0, host, () => { const { port } = s.address() as { port: number }; s.close(() => resolve(port)); });
});

const call = async (s: ChildServer, method: string, path: string, body?: unknown) => {
  const r = await fetch(`${s.url}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return r.json() as Promise<any>;
};

test('a pinned step dispatched before svc serve restarted, given up after, fails with "worker lost"', async (t) => {
  t.timeout(400_000);
  realCliEnv('claude');
  const model = await startModelServer([], net.hubIp);
  t.teardown(() => model.close());
  Object.assign(process.env, { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-test' });
  const home = freshHome();
  writeWorkflow(home, 'real', REAL);
  const env = { SVC_NATS_LISTEN: `${net.hubIp}:${await freePort(net.hubIp)}`, SVC_STEP_ACK_WAIT_MS: '4000', SVC_STEP_MAX_DELIVERIES: '2', SVC_WORKER_TTL_MS: '3000' };
  const first = await spawnServer(home, env);
  t.teardown(() => { first.child.kill('SIGKILL'); });
  const project = await call(first, 'POST', '/api/projects', { name: 'given-up', folders: [{ path: gitRepo() }] });
  const { token, hub } = await call(first, 'POST', '/api/workers/tokens', { name: 'desk' });
  const workerId = token.split('.')[0] as string;
  const m = net.machines[0]!;
  const workers: RunningWorker[] = [startWorker(m, net.hubIp, dirname(home), hub, token, model.url)];
  t.teardown(() => { for (const w of workers) try { w.killAll(); } catch { /* gone */ } });
  const output = () => workers.map((w, i) => `--- worker, start ${i + 1} ---\n${w.output()}`).join('\n');
  await eventually(() => call(first, 'GET', '/api/workers'), (r) => r.workers.some((w: any) => w.workerId === workerId && w.state === 'online'), 60_000)
    .catch((e: Error) => { throw new Error(`${e.message}\n${output()}`); });
  await call(first, 'PATCH', `/api/projects/${project.id}`, { runOn: workerId });

  // the first delivery runs on the worker, and the model goes quiet
  model.push(hang(), hang());
  const runId = (await call(first, 'POST', '/api/runs', { project: project.id, goal: 'Given up while the hub was away.', workflow: 'real', harness: 'claude' })).runId as string;
  await model.waitForScripted(1);
  t.is(model.requests.filter((r) => r.scripted)[0]!.from, m.ip);

  // svc serve is killed and started again: it takes the step up
  await killHard(first);
  const second = await spawnServer(home, env);
  t.teardown(() => { second.child.kill('SIGKILL'); });
  await eventually(() => call(second, 'GET', `/api/runs/${runId}/log?pageSize=200`), (r) => r.lines.some((l: any) => /its turn goes on there/.test(l.text)), 60_000)
    .catch(async (e: Error) => { throw new Error(`${e.message}\n${output()}\n--- server ---\n${second.output()}`); });

  // the worker's machine dies and comes back: it runs the second delivery; it dies again and
  // comes back: that lease lapses too, and the server gives the step up
  for (const delivery of [2, 3]) {
    workers.at(-1)!.killAll();
    await sleep(1000);
    workers.push(startWorker(m, net.hubIp, dirname(home), hub, token, model.url));
    if (delivery === 2) await Promise.race([model.waitForScripted(2), sleep(60_000, undefined, { ref: false }).then(() => { throw new Error(`the second delivery did not run\n${output()}`); })]);
  }
  const logOf = async () => (await call(second, 'GET', `/api/runs/${runId}/log?pageSize=200`)).lines.map((l: any) => `${l.source} ${l.text}`).join('\n');
  const ended = await eventually(() => call(second, 'GET', `/api/runs/${runId}`), (r) => r.phase === 'Ended', 120_000)
    .catch(async (e: Error) => { throw new Error(`${e.message}\n--- run log ---\n${await logOf()}\n${output()}\n--- server ---\n${second.output()}`); });
  t.like(ended, { standing: 'Failed', outcome: 'failure' });
  const d = await call(second, 'GET', `/api/runs/${runId}/detail`);
  t.is(d.machine.steps[0].lost, 'worker lost: its lease lapsed on the last delivery');
  const history = (await call(second, 'GET', `/api/runs/${runId}/history?pageSize=200`)).events as any[];
  t.regex(JSON.stringify(history.find((e) => e.type === 'StepFailed')), /worker lost/);
  t.is(history.filter((e) => e.type === 'StepStarted').length, 1, 'the step was taken up, not run again');
  t.deepEqual(model.requests.filter((r) => r.scripted).map((r) => r.from), [m.ip, m.ip], 'two deliveries, both on the worker');
  t.regex(await logOf(), /worker lost: its lease lapsed on the last delivery/);
});
