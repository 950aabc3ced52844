import '../helpers/env.js';
import test from 'ava';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { Journal } from '../../journal/journal.js';
import { openStore } from '../../journal/store.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { runShell, say } from '../fixtures/model-server/script.js';
import { CLI } from '../helpers/cli.js';
import { callChild, childHistory, killHard, spawnServer, type ChildServer } from '../helpers/child-server.js';
import { eventually, freshHome, gitRepo, repoRoot, tempDir, writeWorkflow } from '../helpers/env.js';
import { spawnGroup } from '../helpers/process-groups.js';
import { realCliEnv, REAL } from '../helpers/real-run.js';

// The hub is killed mid-turn (docs/workers.md, "When things die"): `svc serve` SIGKILLed while two
// turns run on two workers (each in its own network namespace with its own home, the real claude
// against the scripted model server; two projects, each pinned to one). The worker goes on: its turns end while the hub is gone and what they say waits
// in the durable stream SVC_OUT. The next `svc serve` on the same home takes the dispatched turns
// up instead of running them again: every event is in the journal once and both runs succeed.

const n = process.pid % 250;
// two veth pairs, one per worker's namespace, in two /30s of 10.79.<n>.0/24
const NETS = ['a', 'b'].map((x, i) => ({
  ns: `svcf${process.pid}${x}`, hubIf: `svfh${process.pid}${x}`, workerIf: `svfw${process.pid}${x}`,
  hubIp: `10.79.${n}.${4 * i + 1}`, workerIp: `10.79.${n}.${4 * i + 2}`,
}));
const HUB_IP = NETS[0]!.hubIp;

// a shell command in the turn (so the turn asks the model again after it), which claude runs without asking below full
const FULL = REAL.replace('prompt="{{goal}}"', 'prompt="{{goal}}", tools=full');

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });

test.before(() => {
  for (const { ns, hubIf, workerIf, hubIp, workerIp } of NETS) {
    ip('netns', 'add', ns);
    ip('link', 'add', hubIf, 'type', 'veth', 'peer', 'name', workerIf);
    ip('link', 'set', workerIf, 'netns', ns);
    ip('addr', 'add', `${hubIp}/30`, 'dev', hubIf);
    ip('link', 'set', hubIf, 'up');
    ip('netns', 'exec', ns, 'ip', 'addr', 'add', `${workerIp}/30`, 'dev', workerIf);
    ip('netns', 'exec', ns, 'ip', 'link', 'set', workerIf, 'up');
    // the second worker reaches the hub's address on the first pair through its own
    ip('netns', 'exec', ns, 'ip', 'route', 'add', 'default', 'via', hubIp);
    ip('netns', 'exec', ns, 'ip', 'link', 'set', 'lo', 'up');
  }
});

test.after.always(() => {
  for (const { ns, hubIf } of NETS) {
    try { ip('netns', 'del', ns); } catch { /* gone */ }
    try { ip('link', 'del', hubIf); } catch { /* went with the namespace */ }
  }
});

// the restarted hub's nats-server must listen where the worker reconnects: a port fixed for the test
const freePort = (host: string): Promise<number> => new Promise((resolve) => {
  const s = createServer().listen(0, host, () => { const { port } = s.address() as { port: number }; s.close(() => resolve(port)); });
});

const startWorker = (ns: string, hubHome: string, url: string, token: string, modelUrl: string) => {
  const home = tempDir('svc-worker-home-');
  const cover = tempDir('svc-worker-root-');
  const env = { ...process.env, HOME: home, SVC_HOME: join(home, '.svc'), ANTHROPIC_BASE_URL: modelUrl, ANTHROPIC_API_KEY: 'sk-test', NO_PROXY: `127.0.0.1,localhost,${HUB_IP}` };
  const script = 'mount --bind "$1" "$2" && shift 2 && exec "$@"';
  const child: ChildProcess = spawnGroup('ip', ['netns', 'exec', ns, 'unshare', '-m', '--propagation', 'private', 'sh', '-c', script, 'sh', cover, hubHome,
    process.execPath, ...CLI, 'worker', 'join', url, token, '--slots', '1'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  return { child, output: () => out };
};

const call = callChild;
const historyOf = childHistory;

test('svc serve SIGKILLed during turns on two workers: the workers finish them, the restarted hub takes them up, every event once, the runs succeed', async (t) => {
  t.timeout(400_000);
  realCliEnv('claude');
  const model = await startModelServer([], HUB_IP);
  t.teardown(() => model.close());
  Object.assign(process.env, { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-test' });
  const home = freshHome();
  writeWorkflow(home, 'full', FULL);
  const env = { SVC_NATS_LISTEN: `${HUB_IP}:${await freePort(HUB_IP)}`, SVC_STEP_ACK_WAIT_MS: '8000' };
  const first = await spawnServer(home, env);
  t.teardown(() => { first.child.kill('SIGKILL'); });
  // two projects, each pinned to its own worker
  const pinned: { project: { id: string }; workerId: string; worker: ReturnType<typeof startWorker> }[] = [];
  for (const { ns } of NETS) {
    const project = await call(first, 'POST', '/api/projects', { name: `restart-${ns}`, folders: [{ path: gitRepo() }] });
    const { token, hub } = await call(first, 'POST', '/api/workers/tokens', { name: ns });
    pinned.push({ project, workerId: token.split('.')[0] as string, worker: startWorker(ns, dirname(home), hub, token, model.url) });
  }
  const explain = (e: Error): never => { throw new Error(`${e.message}${pinned.map((p) => `\n--- worker ${p.workerId} ---\n${p.worker.output()}`).join('')}`); };
  for (const { project, workerId } of pinned) {
    await eventually(() => call(first, 'GET', '/api/workers'), (r) => r.workers.some((w: any) => w.workerId === workerId && w.state === 'online'), 60_000).catch(explain);
    await call(first, 'PATCH', `/api/projects/${project.id}`, { runOn: workerId });
  }

  let release: () => void = () => {};
  const gate = new Promise<void>((r) => (release = r));
  const work = { ...runShell('echo working', 'Working.'), gate };
  model.push(work, work, say('Finished.'), say('Finished.'));
  const runs = await Promise.all(pinned.map(async ({ project }, i) => (await call(first, 'POST', '/api/runs', { project: project.id, goal: `Turn ${i} on its worker.`, workflow: 'full', harness: 'claude' })).runId as string));
  // both turns run on the worker and wait on the model; the hub has heard from them
  await model.waitForScripted(2);
  t.log('both turns wait on the model');
  for (const runId of runs) await eventually(() => historyOf(first, runId), (h) => h.some((e) => e.type === 'StepSessionStarted'), 60_000).catch(explain);

  await killHard(first);
  t.log('the hub is killed');
  // the hub is gone: the turns go on and end on the worker, their messages wait in SVC_OUT
  release();
  await model.waitForScripted(4);
  await new Promise((r) => setTimeout(r, 3000));
  t.log('both turns ended on their workers while the hub was gone');

  const second = await spawnServer(home, env);
  t.teardown(() => { second.child.kill('SIGKILL'); });
  for (const [i, runId] of runs.entries()) {
    const { workerId } = pinned[i]!;
    await eventually(() => call(second, 'GET', `/api/runs/${runId}`), (r) => r.phase === 'Ended', 200_000).catch(async (e: Error) => {
      const log = (await call(second, 'GET', `/api/runs/${runId}/log?pageSize=200`)).lines.map((l: any) => `${l.source} ${l.text}`).join('\n');
      explain(new Error(`${e.message}\n--- run log ---\n${log}\n--- server ---\n${second.output()}`));
    });
    t.is((await call(second, 'GET', `/api/runs/${runId}`)).outcome, 'success');
    const h = await historyOf(second, runId);
    const types = h.map((e) => e.type);
    t.false(types.includes('StepInterrupted'), 'the turn was taken up, not run again');
    t.is(types.filter((x) => x === 'StepStarted').length, 1);
    t.is(types.filter((x) => x === 'StepSucceeded').length, 1);
    t.is(types.filter((x) => x === 'RunSucceeded').length, 1);
    t.is(types.filter((x) => x === 'StepSessionStarted').length, 1);
    const replies = h.filter((e) => e.type === 'AgentReplied').map((e) => e.data.text);
    t.deepEqual(replies, ['Working.', 'Finished.'], 'each of the agent\'s messages once, in order');
    const log = (await call(second, 'GET', `/api/runs/${runId}/log?pageSize=200`)).lines.map((l: any) => l.text as string);
    t.is(log.filter((l: string) => l === 'assistant: Finished.').length, 1, log.join('\n'));
    t.true(log.some((l: string) => l.includes(`was running on worker ${workerId} when the service stopped; its turn goes on there`)));
  }
  // the model was asked four times: no turn ran twice
  t.is(model.requests.filter((r) => r.scripted).length, 4);
  t.deepEqual([...new Set(model.requests.filter((r) => r.scripted).map((r) => r.from))].sort(), NETS.map((x) => x.workerIp).sort(), 'each turn ran on its own worker');
  second.child.kill('SIGTERM');
  await new Promise((r) => second.child.once('exit', r));
  const store = openStore(join(home, 'db'));
  t.teardown(() => store.close());
  const dispatch = new Journal(store).read('dispatch');
  const count = (type: string) => dispatch.filter((e) => e.type === type).length;
  t.is(count('StepDispatched'), 2);
  t.is(count('StepResultApplied'), 2);
  t.is(count('StepClaimed'), 2);
  t.is(count('StepMessageDiscarded'), 0, JSON.stringify(dispatch));
});
